"""Public-key algorithms of python:cryptography (docs/protocol.md, since version 2).

One `Scheme` per algorithm knows how to make a key pair, encode and decode keys
in the protocol's encodings, and run the operations; `execute` runs one verify
case and `cell` prepares one bench cell on top of it.

The timed operation is the library call a user would write, with every
argument object (padding, signature algorithm, keys, peer key, signature,
ciphertext) made once per cell outside the timed region; hashing the message
happens inside `sign`/`verify`, as the protocol asks.
"""

from __future__ import annotations

from collections.abc import Callable

import cryptography
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa, x448, x25519

from .ops_base import Cell, CellSpec, Rejected, Unsupported, case_bytes, make_cell

# What the library raises when it refuses an input: a signature that does not verify, a key or
# ciphertext it cannot parse or use. Anything else (a TypeError, an InternalError) is a driver error.
REFUSED = (InvalidSignature, ValueError, UnsupportedAlgorithm)
E = 65537
_DER, _SPKI, _PKCS8 = ser.Encoding.DER, ser.PublicFormat.SubjectPublicKeyInfo, ser.PrivateFormat.PKCS8


def _refused(what: str, e: BaseException) -> Rejected:
    detail = " ".join(str(e).split())
    return Rejected(f"{what}: {type(e).__name__}{': ' + detail if detail else ''}")


class Scheme:
    """One public-key algorithm: keys and their encodings, and the operations."""

    ops: tuple[str, ...] = ()
    has_context = False  # a non-empty `ctx` is only meaningful for algorithms that take one

    def generate(self):
        """A fresh private key (the timed operation of `keygen`)."""
        raise NotImplementedError

    def encode_public(self, public) -> bytes:
        raise NotImplementedError

    def encode_private(self, private) -> bytes:
        raise NotImplementedError

    def _load_public(self, data: bytes):
        raise NotImplementedError

    def _load_private(self, data: bytes):
        raise NotImplementedError

    def load_public(self, data: bytes):
        try:
            return self._load_public(data)
        except REFUSED as e:
            raise _refused("public key refused", e) from None

    def load_private(self, data: bytes):
        try:
            return self._load_private(data)
        except REFUSED as e:
            raise _refused("private key refused", e) from None

    def keypair(self) -> tuple[bytes, bytes]:
        private = self.generate()
        return self.encode_public(private.public_key()), self.encode_private(private)

    # operations: bound callables made once per cell, so the timed call is one library call
    def signer(self, private, deterministic: bool = False) -> Callable[[bytes], bytes]:
        raise Unsupported(f"{type(self).__name__} does not sign")

    def verifier(self, public) -> Callable[[bytes, bytes], None]:
        """verify(sig, msg): returns None, raises InvalidSignature."""
        raise Unsupported(f"{type(self).__name__} does not verify")

    def deriver(self, private) -> Callable[[object], bytes]:
        raise Unsupported(f"{type(self).__name__} does not derive")


# --- RSA ---------------------------------------------------------------------------------------


class RSAKeys(Scheme):
    """RSA key pairs (e = 65537): DER SubjectPublicKeyInfo / DER PKCS#8."""

    ops = ("keygen",)

    def __init__(self, bits: int):
        self.bits = bits

    def generate(self):
        return rsa.generate_private_key(E, self.bits)

    def encode_public(self, public) -> bytes:
        return public.public_bytes(_DER, _SPKI)

    def encode_private(self, private) -> bytes:
        return private.private_bytes(_DER, _PKCS8, ser.NoEncryption())

    def _load_public(self, data: bytes):
        key = ser.load_der_public_key(data)
        if not isinstance(key, rsa.RSAPublicKey):
            raise ValueError(f"not an RSA public key ({type(key).__name__})")
        return key

    def _load_private(self, data: bytes):
        key = ser.load_der_private_key(data, password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError(f"not an RSA private key ({type(key).__name__})")
        return key


class RSASignature(RSAKeys):
    ops = ("sign", "verify")

    def __init__(self, bits: int, pss: bool):
        super().__init__(bits)
        self.pss = pss
        # PSS: SHA-256, MGF1-SHA-256, 32-byte salt (verification requires exactly 32)
        self.padding = padding.PSS(padding.MGF1(hashes.SHA256()), 32) if pss else padding.PKCS1v15()
        self.hash = hashes.SHA256()

    def signer(self, private, deterministic: bool = False):
        if deterministic and self.pss:
            raise Unsupported("deterministic signing: RSA-PSS with a 32-byte salt is randomised")
        sign, pad, h = private.sign, self.padding, self.hash
        return lambda msg: sign(msg, pad, h)

    def verifier(self, public):
        verify, pad, h = public.verify, self.padding, self.hash
        return lambda sig, msg: verify(sig, msg, pad, h)


class RSAOAEP(RSAKeys):
    ops = ("encrypt", "decrypt")

    def __init__(self, bits: int):
        super().__init__(bits)
        self.padding = padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(), None)

    def max_plaintext(self) -> int:
        return self.bits // 8 - 2 * 32 - 2


