"""provider@version for the families of issue 34 (docs/versions.md): go:stdlib (a Go release is a
toolchain: the machine's and 1.27.3 through GOTOOLCHAIN, nothing else), go:gmsm (a go.mod require
per release), rust:rustcrypto (the RustCrypto crates as they stood while one aes-gcm release was
current), rust:aws-lc-rs, wasm:hash-wasm and browser:noble (npm releases laid out like drivers/).

The resolution, refusal and build-plan logic runs without a network (registries faked); one real
build and run of go:stdlib at the machine's Go (seconds with Go's build cache) checks the whole way,
with a cached build that lies about its release caught by the asked-vs-reported check."""

import json
import os
import shutil
import sqlite3
import subprocess

import pytest
from conftest import REPO, run_cli

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import Registry
from cryptobench.versions import builds_go, builds_npm, builds_rust, registries, resolve
from cryptobench.versions.build_steps import BuildFailed
from cryptobench.versions.builds_rust import locked_versions, pin_requirement, rustcrypto_plan, series
from cryptobench.versions.families import FAMILIES

needs_go = pytest.mark.skipif(shutil.which("go") is None, reason="no go command (scripts/setup.sh installs it)")


@needs_go
def test_go_releases_are_the_machines_and_the_approved_toolchain_and_nothing_else():
    mine = builds_go.local_go()
    assert builds_go.go_releases() == list(dict.fromkeys([mine, "1.27.3"]))
    reg = Registry()
    series = ".".join(mine.split(".")[:2])
    got = resolve.expand(reg, [f"go:stdlib@{series}", "go:stdlib@1.27", "go:stdlib@latest", "go:stdlib@1.22",
                               "go:stdlib@1.27.2", "go:stdlib@>=1.20"], newest=5)  # fmt: skip
    assert got[:2] == [f"go:stdlib@{mine}", "go:stdlib@1.27.3"], got
    for refused in ("go:stdlib@1.22", "go:stdlib@1.27.2"):  # never fetched, whatever the proxy may hold
        why = reg.build_errors[refused]
        assert "no release reachable here" in why and "GOTOOLCHAIN=go1.27.3" in why and "\n" not in why, why
    assert "go:stdlib@>=1.20" not in reg.build_errors  # a range picks among the two reachable ones
    p = reg.get("go:stdlib@1.27.3")
    assert p.serves == "go:stdlib" and p.family == "go-stdlib" and p.command[0].endswith("/cbdriver-go")
    assert FAMILIES["go-stdlib"].reported_version("go1.27.3 + golang.org/x/crypto v0.58.0") == "1.27.3"
    assert FAMILIES["go-gmsm"].reported_version("github.com/emmansun/gmsm v0.44.0 on go1.26.8") == "0.44.0"
    # the build refuses too, should a stale cache or a hand-made id ask for another release
    with pytest.raises(BuildFailed, match="no release reachable here"):
        builds_go.build_go_stdlib("1.25.0", REPO, REPO / "nonexistent.log")


def test_gmsm_takes_the_proxys_list_and_exact_releases_it_serves_unlisted(monkeypatch):
    """The Go proxy here lists one gmsm release but serves others by name (its .info answers)."""
    monkeypatch.setattr(registries, "goproxy", lambda module: ("0.15.5",))
    served = {"0.44.0", "0.44.1"}
    monkeypatch.setattr(registries, "goproxy_has", lambda module, v: v in served)
    reg = Registry()
    got = resolve.expand(reg, ["go:gmsm@0.44", "go:gmsm@0.44.0", "go:gmsm@0.43.9", "go:gmsm@0.15"])
    assert got == ["go:gmsm@0.44.1", "go:gmsm@0.44.0", "go:gmsm@0.43.9", "go:gmsm@0.15.5"]  # 0.44.1: go.mod's
    assert "no release of go:gmsm matches '0.43.9'" in reg.build_errors["go:gmsm@0.43.9"]
    assert set(reg.build_errors) == {"go:gmsm@0.43.9"}
    # a series is never answered by guessing releases the list does not name
    with pytest.raises(UserError, match="no release"):
        resolve.resolve(FAMILIES["go-gmsm"], "go:gmsm@0.30", "0.30", 3)


