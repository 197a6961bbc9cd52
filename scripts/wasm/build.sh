#!/usr/bin/env bash
# Build OpenSSL's libcrypto and the C driver's OpenSSL module for wasm32-wasi (one .wasm that the
# wasm:openssl-wasmtime, wasm:openssl-node and browser:openssl-wasm providers all run; docs/wasm.md).
#
#   scripts/wasm/build.sh [options]     libcrypto.a + libjansson.a for wasm32-wasi (cached), then the
#                                       driver drivers/c/build/wasm/cbdriver-openssl.wasm (drivers/c/wasm.mk)
#   scripts/wasm/build.sh check-tools   say which of Debian's packages the build needs are missing
# options:
#   --force      rebuild the libraries even when their stamp matches
#   --lib-only   build the libraries only, not the driver
#
# Sources: OpenSSL from crates.io's openssl-src (the same crate and version as the native
# c:openssl@3.6.3, scripts/openssl/versions.txt), jansson 2.14 (the JSON library of the native
# driver) from Debian's source package. Toolchain: Debian 12's clang 14 (wasm32 target), lld
# (wasm-ld), wasi-libc and libclang-rt-14-dev-wasm32.
#
# Environment: CRYPTOBENCH_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/cryptobench), JOBS (default nproc).
# Cache: $CRYPTOBENCH_CACHE/openssl-wasm/<OpenSSL version>/{lib,include}, stamped.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=scripts/lib/cached-build.sh
source "$REPO/scripts/lib/cached-build.sh"
# shellcheck source=scripts/lib/debian-packages.sh
source "$REPO/scripts/lib/debian-packages.sh"

# The pin: the native c:openssl@3.6.3's crate (versions.txt), and Debian 12's jansson.
CRATE=300.6.1+3.6.3
VERSION=3.6.3
JANSSON=2.14
JANSSON_DEB=2.14-2
WASI_CC=(clang --target=wasm32-wasi)
# What WASI lacks, emulated by wasi-libc (linked with -lwasi-emulated-*, drivers/c/wasm.mk)
WASI_DEFS="-D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID"
DEB_PACKAGES="clang lld llvm wasi-libc libclang-rt-14-dev-wasm32 dpkg-dev"

FORCE=0 LIB_ONLY=0

