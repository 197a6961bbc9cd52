"""python:cryptography — the PyPI `cryptography` package (hazmat primitives over its bundled OpenSSL)."""

from __future__ import annotations

import ssl

import cryptography
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.backends.openssl.backend import backend
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, ChaCha20Poly1305

from .ops_base import TAG_LEN, Cell, CellSpec, Provider, Rejected, case_bytes, make_cell, noop_cell, split

HASHES = {
    "sha256": hashes.SHA256,
    "sha512": hashes.SHA512,
    "sha3-256": hashes.SHA3_256,
    "sha3-512": hashes.SHA3_512,
    "blake2b-512": lambda: hashes.BLAKE2b(64),
    "blake2s-256": lambda: hashes.BLAKE2s(32),
}
# cipher algorithm -> mode class (None: ChaCha20, which has no mode object)
CIPHERS = {
    "aes-128-ecb": modes.ECB,
    "aes-256-ecb": modes.ECB,
    "aes-128-cbc": modes.CBC,
    "aes-256-cbc": modes.CBC,
    "aes-128-ctr": modes.CTR,
    "aes-256-ctr": modes.CTR,
    "chacha20": None,
}
AEADS = {
    "aes-128-gcm": AESGCM,
    "aes-256-gcm": AESGCM,
    "aes-128-ccm": lambda key: AESCCM(key, tag_length=TAG_LEN),
    "aes-256-ccm": lambda key: AESCCM(key, tag_length=TAG_LEN),
    "chacha20-poly1305": ChaCha20Poly1305,
}
GCM = ("aes-128-gcm", "aes-256-gcm")


def chacha20_nonce(iv: bytes, counter: int = 0) -> bytes:
    """cryptography's 16-byte ChaCha20 nonce: 4-byte little-endian block counter ‖ 12-byte nonce."""
    if len(iv) != 12:
        raise ValueError(f"chacha20 nonce must be 12 bytes, got {len(iv)}")
    return counter.to_bytes(4, "little") + iv


def new_cipher(alg: str, key: bytes, iv: bytes, counter: int = 0) -> Cipher:
    mode = CIPHERS[alg]
    if mode is None:
        return Cipher(algorithms.ChaCha20(key, chacha20_nonce(iv, counter)), None)
    if mode is modes.ECB:
        return Cipher(algorithms.AES(key), modes.ECB())
    return Cipher(algorithms.AES(key), mode(iv))


