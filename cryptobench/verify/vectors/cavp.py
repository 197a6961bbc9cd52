"""NIST CAVP and RFC known answers from PyPI's `cryptography-vectors` (pyca/cryptography's vectors).

The package is a pinned dependency (pyproject.toml), read where pip installed it; nothing of it is
copied into this repository. Its files share one text format (the "NIST loader" format): optional
`[SECTION]` lines, then records of `NAME = value` lines separated by blank lines, `#` comments, and
a bare `FAIL` line for a decryption that must be refused. One reader parses them all; one small
builder per family turns records into protocol cases, leaving out what our measurement contract
cannot express (GCM tags shorter than 16 bytes or nonces other than 12; 192-bit keys; bit-oriented
message lengths).

Covered: SHA-256/512 and SHA3-256/512 (CAVP ShortMsg + LongMsg, byte-oriented), BLAKE2b-512 and
BLAKE2s-256 (unkeyed KATs), SM3 (OSCCA), HMAC-SHA256 (RFC 4231), AES-128/256 ECB and CBC (CAVP
GFSbox, KeySbox, VarKey, VarTxt, MMT; both directions), AES-128/256-CTR (RFC 3686), AES-128/256-GCM
(CAVP gcmEncryptExtIV and gcmDecrypt, 96-bit IV and 128-bit tag), ChaCha20 (RFC 7539 A.2),
ChaCha20-Poly1305 (OpenSSL's and BoringSSL's test files), SM4 ECB/CBC/CTR (draft-ribose-cfrg-sm4)
and SM4-GCM (RFC 8998). Monte Carlo tests: cryptobench/verify/vectors/monte.py.

Left out: AES-CCM (the CAVP files' nonces are 7 to 13 bytes with tags of 4 to 16 bytes in
combinations our cell contract, a 12-byte nonce with a 16-byte tag, mostly lacks: the few that fit
are covered by Wycheproof already), ECDSA/RSA FIPS 186 SigVer (they carry raw public key
coordinates and moduli, not the encodings our public-key cases use), ML-KEM/ML-DSA (Wycheproof's
files are used), HKDF (RFC 5869's output lengths differ from our fixed 72-byte contract).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from cryptobench.verify.vectors.case import Case

PACKAGE = "cryptography-vectors"
_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def package_dir() -> Path | None:
    """Where pip installed the vectors (None when the package is missing)."""
    try:
        import cryptography_vectors
    except ImportError:
        return None
    return Path(cryptography_vectors.__file__).resolve().parent


@lru_cache(maxsize=64)
def read_records(relpath: str) -> tuple[tuple[str, dict], ...]:
    """(section, {lower-case name: value}) per record of one file; a `FAIL` line sets "fail"."""
    base = package_dir()
    if base is None or not (base / relpath).is_file():
        return ()
    out, section, rec = [], "", {}
    for raw in (base / relpath).read_text(encoding="utf-8", errors="replace").splitlines():
        if raw.lstrip().startswith("#"):
            continue  # a comment line inside a record does not end it
        line = raw.split("#", 1)[0].strip() if not re.search(r'=\s*"', raw) else raw.strip()
        if not line:
            if rec:
                out.append((section, rec))
                rec = {}
            continue
        if line.startswith("[") and line.endswith("]"):
            if rec:
                out.append((section, rec))
                rec = {}
            section = line[1:-1].strip()
            continue
        if line.upper() == "FAIL":
            rec["fail"] = "1"
            continue
        m = _LINE.match(line)
        if m:
            rec[m.group(1).lower()] = m.group(2)
    if rec:
        out.append((section, rec))
    return tuple(out)


def _hex(v: str) -> str:
    """A value as hex: CAVP files write hex, BoringSSL's write some values as quoted text."""
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] == '"':
        return v[1:-1].encode().hex()
    return v.lower()


def _cid(relpath: str, i: int) -> str:
    return f"{PACKAGE}/{relpath}#{i}"


# --- hashes and MACs -----------------------------------------------------------


def _hash_files(relpaths: list[str], source: str, digest_len: int | None = None) -> list[Case]:
    cases = []
    for relpath in relpaths:
        for i, (_sec, r) in enumerate(read_records(relpath)):
            if "md" not in r or "len" not in r or int(r["len"]) % 8:
                continue  # bit-oriented lengths: no byte API hashes 3 bits
            nbytes = int(r["len"]) // 8
            msg = _hex(r.get("msg", ""))[: 2 * nbytes]
            if digest_len and len(r["md"]) != 2 * digest_len:
                continue
            cases.append(Case(_cid(relpath, i), "hash", {"msg": msg}, "valid", _hex(r["md"]), source=source))
    return cases


