"""python:cryptography — the PyPI `cryptography` package (hazmat primitives over its bundled OpenSSL)."""

from __future__ import annotations

import ssl
from collections.abc import Callable

import cryptography
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.backends.openssl.backend import backend
from cryptography.hazmat.bindings._rust import openssl as rust_openssl
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, ChaCha20Poly1305

from . import inputs, pk_cryptography, timing
from .ops_base import (
    REGENERATE_ABOVE,
    TAG_LEN,
    Cell,
    CellSpec,
    Provider,
    Rejected,
    case_bytes,
    copied_cell,
    make_cell,
    noop_cell,
    regenerated,
    stream_cell,
)

HASHES = {
    "sha256": hashes.SHA256,
    "sha512": hashes.SHA512,
    "sha3-256": hashes.SHA3_256,
    "sha3-512": hashes.SHA3_512,
    "blake2b-512": lambda: hashes.BLAKE2b(64),
    "blake2s-256": lambda: hashes.BLAKE2s(32),
    "sm3": hashes.SM3,
}
# cipher algorithm -> (block cipher class, mode class); ChaCha20 has no mode object
CIPHERS = {
    "aes-128-ecb": (algorithms.AES, modes.ECB),
    "aes-256-ecb": (algorithms.AES, modes.ECB),
    "aes-128-cbc": (algorithms.AES, modes.CBC),
    "aes-256-cbc": (algorithms.AES, modes.CBC),
    "aes-128-ctr": (algorithms.AES, modes.CTR),
    "aes-256-ctr": (algorithms.AES, modes.CTR),
    "chacha20": (algorithms.ChaCha20, None),
    "sm4-ecb": (algorithms.SM4, modes.ECB),
    "sm4-cbc": (algorithms.SM4, modes.CBC),
    "sm4-ctr": (algorithms.SM4, modes.CTR),
}
# one-shot AEAD classes; the GCM algorithms below are also run through Cipher(<cipher>, GCM) when streamed
AEADS = {
    "aes-128-gcm": AESGCM,
    "aes-256-gcm": AESGCM,
    "aes-128-ccm": lambda key: AESCCM(key, tag_length=TAG_LEN),
    "aes-256-ccm": lambda key: AESCCM(key, tag_length=TAG_LEN),
    "chacha20-poly1305": ChaCha20Poly1305,
}
# GCM through Cipher(<block cipher>, GCM(iv)) (streaming; sm4-gcm has no one-shot class in cryptography)
GCM = {"aes-128-gcm": algorithms.AES, "aes-256-gcm": algorithms.AES, "sm4-gcm": algorithms.SM4}


def _sm_supported() -> dict[str, str]:
    """The SM algorithms the bundled OpenSSL can run (alg -> its op kind)."""
    out = {}
    if backend.hash_supported(hashes.SM3()):
        out["sm3"] = "hash"
    key = bytes(16)
    for alg, mode in (
        ("sm4-ecb", modes.ECB()),
        ("sm4-cbc", modes.CBC(key)),
        ("sm4-ctr", modes.CTR(key)),
        ("sm4-gcm", modes.GCM(key[:12])),
    ):
        if backend.cipher_supported(algorithms.SM4(key), mode):
            out[alg] = "aead" if alg == "sm4-gcm" else "cipher"
    return out


SM = _sm_supported()
PK = pk_cryptography.available(backend)


def chacha20_nonce(iv: bytes, counter: int = 0) -> bytes:
    """cryptography's 16-byte ChaCha20 nonce: 4-byte little-endian block counter ‖ 12-byte nonce."""
    if len(iv) != 12:
        raise ValueError(f"chacha20 nonce must be 12 bytes, got {len(iv)}")
    return counter.to_bytes(4, "little") + iv


