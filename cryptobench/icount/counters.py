"""Which counter a run counts instructions with: hardware counters (perf_event_open, user space
only) where the kernel exposes them, else valgrind. Each refusal says why, in one line."""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

PERF_EVENT_OPEN = {"x86_64": 298, "aarch64": 241}  # the syscall's number
PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS = 0, 1
EXCLUDE_KERNEL, EXCLUDE_HV, DISABLED = 1 << 5, 1 << 6, 1 << 0  # perf_event_attr flag bits


@dataclass(frozen=True)
class Choice:
    method: str  # "perf" or "valgrind"; "" when neither can count
    tool: str  # what counted, with its version
    why_not_perf: str  # "" when perf is used


def _perf_attr() -> bytes:
    """struct perf_event_attr (PERF_ATTR_SIZE_VER0 = 64 bytes): the user-space instruction counter."""
    size = 64
    flags = DISABLED | EXCLUDE_KERNEL | EXCLUDE_HV
    return (PERF_TYPE_HARDWARE.to_bytes(4, "little") + size.to_bytes(4, "little")
            + PERF_COUNT_HW_INSTRUCTIONS.to_bytes(8, "little") + bytes(16)
            + flags.to_bytes(8, "little") + bytes(size - 40))  # fmt: skip


def hardware_counter() -> str:
    """'' when this process can open the user-space instruction counter, else why not (one line)."""
    number = PERF_EVENT_OPEN.get(platform.machine())
    if number is None:
        return f"no perf_event_open number known for {platform.machine()}"
    pmus = Path("/sys/bus/event_source/devices")
    if pmus.is_dir() and not any((pmus / name).exists() for name in ("cpu", "cpu_core", "cpu_atom", "armv8_pmuv3")):
        return "the kernel exposes no hardware PMU (a virtual machine without a virtual PMU?)"
    libc = ctypes.CDLL(None, use_errno=True)
    attr = ctypes.create_string_buffer(_perf_attr(), 64)
    fd = libc.syscall(number, attr, 0, -1, -1, 0)
    if fd < 0:
        err = ctypes.get_errno()
        paranoid = Path("/proc/sys/kernel/perf_event_paranoid")
        level = paranoid.read_text().strip() if paranoid.exists() else "?"
        return f"perf_event_open(instructions:u) failed: {os.strerror(err)} (perf_event_paranoid = {level})"
    os.close(fd)
    if shutil.which("perf") is None:
        return "the hardware counter opens, but the perf tool is not installed (apt-get install linux-perf)"
    return ""


def valgrind_version() -> str:
    """'valgrind-3.19.0', or '' when valgrind is not installed."""
    exe = shutil.which("valgrind")
    if exe is None:
        return ""
    try:
        return subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def choose(prefer: str = "") -> Choice:
    """perf when it can count, else valgrind; `prefer` ("valgrind") skips the hardware counter."""
    why = "valgrind was asked for" if prefer == "valgrind" else hardware_counter()
    if not why:
        return Choice("perf", "perf stat -e instructions:u", "")
    version = valgrind_version()
    if version:
        return Choice("valgrind", f"{version} callgrind", why)
    return Choice("", "", f"{why}; and valgrind is not installed (scripts/setup.sh installs it)")
