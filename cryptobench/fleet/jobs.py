"""What a queued job may say: data (a suite's name, filters, settings), never a command.

A job is checked twice: by `submit` before it is queued, and by the agent before it runs it (the
queue is a table anybody with the submitting role can write to, so the agent trusts nothing in
it). Anything that would make an agent run a program or read a file of the submitter's choosing
(a providers file, a plugin, a suite file, a vector directory, an output path, an unknown field)
is refused with one line. The agent turns a job into `cryptobench run` arguments of its own, each
value checked against a strict pattern and passed as --flag=value (never read as another flag).
What the agent reads back must be exactly what `submit` writes (check_queued): a value `submit` would
have refused or written otherwise is refused, not repaired.
"""

from __future__ import annotations

import re

from cryptobench.core.errors import UserError
from cryptobench.versions.spec import VERSION_FORM

# job field -> `cryptobench run` flag; the only fields a job may carry
FIELDS = {
    "suite": "--suite",
    "alg": "--alg",
    "provider": "--provider",
    "size": "--size",
    "chunk": "--chunk",
    "baseline": "--baseline",
    "time_per_cell": "--time-per-cell",
    "noise": "--noise",
    "passes": "--passes",
    "timeout": "--timeout",
    "label": "--label",
    "cpu_features": "--cpu-features",
}
LISTS = {"alg", "provider", "size", "chunk"}  # repeatable: a list of comma-separated globs
# what a job must never carry: each would make the agent run or read something the submitter chose
COMMANDS = {
    "providers_file": "a providers file names programs to run",
    "plugin": "a plugin is a program (a shared object or a Python module)",
    "command": "a job carries data, never a command",
    "vectors": "a vector directory is a path on the agent's machine",
    "db": "the agent writes to the store it was started with",
}
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:+*?,\-]{0,199}$")  # names, globs, sizes: no '/', no leading '-'
PROVIDER_FIELDS = {"provider", "baseline"}  # provider ids: NAME or NAME@VERSION (docs/versions.md), comma-separated
_PROVIDERS = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:@+*?,<>=!~\-]{0,199}$")  # then each one by _provider_ids
_PROVIDER = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:+*?\-]{0,99}$")
# what may follow the `@` (cryptobench/versions/spec.py): a release, a series, latest, one comparison, `46.*`
_VERSION = VERSION_FORM  # the one rule of docs/versions.md, as run applies it
_TEXT_MAX = 80  # a machine label or a note: printable characters only (no escape sequence reaches a terminal)


def _refuse(why: str) -> UserError:
    return UserError(f"job refused: {why}")


def check(job: dict) -> dict:
    """The job, normalised, or a UserError saying in one line why it is refused."""
    if not isinstance(job, dict):
        raise _refuse("a job is a JSON object of fields")
    for key, why in COMMANDS.items():
        if key in job:
            raise _refuse(f"it names {key!r}: {why}; an agent runs only the providers installed on its machine")
    unknown = sorted(set(job) - set(FIELDS) - {"machine"})
    if unknown:
        raise _refuse(f"unknown field {unknown[0]!r} (a job may carry: {', '.join(FIELDS)})")
    out: dict = {}
    for key, value in job.items():
        if key in ("machine", "label"):
            out[key] = _printable(key, value, empty_ok=key == "label")
        elif key in LISTS:
            values = value if isinstance(value, list) else [value]
            out[key] = [_text(key, v, _PROVIDERS if key in PROVIDER_FIELDS else _NAME) for v in values]
        elif key in ("time_per_cell", "noise", "timeout"):
            out[key] = _number(key, value)
        elif key == "passes":
            out[key] = int(_number(key, value))
        else:
            out[key] = _text(key, value, _PROVIDERS if key in PROVIDER_FIELDS else _NAME)
    for key in PROVIDER_FIELDS & set(out):
        for p in out[key] if key in LISTS else [out[key]]:
            _provider_ids(key, p)
    suite = out.get("suite", "default")
    if suite.endswith(".toml") or "/" in suite:
        raise _refuse(f"suite {suite!r} is a file: a job names a suite the agent has (`cryptobench list suites`)")
    out["suite"] = suite
    return out


def check_queued(job) -> dict:
    """A job read back from the queue, refused in one line unless it is exactly what `submit` writes:
    check()'s own output with its machine. Nothing is repaired: a row that differs was not written
    by submit, so the agent runs none of it."""
    if not isinstance(job, dict):
        raise _refuse(f"its job is a JSON {type(job).__name__}, not the object of fields submit writes")
    for key in ("machine", "suite"):
        if key not in job:
            raise _refuse(f"it has no {key!r} field (submit writes one in every job)")
    out = check(job)
    for key, value in out.items():
        if job[key] != value or type(job[key]) is not type(value):
            raise _refuse(f"{key} {_shown(job[key])} is not written as submit writes it ({_shown(value)})")
    return out


def _provider_ids(key: str, value: str) -> None:
    """Each comma-separated provider is NAME or NAME@VERSION as docs/versions.md allows: never a
    file (a plugin is a program), never a version that is not one (`@file:..`, a URL, a path)."""
    for part in value.split(","):
        name, at, version = part.partition("@")
        if name.endswith((".so", ".py", ".toml")):
            raise _refuse(f"{key} {part!r} is a file: a plugin is a program; name providers the agent has")
        if not _PROVIDER.match(name) or (at and not _VERSION.match(version)):
            raise _refuse(
                f"{key} {_shown(part)} is not NAME or NAME@VERSION (a release, a series, latest, "
                "'>=44' or '46.*': docs/versions.md)"
            )


def _shown(value) -> str:
    """A value as a refusal shows it: its repr, cut (repr escapes every control character)."""
    text = repr(value)
    return text if len(text) <= 62 else text[:60] + "…"


def _printable(key: str, value, empty_ok: bool) -> str:
    if not isinstance(value, str) or not (empty_ok or value.strip()):
        raise _refuse(f"{key} must be text, at most {_TEXT_MAX} printable characters")
    if len(value) > _TEXT_MAX or not value.isprintable():
        raise _refuse(f"{key} {_shown(value)}: at most {_TEXT_MAX} printable characters (no control characters)")
    return value


def _text(key: str, value, pattern: re.Pattern) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        shown = _shown(value) if isinstance(value, str | int | float) else type(value).__name__
        raise _refuse(f"{key} {shown} is not a name, glob or size this field takes")
    return value


def _number(key: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1e6:
        raise _refuse(f"{key} must be a positive number")
    return float(value)


def run_arguments(job: dict) -> list[str]:
    """`cryptobench run` arguments for a checked job (check() first)."""
    args = []
    for key, flag in FIELDS.items():
        if key not in job:
            continue
        for v in job[key] if key in LISTS else [job[key]]:
            args.append(f"{flag}={v:g}" if isinstance(v, float) else f"{flag}={v}")
    return args
