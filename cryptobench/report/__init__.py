"""Reports: one model built from a stored run, one small module per output format, one registry
of formats (exporters.py) the commands choose from."""

from cryptobench.report.model import Report, build_report, load_report

__all__ = ["Report", "build_report", "load_report"]
