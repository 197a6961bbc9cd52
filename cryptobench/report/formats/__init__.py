"""How a report is written: one module per format of each subject, the run's HTML page in html/.

The run report: terminal.py, markdown.py, csv.py, json_.py, html/. Comparisons:
compare_terminal.py, compare_markdown.py, compare_json.py. The machine matrix: machines.py; a
`verify` run: verification.py; a history: history.py; a `leak` run: leak.py. Each renders what report/ built and decides
nothing; exporters.py (one level up) is the registry the commands choose a format from.
"""