def new_cipher(alg: str, key: bytes, iv: bytes, counter: int = 0) -> Cipher:
    algo, mode = CIPHERS[alg]
    if mode is None:
        return Cipher(algorithms.ChaCha20(key, chacha20_nonce(iv, counter)), None)
    if mode is modes.ECB:
        return Cipher(algo(key), modes.ECB())
    return Cipher(algo(key), mode(iv))


def gcm_seal(alg: str, key: bytes, iv: bytes, msg: bytes, aad: bytes = b"") -> bytes:
    """ciphertext ‖ tag through Cipher(<cipher>, GCM(iv))."""
    ctx = Cipher(GCM[alg](key), modes.GCM(iv)).encryptor()
    if aad:
        ctx.authenticate_additional_data(aad)
    return ctx.update(msg) + ctx.finalize() + ctx.tag


def gcm_open(alg: str, key: bytes, iv: bytes, sealed: bytes, aad: bytes = b"") -> bytes:
    if len(sealed) < TAG_LEN:
        raise Rejected("shorter than the tag")
    ct, tag = sealed[:-TAG_LEN], sealed[-TAG_LEN:]
    ctx = Cipher(GCM[alg](key), modes.GCM(iv, tag)).decryptor()
    if aad:
        ctx.authenticate_additional_data(aad)
    try:
        return ctx.update(ct) + ctx.finalize()
    except InvalidTag:
        raise Rejected("tag does not verify") from None


def _sm_ok(alg: str) -> bool:
    return not alg.startswith("sm") or alg in SM  # the SM algorithms only where OpenSSL has them


OFFERS = {
    "noop": ("noop",),
    **{alg: ("hash",) for alg in HASHES if _sm_ok(alg)},
    "hmac-sha256": ("mac",),
    **{alg: ("encrypt", "decrypt") for alg in CIPHERS if _sm_ok(alg)},
    **{alg: ("seal", "open") for alg in (*AEADS, *GCM) if _sm_ok(alg)},
    **{alg: scheme.ops for alg, scheme in PK.items()},
}


