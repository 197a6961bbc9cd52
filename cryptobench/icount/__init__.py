"""Instruction counts per operation (`--metric instructions`): deterministic where time is not.

`counters` chooses how to count (hardware counters where the kernel exposes them, else valgrind),
`callgrind` and `perf` count one driver's requests, `cpu` says which CPU features the count saw,
`phase` counts a run's cells, `compare` and `history` judge counts across runs. docs/measurement.md
§ Instruction counts says why N/2N differencing and what valgrind hides.
"""
