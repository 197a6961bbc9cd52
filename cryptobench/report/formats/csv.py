"""CSV export: one row per provider and cell, statistics flattened."""

from __future__ import annotations

import csv
import io

from cryptobench.icount.report import CSV_COLUMNS, csv_rows
from cryptobench.report.records import to_dict

COLUMNS = [
    "provider", "alg", "declared_by", "op", "size", "chunk", "status", "reason", "n", "median_ns", "mean_ns", "stddev_ns",
    "min_ns", "max_ns", "cv", "ci95_low_ns", "ci95_high_ns", "mb_per_s", "ops_per_s", "baseline",
    "speedup", "speedup_ci95_low", "speedup_ci95_high", "verdict", "estimator", "pairs", "checksum", "output_bytes", "checksum_mismatch", "batch",
    "peak_rss_kb", *CSV_COLUMNS,  # metric: time, or instructions (icount/report.py)
]  # fmt: skip


def render(rep) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for c in to_dict(rep)["cells"]:
        row = {k: c.get(k) for k in COLUMNS} | {"metric": "time", "declared_by": " ".join(c["declared_by"])}
        row.update(c["stats"] or {})
        vs = c["vs_baseline"]
        if vs:
            row.update(
                baseline=vs["baseline"],
                speedup=vs["speedup"],
                speedup_ci95_low=vs["speedup_ci95"][0],
                speedup_ci95_high=vs["speedup_ci95"][1],
                verdict=vs["verdict"],
                estimator=vs["estimator"],
                pairs=vs["pairs"],
            )
        w.writerow(row)
    for row in csv_rows(rep.run.env.get("instructions") or {}):
        w.writerow(row)
    return buf.getvalue()