# --- elliptic curves ---------------------------------------------------------------------------


class ECKeys(Scheme):
    """EC key pairs: DER SubjectPublicKeyInfo (uncompressed point) / the scalar, big-endian, field-sized."""

    def __init__(self, curve: ec.EllipticCurve, field_bytes: int):
        self.curve, self.field_bytes = curve, field_bytes

    def generate(self):
        return ec.generate_private_key(self.curve)

    def encode_public(self, public) -> bytes:
        return public.public_bytes(_DER, _SPKI)

    def encode_private(self, private) -> bytes:
        return private.private_numbers().private_value.to_bytes(self.field_bytes, "big")

    def _load_public(self, data: bytes):
        key = ser.load_der_public_key(data)
        if not isinstance(key, ec.EllipticCurvePublicKey):
            raise ValueError(f"not an EC public key ({type(key).__name__})")
        if key.curve.name != self.curve.name:
            raise ValueError(f"public key on {key.curve.name}, not {self.curve.name}")
        return key

    def _load_private(self, data: bytes):
        if len(data) != self.field_bytes:
            raise ValueError(f"private scalar must be {self.field_bytes} bytes, got {len(data)}")
        return ec.derive_private_key(int.from_bytes(data, "big"), self.curve)


class ECDSA(ECKeys):
    ops = ("keygen", "sign", "verify")

    def __init__(self, curve: ec.EllipticCurve, field_bytes: int, hash_cls):
        super().__init__(curve, field_bytes)
        self.algorithm = ec.ECDSA(hash_cls())
        try:
            self.deterministic = ec.ECDSA(hash_cls(), deterministic_signing=True)  # RFC 6979
        except TypeError:  # cryptography < 43 has no RFC 6979 signing (a build of an older release)
            self.deterministic = None

    def signer(self, private, deterministic: bool = False):
        if deterministic and self.deterministic is None:
            raise Unsupported(f"deterministic ECDSA: cryptography {cryptography.__version__} has no RFC 6979")
        sign, algorithm = private.sign, self.deterministic if deterministic else self.algorithm
        return lambda msg: sign(msg, algorithm)

    def verifier(self, public):
        verify, algorithm = public.verify, self.algorithm
        return lambda sig, msg: verify(sig, msg, algorithm)


class ECDH(ECKeys):
    ops = ("derive",)

    def deriver(self, private):
        exchange, ecdh = private.exchange, ec.ECDH()
        return lambda peer: exchange(ecdh, peer)


# --- Edwards and Montgomery curves (raw keys) ---------------------------------------------------


class RawKeys(Scheme):
    """Ed25519/Ed448/X25519/X448: raw public and private keys (RFC 8032 / RFC 7748)."""

    def __init__(self, private_cls, public_cls):
        self.private_cls, self.public_cls = private_cls, public_cls

    def generate(self):
        return self.private_cls.generate()

    def encode_public(self, public) -> bytes:
        return public.public_bytes_raw()

    def encode_private(self, private) -> bytes:
        return private.private_bytes_raw()

    def _load_public(self, data: bytes):
        return self.public_cls.from_public_bytes(data)

    def _load_private(self, data: bytes):
        return self.private_cls.from_private_bytes(data)


class EdDSA(RawKeys):
    ops = ("keygen", "sign", "verify")

    def signer(self, private, deterministic: bool = False):
        return private.sign  # pure EdDSA is deterministic

    def verifier(self, public):
        return public.verify


class XDH(RawKeys):
    ops = ("keygen", "derive")

    def deriver(self, private):
        return private.exchange


