"""Python plugins: a user's module becomes a provider, verified, measured and refused like any other."""

import json
import textwrap

import pytest
from conftest import run_cli

SUITE = (
    'name = "plug"\nbaseline = "python:hashlib"\nsizes = ["1KiB"]\ntime_per_cell = 0.2\n[[group]]\nalgs = ["sha256"]\n'
)

MINE = """
import hashlib
from cbdriver.plugin import Provider, case_bytes, make_cell

class Mine(Provider):
    id = "python:mine"
    library = "hashlib, as a user would wrap it"
    offers = {"sha256": ("hash",)}

    def library_version(self):
        return "mine 1.0"

    def execute(self, alg, case):
        return hashlib.sha256(case_bytes(case, "msg")).digest()

    def cell(self, spec):
        msg = spec.msg
        def output():
            return BREAK(hashlib.sha256(msg).digest())
        def call():
            return output()[0]
        return make_cell(call, output)

PROVIDER = Mine()
"""


def plugin(tmp_path, body="x", name="mine.py"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(MINE).replace("BREAK(", f"(lambda x: {body})("))
    return p


@pytest.fixture
def suite(tmp_path):
    p = tmp_path / "plug.toml"
    p.write_text(SUITE)
    return p


def test_a_plugin_is_verified_and_measured_beside_the_baseline(tmp_path, suite):
    out = tmp_path / "r.json"
    res = run_cli("run", "--suite", suite, "--plugin", plugin(tmp_path), "--provider", "python:hashlib",
                  "--db", tmp_path / "r.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    doc = json.loads(out.read_text())
    cells = {c["provider"]: c for c in doc["cells"]}
    assert set(cells) == {"python:hashlib", "python:mine"}  # --plugin adds to --provider
    assert (
        doc["providers"]["python:mine"]["notes"][0] == f"a plugin ({tmp_path / 'mine.py'}) served by the Python driver"
    )
    mine = cells["python:mine"]
    assert mine["status"] == "ok" and mine["vs_baseline"]["verdict"] in (
        "same (within noise)",
        "faster",
        "slower",
        "unclear",
    )
    assert mine["checksum"] == cells["python:hashlib"]["checksum"]


def test_a_plugin_with_a_wrong_answer_is_failed_and_not_timed(tmp_path, suite):
    wrong = plugin(tmp_path, body="x[:-1] + bytes([x[-1] ^ 1])")  # right in verify, wrong when timed
    out = tmp_path / "r.json"
    res = run_cli("run", "--suite", suite, "--plugin", wrong, "--provider", "python:hashlib", "--db", tmp_path / "r.db",
                  "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr  # a failed provider fails the run
    mine = next(c for c in json.loads(out.read_text())["cells"] if c["provider"] == "python:mine")
    assert mine["status"] == "failed" and "differential" in mine["reason"] and not mine["samples_ns"]


def test_a_plugin_that_crashes_in_a_cell_is_that_providers_failure(tmp_path, suite):
    crash = plugin(tmp_path, body="__import__('os')._exit(9)")
    out = tmp_path / "r.json"
    res = run_cli("run", "--suite", suite, "--plugin", crash, "--provider", "python:hashlib", "--db", tmp_path / "r.db",
                  "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr  # a failed provider fails the run
    cells = {c["provider"]: c for c in json.loads(out.read_text())["cells"]}
    assert cells["python:mine"]["status"] == "failed" and "code 9" in cells["python:mine"]["reason"]
    assert cells["python:hashlib"]["status"] == "ok"


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda d: d / "absent.py", "no such file"),
        (lambda d: (d / "syntax.py").write_text("def (:\n") and d / "syntax.py", "syntax error at line 1"),
        (lambda d: (d / "empty.py").write_text("X = 1\n") and d / "empty.py", "has no PROVIDER"),
        (lambda d: (d / "imp.py").write_text("import no_such_module_anywhere\n") and d / "imp.py", "cannot import"),
        (lambda d: d / "libmine.dylib", "only Linux shared objects (.so) and Python plugins"),
    ],
)
def test_a_plugin_that_cannot_be_served_is_one_line(tmp_path, suite, make, said):
    res = run_cli("run", "--suite", suite, "--plugin", make(tmp_path), "--db", tmp_path / "r.db")
    assert res.returncode == 2 and said in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "Traceback" not in res.stderr


def test_the_shipped_plugins_pass_their_vectors(tmp_path):
    """python:pycryptodome and python:pynacl (plugins/python/) against each other and c:openssl."""
    out = tmp_path / "v.json"
    res = run_cli("verify", "--provider", "python:pycryptodome,python:pynacl,python:cryptography",
                  "--alg", "sha256,chacha20-poly1305,aes-128-gcm", "--inputs", "60", "--db", tmp_path / "v.db",
                  "--json", out, "--quiet", timeout=300)  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    got = {(r["provider"], r["alg"]): r for r in json.loads(out.read_text())["results"]}
    for key in [("python:pycryptodome", "sha256"), ("python:pycryptodome", "aes-128-gcm"),
                ("python:pynacl", "chacha20-poly1305"), ("python:pycryptodome", "chacha20-poly1305")]:  # fmt: skip
        assert got[key]["status"] in ("passed", "unverified") and got[key]["failed"] == 0, got[key]
        assert got[key]["passed"] >= 20, got[key]


