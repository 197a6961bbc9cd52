"""Run the C driver's wasm32-wasi build (cbdriver-openssl.wasm, docs/wasm.md) in wasmtime, embedded
from PyPI's `wasmtime` package: the module's standard input, output and error are this process's,
so it speaks the driver protocol's JSON lines as the native driver does.

    python run_wasmtime.py build/wasm/cbdriver-openssl.wasm --provider wasm:openssl-wasmtime
    python run_wasmtime.py --dir DIR --env NAME=VALUE build/wasm/test_driver.wasm

`--dir DIR` (repeatable) lets the module read DIR at the same path; `--env NAME=VALUE` (repeatable)
sets its environment (empty otherwise): the native tests read their vector cases that way.

Compiled code is kept in wasmtime's own cache (Config.cache), so a driver started again does not
compile the module again. Exit status: the module's (proc_exit), 2 for bad arguments or a missing
file or package (one line on standard error), 1 for a trap.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    dirs, env = [], []
    while len(argv) >= 2 and argv[0] in ("--dir", "--env"):
        (dirs if argv[0] == "--dir" else env).append(argv[1])
        argv = argv[2:]
    if len(argv) < 1 or argv[0].startswith("-") or any("=" not in e for e in env):
        print("usage: run_wasmtime.py [--dir DIR] [--env NAME=VALUE] FILE.wasm [arguments...]", file=sys.stderr)
        return 2
    wasm, rest = Path(argv[0]), argv[1:]
    if not wasm.is_file():
        print(f"run_wasmtime: {wasm} not found (not built: `cryptobench build wasm-openssl` adds it)", file=sys.stderr)
        return 2
    try:
        import wasmtime
    except ImportError:
        print("run_wasmtime: the wasmtime package is not installed: .venv/bin/pip install wasmtime", file=sys.stderr)
        return 2
    from importlib.metadata import version

    engine_text = f"wasmtime {version('wasmtime')} (PyPI wasmtime, Cranelift)"
    config = wasmtime.Config()
    config.cache = True  # wasmtime's compiled-code cache (~/.cache/wasmtime)
    engine = wasmtime.Engine(config)
    module = wasmtime.Module.from_file(engine, str(wasm))
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.argv = [wasm.name, *rest, "--engine", engine_text]
    wasi.inherit_stdin()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    for d in dirs:
        wasi.preopen_dir(d, d, False)  # read only
    if env:
        wasi.env = [tuple(e.split("=", 1)) for e in env]
    store.set_wasi(wasi)
    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    try:
        start(store)
    except wasmtime.ExitTrap as e:
        return e.code
    except wasmtime.Trap as e:
        print(f"run_wasmtime: the module trapped: {str(e).splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
