"""What to measure: suites, the planner that turns a suite and filters into cells, leak input classes."""
