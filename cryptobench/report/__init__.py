"""Reports: one model built from a stored run, one small module per output format."""

from .model import Report, build_report

__all__ = ["Report", "build_report"]
