"""The known answers of a declared algorithm (cryptobench/core/declared.py): the cases of the KAT
file each declaring provider names, in the project's own case format (docs/plugins.md, "Declaring an
algorithm of your own"), the shape of vectors/kat/basic.json:

    {"about": "...", "vectors": [{"op": "hash", "msg_hex": "616263", "out_hex": "024d0127"}, ...]}

A vector has `op` (one of the algorithm's operations), its inputs as `<field>_hex` for the
protocol's case fields (`key`, `iv` or `nonce`, `aad`, `msg`, `public`, `private`, `sig`, `ctx`,
`seed`, `m`; docs/protocol.md, "Cases"), `counter` and `deterministic` as they are, the message
as `msg_repeat` (one unit, hex) repeated to `msg_len` bytes if it is long, `out_hex` (the answer;
`verify` answers 01 and needs none), and optionally `result` (`valid`, the default, `invalid`: must
be rejected, `acceptable`: either), `alg` (a file may hold several algorithms: only its own are
taken), `id` (the case id after `#`, default the vector's index) and `source`. An `encrypt`
vector is also a `decrypt` case of its answer, and a valid `seal` one an `open` case, when the
algorithm has those operations. Case ids are `<file name>#<id>`: a failure names the file and case.
"""

from __future__ import annotations

import json
from pathlib import Path

from cryptobench.core import declared
from cryptobench.core.algorithms import TAG_LEN
from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable
from cryptobench.verify.vectors import acvp
from cryptobench.verify.vectors.case import Case

HEX_FIELDS = ("key", "iv", "aad", "msg", "public", "private", "sig", "ctx", "seed", "m")
_OTHER = {"op", "alg", "id", "source", "result", "out_hex", "msg_repeat", "msg_len", "counter", "deterministic",
          "nonce_hex", "comment"}  # fmt: skip
_PARSED: dict[tuple[str, str], list[Case]] = {}


def declared_cases(alg: str) -> list[Case]:
    """Every case of every KAT file the declarations of `alg` name, each file once."""
    out: list[Case] = []
    seen, cases_seen = set(), set()
    for d in declared.declarations(alg):
        if d.kat and d.kat not in seen:
            seen.add(d.kat)
            for c in kat_cases(d.kat, alg, d.ops):  # two copies of one file (a plugin in C and in Python) count once
                key = (c.id, c.op, repr(sorted(c.fields.items())), c.expect, c.out)
                if key not in cases_seen:
                    cases_seen.add(key)
                    out.append(c)
    return out


def check_files() -> None:
    """Every declared algorithm's KAT file read now: a missing or malformed one is refused in one line
    before anything runs (UserError)."""
    for name in declared.names():
        declared_cases(name)


def kat_cases(path: str, alg: str, ops: tuple[str, ...]) -> list[Case]:
    key = (path, alg)
    if key not in _PARSED:
        _PARSED[key] = _parse(Path(path), alg, ops)
    return _PARSED[key]


def _parse(path: Path, alg: str, ops: tuple[str, ...]) -> list[Case]:
    where = f"known-answer file {str(path)!r} of {alg}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{where}: not found") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UserError(f"{where}: not a JSON file ({printable(' '.join(str(e).split()))[:100]})") from None
    if isinstance(data, list) or (isinstance(data, dict) and "testGroups" in data):
        return _acvp(path, alg)
    vectors = data.get("vectors") if isinstance(data, dict) else None
    if not isinstance(vectors, list):
        raise UserError(f'{where}: needs {{"vectors": [...]}} (docs/plugins.md, "Declaring an algorithm")')
    cases: list[Case] = []
    for i, v in enumerate(vectors):
        try:
            if isinstance(v, dict) and v.get("alg", alg) != alg:
                continue
            cases += _vector(path.name, i, v, ops)
        except (ValueError, TypeError, KeyError) as e:
            raise UserError(f"{where}: vector #{i}: {printable(str(e))[:120]}") from None
    return cases


def _hex(v: dict, name: str) -> str:
    text = v[name]
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a hex string")
    bytes.fromhex(text)  # ValueError when not hex
    return text.lower()


