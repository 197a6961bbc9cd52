from cryptobench.cli import entry

entry()
