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
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptobench.drivers.registry import REPO, _python, c_plugin_argv
from cryptobench.versions import cache, registries
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
    for pattern in (
        r"^error(\[E\d+\])?:|: error:|^npm error (?!A complete log)",
        r"^\[ERROR\] /",
        r"^ERROR: ",
        r"\.go:\d+:\d+: |^go: (?!downloading|finding|added|upgraded|downgraded)",  # the go command's
    ):
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
    sources: tuple[str, ...] = ()  # our driver's files compiled into a build (paths or globs): a change rebuilds it
    # releases the registry serves without listing them (the Go proxy here lists fewer than it serves):
    # an exact version outside the list is asked about this way
    exact: Callable[[str], bool] | None = None
    # a family whose releases are a fixed set: what a version outside it is told, after "no release
    # reachable here" (go:stdlib: the machine's Go and the one toolchain GOTOOLCHAIN may fetch)
    reachable: Callable[[], str] | None = None

    def sources_hash(self) -> str:
        """A digest of our driver sources compiled into the build ('' when it runs them live)."""
        h = hashlib.sha256()
        for top in self.sources:
            base = REPO / top
            files = sorted(REPO.glob(top)) if "*" in top else sorted(base.rglob("*")) if base.is_dir() else [base]
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


def _rust_tree(stage: Path) -> Path:
    """A copy of the Rust driver (manifest, lock file, build script, sources) to pin versions in."""
    tree = stage / "src-tree"
    src = REPO / "drivers/rust"
    tree.mkdir()
    for name in ("Cargo.toml", "Cargo.lock", "build.rs"):
        shutil.copy2(src / name, tree / name)
    shutil.copytree(src / "src", tree / "src")
    return tree


def _set_requirement(manifest: str, crate: str, requirement: str) -> tuple[str, int]:
    """`crate = "X"` or `crate = { version = "X", ... }` in a manifest as `requirement`."""
    name = re.escape(crate)
    out, n = re.subn(rf'(?m)^{name} = "[^"]*"', lambda _m: f'{crate} = "{requirement}"', manifest)
    if n == 0:
        out, n = re.subn(rf'(?m)^({name} = \{{[^\n]*?version = )"[^"]*"', lambda m: f'{m[1]}"{requirement}"', manifest)
    return out, n


def _pin_requirement(manifest: str, crate: str, version: str) -> tuple[str, int]:
    return _set_requirement(manifest, crate, f"={version}")


def _cargo_build(tree: Path, stage: Path, log: Path, update: list[str] | None) -> None:
    """Build the pinned tree in the target folder every versioned Rust build shares (the other
    crates compile once), one build at a time (they copy the same binary out of it)."""
    target = stage.parent.parent / ".cargo-target"
    env = {"CARGO_TARGET_DIR": str(target)}
    with cache.locked(target):
        if update is not None:
            _run(["cargo", "update", "--quiet", *update], tree, log, env)
        _run(["cargo", "build", "--release", "--quiet"], tree, log, env)
        shutil.copy2(target / "release/cbdriver-rust", stage / "cbdriver-rust")
    (stage / "Cargo.lock").write_bytes((tree / "Cargo.lock").read_bytes())  # what was compiled, kept
    shutil.rmtree(tree, ignore_errors=True)


def _build_rust_crate(crate: str, recursive: bool = False) -> Callable[[str, Path, Path], dict]:
    """The driver with one crate's requirement pinned; cargo re-resolves only that crate (and, with
    `recursive`, its own dependencies: aws-lc-rs with the aws-lc-sys it was released with)."""

    def build(version: str, stage: Path, log: Path) -> dict:
        tree = _rust_tree(stage)
        manifest = (tree / "Cargo.toml").read_text(encoding="utf-8")
        pinned, n = re.subn(rf'(?m)^{re.escape(crate)} = "[^"]*"', f'{crate} = "={version}"', manifest)
        if n != 1:
            raise BuildFailed(f'drivers/rust/Cargo.toml has no plain `{crate} = "..."` line to pin')
        (tree / "Cargo.toml").write_text(pinned, encoding="utf-8")
        _cargo_build(tree, stage, log, ["-p", crate, *(["--recursive"] if recursive else [])])
        return {"command": f'cargo build --release with {crate} = "={version}"'}

    return build


RUST_SOURCES = ("drivers/rust/src", "drivers/rust/Cargo.toml", "drivers/rust/Cargo.lock", "drivers/rust/build.rs")


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