def _vector(file: str, i: int, v: object, ops: tuple[str, ...]) -> list[Case]:
    if not isinstance(v, dict):
        raise ValueError("not an object")
    unknown = sorted(k for k in v if k not in _OTHER and k.removesuffix("_hex") not in HEX_FIELDS)
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    op = v.get("op")
    if op not in ops:
        raise ValueError(f"op {op!r} is not one of the algorithm's operations ({', '.join(ops)})")
    fields: dict = {f: _hex(v, f + "_hex") for f in HEX_FIELDS if f + "_hex" in v}
    if "nonce_hex" in v:
        fields["iv"] = _hex(v, "nonce_hex")
    if "msg_repeat" in v:
        unit, n = bytes.fromhex(_hex(v, "msg_repeat")), v["msg_len"]
        if not unit or not isinstance(n, int) or not 0 <= n <= 1 << 26:
            raise ValueError("msg_repeat needs a non-empty unit and msg_len in [0, 64 MiB]")
        fields["msg"] = (unit * (n // len(unit) + 1))[:n].hex()
    if "counter" in v:
        if isinstance(v["counter"], bool) or not isinstance(v["counter"], int):
            raise ValueError("counter must be a whole number")
        fields["counter"] = v["counter"]
    if "deterministic" in v:
        fields["deterministic"] = bool(v["deterministic"])
    result = v.get("result", "valid")
    if result not in ("valid", "invalid", "acceptable"):
        raise ValueError(f"result {result!r} is not valid, invalid or acceptable")
    out = _hex(v, "out_hex") if "out_hex" in v else ("01" if op == "verify" and result == "valid" else None)
    if out is None and result == "valid":
        raise ValueError("a valid vector needs out_hex")
    cid = f"{file}#{v.get('id', i)}"
    source = str(v.get("source", file))
    case = Case(cid, op, fields, result, out, source=source)
    cases = [case]
    if op == "encrypt" and "decrypt" in ops and result == "valid":
        cases.append(
            Case(cid + "/decrypt", "decrypt", {**fields, "msg": out}, "valid", fields.get("msg", ""), source=source)
        )
    if op == "seal" and "open" in ops and result == "valid":
        cases.append(Case(cid + "/open", "open", {**fields, "msg": out}, "valid", fields.get("msg", ""), source=source))
    return cases


# --- a NIST ACVP file (acvp.py reads it) ------------------------------------------------------------


def _acvp(path: Path, alg: str) -> list[Case]:
    """The AFT and VAL tests of one ACVP JSON file (internalProjection, or a prompt with its answers
    merged in; MCT left out), by the declared kind, with ACVP's field names: hash/xof `msg` (whole
    bytes: `len` a multiple of 8) -> `md`; mac `key`, `msg` -> `mac`; cipher and aead by the group's
    `direction`, `key`, `iv`, `aad`, `pt`, `ct`, `tag` (a 128-bit tag), `testPassed` false: to be
    rejected; sig `pk`, `message`, `signature`, `testPassed` (pure, external, no context). Other
    kinds' ACVP files are refused: write their cases in the project's format. Ids `<file>#tg<g>/tc<t>`."""
    d = declared.declarations(alg)[0]
    build = _ACVP.get(d.kind)
    if build is None:
        raise UserError(f"known-answer file {str(path)!r} of {alg}: ACVP files are read for hash, xof, mac, cipher, "
                        f"aead and sig declarations; write a {d.kind}'s cases in the project's format")  # fmt: skip
    doc = acvp.read_file(path)
    cases: list[Case] = []
    for g, t in acvp.tests(doc):
        if g.get("testType", "AFT") == "MCT":
            continue
        try:
            got = build(d, g, t)
        except (KeyError, ValueError, TypeError) as e:
            raise UserError(f"known-answer file {str(path)!r} of {alg}: tg{g['tgId']}/tc{t['tcId']}: {e}") from None
        for op, fields, expect, out in got:
            if op in d.ops:
                cid = f"{path.name}#tg{g['tgId']}/tc{t['tcId']}" + (f"/{op}" if len(got) > 1 else "")
                cases.append(Case(cid, op, fields, expect, out, source=f"NIST ACVP {path.name}"))
    return cases


def _h(t: dict, key: str) -> str:
    v = t[key]
    bytes.fromhex(v)
    return v.lower()


def _acvp_hash(d, g: dict, t: dict) -> list:
    bits = t.get("len", len(t["msg"]) * 4)
    out_bits = t.get("outLen", g.get("outLen", d.size("out_len") * 8))
    if bits % 8 or out_bits != d.size("out_len") * 8:
        return []  # a bit-oriented message, or another output length than the one timed
    return [("hash", {"msg": _h(t, "msg")[: bits // 4]}, "valid", _h(t, "md"))]


def _acvp_mac(d, g: dict, t: dict) -> list:
    if "testPassed" in t:
        return [("mac", {"key": _h(t, "key"), "msg": _h(t, "msg")}, "valid" if t["testPassed"] else "invalid",
                 _h(t, "mac"))]  # fmt: skip
    return [("mac", {"key": _h(t, "key"), "msg": _h(t, "msg")}, "valid", _h(t, "mac"))]


def _acvp_cipher(d, g: dict, t: dict) -> list:
    base = {"key": _h(t, "key"), **({"iv": _h(t, "iv")} if "iv" in t else {})}
    if g.get("direction") == "encrypt":
        return [("encrypt", {**base, "msg": _h(t, "pt")}, "valid", _h(t, "ct"))]
    return [("decrypt", {**base, "msg": _h(t, "ct")}, "valid", _h(t, "pt"))]


def _acvp_aead(d, g: dict, t: dict) -> list:
    if g.get("tagLen", TAG_LEN * 8) != TAG_LEN * 8:
        return []  # the protocol's tag is 16 bytes
    base = {
        "key": _h(t, "key"),
        "iv": _h(t, "iv") if "iv" in t else _h(t, "nonce"),
        "aad": _h(t, "aad") if "aad" in t else "",
    }
    if g.get("direction") == "encrypt":
        sealed = _h(t, "ct") + _h(t, "tag")
        return [
            ("seal", {**base, "msg": _h(t, "pt")}, "valid", sealed),
            ("open", {**base, "msg": sealed}, "valid", _h(t, "pt")),
        ]
    sealed = _h(t, "ct") + _h(t, "tag")
    if t.get("testPassed") is False:
        return [("open", {**base, "msg": sealed}, "invalid", None)]
    return [("open", {**base, "msg": sealed}, "valid", _h(t, "pt"))]


def _acvp_sig(d, g: dict, t: dict) -> list:
    if not isinstance(t.get("testPassed"), bool) or t.get("context") or g.get("preHash", "pure") != "pure":
        return []
    pk = _h(t, "pk") if "pk" in t else _h(g, "pk")
    fields = {"public": pk, "msg": _h(t, "message"), "sig": _h(t, "signature")}
    return [("verify", fields, "valid" if t["testPassed"] else "invalid", "01")]


_ACVP = {"hash": _acvp_hash, "xof": _acvp_hash, "mac": _acvp_mac, "cipher": _acvp_cipher, "aead": _acvp_aead,
         "sig": _acvp_sig}  # fmt: skip
