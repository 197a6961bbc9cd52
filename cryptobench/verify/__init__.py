"""Whether a provider is right before it is timed: vectors, differential and cross-checks, conformance,
witnesses, the driver rules and `plugin check`."""
