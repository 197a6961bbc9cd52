"""`cryptobench plugin new` and `plugin check`: a plugin author's first and last step.

`new` writes a skeleton that already works (a real provider over hashlib, to be replaced by the
author's library); `check` verifies a plugin without timing it — every known answer and the
differential inputs against c:openssl on every algorithm it offers — and checks the driver rules.
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import UserError

SKELETON = '''"""python:{name} — a cryptobench plugin (docs/plugins.md, plugin interface version 1).

Check it:   cryptobench plugin check {name}_provider.py
Measure it: cryptobench run --plugin {name}_provider.py --alg sha256
"""

from __future__ import annotations

import hashlib  # TODO: import your library instead

from cbdriver.plugin import Cell, CellSpec, Provider, case_bytes, make_cell


class {cls}(Provider):
    id = "python:{name}"
    library = "{name}"  # TODO: your library's name
    # TODO: every algorithm your library offers, with its operations (`cryptobench list algorithms`)
    offers = {{"sha256": ("hash",)}}

    def library_version(self) -> str:
        return "{name} 0.1"  # TODO: the version your library reports at run time

    def execute(self, alg: str, case: dict) -> bytes:
        """One known-answer case: the output bytes (raise Rejected for an input your library refuses)."""
        if alg == "sha256":
            return hashlib.sha256(case_bytes(case, "msg")).digest()  # TODO: your library's call
        raise ValueError(f"{{alg}} not offered by {{self.id}}")

    def cell(self, spec: CellSpec) -> Cell:
        """One prepared operation; everything done once per key goes here, outside the timed region."""
        if spec.alg == "sha256":
            msg = spec.msg

            def output() -> bytes:  # the operation once, whole output (checksums, differential tests)
                return hashlib.sha256(msg).digest()  # TODO: your library's call

            def call() -> int:  # the same operation, first byte: what the measurement loop times
                return hashlib.sha256(msg).digest()[0]  # TODO: your library's call

            return make_cell(call, output)
        raise ValueError(f"{{spec.alg}} not offered by {{self.id}}")


PROVIDER = {cls}()
'''

README = """# python:{name}, a cryptobench plugin

`{name}_provider.py` is a working plugin: it offers sha256 through Python's hashlib. Make it yours:

1. Replace hashlib with your library where the file says TODO (`execute` answers the known-answer
   cases, `cell` prepares the operation that is timed; docs/plugins.md has the fields).
2. List every algorithm you offer in `offers` (names: `cryptobench list algorithms`).
3. `cryptobench plugin check {name}_provider.py` — every vector case and the differential inputs
   against c:openssl, no timing; it exits 1 on any failure and names the failing case.
4. `cryptobench run --plugin {name}_provider.py --alg sha256 --md report.md` — measured beside
   c:openssl with intervals and a verdict.

You never write a timing loop: cryptobench's Python driver times `call()` (docs/protocol.md).
"""


def new(name: str, lang: str, where: Path) -> list[Path]:
    """The skeleton of plugin `name` in directory `where` (created; refused when it holds files)."""
    if lang != "python":
        raise UserError(f"plugin new --lang {lang}: C and C++ plugins wait for the C ABI (not built yet); "
                        "--lang python works")  # fmt: skip
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name):
        raise UserError(f"plugin name {name!r}: lower-case letters, digits and _ (a Python module name)")
    if where.exists() and any(where.iterdir()):
        raise UserError(f"{where}: exists and is not empty (choose another --dir)")
    where.mkdir(parents=True, exist_ok=True)
    cls = "".join(part.capitalize() for part in name.split("_")) + "Provider"
    files = {where / f"{name}_provider.py": SKELETON.format(name=name, cls=cls),
             where / "README.md": README.format(name=name)}  # fmt: skip
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)
