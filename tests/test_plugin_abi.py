"""Plugin ABI version 2 (docs/plugin-abi.md) and the compatibility of version 1: a plugin built
against each header loads and passes `plugin check`; a table longer than version 2's (a later
version's members) loads, a shorter one is refused; lengths a plugin declares in its catalogue
are enforced by the driver before the plugin sees the request; fini runs at the end."""

import json
import subprocess

import pytest
from conftest import run_cli

from cryptobench.drivers.registry import C_HOST, REPO

FIXTURES = REPO / "tests" / "fixtures"
ABI1 = FIXTURES / "table_plugin.c"  # built against include/cryptobench/v1/provider.h
ABI2 = FIXTURES / "abi2_plugin.c"

pytestmark = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")


def build(tmp_path, source, mode: str = "plain"):
    out = tmp_path / f"libcb_{source.stem}_{mode.lower()}.so"
    subprocess.run(["gcc", "-O1", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror",
                    f"-D{mode}", f"-I{REPO / 'include'}", "-o", out, source, "-lcrypto"], check=True)  # fmt: skip
    return out


def speak(so, *requests) -> tuple[list[dict], subprocess.CompletedProcess]:
    """The driver serving `so`, given these requests then bye: (their responses, the process)."""
    lines = "".join(json.dumps(r) + "\n" for r in (*requests, {"cmd": "bye"}))
    res = subprocess.run([C_HOST, "--plugin", so], input=lines, capture_output=True, text=True, timeout=30)
    return [json.loads(line) for line in res.stdout.splitlines()][: len(requests)], res


@pytest.mark.parametrize("source, version", [(ABI1, 1), (ABI2, 2)])
def test_a_plugin_of_either_version_loads_and_passes_plugin_check(tmp_path, source, version):
    so = build(tmp_path, source)
    (hello,), _ = speak(so, {"cmd": "hello", "protocol": 5})
    assert hello["notes"][0] == f"a plugin ({so.name}, ABI version {version}) served by the C driver", hello
    res = run_cli("plugin", "check", so, "--alg", "sha256", "--db", tmp_path / "c.db", "--timeout", "30")
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.strip().splitlines()[-1].endswith("ok: 1 algorithm verified, driver rules kept"), res.stdout


def test_a_table_longer_than_version_2s_loads_and_a_shorter_one_is_refused(tmp_path):
    (hello,), res = speak(build(tmp_path, ABI2, "ABI2_BIGGER"), {"cmd": "hello"})
    assert res.returncode == 0 and hello["ok"] and "aes-128-ctr" in hello["offers"], res.stderr
    small = build(tmp_path, ABI2, "ABI2_SMALL")
    res = subprocess.run([C_HOST, "--plugin", small, "--print-id"], capture_output=True, text=True)
    assert res.returncode == 1 and res.stdout == "", res.stdout
    assert res.stderr.strip() == (
        f"plugin {small.name}: its cb_provider is 176 bytes, ABI version 2's is at least 184 "
        "(built against a modified header?)"
    )


def test_a_length_the_catalogue_declares_is_enforced_before_the_plugin_is_called(tmp_path):
    """aes-128-ctr declares a 16-byte key and IV; the fixture's cell_new does not check them and would
    answer "cell_new saw ..." — the answer must be the driver's."""
    key, iv = "000102030405060708090a0b0c0d0e0f", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
    cases = [
        {"id": "short key", "op": "encrypt", "key": key[:16], "iv": iv, "msg": "00"},
        {"id": "long iv", "op": "encrypt", "key": key, "iv": iv + "00", "msg": "00"},
        {"id": "right", "op": "encrypt", "key": key, "iv": iv, "msg": "00"},
    ]
    (res,), _ = speak(build(tmp_path, ABI2), {"cmd": "verify", "alg": "aes-128-ctr", "cases": cases})
    short, long_iv, right = res["results"]
    assert short == {"id": "short key", "error": "aes-128-ctr needs a 16-byte key, got 8"}
    assert long_iv == {"id": "long iv", "error": "aes-128-ctr needs a 16-byte IV, got 17"}
    assert "out" in right, right


def test_fini_runs_once_when_the_driver_ends(tmp_path):
    _, res = speak(build(tmp_path, ABI2), {"cmd": "hello"})
    assert res.returncode == 0 and res.stderr.count("abi2 fini") == 1, res.stderr


def test_a_version_1_plugins_messages_become_statuses_and_back(tmp_path):
    """Version 1 said "not offered: ..." in its message; through the shim that is a status, and the
    driver says it in the protocol's words again, once (a case of an operation it has not)."""
    case = {"id": "mac", "op": "mac", "key": "00", "msg": "00"}
    (res,), _ = speak(build(tmp_path, ABI1), {"cmd": "verify", "alg": "sha256", "cases": [case]})
    assert res["results"] == [{"id": "mac", "error": "not offered: sha256 mac"}], res
