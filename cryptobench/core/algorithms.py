"""The algorithm catalogue: names, kinds, operations and parameter sizes.

One table that every other module (suites, vectors, planner, reports) reads,
so an algorithm's key length or operations are written down exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.core.units import format_size


@dataclass(frozen=True)
class Algorithm:
    name: str
    kind: str  # hash | mac | cipher | aead | noop | sig | kex | kem | pke | keygen | kdf | protocol
    ops: tuple[str, ...]
    key_len: int = 0
    iv_len: int = 0
    block: int = 1  # messages must be a multiple of this (ECB/CBC: 16)

    @property
    def public_key(self) -> bool:
        return self.kind in PUBLIC_KEY_KINDS

    @property
    def per_operation(self) -> bool:
        """Reported in operations per second: bytes per second mean nothing for these."""
        return self.public_key or self.kind in ("protocol", "kdf")

    def deterministic(self, op: str) -> bool:
        """Whether `op` gives the same output for the same input in every provider."""
        if self.kind == "protocol":
            return False  # fresh ephemeral keys in every handshake
        if not self.public_key:
            return True
        return op == "verify"  # keys are each driver's own: only "it verifies" is comparable

    def repeatable(self, op: str) -> bool:
        """Whether one cell's operations all give the same output (its `checksum_after` must equal
        its `checksum`): not for fresh keys, hedged signatures, encapsulations or handshakes."""
        if self.kind == "protocol" or op in ("update", "rekey"):  # update/rekey: bench/accuracy's running stream
            return False
        return not self.public_key or op in ("verify", "derive", "decrypt", "decaps")


PROTOCOL_STEPS = ("client-create", "server-reply", "client-finish", "full")
HKDF_OUTPUT = 72


def _hash(name: str) -> Algorithm:
    return Algorithm(name, "hash", ("hash",))


def _cipher(name: str, key_len: int, iv_len: int, block: int = 1) -> Algorithm:
    return Algorithm(name, "cipher", ("encrypt", "decrypt"), key_len, iv_len, block)


def _aead(name: str, key_len: int, iv_len: int) -> Algorithm:
    return Algorithm(name, "aead", ("seal", "open"), key_len, iv_len)


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
        *[Algorithm(e, "sig", ("keygen", "sign", "verify")) for e in ("ed25519", "ed448")],
        *[Algorithm(x, "kex", ("keygen", "derive")) for x in ("x25519", "x448")],
        *[Algorithm(f"ml-kem-{n}", "kem", ("keygen", "encaps", "decaps")) for n in (512, 768, 1024)],
        *[Algorithm(f"ml-dsa-{n}", "sig", ("keygen", "sign", "verify")) for n in (44, 65, 87)],
        Algorithm("sm2", "sig", ("keygen", "sign", "verify")),
        # HKDF-SHA256 (RFC 5869): IKM = the message, salt = the cell key, info = the cell IV, 72 bytes out
        Algorithm("hkdf-sha256", "kdf", ("derive",), key_len=32, iv_len=16),
        # handshakes of docs/pq-ntor.md: one step per operation, fresh ephemeral keys each time
        *[
            Algorithm(name, "protocol", PROTOCOL_STEPS)
            for name in ("ntor", "pq-ntor-512", "pq-ntor-768", "pq-ntor-1024")
        ],
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
}

# Fixed output lengths of public-key operations (others, like DER signatures, vary).
_PK_OUTPUT_LEN = {
    **{(f"ml-kem-{n}", "encaps"): c + 32 for n, c in ((512, 768), (768, 1088), (1024, 1568))},
    **{(f"ml-kem-{n}", "decaps"): 32 for n in (512, 768, 1024)},
    **{(f"ml-kem-{n}", "keygen"): ek for n, ek in ((512, 800), (768, 1184), (1024, 1568))},
    **{(f"ml-dsa-{n}", "sign"): sig for n, sig in ((44, 2420), (65, 3309), (87, 4627))},
    **{(f"ml-dsa-{n}", "keygen"): pk for n, pk in ((44, 1312), (65, 1952), (87, 2592))},
    ("ed25519", "sign"): 64,
    ("ed448", "sign"): 114,
    ("ed25519", "keygen"): 32,
    ("ed448", "keygen"): 57,
    ("x25519", "keygen"): 32,
    ("x448", "keygen"): 56,
    ("x25519", "derive"): 32,
    ("x448", "derive"): 56,
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
