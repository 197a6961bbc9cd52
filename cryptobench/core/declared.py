"""Algorithms a provider declares: the ones the catalogue (algorithms.py) lacks, named by a plugin
or a driver (its hello's `declares`, docs/protocol.md) or by a providers file (`[[provider.declare]]`,
docs/providers-file.md).

A declaration says an algorithm's name, kind, operations (the kind's by default) and parameter
sizes, and names a known-answer file. `register` adds it to the catalogue of this process, so the
planner, the verifier and the reports see it like a catalogue algorithm, and remembers which
providers declared it (`declared_by`). Refused, in one line naming both sides: a name the
catalogue has with another kind or other sizes, and one name declared by two providers with
different parameters; two providers declaring the same parameters both serve it (and are compared
with each other, as any two providers of one algorithm are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cryptobench.core import algorithms
from cryptobench.core.algorithms import ALGORITHMS, DIGEST_LEN, KEM_OPS, SIG_OPS, TAG_LEN, Algorithm
from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable

# kind -> (the catalogue's kind, the default operations)
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "hash": ("hash", ("hash",)),
    "xof": ("hash", ("hash",)),  # timed as a hash with out_len bytes out, like ascon-xof128
    "mac": ("mac", ("mac",)),
    "cipher": ("cipher", ("encrypt", "decrypt")),
    "aead": ("aead", ("seal", "open")),
    "kem": ("kem", KEM_OPS),
    "sig": ("sig", SIG_OPS),
    "kex": ("kex", ("keygen", "derive")),
}
# the numbers a declaration may give, by the kinds they belong to
SIZES: dict[str, tuple[str, ...]] = {
    "out_len": ("hash", "xof", "mac"),
    "key_len": ("mac", "cipher", "aead"),
    "iv_len": ("cipher", "aead"),
    "tag_len": ("aead",),
    "block": ("cipher",),
    "public_key": ("kem", "sig", "kex"),
    "secret_key": ("kem", "sig", "kex"),
    "ciphertext": ("kem",),
    "signature": ("sig",),
    "shared_secret": ("kem", "kex"),
}
REQUIRED = {"hash": ("out_len",), "xof": ("out_len",), "mac": ("key_len", "out_len"), "aead": ("key_len",),
            "cipher": ("key_len",)}  # fmt: skip
_LABELS = {"public_key": "public key", "secret_key": "secret key", "ciphertext": "ciphertext",
           "signature": "signature", "shared_secret": "shared secret"}  # fmt: skip
FIELDS = {"name", "kind", "ops", "kat", "standard", *SIZES}
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


@dataclass(frozen=True)
class Declaration:
    name: str
    kind: str  # a key of KINDS
    ops: tuple[str, ...]
    sizes: tuple[tuple[str, int], ...]  # (SIZES key, bytes) given and non-zero, in SIZES order
    kat: str = ""  # the known-answer file, an absolute path ("" when none)
    standard: str = ""
    by: str = ""  # the provider declaring it

    def size(self, key: str) -> int:
        return dict(self.sizes).get(key, 0)

    @property
    def parameters(self) -> tuple:
        """What two declarations of one name must share to be one algorithm."""
        return self.kind, self.ops, self.sizes

    def describe(self) -> str:
        """'a hash with a 4-byte output', 'a kem (public key 800 B, ...)': the words of a refusal."""
        article = "an" if self.kind[0] in "aeiox" else "a"
        parts = [f"{_a(v)} {v}-byte {k.removesuffix('_len').replace('_', ' ').replace('out', 'output')}"
                 for k, v in self.sizes if k not in _LABELS]  # fmt: skip
        parts += [f"{_LABELS[k]} {v} B" for k, v in self.sizes if k in _LABELS]
        ops = "" if self.ops == KINDS[self.kind][1] else f" ({', '.join(self.ops)})"
        return f"{article} {self.kind}{ops}" + (f" with {', '.join(parts)}" if parts else "")

    def to_json(self) -> dict:
        """The declaration as a hello carries it and a stored run keeps it (docs/protocol.md)."""
        d: dict = {"name": self.name, "kind": self.kind, "ops": list(self.ops), **dict(self.sizes)}
        if self.kat:
            d["kat"] = self.kat
        if self.standard:
            d["standard"] = self.standard
        return d

    def algorithm(self, by: list[str] | None = None) -> Algorithm:
        """The catalogue entry; its `standard` says who declared it ("<standard>; declared by <ids>")."""
        kind, _ = KINDS[self.kind]
        sizes = tuple((_LABELS[k], v) for k, v in self.sizes if k in _LABELS)
        standard = "; ".join(x for x in (self.standard, f"declared by {', '.join(by or [self.by])}") if x)
        return Algorithm(self.name, kind, self.ops, self.size("key_len"), self.size("iv_len"),
                         self.size("block") or 1, sizes, standard)  # fmt: skip


def parse(d: object, by: str, base: Path | None = None, context: str = "") -> Declaration:
    """One declaration (a hello's, a Python plugin's or a providers file's table) of provider `by`,
    checked; a relative `kat` is taken from `base`. A UserError of one line starting with `context`
    (default: the provider) when it is wrong."""
    context = context or by
    if not isinstance(d, dict):
        raise UserError(f"{context}: a declaration must be a table of name, kind, ... not {printable(repr(d))[:60]}")
    name = d.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise UserError(f"{context}: declared algorithm name {printable(repr(name))[:70]} is not 1 to 64 of a-z 0-9 -")
    where = f"{context}: declared algorithm {name}"
    unknown = sorted(set(d) - FIELDS)
    if unknown:
        raise UserError(f"{where}: unknown field {printable(unknown[0])!r} (fields: {', '.join(sorted(FIELDS))})")
    kind = d.get("kind")
    if kind not in KINDS:
        raise UserError(f"{where}: kind {printable(repr(kind))[:40]} is not one of {', '.join(KINDS)}")
    default_ops = KINDS[kind][1]
    ops = d.get("ops") or list(default_ops)
    if not isinstance(ops, list | tuple) or not all(isinstance(o, str) and o in default_ops for o in ops):
        raise UserError(f"{where}: ops must be some of {', '.join(default_ops)} (a {kind}'s operations)")
    sizes = []
    for key, kinds in SIZES.items():
        v = d.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1 << 20:
            raise UserError(f"{where}: {key} must be a whole number of bytes, not {printable(repr(v))[:40]}")
        if v and kind not in kinds:
            raise UserError(f"{where}: a {kind} has no {key} (it is for {', '.join(kinds)})")
        if v:
            sizes.append((key, v))
    missing = [k for k in REQUIRED.get(kind, ()) if not dict(sizes).get(k)]
    if missing:
        raise UserError(f"{where}: a {kind} needs {' and '.join(missing)}")
    if kind == "aead" and dict(sizes).get("tag_len", TAG_LEN) != TAG_LEN:
        raise UserError(f"{where}: tag_len must be {TAG_LEN} (seal appends a {TAG_LEN}-byte tag, docs/protocol.md)")
    if kind == "aead":
        sizes = [s for s in sizes if s[0] != "tag_len"] + [("tag_len", TAG_LEN)]
        sizes.sort(key=lambda s: list(SIZES).index(s[0]))
    kat, standard = d.get("kat") or "", d.get("standard") or ""
    for key, v in (("kat", kat), ("standard", standard)):
        if not isinstance(v, str) or len(v) > 4096 or printable(v) != v:
            raise UserError(f"{where}: {key} must be printable text, not {printable(repr(v))[:60]}")
    if kat:
        kat = str((base / kat) if base is not None and not Path(kat).is_absolute() else Path(kat))
    return Declaration(name, kind, tuple(o for o in default_ops if o in ops), tuple(sizes), kat, standard, by)


# --- this process's declared algorithms -----------------------------------------------------------

_CATALOGUE = frozenset(ALGORITHMS)  # the catalogue's own names, before anything is declared
_DECLARED: dict[str, list[Declaration]] = {}  # name -> its declarations, one per provider


@dataclass
class _Added:
    digest: list[str] = field(default_factory=list)
    pk_outputs: list[tuple[str, str]] = field(default_factory=list)


_ADDED = _Added()


def _same_as_catalogue(decl: Declaration, cat: Algorithm) -> bool:
    mine = decl.algorithm()
    view = lambda a, out: (a.kind, a.ops, a.key_len, a.iv_len, a.block, dict(a.sizes), out)  # noqa: E731
    return view(mine, decl.size("out_len") or None) == view(cat, DIGEST_LEN.get(cat.name))


def register(decls: list[Declaration]) -> None:
    """Add declarations to this process's catalogue (idempotent for one provider's same
    declaration). One that matches a catalogue algorithm exactly adds nothing (it is that
    algorithm); any other conflict is a UserError of one line."""
    for decl in decls:
        if decl.name in _CATALOGUE:
            cat = ALGORITHMS[decl.name]
            if not _same_as_catalogue(decl, cat):
                raise UserError(
                    f"{decl.by} declares {decl.name} as {decl.describe()}, but the catalogue's {decl.name} is "
                    f"{_describe_catalogue(cat)}: declare it under another name"
                )
            continue
        known = _DECLARED.setdefault(decl.name, [])
        for other in known:
            if other.parameters != decl.parameters:
                raise UserError(
                    f"{decl.name} is declared with different parameters: by {other.by} as {other.describe()}, "
                    f"by {decl.by} as {decl.describe()}"
                )
        if any(o.by == decl.by for o in known):
            continue
        known.append(decl)
        ALGORITHMS[decl.name] = known[0].algorithm([d.by for d in known])
        if len(known) == 1:
            _add(decl)


def _add(decl: Declaration) -> None:
    a = decl.algorithm()
    if decl.size("out_len"):
        DIGEST_LEN[a.name] = decl.size("out_len")
        _ADDED.digest.append(a.name)
    for op, n in algorithms.outputs_of(a).items():
        algorithms._PK_OUTPUT_LEN[(a.name, op)] = n  # the catalogue's table of output lengths
        _ADDED.pk_outputs.append((a.name, op))


def _a(n: int) -> str:
    """The article before a number said aloud: an 8-, an 11-, an 18-, an 80-byte; a 4-byte."""
    s = str(n)
    return "an" if s[0] == "8" or (len(s) % 3 == 2 and s[:2] in ("11", "18")) else "a"


def _describe_catalogue(a: Algorithm) -> str:
    article = "an" if a.kind[0] in "aeiox" else "a"
    parts = []
    if a.name in DIGEST_LEN:
        parts.append(f"{_a(DIGEST_LEN[a.name])} {DIGEST_LEN[a.name]}-byte output")
    for n, what in ((a.key_len, "key"), (a.iv_len, "iv"), (a.block if a.block > 1 else 0, "block")):
        if n:
            parts.append(f"{_a(n)} {n}-byte {what}")
    parts += [f"{label} {n} B" for label, n in a.sizes]
    return f"{article} {a.kind}" + (f" with {', '.join(parts)}" if parts else "")


def declared_by(name: str) -> list[str]:
    """The providers declaring `name` ([] for a catalogue algorithm)."""
    return [d.by for d in _DECLARED.get(name, [])]


def mark(name: str) -> str:
    """What every report puts beside a declared algorithm's name: "declared by plugin:toy" ("" else)."""
    by = declared_by(name)
    return f"declared by {', '.join(by)}" if by else ""


def declarations(name: str) -> list[Declaration]:
    return list(_DECLARED.get(name, []))


def names() -> list[str]:
    return sorted(_DECLARED)


def is_declared(name: str) -> bool:
    return name in _DECLARED


def from_hellos(hellos: dict[str, dict]) -> None:
    """Register what stored hellos declare (a run read back for a report); a declaration that no
    longer parses or conflicts is left out: the report still shows the stored figures."""
    for pid, hello in hellos.items():
        for d in hello.get("declares") or [] if isinstance(hello, dict) else []:
            try:
                register([parse(d, pid)])
            except UserError:
                continue


def reset() -> None:
    """Forget every declaration (tests): the catalogue is as algorithms.py writes it again."""
    for name in _DECLARED:
        ALGORITHMS.pop(name, None)
    for name in _ADDED.digest:
        DIGEST_LEN.pop(name, None)
    for key in _ADDED.pk_outputs:
        algorithms._PK_OUTPUT_LEN.pop(key, None)
    _DECLARED.clear()
    _ADDED.digest.clear()
    _ADDED.pk_outputs.clear()