class CryptographyProvider(Provider):
    id = "python:cryptography"
    library = "cryptography"
    offers = OFFERS
    stream = tuple(alg for alg in (*HASHES, "hmac-sha256", *CIPHERS, *GCM) if alg in OFFERS)

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
            "blake2b-512 = hashes.BLAKE2b(64), blake2s-256 = hashes.BLAKE2s(32), sm3 = hashes.SM3()",
            "hmac-sha256 with a prepared key: keyed = hmac.HMAC(key, SHA256()) once per cell, then "
            "h = keyed.copy(); h.update(msg); h.finalize() per tag",
            "encrypt/decrypt: Cipher(AES|SM4(key), CBC|CTR(iv)).encryptor() per message, output by "
            "update_into() into one buffer per cell, so the key "
            "schedule is inside the timed operation as the API requires; ECB reuses one Cipher object and "
            "takes a new encryptor per message; chacha20: Cipher(ChaCha20(key, counter_le32 || nonce), "
            "None); ctx.update_into(data, out); ctx.finalize()",
            "seal/open: one-shot AESGCM / AESCCM(tag_length=16) / ChaCha20Poly1305 object made once per "
            "cell, .encrypt(nonce, msg, None) / .decrypt(nonce, ct, None) per message; sm4-gcm (no "
            "one-shot class) through Cipher(SM4(key), GCM(iv)) per message, output update + finalize + tag",
            "stream (chunk > 0): hashes and hmac by update() per piece; ciphers by encryptor().update() per "
            "piece; aes-gcm and sm4-gcm by Cipher(<cipher>, GCM(iv)) (.tag after finalize(); open passes the "
            "tag to GCM(iv, tag)); aes-ccm and chacha20-poly1305 have no streaming API in cryptography; "
            "pieces are memoryviews of the doubled 1 MiB pattern (of the ciphertext for decrypt/open) cut "
            "outside the timed region, each piece's output is a fresh bytes object dropped at once, so "
            "memory stays bounded whatever the message size",
        ]
        pk = pk_cryptography.notes(
            cryptography.__version__, own, getattr(rust_openssl, "CRYPTOGRAPHY_OPENSSL_350_OR_GREATER", False)
        )
        return notes + pk + super().notes()

    def keypair(self, alg: str) -> tuple[bytes, bytes]:
        if alg not in PK:
            return super().keypair(alg)
        return PK[alg].keypair()

    def execute(self, alg: str, case: dict) -> bytes:
        return self.prepare(alg, case)()

    def prepare(self, alg: str, case: dict) -> Callable[[], bytes]:
        op = case.get("op")
        if op not in self.offers.get(alg, ()):
            raise ValueError(f"{alg} {op!r} not offered by {self.id}")
        if alg in PK:
            return pk_cryptography.prepare(PK[alg], alg, case)
        msg = case_bytes(case, "msg")
        if op == "hash":
            algorithm = HASHES[alg]

            def digest() -> bytes:
                h = hashes.Hash(algorithm())
                h.update(msg)
                return h.finalize()

            return digest
        if op == "mac":
            mac_key = case_bytes(case, "key")

            def tag() -> bytes:
                h = hmac.HMAC(mac_key, hashes.SHA256())
                h.update(msg)
                return h.finalize()

            return tag
        key = case_bytes(case, "key")
        iv = case_bytes(case, "iv", required=CIPHERS.get(alg, (None, None))[1] is not modes.ECB)
        if op in ("encrypt", "decrypt"):
            c = new_cipher(alg, key, iv, int(case.get("counter", 0)))

            def crypt() -> bytes:
                ctx = c.encryptor() if op == "encrypt" else c.decryptor()
                return ctx.update(msg) + ctx.finalize()

            return crypt
        aad = case_bytes(case, "aad", required=False)
        if alg not in AEADS:  # sm4-gcm
            if op == "seal":
                return lambda: gcm_seal(alg, key, iv, msg, aad)
            return lambda: gcm_open(alg, key, iv, msg, aad)
        aead = AEADS[alg](key)
        if op == "seal":
            return lambda: aead.encrypt(iv, msg, aad)

        def opened() -> bytes:
            try:
                return aead.decrypt(iv, msg, aad)
            except InvalidTag:
                raise Rejected("tag does not verify") from None

        return opened

    def cell(self, spec: CellSpec) -> Cell:
        alg = spec.alg
        if alg == "noop":
            return noop_cell()
        if alg in PK:
            return pk_cryptography.cell(PK[alg], spec)
        if alg in HASHES:
            return _hash_cell(HASHES[alg](), spec)
        if alg == "hmac-sha256":
            return _hmac_cell(spec)
        if alg in CIPHERS:
            return _cipher_cell(spec)
        if alg in GCM and (spec.chunk or alg not in AEADS):
            return _gcm_cipher_cell(spec)
        if alg in AEADS:
            return _aead_cell(spec)
        raise ValueError(f"{alg} not offered by {self.id}")


def _hash_cell(algo, spec: CellSpec) -> Cell:
    Hash = hashes.Hash
    if not spec.chunk:
        msg = spec.msg

        def call() -> int:
            h = Hash(algo)
            h.update(msg)
            return h.finalize()[0]

        def output() -> bytes:
            h = Hash(algo)
            h.update(msg)
            return h.finalize()

        return make_cell(call, output)

    pieces = spec.input_pieces()

    def call() -> int:
        h = Hash(algo)
        for p in pieces():
            h.update(p)
        return h.finalize()[0]

    def output() -> bytes:
        h = Hash(algo)
        for p in pieces():
            h.update(p)
        return h.finalize()

    return make_cell(call, output)


def _hmac_cell(spec: CellSpec) -> Cell:
    # the prepared key: one keyed HMAC object per cell (inner and outer pads absorbed once), copied per tag
    keyed = hmac.HMAC(spec.key, hashes.SHA256())
    return copied_cell(keyed, type(keyed).finalize, spec)