def test_plugin_new_gives_a_plugin_that_checks_and_runs_and_check_catches_a_wrong_one(tmp_path):
    """The newcomer's path: new -> check -> run, all from the skeleton; then the skeleton broken once."""
    res = run_cli("plugin", "new", "mylib", "--dir", tmp_path / "mylib")
    assert res.returncode == 0, res.stderr
    path = tmp_path / "mylib" / "mylib_provider.py"
    assert (tmp_path / "mylib" / "README.md").exists()
    res = run_cli("plugin", "check", path, "--db", tmp_path / "c.db")
    assert res.returncode == 0 and "python:mylib               ok" in res.stdout, res.stdout + res.stderr
    out = tmp_path / "r.json"
    res = run_cli("run", "--plugin", path, "--alg", "sha256", "--size", "1KiB", "--db", tmp_path / "r.db",
                  "--json", out, "--quiet")  # fmt: skip
    mine = next(c for c in json.loads(out.read_text())["cells"] if c["provider"] == "python:mylib")
    assert res.returncode == 0 and mine["status"] == "ok" and mine["vs_baseline"]["baseline"] == "c:openssl"
    path.write_text(path.read_text().replace('hashlib.sha256(case_bytes(case, "msg")).digest()',
                                             'hashlib.sha256(case_bytes(case, "msg") + b"!").digest()'))  # fmt: skip
    res = run_cli("plugin", "check", path, "--db", tmp_path / "c2.db")
    assert res.returncode == 1 and "python:mylib sha256: failed: vector" in res.stdout, res.stdout + res.stderr
    again = run_cli("plugin", "new", "mylib", "--dir", tmp_path / "mylib")
    assert again.returncode == 2 and "is not empty" in again.stderr


UNRESTARTABLE = """
import hashlib, os, pathlib
from cbdriver.plugin import Provider, case_bytes, make_cell

MARK = pathlib.Path(MARKER)
if MARK.exists():  # the driver's second start: the library is gone
    raise RuntimeError("cannot load after a crash")

class Crashy(Provider):
    id = "python:crashy"
    library = "a library that aborts, then cannot be loaded again"
    offers = {"sha256": ("hash",), "sha512": ("hash",)}

    def library_version(self):
        return "crashy 1.0"

    def execute(self, alg, case):
        MARK.touch()
        os.abort()

    def cell(self, spec):
        return make_cell(lambda: 0, lambda: hashlib.new(spec.alg, spec.msg).digest())

PROVIDER = Crashy()
"""


def test_a_driver_that_cannot_restart_after_a_crash_fails_each_algorithm_in_one_line(tmp_path):
    """verify asks through the pool: a provider whose restart failed fails its next algorithm with
    why (it was a KeyError, an internal error), and the other provider is untouched."""
    crashy = tmp_path / "crashy.py"
    crashy.write_text(UNRESTARTABLE.replace("MARKER", repr(str(tmp_path / "crashed"))))
    out = tmp_path / "r.json"
    res = run_cli("run", "--plugin", crashy, "--provider", "python:hashlib", "--alg", "sha256,sha512",
                  "--size", "1KiB", "--time-per-cell", "0.2", "--db", tmp_path / "r.db", "--json", out)  # fmt: skip
    assert res.returncode == 1 and "internal error" not in res.stderr and "Traceback" not in res.stderr, res.stderr
    said = [line for line in res.stderr.splitlines() if line.startswith("python:crashy sha")]
    # one algorithm met the crash, the next one the failed restart (which comes first is the scheduler's)
    assert len(said) == 2 and sorted("driver crashed" in line for line in said) == [False, True], res.stderr
    assert sum("could not be restarted" in line for line in said) == 1, res.stderr
    verdicts = {(v["provider"], v["alg"]): v["status"] for v in json.loads(out.read_text())["verification"]}
    assert verdicts == {("python:crashy", "sha256"): "failed", ("python:crashy", "sha512"): "failed",
                        ("python:hashlib", "sha256"): "passed", ("python:hashlib", "sha512"): "passed"}  # fmt: skip


def test_plugin_check_prints_what_a_plugin_says_as_text(tmp_path):
    """An OSC title sequence (ESC ] ... BEL) in a plugin's library_version, or in the exception it
    raises while loading (the line `plugin check` and `run` refuse it with), reaches no terminal."""
    p = tmp_path / "mine.py"
    p.write_text(textwrap.dedent(MINE).replace('"mine 1.0"', '"\\x1b]0;pwned\\x07 1.0"').replace("BREAK(", "("))
    res = run_cli("plugin", "check", p, "--alg", "sha256", "--db", tmp_path / "c.db")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "\x1b" not in res.stdout + res.stderr and "\x07" not in res.stdout + res.stderr
    assert "python:mine: \\x1b]0;pwned\\x07 1.0; checking sha256" in res.stdout, res.stdout
    p.write_text('raise RuntimeError("\\x1b]0;pwned\\x07 no library here")\n')
    res = run_cli("plugin", "check", p)
    assert res.returncode == 2 and "\x1b" not in res.stderr and "\x07" not in res.stderr, res.stderr
    assert res.stderr.endswith("failed while loading: RuntimeError: \\x1b]0;pwned\\x07 no library here\n")
