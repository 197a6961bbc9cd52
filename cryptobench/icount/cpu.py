"""The CPU features an instruction count was made with: valgrind runs a driver on an emulated CPU
whose CPUID hides features the real one has (AVX-512, SHA-NI, VAES, ADX on valgrind 3.19), so a
library picks other code than it would natively, and its count is of that code. A tiny CPUID probe
(cpuid.c), run natively and under the counter, says which."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from cryptobench.drivers.programs import REPO

SOURCE = Path(__file__).with_name("cpuid.c")
PROBE = REPO / "build" / "icount" / "cpuid"


def _probe() -> Path | None:
    """The probe, compiled on first use (the native drivers need a C compiler too); None without one."""
    if PROBE.exists() and PROBE.stat().st_mtime >= SOURCE.stat().st_mtime:
        return PROBE
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    PROBE.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([cc, "-O2", "-o", str(PROBE), str(SOURCE)], capture_output=True, timeout=60)
    return PROBE if done.returncode == 0 else None


def _run(prefix: list[str]) -> list[str] | None:
    probe = _probe()
    if probe is None:
        return None
    try:
        out = subprocess.run([*prefix, str(probe)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.split() if out.returncode == 0 else None


def features(prefix: list[str]) -> dict:
    """{"native": [...], "counted": [...], "hidden": [...]}: what CPUID says natively and under the
    counter's `prefix` (empty for hardware counters: the same CPU), and what the counter hides."""
    native = _run([])
    counted = _run(prefix) if prefix else native
    if native is None or counted is None:
        return {
            "native": native or [],
            "counted": counted or [],
            "hidden": [],
            "note": "no C compiler for the CPUID probe",
        }
    return {"native": native, "counted": counted, "hidden": [f for f in native if f not in counted]}


def summary(cpu: dict) -> str:
    """One line for report headers."""
    if not cpu:
        return ""
    if cpu.get("note"):
        return f"CPU features: unknown ({cpu['note']})"
    line = "CPU features seen by the counted drivers: " + (" ".join(cpu.get("counted", [])) or "none of the probed")
    if cpu.get("hidden"):
        line += f"; hidden by the counter (present on this CPU): {' '.join(cpu['hidden'])}"
    return line
