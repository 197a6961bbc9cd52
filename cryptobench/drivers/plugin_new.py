"""`cryptobench plugin new`: a plugin author's first step.

It writes a skeleton that already works (Python: a provider over hashlib; C and C++: a shared object
over libcrypto's SHA256, with its Makefile; Rust: a cdylib crate over the sha2 crate, with the
#[repr(C)] mirror of the header; each to be replaced by the author's library). The templates live in
plugin_templates.py (Python, C, C++) and plugin_template_rust.py; `plugin check` is verify/plugin_check.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from cryptobench.core.errors import UserError
from cryptobench.drivers.plugin_template_rust import RUST_BUILD, RUST_CARGO, RUST_LIB, RUST_README
from cryptobench.drivers.plugin_templates import C_MAKEFILE, C_README, C_SKELETON, README, SKELETON
from cryptobench.drivers.programs import REPO

LANGS = {"c": ("C", "c", "c11", "CC", "cc"), "cpp": ("C++", "cpp", "c++17", "CXX", "c++")}


def new(name: str, lang: str, where: Path) -> tuple[list[Path], str]:
    """The skeleton of plugin `name` in directory `where` (created; refused when it holds files),
    and the command that checks it."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name):
        raise UserError(f"plugin name {name!r}: lower-case letters, digits and _ (a module and file name)")
    if where.exists() and any(where.iterdir()):
        raise UserError(f"{where}: exists and is not empty (choose another --dir)")
    where.mkdir(parents=True, exist_ok=True)
    if lang == "python":
        cls = "".join(part.capitalize() for part in name.split("_")) + "Provider"
        files = {where / f"{name}_provider.py": SKELETON.format(name=name, cls=cls),
                 where / "README.md": README.format(name=name)}  # fmt: skip
        check = f"cryptobench plugin check {where / f'{name}_provider.py'}"
    elif lang == "rust":
        fill = {"name": name}
        files = {where / "Cargo.toml": Template(RUST_CARGO).substitute(fill),
                 where / "build.rs": Template(RUST_BUILD).substitute(fill),
                 where / "src" / "lib.rs": Template(RUST_LIB).substitute(fill),
                 where / "README.md": Template(RUST_README).substitute(fill)}  # fmt: skip
        so = where / "target" / "release" / f"libcb_{name}.so"
        check = f"cargo build --release --manifest-path {where / 'Cargo.toml'} && cryptobench plugin check {so}"
    else:
        lang_name, ext, std, compiler_var, compiler = LANGS[lang]
        include = REPO / "include"
        fields = dict(name=name, lang=lang, lang_name=lang_name, ext=ext, std=std, include=include,
                      compiler_var=compiler_var, compiler=compiler)  # fmt: skip
        files = {where / f"{name}.{ext}": C_SKELETON.format(**fields),
                 where / "Makefile": C_MAKEFILE.format(**fields),
                 where / "README.md": C_README.format(**fields)}  # fmt: skip
        check = f"make -C {where} && cryptobench plugin check {where / f'libcb_{name}.so'}"
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files), check