class CryptographyProvider(Provider):
    id = "python:cryptography"
    library = "cryptography"
    offers = {
        "noop": ("noop",),
        **{alg: ("hash",) for alg in HASHES},
        "hmac-sha256": ("mac",),
        **{alg: ("encrypt", "decrypt") for alg in CIPHERS},
        **{alg: ("seal", "open") for alg in AEADS},
    }
    stream = (*HASHES, "hmac-sha256", *CIPHERS, *GCM)

    def library_version(self) -> str:
        return f"cryptography {cryptography.__version__} ({backend.openssl_version_text()})"

    def notes(self) -> list[str]:
        own = backend.openssl_version_text()
        notes = []
        if own != ssl.OPENSSL_VERSION:
            notes.append(
                f"cryptography uses its own OpenSSL ({own}), not the one Python's ssl reports "
                f"({ssl.OPENSSL_VERSION})"
            )
        notes += [
            "hash: h = hashes.Hash(alg); h.update(msg); h.finalize() per message (no one-shot hash API); "
            "blake2b-512 = hashes.BLAKE2b(64), blake2s-256 = hashes.BLAKE2s(32)",
            "hmac-sha256: hmac.HMAC(key, SHA256()) per tag (key set up inside the timed operation)",
            "encrypt/decrypt: Cipher(AES(key), CBC|CTR(iv)).encryptor() per message, so the key schedule "
            "is inside the timed operation as the API requires; ECB reuses one Cipher object and takes "
            "a new encryptor per message; chacha20: Cipher(ChaCha20(key, counter_le32 || nonce), None); "
            "output = ctx.update(data) + ctx.finalize()",
            "seal/open: one-shot AESGCM / AESCCM(tag_length=16) / ChaCha20Poly1305 object made once per "
            "cell, .encrypt(nonce, msg, None) / .decrypt(nonce, ct, None) per message",
            "stream (chunk > 0): hashes and hmac by update() per piece; ciphers by encryptor().update() per "
            "piece; aes-gcm by Cipher(AES(key), GCM(iv)) (.tag after finalize(); open passes the tag to "
            "GCM(iv, tag)); aes-ccm and chacha20-poly1305 have no streaming API in cryptography",
        ]
        return notes + super().notes()

    def execute(self, alg: str, case: dict) -> bytes:
        op = case.get("op")
        if op not in self.offers.get(alg, ()):
            raise ValueError(f"{alg} {op!r} not offered by {self.id}")
        msg = case_bytes(case, "msg")
        if op == "hash":
            h = hashes.Hash(HASHES[alg]())
            h.update(msg)
            return h.finalize()
        if op == "mac":
            h = hmac.HMAC(case_bytes(case, "key"), hashes.SHA256())
            h.update(msg)
            return h.finalize()
        key = case_bytes(case, "key")
        iv = case_bytes(case, "iv", required=CIPHERS.get(alg) is not modes.ECB)
        if op in ("encrypt", "decrypt"):
            c = new_cipher(alg, key, iv, int(case.get("counter", 0)))
            ctx = c.encryptor() if op == "encrypt" else c.decryptor()
            return ctx.update(msg) + ctx.finalize()
        aead = AEADS[alg](key)
        aad = case_bytes(case, "aad", required=False)
        if op == "seal":
            return aead.encrypt(iv, msg, aad)
        try:
            return aead.decrypt(iv, msg, aad)
        except InvalidTag:
            raise Rejected("tag does not verify") from None

    def cell(self, spec: CellSpec) -> Cell:
        alg = spec.alg
        if alg == "noop":
            return noop_cell()
        if alg in HASHES:
            return _hash_cell(HASHES[alg](), spec)
        if alg == "hmac-sha256":
            return _hmac_cell(spec)
        if alg in CIPHERS:
            return _cipher_cell(spec)
        if alg in AEADS:
            return _gcm_stream_cell(spec) if spec.chunk else _aead_cell(spec)
        raise ValueError(f"{alg} not offered by {self.id}")


def _hash_cell(algo, spec: CellSpec) -> Cell:
    Hash, msg = hashes.Hash, spec.msg
    pieces = split(msg, spec.chunk) if spec.chunk else [msg]

    def output() -> bytes:
        h = Hash(algo)
        for p in pieces:
            h.update(p)
        return h.finalize()

    if not spec.chunk:

        def call() -> int:
            h = Hash(algo)
            h.update(msg)
            return h.finalize()[0]

    else:

        def call() -> int:
            h = Hash(algo)
            for p in pieces:
                h.update(p)
            return h.finalize()[0]

    return make_cell(call, output)


def _hmac_cell(spec: CellSpec) -> Cell:
    HMAC, algo, key, msg = hmac.HMAC, hashes.SHA256(), spec.key, spec.msg
    pieces = split(msg, spec.chunk) if spec.chunk else [msg]

    def output() -> bytes:
        h = HMAC(key, algo)
        for p in pieces:
            h.update(p)
        return h.finalize()

    if not spec.chunk:

        def call() -> int:
            h = HMAC(key, algo)
            h.update(msg)
            return h.finalize()[0]

    else:

        def call() -> int:
            h = HMAC(key, algo)
            for p in pieces:
                h.update(p)
            return h.finalize()[0]

    return make_cell(call, output)


