# shellcheck shell=bash
# crate_dir NAME VERSION PROJECT_DIR: the directory of crates.io crate NAME at exactly VERSION,
# fetched by cargo into its registry (a throw-away cargo project in PROJECT_DIR depends on it; cargo
# fetch downloads it, cargo metadata says where it is). Used by the OpenSSL and liboqs builds,
# whose sources come vendored in crates (openssl-src, oqs-sys). Logs with the caller's `log`.
crate_dir() {
  local name=$1 version=$2 proj=$3
  mkdir -p "$proj/src"
  cat >"$proj/Cargo.toml" <<EOF
# Throw-away project of cryptobench's scripts: only here so that cargo fetches $name $version.
[package]
name = "cryptobench-$name-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$name = "=$version"

[workspace]
EOF
  : >"$proj/src/lib.rs"
  log "cargo fetch $name $version"
  cargo fetch --quiet --manifest-path "$proj/Cargo.toml" >&2
  local manifest
  manifest=$(cargo metadata --quiet --format-version 1 --manifest-path "$proj/Cargo.toml" |
    python3 -c 'import json, sys
d = json.load(sys.stdin)
print(next(p["manifest_path"] for p in d["packages"] if p["name"] == sys.argv[1]))' "$name")
  dirname "$manifest"
}
