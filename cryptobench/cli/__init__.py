"""The `cryptobench` command line: parse, hand the command to its module, one line on an error.

The argparse tree is `parser.py` (examples: `examples.py`); the commands live by family:
`commands_run.py` (run, verify, leak), `commands_results.py` (show, runs, compare, reference),
`commands_tools.py` (list, doctor, check-driver, plugin, build), `fleet/commands.py` (push, import,
submit, agent, jobs, history, publish, fleet) and `versions/commands.py` (build's version cache).
"""

from __future__ import annotations

import signal
import sys

from cryptobench.cli.commands_results import cmd_compare, cmd_reference, cmd_runs, cmd_show
from cryptobench.cli.commands_run import cmd_leak, cmd_run, cmd_verify
from cryptobench.cli.commands_tools import cmd_build, cmd_check_driver, cmd_doctor, cmd_list, cmd_plugin
from cryptobench.cli.parser import build_parser
from cryptobench.cli.shared import guarded
from cryptobench.fleet import commands as fleet

HANDLERS = {
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
}


def _terminate_like_ctrl_c(signum, frame) -> None:
    raise KeyboardInterrupt  # `kill`, `timeout`, a CI cancel: keep what was measured, as Ctrl-C does


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.command:
        build_parser().print_help()
        return 2
    signal.signal(signal.SIGTERM, _terminate_like_ctrl_c)
    return guarded(HANDLERS[args.command], args)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
