"""The algorithm catalogue: names, kinds, operations and parameter sizes.

One table that every other module (suites, vectors, planner, reports) reads,
so an algorithm's key length or operations are written down exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.core import tls
from cryptobench.core.units import format_size


@dataclass(frozen=True)
class Algorithm:
    name: str
    kind: str  # hash | mac | cipher | aead | noop | sig | kex | kem | pke | keygen | kdf | protocol | tls
    ops: tuple[str, ...]
    key_len: int = 0
    iv_len: int = 0
    block: int = 1  # messages must be a multiple of this (ECB/CBC: 16)
    # bytes of what a public-key scheme puts on the wire or in storage, as its standard fixes them:
    # (("public key", 32), ("signature", 7856), ...); a variable one is its maximum, labelled "at most"
    sizes: tuple[tuple[str, int], ...] = ()
    standard: str = ""  # the document that defines it, as reports name it ("FIPS 205", "pre-standard")

    @property
    def public_key(self) -> bool:
        return self.kind in PUBLIC_KEY_KINDS

    @property
    def per_operation(self) -> bool:
        """Reported in operations per second: bytes per second mean nothing for these."""
        return self.public_key or self.kind in ("protocol", "kdf", "tls")

    def deterministic(self, op: str) -> bool:
        """Whether `op` gives the same output for the same input in every provider."""
        if self.kind in ("protocol", "tls"):
            return False  # fresh ephemeral keys in every handshake
        if not self.public_key:
            return True
        return op == "verify"  # keys are each driver's own: only "it verifies" is comparable

    def repeatable(self, op: str) -> bool:
        """Whether one cell's operations all give the same output (its `checksum_after` must equal
        its `checksum`): not for fresh keys, hedged signatures, encapsulations or handshakes."""
        if self.kind in ("protocol", "tls") or op in (
            "update",
            "rekey",
        ):  # update/rekey: bench/accuracy's running stream
            return False
        return not self.public_key or op in ("verify", "derive", "decrypt", "decaps")


PROTOCOL_STEPS = ("client-create", "server-reply", "client-finish", "full")
KEM_OPS = ("keygen", "encaps", "decaps")
SIG_OPS = ("keygen", "sign", "verify")

# FIPS 205 Table 2: (security bytes n, public key, secret key, signature) per parameter set;
# SHA2 and SHAKE sets of one size share them, and so do the SPHINCS+ round-3 "simple" sets
_SLH_SIZES = {
    "128s": (32, 64, 7856),
    "128f": (32, 64, 17088),
    "192s": (48, 96, 16224),
    "192f": (48, 96, 35664),
    "256s": (64, 128, 29792),
    "256f": (64, 128, 49856),
}
# (level, public key, ciphertext) of HQC-1/3/5 (2025) and (bits, public key, secret key, ciphertext) of
# HQC-128/192/256 (2023-04-30), as BouncyCastle 1.87 and liboqs 0.13 write them
_HQC_2025 = ((1, 2241, 4433), (3, 4514, 8978), (5, 7237, 14421))
_HQC_2023 = ((128, 2249, 2305, 4433), (192, 4522, 4586, 8978), (256, 7245, 7317, 14421))
SLH_DSA_SETS = tuple(f"{h}-{p}" for h in ("sha2", "shake") for p in _SLH_SIZES)


def _sig_sizes(pk: int, sk: int, sig: int, sig_label: str = "signature") -> tuple[tuple[str, int], ...]:
    return (("public key", pk), ("secret key", sk), (sig_label, sig))


def _kem(name: str, pk: int, sk: int, ct: int, ss: int, standard: str) -> Algorithm:
    sizes = (("public key", pk), ("secret key", sk), ("ciphertext", ct), ("shared secret", ss))
    return Algorithm(name, "kem", KEM_OPS, sizes=tuple(x for x in sizes if x[1]), standard=standard)


def _x_kex(name: str, size: int) -> Algorithm:
    """X25519 and X448 (RFC 7748): keys and shared secret of one size."""
    sizes = (("public key", size), ("secret key", size), ("shared secret", size))
    return Algorithm(name, "kex", ("keygen", "derive"), sizes=sizes, standard="RFC 7748")


def _slh_dsa(name: str, params: str, standard: str) -> Algorithm:
    return Algorithm(name, "sig", SIG_OPS, sizes=_sig_sizes(*_SLH_SIZES[params.split("-")[1]]), standard=standard)


# The post-quantum catalogue of 2026 (docs/pq-2026.md): FIPS 203/204/205, the Falcon submission
# that FIPS 206 (FN-DSA, a draft) is built on, HQC, X-Wing, the TLS 1.3 hybrid key shares as KEMs,
# SPHINCS+ apart from SLH-DSA (not the same outputs), and Ascon (NIST SP 800-232)
_PQ_2026 = [
    *[_slh_dsa(f"slh-dsa-{p}", p, "FIPS 205") for p in SLH_DSA_SETS],
    *[_slh_dsa(f"sphincs-{p}-simple", p, "SPHINCS+ round 3 (pre-standard)") for p in SLH_DSA_SETS],
    *[
        Algorithm(
            f"falcon-{n}",
            "sig",
            SIG_OPS,
            sizes=_sig_sizes(pk, sk, sig, "signature (at most)"),
            standard="Falcon round 3 (FN-DSA, FIPS 206 draft)",
        )  # fmt: skip
        for n, pk, sk, sig in ((512, 897, 1281, 752), (1024, 1793, 2305, 1462))
    ],
    # HQC as NIST selected it (the 2025 revision, HQC-1/3/5), and its 2023-04-30 round-4 submission
    # (HQC-128/192/256) that liboqs 0.13-0.15 ship: other sizes, another shared secret, no interop, so
    # two names, as SPHINCS+ is kept apart from SLH-DSA. The 2025 secret key is the library's own form
    # (BouncyCastle keeps a 32-byte seed): none written here
    *[_kem(f"hqc-{n}", pk, 0, ct, 32, "HQC (2025 revision, NIST's selection)") for n, pk, ct in _HQC_2025],
    *[
        _kem(f"hqc-{b}", pk, sk, ct, 64, "HQC round-4 submission (2023-04-30, pre-standard)")
        for b, pk, sk, ct in _HQC_2023
    ],  # fmt: skip
    _kem("x-wing", 1216, 32, 1120, 32, "X-Wing (draft-connolly-cfrg-xwing-kem)"),
    _kem("x25519mlkem768", 1216, 0, 1120, 64, "TLS 1.3 hybrid (draft-ietf-tls-ecdhe-mlkem)"),
    _kem("secp256r1mlkem768", 1249, 0, 1153, 64, "TLS 1.3 hybrid (draft-ietf-tls-ecdhe-mlkem)"),
    _kem("secp384r1mlkem1024", 1665, 0, 1665, 80, "TLS 1.3 hybrid (draft-ietf-tls-ecdhe-mlkem)"),
    Algorithm("ascon-aead128", "aead", ("seal", "open"), 16, 16, standard="NIST SP 800-232"),
    Algorithm("ascon-hash256", "hash", ("hash",), standard="NIST SP 800-232"),
    # an XOF timed as a hash with 32 bytes out (the length SP 800-232 pairs with 128-bit security)
    Algorithm("ascon-xof128", "hash", ("hash",), standard="NIST SP 800-232"),
]
HKDF_OUTPUT = 72


def _hash(name: str) -> Algorithm:
    return Algorithm(name, "hash", ("hash",))


def _cipher(name: str, key_len: int, iv_len: int, block: int = 1) -> Algorithm:
    return Algorithm(name, "cipher", ("encrypt", "decrypt"), key_len, iv_len, block)


def _aead(name: str, key_len: int, iv_len: int) -> Algorithm:
    return Algorithm(name, "aead", ("seal", "open"), key_len, iv_len)


# FIPS 203 Table 3 (encapsulation key, decapsulation key, ciphertext) and FIPS 204 Table 2
# (public key, private key, signature)
_ML_KEM_SIZES = {512: (800, 1632, 768), 768: (1184, 2400, 1088), 1024: (1568, 3168, 1568)}
_ML_DSA_SIZES = {44: (1312, 2560, 2420), 65: (1952, 4032, 3309), 87: (2592, 4896, 4627)}

ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in [
        _hash("sha256"),
        _hash("sha512"),
        _hash("sha3-256"),
        _hash("sha3-512"),
        _hash("blake2b-512"),
        _hash("blake2s-256"),
        _hash("sm3"),
        Algorithm("hmac-sha256", "mac", ("mac",), key_len=32),
        _cipher("aes-128-ecb", 16, 0, 16),
        _cipher("aes-256-ecb", 32, 0, 16),
        _cipher("aes-128-cbc", 16, 16, 16),
        _cipher("aes-256-cbc", 32, 16, 16),
        _cipher("aes-128-ctr", 16, 16),
        _cipher("aes-256-ctr", 32, 16),
        _cipher("chacha20", 32, 12),
        _aead("aes-128-gcm", 16, 12),
        _aead("aes-256-gcm", 32, 12),
        _aead("aes-128-ccm", 16, 12),
        _aead("aes-256-ccm", 32, 12),
        _aead("chacha20-poly1305", 32, 12),
        _aead("xchacha20-poly1305", 32, 24),
        _cipher("sm4-ecb", 16, 0, 16),
        _cipher("sm4-cbc", 16, 16, 16),
        _cipher("sm4-ctr", 16, 16),
        _aead("sm4-gcm", 16, 12),
        Algorithm("noop", "noop", ("noop",)),
        *[Algorithm(f"rsa-{n}", "keygen", ("keygen",)) for n in (2048, 3072, 4096)],
        *[Algorithm(f"rsa-{n}-pss", "sig", ("sign", "verify")) for n in (2048, 3072, 4096)],
        *[Algorithm(f"rsa-{n}-pkcs1", "sig", ("sign", "verify")) for n in (2048, 3072, 4096)],
        *[Algorithm(f"rsa-{n}-oaep", "pke", ("encrypt", "decrypt")) for n in (2048, 3072, 4096)],
        *[Algorithm(f"ecdsa-{c}", "sig", ("keygen", "sign", "verify")) for c in ("p256", "p384", "secp256k1")],
        *[Algorithm(f"ecdh-{c}", "kex", ("derive",)) for c in ("p256", "p384", "secp256k1")],
        Algorithm("ed25519", "sig", SIG_OPS, sizes=_sig_sizes(32, 32, 64), standard="RFC 8032"),
        Algorithm("ed448", "sig", SIG_OPS, sizes=_sig_sizes(57, 57, 114), standard="RFC 8032"),
        *[_x_kex(f"x{n}", size) for n, size in (("25519", 32), ("448", 56))],
        *[_kem(f"ml-kem-{n}", *sz, 32, "FIPS 203") for n, sz in _ML_KEM_SIZES.items()],
        *[
            Algorithm(f"ml-dsa-{n}", "sig", SIG_OPS, sizes=_sig_sizes(*sz), standard="FIPS 204")
            for n, sz in _ML_DSA_SIZES.items()
        ],  # fmt: skip
        Algorithm("sm2", "sig", ("keygen", "sign", "verify")),
        # HKDF-SHA256 (RFC 5869): IKM = the message, salt = the cell key, info = the cell IV, 72 bytes out
        Algorithm("hkdf-sha256", "kdf", ("derive",), key_len=32, iv_len=16),
        # handshakes of docs/pq-ntor.md: one step per operation, fresh ephemeral keys each time
        *[
            Algorithm(name, "protocol", PROTOCOL_STEPS)
            for name in ("ntor", "pq-ntor-512", "pq-ntor-768", "pq-ntor-1024")
        ],
        *_PQ_2026,
        # TLS 1.3 handshakes, classical and hybrid (docs/tls.md): one handshake, client or server side
        *[Algorithm(name, "tls", tls.OPS, standard="RFC 8446") for name in tls.CELLS],
    ]
}

PUBLIC_KEY_KINDS = {"sig", "kex", "kem", "pke", "keygen"}

TAG_LEN = 16


def get(name: str) -> Algorithm:
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise KeyError(f"unknown algorithm: {name!r} (see `cryptobench list algorithms`)") from None


DIGEST_LEN = {
    "sha256": 32,
    "sha512": 64,
    "sha3-256": 32,
    "sha3-512": 64,
    "blake2b-512": 64,
    "blake2s-256": 32,
    "sm3": 32,
    "hmac-sha256": 32,
    "ascon-hash256": 32,
    "ascon-xof128": 32,
}


def size_of(alg: str, label: str) -> int | None:
    """One of an algorithm's standard sizes ("public key", "ciphertext", ...), None when unfixed."""
    return dict(get(alg).sizes).get(label)


