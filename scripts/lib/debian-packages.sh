# shellcheck shell=bash
# missing_debs PACKAGE...: those of the Debian packages that are not installed, one a line (setup.sh,
# the arm64 cross build and the wasm build's tool check each ask this of dpkg).
missing_debs() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s\n' "$p"
  done
}
