import pytest
from conftest import run_cli

from cryptobench import cpufeatures
from cryptobench.errors import UserError

HAS_ALL = {"aes", "pclmulqdq", "avx", "avx2", "sha_ni", "avx512f", "vaes", "vpclmulqdq"}


def test_masks_follow_the_documented_bit_layout():
    # CPUID(1).ECX bit 25 is AES-NI: bit 57 of the first word
    assert cpufeatures.ia32cap(["aesni"]) == "~0x200000000000000"
    # CPUID(7).EBX bit 29 is SHA, bit 5 AVX2: second word
    assert cpufeatures.ia32cap(["shani", "avx2"]) == ":~0x20000020"
    assert cpufeatures.ia32cap(["aesni", "vaes"]) == "~0x200000000000000:~0x20000000000"


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
