"""C and C++ plugins (include/cryptobench/provider.h): a shared object becomes a provider of the
generic C driver — verified, measured, and refused or failed in one line when it misbehaves."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import run_cli

from cryptobench.drivers.registry import C_HOST, REPO

FIXTURE = REPO / "tests" / "fixtures" / "fault_plugin.c"

pytestmark = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")


def build_fault(tmp_path, mode: str, source=FIXTURE, name: str = "fault"):
    """tests/fixtures/fault_plugin.c (or `source`) built with one fault (or none: mode "good")."""
    out = tmp_path / f"libcb_{name}_{mode}.so"
    subprocess.run(["gcc", "-O1", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", f"-DFAULT_{mode.upper()}",
                    f"-I{REPO / 'include'}", "-o", out, source, "-lcrypto"], check=True)  # fmt: skip
    return out


def run_sha256(tmp_path, plugin, *extra):
    """`run --plugin PLUGIN --alg sha256 --size 1KiB` beside c:openssl: (result, {provider: cell})."""
    out = tmp_path / "r.json"
    res = run_cli("run", "--plugin", plugin, "--alg", "sha256", "--size", "1KiB", "--timeout", "5",
                  "--time-per-cell", "0.1", "--passes", "1", "--db", tmp_path / "r.db", "--json", out, "--quiet",
                  *extra)  # fmt: skip
    cells = {c["provider"]: c for c in json.loads(out.read_text())["cells"]} if out.exists() else {}
    return res, cells


@pytest.mark.parametrize("lang", ["c", "cpp"])
def test_plugin_new_builds_checks_and_runs(tmp_path, lang):
    """The newcomer's path for a compiled plugin: new -> make -> check -> run, from the skeleton."""
    d = tmp_path / "mylib"
    res = run_cli("plugin", "new", "mylib", "--lang", lang, "--dir", d)
    assert res.returncode == 0 and f"next: make -C {d}" in res.stdout, res.stdout + res.stderr
    subprocess.run(["make", "-s", "-C", d], check=True)
    so = d / "libcb_mylib.so"
    res = run_cli("plugin", "check", so, "--db", tmp_path / "c.db")
    assert res.returncode == 0 and "plugin:mylib               ok" in res.stdout, res.stdout + res.stderr
    res, cells = run_sha256(tmp_path, so)
    assert res.returncode == 0, res.stderr
    mine = cells["plugin:mylib"]
    assert mine["status"] == "ok" and mine["checksum"] == cells["c:openssl"]["checksum"]
    assert mine["vs_baseline"]["baseline"] == "c:openssl"


def test_a_plugin_hello_names_its_file_and_language(tmp_path):
    so = build_fault(tmp_path, "good")
    res = subprocess.run([C_HOST, "--plugin", so], input='{"cmd":"hello","protocol":4}\n', capture_output=True,
                         text=True, check=True)  # fmt: skip
    hello = json.loads(res.stdout)
    assert hello["provider"] == "plugin:fault" and hello["language"] == "c" and hello["library_version"] == "fault 1"
    assert hello["notes"][0] == "a plugin (libcb_fault_good.so, ABI version 1) served by the C driver"
    assert set(hello["offers"]) == {"sha256", "noop"}  # noop: served by the driver itself


@pytest.mark.parametrize(
    "mode, said",
    [
        ("crash", "driver crashed (SIGSEGV): plugin libcb_fault_crash.so: crashed (Segmentation fault)"),
        ("hang", "timeout"),
    ],
)
def test_a_plugin_that_crashes_or_hangs_in_a_cell_fails_that_cell_only(tmp_path, mode, said):
    res, cells = run_sha256(tmp_path, build_fault(tmp_path, mode))
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr  # a failed provider fails the run
    assert cells["plugin:fault"]["status"] == "failed" and said in cells["plugin:fault"]["reason"], cells
    assert cells["c:openssl"]["status"] == "ok"


def test_a_plugin_with_wrong_output_fails_its_vectors_and_is_not_timed(tmp_path):
    res, cells = run_sha256(tmp_path, build_fault(tmp_path, "wrong"))
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr  # a failed provider fails the run
    fault = cells["plugin:fault"]
    assert fault["status"] == "failed" and "vector" in fault["reason"] and not fault["samples_ns"], fault


