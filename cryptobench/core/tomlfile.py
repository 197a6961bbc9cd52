"""Reading a user's TOML file (references, providers): every way it can fail is one line."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cryptobench.core.errors import UserError


def read_toml(path: Path, what: str, malformed: str) -> dict:
    """The TOML document at `path`. A missing or unreadable file is a UserError naming `what`
    ("providers file"); text that is not UTF-8 or not TOML one that starts with `malformed`."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{what} {str(path)!r} not found") from None
    except OSError as e:
        raise UserError(f"cannot read {what} {str(path)!r}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{malformed}: not UTF-8 text (byte {e.start})") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{malformed}: {e}") from None
