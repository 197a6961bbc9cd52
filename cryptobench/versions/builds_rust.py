"""Rust builds: the driver with one crate's requirement pinned (rust:ring, rust:aws-lc-rs), and
rust:rustcrypto, the RustCrypto crates moved together to where they stood while one aes-gcm release was newest."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

from cryptobench.drivers.programs import REPO
from cryptobench.versions import cache, registries
from cryptobench.versions.build_steps import BuildFailed, run_step
from cryptobench.versions.spec import key

# --- rust:ring: the driver with ring's requirement pinned, its own lock file ----------------------


def rust_tree(stage: Path) -> Path:
    """A copy of the Rust driver (manifest, lock file, build script, sources) to pin versions in."""
    tree = stage / "src-tree"
    src = REPO / "drivers/rust"
    tree.mkdir()
    for name in ("Cargo.toml", "Cargo.lock", "build.rs"):
        shutil.copy2(src / name, tree / name)
    shutil.copytree(src / "src", tree / "src")
    return tree


def set_requirement(manifest: str, crate: str, requirement: str) -> tuple[str, int]:
    """`crate = "X"` or `crate = { version = "X", ... }` in a manifest as `requirement`."""
    name = re.escape(crate)
    out, n = re.subn(rf'(?m)^{name} = "[^"]*"', lambda _m: f'{crate} = "{requirement}"', manifest)
    if n == 0:
        out, n = re.subn(rf'(?m)^({name} = \{{[^\n]*?version = )"[^"]*"', lambda m: f'{m[1]}"{requirement}"', manifest)
    return out, n


def pin_requirement(manifest: str, crate: str, version: str) -> tuple[str, int]:
    return set_requirement(manifest, crate, f"={version}")


def cargo_build(tree: Path, stage: Path, log: Path, update: list[str] | None) -> None:
    """Build the pinned tree in the target folder every versioned Rust build shares (the other
    crates compile once), one build at a time (they copy the same binary out of it)."""
    target = stage.parent.parent / ".cargo-target"
    env = {"CARGO_TARGET_DIR": str(target)}
    with cache.locked(target):
        if update is not None:
            run_step(["cargo", "update", "--quiet", *update], tree, log, env)
        run_step(["cargo", "build", "--release", "--quiet"], tree, log, env)
        shutil.copy2(target / "release/cbdriver-rust", stage / "cbdriver-rust")
    (stage / "Cargo.lock").write_bytes((tree / "Cargo.lock").read_bytes())  # what was compiled, kept
    shutil.rmtree(tree, ignore_errors=True)


def build_rust_crate(crate: str, recursive: bool = False) -> Callable[[str, Path, Path], dict]:
    """The driver with one crate's requirement pinned; cargo re-resolves only that crate (and, with
    `recursive`, its own dependencies: aws-lc-rs with the aws-lc-sys it was released with)."""

    def build(version: str, stage: Path, log: Path) -> dict:
        tree = rust_tree(stage)
        manifest = (tree / "Cargo.toml").read_text(encoding="utf-8")
        pinned, n = re.subn(rf'(?m)^{re.escape(crate)} = "[^"]*"', f'{crate} = "={version}"', manifest)
        if n != 1:
            raise BuildFailed(f'drivers/rust/Cargo.toml has no plain `{crate} = "..."` line to pin')
        (tree / "Cargo.toml").write_text(pinned, encoding="utf-8")
        cargo_build(tree, stage, log, ["-p", crate, *(["--recursive"] if recursive else [])])
        return {"command": f'cargo build --release with {crate} = "={version}"'}

    return build


RUST_SOURCES = ("drivers/rust/src", "drivers/rust/Cargo.toml", "drivers/rust/Cargo.lock", "drivers/rust/build.rs")


def rust_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return (str(place / "cbdriver-rust"),)


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


def series(version: str) -> str:
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
    if series(version) != series(ours):
        raise BuildFailed(
            f"{RUSTCRYPTO_AXIS} {version} is of another API series than the one the driver is written against "
            f"({series(ours)}.x): only {series(ours)}.x releases build"
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
            if not e.get("yanked") and key(e["vers"]) is not None and series(e["vers"]) == series(current)
            and (pre or not key(e["vers"]).is_prerelease)
            and (closes is None or (e.get("pubtime") or "") < closes)
        ]  # fmt: skip
        if fits:
            pins[crate] = max(fits, key=key)
        else:
            kept[crate] = f"{current} (no {series(current)}.x release before {closes})"
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


def build_rustcrypto(version: str, stage: Path, log: Path) -> dict:
    """The driver with aes-gcm pinned (`=V`) and every other RustCrypto crate moved, with `cargo
    update --precise`, to the release rustcrypto_plan names, dependents first; a crate cargo cannot
    move there (a release it needs was yanked since, or a dependency that stays asks for newer)
    stays where it is, and build.json says so (`not_moved`). The requirements the driver's
    Cargo.toml names are loosened to their series so that they may move back."""
    from concurrent.futures import ThreadPoolExecutor

    tree = rust_tree(stage)
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
        req = f"={v}" if crate == RUSTCRYPTO_AXIS else series(v)
        manifest, _n = set_requirement(manifest, crate, req)
    (tree / "Cargo.toml").write_text(manifest, encoding="utf-8")
    target = stage.parent.parent / ".cargo-target"
    env = {"CARGO_TARGET_DIR": str(target)}
    run_step(["cargo", "update", "--quiet", "-p", RUSTCRYPTO_AXIS], tree, log, env)
    depth = lock_order(lock_text)
    for crate in sorted((c for c in pins if c != RUSTCRYPTO_AXIS), key=lambda c: (depth.get(c, 99), c)):
        now = locked_versions((tree / "Cargo.lock").read_text(encoding="utf-8")).get(crate, [])
        current = next((v for v in now if series(v) == series(pins[crate])), None)
        if current is None or current == pins[crate]:
            continue
        try:
            run_step(
                ["cargo", "update", "--quiet", "-p", f"{crate}@{current}", "--precise", pins[crate]], tree, log, env
            )
        except BuildFailed as e:
            kept[crate] = f"{current} (cargo: {str(e).partition(': ')[2][:160]})"
    cargo_build(tree, stage, log, None)
    built = locked_versions((stage / "Cargo.lock").read_text(encoding="utf-8"))
    if version not in built.get(RUSTCRYPTO_AXIS, []):
        raise BuildFailed(f"cargo did not lock {RUSTCRYPTO_AXIS} {version}")
    moved = {c: v for c, v in pins.items() if v in built.get(c, [])}
    return {"command": f"cargo build --release, {RUSTCRYPTO_AXIS} ={version}, {len(moved)} RustCrypto crates moved",
            "pins": moved, "not_moved": {c: why for c, why in kept.items() if c not in moved}}  # fmt: skip
