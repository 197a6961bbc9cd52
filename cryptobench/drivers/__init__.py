"""Driver processes: where they are, how to build them, how to talk to them."""
