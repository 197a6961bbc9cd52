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
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from ..crosscheck import CrossRecord
from ..errors import StoreError
from .model import CellRecord, RunRecord, VerifyRecord

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
    """The store a run writes through (see the module docstring); reads go to the database, and for
    the run being written, to what it wrote."""

    def __init__(self, store, say: Callable[[str], None] = _say):
        self.store, self.say = store, say
        self.spool: SpoolFile | None = None
        self._written: dict[int, list[dict]] = {}  # run id -> every write of the run, for its report

    def __getattr__(self, name):  # everything else (list_runs, resolve_run, references...) as is
        return getattr(self.store, name)

    @property
    def url(self) -> str:
        return self.store.url

    # --- writes --------------------------------------------------------------

    def _write(self, record: dict, write: Callable[[], object]):
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

    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        rec = {"op": "finish_run", "run_id": run_id, "status": status, "finished": finished, "env": env_update or {}}
        self._write(rec, lambda: self.store.finish_run(run_id, status, finished, env_update))
        if self.spool is not None and self.spool.path is not None:  # the database may take it now: try once
            self.spool.close()
            imported = import_spools(self.store, lambda _m: None, only=self.spool.path)
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
        elif r["op"] == "finish_run" and run is not None:
            run.status, run.finished = r["status"], r["finished"]
            run.env = {**run.env, **r["env"]}
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


def import_spools(store, say: Callable[[str], None] = _say, only: Path | None = None) -> list[int]:
    """Import every spool waiting for `store`'s database; the ids of the runs imported."""
    imported = []
    for path in [only] if only else find_spools(store):
        records = _read_spool(path)
        if not records or records[0].get("spool") != SPOOL_VERSION:
            continue
        try:
            run_id, cells = _import(store, records)
        except StoreError as e:
            say(f"cryptobench: a run waits in {path}: it is imported when {store.url} can be written ({e})")
            continue
        with contextlib.suppress(OSError):
            path.unlink()
        if run_id is not None:
            imported.append(run_id)
            say(f"cryptobench: imported run {run_id} ({cells} cells), kept in {path} while {store.url} "
                "could not be written")  # fmt: skip
    return imported


def _import(store, records: list[dict]) -> tuple[int | None, int]:
    spool_id = records[0]["id"]
    key = f"spool:{spool_id}"
    if store.get_meta(key) is not None:
        return None, 0  # imported before; the file outlived its import
    ids: dict[int, int] = {}
    cells = 0
    finished = any(r.get("op") == "finish_run" for r in records[1:])
    with store.transaction():
        for r in records[1:]:
            op, old = r["op"], r.get("run_id")
            if op == "create_run":  # written before the run had an id: it is the provisional one
                ids[PROVISIONAL_RUN_ID] = store.create_run(RunRecord(**{**r["run"], "id": None}))
                continue
            run_id = ids.get(old, old)
            if op == "add_provider":
                store.add_provider(run_id, r["provider"], r["hello"])
            elif op == "add_verification":
                store.add_verification(run_id, VerifyRecord(**r["verification"]))
            elif op == "add_cell":
                store.add_cell(run_id, CellRecord(**r["cell"]))
                cells += 1
            elif op == "add_crosschecks":
                store.add_crosschecks(run_id, [CrossRecord(**c) for c in r["records"]])
            elif op == "finish_run":
                store.finish_run(run_id, r["status"], r["finished"], r["env"])
        run_ids = {ids.get(r.get("run_id"), r.get("run_id")) for r in records[1:]}
        if not finished:  # its process died before the end: what it measured is kept, marked so
            now = datetime.now(UTC).isoformat(timespec="seconds")
            for run_id in run_ids:
                store.finish_run(run_id, "interrupted", now)
        store.set_meta(key, datetime.now(UTC).isoformat(timespec="seconds"))
    return (next(iter(run_ids)) if run_ids else None), cells
