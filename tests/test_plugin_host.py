"""The generic C driver's checks of a plugin's table (drivers/c/src/ops_plugin.c): the toolchain a
plugin says it was built with, and strings that are refused at load in one line naming the plugin
— a NULL library version, a name with a newline, a quote or an escape sequence."""

import json
import subprocess

import pytest
from conftest import run_cli

from cryptobench.drivers.programs import C_HOST, REPO

FIXTURE = REPO / "tests" / "fixtures" / "table_plugin.c"

pytestmark = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")


def build_table(tmp_path, mode: str):
    """tests/fixtures/table_plugin.c built with one kind of table (mode "good": the plain one)."""
    out = tmp_path / f"libcb_table_{mode}.so"
    subprocess.run(["gcc", "-O1", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", f"-DTABLE_{mode.upper()}",
                    f"-I{REPO / 'include'}", "-o", out, FIXTURE, "-lcrypto"], check=True)  # fmt: skip
    return out


def hello(so) -> dict:
    res = subprocess.run([C_HOST, "--plugin", so], input='{"cmd":"hello","protocol":5}\n', capture_output=True,
                         text=True, check=True)  # fmt: skip
    return json.loads(res.stdout)


@pytest.mark.parametrize("mode, runtime", [("good", "unknown"), ("runtime", "tcc 0.9.27"), ("oldsize", "unknown")])
def test_hello_says_the_plugins_toolchain_or_unknown_never_the_drivers(tmp_path, mode, runtime):
    """A plugin says its runtime in the table's last member; one that does not (or whose table is
    ABI version 1's first size, without the member) is `unknown`, not the driver's gcc."""
    h = hello(build_table(tmp_path, mode))
    assert h["runtime"] == runtime and h["library_version"] == "table 1", h


def test_a_built_in_plugin_says_the_compiler_that_built_it(tmp_path):
    h = hello(REPO / "drivers" / "c" / "build" / "plugins" / "libcb_openssl.so")
    assert h["runtime"].startswith(("gcc ", "clang ")), h["runtime"]


@pytest.mark.parametrize(
    "mode, said",
    [
        ("nullversion", "library_version() returned NULL"),
        ("nullname", "library_name() returned NULL"),
        ("escapever", r'library_version() returned "1.0\x9b2J", not 1 to 255 bytes of printable UTF-8'),
        ("newlinealg", r'catalogue entry 0: algorithm name "sha\n256" is not 1 to 64 of a-z 0-9 -'),
        ("quotealg", r'catalogue entry 0: algorithm name "sha\"256" is not 1 to 64 of a-z 0-9 -'),
        ("escapeop", r'sha256: operation name "hash\x1b[2J" is not 1 to 64 of a-z 0-9 -'),
        ("escapeid", r'id "c:my\x1b]0;owned\x07lib" is not a provider id'),
        ("escapelang", r'language "ru\x1b[31mst" must be 1 to 15 characters'),
        ("escapert", r'runtime "rustc\x1b[2J 1.0" is not 1 to 200 bytes of printable UTF-8'),
    ],
)
def test_a_table_with_a_null_or_unprintable_string_is_refused_at_load(tmp_path, mode, said):
    """One line naming the plugin and the string, escaped, from `plugin check` and `run` alike —
    not "out of memory", not "unknown algorithm" blamed on the user, not silently ignored."""
    so = build_table(tmp_path, mode)
    for cmd in (["plugin", "check", so], ["run", "--plugin", so, "--alg", "sha256", "--size", "64"]):
        res = run_cli(*cmd, "--db", tmp_path / "r.db")
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2 and len(lines) == 1, res.stdout + res.stderr
        assert lines[0] == f"cryptobench: error: plugin libcb_table_{mode}.so: {said}" or (
            lines[0].startswith(f"cryptobench: error: plugin libcb_table_{mode}.so: ") and said in lines[0]
        ), lines
        assert "\x1b" not in res.stdout + res.stderr and "\x9b" not in res.stdout + res.stderr


@pytest.mark.parametrize("lang, compiler", [("c", "gcc "), ("cpp", "g++ ")])
def test_the_c_and_cpp_skeletons_say_the_compiler_that_built_them(tmp_path, lang, compiler):
    d = tmp_path / "mine"
    assert run_cli("plugin", "new", "mine", "--lang", lang, "--dir", d).returncode == 0
    subprocess.run(["make", "-s", "-C", d], check=True)
    h = hello(d / "libcb_mine.so")
    assert h["runtime"].startswith((compiler, "clang ")) and h["language"] == lang, h
