"""Which verified providers a leak check may time: the gate is per operation (docs/leak.md § Verified
first). A check times one operation on inputs some of which the provider made itself; a provider
whose failures all lie in other operations is checked, and its row says what failed and what the
checked operation was verified on. A failure in the checked operation, in one its inputs come from,
in key generation, or one whose operation is not known refuses the check. `run` keeps its own gate:
a library that fails anything is not timed (run/runner.py)."""

from __future__ import annotations

from cryptobench.verify import op_state
from cryptobench.verify.op_state import VerifyRecord

# the operations whose outputs a check's inputs are (plan/leak_classes.py): forged tags start from the
# provider's own seal, MAC tags from its mac, ciphertexts from its encrypt / encaps
SOURCES = {"open": {"seal"}, "decrypt": {"encrypt"}, "decaps": {"encaps"}, "verify": {"mac"}, "compare": {"mac"}}


def needs(cell_op: str, leak_op: str) -> set[str]:
    """The operations a check of `leak_op` (on a cell of `cell_op`) relies on being right."""
    return {cell_op, leak_op, op_state.KEYS} | SOURCES.get(cell_op, set()) | SOURCES.get(leak_op, set())


def refusal(rec: VerifyRecord, cell_op: str, leak_op: str) -> str | None:
    """Why a failed provider's check of `leak_op` is refused, None when it may run: its failures lie
    elsewhere, and the operation itself passed something (known answers or cross-checks)."""
    why = op_state.blocking(rec, needs(cell_op, leak_op))
    if why is not None:
        return why
    if not op_state.verified_on(rec, leak_op) and not op_state.verified_on(rec, cell_op):
        return f"not verified: {rec.detail}; {leak_op} has passed no case of its own"
    return None


def despite(rec: VerifyRecord, cell_op: str, leak_op: str) -> str:
    """A checked provider's failures elsewhere, named in its row: "verify fails 2 cases (first: vector
    ...#6: ...); sign verified on 0 known answers and 4 cross-checks"."""
    return op_state.summary(rec, leak_op if op_state.verified_on(rec, leak_op) else cell_op)