def _entry(vers: str, pubtime: str | None = None, yanked: bool = False) -> dict:
    e = {"vers": vers, "yanked": yanked}
    if pubtime:
        e["pubtime"] = pubtime
    return e


INDEX = {
    "aes-gcm": [_entry("0.10.3"), _entry("0.11.0-rc.4", "2026-05-25T00:00:00Z"),
                _entry("0.11.0", "2026-06-28T00:00:00Z"), _entry("0.11.1", "2026-08-21T00:00:00Z")],
    "sha2": [_entry("0.10.9"), _entry("0.11.0-rc.5", "2026-05-01T00:00:00Z"), _entry("0.11.0", "2026-06-20T00:00:00Z"),
             _entry("0.11.1", "2026-08-01T00:00:00Z"), _entry("0.11.2", "2026-09-01T00:00:00Z", yanked=True)],
    "digest": [_entry("0.10.7"), _entry("0.11.0", "2026-06-01T00:00:00Z"), _entry("0.11.2", "2026-08-25T00:00:00Z")],
    "aes": [_entry("0.8.4"), _entry("0.9.0-rc.4", "2026-05-20T00:00:00Z"), _entry("0.9.4", "2026-10-01T00:00:00Z")],
    "slh-dsa": [_entry("0.2.0-rc.4", "2026-05-01T00:00:00Z"), _entry("0.2.0-rc.5", "2026-07-01T00:00:00Z")],
}  # fmt: skip
LOCK = {"aes-gcm": ["0.11.1"], "sha2": ["0.11.1", "0.10.9"], "digest": ["0.10.7", "0.11.2"], "aes": ["0.9.4"],
        "slh-dsa": ["0.2.0-rc.5"], "serde": ["1.0.229"]}  # fmt: skip


def test_rustcrypto_moves_its_crates_to_where_they_stood_while_that_aes_gcm_was_newest():
    index = INDEX.__getitem__
    pins, kept = rustcrypto_plan("0.11.0", LOCK, index)
    # the window of 0.11.0 closes when 0.11.1 came out (2026-08-21): sha2 0.11.1 (08-01) was current,
    # digest 0.11.2 (08-25) not yet; rsa's digest 0.10 and sha2 0.10 stay (another series); aes had no
    # 0.9 release yet (only a release candidate), so it stays as locked, said so
    assert pins == {"aes-gcm": "0.11.0", "sha2": "0.11.1", "digest": "0.11.0"}, pins
    assert kept["aes"].startswith("0.9.4 (no 0.9.x release before 2026-08-21")
    assert "pre-release" in kept["slh-dsa"] and "serde" not in pins and "serde" not in kept
    newest, _ = rustcrypto_plan("0.11.1", LOCK, index)  # the newest: no window end, yanked left out
    assert newest == {"aes-gcm": "0.11.1", "sha2": "0.11.1", "digest": "0.11.2", "aes": "0.9.4"}
    rc, _ = rustcrypto_plan("0.11.0-rc.4", LOCK, index)  # a release candidate: candidates of its time count too
    assert rc == {"aes-gcm": "0.11.0-rc.4", "sha2": "0.11.0", "digest": "0.11.0", "aes": "0.9.0-rc.4"}, rc
    with pytest.raises(BuildFailed, match=r"another API series .*\(0\.11\.x\)"):
        rustcrypto_plan("0.10.3", LOCK, index)  # the driver is written against 0.11: refused at once
    with pytest.raises(BuildFailed, match="crates.io has no aes-gcm 0.12.0"):
        rustcrypto_plan("0.12.0", LOCK, index)


