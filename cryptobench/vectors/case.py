"""One known-answer case: what is sent to a driver, what must come back, and how an answer is judged."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Case:
    id: str
    op: str
    fields: dict  # protocol fields sent to the driver: key, iv, counter, aad, msg
    expect: str  # valid | invalid | acceptable
    out: str | None = None  # expected output (hex) for valid cases
    cmp: str = "equal"  # equal | prefix (truncated MAC tags)
    source: str = ""
    extra: dict = field(default_factory=dict)

    def to_request(self) -> dict:
        return {"id": self.id, "op": self.op, **self.fields}

    def to_export(self) -> dict:
        d = self.to_request()
        d.update(expect=self.expect, cmp=self.cmp)
        if self.out is not None:
            d["out"] = self.out
        return d


def strip_expected(cases: list[Case]) -> list[dict]:
    return [c.to_request() for c in cases]


def judge(case: Case, result: dict) -> str | None:
    """None when the driver's result is right for the case, else why not."""
    if "error" in result:
        return f"driver error: {result['error']}"
    if "unsupported" in result:
        return None if case.expect == "acceptable" else f"unsupported: {result['unsupported']}"
    rejected = bool(result.get("rejected"))
    out = result.get("out")
    if case.expect == "acceptable":
        return None
    if case.expect == "invalid":
        if rejected:
            return None
        if out is not None and case.out and not _matches(case, out):
            return None  # e.g. a wrong MAC tag: the driver computed a different one
        return "accepted an invalid input"
    if rejected:
        return "rejected a valid input"
    if out is None:
        return "no output"
    if not _matches(case, out):
        return f"output {out[:32]}... differs from expected {case.out[:32]}..."
    return None


def _matches(case: Case, out: str) -> bool:
    out = out.lower()
    if case.cmp == "prefix":
        return out.startswith(case.out)
    return out == case.out
