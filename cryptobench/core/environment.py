"""What the machine was when the numbers were taken."""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
from pathlib import Path

from cryptobench import __version__

CRYPTO_FLAGS = ("aes", "pclmulqdq", "sha_ni", "avx", "avx2", "vaes", "vpclmulqdq", "bmi2", "adx")


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def cpu_info() -> dict:
    model, flags = platform.processor() or "unknown", set()
    text = _read("/proc/cpuinfo") or ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and model in ("unknown", "", platform.processor()):
            model = value.strip()
        elif key == "flags" and not flags:
            flags = set(value.split())
    crypto = sorted(f for f in flags if f in CRYPTO_FLAGS or f.startswith("avx512"))
    return {"model": model, "crypto_flags": crypto, "all_flags": sorted(flags)}


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def git_commit() -> str:
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, timeout=5
        )
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def process_alive(hostname: str | None, pid: int | None) -> bool | None:
    """Whether process `pid` on `hostname` still runs; None when this machine cannot tell."""
    if not pid or hostname != platform.node():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def machine_id() -> str:
    """A stable id of this machine: a digest of systemd's /etc/machine-id (never the id itself), or
    of the hostname and CPU model where there is none. The same machine gives the same id in every
    run and every store; two machines do not share one."""
    source = (_read("/etc/machine-id") or _read("/var/lib/dbus/machine-id") or "").strip()
    if not source:
        source = f"{platform.node()}|{cpu_info()['model']}"
    return hashlib.sha256(f"cryptobench machine {source}".encode()).hexdigest()[:16]


def memory_kb() -> int | None:
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1])
    return None


def checked_machine_label(text: str) -> str:
    """--machine-label as given (stripped), or a UserError in one line."""
    from cryptobench.core.errors import UserError

    text = text.strip()
    if len(text) > 80 or any(not ch.isprintable() for ch in text):
        raise UserError("--machine-label: at most 80 printable characters, e.g. 'pi5, 2.4 GHz'")
    return text


def capture(machine_label: str = "") -> dict:
    """The run's environment; `machine_label` is the user's name for this machine (default: its
    hostname), shown beside the machine id in `runs` and every report."""
    cpu = cpu_info()
    return {
        "cryptobench": __version__,
        "git_commit": git_commit(),
        "machine_id": machine_id(),
        "machine_label": machine_label or platform.node(),
        "memory_kb": memory_kb(),
        "hostname": platform.node(),
        "pid": os.getpid(),  # lets `runs` tell a run still going from one whose process died
        "cpu_model": cpu["model"],
        "cpu_flags": cpu["crypto_flags"],
        "cores": os.cpu_count(),
        "kernel": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") or "not readable",
        "load_start": load_average(),
        "python": platform.python_version(),
    }
