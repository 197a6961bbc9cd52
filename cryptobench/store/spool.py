"""A run's cells are never lost to the database: when it cannot be written, they go to a spool file.

A run writes through `SpoolingStore`. While the database takes writes, that is all it does. When a
write fails (a read-only file, a full disk, a lock held longer than CRYPTOBENCH_DB_LOCK_TIMEOUT),
it says so in one line and appends that write and every later write of the run to a spool file
(JSON lines), next to the database if that directory takes it, else under
~/.cache/cryptobench/spool/. The run's report is still printed, from what the run wrote.

The next cryptobench command that opens the database imports every spool waiting for it, in one
transaction each, and removes it (`import_spools`). A spool carries a unique id, recorded in the
database with the import, so importing one twice adds nothing. A spool still being written (its
run is going on) is locked and left alone; one whose run died unfinished is imported
`interrupted`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import sys
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from cryptobench.core.errors import StoreError
from cryptobench.store.model import CellRecord, RecordRefused, RunRecord, VerifyRecord, phases_out_of_env
from cryptobench.verify.cross_checks import CrossRecord

SPOOL_VERSION = 1
PROVISIONAL_RUN_ID = 0  # a run whose very first write failed: it gets its id when it is imported


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def spool_dirs(store) -> list[Path]:
    """Where a store's spools may be: beside its file (SQLite), or in the cache (a full or read-only
    disk; a PostgreSQL store, keyed by its URL without the password). `store`: a store or a path."""
    path = store if isinstance(store, Path) else store.path
    key = str(path.resolve()) if path is not None else store.spool_key
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cryptobench" / "spool"
    beside = [path.resolve().parent] if path is not None else []
    return [*beside, cache / hashlib.sha256(key.encode()).hexdigest()[:16]]


def find_spools(store) -> list[Path]:
    name = store.resolve().name if isinstance(store, Path) else store.spool_name
    found = []
    for d in spool_dirs(store):
        found += sorted(d.glob(f".{name}.spool-*.jsonl")) if d.is_dir() else []
    return found


class SpoolFile:
    """Records appended as JSON lines and synced; moves to the next directory when one refuses."""

    def __init__(self, store, say: Callable[[str], None]):
        self.name, self.say = store.spool_name, say
        self.id = uuid.uuid4().hex
        self.records: list[dict] = [{"spool": SPOOL_VERSION, "id": self.id, "db": store.spool_key}]
        self.path: Path | None = None
        self._file = None
        self._dirs = spool_dirs(store)
        self._open_next(OSError("no spool yet"))

    def _open_next(self, why: OSError) -> None:
        self.close()
        while self._dirs:
            d = self._dirs.pop(0)
            path = d / f".{self.name}.spool-{self.id}.jsonl"
            try:
                d.mkdir(parents=True, exist_ok=True)
                f = open(path, "w", encoding="utf-8")  # noqa: SIM115 - held open (and locked) for the run
                fcntl.flock(f, fcntl.LOCK_EX)  # an import in another process leaves a live spool alone
                for r in self.records:
                    f.write(json.dumps(r) + "\n")
                f.flush()
                os.fsync(f.fileno())
            except OSError as e:
                why = e
                with contextlib.suppress(OSError, UnboundLocalError):
                    f.close()
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            self.path, self._file = path, f
            return
        self.say(f"cryptobench: cannot keep this run's cells on disk anywhere ({why.strerror or why}); "
                 "they are in the report below only")  # fmt: skip

    def append(self, record: dict) -> None:
        self.records.append(record)
        if self._file is None:
            return
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as e:
            self._open_next(e)

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()  # closing releases the lock
            self._file = None


def _as_dict(record) -> dict:
    return dataclasses.asdict(record)


class SpoolingStore:
    """The store a run writes through (see the module docstring): a RunSink (store/sink.py), and the
    RunSource its report is read from; reads of the run being written come from what it wrote when
    the database did not take it. Nothing else is forwarded: other reads go to the store itself."""

    def __init__(self, store, say: Callable[[str], None] = _say):
        self.store, self.say = store, say
        self.spool: SpoolFile | None = None
        self._written: dict[int, list[dict]] = {}  # run id -> every write of the run, for its report
        self._lock = threading.RLock()  # verification writes from several threads: one spool, in order

    @property
    def url(self) -> str:
        return self.store.url

    def check_writable(self) -> None:
        """Before a run measures anything (sql.py's check_writable): a database that cannot take it is
        said at once; the run may still go on into a spool."""
        self.store.check_writable()

    # --- writes --------------------------------------------------------------

    def _write(self, record: dict, write: Callable[[], object]):
        with self._lock:
            return self._write_one(record, write)

    def _write_one(self, record: dict, write: Callable[[], object]):
        run_id = record.get("run_id")
        self._written.setdefault(run_id, []).append(record)
        if self.spool is None:
            try:
                return write()
            except StoreError as e:
                self.spool = SpoolFile(self.store, self.say)
                where = self.spool.path or "memory"
                self.say(f"cryptobench: {e}; keeping this run's cells in {where}, imported by the next "
                         f"cryptobench command that opens {self.store.url}")  # fmt: skip
        self.spool.append(record)
        return None

    def create_run(self, run: RunRecord) -> int:
        run.uid = run.uid or uuid.uuid4().hex  # before the spool records it: an import lands it once
        run_id = self._write({"op": "create_run", "run": _as_dict(run)}, lambda: self.store.create_run(run))
        if run_id is None:
            run.id = run_id = PROVISIONAL_RUN_ID
        self._written[run_id] = self._written.pop(None)
        for r in self._written[run_id]:
            r["run_id"] = run_id
        return run_id

    def add_provider(self, run_id: int, provider: str, hello: dict) -> None:
        rec = {"op": "add_provider", "run_id": run_id, "provider": provider, "hello": hello}
        self._write(rec, lambda: self.store.add_provider(run_id, provider, hello))

    def add_verification(self, run_id: int, v: VerifyRecord) -> None:
        rec = {"op": "add_verification", "run_id": run_id, "verification": _as_dict(v)}
        self._write(rec, lambda: self.store.add_verification(run_id, v))

    def add_cell(self, run_id: int, c: CellRecord) -> None:
        self._write({"op": "add_cell", "run_id": run_id, "cell": _as_dict(c)}, lambda: self.store.add_cell(run_id, c))

    def add_crosschecks(self, run_id: int, records: list) -> None:
        rec = {"op": "add_crosschecks", "run_id": run_id, "records": [_as_dict(r) for r in records]}
        self._write(rec, lambda: self.store.add_crosschecks(run_id, records))

    def add_scaling(self, run_id: int, records: list[dict]) -> None:
        rec = {"op": "add_scaling", "run_id": run_id, "records": list(records)}
        self._write(rec, lambda: self.store.add_scaling(run_id, records))

    def add_leak(self, run_id: int, records: list[dict]) -> None:
        rec = {"op": "add_leak", "run_id": run_id, "records": list(records)}
        self._write(rec, lambda: self.store.add_leak(run_id, records))

    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        rec = {"op": "finish_run", "run_id": run_id, "status": status, "finished": finished, "env": env_update or {}}
        self._write(rec, lambda: self.store.finish_run(run_id, status, finished, env_update))
        if self.spool is not None and self.spool.path is not None:  # the database may take it now: try once
            self.spool.close()
            imported = import_spools(self.store, self.say, only=self.spool.path, quiet=True)
            if imported:
                self.say(f"cryptobench: the database took the run after all: run {imported[0]} is in {self.store.url}")
                self._written[imported[0]] = self._written.get(run_id, [])
                self.imported_as = imported[0]

    # --- reads of the run being written --------------------------------------

    def load_run(self, run_id: int):
        if self.spool is None or getattr(self, "imported_as", None) == run_id:
            return self.store.load_run(run_id)
        return replay_run(self._written.get(run_id, []))

    def load_crosschecks(self, run_id: int) -> list:
        if self.spool is None or getattr(self, "imported_as", None) == run_id:
            return self.store.load_crosschecks(run_id)
        return [CrossRecord(**r) for rec in self._written.get(run_id, []) if rec["op"] == "add_crosschecks"
                for r in rec["records"]]  # fmt: skip

    def load_references(self) -> list:
        try:
            return self.store.load_references()
        except StoreError:
            return []

    def stored_line(self, run_id: int) -> str:
        """The run's last line: where it is kept."""
        if self.spool is None:
            return f"run {run_id} stored in {self.store.url}"
        if getattr(self, "imported_as", None) is not None:
            return f"run {self.imported_as} stored in {self.store.url}"
        if self.spool.path is None:
            return "run not stored: no disk would take it (the report above is all there is)"
        if not self.spool.path.exists():  # the database refused the run itself: its records were put aside
            return f"run not stored in {self.store.url}: it can never take it (the line above says where it is kept)"
        return f"run not yet in {self.store.url}: kept in {self.spool.path} until the database takes it"


def replay_run(records: list[dict]) -> tuple[RunRecord, list[VerifyRecord], list[CellRecord]]:
    """A run as load_run returns it, from its writes."""
    run, verifs, cells = None, [], []
    for r in records:
        if r["op"] == "create_run":
            run = RunRecord(**r["run"])
        elif r["op"] == "add_provider" and run is not None:
            run.providers[r["provider"]] = r["hello"]
        elif r["op"] == "add_verification":
            verifs.append(VerifyRecord(**r["verification"]))
        elif r["op"] == "add_cell":
            cells.append(CellRecord(**r["cell"]))
        elif r["op"] in ("add_scaling", "add_leak") and run is not None:
            getattr(run, r["op"].removeprefix("add_")).extend(r["records"])
        elif r["op"] == "finish_run" and run is not None:
            run.status, run.finished = r["status"], r["finished"]
            env, phases = phases_out_of_env(r["env"])  # an older writer's (sql.py's finish_run does the same)
            run.env = {**run.env, **env}
            for phase, records in phases.items():
                getattr(run, phase).extend(records)
    if run is None:
        raise StoreError("the run's first record is missing from its spool")
    return run, sorted(verifs, key=lambda v: (v.provider, v.alg)), cells


# --- import -----------------------------------------------------------------


def _read_spool(path: Path) -> list[dict] | None:
    """The spool's records, or None while another process is still writing it (it holds the lock)."""
    try:
        f = open(path, encoding="utf-8")  # noqa: SIM115
    except OSError:
        return None
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return None
        records = []
        for line in f:
            try:
                records.append(json.loads(line))
            except ValueError:
                break  # the last line of a run that died mid-write
        return records


class _Refused(Exception):
    """Record `index` of a spool can never be written: the database refuses it, or it is damaged."""

    def __init__(self, index: int, why: str):
        super().__init__(why)
        self.index, self.why = index, why


def import_spools(store, say: Callable[[str], None] = _say, only: Path | None = None, quiet: bool = False) -> list[int]:
    """Import every spool waiting for `store`'s database; the ids of the runs imported. A record the
    database can never take is left out and kept in a file beside the spool, and the rest lands;
    that is said in one line even when `quiet` (which hushes the routine lines)."""
    imported = []
    tell = (lambda _m: None) if quiet else say
    for path in [only] if only else find_spools(store):
        records = _read_spool(path)
        if not records or records[0].get("spool") != SPOOL_VERSION or not records[0].get("id"):
            continue
        refused: dict[int, str] = {}  # record index -> why the database will never take it
        aside = path.with_name(f"{store.spool_name}.refused-{records[0].get('id')}.jsonl")
        outcome: tuple[int | None, int] | None = None  # (run id, cells) once the spool is in
        while outcome is None:
            try:
                outcome = _import(store, records, refused)
            except _Refused as e:
                refused[e.index] = e.why
                if records[e.index].get("op") == "create_run":  # without its run, none of it can land
                    refused.update({i: "its run was refused" for i in range(1, len(records)) if i not in refused})
                if not _put_aside(aside, records, refused, say):  # before anything is committed: never lost
                    break
                if len(refused) == len(records) - 1:
                    outcome = (None, 0)  # nothing left that the database would take
            except StoreError as e:
                tell(f"cryptobench: a run waits in {path}: it is imported when {store.url} can be written ({e})")
                break
        if outcome is None:
            continue  # the spool stays for the next command
        run_id, cells = outcome
        with contextlib.suppress(OSError):
            path.unlink()
        if refused:
            say(_refused_line(records, refused, run_id, store.url, aside))
        if run_id is not None:
            imported.append(run_id)
            tell(f"cryptobench: imported run {run_id} ({cells} cells), kept in {path} while {store.url} "
                 "could not be written")  # fmt: skip
    return imported


def _what(record: dict) -> str:
    """A spool record, named for a person: which cell, verification, provider."""
    op = record.get("op")
    c = record.get("cell") if isinstance(record.get("cell"), dict) else {}
    v = record.get("verification") if isinstance(record.get("verification"), dict) else {}
    names = {
        "add_cell": f"cell {c.get('provider')} {c.get('alg')} {c.get('op')} {c.get('size')} B",
        "add_verification": f"verification of {v.get('provider')} {v.get('alg')}",
        "add_provider": f"provider {record.get('provider')}",
        "add_crosschecks": "its cross-checks",
        "add_scaling": "its multi-core scaling",
        "add_leak": "its leak checks",
        "finish_run": "its end",
        "create_run": "the run itself",
    }
    return names.get(op, f"a record {str(op)[:40]!r}")


def _refused_line(records: list[dict], refused: dict[int, str], run_id: int | None, url: str, aside: Path) -> str:
    first = min(refused)
    more = f" and {len(refused) - 1} more" if len(refused) > 1 else ""
    if run_id is None:
        uid = next((r["run"].get("uid") for r in records[1:] if r.get("op") == "create_run"), None)
        return (f"cryptobench: run {uid or '?'} can never be written to {url}: {_what(records[first])} is refused "
                f"({refused[first]}); all of it is kept in {aside}")  # fmt: skip
    return (f"cryptobench: run {run_id} is in {url} without {_what(records[first])}{more}, which it can never take "
            f"({refused[first]}); kept in {aside}")  # fmt: skip


def _put_aside(aside: Path, records: list[dict], refused: dict[int, str], say: Callable[[str], None]) -> bool:
    """The refused records, with why, in a file of their own (synced); False (said) if it cannot be."""
    lines = [records[0]] + [{**records[i], "refused": why} for i, why in sorted(refused.items())]
    try:
        with open(aside, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in lines)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        say(f"cryptobench: cannot keep the records {aside.parent} refuses aside in {aside} ({e.strerror}); "
            "the spool stays as it is")  # fmt: skip
        return False
    return True


def _import(store, records: list[dict], skip: dict[int, str]) -> tuple[int | None, int]:
    """Write the spool's records but those in `skip`, in one transaction; _Refused names a record
    the database can never take (everything is rolled back then)."""
    spool_id = records[0]["id"]
    key = f"spool:{spool_id}"
    if store.get_meta(key) is not None:
        return None, 0  # imported before; the file outlived its import
    ids: dict[int, int] = {}
    cells = 0
    finished = any(r.get("op") == "finish_run" for i, r in enumerate(records[1:], 1) if i not in skip)
    with store.transaction():
        for i, r in enumerate(records[1:], 1):
            if i in skip:
                continue
            try:
                cells += _replay(store, r, ids)
            except RecordRefused as e:
                raise _Refused(i, str(e)) from None
            except (KeyError, TypeError, ValueError, AttributeError) as e:  # a spool damaged by hand
                raise _Refused(i, f"damaged record ({type(e).__name__}: {e})") from None
        run_ids = {ids.get(r.get("run_id"), r.get("run_id")) for i, r in enumerate(records[1:], 1) if i not in skip}
        if not finished:  # its process died before the end: what it measured is kept, marked so
            now = datetime.now(UTC).isoformat(timespec="seconds")
            for run_id in run_ids:
                store.finish_run(run_id, "interrupted", now)
        store.set_meta(key, datetime.now(UTC).isoformat(timespec="seconds"))
    return (next(iter(run_ids)) if run_ids else None), cells


def _replay(store, r: dict, ids: dict[int, int]) -> int:
    """One spool record written to `store`; 1 for a cell, else 0."""
    op, old = r["op"], r.get("run_id")
    if op == "create_run":  # written before the run had an id: it is the provisional one
        ids[PROVISIONAL_RUN_ID] = store.create_run(RunRecord(**{**r["run"], "id": None}))
        return 0
    run_id = ids.get(old, old)
    if op == "add_provider":
        store.add_provider(run_id, r["provider"], r["hello"])
    elif op == "add_verification":
        store.add_verification(run_id, VerifyRecord(**r["verification"]))
    elif op == "add_cell":
        store.add_cell(run_id, CellRecord(**r["cell"]))
        return 1
    elif op == "add_crosschecks":
        store.add_crosschecks(run_id, [CrossRecord(**c) for c in r["records"]])
    elif op in ("add_scaling", "add_leak"):
        if not isinstance(r["records"], list) or not all(isinstance(x, dict) for x in r["records"]):
            raise ValueError(f"{op}'s records are not a list of objects")
        getattr(store, op)(run_id, r["records"])
    elif op == "finish_run":
        store.finish_run(run_id, r["status"], r["finished"], r["env"])
    return 0
