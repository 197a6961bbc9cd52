"""docs/ci.md's CI recipe, played by bench/ci-recipe on the fixture plugin (tests/fixtures/ci_plugin):
a change that adds about 1% work fails the check, a change that alters nothing passes."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind is not installed: no instruction counts"),
    pytest.mark.skipif(not (REPO / "drivers/c/build/cbdriver").exists(), reason="the C driver is not built"),
]


def test_the_recipe_flags_a_one_percent_slower_plugin_and_passes_an_unchanged_one(tmp_path):
    done = subprocess.run([sys.executable, str(REPO / "bench/ci-recipe"), "--no-time", "--keep", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith(("| slower", "| unchanged"))]
    slower = [r for r in rows if r[0] == "| slower"]
    unchanged = [r for r in rows if r[0] == "| unchanged"]
    assert len(slower) == len(unchanged) == 2  # 16 KiB and 64 KiB, the workflow's CB_SIZE
    for r in slower:
        assert r[1] == "1" and r[6] == "more instructions |" and 0.8 < float(r[5].rstrip("%")) < 1.5, r
    for r in unchanged:
        assert r[1] == "0" and r[6] == "same |" and abs(float(r[5].rstrip("%"))) < 0.01, r
    assert "cells need more than 0.5% more instructions" in done.stdout
    # the files a maintainer copies are the page's, and the check left its report for the job summary
    page = (REPO / "docs/ci.md").read_text()
    script = (tmp_path / "slower/.github/cryptobench-ci.sh").read_text()
    assert (
        script in page and "## Instructions per operation" in (tmp_path / "slower/cryptobench-ci/report.md").read_text()
    )