# --- go:stdlib: a Go release is a toolchain; go:gmsm: a go.mod require per version ----------------

GO_APPROVED = "1.27.3"  # the one other toolchain the go command may fetch here (GOTOOLCHAIN=go1.27.3)
GMSM = "github.com/emmansun/gmsm"
GO_SOURCES = ("drivers/go/*.go", "drivers/go/*.s", "drivers/go/go.mod", "drivers/go/go.sum", "protocols/pqntor/go")


@functools.cache
def local_go() -> str:
    """The machine's own Go release (`go env GOVERSION` with GOTOOLCHAIN=local), without 'go'."""
    try:
        res = subprocess.run(
            ["go", "env", "GOVERSION"], capture_output=True, text=True, timeout=60,
            env={**os.environ, "GOTOOLCHAIN": "local"}, cwd="/",
        )  # fmt: skip
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "missing"
    m = re.match(r"go([0-9][0-9.]*)", res.stdout.strip())
    return m.group(1) if m else "unknown"


def go_releases() -> list[str]:
    """The Go releases reachable here: the machine's, and GO_APPROVED through GOTOOLCHAIN (the module
    proxy serves it as golang.org/toolchain). No other Go release or source is asked for."""
    mine = local_go()
    return list(dict.fromkeys([v for v in (mine, GO_APPROVED) if key(v) is not None]))


def _go_reachable() -> str:
    return (f"Go {local_go()} is this machine's and Go {GO_APPROVED} comes through GOTOOLCHAIN=go{GO_APPROVED}; "
            "no other Go release or source is fetched")  # fmt: skip


def _go_toolchain_env(version: str) -> dict:
    return {"GOTOOLCHAIN": "local" if version == local_go() else f"go{version}"}


def _go_binary_version(binary: Path, log: Path) -> tuple[str, dict[str, str]]:
    """(the Go release a binary was built with, its modules and their versions): `go version -m`."""
    res = subprocess.run(["go", "version", "-m", str(binary)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "GOTOOLCHAIN": "local"})  # fmt: skip
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ go version -m {binary}\n{res.stdout}{res.stderr}")
    m = re.search(r": go([0-9][^\s]*)", res.stdout)
    deps = dict(re.findall(r"(?m)^\s+dep\s+(\S+)\s+v(\S+)", res.stdout))
    return (m.group(1) if m else "unknown"), deps


def _build_go_stdlib(version: str, stage: Path, log: Path) -> dict:
    """Our Go driver, as it is, built by the Go release asked for: GOTOOLCHAIN=local for the
    machine's own, go1.27.3 otherwise (the go command fetches that toolchain from the module proxy
    once, into its module cache)."""
    if version not in go_releases():
        raise BuildFailed(f"no release reachable here: {_go_reachable()}")
    env = _go_toolchain_env(version)
    _run(["go", "build", "-o", str(stage / "cbdriver-go"), "."], REPO / "drivers/go", log, env)
    built, _deps = _go_binary_version(stage / "cbdriver-go", log)
    if built != version:
        raise BuildFailed(f"GOTOOLCHAIN={env['GOTOOLCHAIN']} built the driver with Go {built}, not {version}")
    return {"command": f"GOTOOLCHAIN={env['GOTOOLCHAIN']} go build", "go": f"go{built}"}


def _build_go_gmsm(version: str, stage: Path, log: Path) -> dict:
    """Our Go driver with `require github.com/emmansun/gmsm vV` in a copy of its go.mod (the local
    pq-ntor module replaced by its absolute path), built by the machine's Go."""
    src, tree = REPO / "drivers/go", stage / "src-tree"
    tree.mkdir()
    for f in src.iterdir():
        if (f.suffix in (".go", ".s") and not f.name.endswith("_test.go")) or f.name in ("go.mod", "go.sum"):
            shutil.copy2(f, tree / f.name)
    env = {"GOTOOLCHAIN": "local"}
    pqntor = REPO / "protocols/pqntor/go"
    _run(["go", "mod", "edit", f"-require={GMSM}@v{version}", f"-replace=cryptobench/protocols/pqntor={pqntor}"],
         tree, log, env)  # fmt: skip
    _run(["go", "build", "-mod=mod", "-o", str(stage / "cbdriver-go"), "."], tree, log, env)
    _built, deps = _go_binary_version(stage / "cbdriver-go", log)
    if deps.get(GMSM) != version:
        raise BuildFailed(f"the module graph chose {GMSM} v{deps.get(GMSM)}, not v{version} (another module needs it)")
    for name in ("go.mod", "go.sum"):  # what was built from, kept beside the binary
        shutil.copy2(tree / name, stage / name)
    shutil.rmtree(tree, ignore_errors=True)
    return {"command": f"go mod edit -require={GMSM}@v{version}; go build -mod=mod", "go": f"go{local_go()}"}


