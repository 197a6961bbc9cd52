#!/usr/bin/env bash
# Build OpenSSL's libcrypto and libssl (static) and its `openssl` command from the source tree that crates.io's
# `openssl-src` crate ships, cache it, and build + test the C driver against it.
#
#   scripts/openssl/build.sh [options] SPEC...   SPEC: 1.1.1 | 3 | 3.6 | 4.0 | 4.0.3 | all |
#                                                 a crate version (400.0.2+4.0.3; an unpinned one
#                                                 too, e.g. 300.0.13+3.0.13) | a provider id
#   scripts/openssl/build.sh list                 the pinned builds (versions.txt) and their cache state
#   scripts/openssl/build.sh check                compare the pins with the newest openssl-src
#                                                 per series that crates.io serves now
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
VERSIONS=$HERE/versions.txt
export CC=${CC:-gcc}
DRIVER_DIR=$REPO/drivers/c
# A known answer of the driver: sha256 of the 1 KiB input pattern for this seed.
SHA256_1K_CHECKSUM=00000020:fb4898be6151a393

FORCE=0 LIB_ONLY=0 NO_TEST=0

log() { printf '[openssl/build] %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# Lines of versions.txt: crate_version openssl_version provider_id
pins() { grep -vE '^[[:space:]]*(#|$)' "$VERSIONS"; }

# Does SPEC name this pin? Exact crate version, exact OpenSSL version, provider id,
# or an OpenSSL version prefix that ends at a component boundary (3 -> 3.6.3,
# 1.1.1 -> 1.1.1w, 4.0 -> 4.0.3; 3.6 does not match 3.60.0).
spec_matches() {
  local spec=$1 crate=$2 ver=$3 prov=$4
  [[ $spec == all || $spec == "$crate" || $spec == "$ver" || $spec == "$prov" ]] && return 0
  [[ $ver == "$spec"* ]] || return 1
  local rest=${ver#"$spec"}
  [[ ! ${rest:0:1} =~ [0-9] ]]
}

resolve() {
  local spec=$1 found=0 crate ver prov
  while read -r crate ver prov; do
    if spec_matches "$spec" "$crate" "$ver" "$prov"; then
      echo "$crate $ver $prov"
      found=1
    fi
  done < <(pins)
  # An unpinned openssl-src crate version (cryptobench's `c:openssl@VERSION` asks for these):
  # built like a pin, its plugin serving `c:openssl@<OpenSSL version>`.
  if [[ $found == 0 && $spec =~ ^[0-9]+\.[0-9]+\.[0-9]+\+([0-9][0-9a-z.-]*)$ ]]; then
    echo "$spec ${BASH_REMATCH[1]} c:openssl@${BASH_REMATCH[1]}"
    found=1
  fi
  [[ $found == 1 ]] || die "no pinned openssl-src build matches '$spec' (see $VERSIONS)"
}

# The OpenSSL tree inside openssl-src $1 (fetched by cargo, see scripts/lib/crate-source.sh).
fetch_source() {
  local src
  src=$(crate_dir openssl-src "$1" "$CACHE/openssl-src/$1")/openssl
  [[ -f $src/Configure ]] || die "no OpenSSL tree at $src"
  echo "$src"
}

# The OpenSSL version a source tree says it is.
tree_version() {
  local src=$1
  if [[ -f $src/VERSION.dat ]]; then
    (
      # shellcheck disable=SC1091
      . "$src/VERSION.dat"
      echo "$MAJOR.$MINOR.$PATCH${PRE_RELEASE_TAG:+-$PRE_RELEASE_TAG}"
    )
  else
    sed -nE 's/^# *define OPENSSL_VERSION_TEXT +"OpenSSL ([^ ]+) .*/\1/p' "$src/include/openssl/opensslv.h"
  fi
}

# Configure options this tree knows ("no-X" only where X is disablable).
configure_options() {
  local src=$1 known opt opts=()
  known=$(perl -0777 -ne 'print "$1\n" if /^my \@disablables = \((.*?)^\s*\);/ms' "$src/Configure" |
    grep -oE '"[^"]+"' | tr -d '"')
  for opt in shared tests; do
    grep -qx "$opt" <<<"$known" || die "$src/Configure cannot disable $opt"
    opts+=("no-$opt")
  done
  # apps stay: `bin/openssl` makes the TLS cells' test PKI (docs/tls.md)
  for opt in module legacy docs; do
    if grep -qx "$opt" <<<"$known"; then opts+=("no-$opt"); fi
  done
  echo "${opts[*]}"
}

config_target() {
  case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) echo linux-x86_64 ;;
  Linux-aarch64) echo linux-aarch64 ;;
  *) echo "" ;; # let ./Configure guess
  esac
}

