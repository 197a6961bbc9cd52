"""Every `--help` and every field of `show --json` as they were stored (tests/cli_snapshot.py).

Moving the parser or the exporters between modules must not change what a user reads or what a
script parses; a change that is meant is stored again and said in CHANGELOG.md.
"""

import difflib
import json
import shutil

from cli_snapshot import help_text, json_keys
from conftest import REPO, run_cli

FIXTURES = REPO / "tests" / "fixtures"


def test_every_help_is_the_stored_one_byte_for_byte():
    stored = (FIXTURES / "help-snapshot.txt").read_text()
    today = help_text()
    diff = "".join(difflib.unified_diff(stored.splitlines(True), today.splitlines(True), "stored", "today", n=1))
    assert today == stored, (
        f"--help changed (python tests/cli_snapshot.py help > tests/fixtures/help-snapshot.txt):\n{diff}"
    )


def test_show_json_of_a_stored_run_has_every_stored_field(tmp_path):
    db = tmp_path / "run.db"
    shutil.copy(FIXTURES / "show-run.db", db)  # opening may migrate it: never the fixture itself
    res = run_cli("show", "1", "--db", db, "--json", tmp_path / "r.json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    today = json_keys(json.loads((tmp_path / "r.json").read_text()))
    stored = set((FIXTURES / "show-json-keys.txt").read_text().split("\n")) - {""}
    assert today == stored, f"fields gone: {sorted(stored - today)}; fields new: {sorted(today - stored)}"


def test_the_key_walk_sees_a_field_in_a_list_and_a_nested_one():
    assert json_keys({"a": [{"b": 1}, {"c": {"d": 2}}], "e": []}) == {"a", "a[].b", "a[].c", "a[].c.d", "e"}