def test_rust_pins_are_written_into_the_copied_manifest_of_either_form():
    manifest = (REPO / "drivers/rust/Cargo.toml").read_text()
    out, n = pin_requirement(manifest, "aes-gcm", "0.11.0")
    assert n == 1 and '\naes-gcm = "=0.11.0"\n' in out
    out, n = pin_requirement(out, "p256", "0.14.0")  # the table form keeps its features
    assert n == 1 and 'p256 = { version = "=0.14.0", features = ["ecdsa", "ecdh"] }' in out
    assert pin_requirement(manifest, "digest", "0.11.0")[1] == 0  # not named: added as a requirement
    assert (series("0.11.1"), series("1.19.0"), series("0.0.3"), series("0.2.0-rc.5")) == (
        "0.11", "1", "0.0.3", "0.2")  # fmt: skip
    lock = locked_versions((REPO / "drivers/rust/Cargo.lock").read_text())
    assert len(lock["digest"]) >= 1 and all(c in lock for c in ("aes-gcm", "sha2", "aws-lc-rs"))
    # every family reads the version its hello says
    rc = FAMILIES["rust-rustcrypto"].reported_version("sha2 0.11.1/0.10.9, aes-gcm 0.11.0, ccm 0.6.1")
    assert rc == "0.11.0"
    said = "aws-lc-rs 1.18.2, aws-lc-sys 0.40.0 (AWS-LC 5.1.0 as reported at run time by aws_lc_rs::awslc_version())"
    assert FAMILIES["rust-aws-lc-rs"].reported_version(said) == "1.18.2"
    assert FAMILIES["wasm-hash-wasm"].reported_version("hash-wasm 4.12.0") == "4.12.0"
    assert FAMILIES["browser-noble"].reported_version("@noble/hashes 1.8.0 + @noble/ciphers 1.3.0") == "1.8.0"


