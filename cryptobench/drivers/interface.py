"""What the run asks of its driver processes, declared: `Drivers` (run/driver_pool.DriverPool is the one
that starts real processes; tests of the round logic pass a fake) and the one `Driver` it hands out.

Declared here, below `measure/` and `verify/`, so that verification and the measuring loop can name it
without importing the run layer above them."""

from __future__ import annotations

from typing import Protocol


class Driver(Protocol):
    """One running driver process."""

    @property
    def pid(self) -> int: ...  # the OS process id (memory readings, --duet pinning)

    def request(self, msg: dict, timeout: float) -> dict: ...  # DriverError on a fault

    def alive(self) -> bool: ...

    def close(self, timeout: float = 5) -> None: ...


class Drivers(Protocol):
    """The run's driver processes, one per provider.

    Every request goes through `live` (or `request`): a driver that the last request left dead (a
    crash, a hang, a lie) is restarted first, so a fault is charged to the request it happened in
    and never to the next algorithm's or cell's."""

    def start(self, pid: str) -> dict | None:
        """Start `pid`'s driver: its hello, or None when it cannot be used (`broken` says why)."""
        ...

    def hello(self, pid: str) -> dict:
        """The driver's hello ({} when it never started)."""
        ...

    def running(self, pid: str) -> bool: ...

    def why_broken(self, pid: str) -> str:
        """Why `pid` cannot be used at all ("" while it can)."""
        ...

    def env(self, provider) -> dict:
        """The environment a registry provider's driver starts with (scaling and counting start their own)."""
        ...

    def offers(self, pid: str, alg: str, op: str, chunk: int) -> bool: ...

    def offered(self, pid: str, alg: str) -> list[str]:
        """The operations of `alg` the driver's hello offers."""
        ...

    def live(self, pid: str) -> Driver:
        """`pid`'s driver, restarted first if dead; DriverError when the provider is not running."""
        ...

    def request(self, pid: str, msg: dict, timeout: float | None = None) -> dict: ...

    def request_many(self, pid: str, msgs: list[dict], timeout: float | None = None) -> list:
        """Many requests, pipelined: per message its response or the DriverError `request` would have
        raised, in order (a fault uses up its message; the rest go on in a fresh process). Optional:
        verification asks one request at a time of a `Drivers` without it (the tests' fakes)."""
        ...

    def recover(self, pid: str) -> None:
        """Restart now if the last request left the driver dead (else nothing)."""
        ...

    def generation(self, pid: str) -> int:
        """How many processes `pid` had before the one running now (one per pass, one per restart)."""
        ...

    def renew(self, only: set[str] | None = None) -> None:
        """A fresh process for every running driver (or those in `only`)."""
        ...

    def start_witness(self, pid: str) -> tuple[Driver, dict] | str:
        """A driver apart from the run's (never measured, never restarted): (it, its hello) or why not."""
        ...

    def stop(self) -> None: ...
