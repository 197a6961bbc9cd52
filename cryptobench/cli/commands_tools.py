"""The commands about drivers and plugins: list, doctor, check-driver, plugin, build."""

from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
from pathlib import Path

from cryptobench.cli.commands_run import cmd_verify
from cryptobench.cli.parser import build_parser
from cryptobench.cli.shared import check_finite, driver_hello, guarded, registry_for
from cryptobench.core import algorithms, declared
from cryptobench.core.errors import UserError
from cryptobench.core.outputs import check_writable, write_atomic
from cryptobench.core.textsafe import printable
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.programs import DRIVERS
from cryptobench.drivers.registry import Registry
from cryptobench.plan.planner import Filters
from cryptobench.plan.suites import list_suites
from cryptobench.verify.vectors import default_vectors_dir


def cmd_list(args) -> int:
    if args.what == "algorithms":
        from collections import Counter

        from cryptobench.verify.vectors import cases_for, source_of
        from cryptobench.verify.vectors.acvp import acvp_folder_counts
        from cryptobench.verify.vectors.monte import describe as monte_chain
        from cryptobench.verify.vectors.pqc_kat import kat_file_counts

        if getattr(args, "plugin", None) or getattr(args, "providers_file", None):
            registry_for(args)  # what their plugins and drivers declare joins the catalogue
        for a in algorithms.ALGORITHMS.values():
            cases = cases_for(a.name)
            sources = Counter(source_of(c) for c in cases)
            known = ", ".join(f"{src} {n}" for src, n in sources.most_common()) or "none"
            acvp = acvp_folder_counts(cases)
            folders = ", ".join(f"{f} {n}" for f, n in acvp.items())
            print(f"{a.name:<20} {a.kind:<8} ops: {', '.join(a.ops)}")
            if declared.declared_by(a.name):  # an algorithm of their own, not the catalogue's
                print(f"{'':<20} {declared.mark(a.name)}")
            print(f"{'':<20} known answers: {known}")
            print(f"{'':<20} ACVP: {sum(acvp.values())} ({folders})" if acvp else f"{'':<20} ACVP: none")
            if chain := monte_chain(a.name):  # a Monte Carlo test is one chain, not its 100,000 hashes
                print(f"{'':<20} Monte Carlo: {chain}")
            if kat := kat_file_counts(cases):  # Falcon, HQC: the submissions' KAT files
                print(f"{'':<20} NIST KAT: {sum(kat.values())} ({', '.join(f'{f} {n}' for f, n in kat.items())})")
        return 0
    if args.what == "suites":
        for s in list_suites():
            print(f"{s.name:<14} {s.description}  ({s.path.name})")
        return 0
    named = args.provider  # before registry_for adds the plugins' ids: without --provider, every provider
    registry = registry_for(args)
    everything = [a for a in algorithms.ALGORITHMS if a != "noop"]
    listed = list(registry.providers) if named is None else _chosen(registry, named)
    for pid in listed:
        p = registry.get(pid)
        hello, why = driver_hello(registry, pid)
        if hello is None:
            print(printable(f"{pid}") + f"\n  {printable(p.library)} — unavailable: {printable(why)}\n")
            continue
        offers = hello.get("offers", {})
        algs = [f"{a} ({'/'.join(map(str, offers[a]))})" for a in offers if a != "noop"]
        missing = [a for a in everything if a not in offers]
        # every field below is the driver's (or a providers file's): shown, never obeyed by the terminal
        lines = [
            pid,
            f"  language: {hello.get('language', p.language)}  library: {hello.get('library', p.library)}",
            f"  version:  {hello.get('library_version', '?')}",
            f"  runtime:  {hello.get('runtime', '?')}",
            f"  offers:   {', '.join(algs)}",
            f"  streaming: {', '.join(map(str, hello.get('stream', []))) or 'none'}",
            f"  not offered: {', '.join(missing) or 'none'}",
        ]
        print("\n".join(printable(line) for line in lines) + "\n")
    return 0


def _chosen(registry: Registry, provider_args: list[str] | None) -> list[str]:
    """The providers `--provider` globs name (every visible one without it); a glob naming none is
    refused in one line."""
    globs = Filters.parse(None, provider_args, None).providers
    chosen = registry.selectable(globs)
    if globs is None:
        return chosen
    for g in globs:
        if not any(fnmatch.fnmatchcase(pid, g) for pid in chosen):
            raise UserError(f"--provider {g!r} matches no provider (see `cryptobench list providers`)")
    return [pid for pid in chosen if any(fnmatch.fnmatchcase(pid, g) for g in globs)]


