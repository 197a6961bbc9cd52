"""What may follow the `@` of a provider id, and how it picks releases.

    41.0.7      exactly that release (pre-releases only this way)
    44 | 0.16   the newest release of that series (at a component boundary: 4 is not 44)
    latest      the newest release
    >=44        every release matching one comparison (>=, >, <=, <, ==, !=, ~=), newest N
    46.*        every release of a series, newest N

N is `--newest` (default 3): a range never silently means forty builds.
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from cryptobench.core.errors import UserError

DEFAULT_NEWEST = 3
_COMPARISON = re.compile(r"^(~=|==|!=|<=|>=|<|>)\s*[0-9][0-9A-Za-z.+*-]*$")
_SERIES = re.compile(r"^[0-9]+(\.[0-9]+)*$")
_LETTER = re.compile(r"^([0-9]+(?:\.[0-9]+)*)([a-z])$")
# every form above, and nothing else: never a path, a URL or `file:..` (run, submit and the agent check it)
VERSION_FORM = re.compile(
    r"^(latest|[0-9][0-9A-Za-z.+\-]{0,39}(\.\*)?|(~=|==|!=|<=|>=|<|>)[0-9][0-9A-Za-z.+*\-]{0,39})$"
)


def split(pid: str) -> tuple[str, str | None]:
    """`python:cryptography@41.0.7` -> ('python:cryptography', '41.0.7'); no `@` -> (pid, None)."""
    base, sep, spec = pid.partition("@")
    if not sep:
        return pid, None
    if not spec.strip():
        raise UserError(f"provider {pid!r}: nothing after '@' (give a version, e.g. {base}@latest)")
    if not VERSION_FORM.match(spec.strip()):
        raise UserError(
            f"provider {pid!r}: {spec.strip()!r} is not a version (a release, a series, latest, '>=44' or '46.*': "
            "docs/versions.md)"
        )
    return base, spec.strip()


def key(version: str) -> Version | None:
    """A sortable version, None for a string no registry tool would order (kept out of ranges).
    OpenSSL's letter releases sort as a last component: 1.1.1w is 1.1.1.23."""
    try:
        return Version(version)
    except InvalidVersion:
        m = _LETTER.match(version)
        return Version(f"{m[1]}.{ord(m[2]) - 96}") if m else None


def is_range(spec: str) -> bool:
    return spec.endswith("*") or bool(_COMPARISON.match(spec))


def pick(pid: str, spec: str, released: list[str], newest: int = DEFAULT_NEWEST) -> list[str]:
    """The releases `spec` names, oldest first; a one-line UserError when it names none."""
    if spec in released:
        return [spec]
    stable = sorted((v for v in released if (k := key(v)) is not None and not k.is_prerelease), key=key)
    base = pid.partition("@")[0]
    if spec == "latest":
        chosen = stable[-1:]
    elif _SERIES.match(spec):
        chosen = [v for v in stable if v.startswith(spec) and not v[len(spec) : len(spec) + 1].isdigit()][-1:]
    elif is_range(spec):
        try:
            matcher = SpecifierSet(spec if not spec.endswith("*") else f"=={spec}")
        except InvalidSpecifier:
            raise UserError(f"provider {pid!r}: {spec!r} is not a version range (e.g. '>=44' or '46.*')") from None
        chosen = [v for v in stable if matcher.contains(v)][-max(1, newest) :]
    else:
        raise UserError(
            f"provider {pid!r}: no release {spec!r} of {base} "
            f"(newest: {', '.join(reversed(stable[-5:])) or 'none'}; or write @latest, @44, @'>=44')"
        )
    if not chosen:
        raise UserError(
            f"provider {pid!r}: no release of {base} matches {spec!r} "
            f"(newest: {', '.join(reversed(stable[-5:])) or 'none'})"
        )
    return chosen
