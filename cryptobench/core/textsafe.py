"""Strings from drivers and files, made safe to print: no terminal control sequences get through."""

from __future__ import annotations

import re

# C0 controls but tab, DEL and C1 controls (ESC starts ANSI sequences; C1 CSI is one byte)
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def printable(text: object) -> str:
    """`text` with every control character shown as an escape (`\\x1b`), so it prints as itself."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def printable_lines(text: object) -> str:
    """As `printable`, but the line breaks of a message of several lines stay line breaks."""
    return "\n".join(printable(line) for line in str(text).split("\n"))
