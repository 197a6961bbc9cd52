"""Reports, on one axis: what is shown lives here, how it is written lives in formats/.

Here: the report model built from a stored run (model.py, records.py), comparisons, the machine
matrix, the conformance matrix, history rows, the layouts and table rows every format shares.
formats/: one module per output format of each subject (terminal, Markdown, CSV, JSON, the HTML page
in html/). Two keep both for now: json_.py (the run's JSON: its records as they are) and
leak_table.py (the leak table with its four renderings). exporters.py is the one registry of
formats the commands choose from (as hyperfine's src/export/).
"""

from cryptobench.report.model import Report, build_report, load_report

__all__ = ["Report", "build_report", "load_report"]
