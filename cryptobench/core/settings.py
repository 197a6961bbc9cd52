"""What a run is asked to do: the settings stored with it, read by the runner, sampler and driver pool."""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench.core import fixed_input


@dataclass
class Settings:
    suite: str
    baseline: str
    time_per_cell: float = 0.5
    target_ns: int = 5_000_000
    samples_per_round: int = 5
    min_samples: int = 10
    max_samples: int = 100_000
    max_rel_ci: float = 0.01
    warmup_first_ns: int = 50_000_000
    warmup_ns: int = 5_000_000
    warmup_paired_ns: int = 1_000_000  # before each request of a paired round (paired.py)
    target_paired_ns: int = 1_000_000  # a paired cell's batch: short, so a scheduler slice spoils few pairs
    pair_batches: int = 3  # batches each provider times in one request of a pair round; the pair is each side's fastest
    paired: bool = True  # providers of a cell take turns batch for batch; ratios come from the pairs
    duet: bool = False  # --duet: a pair's two batches at the same moment, on two pinned cores
    timeout: float = 60.0
    vectors_dir: str | None = None
    seed: int = fixed_input.DEFAULT_SEED
    noise: float = 0.02
    label: str = ""
    machine_label: str = ""  # this machine's name in runs and reports (default: its hostname)
    job: str = ""  # the queued job this run is for (set by `cryptobench agent`)
    # passes over the plan, each in fresh driver processes: a cell's samples are spread over the run and
    # over six process pairs, which paired.few_processes judges the variation between processes from
    passes: int = 6
    layout: str = "table"
    cpu_features: str = ""
    differential_inputs: int = 50  # per algorithm and operation; `verify` runs 500
    measure: bool = True  # as stored: a timing run (`run`), not `verify` or `leak` (the runner sets it from its phases)
    workers: list[int] = field(default_factory=list)  # --workers: worker counts for the scaling phase (scaling.py)
    leak: bool = False  # after the run (or instead of timing, `cryptobench leak`): the leak checks (leak/)
    leak_classes: list[str] = field(default_factory=list)  # leak classes to check; empty: every one that applies
    leak_seconds: float = 5.0  # per check
    leak_measurements: int = 1_000_000  # per check
    leak_threshold: float = 10.0  # |t| above this is a leak (leak/ttest.py)
    leak_target_effect: float | None = None  # % of the median: measure until that shift would show (leak/check.py)
    monte_checkpoints: int = 1  # of NIST's Monte Carlo chains (1,000 hashes each); `verify` runs 3
    metrics: list[str] = field(default_factory=lambda: ["time"])  # --metric: time, instructions (icount/)

    # the TLS cells' test PKI, made by the runner: auth -> the files a request names (verify/tls_pki.py)
    tls_pki: dict[str, dict] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "tls_pki"}  # kept in the run's environment
