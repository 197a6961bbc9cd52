"""The instructions/op table of a run (`--metric instructions`), shared by every format: its own
section, never mixed with the time tables. Its header says what counted and which CPU features the
count saw (valgrind hides some, so a library may have run other code than it does natively)."""

from __future__ import annotations

from cryptobench.core.units import format_size
from cryptobench.icount.cpu import summary

TITLE = "Instructions per operation"
HEADERS = ["provider", "cell", "instructions/op", "instructions/byte", "two counts", "status"]
CSV_COLUMNS = ["metric", "instructions_per_op", "instructions_counts"]


def _cell(r: dict) -> str:
    where = f" {format_size(r['size'])}" if r["size"] else ""
    where += f" in {format_size(r['chunk'])} chunks" if r["chunk"] else ""
    return f"{r['alg']} {r['op']}{where}"


def _count(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


def notes(record: dict) -> list[str]:
    """The lines above the table: the counter, why not the hardware counter, the CPU features seen."""
    method = record.get("method") or "none"
    lines = [f"Counted with {record.get('tool') or method}: instructions of the driver's timed region, "
             f"(count(2N) - count(N)) / N, twice in fresh processes; 'same' within "
             f"{record.get('tolerance', 1e-4):.2%}. Not a time: a library's cost on this CPU model, "
             "deterministic on a busy machine."]  # fmt: skip
    if method != "perf" and record.get("why_not_perf"):
        lines.append(f"Not hardware counters: {record['why_not_perf']}.")
    cpu = summary(record.get("cpu") or {})
    if cpu:
        lines.append(cpu + ".")
    return lines


def rows(record: dict) -> list[list[str]]:
    """One row per counted cell; cells a provider cannot count for one reason share a row."""
    out, said = [], {}
    for r in record.get("records", []):
        if r.get("per_op") is None:
            key = (r["provider"], r["status"], r["detail"])
            if key in said:
                said[key][0] += 1
                out[said[key][1]][1] = f"{said[key][0]} cells"
            else:
                said[key] = [1, len(out)]
                out.append([r["provider"], _cell(r), "", "", "", f"{r['status']}: {r['detail']}"])
            continue
        per_byte = f"{r['per_op'] / r['size']:.2f}" if r["size"] else ""
        counts = " / ".join(_count(c) for c in r["counts"])
        status = r["status"] + (f": {r['detail']}" if r["detail"] else "")
        out.append([r["provider"], _cell(r), _count(r["per_op"]), per_byte, counts, status])
    return out


def csv_rows(record: dict) -> list[dict]:
    """One CSV row per counted cell, beside the time rows (`metric` tells them apart)."""
    out = []
    for r in record.get("records", []):
        out.append({"metric": "instructions", "provider": r["provider"], "alg": r["alg"], "op": r["op"],
                    "size": r["size"], "chunk": r["chunk"], "status": r["status"], "reason": r["detail"],
                    "batch": r.get("batch"), "instructions_per_op": r.get("per_op"),
                    "instructions_counts": " ".join(str(c) for c in r.get("counts", []))})  # fmt: skip
    return out
