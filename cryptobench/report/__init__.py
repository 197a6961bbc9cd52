"""Reports, on one axis: what is shown here, how it is written in formats/.

Here: the report model built from a stored run (model.py, records.py), comparisons, matrices, the
layouts and table rows every format shares, and the subjects that still carry their own renderers
(conformance, leak, history, machines). formats/: one module per output format (terminal, Markdown,
CSV, JSON, the HTML page in html/). exporters.py is the one registry of formats the commands
choose from (as hyperfine's src/export/)."""

from cryptobench.report.model import Report, build_report, load_report

__all__ = ["Report", "build_report", "load_report"]
