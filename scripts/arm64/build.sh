#!/usr/bin/env bash
# Cross-build the drivers for aarch64 (issue 34; docs/platforms.md), on this x86-64 Debian 12 machine:
#   - the cross compilers and qemu-user (Debian packages; installed when missing, in one line)
#   - a sysroot of Debian's arm64 libraries (OpenSSL 3.0, jansson, libsodium, Botan 2), cached in
#     ~/.cache/cryptobench/arm64 (scripts/arm64/env.sh)
#   - the C driver with its built-in modules (OpenSSL, libsodium, Botan 2 C++ and FFI) into
#     build/arm64/c, the Go driver (pure Go: CGO_ENABLED=0) into build/arm64/cbdriver-go
#   - build/arm64/providers.toml: the arm64 drivers under qemu-aarch64 as providers of their own
#     (c:openssl-arm64, go:stdlib-arm64, ...), for `cryptobench verify --providers-file`; `run` and
#     `leak` refuse them (cryptobench/run/emulation.py)
#   - the Python driver: Debian's arm64 CPython 3.11 in the sysroot, PyPI's aarch64 wheels of the
#     libraries pyproject.toml pins (cryptography, pycryptodome, pynacl) in ~/.cache/cryptobench/arm64
# Not built: c:liboqs (its library is built for this machine only, scripts/liboqs/build.sh), the
# plugins/c libraries, the Rust, Java and JavaScript drivers.
# usage: scripts/arm64/build.sh     (make test-arm64 runs it, then the tests)
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$REPO"

