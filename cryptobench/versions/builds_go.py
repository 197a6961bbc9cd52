"""Go builds: go:stdlib (a Go release is a toolchain: the machine's, or the one GOTOOLCHAIN may fetch)
and go:gmsm (a `go.mod` require per release)."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

from cryptobench.drivers.programs import REPO
from cryptobench.versions import registries
from cryptobench.versions.build_steps import BuildFailed, run_step
from cryptobench.versions.spec import key

# --- go:stdlib: a Go release is a toolchain; go:gmsm: a go.mod require per version ----------------

GO_APPROVED = "1.27.3"  # the one other toolchain the go command may fetch here (GOTOOLCHAIN=go1.27.3)
GMSM = "github.com/emmansun/gmsm"
GO_SOURCES = ("drivers/go/*.go", "drivers/go/*.s", "drivers/go/go.mod", "drivers/go/go.sum", "protocols/pqntor/go")


@functools.cache
def local_go() -> str:
    """The machine's own Go release (`go env GOVERSION` with GOTOOLCHAIN=local), without 'go'."""
    try:
        res = subprocess.run(
            ["go", "env", "GOVERSION"], capture_output=True, text=True, timeout=60,
            env={**os.environ, "GOTOOLCHAIN": "local"}, cwd="/",
        )  # fmt: skip
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "missing"
    m = re.match(r"go([0-9][0-9.]*)", res.stdout.strip())
    return m.group(1) if m else "unknown"


def go_releases() -> list[str]:
    """The Go releases reachable here: the machine's, and GO_APPROVED through GOTOOLCHAIN (the module
    proxy serves it as golang.org/toolchain). No other Go release or source is asked for."""
    mine = local_go()
    return list(dict.fromkeys([v for v in (mine, GO_APPROVED) if key(v) is not None]))


def go_reachable() -> str:
    return (f"Go {local_go()} is this machine's and Go {GO_APPROVED} comes through GOTOOLCHAIN=go{GO_APPROVED}; "
            "no other Go release or source is fetched")  # fmt: skip


def go_toolchain_env(version: str) -> dict:
    return {"GOTOOLCHAIN": "local" if version == local_go() else f"go{version}"}


def go_binary_version(binary: Path, log: Path) -> tuple[str, dict[str, str]]:
    """(the Go release a binary was built with, its modules and their versions): `go version -m`."""
    res = subprocess.run(["go", "version", "-m", str(binary)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "GOTOOLCHAIN": "local"})  # fmt: skip
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ go version -m {binary}\n{res.stdout}{res.stderr}")
    m = re.search(r": go([0-9][^\s]*)", res.stdout)
    deps = dict(re.findall(r"(?m)^\s+dep\s+(\S+)\s+v(\S+)", res.stdout))
    return (m.group(1) if m else "unknown"), deps


def build_go_stdlib(version: str, stage: Path, log: Path) -> dict:
    """Our Go driver, as it is, built by the Go release asked for: GOTOOLCHAIN=local for the
    machine's own, go1.27.3 otherwise (the go command fetches that toolchain from the module proxy
    once, into its module cache)."""
    if version not in go_releases():
        raise BuildFailed(f"no release reachable here: {go_reachable()}")
    env = go_toolchain_env(version)
    run_step(["go", "build", "-o", str(stage / "cbdriver-go"), "."], REPO / "drivers/go", log, env)
    built, _deps = go_binary_version(stage / "cbdriver-go", log)
    if built != version:
        raise BuildFailed(f"GOTOOLCHAIN={env['GOTOOLCHAIN']} built the driver with Go {built}, not {version}")
    return {"command": f"GOTOOLCHAIN={env['GOTOOLCHAIN']} go build", "go": f"go{built}"}


def build_go_gmsm(version: str, stage: Path, log: Path) -> dict:
    """Our Go driver with `require github.com/emmansun/gmsm vV` in a copy of its go.mod (the local
    pq-ntor module replaced by its absolute path), built by the machine's Go."""
    src, tree = REPO / "drivers/go", stage / "src-tree"
    tree.mkdir()
    for f in src.iterdir():
        if (f.suffix in (".go", ".s") and not f.name.endswith("_test.go")) or f.name in ("go.mod", "go.sum"):
            shutil.copy2(f, tree / f.name)
    env = {"GOTOOLCHAIN": "local"}
    pqntor = REPO / "protocols/pqntor/go"
    run_step(["go", "mod", "edit", f"-require={GMSM}@v{version}", f"-replace=cryptobench/protocols/pqntor={pqntor}"],
         tree, log, env)  # fmt: skip
    run_step(["go", "build", "-mod=mod", "-o", str(stage / "cbdriver-go"), "."], tree, log, env)
    _built, deps = go_binary_version(stage / "cbdriver-go", log)
    if deps.get(GMSM) != version:
        raise BuildFailed(f"the module graph chose {GMSM} v{deps.get(GMSM)}, not v{version} (another module needs it)")
    for name in ("go.mod", "go.sum"):  # what was built from, kept beside the binary
        shutil.copy2(tree / name, stage / name)
    shutil.rmtree(tree, ignore_errors=True)
    return {"command": f"go mod edit -require={GMSM}@v{version}; go build -mod=mod", "go": f"go{local_go()}"}


def go_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(place / "cbdriver-go"),)


def gmsm_releases() -> list[str]:
    """The proxy's list, and the release our go.mod requires (served: the driver is built with it;
    the proxy here lists fewer releases than it serves)."""
    required = re.search(rf"(?m)^\s*{re.escape(GMSM)} v(\S+)", (REPO / "drivers/go/go.mod").read_text())
    return list(dict.fromkeys([*registries.goproxy(GMSM), *([required.group(1)] if required else [])]))
