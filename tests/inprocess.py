"""`cryptobench ARGS` run inside the test's own process: what conftest.run_cli does when the call needs no
process of its own (no clean environment, stdin, signals or kill of the caller's making).

A new interpreter per command cost about 0.3-0.6 CPU s (the interpreter and the orchestrator's imports:
`--help` 0.26, `runs` 0.64), paid a few hundred times per `make test`; in the process, the imports are
paid once per worker. What a fresh process would not have inherited from an earlier command or from the
test is put back after each one, and what the command leaves behind is undone, as its exit would:

- stdout and stderr are captured at the file descriptors (what a child process the command starts
  writes there too), decoded as `subprocess.run(..., text=True)` decodes them;
- the exit status is main()'s return value or SystemExit's code; an exception that escapes main()
  prints its traceback to stderr and gives 1, as the interpreter would;
- `timeout` is a SIGALRM timer: a command still running then raises subprocess.TimeoutExpired, as
  subprocess.run would (after a KeyboardInterrupt-proof unwinding: the alarm's exception is no
  Exception, so the CLI's own error handling does not turn it into an exit status);
- `env` (one that keeps every variable of the test's: `{**os.environ, ...}`) is os.environ while the
  command runs;
- put back afterwards: signal handlers (SIGINT, SIGTERM, SIGALRM, SIGPIPE, SIGCHLD, SIGHUP), the working
  directory, os.environ, the algorithms plugins declared (before the call too: the command starts from
  the catalogue alone); forgotten before and after: the plugins' known-answer files parsed and the
  functools caches of the cryptobench modules (a fresh process reads them again; a test may rewrite a
  file at the same path), but for two pure functions' (PURE) and the repository's vector files'
  (VECTOR_FILES: forgotten only around a command given `--vectors DIR`);
- undone afterwards: stores the command opened and left open are closed (its exit would have closed
  their connections: a PostgreSQL database can then be dropped), and children it started that are still
  running are killed (the drivers' PR_SET_PDEATHSIG would have killed them at its exit).

`CRYPTOBENCH_TEST_SUBPROCESS=1` sends every call to a new interpreter, as before (to compare, or when a
test is suspected of depending on its process)."""

from __future__ import annotations

import io
import locale
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

# a command that may not share the test's process: the agent runs procrastinate's worker (its own event
# loop, signal handlers and log settings) and is meant to be killed
NEVER = {"agent"}
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGPIPE, signal.SIGCHLD, signal.SIGHUP]


