"""Report files a user asks for: checked before anything is measured, written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cryptobench.core.errors import UserError


def check_writable(flag_paths: list[tuple[str, str | None]]) -> None:
    """One line for the first `--json FILE` (etc.) that could not be written, before a long run.

    Checked: the directory exists and is writable, the path is not a directory, two flags do not
    name the same file. Nothing is created here.
    """
    seen: dict[Path, str] = {}
    for flag, path in flag_paths:
        if not path:
            continue
        p = Path(path)
        where = p.resolve().parent
        if p.is_dir():
            raise UserError(f"{flag} {path}: is a directory")
        if not where.is_dir():
            raise UserError(f"{flag} {path}: directory {str(where)!r} does not exist")
        if not os.access(where, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
            raise UserError(f"{flag} {path}: not writable")
        if p.resolve() in seen:
            raise UserError(f"{flag} {path}: the same file as {seen[p.resolve()]}")
        seen[p.resolve()] = flag


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str, text: str) -> None:
    """Write beside the target, then rename over it: a reader never sees half a report."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.resolve().parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0600 would make the report private
        os.replace(tmp, target)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write {path}: {e.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
