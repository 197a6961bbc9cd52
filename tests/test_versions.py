"""provider@version (docs/versions.md): releases resolved from the real registries, built into a
cache, verified and timed; every way a version can be wrong is a one-line failure of that
provider while the rest of the run goes on."""

import json
import os
import re
import shutil
import sqlite3

import pytest
from conftest import REPO, run_cli

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import Registry
from cryptobench.versions.cache import base as cache_base
from cryptobench.versions.spec import key, pick, split

RELEASES = ["41.0.7", "42.0.8", "43.0.3", "44.0.0", "44.0.3", "45.0.0rc1", "46.0.7", "4.1"]


def test_what_may_follow_the_at_sign():
    assert split("python:cryptography@41.0.7") == ("python:cryptography", "41.0.7")
    assert split("python:cryptography") == ("python:cryptography", None)
    assert pick("p@x", "44.0.0", RELEASES) == ["44.0.0"]
    assert pick("p@x", "44", RELEASES) == ["44.0.3"]  # newest of a series
    assert pick("p@x", "4", RELEASES) == ["4.1"]  # a component boundary: 4 is not 41 or 44
    assert pick("p@x", "latest", RELEASES) == ["46.0.7"]  # pre-releases only when named exactly
    assert pick("p@x", ">=43", RELEASES) == ["44.0.0", "44.0.3", "46.0.7"]  # the N newest, oldest first
    assert pick("p@x", ">=43", RELEASES, newest=1) == ["46.0.7"]
    assert pick("p@x", "44.*", RELEASES) == ["44.0.0", "44.0.3"]
    assert pick("p@x", "45.0.0rc1", RELEASES) == ["45.0.0rc1"]
    assert key("1.1.1w") > key("1.1.1") and key("3.0.8") > key("1.1.1w")  # OpenSSL's letter releases
    for bad, needle in (("99", "no release"), ("9.9.9", "no release"), ("banana", "no release")):
        with pytest.raises(UserError, match=needle):
            pick("p@x", bad, RELEASES)
    with pytest.raises(UserError, match="nothing after '@'"):
        split("python:cryptography@")
    # never a path, a URL or a pip requirement: refused before any registry is asked (issue 29)
    for bad in ("file:..", "../x", "https://example.org/x.whl", "41.0.7; rm -rf /"):
        with pytest.raises(UserError, match="is not a version"):
            split(f"python:cryptography@{bad}")


def test_the_pinned_openssl_builds_are_versions_and_their_old_ids_still_work():
    from cryptobench.versions.resolve import expand

    reg = Registry()
    assert reg.canonical("c:openssl-3.6.3") == "c:openssl@3.6.3"
    assert reg.get("c:openssl-1.1.1").id == "c:openssl@1.1.1w"
    # a series resolves to its pin without asking crates.io; argv still serves the id built in
    assert expand(reg, ["c:openssl@1.1.1", "c:openssl@3", "c:openssl-4.0"]) == [
        "c:openssl@1.1.1w", "c:openssl@3.6.3", "c:openssl@4.0.3"]  # fmt: skip
    assert reg.get("c:openssl@3.6.3").argv()[-2:] == ["--provider", "c:openssl-3.6.3"]
    # a range asks crates.io (it once came back empty, dropping the provider named)
    newest_4 = expand(reg, ["c:openssl@>=4.0"], newest=1)
    assert len(newest_4) == 1 and newest_4[0].startswith("c:openssl@4."), newest_4
    with pytest.raises(UserError, match="has no versions to choose from"):
        expand(reg, ["c:libsodium@1.0.18"])
    with pytest.raises(UserError, match="unknown provider"):
        expand(reg, ["python:cryptogrophy@41.0.7"])


def _fake_build_of_another_release(cache, version: str) -> None:
    """A cached 'build' of `version` whose venv is really the project's (cryptography as pinned):
    what a corrupted cache or a resolver bug would hand the run."""
    place = cache / "versions/python-cryptography" / f"{version}+py3.11"
    (place / "venv/bin").mkdir(parents=True)
    os.symlink(REPO / ".venv/bin/python", place / "venv/bin/python")
    (place / "build.json").write_text(json.dumps({"family": "python-cryptography", "version": version,
                                                  "sources": "", "seconds": 0, "bytes": 0}))  # fmt: skip


# The two real releases' venvs (pip installs: 8 CPU s each) are kept between test runs here and copied into
# each run's fresh cache: a kept build whose driver sources changed since is built again by the run itself
# (resolve.build compares the stamp's sources), and the copy kept is then that new build. The build path is
# still run every time by 1.0 (a venv, then pip refusing: no wheel) and in full on a machine's first run.
KEPT = cache_base() / "test-versions" / "python-cryptography"
REAL = ("41.0.7+py3.11", "44.0.3+py3.11")


def _kept_builds(cache, restore: bool) -> None:
    """Copy the real releases' builds from KEPT into `cache` (restore), or from `cache` into KEPT when
    they are new there (a first run, or a build made again)."""
    here = cache / "versions/python-cryptography"
    for name in REAL:
        src, dst = (KEPT / name, here / name) if restore else (here / name, KEPT / name)
        if not (src / "build.json").is_file() or (
            (dst / "build.json").is_file() and (dst / "build.json").read_bytes() == (src / "build.json").read_bytes()
        ):
            continue
        shutil.rmtree(dst, ignore_errors=True)
        tmp = dst.with_name(dst.name + f".copy{os.getpid()}")
        shutil.copytree(src, tmp, symlinks=True)
        os.replace(tmp, dst)