log() { printf '[wasm/build] %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# The toolchain, or one line naming what to install.
check_tools() {
  local missing
  # shellcheck disable=SC2086 # the list splits into its names
  mapfile -t missing < <(missing_debs $DEB_PACKAGES)
  if ((${#missing[@]})); then
    die "the wasm32-wasi toolchain is missing: apt-get install -y ${missing[*]}"
  fi
  command -v cargo >/dev/null || die "cargo is needed to fetch openssl-src (crates.io): apt-get install -y cargo"
}

# Debian's jansson source package, fetched with apt (a private source list: deb-src of the
# machine's own Debian suite, the system's apt configuration untouched) and unpacked with its patches.
fetch_jansson() {
  local dir=$CACHE/openssl-wasm/src apt=$CACHE/openssl-wasm/src/apt suite
  if [[ -f $dir/jansson-$JANSSON/src/jansson.h ]]; then
    echo "$dir/jansson-$JANSSON"
    return
  fi
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mkdir -p "$apt/lists/partial" "$apt/parts"
  echo "deb-src http://deb.debian.org/debian $suite main" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o "Dir::Etc::sourceparts=$apt/parts"
    -o "Dir::State::Lists=$apt/lists" -o "APT::Sandbox::User=root")
  log "apt-get source jansson=$JANSSON_DEB (Debian)"
  apt-get -qq "${opts[@]}" update >&2 || die "apt-get update of the deb-src list failed"
  (cd "$dir" && apt-get -qq "${opts[@]}" source "jansson=$JANSSON_DEB" >&2) ||
    die "apt-get source jansson=$JANSSON_DEB failed (needs dpkg-dev: apt-get install -y dpkg-dev)"
  [[ -f $dir/jansson-$JANSSON/src/jansson.h ]] || die "no jansson tree at $dir/jansson-$JANSSON"
  echo "$dir/jansson-$JANSSON"
}

# libjansson.a for wasm32-wasi into PREFIX (lib/, include/), unless its stamp there matches: its
# ten sources compiled directly, with the two configuration headers its configure would write for
# this target (jansson_config.h, jansson_private_config.h). Seconds.
build_jansson() {
  local prefix=$1 src obj f want stamp=$1/jansson.stamp
  want="jansson $JANSSON_DEB (Debian source)
compiler ${WASI_CC[*]}: $(clang --version | head -1)"
  if [[ $FORCE == 0 && -f $stamp && -f $prefix/lib/libjansson.a && "$(cat "$stamp")" == "$want" ]]; then
    return
  fi
  src=$(fetch_jansson)
  obj=$prefix/jansson-build
  rm -rf "$obj"
  mkdir -p "$obj" "$prefix/include" "$prefix/lib"
  sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/1/' \
    -e 's/@json_have_atomic_builtins@/1/' -e 's/@json_have_sync_builtins@/1/' \
    "$src/src/jansson_config.h.in" >"$obj/jansson_config.h"
  printf '#define %s 1\n' HAVE_STDINT_H HAVE_UNISTD_H HAVE_FCNTL_H HAVE_SYS_STAT_H HAVE_SYS_TIME_H \
    HAVE_SYS_TYPES_H HAVE_CLOSE HAVE_OPEN HAVE_READ HAVE_GETTIMEOFDAY HAVE_SCHED_H HAVE_SCHED_YIELD \
    USE_URANDOM HAVE_ATOMIC_BUILTINS HAVE_SYNC_BUILTINS >"$obj/jansson_private_config.h"
  echo '#define INITIAL_HASHTABLE_ORDER 3' >>"$obj/jansson_private_config.h"
  for f in "$src"/src/*.c; do
    "${WASI_CC[@]}" -O2 -DHAVE_CONFIG_H -I"$obj" -I"$src/src" -c -o "$obj/$(basename "${f%.c}").o" "$f" ||
      die "jansson $JANSSON for wasm32-wasi: $(basename "$f") does not compile"
  done
  rm -f "$prefix/lib/libjansson.a"
  llvm-ar rcs "$prefix/lib/libjansson.a" "$obj"/*.o
  cp "$src/src/jansson.h" "$obj/jansson_config.h" "$prefix/include/"
  llvm-nm "$prefix/lib/libjansson.a" | grep ' T json_pack$' >/dev/null || die "libjansson.a has no json_pack"
  rm -rf "$obj"
  printf '%s\n' "$want" >"$stamp"
  log "jansson $JANSSON for wasm32-wasi: $prefix/lib/libjansson.a"
}

# The Configure options: the native build's (scripts/openssl/build.sh: no-shared no-tests
# no-module no-legacy no-docs) and what WASI has not (as openssl-src's own wasm32-wasi build
# sets them: no threads, sockets, console, syslog, assembler, AF_ALG, chmod), no apps, no dlopen.
configure_line() {
  local prefix=$1
  echo "./Configure gcc --prefix=$prefix --openssldir=$prefix/ssl --libdir=lib no-shared no-tests" \
    "no-module no-legacy no-docs no-apps no-dso no-asm no-threads no-sock no-ui-console no-afalgeng" \
    "no-secure-memory -DOPENSSL_NO_AFALGENG=1 -DNO_SYSLOG -DNO_CHMOD $WASI_DEFS"
}

build_lib() {
  local prefix=$CACHE/openssl-wasm/$VERSION stamp src want configure
  stamp=$prefix/cryptobench-build.stamp
  configure=$(configure_line "$prefix")
  want="crate openssl-src $CRATE
openssl $VERSION
configure $configure
compiler ${WASI_CC[*]}: $(clang --version | head -1)"
  if [[ $FORCE == 0 && -f $stamp && -f $prefix/lib/libcrypto.a ]] &&
    [[ "$(cat "$stamp")" == "$want" ]]; then
    log "OpenSSL $VERSION for wasm32-wasi: cached in $prefix (stamp matches)"
    echo "$prefix"
    return
  fi
  src=$(crate_dir openssl-src "$CRATE" "$CACHE/openssl-src/$CRATE")/openssl
  [[ -f $src/Configure ]] || die "no OpenSSL tree at $src"

  local bld=$CACHE/openssl-wasm/build-$VERSION buildlog=$CACHE/openssl-wasm/build-$VERSION.log t0 t1
  local stage=$prefix.new
  log "OpenSSL $VERSION for wasm32-wasi: building libcrypto.a (openssl-src $CRATE, -j$JOBS, log: $buildlog)"
  log "  $configure"
  rm -rf "$bld" "$stage"
  cp -a "$src" "$bld"
  chmod -R u+w "$bld"
  t0=$(date +%s)
  (
    cd "$bld"
    unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS LDLIBS
    export CC="${WASI_CC[*]}" AR=llvm-ar RANLIB=llvm-ranlib
    eval "$configure"
    make build_generated
    make -j"$JOBS" libcrypto.a
  ) >"$buildlog" 2>&1 || build_failed "$buildlog" "OpenSSL $VERSION for wasm32-wasi"
  mkdir -p "$stage/include/openssl" "$stage/lib"
  cp "$bld"/include/openssl/*.h "$stage/include/openssl/"
  cp "$bld/libcrypto.a" "$stage/lib/"
  t1=$(date +%s)
  install_staged "$stage" "$prefix" "$((t1 - t0))" "$want" "$bld"
  log "OpenSSL $VERSION for wasm32-wasi: built in $((t1 - t0)) s -> $prefix"
  echo "$prefix"
}

main() {
  local arg
  for arg in "$@"; do
    build_option "$arg" && continue
    case $arg in
    check-tools)
      check_tools
      log "toolchain: ok ($DEB_PACKAGES)"
      return
      ;;
    *) die "unknown argument $arg (see --help)" ;;
    esac
  done
  check_tools
  mkdir -p "$CACHE/openssl-wasm"
  # one build at a time (the library, jansson and the driver's make: concurrent test workers)
  exec 9>"$CACHE/openssl-wasm/.lock-$VERSION"
  flock 9
  local prefix
  prefix=$(build_lib)
  build_jansson "$prefix"
  [[ $LIB_ONLY == 1 ]] && return
  log "driver: make -C drivers/c -f wasm.mk OPENSSL_WASM_PREFIX=$prefix"
  make -s -C "$REPO/drivers/c" -f wasm.mk OPENSSL_WASM_PREFIX="$prefix" >&2
  log "driver: $REPO/drivers/c/build/wasm/cbdriver-openssl.wasm"
}

main "$@"
