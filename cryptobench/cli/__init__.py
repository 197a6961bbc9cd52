"""The `cryptobench` command line."""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import signal
import subprocess
import sys
import traceback
from pathlib import Path

from cryptobench import __version__
from cryptobench.core import algorithms, environment
from cryptobench.core.errors import DriverError, UserError
from cryptobench.core.lists import split_list
from cryptobench.core.outputs import check_writable, write_atomic
from cryptobench.core.textsafe import printable
from cryptobench.drivers import cpu_features as cpufeatures
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import DRIVERS, Registry
from cryptobench.fleet import commands as fleet
from cryptobench.icount import metrics as icount_metrics
from cryptobench.leak.check import leak_plan
from cryptobench.measure import duet, scaling
from cryptobench.plan.leak_classes import CLASSES as LEAK_CLASSES
from cryptobench.plan.planner import Filters, check_suite_providers, make_plan
from cryptobench.plan.suites import list_suites, load_suite, parse_chunks, with_chunks
from cryptobench.report import exporters, load_report
from cryptobench.report import instructions as icount_views
from cryptobench.report import terminal as term_report
from cryptobench.report.outcome import outcome
from cryptobench.run.runner import Interrupted, Runner, Settings
from cryptobench.store import DEFAULT_DB, SpoolingStore, db_url, open_store
from cryptobench.verify.vectors import default_vectors_dir

