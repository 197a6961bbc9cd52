"""`cryptobench plugin new NAME --lang rust`: a cdylib crate that builds with cargo, passes `plugin
check`, is measured by `run`, and says it is Rust built by the rustc that built it; given a
public-key algorithm, its key pairs' buffers go back to it through free_buf (plugin ABI 2).

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


def cargo_build(d: Path, lib: str) -> Path:
    """The cdylib cargo builds from crate `d`, under a copy cached by its content."""
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
    return key / "target" / "release" / f"libcb_{lib}.so"


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory) -> dict:
    """`plugin new rusty --lang rust` and the library cargo built from it (cached by content)."""
    d = tmp_path_factory.mktemp("rust") / "rusty"
    res = run_cli("plugin", "new", "rusty", "--lang", "rust", "--dir", d)
    assert res.returncode == 0, res.stdout + res.stderr
    return {"dir": d, "new": res.stdout, "so": cargo_build(d, "rusty")}


# The skeleton given a public-key algorithm whose keypair hands out buffers with its give_buf, a
# free_buf that counts what comes back, and a note that says the count.
KEYED = {
    "static ALGS: Shared<[CbAlg; 1]> = Shared([CbAlg {": "static ALGS: Shared<[CbAlg; 2]> = Shared([X25519, CbAlg {",
    "    keypair: None, // only for public-key algorithms (their buffers: give_buf)": "    keypair: Some(keypair),",
    "    notes: None,": "    notes: Some(notes),",
    'unsafe extern "C" fn free_buf(buf: *mut u8, len: usize) {\n': (
        'unsafe extern "C" fn free_buf(buf: *mut u8, len: usize) {\n    FREED.fetch_add(1, Ordering::SeqCst);\n'
    ),
}
KEYED_CODE = r"""
use std::ffi::CString;
use std::sync::atomic::{AtomicUsize, Ordering};

static FREED: AtomicUsize = AtomicUsize::new(0);

const X25519: CbAlg = CbAlg {
    name: c"x25519".as_ptr(),
    ops: [c"keygen".as_ptr(), c"derive".as_ptr(), ptr::null(), ptr::null(), ptr::null()],
    stream: 0, pk: 1, fresh: 0, key_len: 0, iv_len: 0, tag_len: 0, out_len: 0, block: 0,
};

unsafe extern "C" fn keypair(_alg: *const c_char, public: *mut *mut u8, public_len: *mut usize,
                             private: *mut *mut u8, private_len: *mut usize, _err: Err, _errlen: usize) -> CbStatus {
    unsafe {
        give_buf(vec![9; 32], public, public_len);
        give_buf(vec![7; 32], private, private_len);
    }
    CB_OK
}

unsafe extern "C" fn notes(_provider: *const c_char, notes: *mut *const c_char, max: usize) -> usize {
    if max == 0 {
        return 0;
    }
    let said = CString::new(format!("free_buf: {} buffers", FREED.load(Ordering::SeqCst))).unwrap();
    unsafe { *notes = said.into_raw() }; // one small leak per hello: a test plugin
    1
}
"""


@pytest.fixture(scope="module")
def keyed(skeleton, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("rust") / "keyed"
    shutil.copytree(skeleton["dir"], d)
    lib = (d / "src" / "lib.rs").read_text()
    for old, new in KEYED.items():
        assert lib.count(old) == 1, f"the skeleton no longer has {old!r}"
        lib = lib.replace(old, new)
    (d / "src" / "lib.rs").write_text(lib + KEYED_CODE)
    return cargo_build(d, "rusty")


def test_a_rust_plugins_key_pairs_go_back_to_it_through_free_buf(keyed):
    """The driver copies a key pair and gives each buffer back to the plugin's allocator: never its
    own free() on memory Rust allocated (plugin ABI 2; version 1's driver freed them itself)."""
    lines = '{"cmd":"keypair","alg":"x25519"}\n' * 2 + '{"cmd":"hello","protocol":5}\n{"cmd":"bye"}\n'
    res = subprocess.run([C_HOST, "--plugin", keyed], input=lines, capture_output=True, text=True, timeout=30)
    first, second, hello, _ = (json.loads(line) for line in res.stdout.splitlines())
    assert first == second == {"ok": True, "public": "09" * 32, "private": "07" * 32}, res.stdout + res.stderr
    assert "free_buf: 4 buffers" in hello["notes"], hello["notes"]


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
    res = run_cli("list", "providers", "--providers-file", pf, "--provider", "plugin:rusty")
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
