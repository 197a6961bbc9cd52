"""A real, throwaway PostgreSQL server for the tests: Debian's binaries, a cluster made by initdb in
a temporary directory, started by pg_ctl on a loopback port, removed at the end.

Passwords are checked (scram-sha-256 over TCP), so a wrong password is a real refusal. As root,
the server runs as the `postgres` system user (initdb refuses root); otherwise as the caller.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER, PASSWORD = "cbtest", "s3cret-not-in-logs"


def binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self):
        self.bin = binaries()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (scripts/setup.sh installs Debian's postgresql)")
        self.dir = Path(tempfile.mkdtemp(prefix="cryptobench-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self._n = 0

    def _run(self, *argv: str, **kw) -> subprocess.CompletedProcess:
        return subprocess.run([*self.as_user, *argv], check=True, capture_output=True, text=True, **kw)

    def start(self) -> PgServer:
        pwfile = self.dir / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.as_user:
            shutil.chown(self.dir, "postgres")
            shutil.chown(pwfile, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--pwfile", str(pwfile),
                  "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-sync")  # fmt: skip
        return self.resume()

    def resume(self) -> PgServer:
        """Start the server (again: after halt(), with its data)."""
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off -c max_connections=200"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-o", opts, "-w",
                  "start", timeout=60)  # fmt: skip
        return self

    def halt(self) -> None:
        """Stop the server at once, as a crash or a lost network would: its data stays for resume()."""
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)  # fmt: skip

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, db: str = "postgres", user: str = SUPERUSER, password: str = PASSWORD) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{db}"

    def psql(self, sql: str, db: str = "postgres") -> str:
        return self._run(str(self.bin / "psql"), "-h", str(self.dir), "-p", str(self.port), "-U", SUPERUSER,
                         "-d", db, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql).stdout  # fmt: skip

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        self._n += 1
        name = f"t{self._n}_{int(time.time() * 1000) % 100000}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)
