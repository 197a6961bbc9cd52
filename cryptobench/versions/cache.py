"""Builds of one provider family at one version, kept by (family, version, toolchain).

    ~/.cache/cryptobench/versions/<family>/<version>+<toolchain>/
        build.json   what was built, from what, how long it took, its size
        build.log    the tool's full output
        ...          the environment itself (a venv, a jar, a binary, node_modules)

A build goes into a staging folder beside its final place and is renamed there only when
complete, under a lock per folder, so two runs never see half a build and never build one
thing twice at once. `cryptobench build --list / --prune` read and remove these folders.
"""

from __future__ import annotations

import calendar
import contextlib
import fcntl
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

STAMP = "build.json"
UTC_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def base() -> Path:
    """cryptobench's whole cache (`CRYPTOBENCH_CACHE`, else ~/.cache/cryptobench): the pinned OpenSSL
    builds of scripts/openssl/build.sh, the TLS cells' test PKI, the released versions below."""
    return Path(
        os.environ.get("CRYPTOBENCH_CACHE")
        or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cryptobench")
    )


def root() -> Path:
    return base() / "versions"


def folder(family: str, version: str, toolchain: str) -> Path:
    return root() / family / f"{version}+{toolchain}"


@contextlib.contextmanager
def locked(place: Path):
    """One builder of `place` at a time (other runs wait, then find it built)."""
    place.parent.mkdir(parents=True, exist_ok=True)
    with open(place.parent / f".lock-{place.name}", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextlib.contextmanager
def locked_if_free(place: Path):
    """`place`'s lock if no one holds it (True), else False at once: for removing what a build may use."""
    place.parent.mkdir(parents=True, exist_ok=True)
    with open(place.parent / f".lock-{place.name}", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def stamp(place: Path) -> dict | None:
    try:
        data = json.loads((place / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_stamp(place: Path, data: dict) -> None:
    (place / STAMP).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def size_of(place: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(place):
        for f in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, f)).st_size
    return total


@dataclass
class Entry:
    family: str
    version: str
    toolchain: str
    path: Path
    stamp: dict | None  # None: an unfinished or foreign folder

    @property
    def size(self) -> int:
        return size_of(self.path)

    @property
    def last_used(self) -> float:
        used = self.path / ".last-used"
        return used.stat().st_mtime if used.exists() else self.path.stat().st_mtime


def entries() -> list[Entry]:
    out = []
    base = root()
    for fam in sorted(base.iterdir()) if base.is_dir() else []:
        if not fam.is_dir() or fam.name.startswith("."):  # .cargo-target: shared, see shared_folders()
            continue
        for place in sorted(fam.iterdir()):
            if not place.is_dir() or place.name.startswith(".") or place.name.endswith(".new"):
                continue
            version, _, toolchain = place.name.partition("+")
            out.append(Entry(fam.name, version, toolchain, place, stamp(place)))
    return out


@dataclass
class Leftover:
    """What a build that did not finish left beside the cache's folders: its staging folder and log
    (`<place>.new`, `<place>.log`: interrupted), or only its log (failed), or an OpenSSL build's
    staging prefix and source tree (scripts/openssl/build.sh). `entries()` never lists these."""

    family: str
    version: str
    paths: list[Path]
    lock: Path  # the lock its builder holds while it builds
    why: str

    @property
    def size(self) -> int:
        return sum(size_of(p) if p.is_dir() else _file_size(p) for p in self.paths)

    @property
    def last_used(self) -> float:
        return max((p.lstat().st_mtime for p in self.paths if p.exists()), default=0.0)

    @property
    def building(self) -> bool:
        """A build holds its lock now: its staging folder is in use, not left over."""
        if not self.lock.exists():
            return False
        with open(self.lock) as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh, fcntl.LOCK_UN)
        return False

    def remove(self) -> None:
        for p in self.paths:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    p.unlink()


INTERRUPTED = "incomplete build, from an interrupted `build`"
FAILED_LOG = "log of a build that failed"


def _file_size(p: Path) -> int:
    try:
        return p.lstat().st_size
    except OSError:
        return 0


def leftovers() -> list[Leftover]:
    """Every unfinished build's remains in the cache (version builds and OpenSSL libraries)."""
    out = []
    base = root()
    for fam in sorted(base.iterdir()) if base.is_dir() else []:
        if not fam.is_dir() or fam.name.startswith("."):
            continue
        for p in sorted(fam.iterdir()):
            name = p.name[: -len(".new")]  # <version>+<toolchain>, for both suffixes
            stage, log, lock = fam / f"{name}.new", fam / f"{name}.log", fam / f".lock-{name}"
            version = name.partition("+")[0]
            if p.name.endswith(".new") and p.is_dir():
                paths = [stage, log] if log.exists() else [stage]
                out.append(Leftover(fam.name, version, paths, lock, INTERRUPTED))
            elif p.name.endswith(".log") and p.is_file() and not stage.exists():
                out.append(Leftover(fam.name, version, [log], lock, FAILED_LOG))
    libs, sources = base.parent / "openssl", base.parent / "openssl-src"
    for p in sorted(libs.glob("*.new")) if libs.is_dir() else []:
        version = p.name[: -len(".new")]
        out.append(Leftover("c-openssl", version, [p], libs / f".lock-{version}", INTERRUPTED))
    for tree in sorted(sources.glob("*/build")) if sources.is_dir() else []:
        version = tree.parent.name.partition("+")[2]  # the crate's 300.6.1+3.6.3 builds OpenSSL 3.6.3
        out.append(Leftover("c-openssl", version, [tree], libs / f".lock-{version}", INTERRUPTED))
    return out


def touch(place: Path) -> None:
    """Record a use, for `--prune --unused-for`."""
    with contextlib.suppress(OSError):
        (place / ".last-used").touch()


def remove(place: Path) -> None:
    shutil.rmtree(place, ignore_errors=True)
    with contextlib.suppress(OSError):
        (place.parent / f".lock-{place.name}").unlink()


def utc(epoch: float | None = None) -> str:
    """A time as the stamps and `build --list --json` write it (UTC, seconds)."""
    return time.strftime(UTC_FORMAT, time.gmtime(epoch))


def from_utc(text: str) -> float:
    return calendar.timegm(time.strptime(text, UTC_FORMAT))


def human_size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def age(seconds: float) -> str:
    s = max(0.0, time.time() - seconds)
    for limit, unit, div in ((120, "s", 1), (7200, "min", 60), (172800, "h", 3600)):
        if s < limit:
            return f"{s / div:.0f} {unit} ago"
    return f"{s / 86400:.0f} d ago"


def shared_folders() -> list[Path]:
    """Folders several builds share (the Rust builds' cargo target): listed, pruned with the last build."""
    return [p for p in [root() / ".cargo-target"] if p.is_dir()]
