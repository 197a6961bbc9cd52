"""Reports, on one axis: what is shown lives here, how it is written lives in formats/.

Here: the report model built from a stored run (model.py, records.py), comparisons, the machine
matrix, the conformance matrix, history rows, the layouts and table rows every format shares.
formats/: one module per output format of each subject (terminal, Markdown, CSV, JSON, the HTML page
in html/); the run's JSON writes records.py's records as they are (formats/json_.py), the leak
report is leak_table.py's rows written four ways (formats/leak.py). exporters.py is the one registry of
formats the commands choose from (as hyperfine's src/export/).
"""

from cryptobench.report.model import Report, build_report, load_report

__all__ = ["Report", "build_report", "load_report"]
