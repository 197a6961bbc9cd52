"""How a cell is timed: the sampler, response checks, scaling, the host probe and host state, memory,
plausibility, cycles, duet pinning, interrupt shielding."""
