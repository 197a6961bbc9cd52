//! Records what the binary is built from, for `hello`:
//!
//! - `CB_LOCKED_VERSIONS`: `name version` of every package in Cargo.lock
//!   (comma-separated). The build runs with `--locked`, so these are the
//!   crate versions actually compiled in; `ops::locked_version` reads them.
//! - `CB_RUSTC`: `rustc -V` of the compiler building this crate.
//! - `CB_BUILD`: target triple, profile, opt-level, target features the
//!   code generator may assume, and RUSTFLAGS if any were set.
//! - `CB_PROFILE_SETTINGS`: the `[profile.release]` lines of Cargo.toml
//!   (LTO, codegen units, ... are not visible to a build script otherwise).

use std::env;
use std::fs;
use std::path::Path;
use std::process::Command;

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let lock_path = Path::new(&dir).join("Cargo.lock");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");

    let lock = fs::read_to_string(&lock_path).expect("Cargo.lock (build with --locked)");
    let locked = locked_versions(&lock);
    println!("cargo:rustc-env=CB_LOCKED_VERSIONS={locked}");
    println!(
        "cargo:rustc-env=CB_DIRECT_VERSIONS={}",
        direct_versions(&lock)
    );
    // `rust:ring@0.16.x` (docs/versions.md) builds this crate against ring 0.16, whose API
    // differs in two calls; ring_pk.rs picks them by this cfg.
    println!("cargo::rustc-check-cfg=cfg(ring_016)");
    if locked.split(',').any(|p| p.starts_with("ring 0.16.")) {
        println!("cargo:rustc-cfg=ring_016");
    }

    let manifest = fs::read_to_string(Path::new(&dir).join("Cargo.toml")).expect("Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!(
        "cargo:rustc-env=CB_PROFILE_SETTINGS={}",
        profile_settings(&manifest, "release")
    );

    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(&rustc)
        .arg("-V")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc (version unknown)".into());
    println!("cargo:rustc-env=CB_RUSTC={version}");

    let var = |k: &str| env::var(k).unwrap_or_default();
    let mut build = format!(
        "{} profile={} opt-level={} target-features={}",
        var("TARGET"),
        var("PROFILE"),
        var("OPT_LEVEL"),
        var("CARGO_CFG_TARGET_FEATURE")
    );
    let flags = var("CARGO_ENCODED_RUSTFLAGS").replace('\x1f', " ");
    if !flags.trim().is_empty() {
        build.push_str(&format!(" RUSTFLAGS={}", flags.trim()));
    }
    println!("cargo:rustc-env=CB_BUILD={build}");
}

/// `name version` pairs of Cargo.lock's `[[package]]` entries.
fn locked_versions(lock: &str) -> String {
    let mut out = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            name = None;
        } else if let Some(v) = line.strip_prefix("name = ") {
            name = Some(v.trim_matches('"').to_string());
        } else if let Some(v) = line.strip_prefix("version = ") {
            if let Some(n) = name.take() {
                out.push(format!("{n} {}", v.trim_matches('"')));
            }
        }
    }
    out.join(",")
}

/// The `name version` entries of this crate's own dependency list in
/// Cargo.lock: Cargo writes the version there only for a crate locked twice
/// (`rust:ring@0.16` beside the ring 0.17 that rustls needs), and then it
/// says which of the two this crate itself links.
fn direct_versions(lock: &str) -> String {
    let mut out = Vec::new();
    let (mut ours, mut deps) = (false, false);
    for line in lock.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            (ours, deps) = (false, false);
        } else if line == "name = \"cbdriver-rust\"" {
            ours = true;
        } else if ours && line.starts_with("dependencies = [") {
            deps = true;
        } else if ours && deps {
            if line.starts_with(']') {
                deps = false;
            } else if let Some((n, v)) = line.trim_matches([' ', '"', ',']).split_once(' ') {
                out.push(format!("{n} {v}"));
            }
        }
    }
    out.join(",")
}

/// The `key = value` lines of `[profile.<name>]` in Cargo.toml, joined by
/// "; " ("cargo defaults" when there is no such section).
fn profile_settings(manifest: &str, name: &str) -> String {
    let header = format!("[profile.{name}]");
    let mut settings = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == header;
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            settings.push(line.to_string());
        }
    }
    if settings.is_empty() {
        "cargo defaults".into()
    } else {
        settings.join("; ")
    }
}
