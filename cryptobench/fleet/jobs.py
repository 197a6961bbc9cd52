"""What a queued job may say: data (a suite's name, filters, settings), never a command.

A job is checked twice: by `submit` before it is queued, and by the agent before it runs it (the
queue is a table anybody with the submitting role can write to, so the agent trusts nothing in
it). Anything that would make an agent run a program or read a file of the submitter's choosing
(a providers file, a plugin, a suite file, a vector directory, an output path, an unknown field)
is refused with one line. The agent turns a job into `cryptobench run` arguments of its own, each
value checked against a strict pattern and passed as --flag=value (never read as another flag).
"""

from __future__ import annotations

import re

from ..errors import UserError

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
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:@+*?,\-]{0,199}$")  # names, globs, sizes: no '/', no leading '-'
_LABEL = re.compile(r"^[^\x00-\x1f\x7f]{0,80}$")


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
        if key == "machine":
            out[key] = _text(key, value, _LABEL)
        elif key in LISTS:
            values = value if isinstance(value, list) else [value]
            out[key] = [_text(key, v, _NAME) for v in values]
        elif key in ("time_per_cell", "noise", "timeout"):
            out[key] = _number(key, value)
        elif key == "passes":
            out[key] = int(_number(key, value))
        elif key == "label":
            out[key] = _text(key, value, _LABEL)
        else:
            out[key] = _text(key, value, _NAME)
    for p in out.get("provider", []):
        if any(part.endswith((".so", ".py", ".toml")) for part in p.split(",")):
            raise _refuse(f"provider {p!r} is a file: a plugin is a program; name providers the agent has")
    suite = out.get("suite", "default")
    if suite.endswith(".toml") or "/" in suite:
        raise _refuse(f"suite {suite!r} is a file: a job names a suite the agent has (`cryptobench list suites`)")
    out["suite"] = suite
    return out


def _text(key: str, value, pattern: re.Pattern) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        shown = value if isinstance(value, str | int | float) else type(value).__name__
        raise _refuse(f"{key} {str(shown)[:60]!r} is not a name, glob or size this field takes")
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
