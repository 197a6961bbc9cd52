"""The provider registry: c:liboqs and the build step that makes it, as `build` and `doctor` see them."""

import argparse
import dataclasses
import os

from cryptobench import cli
from cryptobench.drivers.registry import C_BUILD, C_HOST, DRIVERS, REPO, Registry


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
    monkeypatch.setattr(cli, "Registry", lambda providers_file=None, plugins=None: registry)
    assert cli.cmd_doctor(argparse.Namespace(providers_file=None)) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(
        line.split()[0] == "liboqs" and "NOT BUILT" in line and line.endswith("fix: cryptobench build liboqs")
        for line in out
    ), out
    fails = [line for line in out if line.split()[:2] == ["c:liboqs", "FAIL"]]
    assert len(fails) == 1 and "`cryptobench build liboqs` adds it" in fails[0], out
