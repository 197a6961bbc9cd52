"""One provider's fault stays its own: a plugin that fails, crashes, lies about its name or chatters on
stdout changes nothing of another provider's verification, nor of its own other algorithms'."""

import json
import sys
import textwrap

import pytest
from conftest import FAKE, REPO, run_cli

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import Registry
from cryptobench.plan.planner import Filters, plan
from cryptobench.plan.suites import load_suite
from cryptobench.run.driver_pool import DriverPool
from cryptobench.run.phases import VERIFY_ONLY
from cryptobench.run.runner import Runner, Settings
from cryptobench.store import open_store
from cryptobench.verify import witness
from cryptobench.verify.vectors import cases_for

SHA256_CASES = len(cases_for("sha256"))  # every sha256 known answer the repository carries

# a plugin over the Python driver's own pyca/cryptography provider, broken where the test says
TWIN = """
from cbdriver import load_provider
from cbdriver.plugin import Provider, make_cell

BASE = load_provider("python:cryptography")


def flip(out):
    return out[:-1] + bytes([out[-1] ^ 1]) if out else b"\\x01"


class Twin(Provider):
    id = "python:twin"
    library = "pyca/cryptography, broken on purpose"
    offers = OFFERS

    def library_version(self):
        return "twin 1"

    def execute(self, alg, case):
        out = BASE.execute(alg, case)
        return flip(out) if WRONG_ANSWERS else out

    def cell(self, spec):
        base = BASE.cell(spec)
        if not WRONG_CELLS:
            return base
        out = lambda: flip(base.output())
        return make_cell(lambda: out()[0], out)

    def keypair(self, alg):
        __import__("os").abort()  # only x25519 is offered with a key pair: a crash in that one algorithm


PROVIDER = Twin()
"""


def twin(tmp_path, name, offers, wrong_answers=False, wrong_cells=False):
    p = tmp_path / f"{name}.py"
    p.write_text(
        textwrap.dedent(TWIN)
        .replace("OFFERS", repr(offers))
        .replace("WRONG_ANSWERS", str(wrong_answers))
        .replace("WRONG_CELLS", str(wrong_cells))
    )
    return str(p)


def verify(tmp_path, algs, providers, plugins=(), providers_file=None):
    """`cryptobench verify` as the runner does it (verification, no phase after it): the records by key."""
    registry = Registry(providers_file, plugins=list(plugins))
    providers = [*providers, *registry.plugin_ids]
    suite = tmp_path / f"s{len(list(tmp_path.iterdir()))}.toml"
    suite.write_text(f'name = "iso"\nbaseline = "c:openssl"\nsizes = ["64"]\n[[group]]\nalgs = {algs!r}\n')
    store = open_store(str(tmp_path / f"{suite.stem}.db"))
    s = Settings(suite="iso", baseline="c:openssl", timeout=60, differential_inputs=50)
    cells = plan(load_suite(str(suite)), providers, Filters())
    run_id = Runner(store, registry, s).run(cells, providers, phases=VERIFY_ONLY)
    _, verifs, _ = store.load_run(run_id)
    return {(v.provider, v.alg): v for v in verifs}


SYMMETRIC = {"sha512": ("hash",), "aes-128-gcm": ("seal", "open")}


def test_a_failing_plugin_does_not_change_the_baselines_verification(tmp_path):
    """Issue 29: beside a plugin that failed AES-GCM, c:openssl became 'unverified: seal: no case of 33
    bytes' (the lengths only the differential inputs cover lost their only partner). A failed provider's
    agreeing answers are still evidence, its disagreeing ones count against nobody, and a plugin that
    passes its vectors but disagrees everywhere after is failed by the reference, not beside it. What a
    plugin can add is agreement (honest): what c:openssl has alone, no plugin takes away."""
    algs = list(SYMMETRIC)
    runs = {
        "honest": verify(tmp_path, algs, ["c:openssl"], [twin(tmp_path, "honest", SYMMETRIC)]),
        "answers": verify(tmp_path, algs, ["c:openssl"], [twin(tmp_path, "answers", SYMMETRIC, wrong_answers=True)]),
        "cells": verify(tmp_path, algs, ["c:openssl"], [twin(tmp_path, "cells", SYMMETRIC, wrong_cells=True)]),
        "alone": verify(tmp_path, algs, ["c:openssl"]),
        "garbage": verify(tmp_path, algs, ["c:openssl"], [twin(tmp_path, "garbage", SYMMETRIC, True, True)]),
    }
    for alg in algs:
        twins = {name: run[("python:twin", alg)] for name, run in runs.items() if name != "alone"}
        assert twins["honest"].status == "passed", twins["honest"].detail
        assert twins["answers"].status == "failed" and "vector" in twins["answers"].detail
        assert twins["cells"].status == "failed" and "the reference, c:openssl," in twins["cells"].detail
        assert twins["garbage"].status == "failed"
        mine = {name: (run[("c:openssl", alg)].status, run[("c:openssl", alg)].detail) for name, run in runs.items()}
        assert mine["honest"] == ("passed", ""), mine
        assert mine["answers"] == mine["honest"], mine  # the failed twin's outputs still agree with c:openssl's
        assert runs["answers"][("c:openssl", alg)].conformance["differential"]["witnesses"] == ["python:twin"]
        assert mine["cells"] == mine["alone"], mine  # no majority: the reference decides, it is not failed
        assert mine["garbage"] == mine["alone"], mine  # a twin wrong everywhere neither helps nor harms


