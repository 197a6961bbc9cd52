"""The web layout (`--layout web`, suites/web.toml, issue 36): before the MB/s matrix, the two tables a
web team reads first. Pure: it lays out what report/model.py computed and adds no statistic of its own
beyond ratios made the way the model makes them (within_run_ratio: paired when the cell was).

1. The wasm/native ratio per engine: per mode, direction and size, each engine's speed over native
   OpenSSL's (the baseline, with AES-NI) and over native OpenSSL without AES-NI (the fair twin: the
   wasm build has no hardware AES), with 95% intervals.
2. Peak memory per engine at its largest message: the resident-set peak of that cell alone, the same
   driver's peak at 1 KiB beside it (so "bounded" is read off the difference), and for the wasm engines
   the module's linear memory as the driver reports it.
"""

from __future__ import annotations

from cryptobench.core.units import format_size
from cryptobench.report.cells import size_label
from cryptobench.report.model import Report, Row, within_run_ratio
from cryptobench.report.row_figures import ONE_SAMPLE, peak_kb, single

# the same .wasm on three engines (docs/wasm.md), and what each one's memory figure is
ENGINES = (
    ("wasm:openssl-wasmtime", "wasmtime"),
    ("wasm:openssl-node", "Node"),
    ("browser:openssl-wasm", "Chromium"),
)
FAIR = "c:openssl-no-aesni@3.6.3"  # native OpenSSL 3.6.3 with AES-NI and VAES masked off
WHAT_MEMORY = {
    "wasm:openssl-wasmtime": "the launcher process: Python, wasmtime and the module's linear memory",
    "wasm:openssl-node": "the node process: V8's heap and the module's linear memory",
}
RENDERER = ("the Chromium renderer running the page{worker}, as the bridge reads it (its VmHWM, reset before each "
            "request); the browser's own processes (browser, GPU, network: {tree} at most) are not counted")  # fmt: skip
DEFAULT_WHAT = "the driver process"
BOUNDED = 0.25  # a streamed message whose peak grew by less than this share of its size: bounded

RATIO_TITLE = "WebAssembly vs native, per engine"
MEMORY_TITLE = "Peak memory per engine at its largest message"


def present(rep: Report) -> bool:
    return any(r.provider in dict(ENGINES) for r in rep.rows)


def _speed(row: Row | None, ref: Row | None) -> str:
    """row's speed over ref's (above 1x: faster) with its 95% interval; n=1 says so."""
    if row is None or ref is None:
        return ""
    if not row.ok:
        return "not offered" if row.cell.status == "not-offered" else "FAILED"
    if not ref.ok:
        return "-"
    r = within_run_ratio(row, ref)
    x, lo, hi = r.speedup
    if single(row) or single(ref):
        return f"{x:.3g}x ({ONE_SAMPLE})"
    return f"{x:.3g}x [{lo:.3g}-{hi:.3g}]"  # three significant digits: wasm is 0.001x to 1x of native


def _mbs(row: Row | None) -> str:
    if row is None:
        return ""
    if not row.ok:
        return "not offered" if row.cell.status == "not-offered" else "FAILED"
    spread = "n=1" if single(row) else f"±{row.summary.ci_rel_halfwidth * 100:.1f}%"
    return f"{row.mb_per_s():,.1f} {spread}"


def ratio_table(rep: Report) -> tuple[list[str], list[list[str]]]:
    """One row per cell an engine has: native MB/s, no-AES-NI's speed over native, and each engine's
    speed over native and over no-AES-NI."""
    engines = [(pid, name) for pid, name in ENGINES if any(r.provider == pid for r in rep.rows)]
    fair = any(r.provider == FAIR for r in rep.rows)
    headers = ["cell", f"native {rep.baseline} MB/s"]
    if fair:
        headers.append("no AES-NI vs native")
    for _pid, name in engines:
        headers.append(f"{name} vs native")
        if fair:
            headers.append(f"{name} vs no AES-NI")
    rows = []
    for t in rep.tables:
        by_cell: dict[tuple[int, int], dict[str, Row]] = {}
        for r in t.rows:
            by_cell.setdefault((r.cell.size, r.cell.chunk), {})[r.provider] = r
        for _key, d in sorted(by_cell.items()):
            if not any(pid in d for pid, _ in engines):
                continue
            native, plain = d.get(rep.baseline), d.get(FAIR)
            any_row = next(iter(d.values()))
            row = [f"{t.alg} {t.op} {size_label(any_row)}", _mbs(native)]
            if fair:
                row.append(_speed(plain, native))
            for pid, _name in engines:
                row.append(_speed(d.get(pid), native))
                if fair:
                    row.append(_speed(d.get(pid), plain))
            rows.append(row)
    return headers, rows


