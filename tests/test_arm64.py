"""ARM64 without an ARM machine (docs/platforms.md): what `make test-arm64` relies on, checked cheaply.

A driver under qemu-user is verified but never timed (cryptobench/run/emulation.py); the x86-only
paths -- the TSC, OPENSSL_ia32cap's switches -- give way to one clear line elsewhere. The C guard is
compiled for aarch64 with Debian's cross compiler when it is installed (scripts/arm64/build.sh
installs it), and skipped with the reason when not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

from cryptobench.core.errors import UserError
from cryptobench.drivers import cpu_features as cpufeatures
from cryptobench.drivers.registry import Registry
from cryptobench.run import emulation

REPO = Path(__file__).resolve().parents[1]
NOTE = "cycle counter: not available on aarch64 (no TSC); time only"


@pytest.mark.parametrize(
    "command, emu",
    [
        (["qemu-aarch64", "-L", "/sysroot", "./cbdriver"], "qemu-aarch64"),
        (["/usr/bin/qemu-aarch64-static", "./cbdriver"], "qemu-aarch64-static"),
        (["env", "-i", "QEMU_LD_PREFIX=/sysroot", "qemu-arm", "./cbdriver"], "qemu-arm"),
        (["qemu-system-aarch64", "-kernel", "Image"], None),  # a whole machine: not qemu-user
        (["./build/cbdriver", "--plugin", "qemu-aarch64"], None),
        (["env", "FOO=1", "./cbdriver"], None),
        ([], None),
    ],
)
def test_a_driver_under_qemu_user_is_told_by_its_command(command, emu):
    assert emulation.emulator(command) == emu


@pytest.fixture(scope="module")
def providers_file(tmp_path_factory) -> Path:
    f = tmp_path_factory.mktemp("arm64") / "providers.toml"
    f.write_text(
        '[[provider]]\nid = "c:openssl-arm64"\nserves = "c:openssl"\n'
        'command = ["qemu-aarch64", "-L", "/nonexistent", "/nonexistent/cbdriver"]\n'
    )
    return f


def test_measuring_refuses_an_emulated_provider_in_one_line(providers_file):
    registry = Registry(providers_file)
    emulation.refuse_measuring(registry, ["c:openssl", "unknown:fake"])  # native and unregistered: no refusal
    with pytest.raises(UserError, match=r"^c:openssl-arm64 runs under qemu-user \(qemu-aarch64\)"):
        emulation.refuse_measuring(registry, ["c:openssl", "c:openssl-arm64"])


@pytest.mark.parametrize("command", ["run", "leak"])
def test_run_and_leak_refuse_before_starting_anything(providers_file, tmp_path, command):
    # the command points nowhere: a refusal that came after starting the driver would say so instead
    res = run_cli(command, "--providers-file", str(providers_file), "--provider", "c:openssl-arm64",
                  "--alg", "hmac-sha256", "--db", str(tmp_path / "r.db"), "--quiet")  # fmt: skip
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert lines[-1].endswith("runs under qemu-user (qemu-aarch64): an emulator's times say nothing of the CPU "
                              "it emulates, so timing and leak checks refuse it; `cryptobench verify` checks its answers")  # fmt: skip


def test_cpu_feature_switches_are_refused_off_x86():
    with pytest.raises(UserError, match=r"^--cpu-features switches x86 features off \(OPENSSL_ia32cap\): "
                                        r"not available on aarch64$"):  # fmt: skip
        cpufeatures.parse("no-aesni", {"aes", "pmull"}, machine="aarch64")  # ARM's cpuinfo says "aes" too
    assert cpufeatures.parse("no-aesni", {"aes"}, machine="x86_64") == ["aesni"]


PROBE = '#include "timing.h"\n#if TIMING_HAVE_TSC\nconst char *note = "tsc";\n#else\nconst char *note = TIMING_NO_TSC_NOTE;\n#endif\n'


def _strings(cc: str, tmp_path: Path, src: str) -> bytes:
    (tmp_path / "probe.c").write_text(PROBE)
    inc = ["-I", str(REPO / "include"), "-I", str(REPO / "drivers/c/src")]
    for f, out in ((tmp_path / "probe.c", "probe.o"), (REPO / src, "timing.o")):
        res = subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", *inc, "-c", "-o",
                              str(tmp_path / out), str(f)], capture_output=True, text=True)  # fmt: skip
        assert res.returncode == 0, res.stderr
    return (tmp_path / "probe.o").read_bytes()


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                    reason="no aarch64 cross compiler (apt-get install gcc-aarch64-linux-gnu; make test-arm64 installs it)")  # fmt: skip
def test_the_c_drivers_timing_compiles_for_aarch64_without_the_tsc(tmp_path):
    # timing.c includes x86intrin.h behind its guard: for aarch64 it compiles only if the guard holds
    assert NOTE.encode() in _strings("aarch64-linux-gnu-gcc", tmp_path, "drivers/c/src/timing.c")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_x86_keeps_its_tsc(tmp_path):
    import platform

    if platform.machine() not in ("x86_64", "i686"):
        pytest.skip(f"not an x86 host ({platform.machine()})")
    obj = _strings("gcc", tmp_path, "drivers/c/src/timing.c")
    assert b"no TSC" not in obj and b"tsc" in obj
