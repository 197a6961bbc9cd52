"""`cryptobench build NAME@VERSION`, `build --list`, `build --prune`: the version build cache."""

from __future__ import annotations

import fnmatch
import json
import shutil
import sys
import time

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import Registry
from cryptobench.versions import cache
from cryptobench.versions.families import FAMILIES, family_of
from cryptobench.versions.resolve import build, expand
from cryptobench.versions.spec import split


def build_named(registry: Registry, names: list[str], newest: int, force: bool = False) -> tuple[int, list[str]]:
    """Build each `base@spec` named (resolved like `run` does): (1 when any build failed, the pinned
    builds among them, which their own driver builds)."""
    failed, pinned = 0, []
    for pid in expand(registry, names, newest):
        p = registry.get(pid)
        if p.family is None:
            raise UserError(f"{pid}: not a version build (`cryptobench build {pid.split('@')[0]}` builds it)")
        if p.driver is not None:  # a pinned OpenSSL (scripts/openssl/versions.txt)
            pinned.append(pid)
            continue
        if p.artifact is None:  # did not resolve: the reason is recorded
            failed += 1
            print(f"{pid:<34} FAILED: {registry.build_errors.get(pid, 'not resolved')}")
            continue
        why = build(FAMILIES[p.family], p.version, p.artifact.parent, lambda line: print(line, flush=True), force)
        if why:
            failed += 1
            print(f"{pid:<34} FAILED: {why}")
        else:
            st = cache.stamp(p.artifact.parent) or {}
            print(f"{pid:<34} ok: {st.get('seconds', 0):.0f} s to build, {cache.human_size(st.get('bytes', 0))}")
    return (1 if failed else 0), pinned


def _rows() -> list[dict]:
    toolchains: dict[str, str] = {}
    rows = []
    for e in cache.entries():
        fam = FAMILIES.get(e.family)
        if fam and e.family not in toolchains:
            toolchains[e.family] = fam.toolchain()
        st = e.stamp or {}
        rows.append(
            {
                "family": e.family,
                "providers": [f"{b}@{e.version}" for b in (fam.serves if fam else [])],
                "version": e.version,
                "toolchain": e.toolchain,
                "state": "incomplete" if e.stamp is None
                else "stale toolchain" if toolchains.get(e.family) not in (None, e.toolchain)
                else "built",
                "bytes": e.size,
                "build_seconds": st.get("seconds"),
                "built_at": st.get("built_at"),
                "last_used": cache.utc(e.last_used),
                "path": str(e.path),
            }
        )  # fmt: skip
    for place in cache.shared_folders():
        rows.append({"family": "shared", "providers": [f"{place.name} (shared by the Rust version builds)"],
                     "version": "", "toolchain": "", "state": "shared", "bytes": cache.size_of(place),
                     "build_seconds": None, "built_at": None, "path": str(place),
                     "last_used": cache.utc(place.stat().st_mtime)})  # fmt: skip
    return rows + _openssl_libraries() + _leftovers()


def _leftovers() -> list[dict]:
    """What unfinished builds left (cache.leftovers): listed with their size and age, so they can
    be seen and pruned; one being built now says so."""
    rows = []
    for x in cache.leftovers():
        building = x.building
        rows.append({
            "family": x.family, "providers": [f"{x.family} {x.version}: "
                                              + ("being built now" if building else x.why)],
            "version": x.version, "toolchain": "", "state": "building" if building else "leftover",
            "bytes": x.size, "build_seconds": None, "built_at": None, "last_used": cache.utc(x.last_used),
            "path": ", ".join(str(p) for p in x.paths),
        })  # fmt: skip
    return rows


