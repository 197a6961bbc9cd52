"""The run's driver processes: one per provider, started with its environment, restarted after a fault.

`DriverPool` is the `drivers.interface.Drivers` that starts real processes."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cryptobench.core.errors import DriverError
from cryptobench.drivers import cpu_features as cpufeatures
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry

# faults (timeout, crash, garbage) after which request_many answers the rest of its messages with the
# last fault instead of restarting the driver for each: as the differential test gives up on a provider
# after GIVE_UP_ERRORS, a hanging driver costs three timeouts, not one per message of the window
FAULTS_IN_A_CALL = 3


class DriverPool:
    def __init__(self, registry: Registry, timeout: float, cpu_features: str = "", log: Callable[[str], None] = print):
        self.registry, self.timeout, self.cpu_features, self.log = registry, timeout, cpu_features, log
        self.drivers: dict[str, DriverProcess] = {}
        self.hellos: dict[str, dict] = {}
        self.broken: dict[str, str] = {}  # provider -> why it cannot be used
        self.process: dict[str, int] = {}  # provider -> how many processes it had before this one

    def env(self, p) -> dict:
        env = dict(self.registry.env_for(p))
        if self.cpu_features and cpufeatures.applies_to(p.id):
            env["OPENSSL_ia32cap"] = cpufeatures.ia32cap(self.cpu_features.split(","))
        return env

    def start(self, pid: str) -> dict | None:
        """Start a provider's driver: its hello (with what the reports show beside it), or None and why in `broken`."""
        p = self.registry.get(pid)
        ok, why = self.registry.usable(p)
        if not ok:  # said once, before anything starts, by the command (cli.shared.unbuilt_notice)
            self.broken[pid] = why
            return None
        try:
            d, hello = self._launch(pid, p)
        except DriverError as e:
            self.broken[pid] = f"driver failed to start: {e}"
            self.log(f"{pid}: {self.broken[pid]}")
            return None
        mismatch = self._other_provider(p, hello) or self._version_mismatch(p, hello)
        if mismatch:
            d.close(timeout=2)
            self.broken[pid] = mismatch
            self.log(f"{pid}: {mismatch}")
            return None
        hello = {**hello, "language": hello.get("language", p.language), "library_label": p.library}
        if p.declares or hello.get("declares"):  # what the registry registered, kept with the run for its reports
            hello["declares"] = [d.to_json() for d in p.declares]
        if self.cpu_features and cpufeatures.applies_to(pid):
            hello["cpu_features_off"] = self.cpu_features
            hello["openssl_ia32cap"] = self.env(p)["OPENSSL_ia32cap"]
        self.drivers[pid] = d
        self.hellos[pid] = hello
        return hello

    def start_witness(self, pid: str) -> tuple[DriverProcess, dict] | str:
        """A built-in provider's driver started apart from the run's, to corroborate (witness.py): its
        process and hello, or why it cannot be had. It is never in `drivers`, `hellos` or `broken`, so
        nothing measures, stores or restarts it; the caller closes it."""
        p = self.registry.get(pid)
        ok, why = self.registry.usable(p)
        if not ok:
            return why
        try:
            d, hello = self._launch(pid, p)
        except DriverError as e:
            return f"driver failed to start: {e}"
        other = self._other_provider(p, hello)
        if other:
            d.close(timeout=1)
            return other
        return d, hello

    def _launch(self, pid: str, p) -> tuple[DriverProcess, dict]:
        """A provider's driver process and its hello (start, restart and witnesses alike); a process
        whose hello fails is killed, not left behind."""
        d = DriverProcess(pid, p.argv(), env=self.env(p))
        try:
            return d, d.hello(timeout=self.timeout)
        except DriverError:
            d.kill()
            d.close(timeout=1)
            raise

    @staticmethod
    def _other_provider(p, hello: dict) -> str | None:
        """A driver must serve the provider it was started for: results under a name they are not of
        would be compared and published as that provider's (check-driver has the same rule)."""
        said = hello.get("provider")
        if said == p.driver_id:
            return None
        return f"hello names provider {said if isinstance(said, str) else repr(said)}, expected {p.driver_id}"

    @staticmethod
    def _version_mismatch(p, hello: dict) -> str | None:
        """`base@version` must run that version: what the library says at run time is the truth."""
        if p.version is None:
            return None
        from cryptobench.versions.families import FAMILIES

        said = hello.get("library_version", "")
        got = FAMILIES[p.family].reported_version(said) if p.family in FAMILIES else None
        if got != p.version:
            return f"asked for version {p.version}, but the library reports {got or 'no version'} ({said!r})"
        return None

    def renew(self, only: set[str] | None = None) -> None:
        """A fresh process for every running driver (or those in `only`): each pass of a run measures
        in new processes, so the variation between processes (memory layout) is inside the run's
        intervals (stats.summarize)."""
        pids = [p for p in self.drivers if only is None or p in only]

        def one(pid: str) -> None:
            self.drivers.pop(pid).close(timeout=2)
            self.restart(pid)

        with ThreadPoolExecutor(max_workers=max(1, len(pids))) as pool:  # start-up is mostly waiting
            list(pool.map(one, pids))

    def restart(self, pid: str) -> None:
        """A fresh process after a crash, hang or lie; a provider that cannot restart is `broken`."""
        self.process[pid] = self.process.get(pid, 0) + 1
        old = self.drivers.pop(pid, None)
        if old:
            old.kill()
            old.close(timeout=1)
        p = self.registry.get(pid)
        try:
            d, hello = self._launch(pid, p)
        except DriverError as e:
            self.broken[pid] = f"driver could not be restarted: {e}"
            return
        other = self._other_provider(p, hello)
        if other:
            d.close(timeout=1)
            self.broken[pid] = f"driver could not be restarted: {other}"
            return
        self.drivers[pid] = d

    def recover(self, pid: str) -> None:
        """A fresh process now if a crash, hang or lie has left `pid`'s driver dead (else nothing)."""
        d = self.drivers.get(pid)
        if d is not None and not d.alive():
            self.restart(pid)

    def live(self, pid: str) -> DriverProcess:
        """`pid`'s driver, restarted first when the last request left it dead. Every stage asks through
        here (or `request`), so a fault is charged to the request it happened in, never to the next
        algorithm's; DriverError when the provider is not running at all."""
        self.recover(pid)
        d = self.drivers.get(pid)
        if d is None:
            raise DriverError(self.broken.get(pid, "driver not running"))
        return d

    def request(self, pid: str, msg: dict, timeout: float | None = None) -> dict:
        """One request to `pid`'s driver, on a fresh process if the last request left it dead."""
        return self.live(pid).request(msg, self.timeout if timeout is None else timeout)

    def request_many(self, pid: str, msgs: list[dict], timeout: float | None = None) -> list[dict | DriverError]:
        """Many requests to `pid`'s driver, pipelined (`DriverProcess.pipeline`); each message gets what
        `request` would have given it, a response or its DriverError. After a fault the rest goes on in
        a fresh process, as sequential requests would (every fault uses up the message it happened in)."""
        t = self.timeout if timeout is None else timeout
        out: list[dict | DriverError] = []
        faults = 0
        while len(out) < len(msgs):
            if faults >= FAULTS_IN_A_CALL:  # a driver that dies at every message: the rest would each cost
                return out + [out[-1]] * (len(msgs) - len(out))  # a restart (a timeout, if it hangs)
            try:
                d = self.live(pid)
            except DriverError as e:  # cannot be restarted: every message left meets the same
                return out + [e] * (len(msgs) - len(out))
            out += d.pipeline(msgs[len(out) :], t)
            faults += len(out) < len(msgs)
        return out

    def hello(self, pid: str) -> dict:
        return self.hellos.get(pid, {})  # kept after a fault: what the driver said it offers

    def running(self, pid: str) -> bool:
        return pid in self.drivers

    def why_broken(self, pid: str) -> str:
        return self.broken.get(pid, "")

    def generation(self, pid: str) -> int:
        return self.process.get(pid, 0)

    def offered(self, pid: str, alg: str) -> list[str]:
        return list(self.hellos.get(pid, {}).get("offers", {}).get(alg, []))

    def offers(self, pid: str, alg: str, op: str, chunk: int) -> bool:
        hello = self.hellos.get(pid, {})
        if op not in hello.get("offers", {}).get(alg, []):
            return False
        return chunk == 0 or alg in hello.get("stream", [])

    def stop(self) -> None:
        self.stop_all()

    def stop_all(self) -> None:
        for d in self.drivers.values():
            d.close(timeout=2)
        self.drivers.clear()
