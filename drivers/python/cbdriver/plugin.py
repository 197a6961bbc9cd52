"""The Python plugin interface: what a module outside this driver implements to be a provider.

A plugin is a module (a file, `path/to/mine.py`, or an importable name, `mypackage.cb`) holding a
provider object: by default the name `PROVIDER`, or the one named after a colon
(`mine.py:MY_PROVIDER`). The object is an instance of `Provider` (below) with

- `id` ("python:<name>"), `library`, `offers` ({algorithm: (operations...)}), `stream` (the
  algorithms it can take in pieces), `library_version()`;
- `execute(alg, case) -> bytes` for known-answer cases (raise `Rejected` for an input the library
  refuses, `Unsupported` for a variant it has no API for);
- `cell(spec) -> Cell`: one prepared operation; `make_cell(call, output)` builds it from a function
  doing the operation once (`output() -> bytes`) and the same returning its first byte (`call()`);
- optionally `declares`: algorithms the catalogue lacks, one dict each (name, kind, sizes, the
  known-answer file `kat`, relative to the plugin's file), which hello carries (protocol 6).

The plugin never times anything: the driver's one measurement loop (timing.py) does, exactly as
for the built-in providers. docs/plugins.md walks through a whole plugin.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path

from .ops_base import (  # noqa: F401  (the public surface plugin authors import)
    BLOCK,
    IV_LEN,
    KEY_LEN,
    TAG_LEN,
    Cell,
    CellSpec,
    Provider,
    Rejected,
    Unsupported,
    case_bytes,
    make_cell,
    noop_cell,
    output_cell,
    stream_cell,
)

PLUGIN_API_VERSION = 2  # docs/plugins.md; a change to the names above changes it (2: `declares`)
# what an algorithm or operation name may hold: the catalogue's names do, and nothing that could break a
# line, a quote or a terminal (a name with a newline would be matched against nothing, silently)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


class PluginError(Exception):
    """A plugin that cannot be served, said in one line."""


def _declares(provider, attr: str, where: str, module) -> list[dict]:
    """The provider's `declares` as hello carries them: a list of dicts, each `kat` made absolute
    against the plugin file's folder (the orchestrator checks the rest, docs/plugins.md)."""
    decls = getattr(provider, "declares", None) or []
    if not isinstance(decls, (list, tuple)) or not all(isinstance(d, dict) for d in decls):
        raise PluginError(f"{where}: {attr}.declares must be a list of dicts (name, kind, sizes, kat)")
    base = Path(getattr(module, "__file__", None) or ".").resolve().parent
    out = []
    for d in decls:
        d = dict(d)
        if isinstance(d.get("kat"), str) and d["kat"] and not Path(d["kat"]).is_absolute():
            d["kat"] = str(base / d["kat"])
        out.append(d)
    return out


def _module(where: str):
    path = Path(where)
    if where.endswith(".py") or path.exists():
        if not path.is_file():
            raise PluginError(f"{where}: no such file")
        name = f"cbplugin_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path.resolve())
        if spec is None or spec.loader is None:
            raise PluginError(f"{where}: not a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(where)


def load_plugin(text: str) -> Provider:
    """The provider object of `FILE.py[:NAME]` or `module[:NAME]`, checked for the interface."""
    where, attr = text, "PROVIDER"
    if ":" in Path(text).name:  # `mine.py:NAME`, `package.module:NAME`
        where, _, attr = text.rpartition(":")
    try:
        module = _module(where)
    except PluginError:
        raise
    except SyntaxError as e:
        raise PluginError(f"{where}: syntax error at line {e.lineno}: {e.msg}") from None
    except ImportError as e:
        raise PluginError(f"{where}: cannot import: {' '.join(str(e).split())}") from None
    except Exception as e:  # the plugin's own code failed while loading
        raise PluginError(f"{where}: failed while loading: {type(e).__name__}: {e}") from None
    provider = getattr(module, attr, None)
    if provider is None:
        raise PluginError(f"{where}: has no {attr} (the provider object; see docs/plugins.md)")
    missing = [n for n in ("execute", "cell", "library_version") if not callable(getattr(provider, n, None))]
    if missing:
        raise PluginError(f"{where}: {attr} lacks {', '.join(missing)} (subclass cbdriver.plugin.Provider)")
    pid, offers = getattr(provider, "id", ""), getattr(provider, "offers", None)
    if not isinstance(pid, str) or not pid.startswith("python:") or len(pid) <= len("python:"):
        raise PluginError(f"{where}: {attr}.id must be 'python:<name>', not {pid!r}")
    if not isinstance(offers, dict) or not offers:
        raise PluginError(f"{where}: {attr}.offers must map algorithms to their operations")
    for alg, ops in offers.items():
        if not isinstance(ops, (tuple, list, set, frozenset)):
            raise PluginError(f"{where}: {attr}.offers[{alg!r}] must be a tuple of operations, not {ops!r}")
        bad = next((why for why in map(_bad_name, (alg, *ops)) if why), "")
        if bad:
            raise PluginError(f"{where}: {attr}.offers: {bad}")
    if "noop" not in offers:  # the floor every provider reports (and check-driver's rules run on) comes free
        provider.offers = {"noop": ("noop",), **offers}
        cell = provider.cell
        provider.cell = lambda spec: noop_cell() if spec.alg == "noop" else cell(spec)
    provider.declares = _declares(provider, attr, where, module)
    notes = provider.notes  # every report says where a plugin's figures come from
    provider.notes = lambda: [f"a plugin ({where}) served by the Python driver", *notes()]
    return provider


def _bad_name(name: object) -> str:
    """Why an algorithm or operation name cannot be served ("" when it can)."""
    if isinstance(name, str) and _NAME.fullmatch(name):
        return ""
    return f"{name!r} is not a name (letters, digits, '.', '-', '_', '+'; the catalogue's, e.g. 'sha256')"
