#!/usr/bin/env bash
# The drivers, as `make run` and `make test` want them (scripts/setup.sh runs this through
# scripts/cached-run). Exit status 1 when any could not be built: the others still work, and the
# next set-up tries again.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=0
echo "setup: building drivers"
.venv/bin/cryptobench build || failed=1
# the C driver on OpenSSL 3.6 (its library is built above: seconds), so `run --suite pq-ntor` measures
# the C handshakes after `make run` too; the other OpenSSL versions: `cryptobench build --all`
.venv/bin/cryptobench build c:openssl-3.6.3 || { echo "setup: c:openssl-3.6.3 could not be built (reason above)"; failed=1; }
# Any other OpenSSL version built before (`build --all`, `versions install`) is rebuilt from this
# source too (its library is cached: about a second each), so an updated checkout never measures
# with a stale plugin.
for so in drivers/c/build/plugins/libcb_openssl-*.so; do
  [ -e "$so" ] || continue
  v=${so##*/libcb_openssl-}
  v=${v%.so}
  [ "$v" = 3.6.3 ] || .venv/bin/cryptobench build "c:openssl@$v" >/dev/null ||
    { echo "setup: c:openssl@$v could not be rebuilt (reason above)"; failed=1; }
done
exit $failed