def cmd_doctor(args) -> int:
    registry = registry_for(args)
    bad = 0
    print("drivers:")
    for d in DRIVERS.values():
        ps = [p for p in registry.providers.values() if p.driver == d.name]
        missing = [p for p in ps if p.artifact is not None and not p.artifact.exists()]
        state = f"NOT BUILT ({len(missing)} of {len(ps)} providers) — fix: {d.fix}" if missing else "built"
        print(f"  {d.name:<17} {state}")
    print("providers:")
    optional = 0
    for pid, p in registry.providers.items():
        hello, why = driver_hello(registry, pid)
        d = registry.driver_of(p)
        if hello:
            print(f"  {pid:<22} ok   {printable(hello.get('library_version', ''))}")
        elif d is not None and d.heavy and p.artifact is not None and not p.artifact.exists():
            optional += 1  # `build --all` builds them, minutes each: not a fault of this machine
            print(f"  {pid:<22} not built (optional): {why}")
        else:
            bad += 1
            print(f"  {pid:<22} FAIL {printable(why)}")
    vdir = default_vectors_dir()
    print(f"vectors: {vdir} ({'found' if vdir.is_dir() else 'MISSING'})")
    bad += not vdir.is_dir()
    skipped = f" ({optional} optional not built)" if optional else ""
    print(f"doctor: {f'{bad} problems, fixes above: exit 1' if bad else 'ok'}{skipped}")
    return 1 if bad else 0


def cmd_check_driver(args) -> int:

    from cryptobench.verify import driver_rules as drivercheck

    check_finite(args.timeout, "--timeout", 0, 86400, "seconds")
    check_writable([("--json", args.json)])
    registry = registry_for(args)
    globs = Filters.parse(None, args.provider, None).providers
    chosen = _chosen(registry, args.provider)
    found: dict[str, list] = {}
    for pid in chosen:
        p = registry.get(pid)
        ok, why = registry.usable(p)
        if not ok:
            if globs is not None:  # named: used or refused in one line
                print(f"{pid:<26} not checked: {why}")
            continue
        found[pid] = _check_rules(registry, pid, args.timeout)
    if not found:
        raise UserError("no built provider to check (`cryptobench doctor` says what to build)")
    if args.json:
        doc = {pid: [{"rule": v.rule, "message": v.message} for v in vs] for pid, vs in found.items()}
        write_atomic(args.json, json.dumps({"rules": {k: d for k, (_, d) in drivercheck.RULES.items()},
                                            "providers": doc}, indent=2) + "\n")  # fmt: skip
    return 1 if any(found.values()) else 0


def _check_rules(registry: Registry, pid: str, timeout: float, algs: set[str] | None = None) -> list:
    """check-driver's rules on one provider's driver (of `algs`' cells only, when given), each broken
    one printed under a line naming how many: what check-driver and plugin check print alike."""
    from cryptobench.verify import driver_rules as drivercheck

    p = registry.get(pid)
    start = lambda: DriverProcess(p.id, p.argv(), env=registry.env_for(p))  # noqa: E731
    found = drivercheck.check(p.driver_id, start, timeout, algs=algs)  # the id its hello must name
    broken = len({v.rule for v in found})
    print(printable(f"{pid:<26} {f'{broken} of {len(drivercheck.RULES)} rules broken' if found else 'ok'}"))
    for v in found:
        print(f"  {printable(str(v))}")
    return found


def cmd_plugin(args) -> int:
    from cryptobench.drivers import plugin_new

    if args.action == "new":
        files, check = plugin_new.new(args.target, args.lang, Path(args.dir or args.target))
        for path in files:
            print(f"wrote {path}")
        print(f"next: {check}")
        return 0
    return _plugin_check(args)


