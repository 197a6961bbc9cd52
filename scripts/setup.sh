#!/usr/bin/env bash
# Set up everything cryptobench needs on a fresh Debian 12 machine, idempotently:
# system packages, the Python environment, the exported test-vector cases, the drivers.
# A driver that cannot be built is reported with the reason; the others still work.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(pkg-config libssl-dev libjansson-dev clang-format g++ libsodium-dev libbotan-2-dev chromium cmake ninja-build
  libmbedtls-dev libwolfssl-dev libgcrypt20-dev nettle-dev libcrypto++-dev libtomcrypt-dev libgnutls28-dev
  postgresql valgrind  # valgrind: `run --metric instructions` where the kernel exposes no hardware counter
  libclang1-14 libclang-common-14-dev  # bindgen's libclang, for the optional `cryptobench build rust:boring`
  clang lld llvm wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev)  # the wasm32-wasi OpenSSL build (docs/wasm.md)

# shellcheck source=scripts/lib/debian-packages.sh
. scripts/lib/debian-packages.sh
mapfile -t missing < <(missing_debs "${APT_PACKAGES[@]}")
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
if [ ! -f .venv/.stamp ] || [ pyproject.toml -nt .venv/.stamp ]; then
  echo "setup: installing Python packages"
  .venv/bin/pip install -q --disable-pip-version-check -e '.[drivers,dev]'
  touch .venv/.stamp
fi

# the charting library inlined into HTML reports, and the headless-Chromium checker of those reports
for d in cryptobench/report/assets tools/html-check; do
  [ "$d/node_modules/.package-lock.json" -nt "$d/package-lock.json" ] || npm ci --prefix "$d" --no-audit --no-fund --loglevel=error
done

.venv/bin/python -m cryptobench.verify.vectors.export build/cases >/dev/null
# OpenSSL 3.6 (static, cached under ~/.cache/cryptobench): the C PQ-ntor implementation needs
# its ML-KEM; about a minute and a half the first time, seconds afterwards
scripts/openssl/build.sh --lib-only 3.6 >/dev/null
# liboqs 0.13.0 (static, ML-KEM and ML-DSA only, cached under ~/.cache/cryptobench) for c:liboqs;
# about half a minute the first time (cmake + ninja), seconds afterwards. With it in place the C
# drivers' `make` and `make test` build and test its plugin (libcb_liboqs.so) too.
scripts/liboqs/build.sh --lib-only >/dev/null

# The drivers: built again only when their sources, the toolchains or the built files' presence changed
# since the last build that succeeded (scripts/cached-run; FORCE_BUILD=1 builds anyway). With nothing changed
# `cryptobench build` still costs ~a minute of CPU: npm ci reinstalls two node_modules, Maven packages.
# `make test FORCE=1` forces the tests, not this build: the drivers `make run` built from these very
# sources and tools are the ones to test (a build is no check that could pass by memory).
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench"
BUILT='ls -1d drivers/c/build/cbdriver drivers/c/build/plugins/*.so plugins/c/build/*.so drivers/go/build/cbdriver-go
  drivers/python/build/* drivers/js/node_modules/.package-lock.json drivers/browser/node_modules/.package-lock.json
  drivers/rust/target/release/cbdriver-rust drivers/java/target/*.jar drivers/java/build/* drivers/js/native/build/*'
FORCE="${FORCE_BUILD:-}" CRYPTOBENCH_FORCE_TESTS= python3 scripts/cached-run setup-drivers --in drivers --in plugins --in include --in protocols/pqntor/c \
  --in cryptobench/drivers --in scripts --in "$CACHE/openssl" --in "$CACHE/liboqs" --out "$BUILT" \
  --tool 'gcc --version' --tool 'g++ --version' --tool 'go version' --tool 'rustc -vV' --tool 'node --version' \
  --tool 'npm --version' --tool 'java -version' --tool 'mvn -v' \
  --tool 'dpkg-query -W libssl-dev libjansson-dev libsodium-dev libbotan-2-dev libmbedtls-dev libwolfssl-dev
    libgcrypt20-dev nettle-dev libcrypto++-dev libtomcrypt-dev libgnutls28-dev' \
  -- scripts/build-drivers.sh ||
  echo "setup: some drivers could not be built (reasons above); run uses the others"
