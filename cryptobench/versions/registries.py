"""The releases each package registry lists: PyPI, npm, Maven Central, crates.io.

One HTTP GET of the registry's own index (the one pip, npm, Maven and cargo read); the build
itself then uses the ordinary tool. A registry that cannot be reached is one line, not a
traceback, and names the registry so a user behind a mirror knows what to set.
"""

from __future__ import annotations

import functools
import json
import os
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


def _get(url: str, what: str) -> bytes:
    req = urllib.request.Request(url, headers={"User-Agent": "cryptobench (versions)"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            return resp.read()
    except urllib.error.HTTPError as e:
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
    n = name.lower()
    path = {1: f"1/{n}", 2: f"2/{n}", 3: f"3/{n[0]}/{n}"}.get(len(n), f"{n[:2]}/{n[2:4]}/{n}")
    lines = _get(f"{CRATES}/{path}", f"crate {name}").decode().splitlines()
    entries = [json.loads(line) for line in lines if line.strip()]
    return tuple(e["vers"] for e in entries if not e.get("yanked"))
