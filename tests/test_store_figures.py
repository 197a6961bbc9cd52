"""A cell's figures on their way into a store: a lying driver, a crafted result file or a spool the
database refuses costs its own cell or record, never the rest of the run (issue 29, "Data")."""

import json
import os
import socket
import sqlite3
import uuid
from dataclasses import asdict
from pathlib import Path

import pytest
from conftest import run_cli, write_providers_file

from cryptobench.store import CellRecord, RunRecord, SpoolingStore, open_store
from cryptobench.store.spool import PROVISIONAL_RUN_ID, SPOOL_VERSION, find_spools, spool_dirs

CHECKSUM = f"{32:08x}:{0x1234:016x}"  # 32 bytes: a sha256 output


def _strict(text: str):
    """JSON as any other parser reads it: NaN and Infinity are not JSON."""

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def _runs(url: str) -> list[dict]:
    return open_store(url, import_waiting=False).list_runs()


# --- 1. a batch above 2^31 ------------------------------------------------------------------


def test_a_batch_above_2_31_from_a_lying_driver_keeps_no_cell_out_of_postgresql(pg_url, providers_file, sha_suite):
    # test:implausible-fast claims believable 5 ms samples of a batch of 1e15 bytes: 4.9e9 operations
    # at 1 KiB, beyond a 32-bit column and within the protocol's 2^40
    # unpaired: the batch is the driver's own, not the 1 ms share a paired cell asks of it
    r = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider",
                "test:good,test:implausible-fast", "--db", pg_url, "--time-per-cell", "0.05", "--passes", "1",
                "--quiet", "--no-pairing")  # fmt: skip
    assert "Traceback" not in r.stderr and "keeping this run's cells" not in r.stderr, r.stderr
    [listed] = _runs(pg_url)
    run, _, cells = open_store(pg_url).load_run(listed["id"])
    assert run.status == "complete" and len(cells) == 4, [(c.provider, c.size, c.status) for c in cells]
    liar = {c.size: c for c in cells if c.provider == "test:implausible-fast"}
    assert liar[1024].batch == int(1e15 * 0.005 / 1024) > 1 << 31  # kept as the driver said it...
    assert liar[1024].status == "failed" and "implausible" in liar[1024].reason  # ...and refused
    assert [c.status for c in cells if c.provider == "test:good"] == ["ok", "ok"]


# --- 1. a spool the database can never take --------------------------------------------------


def _spool(store, cells: list[CellRecord], extra_records: list[dict] = ()) -> Path:
    """A spool as SpoolingStore writes it when the run's very first write failed."""
    run = RunRecord(None, "2026-01-01T00:00:00+00:00", "s", {}, {"machine_label": "m"}, uid=uuid.uuid4().hex)
    records = [{"spool": SPOOL_VERSION, "id": uuid.uuid4().hex, "db": store.spool_key},
               {"op": "create_run", "run": asdict(run), "run_id": PROVISIONAL_RUN_ID}]  # fmt: skip
    records += [{"op": "add_cell", "run_id": PROVISIONAL_RUN_ID, "cell": asdict(c)} for c in cells]
    records += list(extra_records)
    records.append({"op": "finish_run", "run_id": PROVISIONAL_RUN_ID, "status": "complete",
                    "finished": "2026-01-01T00:01:00+00:00", "env": {}})  # fmt: skip
    where = spool_dirs(store)[0]
    where.mkdir(parents=True, exist_ok=True)
    path = where / f".{store.spool_name}.spool-{records[0]['id']}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _cell(size: int, reason: str = "", status: str = "ok", batch: int = 10) -> CellRecord:
    return CellRecord("p", "sha256", "hash", size, 0, status, reason, batch=batch, samples_ns=[1000, 1001],
                      checksum=CHECKSUM)  # fmt: skip