def _plugin_check(args) -> int:
    """verify beside c:openssl, then the driver rules on the plugin's cells, then one verdict line, last."""
    import contextlib
    import io
    import tempfile

    from cryptobench.verify import plugin_check

    check_finite(args.timeout, "--timeout", 0, 86400, "seconds")
    registry = Registry(plugins=[args.target], load_timeout=args.timeout)  # one line when it cannot be loaded
    pid = registry.plugin_ids[0]
    hello, why = driver_hello(registry, pid, args.timeout)
    if hello is None:
        raise UserError(f"plugin {args.target}: {why}")
    offered = [a for a in hello.get("offers", {}) if a != "noop"]
    globs = [g.strip() for v in args.alg or [] for g in v.split(",") if g.strip()]
    algs = plugin_check.chosen(pid, offered, globs)
    # the hello's words are the plugin's: printed as text (the driver client escapes them too)
    print(printable(f"{pid}: {hello.get('library_version')}; checking {', '.join(algs)}"))
    with tempfile.TemporaryDirectory(prefix="cryptobench-check-") as tmp:
        out, shown = Path(tmp) / "verify.json", io.StringIO()
        with contextlib.redirect_stderr(shown):  # all but its "wrote" line of a file nobody asked for
            verify = build_parser().parse_args(
                [
                    "verify",
                    "--plugin",
                    args.target,
                    "--timeout",
                    str(args.timeout),
                    "--provider",
                    "c:openssl",
                    "--alg",
                    ",".join(algs),
                    "--quiet",
                    "--json",
                    str(out),
                    *(["--db", args.db] if args.db else []),
                ]
            )
            verified = guarded(cmd_verify, verify)  # fmt: skip
        said = shown.getvalue().splitlines(True)
        print("".join(line for line in said if line != f"wrote {out}\n"), end="", file=sys.stderr)
        if verified == 130:
            return 130
        results = json.loads(out.read_text())["results"] if out.exists() else None
    results = [r for r in results if r.get("provider") == pid] if results is not None else None
    found = _check_rules(registry, pid, args.timeout, set(algs))
    passed, line = plugin_check.verdict(pid, algs, results, found)
    print(printable(line))
    return 0 if passed else 1


def cmd_build(args) -> int:
    import shutil
    import time

    from cryptobench.versions import commands as version_builds

    registry = Registry()
    if args.list:
        return version_builds.list_builds(args.json)
    if args.prune:
        return version_builds.prune(args.drivers, args.unused_for)
    if args.json or args.unused_for is not None:
        raise UserError("--json goes with --list, --unused-for with --prune")
    versioned = [n for n in args.drivers if "@" in n and n not in registry.providers]
    if versioned:
        failed, pinned = version_builds.build_named(registry, versioned, args.newest, args.rebuild)
        rest = [n for n in args.drivers if n not in versioned] + pinned
        if not rest:
            return failed
        return max(failed, cmd_build(argparse.Namespace(**{**vars(args), "drivers": rest})))
    names = [registry.canonical(n) for n in args.drivers] or [n for n, d in DRIVERS.items() if not d.heavy or args.all]
    targets: list[tuple[str, str | None]] = []  # (driver, one provider of it or None for all)
    for n in names:
        if n in DRIVERS:
            targets.append((n, None))
        elif n in registry.providers and registry.providers[n].driver in DRIVERS:
            targets.append((registry.providers[n].driver, n))
        else:
            raise UserError(
                f"unknown driver {n!r} (known: {', '.join(DRIVERS)}, or a provider id such as c:openssl-4.0)"
            )
    failed = 0
    for n, one in targets:
        d = DRIVERS[n]
        ps = [p for p in registry.providers.values() if p.driver == n and one in (None, p.id)]
        if not d.build:
            print(f"{n:<17} ok (interpreted, nothing to build)")
            continue
        missing_tools = [t for t in d.tools if shutil.which(t) is None]
        if missing_tools:
            failed += 1
            print(f"{n:<17} FAILED: needs {', '.join(missing_tools)}, not installed (run scripts/setup.sh)")
            continue
        command = d.command_for(registry.get(one).driver_id if one else None)  # pins: the id built in
        print(f"{n:<17} building: {' '.join(command)}", flush=True)
        t0 = time.monotonic()
        try:
            res = subprocess.run(command, cwd=d.directory, capture_output=True, text=True, timeout=3600)
        except (FileNotFoundError, subprocess.TimeoutExpired) as e:
            failed += 1
            print(f"{n:<17} FAILED: {e}")
            continue
        took = time.monotonic() - t0
        broken = [p.id for p in ps if p.artifact is not None and not p.artifact.exists()]
        if res.returncode != 0 or broken:
            failed += 1
            tail = [line for line in (res.stderr or res.stdout).splitlines() if line.strip()][-3:]
            usable = [p.id for p in ps if p.id not in broken]
            print(f"{n:<17} FAILED (exit {res.returncode}, {took:.0f} s): " + " | ".join(tail))
            if usable:
                print(f"{'':<17} still usable: {', '.join(usable)}; not built: {', '.join(broken) or 'none'}")
        else:
            print(f"{n:<17} ok ({took:.0f} s): {', '.join(p.id for p in ps)}")
    return 1 if failed else 0
