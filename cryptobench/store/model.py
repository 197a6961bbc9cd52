"""Records as they go into and come out of a store, independent of the backend."""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench.core.errors import StoreError


class RecordRefused(StoreError):
    """The database refuses this record itself (a value its column cannot hold, a broken reference):
    writing it again can never succeed, unlike a lock, a full disk or a server that is away."""


@dataclass
class RunRecord:
    id: int | None
    started: str
    suite: str
    settings: dict
    env: dict
    status: str = "running"  # running | complete | interrupted | failed
    finished: str | None = None
    label: str = ""
    providers: dict[str, dict] = field(default_factory=dict)  # id -> hello response
    uid: str = ""  # global id: the same in every store the run is copied to (set when it is created)
    job: str | None = None  # the queued job it ran for (cryptobench agent), if any
    # phases after the timing, each in its own table (store revision 0004; before, inside env):
    scaling: list[dict] = field(default_factory=list)  # --workers: measure/scaling.py's Scaled.record()s
    leak: list[dict] = field(default_factory=list)  # leak checks: leak/check.py's LeakResult.record()s


PHASES = ("scaling", "leak")  # a run's records that were environment until result schema 13


def phases_out_of_env(env: dict) -> tuple[dict, dict[str, list[dict]]]:
    """`env` without the scaling and leak records an older writer put in it (a result file of schema
    12 or before, a spool of then, a runner that still passes them to finish_run), and those records.
    A value that is not a list of objects is no such record: it stays where it is."""
    if not isinstance(env, dict):
        return env, {}
    moved = {k: env[k] for k in PHASES if isinstance(env.get(k), list) and all(isinstance(r, dict) for r in env[k])}
    return {k: v for k, v in env.items() if k not in moved}, moved


@dataclass
class VerifyRecord:
    provider: str
    alg: str
    status: str  # passed | failed | unverified | no-vectors
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    detail: str = ""  # the first failure: "vector <file>#<id>: <why>"
    # cases per source, first failure, Monte Carlo, differential and the floor (cryptobench/verify/conformance.py)
    conformance: dict = field(default_factory=dict)


@dataclass
class CellRecord:
    provider: str
    alg: str
    op: str
    size: int
    chunk: int
    status: str  # ok | failed | not-offered
    reason: str = ""
    batch: int = 0
    samples_ns: list[int] = field(default_factory=list)  # raw: ns per batch
    checksum: str = ""
    checksums_seen: list[str] = field(default_factory=list)
    peak_rss_kb: int = 0
    rounds: int = 0
    started: str = ""
    finished: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, int, int]:
        return (self.alg, self.op, self.size, self.chunk)

    @property
    def measured(self) -> bool:
        """An ok cell whose samples are real durations (a run stored before samples were checked may
        hold 0 ns or worse, which no report can divide by)."""
        return (
            self.status == "ok"
            and bool(self.samples_ns)
            and self.batch > 0
            and all(isinstance(s, (int, float)) and 0 < s < float("inf") for s in self.samples_ns)
        )

    @property
    def per_op_ns(self) -> list[float]:
        return [s / self.batch for s in self.samples_ns] if self.batch else []

    @property
    def round_process(self) -> list[int] | None:
        """The driver process (one per pass) each round ran in (None for cells stored before it was kept)."""
        procs = self.extra.get("round_process")
        sizes = self.round_sizes
        return procs if isinstance(procs, list) and sizes is not None and len(procs) == len(sizes) else None

    @property
    def pair_side(self):
        """Its samples as paired.py reads them, or None when they were not taken in pair rounds."""
        from cryptobench.analysis import paired

        return paired.Side.of(self.samples_ns, self.batch, self.extra.get("pair_rounds"), self.round_sizes,
                              self.extra.get("round_process"))  # fmt: skip

    def summary(self):
        """Median and the 95% interval every report shows (stats.summarize with rounds and processes)."""
        from cryptobench.analysis import stats

        return stats.summarize(self.per_op_ns, self.round_sizes, self.round_process)

    @property
    def round_sizes(self) -> list[int] | None:
        """How many samples each request returned, in order (None for cells stored before it was kept)."""
        sizes = self.extra.get("round_sizes")
        return sizes if isinstance(sizes, list) and sum(sizes) == len(self.samples_ns) else None