def _go_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(place / "cbdriver-go"),)


def _gmsm_releases() -> list[str]:
    """The proxy's list, and the release our go.mod requires (served: the driver is built with it;
    the proxy here lists fewer releases than it serves)."""
    required = re.search(rf"(?m)^\s*{re.escape(GMSM)} v(\S+)", (REPO / "drivers/go/go.mod").read_text())
    return list(dict.fromkeys([*registries.goproxy(GMSM), *([required.group(1)] if required else [])]))


# --- rust:rustcrypto: the RustCrypto crates as they stood while one aes-gcm release was current ------

RUSTCRYPTO_AXIS = "aes-gcm"
# The crates of the RustCrypto organisation in the driver's lock file (the ones it calls and the
# trait, backend and encoding crates under them). Each moves with the axis; a crate locked at a
# pre-release (slh-dsa) stays where the lock has it: release candidates change their API.
RUSTCRYPTO_CRATES = (
    "aead", "aes", "aes-gcm", "ascon", "ascon-aead", "ascon-core", "ascon-hash256", "ascon-xof128", "base16ct",
    "base64ct", "blake2", "block-buffer", "block-padding", "cbc", "ccm", "chacha20", "chacha20poly1305", "cipher",
    "cmov", "const-oid", "cpubits", "cpufeatures", "crypto-bigint", "crypto-common", "ctr", "ctutils", "der",
    "digest", "ecb", "ecdsa", "ed25519", "elliptic-curve", "ghash", "hkdf", "hmac", "hybrid-array", "inout",
    "k256", "keccak", "kem", "ml-dsa", "ml-kem", "module-lattice", "p256", "p384", "pem-rfc7468", "pkcs1",
    "pkcs8", "poly1305", "polyval", "primefield", "primeorder", "rfc6979", "rsa", "sec1", "serdect", "sha2",
    "sha3", "shake", "signature", "slh-dsa", "sm2", "sm3", "sm4", "spki", "sponge-cursor", "universal-hash",
    "x-wing", "zeroize",
)  # fmt: skip


def _series(version: str) -> str:
    """Cargo's compatible series: 0.11.1 -> '0.11', 1.9.2 -> '1', 0.0.3 -> '0.0.3'."""
    parts = version.split("+")[0].split("-")[0].split(".")
    if parts[0] != "0":
        return parts[0]
    return ".".join(parts[:2]) if len(parts) > 1 and parts[1] != "0" else ".".join(parts[:3])


def locked_versions(lock_text: str) -> dict[str, list[str]]:
    """name -> every version of it a Cargo.lock holds (crates.io packages)."""
    out: dict[str, list[str]] = {}
    for m in re.finditer(r'(?m)^name = "([^"]+)"\nversion = "([^"]+)"', lock_text):
        out.setdefault(m.group(1), []).append(m.group(2))
    return out


