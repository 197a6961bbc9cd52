"""A run from start to finish: the driver pool, the runner that verifies then measures, progress."""
