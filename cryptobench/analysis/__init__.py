"""Numbers only: summary statistics, the paired estimator, the access-path overhead model,
composition, reference figures and the history series model. Reads no driver and no store."""
