#!/usr/bin/env bash
# Build liboqs (static: ML-KEM, ML-DSA, Falcon, HQC, SPHINCS+ only) from the source tree that crates.io's `oqs-sys`
# crate ships, cache it, and build + test the C driver's c:liboqs binary against it.
#
#   scripts/liboqs/build.sh [options]      the pinned liboqs (below), its driver and driver tests
#   scripts/liboqs/build.sh list           the pin and its cache state
#   scripts/liboqs/build.sh check          compare the pin with the newest oqs-sys on crates.io
# options:
#   --force      rebuild the library even when its stamp matches
#   --lib-only   build the library only, not the driver
#   --no-test    build the driver but do not run its tests
#
# Environment: CRYPTOBENCH_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/cryptobench),
# JOBS (default nproc), CC (default gcc), KEEP_BUILD=1 keeps the build tree.
# See README.md beside this file.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=scripts/lib/cached-build.sh
source "$REPO/scripts/lib/cached-build.sh"
export CC=${CC:-gcc}
DRIVER_DIR=$REPO/drivers/c

# The pin: the oqs-sys crate that vendors this liboqs, and the provider its driver serves.
CRATE=0.11.0+liboqs-0.13.0
VERSION=0.13.0
PROVIDER=c:liboqs
# Only what the driver offers (docs/protocol.md): FIPS 203 ML-KEM, FIPS 204 ML-DSA, Falcon
# (round 3, compressed signatures), HQC and SPHINCS+ round 3.1 "simple" (the pre-standard of
# SLH-DSA, offered as sphincs-*-simple, never as slh-dsa-*).
ALGS="KEM_ml_kem_512;KEM_ml_kem_768;KEM_ml_kem_1024;SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87"
ALGS+=";SIG_falcon_512;SIG_falcon_1024;KEM_hqc_128;KEM_hqc_192;KEM_hqc_256"
for _s in sha2 shake; do
  for _p in 128f 128s 192f 192s 256f 256s; do ALGS+=";SIG_sphincs_${_s}_${_p}_simple"; done
done
# liboqs 0.13 switches the HQC family off by default (OQS_ENABLE_KEM_HQC, for a flaw in its
# implementation, see README.md), and OQS_MINIMAL_BUILD only ever turns switches off: the family
# is switched on here, and the list above keeps its three parameter sets.
EXTRA="-DOQS_ENABLE_KEM_HQC=ON"

FORCE=0 LIB_ONLY=0 NO_TEST=0

