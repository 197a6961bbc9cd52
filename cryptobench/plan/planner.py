"""From a suite and the user's filters to the list of cells to measure.

A cell is (algorithm, operation, size, chunk) with the providers that will be
timed on it side by side; the runner interleaves those providers.

A suite is a default, not a cage. What a user names on the command line is measured or
refused in one line, never dropped:
- `--alg`/`--provider` patterns that match something in the suite narrow it to that; a pattern
  that matches nothing in the suite reaches the whole catalogue (`--alg aes-256-ctr` on the default
  suite measures AES-256-CTR), and a provider the suite does not list joins every group.
- `--size` values that are sizes (`8KiB`) are the sizes measured, whether the suite lists them or
  not; globs (`*KiB`) pick among the suite's sizes. Groups of operations that take no message
  (key generation, handshakes: size 0) keep their size.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from cryptobench.core import algorithms
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import UserError
from cryptobench.core.lists import is_glob, split_list
from cryptobench.core.units import format_size, parse_size
from cryptobench.plan.suites import Group, Suite


@dataclass
class Filters:
    algs: list[str] | None = None
    providers: list[str] | None = None
    sizes: list[str] | None = None

    @staticmethod
    def parse(alg: str | list[str] | None, provider: str | list[str] | None, size: str | list[str] | None) -> Filters:
        """Each filter is a comma-separated list, or several of them (repeated flags add up)."""
        return Filters(split_list(alg, "--alg"), split_list(provider, "--provider"), split_list(size, "--size"))

    @property
    def exact_sizes(self) -> list[int]:
        return list(dict.fromkeys(parse_size(s) for s in self.sizes or [] if not is_glob(s)))

    @property
    def size_globs(self) -> list[str]:
        return [s for s in self.sizes or [] if is_glob(s)]


def _match(name: str, globs: list[str] | None) -> bool:
    return globs is None or any(fnmatch.fnmatchcase(name, g) for g in globs)


def _size_glob_match(size: int, globs: list[str]) -> bool:
    label = format_size(size).replace(" ", "")
    return any(fnmatch.fnmatchcase(label, g.replace(" ", "")) for g in globs)


@dataclass
class Plan:
    cells: list[CellSpec]
    skipped: list[str] = field(default_factory=list)  # what was named but cannot be measured, and why


def _narrow_or_reach(patterns: list[str] | None, in_suite: list[str], universe: list[str]) -> list[str] | None:
    """Names the patterns select: within the suite where a pattern matches there, else from the universe."""
    if patterns is None:
        return None
    out: list[str] = []
    for p in patterns:
        here = [x for x in in_suite if fnmatch.fnmatchcase(x, p)]
        out += here or [x for x in universe if fnmatch.fnmatchcase(x, p)]
    return list(dict.fromkeys(out))


def check_suite_providers(suite: Suite, known: list[str]) -> None:
    """A suite naming a provider nobody knows is a mistake in the suite, said in one line."""
    for g in suite.groups:
        for p in g.providers or []:
            if not any(fnmatch.fnmatchcase(k, p) for k in known):
                lines = suite.text.splitlines()
                at = next((i for i, line in enumerate(lines, 1) if f'"{p}"' in line or f"'{p}'" in line), None)
                raise UserError(
                    f"{suite.path}:{at or '?'}: provider {p!r} is unknown "
                    "(see `cryptobench list providers`; add your own with --providers-file)"
                )


def plan(
    suite: Suite,
    providers: list[str],
    filters: Filters,
    reach: list[str] | None = None,
) -> list[CellSpec]:
    return make_plan(suite, providers, filters, reach).cells


def make_plan(
    suite: Suite,
    providers: list[str],
    filters: Filters,
    reach: list[str] | None = None,
) -> Plan:
    """Cells in suite order, then cells the user asked for beyond the suite.

    `providers`: every provider the user may select; `reach`: the built ones (default: `providers`).
    When the user names no provider, `reach` is who is timed on algorithms the suite does not list and
    in the suite's groups that name no provider ("every provider" means every built one: a provider
    not built here would only fill those groups with failed cells); a group that names providers keeps
    them, built or not, and the run says in one line which are not built.
    """
    catalogue = [a for a in algorithms.ALGORITHMS if a != "noop"]
    for globs, universe, what in (
        (filters.algs, list(algorithms.ALGORITHMS), "algorithm"),
        (filters.providers, providers, "provider"),
    ):
        for g in globs or []:
            if not any(fnmatch.fnmatchcase(x, g) for x in universe):
                raise UserError(f"unknown {what} {g!r}: it matches nothing (see `cryptobench list {what}s`)")
    suite_algs = list(dict.fromkeys(a for g in suite.groups for a in g.algs))
    chosen_algs = _narrow_or_reach(
        filters.algs, suite_algs, catalogue + (["noop"] if "noop" in (filters.algs or []) else [])
    )
    suite_providers = [p for p in providers if any(_match(p, g.providers) for g in suite.groups)]
    chosen_providers = _narrow_or_reach(filters.providers, suite_providers, providers)

    cells: dict[tuple, CellSpec] = {}
    skipped: list[str] = []

    def add(g: Group, alg: str, group_providers: list[str]) -> None:
        if not group_providers:
            return
        ops = [o for o in algorithms.get(alg).ops if g.ops is None or o in g.ops]
        for op in ops:
            for size in _sizes_for(g, alg, filters, skipped):
                for chunk in g.chunks:
                    key = (alg, op, size, chunk)
                    if key not in cells:
                        cells[key] = CellSpec(alg, op, size, chunk, tuple(group_providers), g.time_per_cell)

    for g in suite.groups:
        in_group = [p for p in providers if _match(p, g.providers)]
        if chosen_providers is None:
            group_providers = in_group if g.providers is not None or reach is None else [
                p for p in in_group if p in reach]  # fmt: skip
        else:  # narrowed by the user's patterns; providers they reach beyond the suite join every group
            group_providers = [
                p for p in providers if p in chosen_providers and (p in in_group or p not in suite_providers)
            ]
        for alg in g.algs:
            if chosen_algs is None or alg in chosen_algs:
                add(g, alg, group_providers)

    extra = [a for a in chosen_algs or [] if a not in suite_algs]
    if extra:
        sizes = [parse_size(s) for s in ["64B", "1KiB", "16KiB", "1MiB"]]
        beyond = chosen_providers if chosen_providers is not None else list(reach if reach is not None else providers)
        for alg in extra:
            a = algorithms.get(alg)
            g = Group([alg], None, [0] if a.per_operation or alg == "noop" else sizes, [0], None)
            add(g, alg, beyond)

    if not cells:
        why = "; ".join(skipped) if skipped else "check --alg, --provider, --size"
        raise UserError(f"nothing to measure: the suite and filters leave no cell ({why})")
    return Plan(list(cells.values()), list(dict.fromkeys(skipped)))


def _sizes_for(g: Group, alg: str, filters: Filters, skipped: list[str]) -> list[int]:
    """The group's sizes after the user's --size: exact sizes replace them, globs pick among them."""
    if filters.sizes is None or all(s == 0 for s in g.sizes):
        return list(g.sizes)  # no --size, or an operation that takes no message
    picked = [s for s in g.sizes if _size_glob_match(s, filters.size_globs)]
    out = list(dict.fromkeys(picked + filters.exact_sizes))
    block = algorithms.get(alg).block
    fitting = [s for s in out if s % block == 0]
    for s in out:
        if s % block:
            skipped.append(f"{alg} at {format_size(s)}: not a multiple of its {block}-byte block")
    return fitting