def wanted(argv: list[str], kw: dict) -> bool:
    """Whether `run_cli(*argv, **kw)` can run in this process: `cwd` and an `env` that adds to the test's
    environment or changes it (`{**os.environ, ...}`) can; an env that drops a variable (a clean
    environment), stdin or any other Popen argument wants a process of its own, as a call from a
    thread other than the main one does."""
    if set(kw) - {"env"} or os.environ.get("CRYPTOBENCH_TEST_SUBPROCESS"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False  # signal handlers (the timeout's, main()'s) are set in the main thread only
    if "env" in kw and not set(os.environ) <= set(kw["env"]):
        return False
    return not (argv and argv[0] in NEVER)


class _Alarm(BaseException):
    """The timeout; no Exception, so no `except Exception` inside the command stops it."""


def _on_alarm(signum, frame):
    raise _Alarm


def run(argv: list[str], cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    from cryptobench.cli import main  # imported once per process: the cost a new interpreter paid each time

    cmd = [sys.executable, "-m", "cryptobench", *argv]
    kept = _State(argv)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        fds = os.dup(1), os.dup(2)
        streams = sys.stdout, sys.stderr
        alarmed = False
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdout = _text(1, "strict")
            sys.stderr = _text(2, "backslashreplace")
            os.chdir(cwd)
            if env is not None:
                os.environ.update({k: str(v) for k, v in env.items()})
            signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                code = _exit_status(main, argv)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Alarm:
            alarmed = True
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            sys.stdout, sys.stderr = streams
            os.dup2(fds[0], 1)
            os.dup2(fds[1], 2)
            os.close(fds[0])
            os.close(fds[1])
            kept.restore()
        stdout, stderr = _read(out), _read(err)
    if alarmed:
        raise subprocess.TimeoutExpired(cmd, timeout, stdout, stderr)
    return subprocess.CompletedProcess(cmd, code, stdout, stderr)


def _exit_status(main, argv: list[str]) -> int:
    """What the interpreter's exit status would be after `cryptobench.cli.entry()` with these arguments."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    except _Alarm:
        raise
    except BaseException:  # noqa: BLE001 -- uncaught in the command: the interpreter prints it, exit 1
        traceback.print_exc()
        return 1
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _text(fd: int, errors: str) -> io.TextIOWrapper:
    """A stream like a new interpreter's on a pipe: block-buffered, the locale's encoding."""
    return io.TextIOWrapper(open(fd, "wb", closefd=False), encoding=locale.getpreferredencoding(False), errors=errors)


def _read(f) -> str:
    """The captured bytes as subprocess.run(text=True) gives them (universal newlines)."""
    f.seek(0)
    return io.TextIOWrapper(io.BytesIO(f.read()), encoding=locale.getpreferredencoding(False)).read()


def _children() -> set[int]:
    me, out = str(os.getpid()), set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            if stat[stat.rfind(b")") + 2 :].split()[1].decode() == me:
                out.add(int(entry.name))
    return out


class _State:
    """What a command run in this process may change that its own process would have taken away with it."""

    def __init__(self, argv: list[str]):
        from cryptobench.core import declared
        from cryptobench.store import sql

        self.cwd = os.getcwd()
        self.env = dict(os.environ)
        self.handlers = {s: signal.getsignal(s) for s in SIGNALS}
        self.stores = set(sql._OPEN)
        self.children = _children()
        self.declared = _Declared.save()
        declared.reset()
        self.argv = argv
        _forget_caches(argv)

    def restore(self) -> None:
        from cryptobench.store import sql

        for s, h in self.handlers.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)
        os.chdir(self.cwd)
        if dict(os.environ) != self.env:
            os.environ.clear()
            os.environ.update(self.env)
        for store in set(sql._OPEN) - self.stores:
            store.close()
        for pid in _children() - self.children:
            for kill in (os.killpg, os.kill):  # a driver leads a session of its own (client.py)
                try:
                    kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        self.declared.restore()
        _forget_caches(self.argv)


class _Declared:
    """The process's declared algorithms (core/declared.py) and the catalogue tables they extend."""

    def __init__(self, tables: list):
        self.tables = tables

    @staticmethod
    def _live() -> list:
        from cryptobench.core import algorithms, declared

        return [algorithms.ALGORITHMS, algorithms.DIGEST_LEN, algorithms._PK_OUTPUT_LEN, declared._DECLARED,
                declared._ADDED.digest, declared._ADDED.pk_outputs]  # fmt: skip

    @classmethod
    def save(cls) -> _Declared:
        copies = []
        for t in cls._live():
            copies.append(
                {k: list(v) if isinstance(v, list) else v for k, v in t.items()} if isinstance(t, dict) else list(t)
            )
        return cls(copies)

    def restore(self) -> None:
        for live, saved in zip(self._live(), self.tables, strict=True):
            live.clear()
            live.update(saved) if isinstance(live, dict) else live.extend(saved)


# caches of pure functions of their arguments (no file, no environment): kept from one command to the next
PURE = {"cryptobench.core.fixed_input.pattern", "cryptobench.analysis.stats.median_ci_ranks"}
# the known-answer files read (by path) and the cases built from them: kept too, unless the command names
# a vector directory of its own (`--vectors DIR`, a test's files that may change at one path); the
# repository's vectors/ and the installed cryptography_vectors do not change while the tests run, and
# reading them again cost every `run` and `verify` about 0.3 CPU s (about 200 MB a worker keeps)
VECTOR_FILES = "cryptobench.verify.vectors."


def _forget_caches(argv: list[str]) -> None:
    """The functools caches of the cryptobench modules a new process would not have: all but PURE's, and
    the vector files' unless `argv` gives --vectors; the plugins' parsed known-answer files."""
    from cryptobench.verify.vectors import declared as declared_vectors

    declared_vectors._PARSED.clear()
    own_vectors = any(a == "--vectors" or a.startswith("--vectors=") for a in argv)
    for name, module in list(sys.modules.items()):
        if name == "cryptobench" or name.startswith("cryptobench."):
            if name.startswith(VECTOR_FILES) and not own_vectors:
                continue
            for key, value in list(vars(module).items()):
                if (
                    callable(getattr(value, "cache_clear", None))
                    and getattr(value, "__module__", None) == name
                    and f"{name}.{key}" not in PURE
                ):
                    value.cache_clear()
