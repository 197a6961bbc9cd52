"""One driver process, spoken to in JSON lines, watched for crashes, hangs and lies."""

from __future__ import annotations

import collections
import ctypes
import json
import os
import queue
import selectors
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future

from cryptobench import OLDEST_PROTOCOL, PROTOCOL_VERSION
from cryptobench.core.errors import DriverError
from cryptobench.core.textsafe import printable

# The longest legitimate line is a `verify` response to the largest case set (RSA and ML-DSA
# outputs for a few thousand cases: a few MB); 64 MiB leaves a wide margin and is refused at once.
MAX_LINE = 64 * 1024 * 1024
# requests written before their responses are read (`pipeline`): small enough that neither pipe's
# buffer (64 KiB) can fill while the other side waits, large enough to hide the round trips
PIPELINE_WINDOW = 32


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")  # json.loads would accept Infinity and NaN otherwise


# --- drivers die with cryptobench ---------------------------------------------------------------
# A driver hung inside a library (blocked in pause(), never reading its stdin) would outlive a
# cryptobench killed by SIGKILL (a CI timeout, the OOM killer) forever: the end of its input is
# never seen. On Linux the kernel kills it instead: PR_SET_PDEATHSIG, set in the child before exec.
# That signal follows the *thread* that forked the child, not the process, and drivers are started
# from short-lived worker threads too (DriverPool.renew): so every driver is forked by one thread
# that lives as long as cryptobench (_Spawner). Not covered: a driver's own children (none of ours
# fork), other systems than Linux (nothing is set there), a cryptobench that execs.
_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def _die_with(parent: int):
    """preexec_fn: SIGKILL this child when the thread that forked it ends (with cryptobench)."""

    def preexec() -> None:
        _prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))
        if os.getppid() != parent:  # cryptobench died between fork and prctl: no signal would come
            os._exit(1)

    return preexec


class _Spawner:
    """One daemon thread that forks every driver, so their parent thread is there until cryptobench ends."""

    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def popen(self, argv, **kwargs) -> subprocess.Popen:
        if _prctl is None:
            return subprocess.Popen(argv, **kwargs)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():  # first use, or in a forked child
                self._thread = threading.Thread(target=self._serve, name="cryptobench-driver-spawner", daemon=True)
                self._thread.start()
        done: Future = Future()
        self._jobs.put((argv, kwargs, done))
        return done.result()

    def _serve(self) -> None:
        while True:
            argv, kwargs, done = self._jobs.get()
            try:
                done.set_result(subprocess.Popen(argv, preexec_fn=_die_with(os.getpid()), **kwargs))
            except BaseException as e:  # the caller's to handle (OSError: no such file...)
                done.set_exception(e)


spawn = _Spawner().popen  # subprocess.Popen for a process that must not outlive cryptobench