def _cipher_cell(spec: CellSpec) -> Cell:
    alg, key, iv = spec.alg, spec.key, spec.iv
    # Cipher.encryptor(c) is c.encryptor(): the unbound spelling lets one closure serve both directions
    direction = Cipher.encryptor if spec.op == "encrypt" else Cipher.decryptor
    algo_cls, mode = CIPHERS[alg]

    # a new context per message; how it is made is the only difference between the families below
    if mode is modes.ECB:
        cipher = Cipher(algo_cls(key), modes.ECB())  # no IV: one Cipher object for the cell

        def new():
            return direction(cipher)

    elif mode is None:
        ChaCha20, nonce = algorithms.ChaCha20, chacha20_nonce(iv)

        def new():
            return direction(Cipher(ChaCha20(key, nonce), None))

    else:
        algo = algo_cls(key)

        def new():
            return direction(Cipher(algo, mode(iv)))

    if not spec.chunk:
        data = spec.msg
        if spec.op == "decrypt":  # the ciphertext to decrypt, made outside the timed region
            ctx = new_cipher(alg, key, iv).encryptor()
            data = ctx.update(spec.msg) + ctx.finalize()

        def output() -> bytes:
            ctx = new()
            return ctx.update(data) + ctx.finalize()

        # The output goes into one buffer allocated per cell (update_into), as the C drivers do:
        # a fresh 1 MiB bytes object per operation, freed at once, made glibc return the memory
        # and fault it in again every time - AES-ECB at 1 MiB ran at 750 MB/s instead of 6.9 GB/s,
        # a cost of how we called the library, not of the library. No padding: finalize() is empty.
        # call() repeats new()'s body inline so the timed operation has no extra Python frame.
        out = bytearray(len(data) + 16)  # update_into wants room for one more block
        if mode is modes.ECB:

            def call() -> int:
                ctx = direction(cipher)
                ctx.update_into(data, out)
                ctx.finalize()
                return out[0]

        elif mode is None:

            def call() -> int:
                ctx = direction(Cipher(ChaCha20(key, nonce), None))
                ctx.update_into(data, out)
                ctx.finalize()
                return out[0]

        else:

            def call() -> int:
                ctx = direction(Cipher(algo, mode(iv)))
                ctx.update_into(data, out)
                ctx.finalize()
                return out[0]

        return make_cell(call, output)

    pieces = spec.input_pieces()
    untimed = timing.NOTHING_UNTIMED
    if spec.op == "decrypt" and spec.size > REGENERATE_ABOVE:  # bounded memory: made again per piece
        untimed = timing.Untimed()
        pieces = regenerated(pieces, lambda: new_cipher(alg, key, iv).encryptor(), untimed, [])
    elif spec.op == "decrypt":  # the ciphertext, made by the streaming encryption and kept whole
        enc = new_cipher(alg, key, iv).encryptor()
        ct = bytearray()
        for p in pieces():
            ct += enc.update(p)
        ct += enc.finalize()
        pieces = inputs.pieces(ct, spec.size, spec.chunk)

    def run(emit) -> None:
        ctx = new()
        for p in pieces():
            emit(ctx.update(p))
        emit(ctx.finalize())

    # One timed call per way of making the context (ECB's prepared Cipher, ChaCha20's nonce, a
    # mode's IV), written out three times so the timed call has no branch and no extra call.
    if mode is modes.ECB:

        def call() -> int:
            ctx = direction(cipher)
            it = iter(pieces())
            first = ctx.update(next(it))
            for p in it:
                ctx.update(p)
            ctx.finalize()
            return first[0]

    elif mode is None:

        def call() -> int:
            ctx = direction(Cipher(ChaCha20(key, nonce), None))
            it = iter(pieces())
            first = ctx.update(next(it))
            for p in it:
                ctx.update(p)
            ctx.finalize()
            return first[0]

    else:

        def call() -> int:
            ctx = direction(Cipher(algo, mode(iv)))
            it = iter(pieces())
            first = ctx.update(next(it))
            for p in it:
                ctx.update(p)
            ctx.finalize()
            return first[0]

    return stream_cell(call, run, untimed)


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


