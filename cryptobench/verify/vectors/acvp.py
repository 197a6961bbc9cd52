"""NIST ACVP JSON (usnistgov/ACVP-Server `gen-val/json-files`) read into protocol cases.

One ACVP folder (e.g. `SLH-DSA-sigVer-FIPS205/`) holds `prompt.json` (inputs) and
`expectedResults.json` (answers), or `internalProjection.json` (both in one file). Each has
`testGroups[]`, a group has `tgId`, `testType` (AFT: known answer; VAL: a pass/fail validation;
MCT: Monte Carlo), its parameters (`parameterSet`, `signatureInterface`, ...) and `tests[]`, a test
has `tcId` and hex fields. This module reads a folder in either form, merges answers into tests by
(tgId, tcId), checks the shape (a file that is not ACVP JSON is one clear error, never a traceback),
and `acvp_sets.py` hands each (group, test) to the family builders of `acvp_pq.py` (ML-KEM, ML-DSA,
SLH-DSA) and `acvp_sym.py` (SHA-2/3, AES, HMAC, ECDSA, EdDSA), which say which catalogue algorithm a group is
(ACVP's parameter-set names, key lengths, curves) and map fields to the protocol's. Case ids are
`acvp/<folder>#tg<tgId>/tc<tcId>`; reports name their source "NIST ACVP". MCT groups are no cases:
`mct_tests` reads a folder's "standard" Monte Carlo tests (a seed and the expected checkpoints of
`resultsArray`), which monte.py's chain runner runs, as it runs CAVP's Monte files; `aes_mct_tests`
reads AES-ECB/CBC's (key, IV, first block, and each round's key, IV, input and output).

The files are a trimmed copy in `vectors/acvp/` (README there: source commit, what was kept),
always read from this repository (also when ../shared/vectors supplies the other sets), or from
`<vectors_dir>/acvp` when a vectors directory that has one is given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptobench.core.errors import UserError
from cryptobench.verify.vectors.case import Case, counts_by_source
from cryptobench.verify.vectors.files import bundled

SOURCE = "NIST ACVP"
PREFIX = "acvp/"
TEST_TYPES = ("AFT", "VAL", "MCT")


class AcvpFormatError(UserError):
    """A file that is not ACVP JSON (or a folder without one)."""


def acvp_dir(vectors_dir: Path | str | None = None) -> Path:
    """`<vectors_dir>/acvp` when that exists, else the repository's `vectors/acvp`."""
    return bundled("acvp", vectors_dir)


