"""The conformance report of `cryptobench verify`: provider × algorithm, with what verified each.

One model (`rows`, `matrix`) laid out four ways: terminal, Markdown, JSON and a self-contained HTML
page. A cell of the matrix reads `✓ 132 + 500` (known answers passed + differential inputs agreed),
`✗` with the first failure, or `unverified (N cases)`.

Its formats: formats/verification.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.core import declared
from cryptobench.store.model import RunRecord, VerifyRecord
from cryptobench.verify.witness import MARK


@dataclass
class Verification:
    """A stored `verify` run and its provider × algorithm records: what the conformance formats show."""

    run: RunRecord
    verifs: list[VerifyRecord]

    def __post_init__(self) -> None:
        declared.from_hellos(self.run.providers)  # its providers' algorithms of their own, read back


def mark(v: VerifyRecord) -> str:
    diff = v.conformance.get("differential") or {}
    agreed = diff.get("agreed", 0)
    counts = f"{v.passed}" + (f" + {agreed}" if agreed else "")
    if v.status == "passed":
        return f"✓ {counts}"
    if v.status == "unverified":
        return v.detail.split(":")[0]
    return "✗ " + (v.conformance.get("first_failure", {}).get("id") or "failed").split("/")[-1]


def matrix(verifs: list[VerifyRecord], providers: list[str] | None = None) -> tuple[list[str], list[list[str]]]:
    """Algorithm × provider (a catalogue has more algorithms than a machine has providers); blank:
    not offered. `providers` picks the columns, all of them by default."""
    algs = list(dict.fromkeys(v.alg for v in verifs))
    by = {(v.provider, v.alg): v for v in verifs}
    providers = providers or sorted({v.provider for v in verifs})
    rows = [
        [a + (f" ({declared.mark(a)})" if declared.mark(a) else "")]
        + [mark(by[(p, a)]) if (p, a) in by else "" for p in providers]
        for a in algs
    ]
    return ["algorithm", *providers], rows


def _sources(v: VerifyRecord) -> str:
    parts = []
    for src, (passed, failed, skipped) in sorted((v.conformance.get("sources") or {}).items()):
        parts.append(
            f"{src} {passed}" + (f"/{failed} failed" if failed else "") + (f" ({skipped} skipped)" if skipped else "")
        )
    return "; ".join(parts) or "none"


def _differential(v: VerifyRecord) -> str:
    d = v.conformance.get("differential")
    if not d:
        return "-"
    peers = ", ".join(d.get("peers") or []) or "no other provider"
    if d.get("witnesses"):  # failed their known answers, or brought in from outside the run (witness.py):
        # their agreeing outputs count, they never vote
        named = [w.removeprefix(MARK) + " (brought in, not measured)" if w.startswith(MARK) else w
                 for w in d["witnesses"]]  # fmt: skip
        peers += f" (witnesses: {', '.join(named)})"
    text = f"{d['inputs']} inputs, {d['streamed']} streamed, vs {peers}: "
    if d.get("smallest"):
        return text + f"{d['disagreements']} disagree; smallest: {d['smallest']['why']}"
    return text + "all agree"


def details(verifs: list[VerifyRecord]) -> tuple[list[str], list[list[str]]]:
    headers = ["provider", "algorithm", "status", "known answers by source", "Monte Carlo", "differential", "detail"]
    rows = []
    for v in verifs:
        m = v.conformance.get("monte")
        monte = f"{m['checkpoints']} checkpoints {'passed' if m['passed'] else 'FAILED'}" if m else "-"
        rows.append([v.provider, v.alg, v.status, _sources(v), monte, _differential(v), v.detail])
    return headers, rows


def failed(verifs: list[VerifyRecord]) -> list[VerifyRecord]:
    return [v for v in verifs if v.status == "failed"]


def to_dict(run: RunRecord, verifs: list[VerifyRecord]) -> dict:
    return {
        "schema": "cryptobench-verify",
        "schema_version": RESULT_SCHEMA_VERSION,
        "run": {"id": run.id, "started": run.started, "finished": run.finished, "status": run.status},
        "failed": len(failed(verifs)),
        "results": [
            {
                "provider": v.provider,
                "alg": v.alg,
                "declared_by": declared.declared_by(v.alg),  # an algorithm of the providers' own
                "status": v.status,
                "passed": v.passed,
                "failed": v.failed,
                "skipped": v.skipped,
                "detail": v.detail,
                **v.conformance,
            }  # fmt: skip
            for v in verifs
        ],
    }
