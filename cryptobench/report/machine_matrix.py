"""Machines × algorithms: the latest run of each machine in one table (`compare --machines --layout
matrix`, and the published site's front page). A cell is the median throughput with its 95%
interval, as measured on that machine (MB/s for messages, op/s for operations without one).

Its formats: formats/machines.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.core.units import format_rate, format_size, throughput
from cryptobench.store.model import CellRecord, RunRecord


@dataclass
class Figure:
    median_ns: float
    low_ns: float
    high_ns: float
    size: int

    @property
    def rate(self) -> tuple[float, float, float, str]:
        """(value, low, high, unit): MB/s for a message, op/s without one."""
        (value, unit), (low, _), (high, _) = (
            throughput(self.size, ns) for ns in (self.median_ns, self.high_ns, self.low_ns)
        )
        return value, low, high, unit

    def text(self) -> str:
        v, lo, hi, unit = self.rate
        half = (hi - lo) / 2 / v * 100 if v else 0
        return f"{format_rate(v)} {unit} ±{half:.1f}%"


@dataclass
class MachineMatrix:
    machines: list[tuple[str, RunRecord]]
    columns: list[tuple[str, str, int, int]] = field(default_factory=list)  # (alg, op, size, chunk)
    rows: dict[tuple[str, str], dict[tuple, Figure]] = field(default_factory=dict)  # (machine, provider) -> figures

    def column_title(self, key: tuple) -> str:
        alg, op, size, chunk = key
        return f"{alg} {op}" + (f" {format_size(size)}" if size else "") + (f" /{format_size(chunk)}" if chunk else "")

    def headers(self) -> list[str]:
        return ["machine", "provider"] + [self.column_title(k) for k in self.columns]

    def text_rows(self) -> list[list[str]]:
        out = []
        for (machine, provider), figs in self.rows.items():
            out.append([machine, provider] + [figs[k].text() if k in figs else "-" for k in self.columns])
        return out


def build(runs: list[tuple[str, RunRecord, list[CellRecord]]]) -> MachineMatrix:
    m = MachineMatrix([(label, run) for label, run, _ in runs])
    keys = set()
    for label, _run, cells in runs:
        for c in cells:
            if not c.measured:
                continue
            s = c.summary()
            m.rows.setdefault((label, c.provider), {})[c.key] = Figure(s.median, s.ci_low, s.ci_high, c.size)
            keys.add(c.key)
    m.columns = sorted(keys)
    return m


def to_dict(m: MachineMatrix) -> dict:
    return {
        "schema": "cryptobench-machines",
        "schema_version": RESULT_SCHEMA_VERSION,
        "machines": [
            {
                "label": label,
                "run": run.id,
                "uid": run.uid,
                "suite": run.suite,
                "started": run.started,
                "cpu_model": run.env.get("cpu_model"),
                "machine_id": run.env.get("machine_id"),
            }
            for label, run in m.machines
        ],  # fmt: skip
        "cells": [
            {
                "machine": machine,
                "provider": provider,
                "alg": k[0],
                "op": k[1],
                "size": k[2],
                "chunk": k[3],
                "median_ns": f.median_ns,
                "ci95_ns": [f.low_ns, f.high_ns],
                "rate": f.rate[0],
                "rate_ci95": [f.rate[1], f.rate[2]],
                "unit": f.rate[3],
            }
            for (machine, provider), figs in m.rows.items()
            for k, f in figs.items()
        ],  # fmt: skip
    }