SCHEMES: dict[str, Scheme] = {
    **{f"rsa-{n}": RSAKeys(n) for n in (2048, 3072, 4096)},
    **{f"rsa-{n}-pss": RSASignature(n, pss=True) for n in (2048, 3072, 4096)},
    **{f"rsa-{n}-pkcs1": RSASignature(n, pss=False) for n in (2048, 3072, 4096)},
    **{f"rsa-{n}-oaep": RSAOAEP(n) for n in (2048, 3072, 4096)},
    "ecdsa-p256": ECDSA(ec.SECP256R1(), 32, hashes.SHA256),
    "ecdsa-p384": ECDSA(ec.SECP384R1(), 48, hashes.SHA384),
    "ecdsa-secp256k1": ECDSA(ec.SECP256K1(), 32, hashes.SHA256),
    "ecdh-p256": ECDH(ec.SECP256R1(), 32),
    "ecdh-p384": ECDH(ec.SECP384R1(), 48),
    "ecdh-secp256k1": ECDH(ec.SECP256K1(), 32),
    "ed25519": EdDSA(ed25519.Ed25519PrivateKey, ed25519.Ed25519PublicKey),
    "ed448": EdDSA(ed448.Ed448PrivateKey, ed448.Ed448PublicKey),
    "x25519": XDH(x25519.X25519PrivateKey, x25519.X25519PublicKey),
    "x448": XDH(x448.X448PrivateKey, x448.X448PublicKey),
}


def available(backend) -> dict[str, Scheme]:
    """The schemes this build of the library can run (secp256k1, Ed448 and X448 depend on OpenSSL)."""
    out = {}
    for alg, s in SCHEMES.items():
        if isinstance(s, ECKeys) and not backend.elliptic_curve_supported(s.curve):
            continue
        if s.__class__ in (EdDSA, XDH):
            probe = {
                ed448.Ed448PrivateKey: backend.ed448_supported,
                x448.X448PrivateKey: backend.x448_supported,
                ed25519.Ed25519PrivateKey: backend.ed25519_supported,
                x25519.X25519PrivateKey: backend.x25519_supported,
            }[s.private_cls]
            if not probe():
                continue
        out[alg] = s
    return out


# --- verify cases --------------------------------------------------------------------------------


def execute(scheme: Scheme, alg: str, case: dict) -> bytes:
    """One verify case (docs/protocol.md, "Cases"): the output, or Rejected / Unsupported."""
    return prepare(scheme, alg, case)()


def _refusing(run: Callable[[], bytes], what: str) -> Callable[[], bytes]:
    def call() -> bytes:
        try:
            return run()
        except REFUSED as e:
            raise _refused(what, e) from None

    return call


def prepare(scheme: Scheme, alg: str, case: dict) -> Callable[[], bytes]:
    """A case's keys parsed and its operation made ready: the returned call is the one operation
    (a verify case runs it once, a `leak` measurement times it)."""
    op = case.get("op")
    ctx = case_bytes(case, "ctx", required=False)
    if ctx and not scheme.has_context:
        raise Unsupported(f"{alg} takes no context string (ctx)")
    if op == "sign":
        private, msg = case_bytes(case, "private"), case_bytes(case, "msg")
        deterministic = case.get("deterministic", False)
        if not isinstance(deterministic, bool):
            raise ValueError("deterministic must be true or false")
        sign = scheme.signer(scheme.load_private(private), deterministic)
        return _refusing(lambda: sign(msg), "signing refused")
    if op == "verify":
        public, msg, sig = case_bytes(case, "public"), case_bytes(case, "msg"), case_bytes(case, "sig")
        verify = scheme.verifier(scheme.load_public(public))

        def verified() -> bytes:
            verify(sig, msg)
            return b"\x01"

        return _refusing(verified, "signature does not verify")
    if op == "derive":
        private, public = case_bytes(case, "private"), case_bytes(case, "public")
        derive = scheme.deriver(scheme.load_private(private))
        peer = scheme.load_public(public)
        return _refusing(lambda: derive(peer), "key agreement refused")
    if op == "encrypt" and isinstance(scheme, RSAOAEP):
        public, msg = case_bytes(case, "public"), case_bytes(case, "msg")
        key = scheme.load_public(public)
        return _refusing(lambda: key.encrypt(msg, scheme.padding), "encryption refused")
    if op == "decrypt" and isinstance(scheme, RSAOAEP):
        private, ct = case_bytes(case, "private"), case_bytes(case, "msg")
        key = scheme.load_private(private)
        return _refusing(lambda: key.decrypt(ct, scheme.padding), "decryption failed")
    if op == "keygen":
        raise Unsupported(f"{alg}: key generation from a seed is defined for ML-KEM and ML-DSA only")
    raise ValueError(f"{alg} has no case operation {op!r}")


# --- bench cells ---------------------------------------------------------------------------------


