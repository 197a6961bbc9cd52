"""What several commands do with their arguments: the registry with plugins and versions, the plan,
list flags, checked numbers, a driver's hello."""

from __future__ import annotations

import math
import os
import sys
import traceback
from pathlib import Path

from cryptobench.core.errors import DriverError, UserError
from cryptobench.core.lists import split_list
from cryptobench.core.textsafe import printable
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry
from cryptobench.plan.planner import Filters, check_suite_providers, make_plan
from cryptobench.plan.suites import load_suite, parse_chunks, with_chunks


def registry_for(args) -> Registry:
    """The providers, with the user's providers file and plugins; a plugin named is a provider named."""
    from cryptobench.verify.vectors.declared import check_files

    plugins = [p.strip() for v in getattr(args, "plugin", None) or [] for p in v.split(",") if p.strip()]
    registry = Registry(getattr(args, "providers_file", None), plugins)
    check_files()  # a declared algorithm's known-answer file that cannot be read is refused now, in one line
    if registry.plugin_ids and hasattr(args, "provider"):
        named = args.provider
        if not named and args.command in ("run", "verify"):  # something to compare the plugin with
            named = [getattr(args, "baseline", None) or "c:openssl"]
        args.provider = [*(named or []), ",".join(registry.plugin_ids)]
    return registry


def _versions(args, registry: Registry, suite) -> None:
    """`base@version` names (on the command line or in the suite) become built, registered providers;
    old ids (`c:openssl-3.6.3`) their canonical ones. Builds show progress and never stop the run."""
    from cryptobench.versions.resolve import ensure_built, expand

    newest = getattr(args, "newest", None) or 3
    if args.provider:
        names = [x.strip() for v in args.provider for x in v.split(",") if x.strip()]
        args.provider = [",".join(expand(registry, names, newest))] if names else args.provider
    for g in suite.groups:
        if g.providers:
            g.providers = expand(registry, g.providers, newest)
    named = [p for v in args.provider or [] for p in v.split(",")]
    named += [p for g in suite.groups for p in g.providers or []]
    ensure_built(registry, list(dict.fromkeys(named)), lambda line: print(f"cryptobench: {line}", file=sys.stderr))


def joined(values: list[str] | None) -> str | None:
    """Repeated list flags add up: `--alg sha256 --alg sha512` is `--alg sha256,sha512`."""
    return None if values is None else ",".join(values)


def chosen_units(args) -> list[str] | None:
    """`--unit` values in the order given, each once; an unknown one refused in one line."""
    from cryptobench.report.cells import UNIT_TITLES

    units = split_list(args.unit, "--unit")
    for u in units or []:
        if u not in UNIT_TITLES:
            raise UserError(f"--unit {u!r} is not a unit (known: {', '.join(UNIT_TITLES)})")
    return units


def check_finite(value: float | None, flag: str, low: float, high: float, unit: str) -> None:
    """NaN, infinities and values out of range are refused in one line."""
    if value is not None and not (math.isfinite(value) and low < value <= high):
        raise UserError(f"{flag} must be a number in ({low:g}, {high:g}] {unit}, not {value!r}")


def unbuilt_notice(registry: Registry, cells) -> list[str]:
    """One line per driver the plan needs but that is not built, with the command that adds it."""
    needs: dict[str, list[str]] = {}
    for pid in dict.fromkeys(p for c in cells for p in c.providers):
        ok, why = registry.usable(registry.get(pid))
        if not ok:
            needs.setdefault(why, []).append(pid)
    return [f"{', '.join(pids)}: {why}; measuring the others" for why, pids in needs.items()]


def plan_for(args, sizes: str | None, chunks=None):
    """What run, verify and leak start from: the suite (with `--chunk`'s chunks when given), its
    pinned versions, the registry, and the plan of the cells the filters select among the built
    providers."""
    registry = registry_for(args)  # first: a suite may name an algorithm a plugin declares
    suite = load_suite(args.suite)
    _versions(args, registry, suite)
    check_suite_providers(suite, list(registry.providers))
    filters = Filters.parse(args.alg, args.provider, sizes)
    if chunks:
        suite = with_chunks(suite, parse_chunks(chunks), None if sizes else 16 * 1024 * 1024)
    built = [p for p in registry.selectable(None) if registry.usable(registry.get(p))[0]]
    return suite, registry, make_plan(suite, registry.selectable(filters.providers), filters, reach=built)


def driver_hello(registry: Registry, pid: str, timeout: float = 30) -> tuple[dict | None, str]:
    p = registry.get(pid)
    ok, why = registry.usable(p)
    if not ok:
        return None, why
    try:
        d = DriverProcess(pid, p.argv(), env=registry.env_for(p))
        try:
            return d.hello(timeout=timeout), ""
        finally:
            d.close(timeout=2)
    except DriverError as e:
        return None, f"driver failed: {e}"


def guarded(handler, args) -> int:
    """A command's exit status, with what it raises turned into one line: a user's error (2), Ctrl-C
    outside a run's measuring loop (130), a closed pipe (0), a bug of ours (70)."""
    try:
        return handler(args)
    except UserError as e:
        print(f"cryptobench: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # outside a run's measuring loop: nothing measured can be lost here
        print("cryptobench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug of ours: one line, the traceback only when asked for
        if os.environ.get("CRYPTOBENCH_DEBUG"):
            raise
        where = traceback.extract_tb(e.__traceback__)[-1]
        print(
            f"cryptobench: internal error: {type(e).__name__}: {printable(e)} (at {Path(where.filename).name}:"
            f"{where.lineno}; CRYPTOBENCH_DEBUG=1 shows the traceback; please report it)",
            file=sys.stderr,
        )
        return 70
