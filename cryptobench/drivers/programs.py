"""The driver programs (one per language or library family): where each lives and how it is built,
and the `Provider` record — what a user names (`c:openssl`, `go:stdlib`) and the command serving it.
The registry (registry.py) builds its table of providers from these."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cryptobench.core import declared

REPO = Path(__file__).resolve().parents[2]
# a provider id as the catalogue writes them: `lang:name[@version]` (c:openssl, c:openssl@3.6.3, plugin:mine)
PROVIDER_ID = re.compile(r"[a-z][a-z0-9+.-]{0,31}:[A-Za-z0-9][A-Za-z0-9._+-]{0,99}(@[A-Za-z0-9][A-Za-z0-9._+-]{0,63})?")


@dataclass(frozen=True)
class Driver:
    """A program family with one build command (which may produce several binaries)."""

    name: str
    directory: Path
    build: tuple[str, ...]  # the command, run in `directory`
    tools: tuple[str, ...] = ()  # programs the build needs on PATH
    heavy: bool = False  # minutes to build the first time (cached afterwards)
    build_one: tuple[str, ...] = ()  # builds one provider of several ("{provider}" is its id)

    @property
    def fix(self) -> str:
        return f"cryptobench build {self.name}"

    def fix_for(self, provider: str) -> str:
        return f"cryptobench build {provider}" if self.build_one else self.fix

    def command_for(self, provider: str | None) -> list[str]:
        if provider and self.build_one:
            return [part.replace("{provider}", provider) for part in self.build_one]
        return list(self.build)


@dataclass(frozen=True)
class Provider:
    id: str
    language: str
    library: str
    driver: str | None  # None for providers from a providers file
    command: tuple[str, ...] = field(default=())
    artifact: Path | None = None  # what must exist before the provider can run
    hidden: bool = False  # a test path: used only when named exactly (`--provider ID`)
    # `base@version` (docs/versions.md): the version asked for, the id the driver serves (its
    # hello must say the asked version), extra environment, and the build family
    version: str | None = None
    serves: str | None = None
    extra_env: tuple[tuple[str, str], ...] = ()
    family: str | None = None
    # algorithms of its own (core/declared.py): a plugin's from its hello, a providers file's tables
    declares: tuple[declared.Declaration, ...] = ()

    @property
    def driver_id(self) -> str:
        """The id the driver is started for, and its hello names: the pinned OpenSSL builds serve
        the id built into them (`c:openssl-3.6.3` for `c:openssl@3.6.3`)."""
        return self.serves or self.id

    def argv(self) -> list[str]:
        return [*self.command, "--provider", self.driver_id]


def _python() -> str:
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


DRIVERS: dict[str, Driver] = {
    d.name: d
    for d in [
        # -k: a missing libsodium or Botan must not stop the OpenSSL binary from being built
        Driver("c", REPO / "drivers/c", ("make", "-k"), ("make", "gcc", "g++")),
        # the libraries that are only plugins of the generic C driver (plugins/c, one .so each)
        Driver("c-plugins", REPO / "plugins/c", ("make", "-k"), ("make", "gcc", "g++")),
        Driver("go", REPO / "drivers/go", ("go", "build", "-o", "build/cbdriver-go", "."), ("go",)),
        # interpreted; make builds its two ctypes helpers: the time-stamp counter (x86-64), the fixed input
        Driver("python", REPO / "drivers/python", ("make", "-s"), ("make", "gcc")),
        # npm ci, then the time-stamp counter addon (drivers/js/native, x86-64), read beside the clock
        Driver("js", REPO / "drivers/js", ("make", "-s"), ("node", "npm", "make")),
        Driver(
            "browser",
            REPO / "drivers/browser",
            ("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"),
            ("node", "npm"),
        ),
        Driver("rust", REPO / "drivers/rust", ("cargo", "build", "--release", "--locked", "--quiet"), ("cargo",)),
        # the same driver with BoringSSL (`--features boring`, rust:boring's TLS cells): boring-sys builds
        # BoringSSL with cmake and bindgen (libclang), about 7 minutes the first time, so apart and optional
        Driver(
            "rust-boring",
            REPO / "drivers/rust",
            (
                "cargo",
                "build",
                "--release",
                "--locked",
                "--quiet",
                "--features",
                "boring",
                "--target-dir",
                "target/boring",
            ),
            ("cargo", "cmake"),
            heavy=True,
        ),  # fmt: skip
        # Maven's jar, then the JNI time-stamp counter helper (drivers/java/native, x86-64)
        Driver("java", REPO / "drivers/java", ("make", "-s"), ("mvn", "java", "make")),
        Driver(
            "openssl-versions",
            REPO,
            ("scripts/openssl/build.sh", "--no-test", "all"),
            ("cargo", "make", "gcc"),
            heavy=True,
            build_one=("scripts/openssl/build.sh", "--no-test", "{provider}"),
        ),
        # OpenSSL 3.6.3's libcrypto and the C driver's OpenSSL module compiled to wasm32-wasi (docs/wasm.md):
        # minutes the first time (clang's wasm32 target), then cached; one .wasm for three engines
        Driver(
            "wasm-openssl",
            REPO,
            ("scripts/wasm/build.sh",),
            ("clang", "wasm-ld", "llvm-ar", "cargo", "make"),
            heavy=True,
        ),
        # liboqs 0.13.0 from crates.io's oqs-sys (minutes the first time: 12 SPHINCS+ sets; then cached)
        # and the C driver's liboqs plugin linked against it
        Driver("liboqs", REPO, ("scripts/liboqs/build.sh", "--no-test"), ("cargo", "cmake", "ninja", "make", "gcc")),
    ]
}

C_BUILD = REPO / "drivers/c/build"
C_HOST = C_BUILD / "cbdriver"  # the generic C driver: serves one plugin (.so) per process
C_PLUGINS = C_BUILD / "plugins"  # the built-in libraries' plugins (drivers/c)
C_ONLY_PLUGINS = REPO / "plugins/c/build"  # the libraries that are only plugins (plugins/c)
PLUGINS = REPO / "plugins/python"


def c_plugin_argv(plugin: Path) -> tuple[str, ...]:
    """The command serving a C plugin (include/cryptobench/provider.h) with the generic driver."""
    return (str(C_HOST), "--plugin", str(plugin))


def openssl_versions() -> list[tuple[str, str]]:
    """(provider id, OpenSSL version) of every pinned OpenSSL build (scripts/openssl/versions.txt)."""
    path = REPO / "scripts/openssl/versions.txt"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        parts = line.split()
        if len(parts) == 3 and not line.lstrip().startswith("#"):
            out.append((parts[2], parts[1]))
    return out
