# Sourced by scripts/arm64/*.sh: where the aarch64 build lives and how its programs are run.
# Debian's cross toolchain builds for aarch64, qemu-user runs the result on this x86-64 machine:
#   ARM64_CACHE  ~/.cache/cryptobench/arm64: the Debian arm64 packages' own apt lists (apt/), the
#                .debs (debs/) and the sysroot they are unpacked into (sysroot/) -- the machine's
#                own dpkg is never given the arm64 architecture, so its libssl3 etc. stay as they are
#   ARM64_OUT    build/arm64: the drivers (c/cbdriver, c/plugins/*.so, cbdriver-go) and
#                providers.toml, the providers file serving them under qemu-aarch64
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ARM64_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench/arm64"
SYSROOT="$ARM64_CACHE/sysroot"
ARM64_OUT="$REPO/build/arm64"
# the libraries the C driver links (OpenSSL, jansson, libsodium, Botan 2) and the Python driver's
# CPython: their Debian packages for arm64 and what those pull in (libc6, libstdc++6, ...),
# unpacked into SYSROOT
ARM64_DEBS=(libssl-dev libjansson-dev libsodium-dev libbotan-2-dev python3.11)
# the Python driver's libraries: PyPI's aarch64 wheels of the versions pyproject.toml pins
PY_SITE="$ARM64_CACHE/python-site"
PY_ARM64="$SYSROOT/usr/bin/python3.11"
# the cross compilers and the emulator, from Debian's own (amd64) archive
HOST_DEBS=(qemu-user gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross pkg-config)
QEMU=(qemu-aarch64 -L "$SYSROOT")
