"""npm builds: js:noble (the driver's sources beside one noble release set), wasm:hash-wasm and
browser:noble (npm releases in a folder laid out as drivers/ is)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cryptobench.drivers.programs import REPO
from cryptobench.versions import registries
from cryptobench.versions.build_steps import BuildFailed, run_step
from cryptobench.versions.spec import key

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


def build_noble(version: str, stage: Path, log: Path) -> dict:
    import json

    packages = noble_set(version)
    (stage / "package.json").write_text(
        json.dumps({"name": "cryptobench-js-noble", "private": True, "type": "module", "dependencies": {}}),
        encoding="utf-8",
    )
    spec = [f"{n}@{v}" for n, v in packages.items()]
    run_step(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", *spec], stage, log)
    # our driver's sources, resolved against these node_modules (Node resolves imports beside the file)
    # our driver's sources, linked: Node (with --preserve-symlinks) resolves their imports in these
    # node_modules, and the link always runs the current driver
    (stage / "src").symlink_to(REPO / "drivers/js/src", target_is_directory=True)
    return {"command": "npm install " + " ".join(spec), "packages": packages}


def noble_command(place: Path, _pid: str, _stamp: dict) -> tuple[str, ...]:
    return ("node", "--preserve-symlinks", "--preserve-symlinks-main", str(place / "src/main_node.js"))


# --- wasm:hash-wasm, browser:noble: npm releases in a folder laid out as drivers/ is ---------------


def npm_layout(stage: Path, packages: dict[str, str], log: Path, browser: bool) -> str:
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
    run_step(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", *spec], js, log)
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


def npm_command(place: Path, pid: str, _stamp: dict) -> tuple[str, ...]:
    if pid.startswith("browser:"):
        return (*NODE, str(place / "browser/bridge.mjs"))
    return (*NODE, str(place / "js/src/main_node.js"))


def build_hash_wasm(version: str, stage: Path, log: Path) -> dict:
    return {"command": npm_layout(stage, {"hash-wasm": version}, log, False)}


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


def build_browser_noble(version: str, stage: Path, log: Path) -> dict:
    packages = noble_flat_set(version)
    command = npm_layout(stage, packages, log, True)
    nested = sorted(str(p.relative_to(stage / "js")) for p in (stage / "js/node_modules").glob("*/*/node_modules/*/*"))
    if nested:  # the page would run these against the top-level copies instead
        raise BuildFailed(f"npm nested {', '.join(nested[:3])}: a page's import map holds one copy of each package")
    return {"command": command, "packages": packages}