def rustcrypto_plan(
    version: str, locked: dict[str, list[str]], index: Callable[[str], tuple[dict, ...]]
) -> tuple[dict[str, str], dict[str, str]]:
    """What `rust:rustcrypto@version` builds: (crate -> the release pinned, crate -> why it is not).

    `version` is a release of aes-gcm. Its window runs from its publication to that of the next
    aes-gcm release (open for the newest); every crate of RUSTCRYPTO_CRATES the lock holds moves to
    its newest release of the series the driver is written against (the lock's newest version's, so
    digest 0.11 moves, not rsa's digest 0.10) published before the window closed: what `cargo
    update` gave while that aes-gcm was the newest. Stable releases only, unless `version` is itself
    a pre-release. A one-line BuildFailed when the release is of another API series than the driver's."""
    entries = index(RUSTCRYPTO_AXIS)
    mine = next((e for e in entries if e.get("vers") == version), None)
    if mine is None:
        raise BuildFailed(f"crates.io has no {RUSTCRYPTO_AXIS} {version}")
    ours = max(locked.get(RUSTCRYPTO_AXIS, ["0"]), key=lambda v: key(v) or key("0"))
    if _series(version) != _series(ours):
        raise BuildFailed(
            f"{RUSTCRYPTO_AXIS} {version} is of another API series than the one the driver is written against "
            f"({_series(ours)}.x): only {_series(ours)}.x releases build"
        )
    pre = bool(key(version) and key(version).is_prerelease)
    later = sorted(
        (e for e in entries if not e.get("yanked") and key(e["vers"]) and key(e["vers"]) > key(version)
         and (pre or not key(e["vers"]).is_prerelease)),
        key=lambda e: key(e["vers"]),
    )  # fmt: skip
    closes = later[0].get("pubtime") if later else None
    if later and not closes:
        raise BuildFailed(f"crates.io's index gives no publication time for {RUSTCRYPTO_AXIS} {later[0]['vers']}")
    pins, kept = {RUSTCRYPTO_AXIS: version}, {}
    for crate in RUSTCRYPTO_CRATES:
        if crate == RUSTCRYPTO_AXIS or crate not in locked:
            continue
        current = max(locked[crate], key=lambda v: key(v) or key("0"))
        if key(current) is None or key(current).is_prerelease:
            kept[crate] = f"{current} (a pre-release: release candidates change their API)"
            continue
        fits = [
            e["vers"] for e in index(crate)
            if not e.get("yanked") and key(e["vers"]) is not None and _series(e["vers"]) == _series(current)
            and (pre or not key(e["vers"]).is_prerelease)
            and (closes is None or (e.get("pubtime") or "") < closes)
        ]  # fmt: skip
        if fits:
            pins[crate] = max(fits, key=key)
        else:
            kept[crate] = f"{current} (no {_series(current)}.x release before {closes})"
    return pins, kept


def lock_order(lock_text: str, root: str = "cbdriver-rust") -> dict[str, int]:
    """Each package of a Cargo.lock -> its depth below `root` (the longest chain of dependencies),
    so crates are moved dependents first: a dependent's older release asks less of its dependencies."""
    deps: dict[str, set[str]] = {}
    for block in lock_text.split("[[package]]")[1:]:
        name = re.search(r'(?m)^name = "([^"]+)"', block)
        listed = re.search(r"(?ms)^dependencies = \[(.*?)\]", block)
        if name:
            names = re.findall(r'"([^" ]+)[^"]*"', listed.group(1)) if listed else []
            deps.setdefault(name.group(1), set()).update(names)
    depth: dict[str, int] = {root: 0}
    frontier = [root]
    for _ in range(len(deps)):  # longest path in a DAG: relax until nothing deepens
        nxt = []
        for n in frontier:
            for d in deps.get(n, ()):
                if depth.get(d, -1) < depth[n] + 1:
                    depth[d] = depth[n] + 1
                    nxt.append(d)
        if not nxt:
            break
        frontier = nxt
    return depth