def _gcm_cipher_cell(spec: CellSpec) -> Cell:
    """GCM through Cipher(<cipher>, GCM(iv)): streamed AES-GCM and SM4-GCM, and one-shot SM4-GCM."""
    algo, iv, GCMode = GCM[spec.alg](spec.key), spec.iv, modes.GCM
    if not spec.chunk:
        msg = spec.msg
        if spec.op == "seal":

            def call() -> int:
                ctx = Cipher(algo, GCMode(iv)).encryptor()
                return (ctx.update(msg) + ctx.finalize() + ctx.tag)[0]

            def output() -> bytes:
                ctx = Cipher(algo, GCMode(iv)).encryptor()
                return ctx.update(msg) + ctx.finalize() + ctx.tag

            return make_cell(call, output)

        sealed = gcm_seal(spec.alg, spec.key, iv, msg)  # made outside the timed region
        ct, tag = sealed[:-TAG_LEN], sealed[-TAG_LEN:]

        def call() -> int:
            ctx = Cipher(algo, GCMode(iv, tag)).decryptor()
            return (ctx.update(ct) + ctx.finalize())[0]  # finalize() raises InvalidTag on a bad tag

        def output() -> bytes:
            ctx = Cipher(algo, GCMode(iv, tag)).decryptor()
            return ctx.update(ct) + ctx.finalize()

        return make_cell(call, output)

    pieces = spec.input_pieces()
    if spec.op == "seal":

        def call() -> int:
            ctx = Cipher(algo, GCMode(iv)).encryptor()
            it = iter(pieces())
            first = ctx.update(next(it))
            for p in it:
                ctx.update(p)
            ctx.finalize()
            return first[0]

        def run(emit) -> None:
            ctx = Cipher(algo, GCMode(iv)).encryptor()
            for p in pieces():
                emit(ctx.update(p))
            emit(ctx.finalize())
            emit(ctx.tag)

        return stream_cell(call, run)

    if spec.size > REGENERATE_ABOVE:  # bounded memory: the ciphertext and tag made again per piece
        untimed, tag_of = timing.Untimed(), []
        regen = regenerated(pieces, lambda: Cipher(algo, GCMode(iv)).encryptor(), untimed, tag_of)

        def call() -> int:
            ctx = Cipher(algo, GCMode(iv)).decryptor()
            it = iter(regen())
            first = ctx.update(next(it))
            for p in it:
                ctx.update(p)
            ctx.finalize_with_tag(tag_of[0])  # raises InvalidTag when the tag does not verify
            return first[0]

        def run(emit) -> None:
            ctx = Cipher(algo, GCMode(iv)).decryptor()
            for p in regen():
                emit(ctx.update(p))
            emit(ctx.finalize_with_tag(tag_of[0]))

        return stream_cell(call, run, untimed)

    # the ciphertext and tag, made by the streaming seal of the same message and kept whole
    enc = Cipher(algo, GCMode(iv)).encryptor()
    ct = bytearray()
    for p in pieces():
        ct += enc.update(p)
    ct += enc.finalize()
    tag = enc.tag
    ct_pieces = inputs.pieces(ct, spec.size, spec.chunk)

    def call() -> int:
        ctx = Cipher(algo, GCMode(iv, tag)).decryptor()
        it = iter(ct_pieces())
        first = ctx.update(next(it))
        for p in it:
            ctx.update(p)
        ctx.finalize()  # raises InvalidTag when the tag does not verify
        return first[0]

    def run(emit) -> None:
        ctx = Cipher(algo, GCMode(iv, tag)).decryptor()
        for p in ct_pieces():
            emit(ctx.update(p))
        emit(ctx.finalize())

    return stream_cell(call, run)


PROVIDER = CryptographyProvider()
