"""Per provider family: where its releases are listed, how its driver is built against one of them
in an isolated environment, how that build is run, and where its hello says the version.

A family is one build that may serve several provider ids (`java:bouncycastle` and
`java:bouncycastle-lw` share a jar). Each build uses the language's ordinary tool against the
ordinary registry: a venv and pip; Maven with the BouncyCastle version as a property and its own
build directory; cargo with the crate's requirement pinned and a target directory of its own;
npm with an install prefix; OpenSSL's own build script over crates.io's openssl-src.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptobench.drivers.registry import REPO, _python, c_plugin_argv
from cryptobench.versions import registries
from cryptobench.versions.spec import key

Log = Callable[[str], None]


class BuildFailed(Exception):
    """A build that did not finish: its one-line reason (the log holds the rest)."""


def _run(argv: list[str], cwd: Path, log_file: Path, env: dict | None = None, timeout: float = 3600) -> None:
    with open(log_file, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(argv)}\n")
        out.flush()
        try:
            res = subprocess.run(
                argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}, timeout=timeout
            )
        except FileNotFoundError:
            raise BuildFailed(f"{argv[0]} is not installed (scripts/setup.sh installs it)") from None
        except subprocess.TimeoutExpired:
            raise BuildFailed(f"`{' '.join(argv[:3])}` took over {timeout:.0f} s") from None
    if res.returncode != 0:
        raise BuildFailed(f"`{' '.join(argv[:4])} ...` exited with {res.returncode}: {_last_error(log_file)}")


def _last_error(log_file: Path) -> str:
    """The line that says what went wrong: the first compiler/installer error, else the last line."""
    lines = [x.strip() for x in log_file.read_text(encoding="utf-8", errors="replace").splitlines() if x.strip()]
    for pattern in (r"^error(\[E\d+\])?:|: error:|^npm error (?!A complete log)", r"^\[ERROR\] /", r"^ERROR: "):
        for line in lines:
            if re.search(pattern, line):
                return line[:240]
    return (lines[-1] if lines else "no output")[:240]


@functools.cache
def _tool_version(argv: tuple[str, ...], pattern: str) -> str:
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "missing"
    m = re.search(pattern, res.stdout + res.stderr)
    return m.group(1) if m else "unknown"


@dataclass(frozen=True)
class Family:
    name: str  # the cache folder
    serves: tuple[str, ...]  # the provider ids one build serves
    source: str  # what a user reads: "PyPI cryptography"
    releases: Callable[[], list[str]]
    toolchain: Callable[[], str]
    build: Callable[[str, Path, Path], dict]  # (version, staging folder, log) -> extra stamp fields
    command: Callable[[Path, str, dict], tuple[str, ...]]  # (folder, provider id, stamp) -> argv
    reported: str  # regex: group 1 is the version inside hello's library_version
    tools: tuple[str, ...] = ()
    env: Callable[[Path], dict] = lambda _place: {}
    pins: Callable[[], list[str]] = list  # versions that are built-in providers (`<base>@<version>`)
    sources: tuple[str, ...] = ()  # our driver's files compiled into a build: a change rebuilds it

    def sources_hash(self) -> str:
        """A digest of our driver sources compiled into the build ('' when it runs them live)."""
        h = hashlib.sha256()
        for top in self.sources:
            base = REPO / top
            files = sorted(base.rglob("*")) if base.is_dir() else [base]
            for f in files:
                if f.is_file():
                    h.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
        return h.hexdigest()[:16] if self.sources else ""

    def reported_version(self, library_version: str) -> str | None:
        m = re.search(self.reported, library_version or "")
        return m.group(1) if m else None


# --- python:cryptography: a venv per version ---------------------------------------------------


def _build_python_package(package: str) -> Callable[[str, Path, Path], dict]:
    def build(version: str, stage: Path, log: Path) -> dict:
        _run([_python(), "-m", "venv", str(stage / "venv")], stage, log)
        pip = [str(stage / "venv/bin/python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-input"]
        # wheels only: a release without a wheel for this Python is "does not build", not a compile
        _run([*pip, "--only-binary=:all:", f"{package}=={version}"], stage, log)
        return {"command": f"pip install --only-binary=:all: {package}=={version}"}

    return build


def _python_toolchain() -> str:
    return f"py{sys.version_info.major}.{sys.version_info.minor}"


def _python_command(place: Path, pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(place / "venv/bin/python"), "-m", "cbdriver")


def _python_env(_place: Path) -> dict:
    return {"PYTHONPATH": str(REPO / "drivers/python")}


# --- java:bouncycastle(-lw): our driver's classes with one bcprov release on the classpath --------


def _build_java(version: str, stage: Path, log: Path) -> dict:
    """Maven builds the driver's own classes (against the pinned BouncyCastle, as always), then
    fetches bcprov-jdk18on at `version` and the other runtime jars; the driver runs on that
    classpath. The JCA path (`java:bouncycastle`) reaches BouncyCastle by algorithm names only,
    so it runs on releases older than the one it was compiled with; the lightweight path uses
    classes by name and starts only on releases that have them."""
    java = REPO / "drivers/java"
    mvn = ["mvn", "-B", "-q"]
    _run(
        [*mvn, "package", "-DskipTests", "-Dspotless.check.skip=true", f"-Dcb.build.dir={stage / 'target'}"], java, log
    )
    classes = next((stage / "target").glob("cbdriver-java-*.jar"), None)  # the unshaded jar: our classes only
    if classes is None:
        raise BuildFailed("mvn package made no cbdriver-java-*.jar")
    (stage / "lib").mkdir()
    shutil.move(str(classes), stage / "lib/cbdriver-java-classes.jar")
    shutil.rmtree(stage / "target", ignore_errors=True)
    lib = f"-DoutputDirectory={stage / 'lib'}"
    _run([*mvn, "dependency:copy", f"-Dartifact=org.bouncycastle:bcprov-jdk18on:{version}", lib], java, log)
    _run([*mvn, "dependency:copy-dependencies", "-DincludeScope=runtime", "-DexcludeGroupIds=org.bouncycastle", lib],
         java, log)  # fmt: skip
    return {"command": f"mvn dependency:copy -Dartifact=org.bouncycastle:bcprov-jdk18on:{version}"}


def _java_command(_place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(REPO / "drivers/java/cbdriver-java"),)


def _java_env(place: Path) -> dict:
    return {"CBDRIVER_CLASSPATH": f"{place / 'lib'}/*"}


# --- rust:ring: the driver with ring's requirement pinned, its own lock file ----------------------


def _build_rust_crate(crate: str) -> Callable[[str, Path, Path], dict]:
    def build(version: str, stage: Path, log: Path) -> dict:
        tree = stage / "src-tree"
        src = REPO / "drivers/rust"
        tree.mkdir()
        for name in ("Cargo.toml", "Cargo.lock", "build.rs"):
            shutil.copy2(src / name, tree / name)
        shutil.copytree(src / "src", tree / "src")
        manifest = (tree / "Cargo.toml").read_text(encoding="utf-8")
        pinned, n = re.subn(rf'(?m)^{re.escape(crate)} = "[^"]*"', f'{crate} = "={version}"', manifest)
        if n != 1:
            raise BuildFailed(f'drivers/rust/Cargo.toml has no plain `{crate} = "..."` line to pin')
        (tree / "Cargo.toml").write_text(pinned, encoding="utf-8")
        # one target folder for every versioned Rust build: the other crates compile once
        target = stage.parent.parent / ".cargo-target"
        env = {"CARGO_TARGET_DIR": str(target)}
        _run(["cargo", "update", "--quiet", "-p", crate], tree, log, env)  # re-resolve only this crate
        _run(["cargo", "build", "--release", "--quiet"], tree, log, env)
        shutil.copy2(target / "release/cbdriver-rust", stage / "cbdriver-rust")
        return {"command": f'cargo build --release with {crate} = "={version}"'}

    return build


def _rust_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(place / "cbdriver-rust"),)


# --- js:noble: the driver's sources beside node_modules of one noble release set -----------------

NOBLE_COMPANIONS = ("@noble/ciphers", "@noble/curves", "@noble/post-quantum")


def noble_set(hashes_version: str) -> dict[str, str]:
    """The noble packages that go with @noble/hashes at this version: each companion at its newest
    release that depends on this major of @noble/hashes (ciphers, which depends on none: the newest
    of the same major)."""
    major = hashes_version.split(".")[0]
    chosen = {"@noble/hashes": hashes_version}
    for name in NOBLE_COMPANIONS:
        versions = registries.npm_manifest(name).get("versions", {})
        fits = []
        for v, meta in versions.items():
            k = key(v)
            if k is None or k.is_prerelease:
                continue
            dep = (meta.get("dependencies") or {}).get("@noble/hashes")
            dep_major = re.sub(r"^[~^=v]*", "", dep).split(".")[0] if dep else None
            if dep_major == major or (dep is None and v.split(".")[0] == major):
                fits.append(v)
        if fits:
            chosen[name] = max(fits, key=key)
    return chosen


def _build_noble(version: str, stage: Path, log: Path) -> dict:
    import json

    packages = noble_set(version)
    (stage / "package.json").write_text(
        json.dumps({"name": "cryptobench-js-noble", "private": True, "type": "module", "dependencies": {}}),
        encoding="utf-8",
    )
    spec = [f"{n}@{v}" for n, v in packages.items()]
    _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", *spec], stage, log)
    # our driver's sources, resolved against these node_modules (Node resolves imports beside the file)
    # our driver's sources, linked: Node (with --preserve-symlinks) resolves their imports in these
    # node_modules, and the link always runs the current driver
    (stage / "src").symlink_to(REPO / "drivers/js/src", target_is_directory=True)
    return {"command": "npm install " + " ".join(spec), "packages": packages}


def _noble_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return ("node", "--preserve-symlinks", "--preserve-symlinks-main", str(place / "src/main_node.js"))


# --- c:openssl: OpenSSL's libcrypto from crates.io's openssl-src, our plugin linked to it --------


@functools.cache
def openssl_crates() -> dict[str, str]:
    """OpenSSL version -> the newest openssl-src crate version that packages it."""
    out: dict[str, str] = {}
    for crate in registries.crates("openssl-src"):
        _, plus, openssl = crate.partition("+")
        if plus and (openssl not in out or key(crate) > key(out[openssl])):
            out[openssl] = crate
    return out


def _openssl_pins() -> list[str]:
    """OpenSSL versions with a pinned build (scripts/openssl/versions.txt): built-in providers."""
    from cryptobench.drivers.registry import openssl_versions

    return [version for _pid, version in openssl_versions()]


def _build_openssl(version: str, stage: Path, log: Path) -> dict:
    crate = openssl_crates().get(version)
    if crate is None:
        raise BuildFailed(f"crates.io's openssl-src packages no OpenSSL {version}")
    _run([str(REPO / "scripts/openssl/build.sh"), "--no-test", crate], REPO, log)
    built = REPO / f"drivers/c/build/plugins/libcb_openssl-{version}.so"
    if not built.exists():
        raise BuildFailed(f"scripts/openssl/build.sh finished without {built.name}")
    shutil.copy2(built, stage / "libcb_openssl.so")
    return {"command": f"scripts/openssl/build.sh {crate}", "crate": crate, "serves": f"c:openssl@{version}"}


def _openssl_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return c_plugin_argv(place / "libcb_openssl.so")


def _openssl_releases() -> list[str]:
    return list(openssl_crates())


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family(
            "python-cryptography", ("python:cryptography",), "PyPI cryptography",
            lambda: list(registries.pypi("cryptography")), _python_toolchain,
            _build_python_package("cryptography"), _python_command, r"cryptography ([^ ]+)",
            env=_python_env,
        ),
        Family(
            "python-pycryptodome", ("python:pycryptodome",), "PyPI pycryptodome",
            lambda: list(registries.pypi("pycryptodome")), _python_toolchain,
            _build_python_package("pycryptodome"),
            lambda place, pid, st: (*_python_command(place, pid, st), "--plugin",
                                    str(REPO / "plugins/python/pycryptodome_provider.py")),
            r"PyCryptodome ([^ ]+)", env=_python_env,
        ),
        Family(
            "java-bouncycastle", ("java:bouncycastle", "java:bouncycastle-lw"),
            "Maven Central org.bouncycastle:bcprov-jdk18on",
            lambda: list(registries.maven("org.bouncycastle", "bcprov-jdk18on")),
            lambda: "java" + _tool_version(("java", "-version"), r'version "([0-9]+)'),
            _build_java, _java_command, r"v([0-9][0-9.]*)", ("mvn", "java"), env=_java_env,
            sources=("drivers/java/src/main", "drivers/java/pom.xml"),
        ),
        Family(
            "rust-ring", ("rust:ring",), "crates.io ring", lambda: list(registries.crates("ring")),
            lambda: "rustc" + _tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            _build_rust_crate("ring"), _rust_command, r"ring ([^ ,;]+)", ("cargo",),
            sources=("drivers/rust/src", "drivers/rust/Cargo.toml", "drivers/rust/Cargo.lock", "drivers/rust/build.rs"),
        ),
        Family(
            "js-noble", ("js:noble",), "npm @noble/hashes (with the ciphers, curves and post-quantum of its major)",
            lambda: list(registries.npm("@noble/hashes")),
            lambda: "node" + _tool_version(("node", "--version"), r"v([0-9]+)"),
            _build_noble, _noble_command, r"@noble/hashes ([^ ]+)", ("node", "npm"),
        ),
        Family(
            "c-openssl", ("c:openssl",), "crates.io openssl-src", _openssl_releases,
            lambda: "gcc" + _tool_version(("gcc", "-dumpfullversion"), r"([0-9.]+)"),
            _build_openssl, _openssl_command, r"OpenSSL ([^ ]+)", ("cargo", "make", "gcc", "perl"),
            pins=_openssl_pins, sources=("drivers/c/src", "include"),
        ),
    ]
}  # fmt: skip


def family_of(base: str) -> Family | None:
    return next((f for f in FAMILIES.values() if base in f.serves), None)
