"""The versions layout: per provider and algorithm, its releases across (oldest first) and the
change from each release to the next, with the 95% interval of that speed ratio and a verdict.

One table shape for every format (terminal, Markdown, HTML), and the
data of the HTML chart of speed against version. Releases are the run's `base@version` providers
(docs/versions.md); a provider with fewer than two in the run has no versions table.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.analysis import stats
from cryptobench.report.cells import size_label
from cryptobench.report.model import Report, Row, within_run_ratio
from cryptobench.versions.spec import key as version_key


@dataclass
class VersionTable:
    base: str  # python:cryptography
    alg: str
    versions: list[str]  # provider ids, oldest release first
    headers: list[str]
    rows: list[list[str]]
    keys: list[tuple[str, int, int]]  # (op, size, chunk) of each row
    cells: list[list[Row | None]]  # the measured row per version, per table row
    changes: list[list[tuple[stats.Ratio, str] | None]]  # per table row: each release against the one before


NO_RELEASES = ("versions layout: no provider has two releases in this run (name them as NAME@VERSION, "
               "docs/versions.md); showing the table layout")  # fmt: skip


def versions_title(vt: VersionTable) -> str:
    return f"{vt.base} — {vt.alg}: releases, oldest first (speed ±95% CI; newer vs older speed [95% CI], verdict)"


def release_groups(rep: Report) -> list[tuple[str, list[str]]]:
    """(base id, its `base@version` providers oldest first) for bases with two or more releases."""
    by_base: dict[str, list[str]] = {}
    for pid in dict.fromkeys(r.provider for r in rep.rows):
        base, at, version = pid.partition("@")
        if at and version_key(version) is not None:
            by_base.setdefault(base, []).append(pid)
    return [
        (base, sorted(pids, key=lambda p: version_key(p.partition("@")[2])))
        for base, pids in sorted(by_base.items())
        if len(pids) >= 2
    ]


def _value(r: Row | None) -> str:
    if r is None:
        return ""
    if not r.ok:
        return "not offered" if r.cell.status == "not-offered" else "FAILED"
    ci = f" ±{r.summary.ci_rel_halfwidth * 100:.1f}%"
    if r.public_key or not r.cell.size:
        return f"{r.ops_per_s():,.0f} ops/s{ci}"
    return f"{r.mb_per_s():,.1f} MB/s{ci}"


def change_text(change: tuple[stats.Ratio, str] | None) -> str:
    """'1.12x [1.08-1.16] faster': the newer release's speed over the older one's."""
    if change is None:
        return ""
    ratio, verdict = change
    sp = ratio.speedup
    return f"{sp[0]:.2f}x [{sp[1]:.2f}-{sp[2]:.2f}] {verdict}"


def _change(old: Row | None, new: Row | None, noise: float) -> tuple[stats.Ratio, str] | None:
    if old is None or new is None or not old.ok or not new.ok:
        return None
    r = within_run_ratio(new, old)  # releases of one run: paired when they took turns batch for batch
    return r, stats.verdict(r, noise)


def version_tables(rep: Report) -> list[VersionTable]:
    out = []
    for base, pids in release_groups(rep):
        versions = [p.partition("@")[2] for p in pids]
        for alg in dict.fromkeys(t.alg for t in rep.tables):
            by_key: dict[tuple[str, int, int], dict[str, Row]] = {}
            for t in rep.tables:
                if t.alg != alg:
                    continue
                for r in t.rows:
                    if r.provider in pids:
                        by_key.setdefault((t.op, r.cell.size, r.cell.chunk), {})[r.provider] = r
            if not any(r.ok for d in by_key.values() for r in d.values()):
                continue
            headers = ["operation", "size", versions[0]]
            for a, b in zip(versions, versions[1:], strict=False):
                headers += [f"{a} → {b}", b]
            rows, cells, changes = [], [], []
            for k, d in by_key.items():
                measured = [d.get(p) for p in pids]
                steps = [_change(a, b, rep.noise) for a, b in zip(measured, measured[1:], strict=False)]
                any_row = next(r for r in measured if r is not None)
                row = [k[0], size_label(any_row) if k[1] else "-", _value(measured[0])]
                for step, r in zip(steps, measured[1:], strict=False):
                    row += [change_text(step), _value(r)]
                rows.append(row)
                cells.append(measured)
                changes.append(steps)
            out.append(VersionTable(base, alg, pids, headers, rows, list(by_key), cells, changes))
    return out


def release_lines(vt: VersionTable) -> list[tuple[str, bool, list[tuple[int, Row]]]]:
    """One chart line per (operation, size): its label, whether it is rated per operation (ops/s)
    rather than per byte (MB/s), and its measured rows by release index."""
    lines = []
    for k, measured in zip(vt.keys, vt.cells, strict=False):
        rows = [(i, r) for i, r in enumerate(measured) if r is not None and r.ok]
        if rows:
            first = rows[0][1]
            label = f"{k[0]} {size_label(first)}" if k[1] else k[0]
            lines.append((label, first.public_key or not first.cell.size, rows))
    return lines