def ratio_notes(rep: Report) -> list[str]:
    return [
        f"Speed of each engine over native OpenSSL (`{rep.baseline}`, with AES-NI) and over native OpenSSL "
        f"without AES-NI (`{FAIR}`, OPENSSL_ia32cap masking AES-NI and VAES), in the same run and cells: "
        "below 1x is slower. 95% intervals, paired where the cell was measured in pair rounds; n=1: a message "
        "so long that one operation outlasted five budgets was measured once, and has no interval.",
        "The wasm figure is OpenSSL's portable C code: the module is built no-asm for wasm32 without SIMD "
        "(no AES-NI, no PCLMULQDQ, no vector unit), so AES is table-based and GHASH a 4-bit table (docs/wasm.md). "
        "Native without AES-NI is the fairer twin but not the same code: it still runs OpenSSL's assembly "
        "(vector-permute AES with SSSE3, PCLMULQDQ GHASH), so the engine's own cost lies between the two ratios.",
    ]


def _largest(rows: list[Row]) -> Row | None:
    ok = [r for r in rows if r.ok]
    return max(ok, key=lambda r: (r.cell.size, r.cell.op in ("seal", "encrypt"))) if ok else None


def memory_table(rep: Report) -> tuple[list[str], list[list[str]]]:
    """Per provider with a message of 64 MiB or more: its largest such cell's peak, its 1 KiB peak, the
    difference against the message's size, the wasm module's linear memory, and what was measured."""
    headers = ["provider", "largest cell", "peak RSS", "peak at 1 KiB", "grew by", "linear memory (wasm)",
               "bounded?", "what is measured"]  # fmt: skip
    by_provider: dict[str, list[Row]] = {}
    for r in rep.rows:
        by_provider.setdefault(r.provider, []).append(r)
    order = [rep.baseline] + sorted(p for p in by_provider if p != rep.baseline)
    rows = []
    for pid in order:
        mine = by_provider.get(pid, [])
        big = _largest([r for r in mine if r.cell.size >= 64 * 1024 * 1024 and peak_kb(r)])
        if big is None:
            continue
        small = [peak_kb(r) for r in mine if r.ok and r.cell.size == 1024 and peak_kb(r)]
        base_kb = min(small) if small else 0
        peak_mb = peak_kb(big) / 1024
        grew = (peak_kb(big) - base_kb) * 1024 if base_kb else None
        linear = big.cell.extra.get("driver_peak_kb") if pid.startswith("wasm:") else None
        if pid.startswith("browser:"):
            worker = " and its Web Worker" if pid == "browser:openssl-wasm" else ""
            what = RENDERER.format(worker=worker, tree=f"{big.cell.peak_rss_kb / 1024:,.0f} MiB")
        else:
            what = WHAT_MEMORY.get(pid, DEFAULT_WHAT)
        if grew is None:
            verdict = "?"
        elif grew < BOUNDED * big.cell.size:
            verdict = "bounded" if big.cell.chunk else "bounded (one-shot)"
        else:
            verdict = "holds the message"
        rows.append([
            pid,
            f"{big.cell.alg} {big.cell.op} {size_label(big)}",
            f"{peak_mb:,.0f} MiB",
            f"{base_kb / 1024:,.0f} MiB" if base_kb else "-",
            f"{grew / 1048576:+,.0f} MiB ({grew / big.cell.size:.0%} of {format_size(big.cell.size)})"
            if grew is not None else "-",
            f"{linear / 1024:,.0f} MiB" if isinstance(linear, int) and linear > 0 else "-",
            verdict,
            what,
        ])  # fmt: skip
    return headers, rows


def memory_notes() -> list[str]:
    return [
        "Peak RSS: the largest VmHWM among the driver's processes, reset before each request and read after it "
        "(cryptobench/measure/memory.py), so it is that cell's alone: the largest request of the cell. Bounded: "
        f"it grew by less than {BOUNDED:.0%} of the message over the same driver's peak at 1 KiB.",
        "Linear memory: what the wasm driver reports, the module's memory.size (it never shrinks, so it is the "
        "module's peak over the driver process's life so far); wasmtime's and V8's own heaps are in the RSS, "
        "not in it. Chromium's figure is the renderer's peak resident set, which holds the page, V8, the worker "
        "and the module together (the bridge reads it; the browser process, larger and idle, is not it).",
    ]


def sections(rep: Report) -> list[tuple[str, list[str], list[str], list[list[str]]]]:
    """(title, notes, headers, rows) of each web table this run has."""
    out = []
    if present(rep):
        h, rows = ratio_table(rep)
        if rows:
            out.append((RATIO_TITLE, ratio_notes(rep), h, rows))
    h, rows = memory_table(rep)
    if rows:
        out.append((MEMORY_TITLE, memory_notes(), h, rows))
    return out
