"""Run the C driver's wasm32-wasi build (cbdriver-openssl.wasm, docs/wasm.md) in wasmtime, embedded
from PyPI's `wasmtime` package: the module's standard input, output and error are this process's,
so it speaks the driver protocol's JSON lines as the native driver does.

    python run_wasmtime.py build/wasm/cbdriver-openssl.wasm --provider wasm:openssl-wasmtime

Compiled code is kept in wasmtime's own cache (Config.cache), so a driver started again does not
compile the module again. Exit status: the module's (proc_exit), 2 for bad arguments or a missing
file or package (one line on standard error), 1 for a trap.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) < 1 or argv[0].startswith("-"):
        print("usage: run_wasmtime.py FILE.wasm [driver arguments...]", file=sys.stderr)
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