def _openssl_libraries() -> list[dict]:
    """The libcrypto builds scripts/openssl/build.sh keeps (shared by the pins and c:openssl@V):
    listed for their size and build time; that script owns them."""
    rows = []
    base = cache.root().parent / "openssl"
    for place in sorted(base.iterdir()) if base.is_dir() else []:
        if not (place / "lib/libcrypto.a").exists():
            continue
        timing = dict(
            line.split(" ", 1) for line in (place / "build-time.txt").read_text().splitlines() if " " in line
        ) if (place / "build-time.txt").exists() else {}  # fmt: skip
        rows.append({
            "family": "openssl-libcrypto", "providers": [f"libcrypto {place.name}"], "version": place.name,
            "toolchain": "gcc", "state": "openssl/build.sh", "bytes": cache.size_of(place),
            "build_seconds": float(timing["build_seconds"]) if "build_seconds" in timing else None,
            "built_at": timing.get("date"), "last_used": cache.utc(place.stat().st_mtime), "path": str(place),
        })  # fmt: skip
    return rows


def list_builds(as_json: bool) -> int:
    rows = _rows()
    if as_json:
        json.dump({"cache": str(cache.root()), "builds": rows}, sys.stdout, indent=2)
        print()
        return 0
    if not rows:
        print(f"no version builds in {cache.root()} (they appear after `run --provider NAME@VERSION`)")
        return 0
    print(f"version builds in {cache.root()}:")
    print(f"{'provider':<50} {'toolchain':<12} {'state':<16} {'size':>10} {'build':>7}  last used")
    for r in rows:
        took = f"{r['build_seconds']:.0f} s" if r["build_seconds"] is not None else "-"
        used = cache.age(cache.from_utc(r["last_used"]))
        name = ", ".join(r["providers"]) or f"{r['family']} {r['version']}"
        print(f"{name:<50} {r['toolchain']:<12} {r['state']:<16} {cache.human_size(r['bytes']):>10} {took:>7}  {used}")
    total = sum(r["bytes"] for r in rows)
    left = sum(r["state"] == "leftover" for r in rows)
    also = f" and {left} unfinished builds' leftovers" if left else ""
    print(
        f"{len(rows)} builds, {cache.human_size(total)}; `cryptobench build --prune` removes the version builds{also}"
    )
    return 0


def prune(selectors: list[str], unused_days: float | None) -> int:
    """Remove version builds: those a selector names (`python:cryptography`, `rust:ring@0.16.*`),
    else all; only those unused for `unused_days` when given. Says what it freed."""
    families = []
    for sel in selectors:
        base, spec = split(sel)
        fam = family_of(base)
        if fam is None:
            raise UserError(f"{sel!r}: not a provider with version builds ({', '.join(sorted(FAMILIES))})")
        families.append((fam.name, spec or "*"))
    cutoff = None if unused_days is None else time.time() - unused_days * 86400
    freed, removed = 0, []
    for e in cache.entries():
        if families and not any(e.family == f and fnmatch.fnmatchcase(e.version, v) for f, v in families):
            continue
        if cutoff is not None and e.last_used > cutoff:
            continue
        size = e.size
        with cache.locked(e.path):
            cache.remove(e.path)
        freed += size
        removed.append(f"{e.family} {e.version} ({e.toolchain})")
    for x in cache.leftovers():  # what interrupted or failed builds left: never of use to a later build
        if families and not any(x.family == f and fnmatch.fnmatchcase(x.version, v) for f, v in families):
            continue
        if cutoff is not None and x.last_used > cutoff:
            continue
        if x.building:
            print(f"kept {x.family} {x.version}: being built now")
            continue
        freed += x.size
        x.remove()
        removed.append(f"{x.family} {x.version} ({x.why})")
    if not any(e.family.startswith("rust-") for e in cache.entries()):
        building = any(x.family.startswith("rust-") and x.building for x in cache.leftovers())
        for place in cache.shared_folders():  # no Rust build left to share it, and none being built into it
            with cache.locked_if_free(place) as free:
                if building or not free:
                    print(f"kept {place.name}: a Rust version build is using it now")
                    continue
                freed += cache.size_of(place)
                shutil.rmtree(place, ignore_errors=True)
            removed.append(f"{place.name} (shared by the Rust builds)")
    for line in removed:
        print(f"removed {line}")
    print(f"pruned {len(removed)} builds, freed {cache.human_size(freed)}")
    return 0