EXAMPLES = {
    "run": """examples:
  cryptobench run                                   # the default suite on every available provider
  cryptobench run --alg 'aes-*-gcm' --size 16KiB,1MiB --md report.md
  cryptobench run --provider c:openssl --alg aes-256-ctr --size 8KiB   # any cell, listed by a suite or not
  cryptobench run --alg sha256 --alg sha512 --provider go:stdlib       # repeated flags add up
  cryptobench run --suite my-suite.toml --provider 'c:*,go:*' --baseline go:stdlib --json out.json
  cryptobench run --suite versions --cpu-features no-aesni --label 'AES-NI off'
  cryptobench run --plugin mine.py --alg sha256      # your own library (docs/plugins.md) beside c:openssl
  cryptobench run --plugin ./libcb_mine.so --alg sha256   # a C/C++ plugin (docs/plugin-abi.md)
  cryptobench run --machine-label 'pi5, 2.4 GHz'      # this machine's name in `runs` and the reports
  cryptobench run --precision 0.5                     # aim every cell at a ±0.5% interval (default: ±1%)
  cryptobench run --unit cpb,mbs                      # TSC reference cycles per byte beside MB/s
  cryptobench run --metric instructions --provider c:openssl --alg sha256   # instructions/op, exact on a busy machine
exit status: 0 when every cell was measured (or is not offered), 1 when a cell, a verification or a
  cross-verification failed or --leak found a leak (the last line names them), 2 when it could not run
  (bad input, no database), 130 when interrupted (every cell measured so far is kept)""",
    "verify": """examples:
  cryptobench verify                                  # the default suite's algorithms and providers
  cryptobench verify --provider '*' --alg 'aes-*' --md conformance.md
  cryptobench verify --provider c:openssl --alg sha256 --inputs 2000     # more differential inputs
  cryptobench verify --plugin mine.py                 # your plugin against c:openssl, nothing timed
  cryptobench verify --provider test:x --alg sha256 --replay 'op=hash,size=57,seed=2654435769,chunk=7'
exit status: 0 when nothing failed, 1 when a provider failed a case (for a library's CI; --replay: when
  the providers' outputs differ), 2 on bad input, 130 when interrupted""",
    "leak": """examples:
  cryptobench leak                                    # the leak suite: tag checks, AES, X25519, ECDSA, RSA, ML-KEM
  cryptobench leak --provider c:openssl --alg aes-128-gcm --class tag --seconds 20
  cryptobench leak --provider c:openssl --alg x25519 --target-effect 0.5%   # until a 0.5% shift would show
  cryptobench leak --cpu-features no-aesni --alg aes-128-ecb --md leak.md     # OpenSSL without AES-NI
  cryptobench leak --plugin ./libcb_mine.so --alg aes-128-gcm --html leak.html  # your library, a chart per check
  cryptobench run --leak --alg x25519                 # throughput, then the leak checks of the same cells
classes: """
    + ", ".join(LEAK_CLASSES)
    + """ (docs/leak.md)
exit status: 0 when no leak was detected, 1 when one was or a check failed (for a library's CI), 2 on bad
  input, 130 when interrupted""",
    "list": """examples:
  cryptobench list providers     # language, library, version, algorithms offered
  cryptobench list algorithms
  cryptobench list suites
exit status: 0 (a provider that cannot start is listed with why: `doctor` fails on it), 2 on bad input""",
    "doctor": """example:
  cryptobench doctor             # which drivers are built and usable, and the command that fixes each
exit status: 0 when every provider starts (the optional heavy builds of `build --all` may be missing), 1
  when one does not or the vectors are missing, 2 on bad input (a providers file that does not parse)""",
    "show": """examples:
  cryptobench show latest                    # the newest run, as terminal tables
  cryptobench show 3 --md run3.md --json run3.json --csv run3.csv
  cryptobench show latest --html report.html      # charts, one self-contained file
  cryptobench show latest~1 --format md      # the run before the newest, Markdown on stdout
  cryptobench show latest --warnings         # every warning of the run in full, by kind
  cryptobench show latest --unit cpb --unit ns    # cycles per byte (TSC reference cycles), then ns
exit status: 0 when shown (a run with failed cells too: `run` said so), 2 when it cannot be (no such run
  or database, bad input)""",
    "runs": """examples:
  cryptobench runs --db results/cryptobench.db
  cryptobench runs --machine pi5 --json --db postgresql://cb_read@fleet/cryptobench
exit status: 0 when listed, 2 when the database cannot be read""",
    "compare": """examples:
  cryptobench compare latest~1 latest                # two stored runs, e.g. before and after an upgrade
  cryptobench compare --providers c:openssl,go:stdlib latest --md cmp.md
  cryptobench compare 4 7 --fail-on-regression 5     # exit 1 if any cell got significantly slower by > 5%
  cryptobench compare 4 7 --fail-on-regression 0.5   # runs with --metric instructions: > 0.5% more instructions
  cryptobench compare --machines laptop,pi5 --suite default     # each machine's latest run, per cycle too
  cryptobench compare --machines laptop,pi5,ci --layout matrix --html machines.html   # machines × algorithms
exit status: 0 when compared, 1 with --fail-on-regression when a cell got slower by more than PCT (the
  last line names them), 2 on bad input (no such run, nothing in common), 130 when interrupted""",
    "reference": """examples:
  cryptobench reference add paper-table4.toml      # a paper's figures, with their source and machine
  cryptobench reference list
  cryptobench reference remove 3
  cryptobench show latest --normalise '0.55:Pi 5 core at 2.4 GHz vs 4.4 GHz here'   # opt in to ratios
file format (TOML):
  source = "Example et al. 2025, Table 4"
  machine = "Raspberry Pi 5 (Cortex-A76, 2.4 GHz)"
  [[figure]]
  alg = "ml-kem-512"
  op = "keygen"
  ops_per_s = 23168
exit status: 0 when done, 2 on bad input (a file that does not parse, no such id)""",
    "check-driver": """examples:
  cryptobench check-driver                             # every built provider against the driver rules
  cryptobench check-driver --provider 'c:*' --json rules.json
  cryptobench check-driver --providers-file mine.toml --provider mine:lib   # your own driver
rules: docs/protocol.md § The measurement loop
exit status: 0 when every driver keeps every rule, 1 when one breaks a rule, 2 on bad input (no provider
  to check), 130 when interrupted""",
    "plugin": """examples:
  cryptobench plugin new mylib                   # ./mylib/mylib_provider.py, a working plugin to make yours
  cryptobench plugin check mylib/mylib_provider.py   # every vector and differential input, no timing
  cryptobench plugin new mylib --lang c && make -C mylib   # a C plugin: ./mylib/libcb_mylib.so
  cryptobench plugin check ./mylib/libcb_mylib.so
  cryptobench plugin check ./mylib/libcb_mylib.so --alg 'aes-*-gcm'   # the fast loop; the last line is the verdict
  cryptobench plugin new mylib --lang rust && cargo build --release --manifest-path mylib/Cargo.toml
  cryptobench plugin check ./mylib/target/release/libcb_mylib.so   # a Rust cdylib plugin
  cryptobench run --plugin mylib/mylib_provider.py --alg sha256      # then measure it
exit status: 0 when `new` wrote it or `check` passed, 1 when a case fails or a driver rule is broken
  (docs/plugins.md), 2 when the plugin cannot be loaded or on bad input, 130 when interrupted""",
    "build": """examples:
  cryptobench build              # build every driver, say which could not be built and why
  cryptobench build c go
  cryptobench build --all        # also OpenSSL 1.1.1, 3.x and 4.0 from source (minutes once, then cached)
  cryptobench build c:openssl-3.6.3   # one provider of a driver: here one OpenSSL version
  cryptobench build python:cryptography@41.0.7 rust:ring@0.16   # releases from the registries (cached)
  cryptobench build --list       # the cached version builds: size, build time, last use
  cryptobench build --prune rust:ring --unused-for 30
exit status: 0 when every build named was built (--list, --prune: done), 1 when one failed (the line
  says why), 2 on bad input (an unknown driver), 130 when interrupted""",
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cryptobench",
        description="Verified, statistically honest benchmarks of cryptography implementations, side by side.",
        epilog="example:\n  cryptobench run --alg sha256 --size 1KiB\n\nRun `cryptobench COMMAND --help` for more.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"cryptobench {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def cmd(name: str, help_: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help_,
            description=help_,
            epilog={**EXAMPLES, **fleet.EXAMPLES}[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    db_help = (
        f"store: a path, sqlite:///path or postgresql://user@host/db (default $CRYPTOBENCH_DB, else ./{DEFAULT_DB})"
    )
    r = cmd("run", "Verify every provider, then measure a suite and report it.")
    r.add_argument(
        "--suite", default="default", help="suite name (see `list suites`) or a .toml file (default: default)"
    )
    r.add_argument(
        "--alg",
        action="append",
        help="these algorithms (comma-separated globs, e.g. 'sha*,aes-128-*'; repeat to add): a pattern matching "
        "algorithms of the suite narrows it, one matching none of them adds those of the catalogue",
    )
    r.add_argument(
        "--provider",
        action="append",
        help="these providers (comma-separated globs, e.g. 'c:*,go:stdlib'; repeat to add); a provider the "
        "suite does not list is timed on every algorithm of the suite. NAME@VERSION builds that release "
        "(cached): python:cryptography@41.0.7, rust:ring@0.16, js:noble@latest, c:openssl@3.0, "
        "java:bouncycastle@'>=1.80' (docs/versions.md)",
    )
    r.add_argument(
        "--newest", type=int, default=3, metavar="N",
        help="a version range (@'>=44', @'46.*') takes its N newest releases (default: 3)",
    )  # fmt: skip
    r.add_argument(
        "--size",
        action="append",
        help="these sizes (comma-separated, e.g. '1KiB,8KiB'; repeat to add): sizes are measured whether the "
        "suite lists them or not; globs like '*MiB' pick among the suite's sizes",
    )
    r.add_argument(
        "--chunk",
        action="append",
        metavar="LIST",
        help="stream every message through update() in pieces of these sizes, e.g. 1,16,64,256,4096,65536 "
        "(0 = one-shot; replaces the suite's chunks; with no --size the message is 16 MiB)",
    )
    r.add_argument("--baseline", help="provider the others are compared with (default: the suite's, c:openssl)")
    r.add_argument("--db", help=db_help)
    exporters.add_file_flags(r, exporters.RUN)
    r.add_argument(
        "--time-per-cell", type=float, metavar="S", help="time budget per provider and cell (default: the suite's)"
    )
    r.add_argument(
        "--noise", type=float, default=2.0, metavar="PCT", help="noise threshold for verdicts in %% (default 2)"
    )
    r.add_argument(
        "--passes",
        type=int,
        default=3,
        metavar="N",
        help="passes over the plan, each taking a share of every cell's budget, so a cell's samples are "
        "spread over the run and a slow moment of the machine cannot own one cell (default 3)",
    )
    r.add_argument(
        "--precision",
        type=float,
        metavar="PCT",
        help="the 95%% interval each cell aims for, as +-PCT of its median (default: the suite's, 1). A cell "
        "stops early once its reported interval is that tight; the budget left over then goes to the cells "
        "still wider, widest first; the report names the cells that did not get there and why",
    )
    r.add_argument(
        "--no-pairing",
        action="store_true",
        help="measure each provider of a cell in rounds of several batches and compare medians with independent "
        "intervals (the design before pairing; for comparing the two). By default providers take turns batch for "
        "batch and each speed-vs-baseline interval comes from the pairs (docs/measurement.md)",
    )
    r.add_argument(
        "--duet",
        action="store_true",
        help="lockstep pairs: the baseline's and each other provider's batch run at the same moment, each driver "
        "pinned to a core of its own (needs 2 cores; opt-in: bench/paired --designs paired,duet measures whether it helps on your host)",
    )
    r.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout (default 60 s)")
    r.add_argument("--vectors", metavar="DIR", help=f"test vector directory (default {default_vectors_dir()})")
    _add_provider_sources(r, "TOML file adding providers: [[provider]] id, command")
    r.add_argument("--label", default="", help="a note stored with the run, e.g. 'before upgrade'")
    _add_machine_label(r)
    r.add_argument("--job", default="", help=argparse.SUPPRESS)  # set by `cryptobench agent`: the job run
    r.add_argument(
        "--cpu-features",
        action="append",
        metavar="LIST",
        help="switch CPU features off for OpenSSL-based providers, e.g. no-aesni,no-shani "
        "(no-aesni no-pclmul no-avx no-avx2 no-shani no-avx512 no-vaes no-vpclmulqdq)",
    )
    r.add_argument(
        "--layout", choices=["table", "matrix", "ops", "versions"], help="report layout (default: the suite's)"
    )
    r.add_argument("--unit", action="append", metavar="LIST", help=UNIT_HELP)
    r.add_argument(
        "--workers",
        action="append",
        metavar="LIST",
        help="multi-core scaling: after the run, every measured cell again with N processes of the provider at "
        "once, each pinned to its own core, e.g. 1,2 or 1,all (repeatable); the report gives aggregate and "
        "per-worker throughput and the efficiency against one worker, with intervals",
    )
    r.add_argument(
        "--leak",
        action="store_true",
        help="after the run, the leak checks of its cells (as `cryptobench leak`; suite key `leak`)",
    )
    r.add_argument(
        "--metric",
        action="append",
        metavar="LIST",
        help="what to measure: time (default), instructions (instructions per operation of the native drivers, "
        "counted by valgrind or hardware counters, docs/measurement.md); repeatable, e.g. time,instructions",
    )
    r.add_argument("--quiet", action="store_true", help="no progress output")

    v = cmd("verify", "Verify providers without timing them: known answers, Monte Carlo, differential tests.")
    v.add_argument("--suite", default="default", help="whose algorithms and providers to verify (default: default)")
    v.add_argument("--alg", action="append", help="these algorithms (comma-separated globs; repeat to add)")
    v.add_argument(
        "--provider",
        action="append",
        help="these providers (comma-separated globs; repeat to add; NAME@VERSION verifies that release, as for `run`)",
    )
    v.add_argument("--newest", type=int, default=3, metavar="N", help="a version range takes its N newest releases")
    v.add_argument(
        "--inputs", type=int, default=500, metavar="N", help="differential inputs per operation (default 500)"
    )
    v.add_argument("--monte", type=int, default=3, metavar="N", help="Monte Carlo checkpoints for SHA-2/3 (default 3)")
    v.add_argument("--seed", type=int, default=1, help="seed of the differential inputs (default 1)")
    v.add_argument("--replay", metavar="SPEC", help="run one differential input on every provider and show each output")
    _add_provider_sources(v)
    _add_machine_label(v)
    v.add_argument("--vectors", metavar="DIR", help=f"test vector directory (default {default_vectors_dir()})")
    v.add_argument("--db", help=db_help)
    exporters.add_file_flags(v, exporters.VERIFY)
    v.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout (default 60 s)")
    v.add_argument("--quiet", action="store_true", help="no progress output")

    lk = cmd("leak", "Check whether operations' time depends on their secret input (dudect-style, docs/leak.md).")
    lk.add_argument("--suite", default="leak", help="whose cells to check (default: leak)")
    lk.add_argument("--alg", action="append", help="these algorithms (comma-separated globs; repeat to add)")
    lk.add_argument("--provider", action="append", help="these providers (comma-separated globs; repeat to add)")
    lk.add_argument("--size", action="append", help="message sizes (comma-separated; repeat to add)")
    lk.add_argument(
        "--class",
        dest="leak_class",
        action="append",
        metavar="LIST",
        help="these input classes only (comma-separated; repeat to add; default: every one that applies)",
    )
    lk.add_argument(
        "--seconds",
        type=float,
        default=None,
        metavar="S",
        help="time budget of one check, measurements added in batches until a leak shows (default 5; "
        "with --target-effect, the cap: default 600)",
    )
    lk.add_argument(
        "--measurements",
        type=int,
        default=None,
        metavar="N",
        help="at most this many measurements in one check (default 1000000; with --target-effect 10000000)",
    )
    lk.add_argument(
        "--target-effect",
        metavar="PCT",
        help="measure each check until a steady shift of PCT%% of the median time would pass the threshold "
        "(e.g. 0.2 or 0.2%%), in place of --seconds; without it, each verdict says the smallest it could find",
    )
    lk.add_argument(
        "--threshold",
        type=float,
        default=10.0,
        metavar="T",
        help="|t| above this is a leak (default 10, dudect's; TVLA uses 4.5 and alarms more on noise)",
    )
    lk.add_argument(
        "--cpu-features",
        action="append",
        metavar="LIST",
        help="switch CPU features off for OpenSSL-based providers, e.g. no-aesni (repeatable)",
    )
    lk.add_argument("--seed", type=int, default=1, help="seed of the inputs and their order (default 1)")
    lk.add_argument("--label", default="", help="a label stored with the run")
    _add_provider_sources(lk)
    _add_machine_label(lk)
    lk.add_argument("--vectors", metavar="DIR", help=f"test vector directory (default {default_vectors_dir()})")
    lk.add_argument("--db", help=db_help)
    lk.add_argument(
        "--format", choices=exporters.stdout_formats(exporters.LEAK), default="terminal", help="format on stdout"
    )
    exporters.add_file_flags(lk, exporters.LEAK)
    lk.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout (default 60 s)"
    )
    lk.add_argument("--quiet", action="store_true", help="no progress output")

    ls = cmd("list", "List providers, algorithms or suites.")
    ls.add_argument("what", nargs="?", default="providers", choices=["providers", "algorithms", "suites"])
    _add_provider_sources(ls)

    d = cmd("doctor", "Check which drivers are built and usable, and how to fix the others.")
    _add_provider_sources(d)

    s = cmd("show", "Re-render a stored run in any format.")
    s.add_argument("run", nargs="?", default="latest", help="run id, 'latest' or 'latest~N' (default latest)")
    s.add_argument("--db", help=db_help)
    s.add_argument(
        "--format", choices=exporters.stdout_formats(exporters.RUN), default="terminal", help="format on stdout"
    )
    s.add_argument(
        "--warnings", action="store_true", help="every warning and failure of the run in full (run's end: a summary)"
    )
    s.add_argument("--baseline", help="compare against this provider instead of the run's baseline")
    s.add_argument(
        "--layout", choices=["table", "matrix", "ops", "versions"], help="report layout (default: the run's)"
    )
    s.add_argument("--unit", action="append", metavar="LIST", help=UNIT_HELP)
    exporters.add_file_flags(s, exporters.RUN)
    s.add_argument(
        "--normalise",
        metavar="FACTOR:REASON",
        help="draw ratios against references from other machines, scaled by FACTOR for the stated REASON",
    )

    rs = cmd("runs", "List the stored runs.")
    rs.add_argument("--db", help=db_help)
    rs.add_argument("--machine", metavar="LABEL", help="only this machine's runs")
    rs.add_argument("--json", action="store_true", help="as JSON, with each run's global id (uid) and job")

    c = cmd("compare", "Compare two stored runs, or providers within one run, with significance.")
    c.add_argument("runs", nargs="*", help="RUN_A RUN_B, or with --providers one RUN (default latest)")
    c.add_argument(
        "--providers", action="append", help="comma-separated providers (repeat to add): the first is the reference"
    )
    c.add_argument("--db", help=db_help)
    c.add_argument("--alg", action="append", help="only these algorithms (comma-separated globs; repeat to add)")
    c.add_argument("--noise", type=float, default=2.0, metavar="PCT", help="noise threshold in %% (default 2)")
    c.add_argument(
        "--machines",
        action="append",
        metavar="A,B,...",
        help="the latest complete run of each machine (by label; the first is the reference; repeat to add)",
    )
    c.add_argument("--suite", help="with --machines: the latest run of this suite on each machine")
    c.add_argument(
        "--layout",
        choices=["pairs", "matrix"],
        default="pairs",
        help="with --machines: 'matrix' is machines × algorithms, throughput as measured (default: pairs)",
    )
    c.add_argument(
        "--format",
        choices=exporters.stdout_formats(exporters.COMPARE, exporters.MATRIX),
        default="terminal",
        help="format on stdout (csv and html: --layout matrix)",
    )
    exporters.add_file_flags(c, exporters.COMPARE, exporters.MATRIX)
    c.add_argument(
        "--fail-on-regression",
        type=float,
        metavar="PCT",
        help="exit 1 when any cell is significantly slower than the reference by more than PCT percent",
    )

    rf = cmd("reference", "Store published figures as references (shown labelled, never mixed into ratios).")
    rf.add_argument("action", choices=["add", "list", "remove"])
    rf.add_argument("target", nargs="?", help="FILE for add, ID for remove")
    rf.add_argument("--db", help=db_help)

    ck = cmd("check-driver", "Check drivers against the protocol's rules (warm-up, calibration, samples, errors).")
    ck.add_argument("--provider", action="append", help="these providers (comma-separated globs; repeat to add)")
    _add_provider_sources(ck)
    ck.add_argument(
        "--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout (default 60 s)"
    )
    ck.add_argument("--json", metavar="FILE", help="also write the findings as JSON")

    pl = cmd("plugin", "Start a plugin (`new`) or check one without timing it (`check`).")
    pl.add_argument("action", choices=["new", "check"])
    pl.add_argument("target", help="new: the plugin's name; check: FILE.so, FILE.py[:NAME] or module:NAME")
    pl.add_argument("--lang", default="python", choices=["python", "c", "cpp", "rust"], help="new: its language")
    pl.add_argument("--dir", metavar="DIR", help="new: where to write it (default ./NAME)")
    pl.add_argument("--db", help=db_help)
    pl.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout, hello too")
    pl.add_argument(
        "--alg", action="append", help="check: only these algorithms (comma-separated globs; repeat to add)"
    )

    b = cmd("build", "Build the drivers.")
    b.add_argument(
        "drivers",
        nargs="*",
        help=f"drivers to build: {', '.join(DRIVERS)} (default: all but the heavy), or provider ids such as "
        "c:openssl-3.6.3 to build only theirs",
    )
    b.add_argument("--all", action="store_true", help="also the heavy builds (OpenSSL versions: minutes, then cached)")
    b.add_argument("--list", action="store_true", help="list the cached version builds (NAME@VERSION): size, age")
    b.add_argument("--json", action="store_true", help="with --list: JSON")
    b.add_argument(
        "--prune", action="store_true",
        help="remove cached version builds: those named (e.g. rust:ring, 'python:cryptography@41.*'), else all",
    )  # fmt: skip
    b.add_argument("--unused-for", type=float, metavar="DAYS", help="with --prune: only builds unused that long")
    b.add_argument("--rebuild", action="store_true", help="build NAME@VERSION again even when cached")
    b.add_argument("--newest", type=int, default=3, metavar="N", help="a version range builds its N newest")
    fleet.add_commands(cmd, db_help)
    return p


build_parser = _parser  # the name tests/cli_snapshot.py walks


def _add_provider_sources(p: argparse.ArgumentParser, file_help: str = "TOML file adding providers") -> None:
    """--providers-file and --plugin: where providers beyond the built-in ones come from."""
    p.add_argument("--providers-file", metavar="FILE", help=file_help)
    p.add_argument("--plugin", action="append", metavar="FILE.so|FILE.py[:NAME]", help=PLUGIN_HELP)


def _add_machine_label(p: argparse.ArgumentParser) -> None:
    """--machine-label, for the commands that store a run (run, verify)."""
    p.add_argument(
        "--machine-label",
        default="",
        metavar="NAME",
        help="this machine's name in `runs` and every report (default: its hostname), e.g. 'laptop, on battery'",
    )


def _terminate_like_ctrl_c(signum, frame) -> None:
    raise KeyboardInterrupt  # `kill`, `timeout`, a CI cancel: keep what was measured, as Ctrl-C does


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.command:
        _parser().print_help()
        return 2
    signal.signal(signal.SIGTERM, _terminate_like_ctrl_c)
    try:
        return {
            "run": cmd_run,
            "verify": cmd_verify,
            "leak": cmd_leak,
            "list": cmd_list,
            "doctor": cmd_doctor,
            "show": cmd_show,
            "runs": cmd_runs,
            "build": cmd_build,
            "check-driver": cmd_check_driver,
            "plugin": cmd_plugin,
            "compare": cmd_compare,
            "reference": cmd_reference,
            **fleet.HANDLERS,
        }[args.command](args)
    except UserError as e:
        print(f"cryptobench: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # outside a run's measuring loop: nothing measured can be lost here
        print("cryptobench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug of ours: one line, the traceback only when asked for
        if os.environ.get("CRYPTOBENCH_DEBUG"):
            raise
        where = traceback.extract_tb(e.__traceback__)[-1]
        print(
            f"cryptobench: internal error: {type(e).__name__}: {printable(e)} (at {Path(where.filename).name}:"
            f"{where.lineno}; CRYPTOBENCH_DEBUG=1 shows the traceback; please report it)",
            file=sys.stderr,
        )
        return 70


# --- run ------------------------------------------------------------------------


PLUGIN_HELP = ("your own library as a provider: a C/C++/Rust shared object (FILE.so, docs/plugin-abi.md) or a "
               "Python module with a Provider object (docs/plugins.md); "
               "measured beside the suite's baseline unless --provider names others; repeat to add")  # fmt: skip


def _registry(args) -> Registry:
    """The providers, with the user's providers file and plugins; a plugin named is a provider named."""
    plugins = [p.strip() for v in getattr(args, "plugin", None) or [] for p in v.split(",") if p.strip()]
    registry = Registry(getattr(args, "providers_file", None), plugins)
    if registry.plugin_ids and hasattr(args, "provider"):
        named = args.provider
        if not named and args.command in ("run", "verify"):  # something to compare the plugin with
            named = [getattr(args, "baseline", None) or "c:openssl"]
        args.provider = [*(named or []), ",".join(registry.plugin_ids)]
    return registry


def _versions(args, registry: Registry, suite) -> None:
    """`base@version` names (on the command line or in the suite) become built, registered providers;
    old ids (`c:openssl-3.6.3`) their canonical ones. Builds show progress and never stop the run."""
    from cryptobench.versions.resolve import ensure_built, expand

    newest = getattr(args, "newest", None) or 3
    if args.provider:
        names = [x.strip() for v in args.provider for x in v.split(",") if x.strip()]
        args.provider = [",".join(expand(registry, names, newest))] if names else args.provider
    for g in suite.groups:
        if g.providers:
            g.providers = expand(registry, g.providers, newest)
    named = [p for v in args.provider or [] for p in v.split(",")]
    named += [p for g in suite.groups for p in g.providers or []]
    ensure_built(registry, list(dict.fromkeys(named)), lambda line: print(f"cryptobench: {line}", file=sys.stderr))


def _listed(values: list[str] | None) -> str | None:
    """Repeated list flags add up: `--alg sha256 --alg sha512` is `--alg sha256,sha512`."""
    return None if values is None else ",".join(values)


UNIT_HELP = (
    "figures in the tables, repeatable or comma-separated, in order: ns (median per operation), mbs (MB/s), "
    "ops (operations/s), cpb (TSC reference cycles per byte, per operation for key and signature cells; "
    "only where the CPU's time-stamp counter is invariant). Default: ns,mbs,ops"
)


def _units(args) -> list[str] | None:
    """`--unit` values in the order given, each once; an unknown one refused in one line."""
    from cryptobench.report.cells import UNIT_TITLES

    units = split_list(args.unit, "--unit")
    for u in units or []:
        if u not in UNIT_TITLES:
            raise UserError(f"--unit {u!r} is not a unit (known: {', '.join(UNIT_TITLES)})")
    return units


def _finite(value: float | None, flag: str, low: float, high: float, unit: str) -> None:
    """NaN, infinities and values out of range are refused in one line."""
    if value is not None and not (math.isfinite(value) and low < value <= high):
        raise UserError(f"{flag} must be a number in ({low:g}, {high:g}] {unit}, not {value!r}")


def _check_run_args(args) -> None:
    icount_metrics.parse(args.metric)  # an unknown metric is refused before anything runs
    scaling.parse_workers(args.workers)  # refused before anything runs
    _units(args)  # an unknown unit is refused before anything runs
    _finite(args.time_per_cell, "--time-per-cell", 0, 3600, "seconds")
    _finite(args.timeout, "--timeout", 0, 86400, "seconds")
    if not (math.isfinite(args.noise) and 0 <= args.noise < 100):
        raise UserError(f"--noise must be a percentage in [0, 100), not {args.noise!r}")
    if args.passes < 1:
        raise UserError(f"--passes must be at least 1, not {args.passes}")
    if args.duet and args.no_pairing:
        raise UserError("--duet pairs batches at the same moment; it cannot go with --no-pairing")
    if args.duet:
        duet.two_cores()  # refused now, in one line, not after verification
    if args.precision is not None:
        _finite(args.precision, "--precision", 0, 100, "percent")
    if args.vectors and not Path(args.vectors).is_dir():
        raise UserError(f"vector directory {args.vectors!r} does not exist")
    exporters.check_requested(exporters.RUN, args)  # before a long run, not after it


def _unbuilt_notice(registry: Registry, cells) -> list[str]:
    """One line per driver the plan needs but that is not built, with the command that adds it."""
    needs: dict[str, list[str]] = {}
    for pid in dict.fromkeys(p for c in cells for p in c.providers):
        ok, why = registry.usable(registry.get(pid))
        if not ok:
            needs.setdefault(why, []).append(pid)
    return [f"{', '.join(pids)}: {why}; measuring the others" for why, pids in needs.items()]


def _plan(args, sizes: str | None, chunks=None):
    """What run, verify and leak start from: the suite (with `--chunk`'s chunks when given), its
    pinned versions, the registry, and the plan of the cells the filters select among the built
    providers."""
    suite = load_suite(args.suite)
    registry = _registry(args)
    _versions(args, registry, suite)
    check_suite_providers(suite, list(registry.providers))
    filters = Filters.parse(args.alg, args.provider, sizes)
    if chunks:
        suite = with_chunks(suite, parse_chunks(chunks), None if sizes else 16 * 1024 * 1024)
    built = [p for p in registry.selectable(None) if registry.usable(registry.get(p))[0]]
    return suite, registry, make_plan(suite, registry.selectable(filters.providers), filters, reach=built)


def cmd_run(args) -> int:
    from cryptobench.run.progress import make_progress

    _check_run_args(args)
    suite, registry, the_plan = _plan(args, args.size, _listed(args.chunk) if args.chunk else None)
    baseline = registry.canonical(args.baseline or suite.baseline)
    if args.baseline:
        registry.get(args.baseline)
    cpu_off = ",".join(cpufeatures.parse(_listed(args.cpu_features))) if args.cpu_features else ""
    cells = the_plan.cells
    for line in the_plan.skipped:
        print(f"cryptobench: not measured: {line}", file=sys.stderr)
    unbuilt = _unbuilt_notice(registry, cells)
    for line in unbuilt:
        print(f"cryptobench: {line}", file=sys.stderr)
    providers = sorted({p for c in cells for p in c.providers})
    store = SpoolingStore(open_store(args.db))  # a database that stops taking writes loses no cell
    store.check_writable()
    settings = Settings(
        suite=suite.name,
        baseline=baseline,
        time_per_cell=args.time_per_cell or suite.time_per_cell,
        timeout=args.timeout,
        vectors_dir=args.vectors,
        noise=args.noise / 100,
        label=args.label,
        machine_label=environment.checked_machine_label(args.machine_label),
        layout=args.layout or suite.layout,
        cpu_features=cpu_off,
        passes=args.passes,
        paired=not args.no_pairing,
        duet=args.duet,
        max_rel_ci=(args.precision if args.precision is not None else suite.precision) / 100,
        workers=scaling.parse_workers(args.workers or suite.workers),
        leak=args.leak or suite.leak,
        leak_classes=suite.leak_classes,
        job=args.job,
        metrics=icount_metrics.parse(args.metric),
    )
    runner = Runner(store, registry, settings, make_progress(args.quiet))
    code = 0
    try:
        run_id = runner.run(cells, providers)
    except Interrupted as e:
        run_id, code = e.run_id, 130
        print(f"interrupted: run {run_id} keeps every cell measured so far", file=sys.stderr)
    try:
        rep = load_report(store, run_id, baseline=baseline, units=_units(args))
    except UserError as e:  # `--unit cpb` on a host without an invariant TSC: the run is stored all the same
        print(f"cryptobench: {e}; showing the default units", file=sys.stderr)
        rep = load_report(store, run_id, baseline=baseline)
    exporters.print_stdout(exporters.RUN, "terminal", rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.RUN, rep, args)
    for line in unbuilt:  # again at the end: the first time scrolled away with the progress lines
        print(f"cryptobench: {line}", file=sys.stderr)
    print(store.stored_line(run_id), file=sys.stderr)
    if code:
        print(f"cryptobench: interrupted: exit {code}", file=sys.stderr)
        return code
    code, line = outcome(rep, _excused(args, registry, providers))
    if line:
        print(line, file=sys.stderr)  # the verdict, last: a CI log's last line says why it failed
    return code


def _excused(args, registry: Registry, providers: list[str]) -> frozenset[str]:
    """Providers whose cells failed only for not being built, and which the user did not name: the
    run said at its start it measures the others, so they do not fail it (named ones do)."""
    named = {registry.canonical(n.strip()) for v in args.provider or [] for n in v.split(",")}
    return frozenset(p for p in providers if p not in named and not registry.usable(registry.get(p))[0])


# --- verify ------------------------------------------------------------------------


def cmd_verify(args) -> int:
    from cryptobench.report import conformance as conf_report
    from cryptobench.run.progress import make_progress
    from cryptobench.verify.differential import Input

    _finite(args.timeout, "--timeout", 0, 86400, "seconds")
    if not 0 <= args.inputs <= 100_000 or not 0 <= args.monte <= 100:
        raise UserError("--inputs must be in [0, 100000] and --monte in [0, 100]")
    exporters.check_requested(exporters.VERIFY, args)
    suite, registry, the_plan = _plan(args, None)
    cells = the_plan.cells
    if args.replay:
        return _replay(registry, cells, Input.parse(args.replay), args.timeout)
    for line in _unbuilt_notice(registry, cells):
        print(f"cryptobench: {line}", file=sys.stderr)
    store = SpoolingStore(open_store(args.db))
    store.check_writable()
    settings = Settings(suite=f"verify:{suite.name}", baseline=suite.baseline, timeout=args.timeout,
                        vectors_dir=args.vectors, differential_inputs=args.inputs, monte_checkpoints=args.monte,
                        seed=args.seed if args.seed > 0 else 1, measure=False,
                        machine_label=environment.checked_machine_label(args.machine_label))  # fmt: skip
    providers = sorted({p for c in cells for p in c.providers})
    try:
        run_id = Runner(store, registry, settings, make_progress(args.quiet)).run(cells, providers)
    except Interrupted as e:
        print(f"interrupted: run {e.run_id} keeps what was verified so far",
              file=sys.stderr)  # fmt: skip
        return 130
    run, verifs, _ = store.load_run(run_id)
    verification = conf_report.Verification(run, verifs)
    exporters.print_stdout(exporters.VERIFY, "terminal", verification, color=sys.stdout.isatty())
    exporters.write_requested(exporters.VERIFY, verification, args)
    print(store.stored_line(run_id), file=sys.stderr)
    return 1 if conf_report.failed(verifs) else 0


def _target_effect(text: str | None) -> float | None:
    """--target-effect: a percentage of the median time, '0.2' or '0.2%', in (0, 100)."""
    if text is None:
        return None
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value < 100):
        raise UserError(f"--target-effect must be a percentage of the median time in (0, 100), e.g. 0.2%, not {text!r}")
    return value


def cmd_leak(args) -> int:
    from cryptobench.leak import check as leak_check
    from cryptobench.plan import leak_classes as leak_classes
    from cryptobench.report.leak_table import LeakReport
    from cryptobench.run.progress import make_progress

    _finite(args.timeout, "--timeout", 0, 86400, "seconds")
    _finite(args.seconds, "--seconds", 0, 86400, "seconds")
    _finite(args.threshold, "--threshold", 0, 1e9, "")
    target = _target_effect(args.target_effect)
    # with a target, the budget is what the target needs: --seconds and --measurements are only caps
    usual = leak_check.Budget()  # the defaults without a target
    seconds = args.seconds if args.seconds is not None else leak_check.TARGET_SECONDS if target else usual.seconds
    measurements = args.measurements
    if measurements is None:
        measurements = leak_check.TARGET_MEASUREMENTS if target else usual.measurements
    if not 1000 <= measurements <= 100_000_000:
        raise UserError("--measurements must be in [1000, 100000000]")
    only = leak_classes.parse(args.leak_class)
    exporters.check_requested(exporters.LEAK, args)
    suite, registry, the_plan = _plan(args, args.size)
    cpu_off = ",".join(cpufeatures.parse(_listed(args.cpu_features))) if args.cpu_features else ""
    cells = the_plan.cells
    if not args.size:  # an algorithm the suite does not list comes with every default size: its smallest is enough
        smallest = {}
        for c in cells:
            smallest[(c.alg, c.op)] = min(smallest.get((c.alg, c.op), c.size), c.size)
        cells = [c for c in cells if c.size == smallest[(c.alg, c.op)]]
    if not leak_plan(cells, only):
        named = f" of class {', '.join(only)}" if only else ""
        raise UserError(f"no leak check{named} applies to the selected cells (docs/leak.md lists the classes)")
    for line in _unbuilt_notice(registry, cells):
        print(f"cryptobench: {line}", file=sys.stderr)
    store = SpoolingStore(open_store(args.db))
    store.check_writable()
    settings = Settings(suite=f"leak:{suite.name}", baseline=suite.baseline, timeout=args.timeout,
                        vectors_dir=args.vectors, measure=False, leak=True, leak_classes=only,
                        leak_seconds=seconds, leak_measurements=measurements, leak_target_effect=target,
                        leak_threshold=args.threshold, cpu_features=cpu_off, label=args.label,
                        seed=args.seed if args.seed > 0 else 1,
                        machine_label=environment.checked_machine_label(args.machine_label))  # fmt: skip
    providers = sorted({p for c in cells for p in c.providers})
    code = 0
    try:
        run_id = Runner(store, registry, settings, make_progress(args.quiet)).run(cells, providers)
    except Interrupted as e:
        run_id, code = e.run_id, 130
        print(f"interrupted: run {run_id} keeps every check made so far", file=sys.stderr)
    run, _, _ = store.load_run(run_id)
    rep = LeakReport(run, run.env.get("leak") or [])
    exporters.print_stdout(exporters.LEAK, args.format, rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.LEAK, rep, args)
    print(store.stored_line(run_id), file=sys.stderr)
    if code:
        return code
    return 1 if any(r.get("status") in ("leak", "failed") for r in rep.records) else 0


def _replay(registry: Registry, cells, x, timeout: float) -> int:
    """One differential input on every provider of the plan that offers it: each one's output."""
    from cryptobench.verify.differential import _ask

    algs = list(dict.fromkeys(c.alg for c in cells))
    if len(algs) != 1:
        raise UserError("--replay needs exactly one --alg")
    alg = algs[0]
    answers = {}
    for pid in sorted({p for c in cells for p in c.providers}):
        p = registry.get(pid)
        if not registry.usable(p)[0]:
            continue
        try:  # one driver per provider: its hello says whether it offers the operation
            d = DriverProcess(pid, p.argv(), env=registry.env_for(p))
        except DriverError:
            continue
        try:
            offers = d.hello(timeout=timeout).get("offers", {})
            if x.op in offers.get(alg, []):
                o = _ask(lambda m, d=d: d.request(m, timeout), alg, x)  # driver errors come back in o.error
                answers[pid] = "not offered" if o.not_offered else (o.checksum or o.error)
        except DriverError:
            pass  # a driver that cannot say hello offers nothing to compare
        finally:
            d.close(timeout=2)
    if not answers:
        raise UserError(f"no provider of the plan offers {alg} {x.op}")
    for pid, out in answers.items():
        print(f"{pid:<24} {printable(out)}")
    return 1 if len({a for a in answers.values() if a != "not offered"}) > 1 else 0


# --- show / runs ------------------------------------------------------------------


def cmd_show(args) -> int:
    if db_url(args.db) == DEFAULT_DB and not Path(DEFAULT_DB).exists():
        raise UserError(f"no database at ./{DEFAULT_DB} (pass --db or run `cryptobench run` first)")
    exporters.check_requested(exporters.RUN, args)
    store = open_store(args.db)
    run_id = store.resolve_run(args.run)
    rep = load_report(store, run_id, args.baseline, args.layout, _normalisation(args.normalise), _units(args))
    if args.warnings:
        print(term_report.render_warnings(rep), end="")
    else:
        exporters.print_stdout(exporters.RUN, args.format, rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.RUN, rep, args)
    return 0


def cmd_runs(args) -> int:
    import json

    store = open_store(args.db)
    runs = store.list_runs(machine=args.machine)
    if args.json:
        print(json.dumps(runs, indent=2))
        return 0
    if not runs:
        print(f"no runs stored in {store.url}")
        return 0
    print(
        f"{'id':>4}  {'started':<25} {'status':<11} {'suite':<12} {'machine':<16} {'ok':>5} {'failed':>6}  providers / label"
    )
    for r in runs:
        machine = printable(r["machine_label"] or r["hostname"] or "?")  # runs before machine ids: the hostname
        machine = machine if len(machine) <= 16 else machine[:15] + "…"
        label = f"  [{r['label']}]" if r["label"] else ""
        status = r["status"]
        if status == "running" and environment.process_alive(r["hostname"], r["pid"]) is False:
            status = "abandoned"  # its process died without finishing (killed, machine restarted)
        print(
            f"{r['id']!s:>4}  {r['started']!s:<25} {status!s:<11} {r['suite']!s:<12} {machine:<16} {r['cells_ok']!s:>5} "
            f"{r['cells_failed']!s:>6}  {printable(r['providers'] or '')}{printable(label)}"
        )
    return 0


# --- references ---------------------------------------------------------------


def _normalisation(text: str | None) -> tuple[float, str] | None:
    if not text:
        return None
    factor, _, reason = text.partition(":")
    try:
        value = float(factor)
    except ValueError:
        value = 0.0
    if value <= 0 or not reason.strip():
        raise UserError("--normalise needs FACTOR:REASON, e.g. '0.55:Pi 5 at 2.4 GHz vs 4.4 GHz here'")
    return value, reason.strip()


def cmd_reference(args) -> int:
    from datetime import UTC, datetime

    from cryptobench.analysis.references import load_file

    store = open_store(args.db)
    if args.action == "add":
        if not args.target:
            raise UserError("reference add needs a FILE (see `cryptobench reference --help` for its format)")
        refs = load_file(Path(args.target))
        ids = store.add_references(refs, datetime.now(UTC).isoformat(timespec="seconds"))
        print(
            f"added {len(ids)} reference figures from {refs[0].source!r} ({refs[0].machine}) as ids {ids[0]}-{ids[-1]}"
        )
    elif args.action == "list":
        refs = store.load_references()
        if not refs:
            print("no references stored")
        for r in refs:
            print(f"{r.id:>4}  {r.alg:<12} {r.op:<14} {r.ops_per_s:>12,.0f} ops/s  {r.machine}  — {r.source}")
    else:
        if not (args.target or "").isdigit():
            raise UserError("reference remove needs an ID (see `cryptobench reference list`)")
        if not store.remove_reference(int(args.target)):
            raise UserError(f"no reference with id {args.target}")
        print(f"removed reference {args.target}")
    return 0


# --- compare -------------------------------------------------------------------


def cmd_compare(args) -> int:
    from cryptobench.report.compare import compare_providers, compare_runs

    if not (math.isfinite(args.noise) and 0 <= args.noise < 100):
        raise UserError(f"--noise must be a percentage in [0, 100), not {args.noise!r}")
    exporters.check_requested(exporters.COMPARE, args)
    store = open_store(args.db)
    text, code, line = "", 0, ""  # two runs' instruction counts (icount/views.py), when both have them

    def load(ref):
        run, _, cells = store.load_run(store.resolve_run(ref))
        if args.alg:
            globs = [g.strip() for g in _listed(args.alg).split(",") if g.strip()]
            cells = [c for c in cells if any(fnmatch.fnmatchcase(c.alg, g) for g in globs)]
        return run, cells

    if args.machines:
        return _compare_machines(args, store, load)
    if args.layout == "matrix" or args.csv or args.html or args.format in ("csv", "html"):
        raise UserError("--layout matrix, --csv, --html and --format csv|html go with --machines A,B")
    if args.providers:
        if len(args.runs) > 1:
            raise UserError("with --providers give at most one run")
        run, cells = load(args.runs[0] if args.runs else "latest")
        providers = list(dict.fromkeys(p.strip() for p in _listed(args.providers).split(",") if p.strip()))
        comp = compare_providers(run, cells, providers, args.noise / 100)
    else:
        if len(args.runs) != 2:
            raise UserError("give two runs (e.g. `compare latest~1 latest`) or --providers P1,P2 [RUN]")
        a, b = load(args.runs[0]), load(args.runs[1])
        algs = [g.strip() for g in _listed(args.alg).split(",") if g.strip()] if args.alg else None
        text, code, line = icount_views.compare_runs(a[0], b[0], algs, args.format, args.fail_on_regression)
        if text and not ({(c.provider, *c.key) for c in a[1] if c.measured} & {(c.provider, *c.key) for c in b[1]}):
            print(text, end="")  # instruction counts alone (`run --metric instructions`): no time to compare
            if line:
                print(line, file=sys.stderr)
            return code
        comp = compare_runs(a, b, args.noise / 100)

    if text and args.format == "json":  # one document: the time comparison with the counts' beside it
        doc = json.loads(exporters.get(exporters.COMPARE, "json").render(comp, False))
        print(json.dumps({**doc, "instructions": json.loads(text)}, indent=2, ensure_ascii=False))
    else:
        exporters.print_stdout(exporters.COMPARE, args.format, comp, color=sys.stdout.isatty())
        print(text, end="")  # the counts, in their own table after the times
    exporters.write_requested(exporters.COMPARE, comp, args)
    if text:
        if line:
            print(line, file=sys.stderr)
            return code
    if args.fail_on_regression is not None:
        bad = comp.regressions(args.fail_on_regression)
        if bad:
            print(
                f"cryptobench: {len(bad)} cells regressed by more than {args.fail_on_regression:g}%: "
                + "; ".join(f"{' '.join(str(x) for x in p.key if x != '')} {p.ratio.percent:+.1f}%" for p in bad[:5]),
                file=sys.stderr,
            )
            return 1
    return 0


def _compare_machines(args, store, load) -> int:
    from cryptobench.report import machine_matrix
    from cryptobench.report.compare import compare_machines, latest_of_machine

    if args.runs or args.providers:
        raise UserError("--machines compares each machine's latest run: give no RUN and no --providers")
    labels = list(dict.fromkeys(m.strip() for m in _listed(args.machines).split(",") if m.strip()))
    runs = []
    for label in labels:
        run, cells = load(latest_of_machine(store, label, args.suite))
        runs.append((label, run, cells))
    if args.layout == "matrix":
        subject, thing = exporters.MATRIX, machine_matrix.build(runs)
    else:
        if args.csv or args.html or args.format in ("csv", "html"):
            raise UserError("--csv, --html and --format csv|html go with --layout matrix")
        subject, thing = exporters.COMPARE, compare_machines(runs, args.noise / 100)
    exporters.check_requested(subject, args)
    exporters.print_stdout(subject, args.format, thing, color=sys.stdout.isatty())
    exporters.write_requested(subject, thing, args)
    return 0


# --- list / doctor / build --------------------------------------------------------------


def _hello(registry: Registry, pid: str, timeout: float = 30) -> tuple[dict | None, str]:
    p = registry.get(pid)
    ok, why = registry.usable(p)
    if not ok:
        return None, why
    try:
        d = DriverProcess(pid, p.argv(), env=registry.env_for(p))
        try:
            return d.hello(timeout=timeout), ""
        finally:
            d.close(timeout=2)
    except DriverError as e:
        return None, f"driver failed: {e}"


def cmd_list(args) -> int:
    if args.what == "algorithms":
        from collections import Counter

        from cryptobench.verify.vectors import cases_for, source_of

        for a in algorithms.ALGORITHMS.values():
            sources = Counter(source_of(c) for c in cases_for(a.name))
            known = ", ".join(f"{src} {n}" for src, n in sources.most_common()) or "none"
            print(f"{a.name:<20} {a.kind:<8} ops: {', '.join(a.ops)}")
            print(f"{'':<20} known answers: {known}")
        return 0
    if args.what == "suites":
        for s in list_suites():
            print(f"{s.name:<14} {s.description}  ({s.path.name})")
        return 0
    registry = _registry(args)
    everything = [a for a in algorithms.ALGORITHMS if a != "noop"]
    for pid, p in registry.providers.items():
        hello, why = _hello(registry, pid)
        if hello is None:
            print(printable(f"{pid}") + f"\n  {printable(p.library)} — unavailable: {printable(why)}\n")
            continue
        offers = hello.get("offers", {})
        algs = [f"{a} ({'/'.join(map(str, offers[a]))})" for a in offers if a != "noop"]
        missing = [a for a in everything if a not in offers]
        # every field below is the driver's (or a providers file's): shown, never obeyed by the terminal
        lines = [
            pid,
            f"  language: {hello.get('language', p.language)}  library: {hello.get('library', p.library)}",
            f"  version:  {hello.get('library_version', '?')}",
            f"  runtime:  {hello.get('runtime', '?')}",
            f"  offers:   {', '.join(algs)}",
            f"  streaming: {', '.join(map(str, hello.get('stream', []))) or 'none'}",
            f"  not offered: {', '.join(missing) or 'none'}",
        ]
        print("\n".join(printable(line) for line in lines) + "\n")
    return 0


def cmd_doctor(args) -> int:
    registry = _registry(args)
    bad = 0
    print("drivers:")
    for d in DRIVERS.values():
        ps = [p for p in registry.providers.values() if p.driver == d.name]
        missing = [p for p in ps if p.artifact is not None and not p.artifact.exists()]
        state = f"NOT BUILT ({len(missing)} of {len(ps)} providers) — fix: {d.fix}" if missing else "built"
        print(f"  {d.name:<17} {state}")
    print("providers:")
    optional = 0
    for pid, p in registry.providers.items():
        hello, why = _hello(registry, pid)
        d = registry.driver_of(p)
        if hello:
            print(f"  {pid:<22} ok   {printable(hello.get('library_version', ''))}")
        elif d is not None and d.heavy and p.artifact is not None and not p.artifact.exists():
            optional += 1  # `build --all` builds them, minutes each: not a fault of this machine
            print(f"  {pid:<22} not built (optional): {why}")
        else:
            bad += 1
            print(f"  {pid:<22} FAIL {printable(why)}")
    vdir = default_vectors_dir()
    print(f"vectors: {vdir} ({'found' if vdir.is_dir() else 'MISSING'})")
    bad += not vdir.is_dir()
    skipped = f" ({optional} optional not built)" if optional else ""
    print(f"doctor: {f'{bad} problems, fixes above: exit 1' if bad else 'ok'}{skipped}")
    return 1 if bad else 0


def cmd_check_driver(args) -> int:
    import json

    from cryptobench.verify import driver_rules as drivercheck

    _finite(args.timeout, "--timeout", 0, 86400, "seconds")
    check_writable([("--json", args.json)])
    registry = _registry(args)
    globs = Filters.parse(None, args.provider, None).providers
    chosen = registry.selectable(globs)
    if globs is not None:
        for g in globs:
            if not any(fnmatch.fnmatchcase(pid, g) for pid in chosen):
                raise UserError(f"--provider {g!r} matches no provider (see `cryptobench list providers`)")
        chosen = [pid for pid in chosen if any(fnmatch.fnmatchcase(pid, g) for g in globs)]
    found: dict[str, list] = {}
    for pid in chosen:
        p = registry.get(pid)
        ok, why = registry.usable(p)
        if not ok:
            if globs is not None:  # named: used or refused in one line
                print(f"{pid:<26} not checked: {why}")
            continue
        found[pid] = _check_rules(registry, pid, args.timeout)
    if not found:
        raise UserError("no built provider to check (`cryptobench doctor` says what to build)")
    if args.json:
        doc = {pid: [{"rule": v.rule, "message": v.message} for v in vs] for pid, vs in found.items()}
        write_atomic(args.json, json.dumps({"rules": {k: d for k, (_, d) in drivercheck.RULES.items()},
                                            "providers": doc}, indent=2) + "\n")  # fmt: skip
    return 1 if any(found.values()) else 0


def _check_rules(registry: Registry, pid: str, timeout: float, algs: set[str] | None = None) -> list:
    """check-driver's rules on one provider's driver (of `algs`' cells only, when given), each broken
    one printed under a line naming how many: what check-driver and plugin check print alike."""
    from cryptobench.verify import driver_rules as drivercheck

    p = registry.get(pid)
    start = lambda: DriverProcess(p.id, p.argv(), env=registry.env_for(p))  # noqa: E731
    found = drivercheck.check(p.driver_id, start, timeout, algs=algs)  # the id its hello must name
    broken = len({v.rule for v in found})
    print(printable(f"{pid:<26} {f'{broken} of {len(drivercheck.RULES)} rules broken' if found else 'ok'}"))
    for v in found:
        print(f"  {printable(str(v))}")
    return found


def cmd_plugin(args) -> int:
    from cryptobench.drivers import plugin_tools

    if args.action == "new":
        files, check = plugin_tools.new(args.target, args.lang, Path(args.dir or args.target))
        for path in files:
            print(f"wrote {path}")
        print(f"next: {check}")
        return 0
    return _plugin_check(args)


def _plugin_check(args) -> int:
    """verify beside c:openssl, then the driver rules on the plugin's cells, then one verdict line, last."""
    import contextlib
    import io
    import json
    import tempfile

    from cryptobench.verify import plugin_check

    _finite(args.timeout, "--timeout", 0, 86400, "seconds")
    registry = Registry(plugins=[args.target], load_timeout=args.timeout)  # one line when it cannot be loaded
    pid = registry.plugin_ids[0]
    hello, why = _hello(registry, pid, args.timeout)
    if hello is None:
        raise UserError(f"plugin {args.target}: {why}")
    offered = [a for a in hello.get("offers", {}) if a != "noop"]
    globs = [g.strip() for v in args.alg or [] for g in v.split(",") if g.strip()]
    algs = plugin_check.chosen(pid, offered, globs)
    # the hello's words are the plugin's: printed as text (the driver client escapes them too)
    print(printable(f"{pid}: {hello.get('library_version')}; checking {', '.join(algs)}"))
    with tempfile.TemporaryDirectory(prefix="cryptobench-check-") as tmp:
        out, shown = Path(tmp) / "verify.json", io.StringIO()
        with contextlib.redirect_stderr(shown):  # all but its "wrote" line of a file nobody asked for
            verified = main(["verify", "--plugin", args.target, "--timeout", str(args.timeout), "--provider",
                             "c:openssl", "--alg", ",".join(algs), "--quiet", "--json", str(out),
                             *(["--db", args.db] if args.db else [])])  # fmt: skip
        said = shown.getvalue().splitlines(True)
        print("".join(line for line in said if line != f"wrote {out}\n"), end="", file=sys.stderr)
        if verified == 130:
            return 130
        results = json.loads(out.read_text())["results"] if out.exists() else None
    results = [r for r in results if r.get("provider") == pid] if results is not None else None
    found = _check_rules(registry, pid, args.timeout, set(algs))
    passed, line = plugin_check.verdict(pid, algs, results, found)
    print(printable(line))
    return 0 if passed else 1


def cmd_build(args) -> int:
    import shutil
    import time

    from cryptobench.versions import commands as version_builds

    registry = Registry()
    if args.list:
        return version_builds.list_builds(args.json)
    if args.prune:
        return version_builds.prune(args.drivers, args.unused_for)
    if args.json or args.unused_for is not None:
        raise UserError("--json goes with --list, --unused-for with --prune")
    versioned = [n for n in args.drivers if "@" in n and n not in registry.providers]
    if versioned:
        failed, pinned = version_builds.build_named(registry, versioned, args.newest, args.rebuild)
        rest = [n for n in args.drivers if n not in versioned] + pinned
        if not rest:
            return failed
        return max(failed, cmd_build(argparse.Namespace(**{**vars(args), "drivers": rest})))
    names = [registry.canonical(n) for n in args.drivers] or [n for n, d in DRIVERS.items() if not d.heavy or args.all]
    targets: list[tuple[str, str | None]] = []  # (driver, one provider of it or None for all)
    for n in names:
        if n in DRIVERS:
            targets.append((n, None))
        elif n in registry.providers and registry.providers[n].driver in DRIVERS:
            targets.append((registry.providers[n].driver, n))
        else:
            raise UserError(
                f"unknown driver {n!r} (known: {', '.join(DRIVERS)}, or a provider id such as c:openssl-4.0)"
            )
    failed = 0
    for n, one in targets:
        d = DRIVERS[n]
        ps = [p for p in registry.providers.values() if p.driver == n and one in (None, p.id)]
        if not d.build:
            print(f"{n:<17} ok (interpreted, nothing to build)")
            continue
        missing_tools = [t for t in d.tools if shutil.which(t) is None]
        if missing_tools:
            failed += 1
            print(f"{n:<17} FAILED: needs {', '.join(missing_tools)}, not installed (run scripts/setup.sh)")
            continue
        command = d.command_for(registry.get(one).driver_id if one else None)  # pins: the id built in
        print(f"{n:<17} building: {' '.join(command)}", flush=True)
        t0 = time.monotonic()
        try:
            res = subprocess.run(command, cwd=d.directory, capture_output=True, text=True, timeout=3600)
        except (FileNotFoundError, subprocess.TimeoutExpired) as e:
            failed += 1
            print(f"{n:<17} FAILED: {e}")
            continue
        took = time.monotonic() - t0
        broken = [p.id for p in ps if p.artifact is not None and not p.artifact.exists()]
        if res.returncode != 0 or broken:
            failed += 1
            tail = [line for line in (res.stderr or res.stdout).splitlines() if line.strip()][-3:]
            usable = [p.id for p in ps if p.id not in broken]
            print(f"{n:<17} FAILED (exit {res.returncode}, {took:.0f} s): " + " | ".join(tail))
            if usable:
                print(f"{'':<17} still usable: {', '.join(usable)}; not built: {', '.join(broken) or 'none'}")
        else:
            print(f"{n:<17} ok ({took:.0f} s): {', '.join(p.id for p in ps)}")
    return 1 if failed else 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
