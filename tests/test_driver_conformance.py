"""Every built driver keeps the rules of docs/protocol.md § The measurement loop; a driver breaking one
is caught, by the rule's name. The checks go through the orchestrator's own client, so a new driver
or a `--providers-file` program gets them for free (`cryptobench check-driver`)."""

import json
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry
from cryptobench.verify import driver_rules as drivercheck

FAKE = Path(__file__).resolve().parent / "fake_rules.py"
REGISTRY = Registry()
BUILT = [pid for pid, p in REGISTRY.providers.items() if REGISTRY.usable(p)[0]]


def start_fake(broken: str | None):
    argv = [sys.executable, str(FAKE), "--provider", "test:rules"] + (["--break", broken] if broken else [])
    return lambda: DriverProcess("test:rules", argv)


@pytest.mark.parametrize("pid", BUILT)
def test_every_built_driver_keeps_every_rule(pid):
    p = REGISTRY.get(pid)
    found = drivercheck.check(p.driver_id, lambda: DriverProcess(pid, p.argv(), env=REGISTRY.env_for(p)), timeout=60)
    assert found == [], "\n".join(map(str, found))


def test_the_core_drivers_are_built_so_the_rules_are_checked():
    """A test that cannot fail is a defect: the parametrised test above must have drivers to check."""
    core = {"c:openssl", "go:stdlib", "python:cryptography", "js:node", "rust:ring", "java:jca"}
    assert core <= set(BUILT), sorted(core - set(BUILT))


def test_a_driver_keeping_every_rule_passes():
    assert drivercheck.check("test:rules", start_fake(None), timeout=30) == []


@pytest.mark.parametrize("rule", drivercheck.RULES)
def test_a_driver_breaking_one_rule_is_caught_by_that_rule(rule):
    found = drivercheck.check("test:rules", start_fake(rule), timeout=30)
    assert found, f"breaking {rule} went unnoticed"
    assert {v.rule for v in found} == {rule}, "\n".join(map(str, found))


def test_check_driver_command_on_a_providers_file(tmp_path):
    pf = tmp_path / "p.toml"
    lines = []
    for pid, extra in (("test:kept", ""), ("test:leaky", ', "--break", "last-output"')):
        lines += ["[[provider]]", f'id = "{pid}"', f'command = ["{sys.executable}", "{FAKE}"{extra}]', ""]
    pf.write_text("\n".join(lines))
    out = tmp_path / "rules.json"
    res = run_cli("check-driver", "--providers-file", pf, "--provider", "test:*", "--json", out)
    assert res.returncode == 1, res.stderr
    assert "test:kept" in res.stdout and "ok" in res.stdout.split("test:kept")[1].splitlines()[0]
    assert "last-output: sha256 hash of 1024 B: checksum_after" in res.stdout
    doc = json.loads(out.read_text())
    assert doc["providers"]["test:kept"] == [] and doc["providers"]["test:leaky"][0]["rule"] == "last-output"
    res = run_cli("check-driver", "--providers-file", pf, "--provider", "test:nothing")
    assert res.returncode == 2 and res.stderr.startswith("cryptobench: error: --provider 'test:nothing' matches")
