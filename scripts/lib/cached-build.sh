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
