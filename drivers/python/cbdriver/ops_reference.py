"""python:ref — reference implementations from PyPI, for correctness, not speed.

SLH-DSA (FIPS 205) from PyPI `slh-dsa` (a pure-Python implementation; its wheel for CPython 3.11 on
x86-64 is compiled with mypyc, the source is Python): the 'f' parameter sets only, SHA2 and SHAKE at
128, 192 and 256 bits. The 's' sets sign in tens of seconds to minutes here (SHA2-128s: 13 s a
signature on a loaded machine), which would hold up a run's known answers, cross-verification and
every verify cell (whose one signature is made before it is timed) for minutes.

Not offered: Ascon. PyPI `ascon` 0.0.9 (the designers' reference) implements the submission's
Ascon-128/128a, Ascon-Hash/Hasha and Ascon-Xof/Xofa (v1.2, 2019-2023), not NIST SP 800-232's
Ascon-AEAD128, Ascon-Hash256 and Ascon-XOF128, whose initial values, byte order and domain
separation differ: offering it under the new names would give wrong answers.
"""

from __future__ import annotations

from .ops_base import (
    COMMON_NOTES,
    Cell,
    CellSpec,
    Provider,
    Rejected,
    Unsupported,
    case_bytes,
    make_cell,
    noop_cell,
    package_on_python,
)

SETS = tuple(f"{h}-{p}" for h in ("sha2", "shake") for p in ("128f", "192f", "256f"))
SLH_OPS = ("keygen", "sign", "verify")


def _lib():
    """The slh-dsa package, imported on first use (a missing package is one clear line)."""
    try:
        import slhdsa
        import slhdsa.lowlevel.slhdsa as lowlevel
    except ImportError:
        raise ValueError(
            "PyPI slh-dsa is not installed (pip install slh-dsa==0.2.5, pyproject's drivers extra)"
        ) from None
    return slhdsa, lowlevel


def _param(alg: str):
    slhdsa, _ = _lib()
    return getattr(slhdsa, alg.removeprefix("slh-dsa-").replace("-", "_"))


def _key(alg: str, data: bytes, private: bool):
    """A key from its encoding: the private key SK.seed‖SK.prf‖PK.seed‖PK.root (the library checks PK.root
    against the seeds), or the public key PK.seed‖PK.root; one the library refuses is Rejected."""
    slhdsa, _ = _lib()
    try:
        return (slhdsa.SecretKey if private else slhdsa.PublicKey).from_digest(data, _param(alg))
    except slhdsa.SLHDSAException as e:
        raise Rejected(f"{'private' if private else 'public'} key refused: {e}") from None


def _public_of_seed(alg: str, seed: bytes) -> bytes:
    """keygen from SK.seed‖SK.prf‖PK.seed: slh-dsa's KeyPair.gen draws the seeds itself, so this is
    the rest of its key generation (lowlevel.keygen): PK.root is the top XMSS tree's root."""
    _, lowlevel = _lib()
    par = _param(alg)
    if len(seed) != 3 * par.n:
        raise Rejected(f"{alg} seed must be {3 * par.n} bytes, got {len(seed)}")
    sk_seed, pk_seed = seed[: par.n], seed[2 * par.n :]
    root = lowlevel.XMSS(par).node(sk_seed, 0, par.h_m, pk_seed, lowlevel.Address(par.d - 1, 0))
    return pk_seed + root


class ReferenceProvider(Provider):
    id = "python:ref"
    library = "reference implementations from PyPI (pure Python): correctness, not speed"
    offers = {"noop": ("noop",), **{f"slh-dsa-{s}": SLH_OPS for s in SETS}}
    stream = ()

    def library_version(self) -> str:
        return package_on_python("slh-dsa")

    def notes(self) -> list[str]:
        return [
            "reference implementation (pure Python): correctness, not speed. Its figures show what a "
            "readable implementation costs, never what SLH-DSA costs in a production library",
            "SLH-DSA: PyPI slh-dsa (FIPS 205, pure; its CPython 3.11 x86-64 wheel is mypyc-compiled Python). "
            "keygen = KeyPair.gen(par) (the seeds from secrets.token_bytes inside); sign = "
            "SecretKey.sign_pure(msg, randomize=True) (hedged: fresh opt_rand, empty context); verify = "
            "PublicKey.verify_pure(msg, sig). Keys as FIPS 205 encodes them "
            "(SecretKey/PublicKey.from_digest; "
            "importing a private key recomputes PK.root to check it). "
            "Verify cases: deterministic signing "
            "(randomize=False: opt_rand = PK.seed), contexts, and keygen from SK.seed‖SK.prf‖PK.seed through "
            "the library's lowlevel XMSS(par).node (its public API draws the seeds itself)",
            "only the 'f' sets: an 's' set signs in tens of seconds to minutes here, which would hold up "
            "verification and every verify cell (its signature is made before timing) for minutes",
            "Ascon: not offered. PyPI ascon 0.0.9 implements the submission's Ascon-128/Hash/Xof (v1.2), not "
            "NIST SP 800-232's Ascon-AEAD128/Hash256/XOF128 (other initial values, byte order and domain "
            "separation)",
            *COMMON_NOTES,
        ]

    def keypair(self, alg: str) -> tuple[bytes, bytes]:
        slhdsa, _ = _lib()
        kp = slhdsa.KeyPair.gen(_param(alg))
        return kp.pub.digest(), kp.sec.digest()

    def execute(self, alg: str, case: dict) -> bytes:
        op = case.get("op")
        ctx = case_bytes(case, "ctx", required=False)
        if len(ctx) > 255:
            raise Rejected("context longer than 255 bytes")
        if op == "keygen":
            return _public_of_seed(alg, case_bytes(case, "seed"))
        if op == "sign":
            deterministic = case.get("deterministic", False)
            if not isinstance(deterministic, bool):
                raise ValueError("deterministic must be true or false")
            sec = _key(alg, case_bytes(case, "private"), private=True)
            return sec.sign_pure(case_bytes(case, "msg"), not deterministic, ctx)
        if op == "verify":
            pub = _key(alg, case_bytes(case, "public"), private=False)
            if not pub.verify_pure(case_bytes(case, "msg"), case_bytes(case, "sig"), ctx):
                raise Rejected("signature does not verify")
            return b"\x01"
        raise Unsupported(f"{alg} has no case operation {op!r} in {self.id}")

    def cell(self, spec: CellSpec) -> Cell:
        if spec.alg == "noop":
            return noop_cell()
        slhdsa, _ = _lib()
        par, msg = _param(spec.alg), spec.msg
        if spec.op == "keygen":
            gen = slhdsa.KeyPair.gen

            def call() -> int:  # the generate call alone; the public key is encoded for the checksum only
                gen(par)
                return 1

            return make_cell(call, lambda: gen(par).pub.digest(), empty=False)
        kp = slhdsa.KeyPair.gen(par)  # once per cell, outside the timed region
        if spec.op == "sign":
            sign = kp.sec.sign_pure

            def call() -> int:
                return sign(msg, True)[0]

            return make_cell(call, lambda: sign(msg, True), empty=False)
        if spec.op == "verify":
            sig = kp.sec.sign_pure(msg, True)  # made once, outside the timed region
            verify = kp.pub.verify_pure

            def check() -> bytes:
                if not verify(msg, sig):
                    raise ValueError("the signature made for this cell did not verify")
                return b"\x01"

            def call() -> int:
                return check()[0]

            return make_cell(call, check, empty=False)
        raise ValueError(f"{spec.alg} {spec.op!r} not offered by {self.id}")


PROVIDER = ReferenceProvider()