def _cipher_cell(spec: CellSpec) -> Cell:
    alg, key, iv = spec.alg, spec.key, spec.iv
    data = spec.msg
    if spec.op == "decrypt":  # the ciphertext to decrypt, made outside the timed region
        ctx = new_cipher(alg, key, iv).encryptor()
        data = ctx.update(spec.msg) + ctx.finalize()
    # Cipher.encryptor(c) is c.encryptor(): the unbound spelling lets one closure serve both directions
    direction = Cipher.encryptor if spec.op == "encrypt" else Cipher.decryptor
    mode = CIPHERS[alg]

    # a new context per message; how it is made is the only difference between the families below
    if mode is modes.ECB:
        cipher = Cipher(algorithms.AES(key), modes.ECB())  # no IV: one Cipher object for the cell

        def new():
            return direction(cipher)

    elif mode is None:
        ChaCha20, nonce = algorithms.ChaCha20, chacha20_nonce(iv)

        def new():
            return direction(Cipher(ChaCha20(key, nonce), None))

    else:
        aes = algorithms.AES(key)

        def new():
            return direction(Cipher(aes, mode(iv)))

    pieces = split(data, spec.chunk) if spec.chunk else [data]

    def output() -> bytes:
        ctx = new()
        return b"".join([ctx.update(p) for p in pieces]) + ctx.finalize()

    # call() repeats new()'s body inline so the timed operation has no extra Python frame
    if not spec.chunk:
        if mode is modes.ECB:

            def call() -> int:
                ctx = direction(cipher)
                return (ctx.update(data) + ctx.finalize())[0]

        elif mode is None:

            def call() -> int:
                ctx = direction(Cipher(ChaCha20(key, nonce), None))
                return (ctx.update(data) + ctx.finalize())[0]

        else:

            def call() -> int:
                ctx = direction(Cipher(aes, mode(iv)))
                return (ctx.update(data) + ctx.finalize())[0]

    else:
        head, rest = pieces[0], pieces[1:]
        if mode is modes.ECB:

            def call() -> int:
                ctx = direction(cipher)
                first = ctx.update(head)
                for p in rest:
                    ctx.update(p)
                ctx.finalize()
                return first[0]

        elif mode is None:

            def call() -> int:
                ctx = direction(Cipher(ChaCha20(key, nonce), None))
                first = ctx.update(head)
                for p in rest:
                    ctx.update(p)
                ctx.finalize()
                return first[0]

        else:

            def call() -> int:
                ctx = direction(Cipher(aes, mode(iv)))
                first = ctx.update(head)
                for p in rest:
                    ctx.update(p)
                ctx.finalize()
                return first[0]

    return make_cell(call, output)


def _aead_cell(spec: CellSpec) -> Cell:
    aead, nonce, msg = AEADS[spec.alg](spec.key), spec.iv, spec.msg
    if spec.op == "seal":

        def call() -> int:
            return aead.encrypt(nonce, msg, None)[0]

        def output() -> bytes:
            return aead.encrypt(nonce, msg, None)

        return make_cell(call, output)

    sealed = aead.encrypt(nonce, msg, None)  # the ciphertext to open, made outside the timed region

    def call() -> int:
        return aead.decrypt(nonce, sealed, None)[0]

    def output() -> bytes:
        return aead.decrypt(nonce, sealed, None)

    return make_cell(call, output)


def _gcm_stream_cell(spec: CellSpec) -> Cell:
    if spec.alg not in GCM:
        raise ValueError(f"{spec.alg} has no streaming API in cryptography")
    aes, iv, GCMode = algorithms.AES(spec.key), spec.iv, modes.GCM
    if spec.op == "seal":
        pieces = split(spec.msg, spec.chunk)
        head, rest = pieces[0], pieces[1:]

        def call() -> int:
            ctx = Cipher(aes, GCMode(iv)).encryptor()
            first = ctx.update(head)
            for p in rest:
                ctx.update(p)
            ctx.finalize()
            return first[0]

        def output() -> bytes:
            ctx = Cipher(aes, GCMode(iv)).encryptor()
            out = b"".join([ctx.update(p) for p in pieces]) + ctx.finalize()
            return out + ctx.tag

        return make_cell(call, output)

    sealed = AESGCM(spec.key).encrypt(iv, spec.msg, None)  # made outside the timed region
    ct, tag = sealed[:-TAG_LEN], sealed[-TAG_LEN:]
    pieces = split(ct, spec.chunk)
    head, rest = pieces[0], pieces[1:]

    def call() -> int:
        ctx = Cipher(aes, GCMode(iv, tag)).decryptor()
        first = ctx.update(head)
        for p in rest:
            ctx.update(p)
        ctx.finalize()  # raises InvalidTag when the tag does not verify
        return first[0]

    def output() -> bytes:
        ctx = Cipher(aes, GCMode(iv, tag)).decryptor()
        return b"".join([ctx.update(p) for p in pieces]) + ctx.finalize()

    return make_cell(call, output)


PROVIDER = CryptographyProvider()