def test_a_crash_in_one_algorithms_keypair_fails_only_that_algorithm(tmp_path):
    """Issue 29: an x25519 keypair crash killed the driver and sha256 was recorded 'failed: Monte Carlo
    test: driver crashed'. Every stage restarts a dead driver before its next request."""
    plugin = twin(tmp_path, "crashy", {"sha256": ("hash",), "x25519": ("keygen", "derive")})
    got = verify(tmp_path, ["sha256", "x25519"], ["c:openssl"], [plugin])
    x = got[("python:twin", "x25519")]
    assert x.status == "failed" and "crashed (SIGABRT)" in x.detail, x.detail
    sha = got[("python:twin", "sha256")]
    assert sha.status == "passed", sha.detail
    assert sha.conformance["monte"]["passed"] and sha.conformance["differential"]["disagreements"] == 0
    assert got[("c:openssl", "sha256")].status == got[("c:openssl", "x25519")].status == "passed"


LIAR = """
import runpy, sys
sys.argv = [{fake!r}, "--mode", "good", "--provider", "test:good"]  # whatever it was started as
runpy.run_path({fake!r}, run_name="__main__")
"""


def test_a_driver_whose_hello_names_another_provider_is_refused(tmp_path):
    """Issue 29: `check-driver` refused it, `run` gave it a verdict under the wrong name."""
    liar = tmp_path / "liar.py"
    liar.write_text(LIAR.format(fake=str(FAKE)))
    pf = tmp_path / "p.toml"
    pf.write_text(f'[[provider]]\nid = "test:liar"\ncommand = ["{sys.executable}", "{liar}"]\n')
    pool = DriverPool(Registry(pf), timeout=30, log=lambda _: None)
    assert pool.start("test:liar") is None and "test:liar" not in pool.drivers
    assert pool.broken["test:liar"] == "hello names provider test:good, expected test:liar"


CHATTY = """
import hashlib, os
from cbdriver.plugin import Provider, case_bytes, make_cell

print("IMPORT-TIME CHATTER on stdout")
os.write(1, b"and a C library's printf\\n")


class Chatty(Provider):
    id = __ID__
    library = "hashlib, talkative"
    offers = {__ALG__: ("hash",)}

    def library_version(self):
        print("chatter while serving")
        return "chatty 1"

    def execute(self, alg, case):
        print("chatter in a case")
        return hashlib.sha256(case_bytes(case, "msg")).digest()

    def cell(self, spec):
        out = lambda: hashlib.sha256(spec.msg).digest()
        return make_cell(lambda: out()[0], out)


PROVIDER = Chatty()
"""


def chatty(tmp_path, pid="python:chatty", alg="sha256"):
    p = tmp_path / "chatty.py"
    p.write_text(textwrap.dedent(CHATTY).replace("__ID__", repr(pid)).replace("__ALG__", repr(alg)))
    return str(p)


def test_what_a_plugin_prints_is_not_its_provider_id_nor_a_response(tmp_path):
    """Issue 29: 'IMPORT-TIME CHATTER on stdout\\npython:yprint_import' was stored as a provider id."""
    registry = Registry(plugins=[chatty(tmp_path)])
    assert registry.plugin_ids == ["python:chatty"]
    got = verify(tmp_path, ["sha256"], ["c:openssl"], [chatty(tmp_path)])  # chatter in every request too
    assert got[("python:chatty", "sha256")].status == "passed", got[("python:chatty", "sha256")].detail


