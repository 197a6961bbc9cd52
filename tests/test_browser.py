"""The browser providers (drivers/browser) end to end through the real Runner.

browser:webcrypto, browser:noble and browser:wasm run the JavaScript driver's modules in headless
Chromium; here they are registered from a providers file (as a user's own driver would be) and
measured next to their Node twins and the native baseline on sha256 and aes-128-gcm: every browser
provider verified and measured, its checksums equal to the Node and native ones, the browser's
version in the stored hello. A missing Chromium is a failure naming the setup command, never a skip.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cryptobench.drivers.registry import REPO, Registry
from cryptobench.plan.planner import Filters, plan
from cryptobench.plan.suites import load_suite
from cryptobench.report import build_report
from cryptobench.run.runner import Runner, Settings
from cryptobench.store import open_store

BRIDGE = REPO / "drivers/browser/bridge.mjs"
BROWSER = {
    "browser:webcrypto": ("javascript", "WebCrypto (crypto.subtle) in headless Chromium"),
    "browser:noble": ("javascript", "@noble/hashes, ciphers, curves, post-quantum in headless Chromium"),
    "browser:wasm": ("wasm", "hash-wasm (WebAssembly) in headless Chromium"),
}
NODE = ["js:noble", "js:node", "wasm:hash-wasm"]
BASELINE = "c:openssl"
SETUP = "scripts/setup.sh (or: apt-get install -y chromium && npm ci --prefix drivers/browser)"


def _chromium() -> str:
    return os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _providers_file(tmp: Path) -> Path:
    lines = []
    for pid, (language, library) in BROWSER.items():
        lines += ["[[provider]]", f'id = "{pid}"', f'language = "{language}"', f'library = "{library}"',
                  f'command = ["node", "{BRIDGE}"]', ""]  # fmt: skip
    path = tmp / "browser-providers.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_chromium_is_installed():
    assert Path(_chromium()).exists(), f"{_chromium()} not found: Chromium is needed, run {SETUP}"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    assert Path(_chromium()).exists(), f"{_chromium()} not found: Chromium is needed, run {SETUP}"
    assert shutil.which("node"), "node not found: run scripts/setup.sh"
    assert (REPO / "drivers/browser/node_modules/playwright-core").is_dir(), (
        f"drivers/browser is not built: run `npm ci --prefix drivers/browser` ({SETUP})"
    )
    tmp = tmp_path_factory.mktemp("browser")
    registry = Registry(_providers_file(tmp))
    providers = [*BROWSER, *NODE, BASELINE]
    for pid in providers:
        ok, why = registry.usable(registry.get(pid))
        assert ok, f"{pid}: {why} (the README's `make test` builds every driver first)"
    store = open_store(str(tmp / "browser.db"))
    suite = tmp / "browser.toml"
    suite.write_text('name = "browser"\nsizes = ["1KiB", "16KiB"]\n[[group]]\nalgs = ["sha256", "aes-128-gcm"]\n')
    cells = plan(load_suite(str(suite)), providers, Filters())
    # one pass over the plan: every pass starts every driver afresh (Chromium, a JVM), and what is
    # checked here is start, verification and agreement; passes themselves are test_runner_rounds'
    settings = Settings(suite="default", baseline=BASELINE, time_per_cell=0.05, target_ns=500_000,
                        warmup_first_ns=2_000_000, warmup_ns=0, min_samples=5, passes=1)  # fmt: skip
    run_id = Runner(store, registry, settings).run(cells, providers)
    return build_report(*store.load_run(run_id))


def test_every_browser_provider_started_and_reports_the_browser(report):
    hellos = report.run.providers
    assert set(BROWSER) <= set(hellos), f"not started: {set(BROWSER) - set(hellos)}"
    for pid in BROWSER:
        h = hellos[pid]
        assert h["provider"] == pid
        assert h["language"] == BROWSER[pid][0]
        assert h["runtime"].startswith("Chromium "), h["runtime"]
        version = h["runtime"].split()[1]
        assert version.count(".") == 3 and version.split(".")[0].isdigit(), h["runtime"]
        assert "headless" in h["runtime"]
        notes = "\n".join(h["notes"])
        assert "headless Chromium" in notes
        assert "crossOriginIsolated = true" in notes
        assert h["clock"]["resolution_ns"] > 0
    chromium = hellos["browser:webcrypto"]["runtime"].split()[1]
    installed = subprocess.run([_chromium(), "--version"], capture_output=True, text=True, timeout=60).stdout
    assert f"Chromium {chromium} " in installed, (chromium, installed)  # the browser that ran is the installed one
    assert f"Chromium {chromium}" in hellos["browser:webcrypto"]["library_version"]
    assert hellos["browser:noble"]["library_version"] == hellos["js:noble"]["library_version"]
    assert hellos["browser:wasm"]["library_version"] == hellos["wasm:hash-wasm"]["library_version"]


def test_every_browser_provider_verified(report):
    got = {(v.provider, v.alg): v for v in report.verifications if v.provider in BROWSER}
    want = {(p, "sha256") for p in BROWSER} | {("browser:webcrypto", "aes-128-gcm"), ("browser:noble", "aes-128-gcm")}
    assert set(got) == want
    assert all(v.status == "passed" and v.passed > 0 and v.failed == 0 for v in got.values()), got


def test_every_offered_cell_measured_and_nothing_failed(report):
    assert report.failures == []
    ok = {(r.provider, r.cell.alg, r.cell.op, r.cell.size) for r in report.rows if r.ok}
    for size in (1024, 16384):
        for pid in BROWSER:
            assert (pid, "sha256", "hash", size) in ok
        for pid in ("browser:webcrypto", "browser:noble"):
            assert (pid, "aes-128-gcm", "seal", size) in ok
            assert (pid, "aes-128-gcm", "open", size) in ok
    wasm_gcm = [r for r in report.rows if r.provider == "browser:wasm" and r.cell.alg == "aes-128-gcm"]
    assert wasm_gcm and all(r.cell.status == "not-offered" for r in wasm_gcm)
    assert all(r.cell.peak_rss_kb > 0 for r in report.rows if r.ok and r.provider in BROWSER)


def test_checksums_equal_node_and_native(report):
    assert not any(r.checksum_mismatch for r in report.rows)
    assert not any(w.startswith("outputs disagree") for w in report.warnings)
    by_cell: dict[tuple, dict[str, str]] = {}
    for r in report.rows:
        if r.ok:
            by_cell.setdefault((r.cell.alg, r.cell.op, r.cell.size), {})[r.provider] = r.cell.checksum
    for key, sums in by_cell.items():
        assert BASELINE in sums and "js:node" in sums, key
        for pid in BROWSER:
            if pid in sums:
                assert sums[pid] == sums[BASELINE] == sums["js:node"], (key, sums)
    assert by_cell[("sha256", "hash", 1024)]["browser:noble"] == "00000020:fb4898be6151a393"  # docs/protocol.md
