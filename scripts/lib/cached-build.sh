# shellcheck shell=bash
# The common ground of the cached library builds (OpenSSL, OpenSSL-wasm, liboqs): the cache root
# and job count from the environment (CRYPTOBENCH_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/cryptobench;
# JOBS, default nproc), the crate fetcher (crate_dir), the staged install (install_staged) and
# build_failed. Needs REPO; dies with the caller's `die`.
CACHE=${CRYPTOBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cryptobench}
JOBS=${JOBS:-$(nproc)}
# shellcheck source=scripts/lib/crate-source.sh
source "$REPO/scripts/lib/crate-source.sh"
# shellcheck source=scripts/lib/staged-install.sh
source "$REPO/scripts/lib/staged-install.sh"

# build_failed LOG WHAT: a build whose output went to LOG failed: its last 30 lines on stderr, then
# "WHAT: build failed (full log: LOG)" and exit.
build_failed() {
  tail -n 30 "$1" >&2
  die "$2: build failed (full log: $1)"
}

# script_help SCRIPT: a build script's --help, its header comment (line 2 up to `set -euo`).
script_help() {
  sed -n '2,/^set -euo/p' "$1" | sed '$d; s/^# \{0,1\}//'
}

# smoke_plugin PLUGIN PROVIDER PROTOCOL BENCH: the C driver (drivers/c/build/cbdriver) with PLUGIN
# as PROVIDER, asked hello at PROTOCOL and then the BENCH request (a JSON line); sets SMOKE_VERSION
# (the hello's library_version) and SMOKE_BENCH (the bench response line).
smoke_plugin() {
  local reply
  reply=$(printf '%s\n' "{\"cmd\":\"hello\",\"protocol\":$3}" "$4" |
    "$REPO/drivers/c/build/cbdriver" --plugin "$1" --provider "$2")
  SMOKE_BENCH=$(sed -n 2p <<<"$reply")
  SMOKE_VERSION=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["library_version"])' "$(sed -n 1p <<<"$reply")")
}

# build_option ARG: the options every cached build takes: --force (FORCE=1), --lib-only (LIB_ONLY=1),
# --no-test (NO_TEST=1; only in a script that defines NO_TEST) and -h/--help (script_help, then
# exit); false for any other argument.
build_option() {
  case $1 in
  --force) FORCE=1 ;;
  --lib-only) LIB_ONLY=1 ;;
  --no-test) [[ -v NO_TEST ]] && NO_TEST=1 ;;
  -h | --help)
    script_help "$0"
    exit 0
    ;;
  *) return 1 ;;
  esac
}
