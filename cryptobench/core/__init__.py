"""The vocabulary every layer shares: algorithms, units, errors, the fixed input pattern, settings,
the cell, safe text, output files and the machine's description. Imports nothing above it."""