def test_a_spool_with_a_record_postgresql_refuses_lands_without_it_and_says_where_it_is(pg_url, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # here and in the command: its spools
    store = open_store(pg_url, import_waiting=False)
    # a driver's message with a NUL byte: PostgreSQL text can never hold it; and a batch of 2^35,
    # which a 32-bit column could not
    path = _spool(store, [_cell(64), _cell(128, "failed: driver said a\x00b", "failed"), _cell(256, batch=1 << 35)])
    r = run_cli("runs", "--db", pg_url)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    said = [line for line in r.stderr.splitlines() if "can never take" in line]
    assert len(said) == 1 and "cell p sha256 hash 128 B" in said[0] and "NUL" in said[0], r.stderr
    aside = Path(said[0].rsplit("kept in ", 1)[1])
    kept = [json.loads(line) for line in aside.read_text().splitlines()]
    assert [k["cell"]["size"] for k in kept[1:]] == [128] and "NUL" in kept[1]["refused"]
    assert not path.exists() and not find_spools(store)  # nothing waits for ever
    [listed] = _runs(pg_url)
    run, _, cells = open_store(pg_url).load_run(listed["id"])
    assert run.status == "complete" and [(c.size, c.batch) for c in cells] == [(64, 10), (256, 1 << 35)]


def test_a_run_postgresql_refuses_itself_is_kept_aside_whole_and_its_last_line_says_so(pg_url, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    said = []
    store = SpoolingStore(open_store(pg_url), said.append)
    run_id = store.create_run(RunRecord(None, "2026-01-01T00:00:00+00:00", "s", {}, {}, label="lab\x00el"))
    store.add_cell(run_id, _cell(64))
    store.finish_run(run_id, "complete", "2026-01-01T00:01:00+00:00")
    [line] = [x for x in said if "can never be written" in x]
    aside = Path(line.rsplit("kept in ", 1)[1])
    assert "the run itself is refused" in line and len(aside.read_text().splitlines()) == 4  # header and 3 records
    assert not find_spools(store.store) and _runs(pg_url) == []
    assert store.stored_line(run_id).startswith("run not stored in") and "can never take it" in store.stored_line(
        run_id
    )


def test_a_damaged_spool_record_is_kept_aside_and_the_rest_lands(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    db = tmp_path / "s.db"
    store = open_store(str(db))
    bad = {"op": "add_cell", "run_id": PROVISIONAL_RUN_ID, "cell": {**asdict(_cell(512)), "edited": "by hand"}}
    path = _spool(store, [_cell(64)], [bad])
    said = []
    from cryptobench.store.spool import import_spools

    assert import_spools(store, said.append) == [1]
    assert not path.exists() and any("cell p sha256 hash 512 B" in s and "damaged record" in s for s in said), said
    assert [c.size for c in store.load_run(1)[2]] == [64]


# --- 1. push goes on past a run the destination refuses --------------------------------------


def test_push_goes_on_past_a_run_the_destination_can_never_take(tmp_path, pg_url):
    src = tmp_path / "local.db"
    store = open_store(str(src))
    uids = []
    for i, cell in enumerate([_cell(64, batch=1 << 35), _cell(64, "failed: a\x00b", "failed"), _cell(64)]):
        rid = store.create_run(RunRecord(None, f"2026-01-0{i + 1}T00:00:00+00:00", "s", {}, {}))
        store.add_cell(rid, cell)
        store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00")
        uids.append(store.load_run(rid)[0].uid)
    store.close()
    r = run_cli("push", "--db", src, "--to", pg_url)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].endswith("2 runs (2 cells) copied to " + open_store(pg_url).url
                                                      + "; 1 could not be copied")  # fmt: skip
    [line] = [x for x in r.stderr.splitlines() if "not copied" in x]
    assert f"run 2 ({uids[1]})" in line and "NUL" in line, r.stderr
    assert sorted(x["uid"] for x in _runs(pg_url)) == sorted([uids[0], uids[2]])
    first = open_store(pg_url).load_run(open_store(pg_url).resolve_run(uids[0]))[2]
    assert first[0].batch == 1 << 35


# --- 2. import applies the runner's checks ---------------------------------------------------


@pytest.fixture(scope="module")
def result_file(tmp_path_factory):
    """A real run's result file: test:good, sha256 at six sizes (measured.db beside it; run once for the
    module: the tests only read both)."""
    tmp_path = tmp_path_factory.mktemp("result_file")
    providers_file = write_providers_file(tmp_path)
    suite = tmp_path / "six.toml"
    suite.write_text('name = "six"\nbaseline = "test:good"\nsizes = ["64", "128", "256", "512", "1KiB", "2KiB"]\n'
                     'time_per_cell = 0.05\n[[group]]\nalgs = ["sha256"]\n')  # fmt: skip
    db = tmp_path / "measured.db"
    r = run_cli("run", "--suite", suite, "--providers-file", providers_file, "--provider", "test:good", "--db", db,
                "--passes", "1", "--quiet")  # fmt: skip
    assert r.returncode == 0, r.stderr
    path = tmp_path / "run.json"
    path.write_text(run_cli("show", "latest", "--db", db, "--format", "json").stdout)
    return path


def test_imported_cells_pass_the_runners_checks_or_are_stored_failed(tmp_path, result_file):
    doc = json.loads(result_file.read_text())
    assert [c["status"] for c in doc["cells"]] == ["ok"] * 6
    lies = ["[NaN, 5000000]", "[Infinity, 5000000]", "[-5, 5000000]", "[0, 5000000]"]  # stored `ok` before
    for i, _lie in enumerate(lies):
        doc["cells"][i]["samples_ns"] = f"@@{i}@@"
    doc["cells"][4]["batch"] = "@@batch@@"  # ended in "internal error: OverflowError" (exit 70)
    text = json.dumps(doc).replace('"@@batch@@"', "NaN")
    for i, lie in enumerate(lies):
        text = text.replace(f'"@@{i}@@"', lie)
    crafted = tmp_path / "crafted.json"
    crafted.write_text(text)
    dst = tmp_path / "dst.db"
    r = run_cli("import", crafted, "--db", dst)
    assert r.returncode == 0 and "1 run (6 cells) copied" in r.stdout, r.stdout + r.stderr
    store = open_store(str(dst))
    stored = store.load_run(1)[2]
    assert [c.status for c in stored] == ["failed"] * 5 + ["ok"]
    assert all("protocol:" in c.reason for c in stored[:5]), [c.reason for c in stored]
    assert "bad batch nan" in stored[4].reason
    out = run_cli("show", "latest", "--db", dst, "--format", "json")
    assert out.returncode == 0 and _strict(out.stdout)["cells"][5]["status"] == "ok"
    shown = run_cli("show", "latest", "--db", dst)
    assert shown.returncode in (0, 1) and "Traceback" not in shown.stderr


def test_a_figure_no_column_can_hold_fails_its_cell_not_the_import(tmp_path, result_file):
    doc = json.loads(result_file.read_text())
    doc["cells"][1]["peak_rss_kb"] = 1 << 70  # SQLite: "Python int too large", an internal error (exit 70)
    crafted = tmp_path / "crafted.json"
    crafted.write_text(json.dumps(doc))
    r = run_cli("import", crafted, "--db", tmp_path / "dst.db")
    assert r.returncode == 0 and "1 run (6 cells) copied" in r.stdout, r.stderr
    stored = open_store(str(tmp_path / "dst.db")).load_run(1)[2]
    assert [c.status for c in stored] == ["ok", "failed"] + ["ok"] * 4
    assert "peak resident set of 1180591620717411303424 KiB" in stored[1].reason and stored[1].peak_rss_kb == 0


def test_an_infinite_size_refuses_the_file_in_one_line(tmp_path, result_file):
    doc = json.loads(result_file.read_text())
    doc["cells"][2]["size"] = "@@"
    crafted = tmp_path / "crafted.json"
    crafted.write_text(json.dumps(doc).replace('"@@"', "Infinity"))
    r = run_cli("import", crafted, "--db", tmp_path / "dst.db")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "cell 3" in lines[0] and "size inf" in lines[0], r.stderr
    assert _runs(str(tmp_path / "dst.db")) == []


def test_show_json_is_json_even_for_a_nan_stored_before_imports_were_checked(tmp_path, result_file):
    db = tmp_path / "old.db"
    assert run_cli("import", result_file, "--db", db).returncode == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE cells SET samples_ns = '[NaN, 1000]' WHERE id = 1")  # as an unchecked import left it
    con.commit()
    r = run_cli("show", "latest", "--db", db, "--format", "json")
    assert r.returncode == 0 and _strict(r.stdout)["cells"][0]["samples_ns"] == [None, 1000], r.stderr


# --- 3. a uid already there with other content -----------------------------------------------


def test_importing_a_run_whose_uid_holds_other_content_says_so(tmp_path, result_file):
    db = tmp_path / "dst.db"
    assert run_cli("import", result_file, "--db", db).returncode == 0
    doc = json.loads(result_file.read_text())
    doc["cells"].reverse()  # the same content, its cells listed in another order: silent
    (tmp_path / "same.json").write_text(json.dumps(doc))
    for same in (result_file, tmp_path / "same.json", result_file.parent / "measured.db"):
        r = run_cli("import", same, "--db", db)
        assert r.returncode == 0 and "1 already there" in r.stdout and r.stderr == "", r.stderr
    doc = json.loads(result_file.read_text())
    doc["cells"][0]["samples_ns"] = [x * 2 for x in doc["cells"][0]["samples_ns"]]
    other = tmp_path / "other.json"
    other.write_text(json.dumps(doc))
    r = run_cli("import", other, "--db", db)
    assert r.returncode == 0 and "1 already there" in r.stdout
    assert r.stderr.strip() == f"cryptobench: run {doc['run']['uid']} exists with other content; kept the stored copy"
    assert (
        open_store(str(db)).load_run(1)[2][0].samples_ns
        == json.loads(result_file.read_text())["cells"][0]["samples_ns"]
    )


# --- 4. --db that is no file ------------------------------------------------------------------


def test_a_fifo_a_socket_or_a_device_as_db_is_named_in_one_line(tmp_path):
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    sock_path = tmp_path / "s.db"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        for path, kind in ((fifo, "a FIFO"), (sock_path, "a socket"), ("/dev/null", "a character device")):
            r = run_cli("runs", "--db", path, timeout=30)
            lines = r.stderr.strip().splitlines()
            assert r.returncode == 2 and len(lines) == 1 and f"it is {kind}" in lines[0], r.stderr
        fifo_json = tmp_path / "fifo.json"
        os.mkfifo(fifo_json)
        r = run_cli("import", fifo_json, "--db", tmp_path / "x.db", timeout=30)  # read, it would wait for ever
        assert r.returncode == 2 and "it is a FIFO" in r.stderr, r.stderr
    finally:
        sock.close()