def _read_json(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            doc = _unwrap(json.load(f))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise AcvpFormatError(f"{path}: not readable as JSON ({e.__class__.__name__}: {e})") from None
    _check(doc, path)
    return doc


def _check(doc, path: Path) -> None:
    """ACVP's shape: {"testGroups": [{"tgId": int, "tests": [{"tcId": int, ...}]}]} (a list of one such
    object, as the server sends it with a version header first, is accepted too)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("testGroups"), list):
        raise AcvpFormatError(f"{path}: not an ACVP file (no testGroups list)")
    for i, g in enumerate(doc["testGroups"]):
        if not isinstance(g, dict) or not isinstance(g.get("tgId"), int) or not isinstance(g.get("tests"), list):
            raise AcvpFormatError(f"{path}: testGroups[{i}] has no integer tgId or no tests list")
        for j, t in enumerate(g["tests"]):
            if not isinstance(t, dict) or not isinstance(t.get("tcId"), int):
                raise AcvpFormatError(f"{path}: testGroups[{i}].tests[{j}] has no integer tcId")


def _unwrap(doc):
    """The server's files may be `[{"acvVersion": ...}, {...the vector set...}]`: take the set."""
    if isinstance(doc, list):
        sets = [d for d in doc if isinstance(d, dict) and "testGroups" in d]
        return sets[0] if len(sets) == 1 else doc
    return doc


def merge(prompt: dict, expected: dict) -> dict:
    """prompt.json with expectedResults.json's fields added to each group and test (by tgId, tcId)."""
    answers = {g["tgId"]: g for g in expected.get("testGroups", [])}
    groups = []
    for g in prompt["testGroups"]:
        eg = answers.get(g["tgId"], {"tests": []})
        by_tc = {t["tcId"]: t for t in eg["tests"]}
        tests = [{**t, **by_tc.get(t["tcId"], {})} for t in g["tests"]]
        groups.append({**{k: v for k, v in eg.items() if k != "tests"}, **g, "tests": tests})
    return {**prompt, "testGroups": groups}


@lru_cache(maxsize=32)
def read_folder(folder: Path) -> dict:
    """One ACVP folder as a single document (internalProjection.json, else prompt + expectedResults)."""
    folder = Path(folder)
    proj = folder / "internalProjection.json"
    if proj.is_file():
        return _read_json(proj)
    prompt, expected = folder / "prompt.json", folder / "expectedResults.json"
    if not prompt.is_file():
        raise AcvpFormatError(f"{folder}: no internalProjection.json or prompt.json")
    if not expected.is_file():
        raise AcvpFormatError(f"{folder}: prompt.json without expectedResults.json (no answers to check)")
    return merge(_read_json(prompt), _read_json(expected))


def read_file(path: Path | str) -> dict:
    """One ACVP JSON file that carries answers (an internalProjection, or a declared algorithm's file)."""
    return _read_json(Path(path))


def tests(doc: dict) -> Iterator[tuple[dict, dict]]:
    for g in doc["testGroups"]:
        if g.get("testType", "AFT") not in TEST_TYPES:
            continue
        for t in g["tests"]:
            yield g, t


def catalogue_name(parameter_set: str) -> str:
    """ACVP's parameter-set name as the catalogue's: ML-KEM-768 -> ml-kem-768, SLH-DSA-SHA2-128s ->
    slh-dsa-sha2-128s (the size letter stays lower case), ML-DSA-44 -> ml-dsa-44."""
    return parameter_set.strip().lower()


def case_id(folder: str, g: dict, t: dict) -> str:
    return f"{PREFIX}{folder}#tg{g['tgId']}/tc{t['tcId']}"


Builder = Callable[[str, dict, dict], "list[Case]"]  # (folder, group, test) -> cases
GroupAlg = Callable[[dict, dict], "str | None"]  # (document, group) -> the catalogue algorithm, if any


def parameter_set_alg(doc: dict, g: dict) -> str | None:
    """A group's algorithm from its parameterSet (the post-quantum folders)."""
    ps = g.get("parameterSet")
    return catalogue_name(ps) if isinstance(ps, str) else None


def cases_from(doc: dict, folder: str, group_alg: GroupAlg, build: Builder, alg: str) -> list[Case]:
    """The cases of `alg` in one document: the tests of its groups that `group_alg` says are `alg`."""
    out: list[Case] = []
    for g, t in tests(doc):
        if group_alg(doc, g) == alg:
            out += build(folder, g, t)
    return out


def acvp_folder_counts(cases: list[Case]) -> dict[str, int]:
    """How many of `cases` each ACVP folder gave, in folder order (for `list algorithms`)."""
    return counts_by_source(cases, PREFIX)


def hexfield(t: dict, key: str) -> str:
    """A hex field as the protocol carries it (lower case); a missing one is a malformed file."""
    v = t.get(key)
    if not isinstance(v, str):
        raise AcvpFormatError(f"ACVP test {t.get('tcId')}: no hex field {key!r}")
    return v.lower()


@dataclass(frozen=True)
class MctTest:
    """One Monte Carlo test: the chain's seed and what each checkpoint must give, as ACVP writes them."""

    id: str  # acvp/<folder>#tg<tgId>/tc<tcId>
    seed: str  # hex, lower case (the prompt's msg)
    checkpoints: tuple[str, ...]  # the expected resultsArray's md, in order


def mct_tests(folder: Path) -> list[MctTest]:
    """A folder's Monte Carlo tests of mctVersion "standard" (SHAVS's and SHA3VS's chains; no mctVersion
    is the standard one too); [] when the folder is missing or holds none. "alternate" (other seed
    lengths, variable output) is not run. A test without its seed or its answers is a malformed file."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    out = []
    for g, t in tests(read_folder(folder)):
        if g.get("testType") != "MCT" or g.get("mctVersion", "standard") != "standard":
            continue
        where = f"{folder.name}: MCT test {t['tcId']}"
        seed, results = hexfield(t, "msg"), t.get("resultsArray")
        if isinstance(t.get("len"), int) and t["len"] != 4 * len(seed):
            raise AcvpFormatError(f"{where}: len {t['len']} is not its seed's {4 * len(seed)} bits")
        if not isinstance(results, list) or not results:
            raise AcvpFormatError(f"{where}: no resultsArray (no answers to check)")
        mds = [r.get("md") if isinstance(r, dict) else None for r in results]
        if not all(isinstance(md, str) for md in mds):
            raise AcvpFormatError(f"{where}: a resultsArray entry without an md")
        out.append(MctTest(case_id(folder.name, g, t), seed, tuple(md.lower() for md in mds)))
    return out


@dataclass(frozen=True)
class AesMctTest:
    """One AES Monte Carlo test (AESAVS's chain, ACVP's MCT group of ACVP-AES-ECB/CBC): where the chain
    starts and, for each outer round, the key, IV, input and output ACVP expects."""

    id: str  # acvp/<folder>#tg<tgId>/tc<tcId>
    direction: str  # "encrypt" or "decrypt"
    key: str
    iv: str  # "" for ECB
    text: str  # the first input block: pt (encrypt) or ct (decrypt)
    rounds: tuple[dict[str, str], ...]  # resultsArray: key, iv (CBC), pt, ct, lower case


def aes_mct_tests(folder: Path) -> list[AesMctTest]:
    """A folder's AES Monte Carlo tests (both directions, any key length); [] when it has none."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    out = []
    for g, t in tests(read_folder(folder)):
        if g.get("testType") != "MCT":
            continue
        where, direction = f"{folder.name}: MCT test {t['tcId']}", g.get("direction")
        if direction not in ("encrypt", "decrypt"):
            raise AcvpFormatError(f"{where}: direction {direction!r} is neither encrypt nor decrypt")
        results = t.get("resultsArray")
        if not isinstance(results, list) or not results:
            raise AcvpFormatError(f"{where}: no resultsArray (no answers to check)")
        fields = ("key", "pt", "ct", *(("iv",) if "iv" in t else ()))
        if not all(isinstance(r, dict) and all(isinstance(r.get(f), str) for f in fields) for r in results):
            raise AcvpFormatError(f"{where}: a resultsArray entry without {', '.join(fields)}")
        rounds = tuple({f: r[f].lower() for f in fields} for r in results)
        text = hexfield(t, "pt" if direction == "encrypt" else "ct")
        iv = hexfield(t, "iv") if "iv" in t else ""
        out.append(AesMctTest(case_id(folder.name, g, t), direction, hexfield(t, "key"), iv, text, rounds))
    return out
