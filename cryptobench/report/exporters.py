"""Every report format, chosen from one registry.

An exporter turns one subject — a stored run's `Report`, a `Comparison`, or a `verify` run's
`Verification` — into text. The commands ask the registry for `--format` (stdout) and for the file
flags (`--md FILE`, ...) instead of naming format modules, so a new format is one entry here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptobench.core.errors import UserError
from cryptobench.core.outputs import check_writable, write_atomic
from cryptobench.report.formats import (
    compare_json,
    compare_markdown,
    compare_terminal,
    history,
    html,
    json_,
    leak,
    machines,
    markdown,
    terminal,
    verification,
)
from cryptobench.report.formats import csv as csv_

RUN, COMPARE, VERIFY, MATRIX, HISTORY, LEAK = "run", "compare", "verify", "matrix", "history", "leak"


@dataclass(frozen=True)
class Exporter:
    subject: str  # RUN | COMPARE | VERIFY: what it lays out
    name: str  # the --format value; the file flag is --NAME
    render: Callable[[Any, bool], str]  # (subject, colour wanted) -> the whole text
    to_stdout: bool = True  # offered by --format
    to_file: bool = True  # offered as --NAME FILE
    available: Callable[[], None] = lambda: None  # raises UserError when it cannot be made on this machine
    help: str = ""  # of the file flag


def _plain(render: Callable[[Any], str]) -> Callable[[Any, bool], str]:
    return lambda subject, _color: render(subject)


EXPORTERS: tuple[Exporter, ...] = (
    Exporter(RUN, "terminal", lambda rep, color: terminal.render(rep, color=color), to_file=False),
    Exporter(RUN, "json", _plain(json_.render), help="also write the result as JSON (docs/results-schema.md)"),
    Exporter(RUN, "csv", _plain(csv_.render), help="also write one CSV row per provider and cell"),
    Exporter(RUN, "md", _plain(markdown.render), help="also write a Markdown report"),
    Exporter(
        RUN,
        "html",
        _plain(html.render),
        to_stdout=False,
        available=html.ensure_available,
        help="also write a self-contained HTML report with charts (nothing fetched when opened)",
    ),
    Exporter(COMPARE, "terminal", lambda comp, color: compare_terminal.render(comp, color=color), to_file=False),
    Exporter(COMPARE, "md", _plain(compare_markdown.render), help="also write the comparison as Markdown"),
    Exporter(COMPARE, "json", _plain(compare_json.render), help="also write it as JSON (docs/results-schema.md)"),
    Exporter(MATRIX, "terminal", lambda m, color: machines.render_terminal(m, color=color), to_file=False),
    Exporter(MATRIX, "md", _plain(machines.render_markdown), help="also write the matrix as Markdown"),
    Exporter(MATRIX, "json", _plain(machines.render_json), help="also write the matrix as JSON"),
    Exporter(MATRIX, "csv", _plain(machines.render_csv), help="also write one CSV row per machine and cell"),
    Exporter(MATRIX, "html", _plain(machines.render_html), help="also write the matrix as HTML"),
    Exporter(HISTORY, "terminal", lambda h, color: history.render_terminal(h, color=color), to_file=False),
    Exporter(HISTORY, "md", _plain(history.render_markdown), help="also write the history as Markdown"),
    Exporter(HISTORY, "json", _plain(history.render_json), help="also write the history as JSON"),
    Exporter(
        HISTORY,
        "html",
        _plain(history.render_html),
        available=html.ensure_available,
        help="also write the history as HTML, a chart per series (nothing fetched when opened)",
    ),
    Exporter(LEAK, "terminal", lambda r, color: leak.render_terminal(r, color=color), to_file=False),
    Exporter(LEAK, "json", _plain(leak.render_json), help="also write the leak checks as JSON"),
    Exporter(LEAK, "md", _plain(leak.render_markdown), help="also write the leak table as Markdown"),
    Exporter(LEAK, "html", _plain(leak.render_html), help="also write it as HTML, a chart per check"),
    Exporter(VERIFY, "terminal", lambda v, color: verification.render_terminal(v, color=color), to_file=False),
    Exporter(VERIFY, "json", _plain(verification.render_json), help="also write the matrix as JSON"),
    Exporter(VERIFY, "md", _plain(verification.render_markdown), help="also write the matrix as Markdown"),
    Exporter(VERIFY, "html", _plain(verification.render_html), to_stdout=False, help="also write it as HTML"),
)


def stdout_formats(*subjects: str) -> list[str]:
    """The --format choices of a command (of the subjects it shows)."""
    return list(dict.fromkeys(e.name for e in EXPORTERS if e.subject in subjects and e.to_stdout))


def file_formats(*subjects: str) -> list[str]:
    """The file flags of a command, without their dashes."""
    return list(dict.fromkeys(e.name for e in EXPORTERS if e.subject in subjects and e.to_file))


def add_file_flags(parser, *subjects: str) -> None:
    """`--json FILE`, `--md FILE`, ...: one per format any of the subjects writes to files (a command
    that shows two subjects, like compare's pairs and matrix, offers each format once)."""
    seen = set()
    for e in EXPORTERS:
        if e.subject in subjects and e.to_file and e.name not in seen:
            seen.add(e.name)
            parser.add_argument(f"--{e.name}", metavar="FILE", help=e.help)


def get(subject: str, name: str) -> Exporter:
    for e in EXPORTERS:
        if e.subject == subject and e.name == name:
            return e
    raise UserError(f"no {name} format for {subject} reports (there are: {', '.join(stdout_formats(subject))})")


def requested(subject: str, args) -> list[tuple[Exporter, str]]:
    """(exporter, path) for each file flag the user gave, in the registry's order."""
    return [(e, getattr(args, e.name)) for e in EXPORTERS
            if e.subject == subject and e.to_file and getattr(args, e.name, None)]  # fmt: skip


def check_requested(subject: str, args) -> None:
    """Before a long run: every file can be written and every format can be made here."""
    wanted = requested(subject, args)
    check_writable([(f"--{e.name}", path) for e, path in wanted])
    for e, _path in wanted:
        e.available()


def print_stdout(subject: str, name: str, thing, color: bool) -> None:
    print(get(subject, name).render(thing, color), end="")


def write_requested(subject: str, thing, args) -> None:
    """Each file the user asked for, written whole or not at all, each named on stderr."""
    for e, path in requested(subject, args):
        write_atomic(path, e.render(thing, False))
        print(f"wrote {path}", file=sys.stderr)
