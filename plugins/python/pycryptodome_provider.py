"""python:pycryptodome — PyCryptodome (PyPI `pycryptodome`) as a cryptobench plugin.

Served by the Python driver: `cryptobench run --plugin plugins/python/pycryptodome_provider.py`.
Only the operations are written here; vectors, timing, statistics and reports come from cryptobench
(docs/plugins.md).
"""

from __future__ import annotations

from cbdriver.plugin import TAG_LEN, Cell, CellSpec, Provider, Rejected, case_bytes, output_cell
from Crypto import __version__ as VERSION
from Crypto.Cipher import AES, ChaCha20, ChaCha20_Poly1305
from Crypto.Hash import HMAC, SHA3_256, SHA3_512, SHA256, SHA512, BLAKE2b, BLAKE2s

HASHES = {  # algorithm -> a function making a fresh hash object
    "sha256": SHA256.new,
    "sha512": SHA512.new,
    "sha3-256": SHA3_256.new,
    "sha3-512": SHA3_512.new,
    "blake2b-512": lambda: BLAKE2b.new(digest_bits=512),
    "blake2s-256": lambda: BLAKE2s.new(digest_bits=256),
}


CIPHERS = {  # algorithm -> (key, iv, counter) -> a fresh cipher object (one per message)
    "aes-128-ecb": lambda key, iv, counter: AES.new(key, AES.MODE_ECB),
    "aes-256-ecb": lambda key, iv, counter: AES.new(key, AES.MODE_ECB),
    "aes-128-cbc": lambda key, iv, counter: AES.new(key, AES.MODE_CBC, iv=iv),
    "aes-256-cbc": lambda key, iv, counter: AES.new(key, AES.MODE_CBC, iv=iv),
    # the IV is the whole 16-byte counter block, incremented as one 128-bit number (as OpenSSL's)
    "aes-128-ctr": lambda key, iv, counter: AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=iv),
    "aes-256-ctr": lambda key, iv, counter: AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=iv),
    "chacha20": lambda key, iv, counter: _chacha20(key, iv, counter),
}


def _chacha20(key: bytes, nonce: bytes, counter: int):
    c = ChaCha20.new(key=key, nonce=nonce)
    if counter:
        c.seek(64 * counter)  # the block counter, in bytes of keystream
    return c


AEADS = {  # algorithm -> (key, nonce) -> a fresh AEAD object with a 16-byte tag
    "aes-128-gcm": lambda key, iv: AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=TAG_LEN),
    "aes-256-gcm": lambda key, iv: AES.new(key, AES.MODE_GCM, nonce=iv, mac_len=TAG_LEN),
    "aes-128-ccm": lambda key, iv: AES.new(key, AES.MODE_CCM, nonce=iv, mac_len=TAG_LEN),
    "aes-256-ccm": lambda key, iv: AES.new(key, AES.MODE_CCM, nonce=iv, mac_len=TAG_LEN),
    "chacha20-poly1305": lambda key, iv: ChaCha20_Poly1305.new(key=key, nonce=iv),
    "xchacha20-poly1305": lambda key, iv: ChaCha20_Poly1305.new(key=key, nonce=iv),
}


def _seal(new, key: bytes, iv: bytes, msg: bytes, aad: bytes = b"") -> bytes:
    a = new(key, iv)
    if aad:
        a.update(aad)
    ct, tag = a.encrypt_and_digest(msg)
    return ct + tag


def _open(new, key: bytes, iv: bytes, sealed: bytes, aad: bytes = b"") -> bytes:
    if len(sealed) < TAG_LEN:
        raise Rejected("shorter than the tag")
    a = new(key, iv)
    if aad:
        a.update(aad)
    try:
        return a.decrypt_and_verify(sealed[:-TAG_LEN], sealed[-TAG_LEN:])
    except ValueError:
        raise Rejected("tag does not verify") from None


class PycryptodomeProvider(Provider):
    id = "python:pycryptodome"
    library = "PyCryptodome"
    offers = {
        **{alg: ("hash",) for alg in HASHES},
        "hmac-sha256": ("mac",),
        **{alg: ("encrypt", "decrypt") for alg in CIPHERS},
        **{alg: ("seal", "open") for alg in AEADS},
    }

    def library_version(self) -> str:
        return f"pycryptodome {VERSION}"

    def notes(self) -> list[str]:
        return [
            "one new hash, HMAC, cipher or AEAD object per message, as a user of the library writes it",
        ] + super().notes()

    def execute(self, alg: str, case: dict) -> bytes:
        op, msg = case.get("op"), case_bytes(case, "msg")
        if alg in HASHES:
            h = HASHES[alg]()
            h.update(msg)
            return h.digest()
        if alg == "hmac-sha256":
            return HMAC.new(case_bytes(case, "key"), msg, SHA256).digest()
        key, iv = case_bytes(case, "key"), case_bytes(case, "iv", required=not alg.endswith("-ecb"))
        if alg in CIPHERS:
            c = CIPHERS[alg](key, iv, int(case.get("counter", 0)))
            return c.encrypt(msg) if op == "encrypt" else c.decrypt(msg)
        aad = case_bytes(case, "aad", required=False)
        return (_seal if op == "seal" else _open)(AEADS[alg], key, iv, msg, aad)

    def cell(self, spec: CellSpec) -> Cell:
        alg, key, iv, msg = spec.alg, spec.key, spec.iv, spec.msg
        if alg in HASHES:
            new = HASHES[alg]

            def output() -> bytes:
                h = new()
                h.update(msg)
                return h.digest()

        elif alg == "hmac-sha256":

            def output() -> bytes:
                return HMAC.new(key, msg, SHA256).digest()

        elif alg in CIPHERS:
            new_cipher = CIPHERS[alg]
            if spec.op == "encrypt":

                def output() -> bytes:
                    return new_cipher(key, iv, 0).encrypt(msg)

            else:
                ct = new_cipher(key, iv, 0).encrypt(msg)  # made untimed

                def output() -> bytes:
                    return new_cipher(key, iv, 0).decrypt(ct)

        elif alg in AEADS:
            new_aead = AEADS[alg]
            if spec.op == "seal":

                def output() -> bytes:
                    return _seal(new_aead, key, iv, msg)

            else:
                sealed = _seal(new_aead, key, iv, msg)  # made untimed

                def output() -> bytes:
                    return _open(new_aead, key, iv, sealed)

        else:
            raise ValueError(f"{alg} not offered by {self.id}")

        return output_cell(output)


PROVIDER = PycryptodomeProvider()
