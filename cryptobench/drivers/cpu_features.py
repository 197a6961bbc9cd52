"""Switching CPU features off for OpenSSL-based providers, with OPENSSL_ia32cap.

OpenSSL reads its capability vector from CPUID and lets the environment
variable OPENSSL_ia32cap clear bits of it (man OPENSSL_ia32cap): the first
64-bit word holds CPUID(1).EDX (bits 0-31) and ECX (bits 32-63), the second,
after a colon, CPUID(7).EBX (bits 0-31) and ECX (bits 32-63). `~0x...` clears
the given bits. The bits are the same in 1.1.1, 3.x and 4.0, but 3.5+ read
five colon-separated words and a word left out is set to zero, not kept — so
every word is written, `~0` keeping it whole (1.1.1 ignores the extra ones;
scripts/openssl/README.md has the measurements).

`no-aesni` means no hardware AES: OpenSSL 3.1+ picks its VAES/AVX-512 GCM
code whenever the CPU has VAES, whatever the AES-NI bit says, so the switch
clears VAES too (`no-vaes` clears VAES and VPCLMULQDQ alone).
Only features the CPU has can be switched off: anything else is an error.
"""

from __future__ import annotations

import platform

from cryptobench.core.environment import cpu_info
from cryptobench.core.errors import UserError

# name -> (the /proc/cpuinfo flag that says the CPU has it, [(capability word, bit), ...])
FEATURES: dict[str, tuple[str, list[tuple[int, int]]]] = {
    "aesni": ("aes", [(0, 32 + 25), (1, 32 + 9)]),  # AES-NI and VAES: no hardware AES
    "pclmul": ("pclmulqdq", [(0, 32 + 1)]),
    "avx": ("avx", [(0, 32 + 28)]),
    "avx2": ("avx2", [(1, 5)]),
    "shani": ("sha_ni", [(1, 29)]),
    # AVX-512 F, DQ, IFMA, CD, BW, VL: OpenSSL's AVX-512 paths test several of them
    "avx512": ("avx512f", [(1, b) for b in (16, 17, 21, 28, 30, 31)]),
    "vaes": ("vaes", [(1, 32 + 9), (1, 32 + 10)]),
    "vpclmulqdq": ("vpclmulqdq", [(1, 32 + 10)]),
}
WORDS = 5

# Providers whose library is OpenSSL (or bundles it) and so honours OPENSSL_ia32cap.
OPENSSL_BASED_PREFIXES = ("c:openssl", "python:cryptography", "python:hashlib", "js:node")


X86 = ("x86_64", "amd64", "i386", "i486", "i586", "i686")


def parse(spec: str, cpu_flags: set[str] | None = None, machine: str | None = None) -> list[str]:
    """`no-aesni,no-shani` -> ["aesni", "shani"], checked against the CPU (an x86 one: the
    switches are OPENSSL_ia32cap's bits, which no other CPU has)."""
    machine = machine if machine is not None else platform.machine()
    if machine.lower() not in X86:
        raise UserError(
            f"--cpu-features switches x86 features off (OPENSSL_ia32cap): not available on {machine or 'this CPU'}"
        )
    flags = cpu_flags if cpu_flags is not None else set(cpu_info()["all_flags"])
    names = []
    for item in (x.strip() for x in spec.split(",") if x.strip()):
        if not item.startswith("no-") or item[3:] not in FEATURES:
            known = ", ".join(f"no-{n}" for n in FEATURES)
            raise UserError(f"unknown CPU feature switch {item!r} (known: {known})")
        name = item[3:]
        if FEATURES[name][0] not in flags:
            raise UserError(
                f"cannot switch off {name}: this CPU does not have it (no '{FEATURES[name][0]}' in /proc/cpuinfo)"
            )
        names.append(name)
    if not names:
        raise UserError("--cpu-features needs at least one switch such as no-aesni")
    return names


def ia32cap(names: list[str]) -> str:
    """The OPENSSL_ia32cap value that clears the given features."""
    words = [0] * WORDS
    for n in names:
        for word, bit in FEATURES[n][1]:
            words[word] |= 1 << bit
    first = f"~0x{words[0]:x}" if words[0] else ""
    return ":".join([first] + [f"~0x{w:x}" if w else "~0" for w in words[1:]])


def applies_to(provider: str) -> bool:
    return provider.startswith(OPENSSL_BASED_PREFIXES)
