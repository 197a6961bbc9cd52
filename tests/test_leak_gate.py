"""The leak check's gate is per operation (cryptobench/leak/gate.py, docs/leak.md § Verified first): a
provider failing only in another operation is checked and its row names that failure; a failure in the
checked operation, in key generation or of no known operation refuses the check."""

import json
from pathlib import Path

from conftest import run_cli

from cryptobench.leak import gate
from cryptobench.store.model import VerifyRecord
from cryptobench.verify import op_state
from cryptobench.verify.cross_checks import CrossRecord

FIXTURE = Path(__file__).parent / "fixtures" / "ecdsa_one_wrong_op_plugin.py"


def _failed(*answers: tuple[str, str | None]) -> VerifyRecord:
    """A record as known_answers.check leaves it: (op, why) per case, None when it passed."""
    rec = VerifyRecord("p", "ecdsa-p256", "passed")
    for i, (op, why) in enumerate(answers):
        op_state.count_answer(rec, op, why, f"f.json#{i}")
        rec.passed += why is None
        rec.failed += why is not None
        if why is not None and not rec.detail:
            rec.status, rec.detail = "failed", f"failed: vector f.json#{i}: {why}"
    return rec


def test_a_failure_in_another_operation_lets_the_check_run_and_is_named():
    rec = _failed(("verify", None), ("verify", "accepted"), ("sign", None))
    assert gate.refusal(rec, "sign", "sign") is None
    assert gate.despite(rec, "sign", "sign") == (
        "verify fails 1 case (first: vector f.json#1: accepted); sign verified on 1 known answers and 0 cross-checks"
    )


def test_a_failure_in_the_checked_operation_or_its_keys_refuses():
    assert gate.refusal(_failed(("sign", "wrong"), ("verify", None)), "sign", "sign") == (
        "not verified: sign fails vector f.json#0: wrong")  # fmt: skip
    assert "keygen fails" in gate.refusal(_failed(("keygen", "wrong"), ("sign", None)), "sign", "sign")
    # a forged-tag check's inputs are the provider's own seal: a wrong seal refuses a check of open
    assert "seal fails" in gate.refusal(_failed(("seal", "wrong"), ("open", None)), "open", "open")


def test_a_failure_of_no_known_operation_refuses():
    rec = _failed(("verify", "accepted"), ("sign", None))
    rec.failed += 1  # a crash, a protocol error: counted in the record, in no operation
    assert gate.refusal(rec, "sign", "sign") == f"not verified: {rec.detail}"
    rec = _failed(("verify", "accepted"), ("sign", None))
    rec.detail = "failed: differential: 3 B: differs"  # a later stage's failure, no operation recorded
    assert gate.refusal(rec, "sign", "sign") == "not verified: failed: differential: 3 B: differs"


def test_an_operation_that_passed_nothing_is_not_checked():
    rec = _failed(("verify", "accepted"))  # ECDSA has no sign vectors: without cross-checks, nothing shows it right
    assert "sign has passed no case of its own" in gate.refusal(rec, "sign", "sign")
    op_state.count_crosschecks(rec, "sig", [CrossRecord("ecdsa-p256", "p", "q", "signature verifies", True)], "p")
    assert gate.refusal(rec, "sign", "sign") is None


def test_leak_checks_sign_of_a_provider_whose_verify_fails_and_refuses_one_whose_sign_fails(tmp_path):
    """Two fixture plugins beside python:cryptography (the reference of cross-verification): one whose
    verify accepts every signature is checked, the failure named in its row; one whose signatures do
    not verify is refused, naming sign. One batch each (--seconds 0.01): the gate, not the statistics."""
    out = tmp_path / "leak.json"
    res = run_cli("leak", "--plugin", f"{FIXTURE}:WRONG_VERIFY", "--plugin", f"{FIXTURE}:WRONG_SIGN",
                  "--provider", "python:cryptography", "--alg", "ecdsa-p256", "--class", "secret",
                  "--seconds", "0.01", "--db", tmp_path / "l.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr  # failures elsewhere still fail it
    rows = {r["provider"]: r for r in json.loads(out.read_text())["leak"]}
    assert rows["python:cryptography"]["measurements"] >= 490 and rows["python:cryptography"]["verification"] == ""
    lax = rows["python:wrong-verify"]
    assert lax["status"] == "too few measurements" and lax["measurements"] >= 490, lax  # checked: a batch measured
    assert lax["verification"].startswith("verify fails 312 cases (first: vector wycheproof/ecdsa_secp256r1_sha256")
    assert lax["verification"].endswith("sign verified on 0 known answers and 2 cross-checks"), lax["verification"]
    bad = rows["python:wrong-sign"]
    assert bad["status"] == "failed" and bad["measurements"] == 0, bad
    assert bad["detail"] == (
        "not verified: sign fails cross-verification with python:cryptography: signature verifies: rejected"
    )