# Build libcrypto.a into the cache unless the stamp there already matches.
# Prints the prefix.
build_lib() {
  local crate=$1 ver=$2 src prefix stamp want tree_ver opts target configure
  src=$(fetch_source "$crate")
  tree_ver=$(tree_version "$src")
  [[ $tree_ver == "$ver" ]] || die "openssl-src $crate holds OpenSSL $tree_ver, versions.txt says $ver"

  prefix=$CACHE/openssl/$ver
  stamp=$prefix/cryptobench-build.stamp
  opts=$(configure_options "$src")
  target=$(config_target)
  configure="./Configure ${target:+$target }--prefix=$prefix --openssldir=$prefix/ssl --libdir=lib $opts"
  want="crate openssl-src $crate
openssl $ver
configure $configure
make build_generated && make -j libcrypto.a libssl.a apps/openssl
compiler $CC: $("$CC" --version | head -1)"

  if [[ $FORCE == 0 && -f $stamp && -f $prefix/lib/libcrypto.a && -f $prefix/lib/libssl.a && -x $prefix/bin/openssl ]] && [[ "$(cat "$stamp")" == "$want" ]]; then
    log "OpenSSL $ver: cached in $prefix (stamp matches)"
    echo "$prefix"
    return
  fi

  local bld=$CACHE/openssl-src/$crate/build buildlog=$CACHE/openssl-src/$crate/build.log t0 t1
  log "OpenSSL $ver: building libcrypto.a, libssl.a and bin/openssl (openssl-src $crate, -j$JOBS, log: $buildlog)"
  log "  $configure"
  rm -rf "$bld"
  cp -a "$src" "$bld"
  chmod -R u+w "$bld"
  t0=$(date +%s)
  (
    cd "$bld"
    # Only OpenSSL's own flags: nothing from the caller's environment.
    unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LDLIBS
    # shellcheck disable=SC2086
    eval "$configure"
    make build_generated
    make -j"$JOBS" libcrypto.a libssl.a apps/openssl
  ) >"$buildlog" 2>&1 || build_failed "$buildlog" "OpenSSL $ver"
  t1=$(date +%s)

  # Install by hand (install_dev would build the shared libraries too): headers, the two
  # static libraries and the command,
  # into a staging prefix that replaces the old one only when complete.
  local stage=$prefix.new
  rm -rf "$stage"
  mkdir -p "$stage/include/openssl" "$stage/lib" "$stage/bin"
  cp "$bld"/include/openssl/*.h "$stage/include/openssl/"
  cp "$bld/libcrypto.a" "$bld/libssl.a" "$stage/lib/"
  cp "$bld/apps/openssl" "$stage/bin/"
  sed -n '/^Configuring OpenSSL/,$p' "$buildlog" | head -n 3 >"$stage/configure.out" || true
  install_staged "$stage" "$prefix" "$((t1 - t0))" "$want" "$bld"
  log "OpenSSL $ver: built in $((t1 - t0)) s -> $prefix"
  echo "$prefix"
}

# Build the C driver's OpenSSL plugin against PREFIX and test it.
build_driver() {
  local ver=$1 prov=$2 prefix=$3 out=build/plugins/libcb_openssl-$1.so
  local bin=$DRIVER_DIR/$out test_bin=$DRIVER_DIR/build/obj/libcb_openssl-$1/test_driver
  # The Makefile links against the library but does not depend on it: relink
  # after a library rebuild.
  for b in "$bin" "$test_bin"; do
    if [[ -e $b && $b -ot $prefix/lib/libcrypto.a ]]; then rm -f "$b"; fi
  done
  log "driver: make -C drivers/c OPENSSL_PREFIX=$prefix OUT=$out"
  make -s -C "$DRIVER_DIR" OPENSSL_PREFIX="$prefix" OUT="$out" PROVIDER_openssl="$prov" >&2
  if [[ $NO_TEST == 0 ]]; then
    log "driver: make -C drivers/c OPENSSL_PREFIX=$prefix OUT=$out test"
    make -s -C "$DRIVER_DIR" OPENSSL_PREFIX="$prefix" OUT="$out" PROVIDER_openssl="$prov" test >&2
  fi

  # By hand: hello reports this version, sha256 of 1 KiB gives the known checksum.
  smoke_plugin "$bin" "$prov" 1 \
    '{"cmd":"bench","alg":"sha256","op":"hash","size":1024,"chunk":0,"seed":2654435769,"batch":0,"target_ns":1000000,"warmup_ns":1000000,"samples":3}'
  local lv=$SMOKE_VERSION
  [[ $lv == "OpenSSL $ver "* ]] || die "$out: hello says '$lv', expected OpenSSL $ver"
  grep -q "\"checksum\":\"$SHA256_1K_CHECKSUM\"" <<<"$SMOKE_BENCH" || die "$out: sha256 1 KiB bench gave $SMOKE_BENCH"
  log "driver: $out --provider $prov: $lv; sha256 1 KiB checksum $SHA256_1K_CHECKSUM"
}

list() {
  local crate ver prov stamp
  while read -r crate ver prov; do
    stamp=$CACHE/openssl/$ver/cryptobench-build.stamp
    printf '%-18s %-8s %-18s %s\n' "$crate" "$ver" "$prov" \
      "$([[ -f $stamp ]] && echo "built: $CACHE/openssl/$ver" || echo "not built")"
  done < <(pins)
}

check() {
  local crate ver prov series newest rc=0
  while read -r crate ver prov; do
    series=${crate%%.*}
    newest=$(cargo info --quiet "openssl-src@$series" 2>/dev/null | sed -nE 's/^version: ([^ ]+).*/\1/p')
    if [[ -z $newest ]]; then
      log "openssl-src@$series: cargo info failed"
      rc=1
    elif [[ $newest == "$crate" ]]; then
      echo "$prov: pinned $crate is the newest $series.x"
    else
      echo "$prov: pinned $crate, crates.io now has $newest"
      rc=1
    fi
  done < <(pins)
  return $rc
}

