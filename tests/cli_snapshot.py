"""What the command line shows a user, kept to be compared: every `--help`, every JSON field.

  python tests/cli_snapshot.py help > tests/fixtures/help-snapshot.txt
  python tests/cli_snapshot.py keys RESULT.json > tests/fixtures/show-json-keys.txt

`help` is every command's and sub-command's `--help` as one text; `keys` is every field path of a
result file (`cells[].median_ns`). test_cli_snapshot.py compares today's with the stored ones, so
moving the parser or the exporters between modules cannot change a flag, a default, an example or
a field unnoticed. A deliberate change: store them again and say it in CHANGELOG.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COLUMNS = "100"  # argparse wraps to the terminal's width: one width for every machine


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...]):
    """(path, parser) for the parser and every sub-command under it, in the order --help lists them."""
    yield path, parser
    seen = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                if id(child) not in seen:  # an alias names the same parser again
                    seen.add(id(child))
                    yield from _walk(child, (*path, name))


def _help(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        parser.parse_args([*path, "--help"])
    return out.getvalue()


@contextlib.contextmanager
def _environ(**values: str | None):
    """os.environ with these values (None: unset) inside, as it was after: a pytest worker runs other
    tests next, and rich and the commands they start read COLUMNS too."""

    def put(settings: dict[str, str | None]) -> None:
        for k, v in settings.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    before = {k: os.environ.get(k) for k in values}
    try:
        put(values)
        yield
    finally:
        put(before)


def help_text() -> str:
    from cryptobench.cli import build_parser
    from cryptobench.verify.vectors import default_vectors_dir

    places = {str(default_vectors_dir()): "<vectors>", str(REPO): "<repo>"}  # where this checkout is
    parts = []
    with _environ(COLUMNS=COLUMNS, CRYPTOBENCH_DB=None):  # COLUMNS: read by argparse on each --help
        root = build_parser()
        for path, _ in _walk(root, ()):
            text = _help(root, path)
            for place, name in places.items():
                text = text.replace(place, name)
            parts.append(f"=== cryptobench {' '.join(path)} --help\n{text}")
    return "\n".join(parts)


def json_keys(doc, path: str = "") -> set[str]:
    """Every field path in a JSON document; a list's items share one path (`cells[]`)."""
    if isinstance(doc, dict):
        found = set()
        for key, value in doc.items():
            here = f"{path}.{key}" if path else key
            found |= {here} | json_keys(value, here)
        return found
    if isinstance(doc, list):
        return set().union(*(json_keys(item, f"{path}[]") for item in doc)) if doc else set()
    return set()


if __name__ == "__main__":
    if sys.argv[1:] == ["help"]:
        sys.stdout.write(help_text())
    elif sys.argv[1:2] == ["keys"] and len(sys.argv) == 3:
        import json

        sys.stdout.write("".join(f"{k}\n" for k in sorted(json_keys(json.loads(Path(sys.argv[2]).read_text())))))
    else:
        sys.exit(__doc__)
