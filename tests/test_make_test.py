"""`make test` runs every driver's native tests and linter: a driver added without its targets, or a
part dropped from the recipe, fails here rather than going untested unnoticed (docs/testing.md)."""

import os
import re
import subprocess

from conftest import REPO

DRIVERS = sorted(p.name for p in (REPO / "drivers").iterdir() if p.is_dir()) + ["pqntor"]  # protocols/pqntor


def dry_run(*targets: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "FORCE")}
    r = subprocess.run(["make", "-n", "--no-print-directory", *targets], cwd=REPO, env=env, capture_output=True,
                       text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_every_driver_has_a_native_suite_and_a_linter_in_make_test():
    ran = set(re.findall(r"scripts/cached-run ((?:native|lint)-[a-z]+) ", dry_run("native-test", "lint")))
    assert {f"native-{d}" for d in DRIVERS} <= ran, sorted({f"native-{d}" for d in DRIVERS} - ran)
    assert {f"lint-{d}" for d in DRIVERS if d != "python"} <= ran
    assert "ruff check" in dry_run("lint-python")  # ruff is not cached: it takes a second


def test_make_test_runs_every_part_and_both_pytest_phases():
    recipe = re.search(r"^test: setup\n((?:\t.*\n)+)", (REPO / "Makefile").read_text(), re.M)
    assert recipe, "the Makefile has no `test: setup` rule"
    steps = recipe.group(1)
    assert all(part in steps for part in ("pytest-parallel", "native-test", "lint", "pytest-timing")), steps
    assert '-m "not timing" tests' in dry_run("pytest-parallel") and "-m timing tests" in dry_run("pytest-timing")
