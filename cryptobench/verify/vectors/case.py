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


# what an invalid case is, by operation: the reason it must be rejected
_INVALID = {"open": "invalid tag", "verify": "invalid signature", "mac": "wrong tag", "decrypt": "invalid ciphertext",
            "decaps": "invalid ciphertext", "derive": "invalid public key", "encaps": "invalid public key"}  # fmt: skip


def judge(case: Case, result: dict) -> str | None:
    """None when the driver's result is right for the case, else what was expected and what came back."""
    if "error" in result:
        return _wanted(case, f"error: {result['error']}")
    if "unsupported" in result:
        return None if case.expect == "acceptable" else _wanted(case, f"unsupported: {result['unsupported']}")
    rejected = bool(result.get("rejected"))
    out = result.get("out")
    if case.expect == "acceptable":
        return None
    if case.expect == "invalid":
        if rejected:
            return None
        if out is not None and case.out and not _matches(case, out):
            return None  # e.g. a wrong MAC tag: the driver computed a different one
        return _wanted(case, "accepted" if out is None else f"output {str(out)[:32]}...")
    if rejected:
        return _wanted(case, "rejected")
    if out is None:
        return _wanted(case, "no output")
    if not _matches(case, out):
        sizes = f" ({len(out) // 2} bytes)", f" ({len(case.out) // 2} bytes)"  # a short buffer: same first bytes
        if len(out) == len(case.out):
            sizes = "", ""
        return f"output {out[:32]}...{sizes[0]} differs from expected {case.out[:32]}...{sizes[1]}"
    return None


def expectation(case: Case) -> str:
    """What a right answer to the case is, in a few words."""
    if case.expect == "acceptable":
        return "an output or a rejection"
    if case.expect == "invalid":
        return f"rejected ({_INVALID.get(case.op, 'invalid input')})"
    if case.op == "verify":
        return "accepted (01)"
    return f"output {case.out[:32]}..." if case.out else "an output"


def _wanted(case: Case, got: str) -> str:
    return f"expected: {expectation(case)}; got: {got}"


def _matches(case: Case, out: str) -> bool:
    out = out.lower()
    if case.cmp == "prefix":
        return out.startswith(case.out)
    return out == case.out


def counts_by_source(cases: list[Case], prefix: str) -> dict[str, int]:
    """How many of `cases` each source gave — the part of a case id between `prefix` and '#' (an
    ACVP folder, a KAT file), in the order met (for `list algorithms`)."""
    counts: dict[str, int] = {}
    for c in cases:
        if c.id.startswith(prefix):
            source = c.id[len(prefix) :].split("#", 1)[0]
            counts[source] = counts.get(source, 0) + 1
    return counts