class DriverProcess:
    """A running driver. Every failure surfaces as DriverError with a one-line reason."""

    def __init__(self, provider: str, argv: list[str], env: dict | None = None, cwd: str | None = None):
        self.provider = provider
        self.argv = argv
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        try:
            self.proc = spawn(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, **(env or {})},
                cwd=cwd,
                start_new_session=True,  # so a hung driver and its children can be killed together
            )
        except OSError as e:
            raise DriverError(f"cannot start {argv[0]}: {e.strerror}") from None
        self._buf = bytearray()
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        for raw in iter(lambda: self.proc.stderr.readline(64 * 1024), b""):  # bounded: a driver may never end a line
            self._stderr_tail.append(printable(raw.decode("utf-8", "replace").rstrip()))

    def stderr_tail(self) -> str:
        lines = [line for line in self._stderr_tail if line.strip()]
        return lines[-1] if lines else ""

    def request(self, msg: dict, timeout: float) -> dict:
        """Send one request, return its response; DriverError on any fault."""
        return self.request_line(json.dumps(msg, separators=(",", ":")).encode(), timeout)

    def request_line(self, line: bytes, timeout: float) -> dict:
        """Send one line as it is (the conformance checks send malformed ones), return the response."""
        self._send([line])
        return self._response(timeout)

    def pipeline(self, msgs: list[dict], timeout: float, window: int = PIPELINE_WINDOW) -> list[dict | DriverError]:
        """Many requests, `window` written at a time before their responses are read: a driver answers
        its stdin in order, and a short request then costs the driver's work, not a round trip through
        two schedulers. An answer per message, in order: the response, or the DriverError a `request`
        would have raised. A fault that leaves the driver dead (timeout, crash, garbage) ends the list
        at the message it happened in, as sequential requests would have met it there; the caller asks
        the rest again (through `DriverPool.request`, which restarts the driver)."""
        out: list[dict | DriverError] = []
        for start in range(0, len(msgs), window):
            part = msgs[start : start + window]
            try:
                self._send([json.dumps(m, separators=(",", ":")).encode() for m in part])
            except DriverError as e:
                return [*out, e]
            for _ in part:
                try:
                    out.append(self._response(timeout))
                except DriverError as e:
                    out.append(e)
                    if not self.alive():
                        return out
        return out

    def _send(self, lines: list[bytes]) -> None:
        if self.proc.poll() is not None:
            raise DriverError(self._exit_reason())
        try:
            self.proc.stdin.write(b"".join(line + b"\n" for line in lines))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise DriverError(self._exit_reason()) from None

    def _response(self, timeout: float) -> dict:
        line = self._read_line(timeout)
        try:
            resp = json.loads(line, parse_constant=_no_constants)
        except (ValueError, UnicodeDecodeError, RecursionError):
            self.kill()
            raise DriverError(f"protocol: not JSON: {printable(line[:80])}") from None
        if not isinstance(resp, dict) or not isinstance(resp.get("ok"), bool):
            self.kill()
            raise DriverError(f"protocol: response without an ok field: {printable(line[:80])}")
        if not resp["ok"]:
            error = resp.get("error") or "driver reported an error without a message"
            raise DriverError(printable(" ".join(str(error).split()))[:300])
        return resp

    def _read_line(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        searched = 0  # bytes of the buffer already known to hold no newline: each byte is searched once
        while (end := self._buf.find(b"\n", searched)) < 0:
            searched = len(self._buf)
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise DriverError(f"timeout: no response within {timeout:.3g} s")
            if not self._sel.select(min(left, 0.5)):
                if self.proc.poll() is not None and not self._drain_stdout():
                    raise DriverError(self._exit_reason())
                continue
            if not self._drain_stdout():
                self.proc.wait(timeout=5)
                raise DriverError(self._exit_reason())
            if len(self._buf) > MAX_LINE:
                self.kill()
                self._buf = bytearray()
                raise DriverError(f"protocol: response line too long (over {MAX_LINE >> 20} MiB without a newline)")
        line = bytes(self._buf[:end])
        del self._buf[: end + 1]
        return line

    def _drain_stdout(self) -> bool:
        """Read what is there; False at end of file."""
        try:
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self._buf += chunk
        return True

    def _exit_reason(self) -> str:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "driver closed its output but did not exit"
        self._stderr_thread.join(timeout=1)
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            why = f"crashed ({name})"
        else:
            why = f"exited with code {code}"
        tail = self.stderr_tail()
        return f"driver {why}" + (f": {tail}" if tail else "")

    def hello(self, timeout: float = 30) -> dict:
        resp = self.request({"cmd": "hello", "protocol": PROTOCOL_VERSION}, timeout)
        version = resp.get("protocol")
        if not isinstance(version, int) or not OLDEST_PROTOCOL <= version <= PROTOCOL_VERSION:
            raise DriverError(
                f"protocol: driver speaks version {version!r}, we speak {OLDEST_PROTOCOL} to {PROTOCOL_VERSION}"
            )
        if not isinstance(resp.get("offers"), dict):
            raise DriverError("protocol: hello without offers")
        for key in ("provider", "language", "library", "library_version", "runtime"):  # printed by reports
            if isinstance(resp.get(key), str):
                resp[key] = printable(resp[key])
        return resp

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            self.proc.wait()

    def close(self, timeout: float = 5) -> None:
        if self.proc.poll() is None:
            try:
                self.request({"cmd": "bye"}, timeout)
            except DriverError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._sel.close()