@pytest.mark.parametrize(
    "pid, alg, said",
    [
        ("python:ok\x1b[2J", "sha256", "is not of the form lang:name[@version]"),
        ("python:ok", "sha\n256", "PROVIDER.offers: 'sha\\n256' is not a name"),
        ("python:ok", "sha256'", 'PROVIDER.offers: "sha256\'" is not a name'),
    ],
)
def test_a_plugin_id_or_algorithm_name_out_of_shape_is_refused_in_one_line(tmp_path, pid, alg, said):
    plugin = chatty(tmp_path, pid, alg)
    with pytest.raises(UserError, match="^plugin ") as e:
        Registry(plugins=[plugin])
    assert said in str(e.value) and "\n" not in str(e.value) and "\x1b" not in str(e.value), str(e.value)
    res = run_cli("run", "--plugin", plugin, "--alg", "sha256", "--size", "64", "--db", tmp_path / "r.db")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and plugin in res.stderr, res.stderr


def test_a_lone_provider_is_corroborated_by_an_independent_witness(tmp_path):
    """Issue 29: `verify --provider c:openssl --alg sha256` alone was 'unverified (132 cases): hash: no case
    of 65, 129 bytes' (nobody to agree with where no vector has a length). An independent built-in
    provider, not in the run, answers its differential inputs as a witness: named, never a row."""
    out = tmp_path / "v.json"
    res = run_cli("verify", "--provider", "c:openssl", "--alg", "sha256,sha512,aes-128-gcm", "--db", tmp_path / "v.db",
                  "--json", out, "--md", tmp_path / "v.md", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    results = json.loads(out.read_text())["results"]
    assert {(r["provider"], r["alg"], r["status"], r["detail"]) for r in results} == {
        ("c:openssl", alg, "passed", "") for alg in ("sha256", "sha512", "aes-128-gcm")
    }, results
    for r in results:  # every input it answered was corroborated, and the record says by whom
        assert r["differential"]["witnesses"] == [witness.MARK + witness.ORDER[0]], r["differential"]
        assert r["differential"]["agreed"] == r["differential"]["inputs"] > 0, r["differential"]
    assert f"(witnesses: {witness.ORDER[0]} (brought in, not measured))" in (tmp_path / "v.md").read_text()


def fake_file(tmp_path):
    """test:wrong, right on every input but the 56 to 64 bytes its sha256 vectors have (fake_broken.py);
    test:absent, a command that is not there."""
    pf = tmp_path / "witnesses.toml"
    pf.write_text(f"""[[provider]]\nid = "test:wrong"\ncommand = ["{sys.executable}", "{REPO}/tests/fake_broken.py", "--mode", "len-56-64"]
[[provider]]\nid = "test:absent"\ncommand = ["{tmp_path}/no-such-driver"]\n""")  # fmt: skip
    return pf


SHORT_MSG = "cryptography-vectors/hashes/SHA2/SHA256ShortMsg.rsp"


@pytest.mark.parametrize(
    "order, status, said",
    [
        (("test:wrong", "go:stdlib"), "passed", ""),  # wrong where vectors are: skipped for the next
        (("test:wrong",), "unverified", f"test:wrong failed its known answers (vector {SHORT_MSG}#56: output "),
        (("test:absent",), "unverified", "test:absent cannot run: command '"),
        (("python:hashlib",), "unverified", "every independent one of python:hashlib is in this run or of c:openssl's"),
    ],
)
def test_a_witness_is_independent_and_right_on_its_known_answers(tmp_path, monkeypatch, order, status, said):
    """A would-be witness that fails the known answers would corroborate 65 and 129 bytes (its bug is at
    56 to 64): it is not used. One that cannot run, or runs OpenSSL as c:openssl does, neither; when none
    is left, the record says precisely why the lengths stay uncorroborated."""
    monkeypatch.delenv("CRYPTOBENCH_WITNESSES", raising=False)
    monkeypatch.setattr(witness, "ORDER", order)
    v = verify(tmp_path, ["sha256"], ["c:openssl"], providers_file=fake_file(tmp_path))[("c:openssl", "sha256")]
    assert v.status == status, v.detail
    if status == "passed":
        assert v.conformance["differential"]["witnesses"] == [witness.MARK + "go:stdlib"]
    else:
        why = f"unverified ({SHA256_CASES} cases): hash: no case of 65, 129 bytes; no second implementation of sha256 "
        assert v.detail.startswith(why + "corroborates lengths 65, 129: " + said), v.detail
        assert "witnesses" not in v.conformance["differential"]
