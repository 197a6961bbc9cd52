"""`cryptobench plugin new NAME --lang rust`: a cdylib crate that builds with cargo, passes `plugin
check`, is measured by `run`, and says it is Rust built by the rustc that built it.

The crate is built once per skeleton content: a copy under ~/.cache/cryptobench/plugin-rust/<hash>
with its own CARGO_TARGET_DIR, so a repeated run of these tests does not compile anything."""

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

from cryptobench.drivers.registry import C_HOST

pytestmark = [
    pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)"),
    pytest.mark.skipif(shutil.which("cargo") is None, reason="no cargo (rustup.rs)"),
]

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cryptobench" / "plugin-rust"


def content_hash(root: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(f"{f.relative_to(root)}\0{len(f.read_bytes())}\0".encode() + f.read_bytes())
    return h.hexdigest()[:16]


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory) -> dict:
    """`plugin new rusty --lang rust` and the library cargo built from it (cached by content)."""
    d = tmp_path_factory.mktemp("rust") / "rusty"
    res = run_cli("plugin", "new", "rusty", "--lang", "rust", "--dir", d)
    assert res.returncode == 0, res.stdout + res.stderr
    key = CACHE / content_hash(d)
    crate = key / "crate"
    if not crate.exists():  # a whole copy or none, should two runs race
        staging = key / f"crate.{os.getpid()}"
        shutil.copytree(d, staging)
        staging.rename(crate)
    env = {**os.environ, "CARGO_TARGET_DIR": str(key / "target")}
    built = subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, env=env, capture_output=True,
                           text=True, timeout=600)  # fmt: skip
    assert built.returncode == 0, built.stderr
    return {"dir": d, "new": res.stdout, "so": key / "target" / "release" / "libcb_rusty.so"}


def test_plugin_new_rust_writes_a_crate_and_says_how_to_build_and_check_it(skeleton):
    d = skeleton["dir"]
    assert {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()} == {
        "Cargo.toml", "build.rs", "src/lib.rs", "README.md"}  # fmt: skip
    so = d / "target" / "release" / "libcb_rusty.so"
    assert skeleton["new"].splitlines()[-1] == (
        f"next: cargo build --release --manifest-path {d / 'Cargo.toml'} && cryptobench plugin check {so}"
    )
    if shutil.which("rustfmt"):  # the skeleton is as `cargo fmt` leaves it: an author's first fmt changes nothing
        fmt = subprocess.run(["cargo", "fmt", "--check"], cwd=d, capture_output=True, text=True)
        assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_the_rust_skeleton_says_rust_and_the_rustc_that_built_it(skeleton):
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    res = subprocess.run([C_HOST, "--plugin", skeleton["so"]], input='{"cmd":"hello","protocol":5}\n',
                         capture_output=True, text=True, check=True)  # fmt: skip
    hello = json.loads(res.stdout)
    assert hello["provider"] == "plugin:rusty" and hello["language"] == "rust", hello
    assert hello["runtime"] == rustc and hello["library_version"].startswith("sha2 0."), hello
    pf = skeleton["dir"].parent / "providers.toml"
    pf.write_text(f'[[provider]]\nplugin = "{skeleton["so"]}"\n')
    res = run_cli("list", "providers", "--providers-file", pf)
    assert res.returncode == 0, res.stderr
    mine = res.stdout.split("plugin:rusty\n", 1)[1].split("\n\n", 1)[0]
    assert "language: rust " in mine and f"runtime:  {rustc}" in mine, mine


def test_the_rust_skeleton_passes_check_and_is_measured(skeleton, tmp_path):
    so = skeleton["so"]
    res = run_cli("plugin", "check", so, "--db", tmp_path / "c.db")
    assert res.returncode == 0, res.stdout + res.stderr
    out = tmp_path / "r.json"
    res = run_cli("run", "--plugin", so, "--alg", "sha256", "--size", "1KiB", "--time-per-cell", "0.2",
                  "--db", tmp_path / "r.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    cells = {c["provider"]: c for c in json.loads(out.read_text())["cells"]}
    mine = cells["plugin:rusty"]
    assert mine["status"] == "ok" and mine["samples_ns"] and mine["checksum"] == cells["c:openssl"]["checksum"]
