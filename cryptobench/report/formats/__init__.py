"""How a report is written: one module per format (and subject), the HTML page in html/.

What is shown lives one level up (report/: the model, comparisons, matrices, tables shared by
every format); exporters.py there is the one registry of formats the commands choose from.
"""
