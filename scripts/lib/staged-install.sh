# shellcheck shell=bash
# install_staged STAGE PREFIX SECONDS STAMP BUILD_DIR: a finished build's staging prefix becomes PREFIX
# in one step, so a cache is never half-written: it records the build's time (build-time.txt) and the
# stamp that says what was built (cryptobench-build.stamp, compared by the next run), replaces PREFIX
# and removes BUILD_DIR unless KEEP_BUILD=1. Used by the OpenSSL, OpenSSL-wasm and liboqs builds.
install_staged() {
  local stage=$1 prefix=$2 seconds=$3 stamp=$4 bld=$5
  printf 'build_seconds %s\njobs %s\nhost %s\ndate %s\n' "$seconds" "$JOBS" \
    "$(uname -sm), $(nproc) cpus" "$(date -u +%FT%TZ)" >"$stage/build-time.txt"
  printf '%s\n' "$stamp" >"$stage/cryptobench-build.stamp"
  rm -rf "$prefix"
  mv "$stage" "$prefix"
  [[ ${KEEP_BUILD:-0} == 1 ]] || rm -rf "$bld"
}
