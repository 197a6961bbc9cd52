"""What a `bench` response must be before a single figure of it is believed (docs/protocol.md)."""

from __future__ import annotations

import math
import re

from cryptobench.core import algorithms, fixed_input, tls
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError

CHECKSUM_RE = re.compile(r"^[0-9a-f]{8}:[0-9a-f]{16}$")
MAX_SAMPLE_NS = 1e15  # eleven days: a sample is a batch lasting milliseconds
MAX_BATCH = 1 << 40
TICKS_PER_NS = (0.1, 20.0)  # a time-stamp counter runs at 100 MHz to 20 GHz


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check(spec: CellSpec, req: dict, resp: dict) -> None:
    """Refuse a response that cannot be true, so a lying driver fails its cell loudly."""
    batch, samples = resp.get("batch"), resp.get("samples_ns")
    if not isinstance(batch, int) or isinstance(batch, bool) or not 1 <= batch <= MAX_BATCH:
        raise DriverError(f"protocol: bad batch {batch!r}")
    if req["batch"] and batch != req["batch"]:
        raise DriverError(f"protocol: asked for batch {req['batch']}, driver used {batch}")
    if not isinstance(samples, list) or len(samples) != req["samples"]:
        got = len(samples) if isinstance(samples, list) else samples
        raise DriverError(f"protocol: asked for {req['samples']} samples, got {got!r}")
    bad = next((x for x in samples if not (_is_number(x) and 1 <= x <= MAX_SAMPLE_NS)), None)
    if bad is not None:
        raise DriverError(f"protocol: a sample of {bad!r} ns: samples are whole batches, 1 ns to 1e15 ns")
    check_ticks(resp.get("samples_tsc"), samples)
    check_output(spec, resp)
    if spec.algorithm.kind == "tls":
        check_tls(spec, resp.get("tls"))


def check_output(spec: CellSpec, resp: dict) -> None:
    """The checksums: well formed, of the right length, and the same after the samples as before them
    where every operation gives the same output (check-driver's last-output rule applies it too)."""
    checksum = resp.get("checksum")
    if not isinstance(checksum, str) or not CHECKSUM_RE.match(checksum):
        raise DriverError(f"protocol: bad checksum {checksum!r}")
    after = resp.get("checksum_after")  # protocol 4: one more operation after the samples
    if after is not None and (not isinstance(after, str) or not CHECKSUM_RE.match(after)):
        raise DriverError(f"protocol: bad checksum_after {after!r}")
    if after is not None and after != checksum and spec.algorithm.repeatable(spec.op):
        raise DriverError(
            f"output after the samples ({after}) differs from the first ({checksum}): "
            "state carried from one operation into the next"
        )
    expected = algorithms.output_len(spec.alg, spec.op, spec.size)
    if expected is not None and (got := fixed_input.checksum_length(checksum)) != expected:
        raise DriverError(f"wrong output length: {got} bytes, expected {expected}")


FLIGHTS = ("client_hello", "server_flight", "client_finished", "tickets")


def check_tls(spec: CellSpec, report) -> None:
    """A TLS cell's report of its untimed handshake (protocol 7): what the cell says, on the wire
    sizes a handshake can have. A hybrid cell that negotiated a classical group is never timed."""
    cell = tls.parse(spec.alg)
    if not isinstance(report, dict):
        raise DriverError("protocol: a TLS cell's response has no `tls` report")
    if wrong := tls.negotiated_wrong(cell, report):
        raise DriverError(f"tls: {wrong}")
    if bool(report.get("resumed")) != cell.resume:
        raise DriverError(f"tls: the handshake {'resumed' if report.get('resumed') else 'did not resume'}")
    flights = report.get("flights")
    if not isinstance(flights, dict) or any(
        not isinstance(flights.get(k), int) or isinstance(flights.get(k), bool) or not 0 <= flights[k] < 1 << 20
        for k in FLIGHTS
    ):  # fmt: skip
        raise DriverError(f"protocol: bad `tls.flights` {flights!r}")
    if flights["client_hello"] < cell.group.client_share or flights["server_flight"] < cell.group.server_share:
        raise DriverError(f"tls: flights {flights} smaller than the {cell.group.iana} key shares alone")
    if (flights["tickets"] > 0) != cell.resume:
        raise DriverError(
            f"tls: {flights['tickets']} bytes of session tickets in a {'resumed' if cell.resume else 'full'} cell"
        )


def check_ticks(ticks, samples: list) -> None:
    """The optional counter ticks beside the samples (protocol 5): one per sample, a plausible rate."""
    if ticks is None:
        return
    if not isinstance(ticks, list) or len(ticks) != len(samples):
        got = len(ticks) if isinstance(ticks, list) else ticks
        raise DriverError(f"protocol: samples_tsc has {got!r} entries for {len(samples)} samples")
    for t, ns in zip(ticks, samples, strict=True):
        if not isinstance(t, int) or isinstance(t, bool) or t < 1:
            raise DriverError(f"protocol: samples_tsc entry {t!r} is not a positive tick count")
        if not TICKS_PER_NS[0] <= t / ns <= TICKS_PER_NS[1]:
            raise DriverError(
                f"protocol: {t} counter ticks over a {ns} ns sample ({t / ns:.3g} GHz): not a cycle counter's rate"
            )