main() {
  local specs=() arg
  for arg in "$@"; do
    build_option "$arg" && continue
    case $arg in
    -*) die "unknown option $arg" ;;
    *) specs+=("$arg") ;;
    esac
  done
  [[ ${#specs[@]} -gt 0 ]] || die "usage: $0 [--force] [--lib-only] [--no-test] SPEC... | list | check"
  case ${specs[0]} in
  list) list && return ;;
  check) check && return ;;
  esac

  local todo crate ver prov prefix failed=()
  todo=$(for arg in "${specs[@]}"; do resolve "$arg"; done | awk '!seen[$0]++')
  mkdir -p "$CACHE/openssl"
  while read -r crate ver prov; do
    # A failed version does not stop the others; the exit status reports it.
    if ! (
      # One build of a version at a time.
      exec 9>"$CACHE/openssl/.lock-$ver"
      flock 9
      prefix=$(build_lib "$crate" "$ver")
      [[ $LIB_ONLY == 1 ]] || build_driver "$ver" "$prov" "$prefix"
    ); then
      failed+=("$ver")
    fi
  done <<<"$todo"
  if [[ ${#failed[@]} -gt 0 ]]; then
    die "failed: ${failed[*]}"
  fi
  log "done: $(tr '\n' ' ' <<<"$todo" | awk '{for (i = 2; i <= NF; i += 3) printf "%s ", $i}')"
}

main "$@"
