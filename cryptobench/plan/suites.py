"""Suites: TOML files naming what to measure. Errors point at the offending line.

name = "default"
baseline = "c:openssl"
sizes = ["64B", "1KiB", "16KiB", "1MiB"]
time_per_cell = 0.5            # seconds per provider per cell
precision = 1.0                # percent: the 95% interval each cell aims for (`--precision`)

[[group]]
algs = ["sha256", "sha512"]   # required; globs over the catalogue too ("aes-*", "*")
ops = ["hash"]                # default: every op of the algorithm
sizes = ["1KiB"]              # default: the suite's sizes
chunks = [0]                  # 0 = one-shot; c > 0 = streaming in c-byte pieces
providers = ["c:*", "go:*"]   # globs; default: every provider
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cryptobench.core import algorithms
from cryptobench.core.errors import UserError
from cryptobench.core.units import format_size, parse_size

SUITES_DIR = Path(__file__).resolve().parents[2] / "suites"

_TOP_KEYS = {"name", "description", "baseline", "sizes", "time_per_cell", "precision", "workers", "group", "layout",
             "leak"}  # fmt: skip
_GROUP_KEYS = {"algs", "ops", "sizes", "chunks", "providers", "time_per_cell"}

LAYOUTS = ("table", "matrix", "ops", "sizes", "tls", "versions", "web")  # how a report lays out its cells


@dataclass
class Group:
    algs: list[str]
    ops: list[str] | None
    sizes: list[int]
    chunks: list[int]
    providers: list[str] | None
    time_per_cell: float | None = None  # overrides the suite's (e.g. RSA key generation wants more)


@dataclass
class Suite:
    name: str
    path: Path
    description: str
    baseline: str
    time_per_cell: float
    groups: list[Group] = field(default_factory=list)
    layout: str = "table"
    text: str = ""
    precision: float = 1.0  # percent
    workers: list[str] = field(default_factory=list)  # scaling: worker counts ("1", "2", "all")
    leak: bool = False  # `leak = true` or a list of classes: the leak checks after the run (leak/)
    leak_classes: list[str] = field(default_factory=list)


def suite_path(ref: str) -> Path:
    """A suite name (`default`, `aes-modes`) or a path to a TOML file."""
    p = Path(ref)
    if p.suffix == ".toml" or "/" in ref or p.is_dir():
        if p.is_dir():
            raise UserError(f"suite {ref!r} is a directory: give a suite name or a .toml file")
        if not p.exists():
            raise UserError(f"suite file {ref!r} not found")
        return p
    candidate = SUITES_DIR / f"{ref}.toml"
    if not candidate.exists():
        names = ", ".join(sorted(s.stem for s in SUITES_DIR.glob("*.toml")))
        raise UserError(f"unknown suite {ref!r} (known: {names}; or pass a path to a .toml file)")
    return candidate


def list_suites() -> list[Suite]:
    return [load_suite(str(p)) for p in sorted(SUITES_DIR.glob("*.toml"))]


def load_suite(ref: str) -> Suite:
    path = suite_path(ref)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        line = path.read_bytes()[: e.start].count(b"\n") + 1
        raise UserError(f"{path}:{line}: malformed suite: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise UserError(f"cannot read suite {str(path)!r}: {e.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(_toml_error(path, text, e)) from None
    err = _Locator(path, text)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise err.at(key, f"unknown key {key!r} (expected one of {', '.join(sorted(_TOP_KEYS))})")
    sizes = _sizes(data.get("sizes", []), err, "sizes")
    tpc = data.get("time_per_cell", 0.5)
    if not isinstance(tpc, (int, float)) or isinstance(tpc, bool) or not 0 < tpc <= 3600:
        raise err.at("time_per_cell", "time_per_cell must be a number of seconds in (0, 3600]")
    precision = data.get("precision", 1.0)
    if not isinstance(precision, (int, float)) or isinstance(precision, bool) or not 0 < precision <= 100:
        raise err.at("precision", "precision must be a percentage in (0, 100]: the 95% interval each cell aims for")
    workers = data.get("workers", [])
    if not isinstance(workers, list) or not all(isinstance(w, (int, str)) and not isinstance(w, bool) for w in workers):
        raise err.at("workers", 'workers must be a list of worker counts, e.g. [1, "all"]')
    leak = data.get("leak", False)
    if not (isinstance(leak, bool) or (isinstance(leak, list) and leak and all(isinstance(c, str) for c in leak))):
        raise err.at("leak", 'leak must be true or a list of leak classes, e.g. ["tag", "secret"]')
    if isinstance(leak, list):
        from cryptobench.plan.leak_classes import CLASSES

        unknown = [c for c in leak if c not in CLASSES]
        if unknown:
            raise err.at("leak", f"unknown leak class {unknown[0]!r} (one of {', '.join(CLASSES)})")
    baseline = data.get("baseline", "c:openssl")
    if not isinstance(baseline, str):
        raise err.at("baseline", "baseline must be a provider id such as 'c:openssl'")
    raw_groups = data.get("group")
    if not isinstance(raw_groups, list) or not raw_groups:
        raise err.general("a suite needs at least one [[group]] with algs = [...]")
    groups = [_group(g, sizes, err) for g in raw_groups]
    layout = data.get("layout", "table")
    if layout not in LAYOUTS:
        raise err.at(
            "layout",
            "layout must be 'table' (a row per provider), 'matrix' (providers as columns), 'ops' (public-key: "
            "operations down, providers across), 'sizes' (ops with a table of bytes and speed side by side), "
            "'tls' (ops with the TLS handshake, hybrid-over-classical and interop tables, docs/tls.md) 'versions' (a provider's releases across, docs/versions.md) or 'web' (matrix with the wasm/native ratio per engine and peak memory, docs/web.md)",
        )
    return Suite(
        name=str(data.get("name", path.stem)),
        path=path,
        description=str(data.get("description", "")),
        baseline=baseline,
        precision=float(precision),
        workers=[str(w) for w in workers],
        leak=bool(leak),
        leak_classes=list(leak) if isinstance(leak, list) else [],
        time_per_cell=float(tpc),
        groups=groups,
        text=text,
        layout=layout,
    )


def _toml_error(path: Path, text: str, e: tomllib.TOMLDecodeError) -> str:
    """`file:LINE: malformed suite: why`, also when tomllib only says "end of document"."""
    msg = str(e)
    m = re.search(r"\(at line (\d+), column \d+\)", msg)
    if m:
        return f"{path}:{m.group(1)}: malformed suite: {msg}"
    last = len(text.rstrip("\n").splitlines()) or 1
    return f"{path}:{last}: malformed suite: {msg.replace('at end of document', f'at line {last}, end of file')}"


def _group(g: dict, default_sizes: list[int], err: _Locator) -> Group:
    unknown = set(g) - _GROUP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise err.at(key, f"unknown key {key!r} in [[group]] (expected {', '.join(sorted(_GROUP_KEYS))})")
    algs = g.get("algs")
    if not isinstance(algs, list) or not algs or not all(isinstance(a, str) for a in algs):
        raise (
            err.at("algs", '[[group]] needs algs = ["name", ...]')
            if "algs" in g
            else err.general('every [[group]] needs algs = ["name", ...]')
        )
    algs = _expand_algs(algs, err)
    ops = g.get("ops")
    if ops is not None:
        if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
            raise err.at("ops", "ops must be a list of operation names")
        for o in ops:
            if not any(o in algorithms.get(a).ops for a in algs):
                raise err.at(f'"{o}"', f"operation {o!r} is not offered by any of {', '.join(algs)}")
    sizes = _sizes(g["sizes"], err, "sizes") if "sizes" in g else default_sizes
    if not sizes:
        raise err.general(f"group {algs} has no sizes (set sizes = [...] in the suite or the group)")
    for a in algs:
        block = algorithms.get(a).block
        for s in sizes:
            if s % block:
                raise err.at("sizes", f"size {format_size(s)} is not a multiple of {block} bytes, which {a} needs")
    chunks = g.get("chunks", [0])
    if not isinstance(chunks, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in chunks
    ):
        raise err.at("chunks", "chunks must be a list of byte counts (0 = one-shot)")
    providers = g.get("providers")
    if providers is not None and (not isinstance(providers, list) or not all(isinstance(p, str) for p in providers)):
        raise err.at("providers", "providers must be a list of provider ids or globs")
    tpc = g.get("time_per_cell")
    if tpc is not None and (not isinstance(tpc, (int, float)) or isinstance(tpc, bool) or not 0 < tpc <= 3600):
        raise err.at("time_per_cell", "time_per_cell must be a number of seconds in (0, 3600]")
    return Group(list(algs), ops, sizes, chunks, providers, float(tpc) if tpc is not None else None)


def _expand_algs(names: list[str], err: _Locator) -> list[str]:
    """A group's algorithms: names, or globs over the catalogue (`"*"`, `"aes-*"`) in catalogue order,
    so a suite of everything (suites/conformance.toml) does not go stale as the catalogue grows."""
    out: list[str] = []
    for a in names:
        if any(ch in a for ch in "*?["):
            found = [x for x in algorithms.ALGORITHMS if x != "noop" and fnmatch.fnmatchcase(x, a)]
            if not found:
                raise err.at(f'"{a}"', f"algorithm pattern {a!r} matches nothing (see `cryptobench list algorithms`)")
            out += found
        elif a not in algorithms.ALGORITHMS:
            raise err.at(f'"{a}"', f"unknown algorithm {a!r} (see `cryptobench list algorithms`)")
        else:
            out.append(a)
    return list(dict.fromkeys(out))


def _sizes(raw, err: _Locator, key: str) -> list[int]:
    if not isinstance(raw, list):
        raise err.at(key, f'{key} must be a list such as ["64B", "1KiB"]')
    out = []
    for s in raw:
        try:
            out.append(parse_size(s))
        except UserError as e:
            raise err.at(f'"{s}"' if isinstance(s, str) else str(s), str(e)) from None
    return out


class _Locator:
    """Builds UserErrors that name the file and the line holding a key or value."""

    def __init__(self, path: Path, text: str):
        self.path, self.lines = path, text.splitlines()

    def at(self, needle: str, message: str) -> UserError:
        pattern = re.compile(rf"^\s*{re.escape(needle)}\s*=") if not needle.startswith(('"', "'")) else None
        for i, line in enumerate(self.lines, 1):
            code = line.split("#", 1)[0]
            if (pattern and pattern.match(code)) or (not pattern and needle in code):
                return UserError(f"{self.path}:{i}: {message}")
        return self.general(message)

    def general(self, message: str) -> UserError:
        return UserError(f"{self.path}: {message}")


def parse_chunks(text: str) -> list[int]:
    """`1,16,4KiB` -> [1, 16, 4096]; pieces are at most 1 MiB (docs/protocol.md)."""
    chunks = [parse_size(x) for x in text.split(",") if x.strip()]
    if not chunks or any(c > 1024 * 1024 for c in chunks):
        raise UserError(f"bad --chunk {text!r}: give piece sizes from 0 (one-shot) to 1MiB, e.g. 1,16,4096")
    return chunks


def with_chunks(suite: Suite, chunks: list[int], total: int | None) -> Suite:
    """The suite with every group streamed in these chunk sizes (and at `total` bytes, if given)."""
    import copy

    out = copy.deepcopy(suite)
    for g in out.groups:
        g.chunks = list(chunks)
        if total is not None:
            g.sizes = [total]
    return out
