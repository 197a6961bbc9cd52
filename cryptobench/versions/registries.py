"""The releases each package registry lists: PyPI, npm, Maven Central, crates.io, the Go module proxy.

One HTTP GET of the registry's own index (the one pip, npm, Maven and cargo read); the build
itself then uses the ordinary tool. A registry that cannot be reached is one line, not a
traceback, and names the registry so a user behind a mirror knows what to set.
"""

from __future__ import annotations

import functools
import json
import os
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

from cryptobench.core.errors import UserError

TIMEOUT = 30

# Overridable for a mirror; the defaults are the public registries.
PYPI = os.environ.get("CRYPTOBENCH_PYPI_URL", "https://pypi.org/pypi")
NPM = os.environ.get("CRYPTOBENCH_NPM_URL", "https://registry.npmjs.org")
MAVEN = os.environ.get("CRYPTOBENCH_MAVEN_URL", "https://repo.maven.apache.org/maven2")
CRATES = os.environ.get("CRYPTOBENCH_CRATES_INDEX", "https://index.crates.io")


def _goproxy() -> str:
    """CRYPTOBENCH_GOPROXY_URL, else the first URL in GOPROXY (what the go command asks first)."""
    first = next((p for p in re.split(r"[,|]", os.environ.get("GOPROXY", "")) if p.startswith("http")), None)
    return (os.environ.get("CRYPTOBENCH_GOPROXY_URL") or first or "https://proxy.golang.org").rstrip("/")


GOPROXY = _goproxy()


def _get(url: str, what: str, missing_ok: bool = False) -> bytes | None:
    req = urllib.request.Request(url, headers={"User-Agent": "cryptobench (versions)"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            return resp.read()
    except urllib.error.HTTPError as e:
        if e.code in (403, 404, 410) and missing_ok:  # the Go proxy answers 403 for a release it does not serve
            return None
        if e.code == 404:
            raise UserError(f"{what}: not in the registry ({url} answered 404)") from None
        raise UserError(f"{what}: the registry answered HTTP {e.code} ({url})") from None
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise UserError(f"{what}: cannot reach the registry ({url}: {reason})") from None


@functools.cache
def pypi(package: str) -> tuple[str, ...]:
    """Releases of a PyPI project that have files (a yanked-only release is not installable)."""
    data = json.loads(_get(f"{PYPI}/{package}/json", f"PyPI project {package}"))
    return tuple(
        v for v, files in data.get("releases", {}).items() if files and not all(f.get("yanked") for f in files)
    )


@functools.cache
def npm(package: str) -> tuple[str, ...]:
    return tuple(npm_manifest(package).get("versions", {}))


@functools.cache
def npm_manifest(package: str) -> dict:
    """The registry's document of an npm package (versions with their dependencies)."""
    return json.loads(_get(f"{NPM}/{package.replace('/', '%2F')}", f"npm package {package}"))


@functools.cache
def maven(group: str, artifact: str) -> tuple[str, ...]:
    url = f"{MAVEN}/{group.replace('.', '/')}/{artifact}/maven-metadata.xml"
    root = ET.fromstring(_get(url, f"Maven artifact {group}:{artifact}"))
    return tuple(v.text for v in root.iter("version") if v.text)


@functools.cache
def crates(name: str) -> tuple[str, ...]:
    """Versions of a crate from crates.io's sparse index (the file cargo reads), yanked ones left out."""
    return tuple(e["vers"] for e in crate_entries(name) if not e.get("yanked"))


@functools.cache
def crate_entries(name: str) -> tuple[dict, ...]:
    """Every release of a crate as the sparse index lists it: version, yanked, publication time
    (`pubtime`, recorded for releases since 2025) and dependencies."""
    n = name.lower()
    path = {1: f"1/{n}", 2: f"2/{n}", 3: f"3/{n[0]}/{n}"}.get(len(n), f"{n[:2]}/{n[2:4]}/{n}")
    lines = _get(f"{CRATES}/{path}", f"crate {name}").decode().splitlines()
    return tuple(json.loads(line) for line in lines if line.strip())


def _go_escape(module: str) -> str:
    """A module path as the proxy protocol spells it (upper case letters as '!' + lower case)."""
    return re.sub(r"[A-Z]", lambda m: "!" + m[0].lower(), module)


@functools.cache
def goproxy(module: str) -> tuple[str, ...]:
    """Releases of a Go module from the module proxy's list (what `go list -m -versions` reads),
    without their 'v'. A proxy may list fewer than it serves: see goproxy_has."""
    text = _get(f"{GOPROXY}/{_go_escape(module)}/@v/list", f"Go module {module}").decode()
    return tuple(v.removeprefix("v") for v in text.split() if v.startswith("v"))


@functools.cache
def goproxy_has(module: str, version: str) -> bool:
    """Whether the proxy serves exactly this release (its .info), listed or not."""
    url = f"{GOPROXY}/{_go_escape(module)}/@v/v{version}.info"
    return _get(url, f"Go module {module}@v{version}", missing_ok=True) is not None
