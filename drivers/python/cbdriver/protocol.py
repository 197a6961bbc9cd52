"""Protocol version 5 (docs/protocol.md): decode requests, dispatch, encode responses.

Any exception raised while handling a request becomes `{"ok": false, "error": "<one line>"}`;
the driver stays usable.
"""

from __future__ import annotations

import json
import platform
import resource
import sys

from . import inputs, timing
from .fields import RequestError, check_offered, field_hex, field_int, field_str, one_line
from .leak import leak
from .ops_base import CellSpec, Provider, Rejected, Unsupported, check_cell_params

PROTOCOL_VERSION = 5  # the highest version this driver implements; hello accepts any request >= 1
_resolution_ns: int | None = None


def error(message: str) -> dict:
    return {"ok": False, "error": " ".join(message.split()) or "error"}


def decode(line: str) -> dict:
    try:
        req = json.loads(line)
    except ValueError as e:
        raise RequestError(f"cannot parse request: {one_line(e)}") from None
    if not isinstance(req, dict):
        raise RequestError(f"request must be a JSON object, got {type(req).__name__}")
    return req


def encode(resp: dict) -> str:
    return json.dumps(resp, separators=(",", ":"), allow_nan=False)


def respond(provider: Provider, line: str) -> tuple[str, bool]:
    """One request line -> (one response line without newline, whether the driver should stop)."""
    try:
        req = decode(line)
    except Exception as e:  # noqa: BLE001 - every failure answers the request
        return encode(error(one_line(e))), False
    resp = handle(provider, req)
    try:
        return encode(resp), req.get("cmd") == "bye"
    except Exception as e:  # noqa: BLE001
        return encode(error(f"cannot encode response: {one_line(e)}")), False


def handle(provider: Provider, req: dict) -> dict:
    """The request handler: one decoded request -> one response object (never raises)."""
    try:
        cmd = req.get("cmd")
        if cmd == "hello":
            return hello(provider, req)
        if cmd == "verify":
            return verify(provider, req)
        if cmd == "bench":
            return bench(provider, req)
        if cmd == "keypair":
            return keypair(provider, req)
        if cmd == "leak":
            return leak(provider, req)
        if cmd == "bye":
            return {"ok": True}
        raise RequestError(f"unknown cmd {cmd!r}")
    except Exception as e:  # noqa: BLE001
        return error(one_line(e))


# --- commands ----------------------------------------------------------------


def clock_resolution_ns() -> int:
    global _resolution_ns
    if _resolution_ns is None:
        _resolution_ns = timing.probe_resolution()
    return _resolution_ns


def hello(provider: Provider, req: dict) -> dict:
    version = req.get("protocol", PROTOCOL_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RequestError(f"protocol {version!r} not supported (this driver speaks 1 to {PROTOCOL_VERSION})")
    # a newer orchestrator gets our highest version and decides; an older one (1) sees extra offers only
    declares = getattr(provider, "declares", None)  # a plugin's algorithms of its own (plugin.py)
    return {
        "ok": True,
        "protocol": 6 if declares else PROTOCOL_VERSION,  # 6: hello carries `declares`
        "provider": provider.id,
        "language": provider.language,
        "library": provider.library,
        "library_version": provider.library_version(),
        "runtime": f"{platform.python_implementation()} {platform.python_version()} "
        f"({platform.python_compiler()})",
        "clock": {
            "source": timing.CLOCK_SOURCE,
            "resolution_ns": clock_resolution_ns(),
            "probe_reads": timing.PROBE_READS,
        },
        "offers": {alg: list(ops) for alg, ops in provider.offers.items()},
        "stream": list(provider.stream),
        "notes": provider.notes(),
        **({"declares": declares} if declares else {}),
    }


def verify(provider: Provider, req: dict) -> dict:
    alg = field_str(req, "alg")
    check_offered(provider, alg)
    cases = req.get("cases")
    if not isinstance(cases, list):
        raise RequestError("field 'cases' must be a list")
    return {"ok": True, "results": [run_case(provider, alg, case) for case in cases]}


def run_case(provider: Provider, alg: str, case) -> dict:
    """One verify case through the provider's case executor -> its result object."""
    cid = case.get("id") if isinstance(case, dict) else None
    try:
        if not isinstance(case, dict):
            raise RequestError("case must be a JSON object")
        op = case.get("op")
        if op not in provider.offers[alg]:
            raise RequestError(f"not offered: {alg} {op!r} by {provider.id}")
        return {"id": cid, "out": provider.execute(alg, case).hex()}
    except Rejected:
        return {"id": cid, "rejected": True}
    except Unsupported as e:
        return {"id": cid, "unsupported": " ".join(str(e).split()) or "unsupported"}
    except Exception as e:  # noqa: BLE001
        return {"id": cid, "error": one_line(e)}


def bench(provider: Provider, req: dict) -> dict:
    alg, op = field_str(req, "alg"), field_str(req, "op")
    check_offered(provider, alg, op)
    size, chunk = field_int(req, "size"), field_int(req, "chunk", 0)
    if chunk and alg not in provider.stream:
        raise RequestError(f"not offered: {alg} has no streaming API in {provider.id} (chunk must be 0)")
    seed = field_int(req, "seed")
    if not 0 < seed < 1 << 32:
        raise RequestError(f"seed must be a uint32 other than 0, got {seed}")
    batch = field_int(req, "batch", 0)
    target_ns = field_int(req, "target_ns", timing.DEFAULT_TARGET_NS)
    warmup_ns, samples = field_int(req, "warmup_ns", 0), field_int(req, "samples")
    spec = CellSpec(alg, op, size, chunk, field_hex(req, "key"), field_hex(req, "iv"), seed)
    check_cell_params(spec)
    if not chunk:  # a streamed cell reads its pieces from the doubled pattern, never the whole message
        spec = CellSpec(alg, op, size, chunk, spec.key, spec.iv, seed, inputs.message(seed, size))
    cell = provider.cell(spec)
    checksum = cell.checksum()  # one operation on the fixed input, untimed
    timed = timing.measure(cell.call, batch, target_ns, warmup_ns, samples, cell.untimed)
    after = cell.checksum()  # one more, untimed: state leaking between operations shows here
    return {"ok": True, **timed, "checksum": checksum, "checksum_after": after, "peak_rss_kb": peak_rss_kb()}


def keypair(provider: Provider, req: dict) -> dict:
    alg = field_str(req, "alg")
    check_offered(provider, alg)
    public, private = provider.keypair(alg)
    return {"ok": True, "public": public.hex(), "private": private.hex()}


def peak_rss_kb() -> int:
    """This process's peak resident set: VmHWM from /proc/self/status (Linux), else getrusage.

    getrusage's ru_maxrss is kept across exec, so a driver started by a larger process (the
    orchestrator) would report its parent's peak; VmHWM belongs to this process image alone.
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])  # "VmHWM:     12345 kB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except (OSError, ValueError):
        return 0
    return rss // 1024 if sys.platform == "darwin" else rss  # macOS reports bytes, Linux KiB
