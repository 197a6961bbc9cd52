"""The argparse tree: every command's flags, help texts and defaults (`build_parser`)."""

from __future__ import annotations

import argparse

from cryptobench import __version__
from cryptobench.cli.examples import EXAMPLES
from cryptobench.drivers.programs import DRIVERS
from cryptobench.fleet import commands as fleet
from cryptobench.plan.suites import LAYOUTS
from cryptobench.report import exporters
from cryptobench.store import DEFAULT_DB
from cryptobench.verify.vectors import default_vectors_dir

PLUGIN_HELP = ("your own library as a provider: a C/C++/Rust shared object (FILE.so, docs/plugin-abi.md) or a "
               "Python module with a Provider object (docs/plugins.md); "
               "measured beside the suite's baseline unless --provider names others; repeat to add")  # fmt: skip


UNIT_HELP = (
    "figures in the tables, repeatable or comma-separated, in order: ns (median per operation), mbs (MB/s), "
    "ops (operations/s), cpb (TSC reference cycles per byte, per operation for key and signature cells; "
    "only where the CPU's time-stamp counter is invariant). Default: ns,mbs,ops"
)


def build_parser() -> argparse.ArgumentParser:
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
        "java:bouncycastle@'>=1.80', go:stdlib@1.27 (a Go release: this machine's or 1.27.3) (docs/versions.md)",
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
        default=6,
        metavar="N",
        help="passes over the plan, each in fresh driver processes and taking a share of every cell's "
        "budget, so a cell's samples are spread over the run and over six process pairs, and a slow "
        "moment of the machine cannot own one cell (default 6)",
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
        "--pair-batches",
        type=int,
        default=3,
        metavar="N",
        help="batches each provider times in one request of a pair round, after one short warm-up; the round's "
        "pair is each side's fastest batch (default 3; 1: one batch a round, three rounds taken together)",
    )
    r.add_argument(
        "--duet",
        action="store_true",
        help="lockstep pairs: the baseline's and each other provider's batch run at the same moment, each driver "
        "pinned to a core of its own (needs 2 cores; opt-in: bench/paired --designs paired,duet measures whether it helps on your host)",
    )
    _add_timeout(r)
    _add_vectors(r)
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
    r.add_argument("--layout", choices=LAYOUTS, help="report layout (default: the suite's)")
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
    _add_quiet(r)

    v = cmd("verify", "Verify providers without timing them: known answers, Monte Carlo, differential tests.")
    v.add_argument("--suite", default="default", help="whose algorithms and providers to verify (default: default)")
    _add_algs(v)
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
    _add_stored_check(v, db_help)
    exporters.add_file_flags(v, exporters.VERIFY)
    _add_timeout(v)
    _add_quiet(v)

    lk = cmd("leak", "Check whether operations' time depends on their secret input (dudect-style, docs/leak.md).")
    lk.add_argument("--suite", default="leak", help="whose cells to check (default: leak)")
    _add_algs(lk)
    _add_providers(lk)
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
    _add_stored_check(lk, db_help)
    lk.add_argument(
        "--format", choices=exporters.stdout_formats(exporters.LEAK), default="terminal", help="format on stdout"
    )
    exporters.add_file_flags(lk, exporters.LEAK)
    _add_timeout(lk)
    _add_quiet(lk)

    ls = cmd("list", "List providers, algorithms or suites.")
    ls.add_argument("what", nargs="?", default="providers", choices=["providers", "algorithms", "suites"])
    ls.add_argument(
        "--provider",
        action="append",
        help="list providers: only these (comma-separated globs; repeat to add), e.g. 'plugin:*': "
        "each provider listed starts its driver once",
    )
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
    s.add_argument("--layout", choices=LAYOUTS, help="report layout (default: the run's)")
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
    _add_providers(ck)
    _add_provider_sources(ck)
    _add_timeout(ck)
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


def _add_timeout(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-request driver timeout (default 60 s)")


def _add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress output")


def _add_algs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--alg", action="append", help="these algorithms (comma-separated globs; repeat to add)")


def _add_providers(p: argparse.ArgumentParser) -> None:
    p.add_argument("--provider", action="append", help="these providers (comma-separated globs; repeat to add)")


def _add_vectors(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vectors", metavar="DIR", help=f"test vector directory (default {default_vectors_dir()})")


def _add_stored_check(p: argparse.ArgumentParser, db_help: str) -> None:
    """What a check that stores its run (verify, leak) is given besides its cells: extra providers, the
    machine's label, the vector directory and the store."""
    _add_provider_sources(p)
    _add_machine_label(p)
    _add_vectors(p)
    p.add_argument("--db", help=db_help)


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