def test_a_plugin_that_lies_in_its_catalogue_is_caught_by_check(tmp_path):
    """It claims sha512 and answers sha256: check names the algorithm and the failing case, exit 1."""
    res = run_cli("plugin", "check", build_fault(tmp_path, "liar"), "--db", tmp_path / "c.db")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "plugin:fault sha512: failed: vector" in res.stdout and "plugin:fault sha256" not in res.stdout


@pytest.mark.parametrize(
    "mode, said",
    [
        ("abi", "built against plugin ABI version 99, this driver speaks versions 1 and 2"),
        ("nosym", "no cryptobench_provider symbol"),
        ("initcrash", "crashed (Segmentation fault) in init"),
    ],
)
def test_a_plugin_that_cannot_be_loaded_is_one_line(tmp_path, mode, said):
    so = build_fault(tmp_path, mode)
    for cmd in (["run", "--alg", "sha256", "--size", "64"], ["plugin", "check"]):
        res = run_cli(*cmd, *(["--plugin"] if cmd[0] == "run" else []), so, "--db", tmp_path / "r.db")
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2 and len(lines) == 1 and said in lines[0], res.stderr
        assert lines[0].startswith(f"cryptobench: error: plugin libcb_fault_{mode}.so: "), lines


def test_a_file_that_is_not_a_plugin_is_one_line(tmp_path):
    junk = tmp_path / "libjunk.so"
    junk.write_text("not an ELF file\n")
    res = run_cli("run", "--plugin", junk, "--alg", "sha256", "--db", tmp_path / "r.db")
    assert res.returncode == 2 and "plugin libjunk.so: cannot load" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_a_providers_file_lists_a_c_plugin(tmp_path):
    """`[[provider]] plugin = "./libcb_x.so"`, relative to the file, is the plugin's provider, listed with
    every built-in one (the one test of a whole `list providers`: the others name their provider)."""
    build_fault(tmp_path, "good")
    pf = tmp_path / "p.toml"
    pf.write_text('[[provider]]\nplugin = "./libcb_fault_good.so"\n')
    res = run_cli("list", "providers", "--providers-file", pf)
    assert res.returncode == 0, res.stderr
    block = res.stdout[res.stdout.index("plugin:fault") :].split("\n\n")[0]
    assert "version:  fault 1" in block and "sha256 (hash)" in block, block
    names = [line for line in res.stdout.splitlines() if line and not line.startswith(" ")]
    assert {"c:openssl", "go:stdlib", "plugin:fault"} <= set(names), names


def _children(pid: int) -> list[int]:
    """Every thread's children: which thread forks a driver is not this test's business."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(x) for x in f.read().split()]
    return found


def _hanging(pid: int) -> bool:
    """Blocked in pause(): it reads no input, so the end of its input cannot stop it."""
    try:
        return "pause" in open(f"/proc/{pid}/wchan").read()
    except OSError:
        return False


def _gone(pid: int) -> bool:
    """Exited: no such process, or a zombie (its new parent, PID 1 of a container, may never reap it)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def test_a_hanging_driver_dies_with_a_killed_cryptobench(tmp_path):
    """SIGKILL (a CI timeout, the OOM killer) gives cryptobench no chance to stop its drivers: a driver
    hung in pause() was left running under PID 1 forever. The kernel kills it now (PR_SET_PDEATHSIG)."""
    so = build_fault(tmp_path, "hang")
    cb = subprocess.Popen([sys.executable, "-m", "cryptobench", "run", "--plugin", so, "--alg", "sha256",
                           "--size", "1KiB", "--timeout", "120", "--db", tmp_path / "r.db"], cwd=REPO,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not (hung := [p for p in _children(cb.pid) if _hanging(p)]):
            assert cb.poll() is None and time.monotonic() < deadline, "the plugin never hung"
            time.sleep(0.2)
    finally:
        cb.kill()
        cb.wait()
    deadline = time.monotonic() + 5
    while not all(map(_gone, hung)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in hung if not _gone(p)]
    for p in left:  # not to leave it behind when the test fails
        os.kill(p, signal.SIGKILL)
    assert not left, "the hanging driver outlived cryptobench"
