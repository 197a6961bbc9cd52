import pytest
from conftest import run_cli

from cryptobench.core.errors import UserError
from cryptobench.drivers import cpu_features as cpufeatures

HAS_ALL = {"aes", "pclmulqdq", "avx", "avx2", "sha_ni", "avx512f", "vaes", "vpclmulqdq"}


def test_masks_follow_the_documented_bit_layout():
    # CPUID(1).ECX bit 25 is AES-NI (bit 57 of the first word); CPUID(7).ECX bit 9 is VAES (bit 41 of the
    # second). Every word is written: OpenSSL 3.5+ zeroes a word that is left out.
    assert cpufeatures.ia32cap(["aesni"]) == "~0x200000000000000:~0x20000000000:~0:~0:~0"
    # CPUID(7).EBX bit 29 is SHA, bit 5 AVX2: second word only
    assert cpufeatures.ia32cap(["shani", "avx2"]) == ":~0x20000020:~0:~0:~0"
    assert cpufeatures.ia32cap(["vaes"]) == ":~0x60000000000:~0:~0:~0"
    assert cpufeatures.ia32cap(["avx512"]) == ":~0xd0230000:~0:~0:~0"


def test_only_features_the_cpu_has_can_be_switched_off():
    assert cpufeatures.parse("no-aesni, no-shani", HAS_ALL) == ["aesni", "shani"]
    with pytest.raises(UserError, match="this CPU does not have it"):
        cpufeatures.parse("no-shani", {"aes"})
    with pytest.raises(UserError, match="unknown CPU feature switch 'aesni'"):
        cpufeatures.parse("aesni", HAS_ALL)
    with pytest.raises(UserError, match="unknown CPU feature switch 'no-turbo'"):
        cpufeatures.parse("no-turbo", HAS_ALL)


def test_applies_to_openssl_based_providers_only():
    assert cpufeatures.applies_to("c:openssl") and cpufeatures.applies_to("c:openssl-1.1.1")
    assert cpufeatures.applies_to("python:cryptography")
    assert not cpufeatures.applies_to("go:stdlib") and not cpufeatures.applies_to("c:libsodium")


def test_cli_rejects_unknown_switch():
    res = run_cli("run", "--cpu-features", "no-turbo")
    assert res.returncode == 2 and "unknown CPU feature switch" in res.stderr and "Traceback" not in res.stderr
