"""A measured cell as it is stored: one provider's track turned into its `CellRecord` (pure)."""

from __future__ import annotations

from cryptobench.analysis import stats
from cryptobench.core.cell import CellSpec
from cryptobench.core.settings import Settings
from cryptobench.measure import plausibility, sampler
from cryptobench.measure.sampler import Track, now
from cryptobench.store.model import CellRecord


def simple(spec: CellSpec, pid: str, status: str, reason: str) -> CellRecord:
    """A cell that was never measured: not offered, or refused before its first round."""
    return CellRecord(pid, spec.alg, spec.op, spec.size, spec.chunk, status, reason, started=now(), finished=now())


def measured(spec: CellSpec, pid: str, track: Track, s: Settings, limits: dict | None,
             interrupted: bool = False) -> CellRecord:  # fmt: skip
    """What the track found: its samples, rounds and host readings; `failed` when a fault ended it or
    its figure is one this machine cannot produce (`limits`, plausibility.py), the samples kept."""
    if track.not_offered and not track.samples:
        return simple(spec, pid, "not-offered", track.not_offered)
    extra: dict = {"spent_s": round(track.spent, 3), "round_sizes": track.round_sizes,
                   "round_process": track.round_process}  # fmt: skip
    host = track.host.summary()
    if host:
        extra["host"] = host
    if track.probe_ns:
        extra["probe_ns"] = round(stats.median(track.probe_ns), 2)
    if any(r >= 0 for r in track.pair_rounds):
        extra["pair_rounds"] = track.pair_rounds  # each sample's pair round: the pairs (paired.py)
    if track.ticks and len(track.ticks) == len(track.samples):
        extra["tsc_ticks"] = track.ticks  # the driver's counter beside each sample (cycles.py)
    if track.samples and track.batch:
        extra["precision"] = {"target": s.max_rel_ci, "halfwidth": round(sampler.halfwidth(track), 5)}
    if interrupted:
        extra["interrupted"] = True
    if track.memory:
        extra["memory"] = track.memory  # the library held the stream, not the driver: how much and why
    if track.driver_peak_kb and track.driver_peak_kb != track.peak_rss_kb:
        extra["driver_peak_kb"] = track.driver_peak_kb  # what the driver said (wasm: its linear memory, docs/wasm.md)
    if track.tls:
        extra["tls"] = track.tls  # group, cipher, flights: what the report's TLS tables show beside the time
    if len(set(track.checksums)) > 1 and spec.algorithm.deterministic(spec.op):
        extra["checksum_unstable"] = True  # fresh keys per request make public-key outputs differ: expected
    ok = bool(track.samples) and not track.failed  # samples taken before a fault are kept, but the cell is failed
    if ok:  # a figure this machine cannot produce is kept, but refused
        per_op = stats.median(track.samples) / max(track.batch, 1)
        implausible = plausibility.judge(spec.alg, spec.op, spec.size, spec.chunk, per_op, limits)
        if implausible:
            ok, track.failed = False, implausible
    return CellRecord(
        provider=pid,
        alg=spec.alg,
        op=spec.op,
        size=spec.size,
        chunk=spec.chunk,
        status="ok" if ok else "failed",
        reason="" if ok else f"failed: {track.failed or 'no samples'}",
        batch=track.batch,
        samples_ns=track.samples,
        checksum=track.checksums[0] if track.checksums else "",
        checksums_seen=sorted(set(track.checksums)),
        peak_rss_kb=track.peak_rss_kb,
        rounds=track.rounds,
        started=track.started,
        finished=now(),
        extra=extra,
    )
