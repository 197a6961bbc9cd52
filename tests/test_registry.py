"""The provider registry: c:liboqs and the build step that makes it, as `build` and `doctor` see them."""

import argparse
import dataclasses
import os
import re

from cryptobench import cli
from cryptobench.cli import shared as cli_shared
from cryptobench.drivers.programs import C_BUILD, C_HOST, DRIVERS, REPO
from cryptobench.drivers.registry import Registry


def test_registry_has_liboqs_built_by_its_script():
    p = Registry().get("c:liboqs")
    assert (p.language, p.library, p.driver) == ("c", "liboqs", "liboqs")
    plugin = C_BUILD / "plugins" / "libcb_liboqs.so"  # served by the generic C driver
    assert p.artifact == plugin
    assert p.argv() == [str(C_HOST), "--plugin", str(plugin), "--provider", "c:liboqs"]
    d = DRIVERS["liboqs"]
    assert d.directory == REPO and d.build == ("scripts/liboqs/build.sh", "--no-test")
    assert os.access(REPO / d.build[0], os.X_OK)
    assert {"cargo", "cmake", "ninja"} <= set(d.tools)
    assert not d.heavy  # `cryptobench build` (and so scripts/setup.sh) builds it by default
    assert d.fix == "cryptobench build liboqs"


def _registry_without_liboqs(tmp_path):
    registry = Registry()
    p = registry.get("c:liboqs")
    missing = tmp_path / "libcb_liboqs.so"
    registry.providers = {"c:liboqs": dataclasses.replace(p, artifact=missing)}
    return registry


def test_registry_names_the_fix_for_a_missing_liboqs_driver(tmp_path):
    registry = _registry_without_liboqs(tmp_path)
    assert registry.usable(registry.get("c:liboqs")) == (False, "driver not built: `cryptobench build liboqs` adds it")


def test_doctor_says_the_one_command_that_fixes_liboqs(tmp_path, monkeypatch, capsys):
    registry = _registry_without_liboqs(tmp_path)
    monkeypatch.setattr(cli_shared, "Registry", lambda providers_file=None, plugins=None: registry)  # doctor's
    assert cli.cmd_doctor(argparse.Namespace(providers_file=None)) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(
        line.split()[0] == "liboqs" and "NOT BUILT" in line and line.endswith("fix: cryptobench build liboqs")
        for line in out
    ), out
    fails = [line for line in out if line.split()[:2] == ["c:liboqs", "FAIL"]]
    assert len(fails) == 1 and "`cryptobench build liboqs` adds it" in fails[0], out


def _providers_file(tmp_path, serves: str | None) -> str:
    go = Registry().get("go:stdlib")
    command = ", ".join(f'"{c}"' for c in go.command)
    line = f'serves = "{serves}"\n' if serves else ""
    path = tmp_path / "old.toml"
    path.write_text(f'[[provider]]\nid = "old-go:stdlib"\ncommand = [{command}]\n{line}')
    return str(path)


def test_a_providers_file_entry_can_serve_another_build_of_a_provider(tmp_path):
    """Two builds of one provider side by side (bench/same-figures): the entry says which id the
    driver is started for and its hello names; without `serves` the driver is asked for an id it
    does not serve, and refuses."""
    from tests.conftest import run_cli

    args = ("verify", "--provider", "old-go:stdlib", "--alg", "sha256", "--db", str(tmp_path / "r.db"))
    served = run_cli(*args, "--providers-file", _providers_file(tmp_path, "go:stdlib"))
    assert served.returncode == 0, served.stdout + served.stderr
    assert re.search(r"sha256\s*│\s*✓", served.stdout) and "old-go:stdlib" in served.stdout, served.stdout
    refused = run_cli(*args, "--providers-file", _providers_file(tmp_path, None))
    said = refused.stdout + refused.stderr
    assert refused.returncode == 1 and refused.stderr.strip().splitlines()[-1] == (
        "cryptobench: verify: 1 provider(s) could not start (old-go:stdlib): exit 1"
    ), said
    assert 'unknown provider "old-go:stdlib"' in said and not re.search(r"sha256\s*│\s*✓", refused.stdout), said


def test_serves_must_be_a_provider_id(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[[provider]]\nid = "x:y"\ncommand = ["true"]\nserves = 3\n')
    try:
        Registry(providers_file=path)
    except Exception as e:  # UserError: one line naming the entry
        assert "provider 'x:y': serves must be an id" in str(e)
    else:
        raise AssertionError("serves = 3 was accepted")
