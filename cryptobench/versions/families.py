"""Per provider family: where its releases are listed, how its driver is built against one of them
in an isolated environment, how that build is run, and where its hello says the version.

A family is one build that may serve several provider ids (`java:bouncycastle` and
`java:bouncycastle-lw` share a jar). Each build uses the language's ordinary tool against the
ordinary registry: a venv and pip; Maven with the BouncyCastle version as a property and its own
build directory; cargo with the crate's requirement pinned and a target directory of its own;
npm with an install prefix; OpenSSL's own build script over crates.io's openssl-src; the go
command with GOTOOLCHAIN (a Go release is a toolchain) or a `go.mod` require per version.
"""

from __future__ import annotations

import functools
import platform
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from cryptobench.drivers.programs import REPO, _python, c_plugin_argv
from cryptobench.versions import builds_go, builds_npm, builds_rust, registries
from cryptobench.versions.build_steps import BuildFailed, Family, run_step, tool_version
from cryptobench.versions.spec import key

# --- python:cryptography: a venv per version ---------------------------------------------------


def _build_python_package(package: str) -> Callable[[str, Path, Path], dict]:
    def build(version: str, stage: Path, log: Path) -> dict:
        run_step([_python(), "-m", "venv", str(stage / "venv")], stage, log)
        pip = [str(stage / "venv/bin/python"), "-m", "pip", "install", "--disable-pip-version-check", "--no-input"]
        # wheels only: a release without a wheel for this Python is "does not build", not a compile
        run_step([*pip, "--only-binary=:all:", f"{package}=={version}"], stage, log)
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
    run_step(
        [*mvn, "package", "-DskipTests", "-Dspotless.check.skip=true", f"-Dcb.build.dir={stage / 'target'}"], java, log
    )
    classes = next((stage / "target").glob("cbdriver-java-*.jar"), None)  # the unshaded jar: our classes only
    if classes is None:
        raise BuildFailed("mvn package made no cbdriver-java-*.jar")
    (stage / "lib").mkdir()
    shutil.move(str(classes), stage / "lib/cbdriver-java-classes.jar")
    shutil.rmtree(stage / "target", ignore_errors=True)
    lib = f"-DoutputDirectory={stage / 'lib'}"
    run_step([*mvn, "dependency:copy", f"-Dartifact=org.bouncycastle:bcprov-jdk18on:{version}", lib], java, log)
    run_step([*mvn, "dependency:copy-dependencies", "-DincludeScope=runtime", "-DexcludeGroupIds=org.bouncycastle", lib],
         java, log)  # fmt: skip
    return {"command": f"mvn dependency:copy -Dartifact=org.bouncycastle:bcprov-jdk18on:{version}"}


def _java_command(_place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(REPO / "drivers/java/cbdriver-java"),)


def _java_env(place: Path) -> dict:
    return {"CBDRIVER_CLASSPATH": f"{place / 'lib'}/*"}


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
    run_step([str(REPO / "scripts/openssl/build.sh"), "--no-test", crate], REPO, log)
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
            lambda: "java" + tool_version(("java", "-version"), r'version "([0-9]+)'),
            _build_java, _java_command, r"v([0-9][0-9.]*)", ("mvn", "java"), env=_java_env,
            sources=("drivers/java/src/main", "drivers/java/pom.xml"),
        ),
        Family(
            "rust-ring", ("rust:ring",), "crates.io ring", lambda: list(registries.crates("ring")),
            lambda: "rustc" + tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            builds_rust.build_rust_crate("ring"), builds_rust.rust_command, r"ring ([^ ,;]+)", ("cargo",),
            sources=builds_rust.RUST_SOURCES,
        ),
        Family(
            "js-noble", ("js:noble",), "npm @noble/hashes (with the ciphers, curves and post-quantum of its major)",
            lambda: list(registries.npm("@noble/hashes")),
            lambda: "node" + tool_version(("node", "--version"), r"v([0-9]+)"),
            builds_npm.build_noble, builds_npm.noble_command, r"@noble/hashes ([^ ]+)", ("node", "npm"),
        ),
        Family(
            "c-openssl", ("c:openssl",), "crates.io openssl-src", _openssl_releases,
            lambda: "gcc" + tool_version(("gcc", "-dumpfullversion"), r"([0-9.]+)"),
            _build_openssl, _openssl_command, r"OpenSSL ([^ ]+)", ("cargo", "make", "gcc", "perl"),
            pins=_openssl_pins, sources=("drivers/c/src", "include"),
        ),
        Family(
            # the version is the toolchain: the cache key's toolchain part is the host
            "go-stdlib", ("go:stdlib",), "the Go toolchain (GOTOOLCHAIN)", builds_go.go_releases,
            lambda: f"{sys.platform}-{platform.machine()}", builds_go.build_go_stdlib, builds_go.go_command,
            r"^go([0-9][0-9.]*)", ("go",), sources=builds_go.GO_SOURCES, reachable=builds_go.go_reachable,
        ),
        Family(
            "go-gmsm", ("go:gmsm",), f"Go module proxy {builds_go.GMSM}", builds_go.gmsm_releases, lambda: f"go{builds_go.local_go()}",
            builds_go.build_go_gmsm, builds_go.go_command, r"emmansun/gmsm v([^ ]+)", ("go",), sources=builds_go.GO_SOURCES,
            exact=lambda v: registries.goproxy_has(builds_go.GMSM, v),
        ),
        Family(
            "rust-rustcrypto", ("rust:rustcrypto",),
            "crates.io aes-gcm (with the RustCrypto crates of its time)", lambda: list(registries.crates("aes-gcm")),
            lambda: "rustc" + tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            builds_rust.build_rustcrypto, builds_rust.rust_command, r"aes-gcm ([0-9][^ ,;/]*)", ("cargo",), sources=builds_rust.RUST_SOURCES,
        ),
        Family(
            "rust-aws-lc-rs", ("rust:aws-lc-rs",), "crates.io aws-lc-rs (with its aws-lc-sys)",
            lambda: list(registries.crates("aws-lc-rs")),
            lambda: "rustc" + tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            builds_rust.build_rust_crate("aws-lc-rs", recursive=True), builds_rust.rust_command, r"aws-lc-rs ([0-9][^ ,;/]*)",
            ("cargo", "cmake"), sources=builds_rust.RUST_SOURCES,
        ),
        Family(
            "wasm-hash-wasm", ("wasm:hash-wasm",), "npm hash-wasm", lambda: list(registries.npm("hash-wasm")),
            lambda: "node" + tool_version(("node", "--version"), r"v([0-9]+)"),
            builds_npm.build_hash_wasm, builds_npm.npm_command, r"hash-wasm ([^ ]+)", ("node", "npm"),
        ),
        Family(
            "browser-noble", ("browser:noble",),
            "npm @noble/hashes (with the ciphers, curves and post-quantum releases made on it), in Chromium",
            lambda: list(registries.npm("@noble/hashes")),
            lambda: "node" + tool_version(("node", "--version"), r"v([0-9]+)"),
            builds_npm.build_browser_noble, builds_npm.npm_command, r"@noble/hashes ([^ ]+)", ("node", "npm"),
        ),
    ]
}  # fmt: skip


def family_of(base: str) -> Family | None:
    return next((f for f in FAMILIES.values() if base in f.serves), None)
