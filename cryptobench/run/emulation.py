"""Drivers under an emulator: right answers, meaningless times (docs/platforms.md).

A provider whose command starts with a qemu-user program (`qemu-aarch64 -L SYSROOT driver ...`,
as scripts/arm64 writes them; `env VAR=... qemu-aarch64 ...` too) runs another CPU's binary by
binary translation. Its outputs are that binary's, so `cryptobench verify` checks it; its times are
the emulator's, which say nothing of the CPU it was built for, so a run that measures (timing,
scaling, leak checks, instruction counts) refuses it in one line, before anything starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from cryptobench.core.errors import UserError

# qemu-user's programs: qemu-aarch64, qemu-aarch64-static, qemu-arm, qemu-riscv64, ...
QEMU_USER = re.compile(r"qemu-(?!system-|img$|nbd$|io$)[a-z0-9_]+(-static)?")


def emulator(command: Iterable[str]) -> str | None:
    """The qemu-user program a driver command runs under (`qemu-aarch64`), or None."""
    parts = list(command)
    if parts and Path(parts[0]).name == "env":  # env [-i] [NAME=value ...] program ...
        parts = parts[1:]
        while parts and (parts[0].startswith("-") or "=" in parts[0]):
            parts = parts[1:]
    name = Path(parts[0]).name if parts else ""
    return name if QEMU_USER.fullmatch(name) else None


def refuse_measuring(registry, providers: Iterable[str]) -> None:
    """A one-line UserError naming the first emulated provider of a run that measures."""
    for pid in providers:
        p = registry.providers.get(registry.canonical(pid))  # a run's fake test drivers have none
        emu = emulator(p.command) if p is not None else None
        if emu:
            raise UserError(
                f"{pid} runs under qemu-user ({emu}): an emulator's times say nothing of the CPU it "
                f"emulates, so timing and leak checks refuse it; `cryptobench verify` checks its answers"
            )
