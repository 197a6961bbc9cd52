"""What every family's build is made of: a step run into the build's log (its one-line reason when it
fails), a tool's version for the cache key, and the `Family` record (families.py lists them)."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptobench.drivers.programs import REPO

Log = Callable[[str], None]


class BuildFailed(Exception):
    """A build that did not finish: its one-line reason (the log holds the rest)."""


def run_step(argv: list[str], cwd: Path, log_file: Path, env: dict | None = None, timeout: float = 3600) -> None:
    with open(log_file, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        try:
            res = subprocess.run(
                argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}, timeout=timeout
            )
        except FileNotFoundError:
            raise BuildFailed(f"{argv[0]} is not installed (scripts/setup.sh installs it)") from None
        except subprocess.TimeoutExpired:
            raise BuildFailed(f"`{' '.join(argv[:3])}` took over {timeout:.0f} s") from None
    if res.returncode != 0:
        raise BuildFailed(f"`{' '.join(argv[:4])} ...` exited with {res.returncode}: {last_error(log_file)}")


def last_error(log_file: Path) -> str:
    """The line that says what went wrong: the first compiler/installer error, else the last line."""
    lines = [x.strip() for x in log_file.read_text(encoding="utf-8", errors="replace").splitlines() if x.strip()]
    for pattern in (
        r"^error(\[E\d+\])?:|: error:|^npm error (?!A complete log)",
        r"^\[ERROR\] /",
        r"^ERROR: ",
        r"\.go:\d+:\d+: |^go: (?!downloading|finding|added|upgraded|downgraded)",  # the go command's
    ):
        for line in lines:
            if re.search(pattern, line):
                return line[:240]
    return (lines[-1] if lines else "no output")[:240]


@functools.cache
def tool_version(argv: tuple[str, ...], pattern: str) -> str:
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "missing"
    m = re.search(pattern, res.stdout + res.stderr)
    return m.group(1) if m else "unknown"


@dataclass(frozen=True)
class Family:
    name: str  # the cache folder
    serves: tuple[str, ...]  # the provider ids one build serves
    source: str  # what a user reads: "PyPI cryptography"
    releases: Callable[[], list[str]]
    toolchain: Callable[[], str]
    build: Callable[[str, Path, Path], dict]  # (version, staging folder, log) -> extra stamp fields
    command: Callable[[Path, str, dict], tuple[str, ...]]  # (folder, provider id, stamp) -> argv
    reported: str  # regex: group 1 is the version inside hello's library_version
    tools: tuple[str, ...] = ()
    env: Callable[[Path], dict] = lambda _place: {}
    pins: Callable[[], list[str]] = list  # versions that are built-in providers (`<base>@<version>`)
    sources: tuple[str, ...] = ()  # our driver's files compiled into a build (paths or globs): a change rebuilds it
    # releases the registry serves without listing them (the Go proxy here lists fewer than it serves):
    # an exact version outside the list is asked about this way
    exact: Callable[[str], bool] | None = None
    # a family whose releases are a fixed set: what a version outside it is told, after "no release
    # reachable here" (go:stdlib: the machine's Go and the one toolchain GOTOOLCHAIN may fetch)
    reachable: Callable[[], str] | None = None

    def sources_hash(self) -> str:
        """A digest of our driver sources compiled into the build ('' when it runs them live)."""
        h = hashlib.sha256()
        for top in self.sources:
            base = REPO / top
            files = sorted(REPO.glob(top)) if "*" in top else sorted(base.rglob("*")) if base.is_dir() else [base]
            for f in files:
                if f.is_file():
                    h.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
        return h.hexdigest()[:16] if self.sources else ""

    def reported_version(self, library_version: str) -> str | None:
        m = re.search(self.reported, library_version or "")
        return m.group(1) if m else None
