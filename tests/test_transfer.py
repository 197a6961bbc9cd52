"""push and import: runs move whole between stores, exactly once (on both backends)."""

import hashlib
import json
import shutil
import threading
from pathlib import Path

import pytest
from conftest import run_cli

from cryptobench.core.errors import UserError
from cryptobench.store import CellRecord, RunRecord, open_store
from cryptobench.store.transfer import Outcome, copy_into, from_result_file, from_store

RELEASE_0_1_DB = Path(__file__).parent / "fixtures" / "store-schema1.db"


def _filled(path: Path, runs: int = 2, cells: int = 5, machine: str = "box-a") -> Path:
    store = open_store(str(path))
    for i in range(runs):
        rid = store.create_run(RunRecord(None, f"2026-01-0{i + 1}T00:00:00+00:00", "s", {"noise": 0.02},
                                         {"machine_label": machine, "machine_id": "11"}))  # fmt: skip
        store.add_provider(rid, "c:openssl", {"library_version": "3"})
        for j in range(cells):
            store.add_cell(rid, CellRecord("c:openssl", "sha256", "hash", 64 * (j + 1), 0, "ok", batch=10,
                                           samples_ns=[1000 + j, 1001 + j], rounds=1))  # fmt: skip
        store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00")
    store.close()
    return path


def _contents(url: str) -> list[tuple]:
    store = open_store(url)
    out = []
    for r in store.list_runs():
        run, _, cells = store.load_run(r["id"])
        out.append((run.uid, run.status, run.env.get("machine_label"), [(c.size, c.samples_ns) for c in cells]))
    return sorted(out)


def test_push_copies_runs_whole_and_twice_adds_nothing(tmp_path, store_url):
    src = _filled(tmp_path / "local.db")
    r = run_cli("push", "--db", src, "--to", store_url)
    assert r.returncode == 0 and "2 runs (10 cells) copied" in r.stdout, r.stderr
    r = run_cli("push", "--db", src, "--to", store_url)
    assert r.returncode == 0 and "0 runs (0 cells) copied" in r.stdout and "2 already there" in r.stdout
    assert _contents(store_url) == _contents(str(src))
    listed = json.loads(run_cli("runs", "--db", store_url, "--json", "--machine", "box-a").stdout)
    assert sorted(r["uid"] for r in listed) == sorted(u for u, *_ in _contents(str(src)))
    assert json.loads(run_cli("runs", "--db", store_url, "--json", "--machine", "nope").stdout) == []


def test_import_a_release_0_1_store_and_a_result_file(tmp_path, store_url):
    old = tmp_path / "old.db"
    shutil.copy(RELEASE_0_1_DB, old)
    r = run_cli("import", old, "--db", store_url)
    assert r.returncode == 0 and "1 run (12 cells) copied" in r.stdout, r.stderr
    # the same run as a result file (written by `show --format json`): already there
    r = run_cli("show", "latest", "--db", old, "--format", "json")
    (tmp_path / "r.json").write_text(r.stdout)
    r = run_cli("import", tmp_path / "r.json", "--db", store_url)
    assert r.returncode == 0 and "1 already there" in r.stdout, r.stdout + r.stderr
    # into an empty store, the file alone restores the run: cells, raw samples, verification, providers
    fresh = tmp_path / "fresh.db"
    assert run_cli("import", tmp_path / "r.json", "--db", fresh).returncode == 0
    a, b = open_store(str(old)), open_store(str(fresh))
    (ra, va, ca), (rb, vb, cb) = a.load_run(1), b.load_run(1)
    assert (ra.uid, ra.providers, va, ca) == (rb.uid, rb.providers, vb, cb)
    assert ra.env == rb.env and ra.settings == rb.settings


def test_a_result_file_without_uid_imports_once(tmp_path):
    src = _filled(tmp_path / "a.db", runs=1)
    doc = json.loads(run_cli("show", "latest", "--db", src, "--format", "json").stdout)
    del doc["run"]["uid"]  # as result schema 5 wrote it
    (tmp_path / "v5.json").write_text(json.dumps(doc))
    dst = open_store(str(tmp_path / "dst.db"))
    first, second = Outcome(), Outcome()
    copy_into(dst, from_result_file(tmp_path / "v5.json"), first)
    copy_into(dst, from_result_file(tmp_path / "v5.json"), second)
    assert (len(first.copied), len(second.copied), len(second.present)) == (1, 0, 1)