# ---- the host's tools ----
# shellcheck source=scripts/lib/debian-packages.sh
. scripts/lib/debian-packages.sh
mapfile -t missing < <(missing_debs "${HOST_DEBS[@]}")
if ((${#missing[@]})); then
  echo "arm64: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  inst() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-remove "${missing[@]}" >/dev/null; }
  inst 2>/dev/null || { $SUDO apt-get update -qq && inst; }
fi

# ---- the sysroot: Debian's arm64 packages, unpacked (not installed: dpkg stays amd64-only) ----
want="bookworm ${ARM64_DEBS[*]}"
if [ "$(cat "$SYSROOT/.debs" 2>/dev/null)" != "$want" ]; then
  echo "arm64: unpacking Debian's arm64 ${ARM64_DEBS[*]} and their dependencies into $SYSROOT"
  apt_dir="$ARM64_CACHE/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  : >"$apt_dir/status"
  # apt with its own lists, cache and (empty) status: arm64 as its only architecture
  APT=(apt-get -qq -o "Dir::State=$apt_dir" -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status"
    -o "Dir::Cache=$apt_dir/cache" -o APT::Architecture=arm64 -o APT::Architectures::=arm64
    -o Debug::NoLocking=1 -o "APT::Sandbox::User=$(id -un)")
  "${APT[@]}" update
  mapfile -t debs < <("${APT[@]}" -s install --no-install-recommends "${ARM64_DEBS[@]}" | awk '/^Inst/{print $2}')
  rm -rf "$ARM64_CACHE/debs" "$SYSROOT"
  mkdir -p "$ARM64_CACHE/debs" "$SYSROOT"
  (cd "$ARM64_CACHE/debs" && "${APT[@]}" download "${debs[@]}")
  for f in "$ARM64_CACHE"/debs/*.deb; do dpkg-deb -x "$f" "$SYSROOT"; done
  echo "$want" >"$SYSROOT/.debs"
fi

# ---- the C driver: make's own rules, another tree (BUILD), the cross compilers and the sysroot ----
LIB="$SYSROOT/usr/lib/aarch64-linux-gnu"
FLAGS="-O2 -I$SYSROOT/usr/include/aarch64-linux-gnu -I$SYSROOT/usr/include -L$LIB"
FLAGS+=" -Wl,-rpath-link,$LIB:$SYSROOT/lib/aarch64-linux-gnu"
export PKG_CONFIG_LIBDIR="$LIB/pkgconfig:$SYSROOT/usr/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$SYSROOT"
C_DRIVERS="openssl sodium botan botan-ffi"
C_MAKE=(make -C drivers/c --no-print-directory BUILD="$ARM64_OUT/c" CC=aarch64-linux-gnu-gcc
  CXX=aarch64-linux-gnu-g++ CFLAGS="$FLAGS" CXXFLAGS="$FLAGS" RUN="${QEMU[*]}" DRIVERS="$C_DRIVERS")
mkdir -p "$ARM64_OUT"
echo "arm64: building the C driver (${C_DRIVERS}) into build/arm64/c"
"${C_MAKE[@]}" -j2 all >"$ARM64_OUT/c-build.log" 2>&1 || {
  tail -20 "$ARM64_OUT/c-build.log"
  echo "arm64: the C driver did not build (log: build/arm64/c-build.log)"
  exit 1
}

# ---- the Go driver: Go's own cross compiler ----
echo "arm64: building the Go driver into build/arm64/cbdriver-go"
(cd drivers/go && GOARCH=arm64 CGO_ENABLED=0 go build -o "$ARM64_OUT/cbdriver-go" .)

# ---- the Python driver: Debian's arm64 CPython (in the sysroot) and PyPI's aarch64 wheels ----
# the versions pyproject.toml pins for the drivers (cryptography, pycryptodome, pynacl)
mapfile -t wheels < <(.venv/bin/python -c 'import tomllib; d = tomllib.load(open("pyproject.toml", "rb"))
print("\n".join(r for r in d["project"]["optional-dependencies"]["drivers"] if r.split("==")[0] in ("cryptography", "pycryptodome", "pynacl")))')
if [ "$(cat "$PY_SITE/.wheels" 2>/dev/null)" != "${wheels[*]}" ]; then
  echo "arm64: PyPI's aarch64 wheels of ${wheels[*]} into $PY_SITE"
  rm -rf "$PY_SITE"
  .venv/bin/pip install -q --disable-pip-version-check --target "$PY_SITE" --only-binary=:all: \
    --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 --python-version 3.11 \
    --implementation cp "${wheels[@]}"
  echo "${wheels[*]}" >"$PY_SITE/.wheels"
fi

# ---- the providers file: each arm64 driver under qemu-aarch64, under an id of its own ----
toml() { # id serves library command...
  local id=$1 serves=$2 lib=$3 cmd="" part
  shift 3
  for part in "${QEMU[@]}" "$@"; do cmd+="${cmd:+, }\"$part\""; done
  printf '\n[[provider]]\nid = "%s"\nserves = "%s"\nlibrary = "%s"\ncommand = [%s]\n' "$id" "$serves" "$lib" "$cmd"
}
{
  echo "# written by scripts/arm64/build.sh: the aarch64 drivers under qemu-user. cryptobench verify"
  echo "# checks them; run and leak refuse them (an emulator's times say nothing of an aarch64 CPU)."
  toml c:openssl-arm64 c:openssl "OpenSSL (Debian arm64 libcrypto) under qemu-aarch64" \
    "$ARM64_OUT/c/cbdriver" --plugin "$ARM64_OUT/c/plugins/libcb_openssl.so"
  toml c:libsodium-arm64 c:libsodium "libsodium (Debian arm64) under qemu-aarch64" \
    "$ARM64_OUT/c/cbdriver" --plugin "$ARM64_OUT/c/plugins/libcb_sodium.so"
  toml cpp:botan-arm64 cpp:botan "Botan 2 C++ API (Debian arm64) under qemu-aarch64" \
    "$ARM64_OUT/c/cbdriver" --plugin "$ARM64_OUT/c/plugins/libcb_botan.so"
  toml c:botan-ffi-arm64 c:botan-ffi "Botan 2 C FFI (Debian arm64) under qemu-aarch64" \
    "$ARM64_OUT/c/cbdriver" --plugin "$ARM64_OUT/c/plugins/libcb_botan-ffi.so"
  for lib in stdlib circl gmsm; do
    toml "go:$lib-arm64" "go:$lib" "go:$lib (GOARCH=arm64) under qemu-aarch64" "$ARM64_OUT/cbdriver-go"
  done
  py=(env "PYTHONPATH=$PY_SITE:$REPO/drivers/python" "${QEMU[@]}" "$PY_ARM64" -m cbdriver)
  pytoml() { # id serves library [--plugin file]: the Python driver under qemu-aarch64
    local id=$1 serves=$2 lib=$3 cmd="" part
    shift 3
    for part in "${py[@]}" "$@"; do cmd+="${cmd:+, }\"$part\""; done
    printf '\n[[provider]]\nid = "%s"\nserves = "%s"\nlibrary = "%s"\ncommand = [%s]\n' "$id" "$serves" "$lib" "$cmd"
  }
  pytoml python:hashlib-arm64 python:hashlib "CPython 3.11 hashlib/hmac (Debian arm64) under qemu-aarch64"
  pytoml python:cryptography-arm64 python:cryptography "pyca/cryptography (aarch64 wheel) under qemu-aarch64"
  pytoml python:pycryptodome-arm64 python:pycryptodome "PyCryptodome (aarch64 wheel) under qemu-aarch64" \
    --plugin "$REPO/plugins/python/pycryptodome_provider.py"
  pytoml python:pynacl-arm64 python:pynacl "PyNaCl (aarch64 wheel) under qemu-aarch64" \
    --plugin "$REPO/plugins/python/pynacl_provider.py"
} >"$ARM64_OUT/providers.toml"
echo "arm64: built; providers file build/arm64/providers.toml"
