"""`base@spec` -> concrete `base@version` providers in the registry, built on demand.

`expand` turns what a user named into provider ids (ranges into several) and registers each
version as a provider whose command runs the cached build; `ensure_built` builds what is
missing, with progress, and records a failed build as that provider's one-line reason, so the
rest of the run goes on.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import Provider, Registry
from cryptobench.versions import cache
from cryptobench.versions.families import FAMILIES, BuildFailed, Family, family_of
from cryptobench.versions.spec import DEFAULT_NEWEST, is_range, pick, split

EXACT = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$")  # a whole release, not a series

Log = Callable[[str], None]


def expand(registry: Registry, names: list[str], newest: int = DEFAULT_NEWEST) -> list[str]:
    """Each name as the provider ids it means: aliases made canonical, `base@spec` resolved
    against the base's registry and registered; globs and plain ids pass through."""
    out: list[str] = []
    for name in names:
        name = registry.canonical(name)
        base, spec = split(name)
        if spec is None or name in registry.providers:
            out.append(name)
            continue
        fam = family_of(base)
        if fam is None:
            if base not in registry.providers:
                raise UserError(f"unknown provider {base!r} in {name!r} (see `cryptobench list providers`)")
            served = ", ".join(sorted(b for f in FAMILIES.values() for b in f.serves))
            raise UserError(f"{base} has no versions to choose from: `@version` works for {served}")
        try:
            versions = resolve(fam, name, spec, newest)
        except UserError as e:  # no such release, a bad range, a registry down: this provider fails, in one line
            registry.add(Provider(name, base.split(":")[0], base, None, family=fam.name, version=spec))
            registry.build_errors[name] = str(e)
            out.append(name)
            continue
        for version in versions:
            pid = f"{base}@{version}"
            if pid not in registry.providers:
                registry.add(versioned_provider(registry, fam, base, version))
            out.append(pid)
    return list(dict.fromkeys(out))


def resolve(fam: Family, name: str, spec: str, newest: int) -> list[str]:
    """Pinned (built-in) versions first, so `c:openssl@3` is the pinned 3.x without a network; an
    exact release the registry serves without listing it (fam.exact); a fixed set of releases
    (fam.reachable: go:stdlib) refuses the others as `no release reachable here`."""
    pins = fam.pins()
    if pins and not is_range(spec):  # a range means the registry's releases, pinned or not
        try:
            return pick(name, spec, pins, newest)
        except UserError:
            pass
    try:
        return pick(name, spec, fam.releases(), newest)
    except UserError:
        if fam.exact is not None and EXACT.match(spec) and fam.exact(spec):
            return [spec]
        if fam.reachable is not None:
            raise UserError(f"provider {name!r}: no release reachable here ({fam.reachable()})") from None
        raise


def versioned_provider(registry: Registry, fam: Family, base: str, version: str) -> Provider:
    place = cache.folder(fam.name, version, fam.toolchain())
    st = cache.stamp(place) or {}
    plain = registry.providers.get(base)
    return Provider(
        id=f"{base}@{version}",
        language=plain.language if plain else base.split(":")[0],
        library=f"{plain.library if plain else base} {version} ({fam.source})",
        driver=None,
        command=fam.command(place, base, st),
        artifact=place / cache.STAMP,
        version=version,
        serves=st.get("serves", base),
        extra_env=tuple(fam.env(place).items()),
        family=fam.name,
    )


def ensure_built(registry: Registry, pids: list[str], log: Log) -> None:
    """Build every versioned provider among `pids` that is not built yet (one build per family
    and version, however many ids it serves). A failure is that provider's reason, not an error."""
    done: dict[Path, str | None] = {}
    for pid in pids:
        p = registry.providers.get(pid)
        if p is None or p.family is None or p.driver is not None or p.artifact is None:
            continue  # not a version build, a pinned build (its own driver), or a version that did not resolve
        place = p.artifact.parent
        if place not in done:
            done[place] = build(FAMILIES[p.family], p.version, place, log)
        if done[place]:
            registry.build_errors[pid] = done[place]
        else:  # the stamp may name the id the build serves (OpenSSL plugins carry theirs)
            registry.add(versioned_provider(registry, FAMILIES[p.family], pid.partition("@")[0], p.version))


def build(fam: Family, version: str, place: Path, log: Log, force: bool = False) -> str | None:
    """Build `fam` at `version` into `place` unless it is there; None, or why it failed (one line)."""
    with cache.locked(place):
        st, sources = cache.stamp(place), fam.sources_hash()
        if st and st.get("sources", "") == sources and not force:
            cache.touch(place)
            return None
        if st and not force:
            log(f"{fam.name} {version}: our driver's sources changed since it was built; building again")
        missing = [t for t in fam.tools if shutil.which(t) is None]
        if missing:
            return f"cannot build {fam.name} {version}: needs {', '.join(missing)} (scripts/setup.sh installs it)"
        stage = place.with_name(place.name + ".new")
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        log_file = place.with_name(place.name + ".log")
        log_file.write_text("", encoding="utf-8")
        log(f"building {fam.name} {version} ({fam.source}; log: {log_file}) ...")
        t0 = time.monotonic()
        try:
            extra = fam.build(version, stage, log_file)
        except BuildFailed as e:
            shutil.rmtree(stage, ignore_errors=True)
            return f"build of {fam.name} {version} failed: {e} (log: {log_file})"
        seconds = time.monotonic() - t0
        shutil.rmtree(place, ignore_errors=True)
        os.replace(stage, place)
        shutil.move(str(log_file), place / "build.log")
        size = cache.size_of(place)  # before the stamp: what the build itself takes
        cache.write_stamp(
            place,
            {
                "family": fam.name,
                "provides": list(fam.serves),
                "version": version,
                "toolchain": fam.toolchain(),
                "source": fam.source,
                "built_at": cache.utc(),
                "seconds": round(seconds, 1),
                "sources": sources,
                "bytes": size,
                **extra,
            },
        )
        log(f"built {fam.name} {version} in {seconds:.0f} s ({cache.human_size(size)}): {place}")
        return None
