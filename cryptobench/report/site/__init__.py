"""The published site's pages (`cryptobench publish`, fleet/publish.py writes them):

    common.py      the page shell (the run report's stylesheet), file names, links, a table of links
    standing.py    a machine's latest measured run as the run report draws it: its overview heat map
                   and its results tables (formats/html's own code, not a copy)
    algorithm.py   an algorithm's page: one chart per operation and size, a line per provider and
                   machine, change points marked, a selector; series measured once as a table
    changes.py     every change point of every series, newest first, for the index and machine pages
    comparison.py  two consecutive runs of a machine side by side: the `compare` table with verdicts

Every string from the store reaches the page through html.escape or json_for_script.
"""