def test_releases_side_by_side_and_every_way_a_version_can_be_wrong(tmp_path):
    """One run: two real releases measured (versions layout), a release that does not exist, one
    that does not build (no wheel for this Python), one lacking an algorithm the others have, and a
    build whose library reports another version than asked. The measured cells survive them all."""
    cache, db = tmp_path / "cache", tmp_path / "v.db"
    _fake_build_of_another_release(cache, "45.0.7")
    _kept_builds(cache, restore=True)
    env = {**os.environ, "CRYPTOBENCH_CACHE": str(cache)}
    wanted = "python:cryptography@41.0.7,python:cryptography@44,python:cryptography@0.0.0,python:cryptography@1.0,python:cryptography@45.0.7"  # noqa: E501
    res = run_cli("run", "--db", db, "--provider", wanted, "--alg", "sha256,sm4-gcm", "--size", "1KiB",
                  "--time-per-cell", "0.1", "--layout", "versions", "--md", tmp_path / "v.md",
                  env=env, timeout=600)  # fmt: skip
    assert res.returncode == 1, res.stderr[-2000:]  # three releases fail their cells: the run says so
    assert "Traceback" not in res.stderr
    with sqlite3.connect(db) as con:
        cells = {(p, a): (s, r) for p, a, s, r in con.execute("SELECT provider, alg, status, reason FROM cells")}
    assert cells[("python:cryptography@41.0.7", "sha256")][0] == "ok"
    assert cells[("python:cryptography@44.0.3", "sha256")][0] == "ok"  # @44: the newest 44.x
    assert cells[("python:cryptography@41.0.7", "sm4-gcm")][0] == "not-offered"  # 41 has no SM4-GCM
    assert cells[("python:cryptography@44.0.3", "sm4-gcm")][0] == "ok"
    status, reason = cells[("python:cryptography@0.0.0", "sha256")]
    assert status == "failed" and "no release" in reason and "\n" not in reason
    status, reason = cells[("python:cryptography@1.0", "sha256")]
    assert status == "failed" and "build of python-cryptography 1.0 failed" in reason and "log:" in reason
    status, reason = cells[("python:cryptography@45.0.7", "sha256")]
    assert status == "failed" and re.search(
        r"asked for version 45\.0\.7, but the library reports (?!45\.0\.7)\d", reason
    )
    _kept_builds(cache, restore=False)
    # the versions layout: releases across, the change between them with its interval and verdict
    md = (tmp_path / "v.md").read_text()
    assert "## python:cryptography — sha256: releases, oldest first" in md
    assert "| 41.0.7 | 41.0.7 → 44.0.3 | 44.0.3 |" in md
    assert any(v in md for v in ("faster |", "slower |", "same (within noise) |", "unclear |"))
    # the cache lists what was built, with sizes, and prunes it
    listed = run_cli("build", "--list", "--json", env=env)
    builds = {b["version"]: b for b in json.loads(listed.stdout)["builds"]}
    assert builds["41.0.7"]["state"] == "built" and builds["41.0.7"]["bytes"] > 1_000_000
    assert builds["41.0.7"]["providers"] == ["python:cryptography@41.0.7"]
    assert builds["1.0"]["state"] == "leftover"  # a failed build is no build: its log is listed to be pruned
    pruned = run_cli("build", "--prune", "python:cryptography@41.*", env=env)
    assert "pruned 1 builds" in pruned.stdout
    left = {b["version"] for b in json.loads(run_cli("build", "--list", "--json", env=env).stdout)["builds"]}
    assert left == {"1.0", "44.0.3", "45.0.7"}  # pruning 41.* leaves 1.0's log alone
    shutil.rmtree(cache, ignore_errors=True)


def test_an_interrupted_builds_leftovers_are_listed_and_pruned(tmp_path):
    """What `build NAME@VERSION` leaves when interrupted (resolve.build: `<place>.new` and
    `<place>.log` beside the place it never reached; OpenSSL's `<version>.new` prefix and source tree):
    `build --list` shows them with their size, `build --prune` removes them."""
    import fcntl

    env = {**os.environ, "CRYPTOBENCH_CACHE": str(tmp_path)}
    place = tmp_path / "versions" / "python-cryptography" / "41.0.7+py3.11"
    stage = place.with_name(place.name + ".new")
    (stage / "venv/lib").mkdir(parents=True)
    (stage / "venv/lib/big").write_bytes(b"x" * 3_000_000)
    place.with_name(place.name + ".log").write_text("Collecting cryptography==41.0.7\n")
    (tmp_path / "openssl-src/300.6.1+3.6.3/build").mkdir(parents=True)
    (tmp_path / "openssl-src/300.6.1+3.6.3/build/libcrypto.a").write_bytes(b"y" * 1000)
    busy = tmp_path / "versions" / "rust-ring" / "0.17.8+rustc1.80.new"  # a build under way now
    busy.mkdir(parents=True)
    lock = open(busy.parent / ".lock-0.17.8+rustc1.80", "w")  # noqa: SIM115
    fcntl.flock(lock, fcntl.LOCK_EX)
    listed = run_cli("build", "--list", env=env)
    assert listed.returncode == 0, listed.stderr
    line = next(x for x in listed.stdout.splitlines() if "python-cryptography 41.0.7" in x)
    assert "incomplete build, from an interrupted `build`" in line and "2.9 MiB" in line, listed.stdout
    assert "c-openssl 3.6.3: incomplete build" in listed.stdout
    assert "rust-ring 0.17.8: being built now" in listed.stdout
    pruned = run_cli("build", "--prune", env=env)
    assert pruned.returncode == 0 and "kept rust-ring 0.17.8: being built now" in pruned.stdout, pruned.stdout
    assert not stage.exists() and not place.with_name(place.name + ".log").exists()
    assert not (tmp_path / "openssl-src/300.6.1+3.6.3/build").exists() and busy.exists()
    lock.close()
    assert "being built now" not in run_cli("build", "--list", env=env).stdout  # its builder is gone: left over