def outputs_of(a: Algorithm) -> dict[str, int]:
    """What keygen (the public key), sign (the signature), encaps (ciphertext ‖ shared secret),
    decaps and derive (the shared secret) put out, wherever `a`'s sizes fix them."""
    sz, out = dict(a.sizes), {}
    if "public key" in sz and "keygen" in a.ops:
        out["keygen"] = sz["public key"]
    if "signature" in sz:
        out["sign"] = sz["signature"]
    if "ciphertext" in sz and "shared secret" in sz:
        out["encaps"] = sz["ciphertext"] + sz["shared secret"]
    for op in ("decaps", "derive"):
        if "shared secret" in sz and op in a.ops:
            out[op] = sz["shared secret"]
    return out


# Fixed output lengths of public-key operations (others, like DER signatures, vary).
_PK_OUTPUT_LEN = {
    **{(a.name, op): n for a in ALGORITHMS.values() for op, n in outputs_of(a).items()},
    ("ecdh-p256", "derive"): 32,
    ("ecdh-secp256k1", "derive"): 32,
    ("ecdh-p384", "derive"): 48,
    **{(f"rsa-{n}-{p}", "sign"): n // 8 for n in (2048, 3072, 4096) for p in ("pss", "pkcs1")},
    **{(f"rsa-{n}-oaep", "encrypt"): n // 8 for n in (2048, 3072, 4096)},
}


def output_len(alg: str, op: str, size: int) -> int | None:
    """Length of one operation's output, so a driver's checksum can be sanity-checked."""
    a = get(alg)
    if a.kind == "kdf":
        return HKDF_OUTPUT
    if a.kind == "tls":
        return tls.EXPORTER_LEN  # the client's exporter value
    if a.kind == "protocol":
        return None  # onionskin, reply or keys: the sizes differ by suite (docs/pq-ntor.md)
    if a.public_key:
        if op == "verify":
            return 1
        if op == "decrypt":
            return size
        return _PK_OUTPUT_LEN.get((alg, op))
    if op in ("hash", "mac"):
        return DIGEST_LEN.get(alg)
    if op in ("encrypt", "decrypt", "open"):
        return size
    if op == "seal":
        return size + TAG_LEN
    if op == "noop":
        return 0
    return None


def message_label(alg: str, size: int, chunk: int = 0, sep: str = " in ", suffix: str = " chunks") -> str:
    """The message size (and chunking) of a cell for people; "" for an operation that takes no
    message (a key generation, a handshake step), where "0 B" would only puzzle the reader."""
    if size == 0 and not chunk and alg in ALGORITHMS and (ALGORITHMS[alg].per_operation or alg == "noop"):
        return ""
    return format_size(size) + (f"{sep}{format_size(chunk)}{suffix}" if chunk else "")