def _sha2(bits: int) -> list[Case]:
    return _hash_files([f"hashes/SHA2/SHA{bits}{k}Msg.rsp" for k in ("Short", "Long")], "NIST CAVP SHA-2")


def _sha3(bits: int) -> list[Case]:
    return _hash_files([f"hashes/SHA3/SHA3_{bits}{k}Msg.rsp" for k in ("Short", "Long")], "NIST CAVP SHA-3")


def _hmac_sha256() -> list[Case]:
    relpath = "HMAC/rfc-4231-sha256.txt"
    return [
        Case(
            _cid(relpath, i),
            "mac",
            {"key": _hex(r["key"]), "msg": _hex(r["msg"])},
            "valid",
            _hex(r["md"]),
            source="RFC 4231",
        )  # fmt: skip
        for i, (_s, r) in enumerate(read_records(relpath))
        if "key" in r and "md" in r
    ]


# --- block and stream ciphers ---------------------------------------------------


def _cipher_pair(cid: str, key: str, iv: str, pt: str, ct: str, source: str, **extra) -> list[Case]:
    fields = {"key": key, **({"iv": iv} if iv else {}), **extra}
    return [
        Case(cid + "/encrypt", "encrypt", {**fields, "msg": pt}, "valid", ct, source=source),
        Case(cid + "/decrypt", "decrypt", {**fields, "msg": ct}, "valid", pt, source=source),
    ]


def _aes_kat(mode: str, bits: int) -> list[Case]:
    """CAVP AES ECB/CBC: KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT files, both sections."""
    cases = []
    for kind in ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"):
        relpath = f"ciphers/AES/{mode.upper()}/{mode.upper()}{kind}{bits}.rsp"
        for i, (sec, r) in enumerate(read_records(relpath)):
            if sec.upper() != "ENCRYPT" or not {"key", "plaintext", "ciphertext"} <= set(r):
                continue  # DECRYPT sections hold the same pairs the other way round
            iv = _hex(r.get("iv", ""))
            cases += _cipher_pair(_cid(relpath, i), _hex(r["key"]), iv, _hex(r["plaintext"]), _hex(r["ciphertext"]),
                                  f"NIST CAVP AES {mode.upper()} {kind}")  # fmt: skip
    return cases


def _simple_cipher(relpath: str, source: str, key_len: int, iv_len: int, **section) -> list[Case]:
    cases = []
    for i, (sec, r) in enumerate(read_records(relpath)):
        if sec.upper() not in ("", "ENCRYPT") or not {"key", "plaintext", "ciphertext"} <= set(r):
            continue
        key, iv = _hex(r["key"]), _hex(r.get("iv", r.get("nonce", "")))
        if len(key) != 2 * key_len or len(iv) != 2 * iv_len:
            continue
        extra = {"counter": int(r["initial_block_counter"])} if "initial_block_counter" in r else {}
        cases += _cipher_pair(_cid(relpath, i), key, iv, _hex(r["plaintext"]), _hex(r["ciphertext"]), source,
                              **extra)  # fmt: skip
    return cases


# --- AEADs ---------------------------------------------------------------------


def _aead_case(cid: str, key: str, iv: str, aad: str, pt: str | None, ct: str, tag: str, source: str) -> list[Case]:
    base = {"key": key, "iv": iv, "aad": aad}
    if pt is None:  # a forgery: open must refuse it
        return [Case(cid + "/open", "open", {**base, "msg": ct + tag}, "invalid", source=source)]
    return [
        Case(cid + "/seal", "seal", {**base, "msg": pt}, "valid", ct + tag, source=source),
        Case(cid + "/open", "open", {**base, "msg": ct + tag}, "valid", pt, source=source),
    ]


def _gcm(bits: int) -> list[Case]:
    cases = []
    for kind in ("EncryptExtIV", "Decrypt"):
        relpath = f"ciphers/AES/GCM/gcm{kind}{bits}.rsp"
        for i, (_sec, r) in enumerate(read_records(relpath)):
            if not {"key", "iv", "ct", "tag"} <= set(r):
                continue
            if len(_hex(r["iv"])) != 24 or len(_hex(r["tag"])) != 32:
                continue  # outside the contract: 12-byte nonce, 16-byte tag
            pt = None if "fail" in r else _hex(r.get("pt", ""))
            cases += _aead_case(_cid(relpath, i), _hex(r["key"]), _hex(r["iv"]), _hex(r.get("aad", "")), pt,
                                _hex(r["ct"]), _hex(r["tag"]), f"NIST CAVP AES-GCM {kind}")  # fmt: skip
    return cases