def cell(scheme: Scheme, spec: CellSpec) -> Cell:
    """One bench cell; keys, peer key, signature and ciphertext are made here, outside the timed region."""
    op, msg = spec.op, spec.msg
    if op == "keygen":
        generate, encode = scheme.generate, scheme.encode_public

        # The timed operation is the generate call alone: OpenSSL computes the public key inside it,
        # while encoding it (SPKI DER costs about as much as a P-256 key pair) is left to the checksum.
        # CPython cannot drop a call, so call() folds the constant 1 rather than pay for an encoding.
        def call() -> int:
            generate()
            return 1

        def output() -> bytes:
            return encode(generate().public_key())

        return make_cell(call, output, empty=False)  # no probe: an RSA-4096 key can take a second

    private = scheme.generate()
    if op == "sign":
        sign = scheme.signer(private)

        def call() -> int:
            return sign(msg)[0]

        def output() -> bytes:
            return sign(msg)

        return make_cell(call, output, empty=False)

    if op == "verify":
        sig = scheme.signer(private)(msg)
        verify = scheme.verifier(private.public_key())

        def call() -> int:
            verify(sig, msg)  # raises InvalidSignature: a failure is an error, as for `open`
            return 1

        def output() -> bytes:
            verify(sig, msg)
            return b"\x01"

        return make_cell(call, output, empty=False)

    if op == "derive":
        derive = scheme.deriver(private)
        peer = scheme.generate().public_key()  # the fixed peer public key, as an object ready to use

        def call() -> int:
            return derive(peer)[0]

        def output() -> bytes:
            return derive(peer)

        return make_cell(call, output, empty=False)

    if op in ("encrypt", "decrypt") and isinstance(scheme, RSAOAEP):
        if spec.size > scheme.max_plaintext():
            raise ValueError(
                f"not offered at this size: {spec.alg} encrypts at most {scheme.max_plaintext()} bytes "
                f"(RSAES-OAEP with SHA-256), asked for {spec.size}"
            )
        pad = scheme.padding
        if op == "encrypt":
            encrypt = private.public_key().encrypt

            def call() -> int:
                return encrypt(msg, pad)[0]

            def output() -> bytes:
                return encrypt(msg, pad)

            return make_cell(call, output, empty=False)

        ct = private.public_key().encrypt(msg, pad)
        decrypt = private.decrypt

        def call() -> int:
            return decrypt(ct, pad)[0]

        def output() -> bytes:
            return decrypt(ct, pad)

        return make_cell(call, output)

    raise ValueError(f"{spec.alg} {op!r} not offered")


def notes(library_version: str, openssl_version: str, openssl_has_pq: bool) -> list[str]:
    """The hello notes for the public-key algorithms (versions as reported at run time)."""
    pq = "although its OpenSSL implements both" if openssl_has_pq else "and its OpenSSL has neither"
    return [
        *NOTES,
        f"ML-KEM and ML-DSA: not offered; cryptography {library_version} has no Python API for them, {pq} "
        f"({openssl_version}). SM2: not offered, cryptography has no SM2 API",
    ]


NOTES = [
    "public key: keys are generated once per cell (outside the timed region) with the library's "
    "generate call; the peer public key, the signature to verify and the ciphertext to decrypt are made "
    "once per cell too; padding / signature-algorithm objects (padding.PSS(MGF1(SHA256()), 32), "
    "padding.PKCS1v15(), padding.OAEP(MGF1(SHA256()), SHA256(), None), ec.ECDSA(SHA256()|SHA384())) "
    "are made once per cell and bound in a lambda (one extra Python frame, about 0.05 us, per operation)",
    "sign/verify: private_key.sign(msg, ...) / public_key.verify(sig, msg, ...) over the size-byte message "
    "(32 bytes by default); the hash of the message is computed inside the call (no prehash); "
    "ed25519/ed448 sign the message itself (pure EdDSA)",
    "derive: private_key.exchange(ec.ECDH(), peer) for ECDH, private_key.exchange(peer) for X25519/X448",
    "keygen: the timed operation is rsa.generate_private_key(65537, bits) / ec.generate_private_key(curve) "
    "/ <Ed|X>PrivateKey.generate() alone (OpenSSL computes the public key inside it); encoding the public "
    "key for the checksum is untimed, and the sink folds the constant 1 per key",
    "malformed keys, signatures and ciphertexts in verify cases come back rejected: the library's "
    "InvalidSignature, ValueError and UnsupportedAlgorithm are refusals; EC private keys must be exactly "
    "the field size; a public key on another curve or of another type is refused before use",
]