def test_npm_builds_are_laid_out_like_drivers_and_run_our_sources(tmp_path, monkeypatch):
    """hash-wasm: js/node_modules beside a link to drivers/js/src; browser:noble also a browser/
    whose bridge serves that js/ (its server finds ../js). npm is stubbed: no registry is asked."""

    def fake_run(argv, cwd, log, env=None, timeout=3600):
        assert argv[:2] == ["npm", "install"]
        for spec in argv[2:]:
            if spec.startswith("-"):
                continue
            name, _, version = spec.rpartition("@")
            (cwd / "node_modules" / name).mkdir(parents=True)
            (cwd / "node_modules" / name / "package.json").write_text(json.dumps({"name": name, "version": version}))
            manifest = json.loads((cwd / "package.json").read_text())  # --save-exact
            manifest["dependencies"][name] = version
            (cwd / "package.json").write_text(json.dumps(manifest))

    monkeypatch.setattr(builds_npm, "run_step", fake_run)
    stage = tmp_path / "4.12.0+node20"
    stage.mkdir()
    stamp = builds_npm.build_hash_wasm("4.12.0", stage, tmp_path / "log")
    assert stamp["command"] == "npm install hash-wasm@4.12.0"
    assert (stage / "js/src").resolve() == REPO / "drivers/js/src"
    argv = FAMILIES["wasm-hash-wasm"].command(stage, "wasm:hash-wasm", {})
    assert argv == ("node", "--preserve-symlinks", "--preserve-symlinks-main", str(stage / "js/src/main_node.js"))
    monkeypatch.setattr(builds_npm, "noble_flat_set", lambda v: {"@noble/hashes": v, "@noble/curves": "1.9.7"})
    stage = tmp_path / "1.8.0+node20"
    stage.mkdir()
    if not (REPO / "drivers/browser/node_modules/playwright-core").is_dir():
        with pytest.raises(BuildFailed, match="cryptobench build browser"):
            builds_npm.build_browser_noble("1.8.0", stage, tmp_path / "log")
        return
    builds_npm.build_browser_noble("1.8.0", stage, tmp_path / "log")
    assert (stage / "browser/bridge.mjs").resolve() == REPO / "drivers/browser/bridge.mjs"
    assert (stage / "browser/server.mjs").exists() and (stage / "js/node_modules/@noble/curves").is_dir()
    assert FAMILIES["browser-noble"].command(stage, "browser:noble", {})[-1] == str(stage / "browser/bridge.mjs")
    # the browser's server, run from this layout, maps the packages installed here (not drivers/js's)
    node = subprocess.run(
        ["node", "--preserve-symlinks", "--input-type=module", "-e",
         f"import {{ importMap, JS_MODULES }} from {json.dumps(str(stage / 'browser/server.mjs'))};"
         "console.log(JSON.stringify([JS_MODULES, importMap()]))"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert node.returncode == 0, node.stderr
    where, imports = json.loads(node.stdout)
    assert where == str(stage / "js/node_modules")
    assert sorted(k for k in imports["imports"] if not k.endswith("/")) == ["@noble/curves", "@noble/hashes"]


def _go_build_faking(cache, version: str, real: str) -> None:
    """A cached go:stdlib build of `version` whose binary is really the `real` one (a corrupted
    cache or a resolver bug): its stamp matches our sources, so it is used as it is."""
    fam = FAMILIES["go-stdlib"]
    src = cache / "versions/go-stdlib" / f"{real}+{fam.toolchain()}"
    place = src.with_name(f"{version}+{fam.toolchain()}")
    place.mkdir(parents=True)
    shutil.copy2(src / "cbdriver-go", place / "cbdriver-go")
    (place / "build.json").write_text(json.dumps({"family": "go-stdlib", "version": version, "seconds": 0,
                                                  "bytes": 0, "sources": fam.sources_hash()}))  # fmt: skip


@needs_go
def test_go_stdlib_at_the_machines_release_is_built_verified_and_timed(tmp_path):
    """The real way, cheaply: the driver built by the machine's Go (seconds with Go's build cache)
    into a fresh cache, verified and timed under its versioned id, reporting its Go release; a
    cached build that claims 1.27.3 but runs the machine's Go fails the asked-vs-reported check;
    a release not reachable here is that provider's one line. (1.27.3 itself is built by hand:
    `cryptobench build go:stdlib@1.27`, the toolchain fetched once through GOTOOLCHAIN.)"""
    mine = builds_go.local_go()
    if mine == "1.27.3":
        pytest.skip("this machine's Go is 1.27.3: the lying build below needs another release")
    cache, db = tmp_path / "cache", tmp_path / "v.db"
    env = {**os.environ, "CRYPTOBENCH_CACHE": str(cache)}
    built = run_cli("build", f"go:stdlib@{mine}", env=env, timeout=600)
    assert built.returncode == 0 and f"go:stdlib@{mine}" in built.stdout and "ok:" in built.stdout, built.stdout
    _go_build_faking(cache, "1.27.3", mine)
    res = run_cli("run", "--db", db, "--provider", f"go:stdlib@{mine},go:stdlib@1.27.3,go:stdlib@1.21",
                  "--alg", "sha256", "--size", "1KiB", "--time-per-cell", "0.05", "--layout", "versions",
                  "--md", tmp_path / "v.md", env=env, timeout=600)  # fmt: skip
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr[-2000:]
    with sqlite3.connect(db) as con:
        cells = {p: (s, r) for p, s, r in con.execute("SELECT provider, status, reason FROM cells")}
        said = {
            p: json.loads(h).get("library_version", "") for p, h in con.execute("SELECT provider, hello FROM providers")
        }
    assert cells[f"go:stdlib@{mine}"][0] == "ok" and said[f"go:stdlib@{mine}"].startswith(f"go{mine} ")
    status, reason = cells["go:stdlib@1.27.3"]
    assert status == "failed" and f"asked for version 1.27.3, but the library reports {mine}" in reason, reason
    status, reason = cells["go:stdlib@1.21"]
    assert status == "failed" and "no release reachable here" in reason and "\n" not in reason
    listed = {b["version"]: b for b in json.loads(run_cli("build", "--list", "--json", env=env).stdout)["builds"]}
    assert listed[mine]["providers"] == [f"go:stdlib@{mine}"] and listed[mine]["state"] == "built"
    assert "pruned 2 builds" in run_cli("build", "--prune", "go:stdlib", env=env).stdout


def test_rustcrypto_moves_dependents_before_their_dependencies():
    depth = builds_rust.lock_order((REPO / "drivers/rust/Cargo.lock").read_text())
    assert depth["cbdriver-rust"] == 0 and depth["aes-gcm"] == 1
    assert depth["aes-gcm"] < depth["aes"] < depth["cipher"] < depth["inout"] < depth["hybrid-array"]
    assert depth["elliptic-curve"] < depth["crypto-bigint"] < depth["ctutils"]


def test_hash_wasm_release_runs_our_driver_from_its_npm_folder(tmp_path):
    """The real way: `build` has npm install hash-wasm 4.11.0 (seconds, npm's cache) beside links to
    our driver, and the provider's command starts our driver on that release: its hello says so.
    (The asked-vs-reported check and a timed run are the go:stdlib test's.)"""
    if shutil.which("npm") is None:
        pytest.skip("no npm (scripts/setup.sh installs it)")
    try:
        registries.npm("hash-wasm")
    except UserError as e:
        pytest.skip(f"the npm registry cannot be reached: {e}")
    env = {**os.environ, "CRYPTOBENCH_CACHE": str(tmp_path)}
    built = run_cli("build", "wasm:hash-wasm@4.11.0", env=env, timeout=600)
    assert built.returncode == 0 and "wasm:hash-wasm@4.11.0" in built.stdout, (built.stdout + built.stderr)[-2000:]
    place = tmp_path / "versions/wasm-hash-wasm" / f"4.11.0+{FAMILIES['wasm-hash-wasm'].toolchain()}"
    argv = [*FAMILIES["wasm-hash-wasm"].command(place, "wasm:hash-wasm", {}), "--provider", "wasm:hash-wasm"]
    res = subprocess.run(argv, input='{"cmd": "hello", "protocol": 7}\n', capture_output=True, text=True, timeout=120)
    hello = json.loads(res.stdout.splitlines()[0])
    assert hello["provider"] == "wasm:hash-wasm" and hello["library_version"] == "hash-wasm 4.11.0", hello
    assert FAMILIES["wasm-hash-wasm"].reported_version(hello["library_version"]) == "4.11.0"


def test_prune_leaves_the_shared_cargo_target_to_a_rust_build_under_way(tmp_path):
    """The Rust builds share versions/.cargo-target: `build --prune` once removed it while the first
    Rust build was compiling into it (no finished Rust build was left to need it)."""
    import fcntl

    env = {**os.environ, "CRYPTOBENCH_CACHE": str(tmp_path)}
    target = tmp_path / "versions/.cargo-target"
    (target / "release").mkdir(parents=True)
    (target / "release/big").write_bytes(b"x" * 1000)
    stage = tmp_path / "versions/rust-rustcrypto/0.11.0+rustc1.95.0.new"
    stage.mkdir(parents=True)
    with open(stage.parent / ".lock-0.11.0+rustc1.95.0", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pruned = run_cli("build", "--prune", env=env)
        assert "kept .cargo-target: a Rust version build is using it now" in pruned.stdout, pruned.stdout
        assert (target / "release/big").exists()
    pruned = run_cli("build", "--prune", env=env)  # its builder is gone: both are left over
    assert "removed .cargo-target" in pruned.stdout and not target.exists(), pruned.stdout


def test_a_pages_noble_set_holds_one_copy_of_each_package(monkeypatch):
    """A browser's import map hands every importer the one copy of @noble/hashes (npm would nest a
    companion's own newer copy in Node): each companion is the newest release whose @noble/*
    requirements the set satisfies, dependents first."""
    versions = {
        "@noble/ciphers": {"2.3.0": {}, "2.4.0": {}, "1.3.0": {}},
        "@noble/curves": {"2.3.0": {"dependencies": {"@noble/hashes": "2.3.0"}},
                          "2.4.0": {"dependencies": {"@noble/hashes": "2.4.0"}}},
        "@noble/post-quantum": {
            "0.7.0": {"dependencies": {"@noble/hashes": "~2.3.0", "@noble/curves": "~2.3.0", "@noble/ciphers": "~2.3.0"}},
            "0.7.1": {"dependencies": {"@noble/hashes": "2.4.0", "@noble/curves": "2.4.0", "@noble/ciphers": "2.4.0"}},
        },
    }  # fmt: skip
    monkeypatch.setattr(registries, "npm_manifest", lambda name: {"versions": versions[name]})
    assert builds_npm.noble_flat_set("2.3.0") == {"@noble/hashes": "2.3.0", "@noble/ciphers": "2.3.0",
                                                "@noble/curves": "2.3.0", "@noble/post-quantum": "0.7.0"}  # fmt: skip
    assert builds_npm.noble_flat_set("2.4.0")["@noble/ciphers"] == "2.4.0"
    sat = builds_npm.npm_satisfies
    assert sat("2.0.1", "~2.0.0") and not sat("2.1.0", "~2.0.0") and sat("2.4.0", "^2.0.0")
    assert not sat("2.0.1", "2.4.0") and sat("0.5.3", "^0.5.0") and not sat("0.6.0", "^0.5.0")