@pytest.mark.parametrize(
    "content, why",
    [
        ("{not json", "not JSON"),
        ('{"schema": "something-else"}', "not a cryptobench result file"),
        ('{"schema": "cryptobench-result", "run": {"suite": "s"}}', "damaged or incomplete"),
        ('{"schema": "cryptobench-result", "run": {"started": "t", "suite": "s"}, "cells": [{"op": 1}]}', "damaged"),
    ],
)
def test_a_corrupted_import_file_is_one_line_and_adds_nothing(tmp_path, content, why):
    dst = _filled(tmp_path / "dst.db", runs=1)
    (tmp_path / "bad.json").write_text(content)
    r = run_cli("import", tmp_path / "bad.json", "--db", dst)
    assert r.returncode == 2 and why in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr and len(open_store(str(dst)).list_runs()) == 1


def test_a_truncated_result_file_keeps_what_landed_before_it(tmp_path):
    src = _filled(tmp_path / "a.db", runs=1)
    good = tmp_path / "good.json"
    good.write_text(run_cli("show", "latest", "--db", src, "--format", "json").stdout)
    (tmp_path / "cut.json").write_text(good.read_text()[:300])
    dst = tmp_path / "dst.db"
    r = run_cli("import", good, tmp_path / "cut.json", "--db", dst)
    assert r.returncode == 2 and "1 run (5 cells) copied" in r.stdout and "not JSON" in r.stderr
    assert len(open_store(str(dst)).list_runs()) == 1


def test_two_writers_pushing_the_same_runs_at_once_store_each_once(tmp_path, pg_url):
    src = _filled(tmp_path / "a.db", runs=6, cells=20)
    errors, outcomes = [], []

    def push():
        try:
            s, d, o = open_store(str(src)), open_store(pg_url), Outcome()
            for rid in s.run_ids():
                copy_into(d, from_store(s, rid), o)
            outcomes.append(o)
        except Exception as e:  # noqa: BLE001 - the test reports any
            errors.append(e)

    threads = [threading.Thread(target=push) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sum(len(o.copied) for o in outcomes) == 6 and sum(len(o.present) for o in outcomes) == 18
    assert len(_contents(pg_url)) == 6 and _contents(pg_url) == _contents(str(src))


def test_push_to_an_unreachable_store_is_one_line(tmp_path):
    src = _filled(tmp_path / "a.db", runs=1)
    r = run_cli("push", "--db", src, "--to", "postgresql://u:pw@127.0.0.1:9/x")
    assert r.returncode == 2 and "cannot open database" in r.stderr and ":pw@" not in r.stderr, r.stderr
    with pytest.raises(UserError):
        open_store("postgresql://u:pw@127.0.0.1:9/x")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_store_copied_from_is_never_written(tmp_path, store_url):
    """import and push read their source: a 0.1 file (the fixture in git) is not migrated in place,
    importing it twice still adds it once, and a read-only source is read."""
    before = _sha256(RELEASE_0_1_DB)
    for _ in range(2):
        r = run_cli("import", RELEASE_0_1_DB, "--db", store_url)
        assert r.returncode == 0, r.stderr
    assert "1 already there" in r.stdout and len(open_store(store_url).run_ids()) == 1, r.stdout
    assert _sha256(RELEASE_0_1_DB) == before
    lent = tmp_path / "lent"
    lent.mkdir()
    src = lent / "src.db"
    shutil.copy(RELEASE_0_1_DB, src)
    src.chmod(0o444)
    r = run_cli("push", "--db", src, "--to", tmp_path / "dst.db")
    assert r.returncode == 0 and "1 run (12 cells) copied" in r.stdout, r.stderr
    assert _sha256(src) == before and [p.name for p in lent.iterdir()] == ["src.db"]  # no journal, no spool
    r = run_cli("import", tmp_path / "missing.db", "--db", store_url)
    assert r.returncode == 2 and "no such file" in r.stderr and not (tmp_path / "missing.db").exists(), r.stderr