_SYNONYMS = {"nonce": "iv", "in": "plaintext", "ad": "aad", "ct": "ciphertext"}  # BoringSSL's names


def _aead_file(relpath: str, source: str, key_len: int) -> list[Case]:
    cases = []
    for i, (_sec, r) in enumerate(read_records(relpath)):
        r = {_SYNONYMS.get(k, k): v for k, v in r.items()}
        if not {"key", "iv", "tag", "ciphertext"} <= set(r):
            continue
        key, iv, tag = _hex(r["key"]), _hex(r["iv"]), _hex(r["tag"])
        if len(key) != 2 * key_len or len(iv) != 24 or len(tag) != 32:
            continue
        refused = "fail" in r or "result" in r  # OpenSSL's files mark forgeries `Result = ...ERROR`
        pt = None if refused else _hex(r.get("plaintext", ""))
        cases += _aead_case(_cid(relpath, i), key, iv, _hex(r.get("aad", "")), pt, _hex(r["ciphertext"]), tag, source)
    return cases


# --- the catalogue ----------------------------------------------------------------


def _builders() -> dict:
    chacha = ["ciphers/ChaCha20Poly1305/openssl.txt", "ciphers/ChaCha20Poly1305/boringssl.txt"]
    sm4 = "ciphers/SM4/draft-ribose-cfrg-sm4-10-{}.txt"
    return {
        "sha256": lambda: _sha2(256),
        "sha512": lambda: _sha2(512),
        "sha3-256": lambda: _sha3(256),
        "sha3-512": lambda: _sha3(512),
        "blake2b-512": lambda: _hash_files(["hashes/blake2/blake2b.txt"], "BLAKE2 reference KAT", 64),
        "blake2s-256": lambda: _hash_files(["hashes/blake2/blake2s.txt"], "BLAKE2 reference KAT", 32),
        "sm3": lambda: _hash_files(["hashes/SM3/oscca.txt"], "OSCCA SM3"),
        "hmac-sha256": _hmac_sha256,
        "aes-128-ecb": lambda: _aes_kat("ecb", 128),
        "aes-256-ecb": lambda: _aes_kat("ecb", 256),
        "aes-128-cbc": lambda: _aes_kat("cbc", 128),
        "aes-256-cbc": lambda: _aes_kat("cbc", 256),
        "aes-128-ctr": lambda: _simple_cipher("ciphers/AES/CTR/aes-128-ctr.txt", "RFC 3686", 16, 16),
        "aes-256-ctr": lambda: _simple_cipher("ciphers/AES/CTR/aes-256-ctr.txt", "RFC 3686", 32, 16),
        "aes-128-gcm": lambda: _gcm(128),
        "aes-256-gcm": lambda: _gcm(256),
        "chacha20": lambda: _simple_cipher("ciphers/ChaCha20/rfc7539.txt", "RFC 7539", 32, 12),
        "chacha20-poly1305": lambda: [c for f in chacha for c in _aead_file(f, "OpenSSL/BoringSSL tests", 32)],
        "sm4-ecb": lambda: _simple_cipher(sm4.format("ecb"), "draft-ribose-cfrg-sm4", 16, 0),
        "sm4-cbc": lambda: _simple_cipher(sm4.format("cbc"), "draft-ribose-cfrg-sm4", 16, 16),
        "sm4-ctr": lambda: _simple_cipher(sm4.format("ctr"), "draft-ribose-cfrg-sm4", 16, 16),
        "sm4-gcm": lambda: _aead_file("ciphers/SM4/rfc8998.txt", "RFC 8998", 16),
    }


@lru_cache(maxsize=64)
def _cached(alg: str) -> tuple[Case, ...]:
    build = _builders().get(alg)
    return tuple(build()) if build else ()


def cavp_cases(alg: str) -> list[Case]:
    """The package's cases for `alg` (none when the package is not installed)."""
    return list(_cached(alg))


def source_counts(alg: str) -> dict[str, int]:
    return dict(Counter(c.source for c in _cached(alg)))
