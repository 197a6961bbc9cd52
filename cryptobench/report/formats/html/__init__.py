"""The HTML formats: the run page (page.py) with its charts and tables, and the inlined library."""

from cryptobench.report.formats.html.library import ensure_available
from cryptobench.report.formats.html.page import render

__all__ = ["ensure_available", "render"]