log() { printf '[liboqs/build] %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# The liboqs tree inside oqs-sys $CRATE (fetched by cargo, see scripts/lib/crate-source.sh).
fetch_source() {
  local src
  src=$(crate_dir oqs-sys "${CRATE%%+*}" "$CACHE/oqs-sys/$CRATE")/liboqs
  [[ -f $src/CMakeLists.txt && -f $src/src/kem/kem.h ]] || die "no liboqs tree at $src"
  echo "$src"
}

# The liboqs version a source tree says it is (OQS_VERSION_MAJOR/MINOR/PATCH in CMakeLists.txt).
tree_version() {
  local src=$1 part out=()
  for part in MAJOR MINOR PATCH; do
    out+=("$(sed -nE "s/^set\(OQS_VERSION_$part ([0-9]+)\)/\1/p" "$src/CMakeLists.txt")")
  done
  local IFS=.
  echo "${out[*]}"
}

# Build liboqs.a into the cache unless the stamp there already matches. Prints the prefix.
build_lib() {
  local src prefix stamp want tree_ver configure
  src=$(fetch_source)
  tree_ver=$(tree_version "$src")
  [[ $tree_ver == "$VERSION" ]] || die "oqs-sys $CRATE holds liboqs $tree_ver, expected $VERSION"

  prefix=$CACHE/liboqs/$VERSION
  stamp=$prefix/cryptobench-build.stamp
  local bld=$CACHE/oqs-sys/$CRATE/build buildlog=$CACHE/oqs-sys/$CRATE/build.log
  # OQS_DIST_BUILD (liboqs' default) keeps the portable code with run-time CPU dispatch (AVX2),
  # as OpenSSL's builds have: no -march=native.
  configure="cmake -G Ninja -S <src> -B <build> -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=$CC"
  configure+=" -DCMAKE_INSTALL_PREFIX=$prefix -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF"
  configure+=" -DOQS_BUILD_ONLY_LIB=ON -DOQS_USE_OPENSSL=OFF -DOQS_DIST_BUILD=ON"
  configure+=" $EXTRA -DOQS_MINIMAL_BUILD=$ALGS"
  want="crate oqs-sys $CRATE
liboqs $VERSION
configure $configure
ninja -j liboqs.a && cmake --install
compiler $CC: $("$CC" --version | head -1)"

  if [[ $FORCE == 0 && -f $stamp && -f $prefix/lib/liboqs.a ]] && [[ "$(cat "$stamp")" == "$want" ]]; then
    log "liboqs $VERSION: cached in $prefix (stamp matches)"
    echo "$prefix"
    return
  fi

  local t0 t1
  log "liboqs $VERSION: building liboqs.a (oqs-sys $CRATE, -j$JOBS, log: $buildlog)"
  log "  $configure"
  rm -rf "$bld"
  t0=$(date +%s)
  (
    # Only liboqs' own flags: nothing from the caller's environment.
    unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LDLIBS
    cmake -G Ninja -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
      -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
      -DOQS_BUILD_ONLY_LIB=ON -DOQS_USE_OPENSSL=OFF -DOQS_DIST_BUILD=ON \
      "$EXTRA" -DOQS_MINIMAL_BUILD="$ALGS"
    ninja -C "$bld" -j"$JOBS"
  ) >"$buildlog" 2>&1 || build_failed "$buildlog" "liboqs $VERSION"
  t1=$(date +%s)

  # Install into a staging prefix that replaces the old one only when complete (the files that
  # name a path, liboqs.pc, were configured with the final prefix).
  local stage=$prefix.new
  rm -rf "$stage"
  cmake --install "$bld" --prefix "$stage" >>"$buildlog" 2>&1 || die "liboqs $VERSION: install failed (log: $buildlog)"
  [[ -f $stage/lib/liboqs.a && -f $stage/include/oqs/oqs.h ]] || die "liboqs $VERSION: install left no lib/liboqs.a"
  grep -E '^-- (Algorithms|OQS_|Build type)|^-- The C compiler' "$buildlog" >"$stage/configure.out" || true
  install_staged "$stage" "$prefix" "$((t1 - t0))" "$want" "$bld"
  log "liboqs $VERSION: built in $((t1 - t0)) s -> $prefix"
  echo "$prefix"
}

# Build the C driver's liboqs plugin against PREFIX and test it.
build_driver() {
  local prefix=$1 out=build/plugins/libcb_liboqs.so
  local bin=$DRIVER_DIR/$out test_bin=$DRIVER_DIR/build/obj/libcb_liboqs/test_driver
  # The Makefile links against the library but does not depend on it: relink
  # after a library rebuild.
  for b in "$bin" "$test_bin"; do
    if [[ -e $b && $b -ot $prefix/lib/liboqs.a ]]; then rm -f "$b"; fi
  done
  log "driver: make -C drivers/c LIBOQS_PREFIX=$prefix liboqs"
  make -s -C "$DRIVER_DIR" LIBOQS_PREFIX="$prefix" liboqs >&2
  if [[ $NO_TEST == 0 ]]; then
    log "driver: make -C drivers/c LIBOQS_PREFIX=$prefix test-liboqs"
    make -s -C "$DRIVER_DIR" LIBOQS_PREFIX="$prefix" test-liboqs >&2
  fi

  # By hand: hello reports this version, and an ML-KEM-768 key generation gives a public key of
  # FIPS 203's length (1184 bytes).
  smoke_plugin "$bin" "$PROVIDER" 3 \
    '{"cmd":"bench","alg":"ml-kem-768","op":"keygen","size":0,"chunk":0,"seed":2654435769,"batch":0,"target_ns":1000000,"warmup_ns":1000000,"samples":3}'
  local lv=$SMOKE_VERSION
  [[ $lv == "$VERSION" ]] || die "$out: hello says '$lv', expected $VERSION"
  grep -q '"checksum":"000004a0:' <<<"$SMOKE_BENCH" || die "$out: ml-kem-768 keygen bench gave $SMOKE_BENCH"
  log "driver: cbdriver --plugin $out --provider $PROVIDER: liboqs $lv; ml-kem-768 keygen: 1184-byte public keys"
}

list() {
  local stamp=$CACHE/liboqs/$VERSION/cryptobench-build.stamp
  printf '%-22s %-8s %-10s %s\n' "$CRATE" "$VERSION" "$PROVIDER" \
    "$([[ -f $stamp ]] && echo "built: $CACHE/liboqs/$VERSION" || echo "not built")"
}

check() {
  local newest
  newest=$(cargo info --quiet "oqs-sys" 2>/dev/null | sed -nE 's/^version: ([^ ]+).*/\1/p')
  if [[ -z $newest ]]; then
    log "oqs-sys: cargo info failed"
    return 1
  elif [[ $newest == "$CRATE" ]]; then
    echo "$PROVIDER: pinned $CRATE is the newest oqs-sys"
  else
    echo "$PROVIDER: pinned $CRATE, crates.io now has $newest"
    return 1
  fi
}

main() {
  local arg
  for arg in "$@"; do
    build_option "$arg" && continue
    case $arg in
    list) list && return ;;
    check) check && return ;;
    *) die "unknown argument $arg (usage: $0 [--force] [--lib-only] [--no-test] | list | check)" ;;
    esac
  done

  local prefix
  mkdir -p "$CACHE/liboqs"
  (
    # One build at a time.
    exec 9>"$CACHE/liboqs/.lock-$VERSION"
    flock 9
    prefix=$(build_lib)
    [[ $LIB_ONLY == 1 ]] || build_driver "$prefix"
  ) || die "failed: liboqs $VERSION"
  log "done: liboqs $VERSION"
}

main "$@"