def _build_rustcrypto(version: str, stage: Path, log: Path) -> dict:
    """The driver with aes-gcm pinned (`=V`) and every other RustCrypto crate moved, with `cargo
    update --precise`, to the release rustcrypto_plan names, dependents first; a crate cargo cannot
    move there (a release it needs was yanked since, or a dependency that stays asks for newer)
    stays where it is, and build.json says so (`not_moved`). The requirements the driver's
    Cargo.toml names are loosened to their series so that they may move back."""
    from concurrent.futures import ThreadPoolExecutor

    tree = _rust_tree(stage)
    lock_text = (tree / "Cargo.lock").read_text(encoding="utf-8")
    lock = locked_versions(lock_text)
    wanted = [c for c in RUSTCRYPTO_CRATES if c in lock]
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:  # one GET of the sparse index each
            got = dict(zip(wanted, pool.map(registries.crate_entries, wanted), strict=True))
    except Exception as e:  # noqa: BLE001 - a registry down is this build's one line
        raise BuildFailed(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    pins, kept = rustcrypto_plan(version, lock, lambda c: got.get(c) or registries.crate_entries(c))
    manifest = (tree / "Cargo.toml").read_text(encoding="utf-8")
    for crate, v in pins.items():
        req = f"={v}" if crate == RUSTCRYPTO_AXIS else _series(v)
        manifest, _n = _set_requirement(manifest, crate, req)
    (tree / "Cargo.toml").write_text(manifest, encoding="utf-8")
    target = stage.parent.parent / ".cargo-target"
    env = {"CARGO_TARGET_DIR": str(target)}
    _run(["cargo", "update", "--quiet", "-p", RUSTCRYPTO_AXIS], tree, log, env)
    depth = lock_order(lock_text)
    for crate in sorted((c for c in pins if c != RUSTCRYPTO_AXIS), key=lambda c: (depth.get(c, 99), c)):
        now = locked_versions((tree / "Cargo.lock").read_text(encoding="utf-8")).get(crate, [])
        current = next((v for v in now if _series(v) == _series(pins[crate])), None)
        if current is None or current == pins[crate]:
            continue
        try:
            _run(["cargo", "update", "--quiet", "-p", f"{crate}@{current}", "--precise", pins[crate]], tree, log, env)
        except BuildFailed as e:
            kept[crate] = f"{current} (cargo: {str(e).partition(': ')[2][:160]})"
    _cargo_build(tree, stage, log, None)
    built = locked_versions((stage / "Cargo.lock").read_text(encoding="utf-8"))
    if version not in built.get(RUSTCRYPTO_AXIS, []):
        raise BuildFailed(f"cargo did not lock {RUSTCRYPTO_AXIS} {version}")
    moved = {c: v for c, v in pins.items() if v in built.get(c, [])}
    return {"command": f"cargo build --release, {RUSTCRYPTO_AXIS} ={version}, {len(moved)} RustCrypto crates moved",
            "pins": moved, "not_moved": {c: why for c, why in kept.items() if c not in moved}}  # fmt: skip


# --- wasm:hash-wasm, browser:noble: npm releases in a folder laid out as drivers/ is ---------------


def _npm_layout(stage: Path, packages: dict[str, str], log: Path, browser: bool) -> str:
    """`js/` with those packages installed by npm beside a link to our driver's sources (Node, with
    --preserve-symlinks, resolves their imports in that node_modules) and, for the browser,
    `browser/` with links to the bridge, its server and page (which serve `../js`, this one) and to
    the browser driver's playwright-core."""
    js = stage / "js"
    js.mkdir()
    (js / "package.json").write_text(
        json.dumps({"name": "cryptobench-versions", "private": True, "type": "module", "dependencies": {}}),
        encoding="utf-8",
    )
    spec = [f"{n}@{v}" for n, v in packages.items()]
    _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", *spec], js, log)
    for mine in sorted((REPO / "drivers/js").iterdir()):  # src, and native (the cycle counter) where built
        if mine.name not in ("node_modules", "package.json", "package-lock.json") and not mine.name.startswith("."):
            (js / mine.name).symlink_to(mine, target_is_directory=mine.is_dir())
    if browser:
        pw = REPO / "drivers/browser/node_modules"
        if not (pw / "playwright-core").is_dir():
            raise BuildFailed("the browser driver is not built (its playwright-core starts Chromium): "
                              "`cryptobench build browser` adds it")  # fmt: skip
        (stage / "browser").mkdir()
        for name in ("bridge.mjs", "server.mjs", "page", "node_modules"):
            target = pw if name == "node_modules" else REPO / "drivers/browser" / name
            (stage / "browser" / name).symlink_to(target, target_is_directory=target.is_dir())
    return "npm install " + " ".join(spec)


NODE = ("node", "--preserve-symlinks", "--preserve-symlinks-main")


def _npm_command(place: Path, pid: str, _stamp: dict) -> tuple[str, ...]:
    if pid.startswith("browser:"):
        return (*NODE, str(place / "browser/bridge.mjs"))
    return (*NODE, str(place / "js/src/main_node.js"))


def _build_hash_wasm(version: str, stage: Path, log: Path) -> dict:
    return {"command": _npm_layout(stage, {"hash-wasm": version}, log, False)}


def npm_satisfies(version: str, spec: str) -> bool:
    """Whether an npm dependency spec of the forms noble uses (`2.4.0`, `^2.0.0`, `~2.3.0`) takes `version`."""
    spec = spec.strip()
    base = spec.lstrip("^~=v")
    if key(version) is None or key(base) is None:
        return False
    if spec[:1] not in "^~":
        return key(version) == key(base)
    v, b = key(version).release + (0, 0), key(base).release + (0, 0)
    same = 2 if spec[0] == "~" or b[0] == 0 else 1  # ~: major.minor; ^: major (0.x: minor)
    return v[:same] == b[:same] and key(version) >= key(base)


def noble_flat_set(hashes_version: str) -> dict[str, str]:
    """The noble packages for a page, which can hold one copy of each (its import map; npm would
    nest a package's other copy beside its dependent in Node, a browser hands every importer the
    one copy): chosen dependents first (post-quantum, curves, ciphers), each at its newest release
    whose @noble/* requirements the releases already chosen satisfy, and which satisfies theirs on
    it; a package that requires no @noble/hashes stays on its major."""
    major = hashes_version.split(".")[0]
    chosen = {"@noble/hashes": hashes_version}
    manifests = {n: registries.npm_manifest(n).get("versions", {}) for n in NOBLE_COMPANIONS}

    def noble_deps(name: str, v: str) -> dict[str, str]:
        deps = manifests[name][v].get("dependencies") or {}
        return {d: spec for d, spec in deps.items() if d.startswith("@noble/")}

    for name in reversed(NOBLE_COMPANIONS):  # post-quantum needs curves and ciphers; curves needs hashes
        for v in sorted((v for v in manifests[name] if key(v) and not key(v).is_prerelease), key=key, reverse=True):
            deps = noble_deps(name, v)
            if "@noble/hashes" not in deps and v.split(".")[0] != major:
                continue
            if not all(npm_satisfies(chosen[d], spec) for d, spec in deps.items() if d in chosen):
                continue
            if not all(npm_satisfies(v, noble_deps(o, ov).get(name, v)) for o, ov in chosen.items() if o in manifests):
                continue
            chosen[name] = v
            break
    return {n: chosen[n] for n in ("@noble/hashes", *NOBLE_COMPANIONS) if n in chosen}


def _build_browser_noble(version: str, stage: Path, log: Path) -> dict:
    packages = noble_flat_set(version)
    command = _npm_layout(stage, packages, log, True)
    nested = sorted(str(p.relative_to(stage / "js")) for p in (stage / "js/node_modules").glob("*/*/node_modules/*/*"))
    if nested:  # the page would run these against the top-level copies instead
        raise BuildFailed(f"npm nested {', '.join(nested[:3])}: a page's import map holds one copy of each package")
    return {"command": command, "packages": packages}


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
            sources=RUST_SOURCES,
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
        Family(
            # the version is the toolchain: the cache key's toolchain part is the host
            "go-stdlib", ("go:stdlib",), "the Go toolchain (GOTOOLCHAIN)", go_releases,
            lambda: f"{sys.platform}-{platform.machine()}", _build_go_stdlib, _go_command,
            r"^go([0-9][0-9.]*)", ("go",), sources=GO_SOURCES, reachable=_go_reachable,
        ),
        Family(
            "go-gmsm", ("go:gmsm",), f"Go module proxy {GMSM}", _gmsm_releases, lambda: f"go{local_go()}",
            _build_go_gmsm, _go_command, r"emmansun/gmsm v([^ ]+)", ("go",), sources=GO_SOURCES,
            exact=lambda v: registries.goproxy_has(GMSM, v),
        ),
        Family(
            "rust-rustcrypto", ("rust:rustcrypto",),
            "crates.io aes-gcm (with the RustCrypto crates of its time)", lambda: list(registries.crates("aes-gcm")),
            lambda: "rustc" + _tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            _build_rustcrypto, _rust_command, r"aes-gcm ([0-9][^ ,;/]*)", ("cargo",), sources=RUST_SOURCES,
        ),
        Family(
            "rust-aws-lc-rs", ("rust:aws-lc-rs",), "crates.io aws-lc-rs (with its aws-lc-sys)",
            lambda: list(registries.crates("aws-lc-rs")),
            lambda: "rustc" + _tool_version(("rustc", "-V"), r"rustc ([0-9.]+)"),
            _build_rust_crate("aws-lc-rs", recursive=True), _rust_command, r"aws-lc-rs ([0-9][^ ,;/]*)",
            ("cargo", "cmake"), sources=RUST_SOURCES,
        ),
        Family(
            "wasm-hash-wasm", ("wasm:hash-wasm",), "npm hash-wasm", lambda: list(registries.npm("hash-wasm")),
            lambda: "node" + _tool_version(("node", "--version"), r"v([0-9]+)"),
            _build_hash_wasm, _npm_command, r"hash-wasm ([^ ]+)", ("node", "npm"),
        ),
        Family(
            "browser-noble", ("browser:noble",),
            "npm @noble/hashes (with the ciphers, curves and post-quantum releases made on it), in Chromium",
            lambda: list(registries.npm("@noble/hashes")),
            lambda: "node" + _tool_version(("node", "--version"), r"v([0-9]+)"),
            _build_browser_noble, _npm_command, r"@noble/hashes ([^ ]+)", ("node", "npm"),
        ),
    ]
}  # fmt: skip


def family_of(base: str) -> Family | None:
    return next((f for f in FAMILIES.values() if base in f.serves), None)
