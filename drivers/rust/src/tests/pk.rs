//! Public-key and post-quantum algorithms (protocol.md, since version 2):
//!
//! - every offered cell, prepared directly and through the bench request:
//!   output lengths, and what a randomised output can still be checked for
//!   with the cell's keys (a signature verifies, a ciphertext decrypts, an
//!   encapsulation decapsulates, a shared secret is the one `derive` gives);
//! - `keypair` → `verify` exchanges through the request handler, exactly
//!   as `cryptobench/verify/cross_checks.py` runs them: within each provider and
//!   between every ordered pair of the three (e.g. ring verifies
//!   RustCrypto's P-256 signatures, AWS-LC decapsulates RustCrypto's ML-KEM
//!   ciphertexts); a one-bit-flipped signature or ciphertext is rejected, a
//!   wrong key decapsulates to another secret.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Value};

use super::{call, driver, drivers, pq_only};
use crate::input::{checksum, decode_hex, encode_hex, message};
use crate::ops::{Alg, Case, CellParams, Failure, Op};
use crate::Driver;

const SEED: u32 = 2654435769;

fn rsa_bits(alg: &str) -> Option<usize> {
    alg.strip_prefix("rsa-")?.get(..4)?.parse().ok()
}

/// The range of lengths one operation's output may have.
fn out_len(alg: &str, op: Op, size: usize) -> (usize, usize) {
    let exact = |n| (n, n);
    if let Some(bits) = rsa_bits(alg) {
        return match op {
            Op::Keygen => exact(match bits {
                2048 => 294,
                3072 => 422,
                _ => 550,
            }),
            Op::Sign | Op::Encrypt => exact(bits / 8),
            Op::Verify => exact(1),
            Op::Decrypt => exact(size),
            _ => panic!("{alg} {op:?}"),
        };
    }
    let mlkem = |n: &str| match n {
        "512" => (800, 768),
        "768" => (1184, 1088),
        _ => (1568, 1568),
    };
    let mldsa = |n: &str| match n {
        "44" => (1312, 2420),
        "65" => (1952, 3309),
        _ => (2592, 4627),
    };
    // (public key, signature or shared secret: min..max)
    let ec = |spki: usize, field: usize| match op {
        Op::Keygen => exact(spki),
        Op::Sign => (8, 2 * field + 8),
        Op::Derive => exact(field),
        _ => panic!("{alg} {op:?}"),
    };
    // SLH-DSA (FIPS 205 table 2): (public key 2n, signature)
    let slhdsa = |set: &str| match set {
        "128s" => (32, 7856),
        "128f" => (32, 17088),
        "192s" => (48, 16224),
        "192f" => (48, 35664),
        "256s" => (64, 29792),
        _ => (64, 49856),
    };
    // HQC v5.0.0 (backbone-hqc): (public key, ciphertext)
    let hqc = |level: &str| match level {
        "1" => (2241, 4433),
        "3" => (4514, 8978),
        _ => (7237, 14421),
    };
    let slh_set = alg.rsplit('-').next().unwrap_or("");
    match (alg, op) {
        (_, Op::Verify) => exact(1),
        (a, Op::Keygen) if a.starts_with("slh-dsa-") => exact(slhdsa(slh_set).0),
        (a, Op::Sign) if a.starts_with("slh-dsa-") => exact(slhdsa(slh_set).1),
        ("x-wing", Op::Keygen) => exact(1216),
        ("x-wing", Op::Encaps) => exact(1120 + 32),
        (_, Op::Decaps) => exact(32),
        (a, Op::Keygen) if a.starts_with("hqc-") => exact(hqc(&a[4..]).0),
        (a, Op::Encaps) if a.starts_with("hqc-") => exact(hqc(&a[4..]).1 + 32),
        (a, Op::Encaps) if a.starts_with("ml-kem-") => exact(mlkem(&a[7..]).1 + 32),
        (a, Op::Keygen) if a.starts_with("ml-kem-") => exact(mlkem(&a[7..]).0),
        (a, Op::Keygen) if a.starts_with("ml-dsa-") => exact(mldsa(&a[7..]).0),
        (a, Op::Sign) if a.starts_with("ml-dsa-") => exact(mldsa(&a[7..]).1),
        ("ed25519", Op::Sign) => exact(64),
        ("ed25519" | "x25519", Op::Keygen | Op::Derive) => exact(32),
        ("ecdsa-p256" | "ecdh-p256" | "sm2", _) => ec(91, 32),
        ("ecdsa-p384" | "ecdh-p384", _) => ec(120, 48),
        ("ecdsa-secp256k1" | "ecdh-secp256k1", _) => ec(88, 32),
        _ => panic!("no output length for {alg} {op:?}"),
    }
}

/// SLH-DSA sets other than 128f sign in 0.3 to 15 s (pure Rust, loaded
/// 2-core machine): the sweeps below skip them; `slh_dsa_and_x_wing`
/// gives all twelve the cheap checks.
fn slow(alg: &str) -> bool {
    alg.starts_with("slh-dsa-") && !alg.ends_with("-128f")
}

fn exec(a: &Alg, c: Case) -> Result<Vec<u8>, Failure> {
    (a.exec)(&c)
}

/// Checks one cell made directly (keys known) and returns its output.
fn check_cell(pid: &str, a: &Alg, op: Op, size: usize) -> Vec<u8> {
    let what = format!("{pid} {} {} size {size}", a.name, op.name());
    let p = CellParams {
        op,
        key: &[],
        iv: &[],
        seed: SEED,
        size: if op.takes_message() { size } else { 0 },
        chunk: 0,
        tls: None,
    };
    let msg = message(SEED, p.size);
    let mut cell = (a.new_cell)(&p).unwrap_or_else(|e| panic!("{what}: {e}"));
    let sum = cell.checksum();
    if op != Op::Keygen || rsa_bits(a.name).is_none() {
        cell.run();
    }
    assert_eq!(cell.err(), None, "{what}");
    let out = cell.output().to_vec();
    let (lo, hi) = out_len(a.name, op, p.size);
    assert!(
        (lo..=hi).contains(&out.len()),
        "{what}: output of {} bytes, want {lo}..={hi}",
        out.len()
    );
    if op == Op::Keygen || lo == hi {
        assert!(
            sum.starts_with(&format!("{:08x}:", out.len())),
            "{what}: {sum}"
        );
    }
    if op == Op::Keygen {
        assert!(
            cell.keys().is_none(),
            "{what}: keygen cells have no fixed keys"
        );
        return out;
    }
    let k = cell.keys().unwrap_or_else(|| panic!("{what}: no keys"));
    let ok = |r: Result<Vec<u8>, Failure>| r.unwrap_or_else(|e| panic!("{what}: {e:?}"));
    // decrypt, decapsulate: the case that undoes the cell's output with its private key
    let undo = |op: Op, msg: Vec<u8>| {
        let c = Case {
            op,
            private: k.private.clone(),
            msg,
            ..Default::default()
        };
        ok(exec(a, c))
    };
    match op {
        Op::Sign => {
            let v = exec(
                a,
                Case {
                    op: Op::Verify,
                    public: k.public.clone(),
                    msg: msg.clone(),
                    sig: out.clone(),
                    ..Default::default()
                },
            );
            assert_eq!(ok(v), vec![1], "{what}: the cell's signature verifies");
        }
        Op::Verify => assert_eq!(out, vec![1], "{what}"),
        Op::Encrypt => {
            let d = undo(Op::Decrypt, out.clone());
            assert_eq!(d, msg, "{what}: the cell's ciphertext decrypts");
        }
        Op::Decrypt => assert_eq!(out, msg, "{what}"),
        Op::Encaps if !k.private.is_empty() => {
            let (ct, key) = out.split_at(out.len() - 32);
            let d = undo(Op::Decaps, ct.to_vec());
            assert_eq!(d, key, "{what}: the cell's encapsulation decapsulates");
        }
        Op::Derive => {
            let d = exec(
                a,
                Case {
                    op: Op::Derive,
                    private: k.private.clone(),
                    public: k.peer.clone(),
                    ..Default::default()
                },
            );
            assert_eq!(ok(d), out, "{what}: derive from the cell's keys");
        }
        _ => {}
    }
    out
}

fn bench_line(alg: &str, op: Op, size: usize, batch: u64, samples: u64) -> String {
    json!({
        "cmd": "bench", "alg": alg, "op": op.name(), "size": size, "seed": SEED,
        "batch": batch, "target_ns": 200_000, "warmup_ns": if batch == 1 { 0 } else { 200_000 },
        "samples": samples,
    })
    .to_string()
}

/// Every public-key cell of every provider: directly (outputs checked with
/// the cell's keys) and, except the slow RSA-3072/4096 set-ups, through the
/// bench request (RSA keygen as the orchestrator asks for it: batch 1).
#[test]
fn pk_cells() {
    for d in drivers() {
        let pid = d.prov.id();
        for a in d.prov.algs().iter().filter(|a| a.keypair.is_some()) {
            if slow(a.name) {
                continue;
            }
            for &op in a.ops {
                let sizes: &[usize] = if !op.takes_message() {
                    &[0]
                } else if rsa_bits(a.name).is_some() {
                    &[32]
                } else {
                    &[32, 0, 1000]
                };
                let slow = rsa_bits(a.name).is_some_and(|b| b > 2048);
                // RSA-3072/4096 keygen: the bench below checks the output's length (a
                // direct cell would make one more key of seconds for the same check)
                if !(slow && op == Op::Keygen) {
                    for &size in sizes {
                        check_cell(pid, a, op, size);
                    }
                }
                if slow && op != Op::Keygen {
                    continue;
                }
                let keygen = op == Op::Keygen && rsa_bits(a.name).is_some();
                let size = if op.takes_message() { 32 } else { 0 };
                // RSA-3072/4096 keygen: seconds per key in pure Rust, so one sample
                let (batch, samples) = match (keygen, slow) {
                    (true, true) => (1, 1),
                    (true, false) => (1, 2),
                    _ => (0, 3),
                };
                let what = format!("{pid} {} {} bench", a.name, op.name());
                let r = call(&d, &bench_line(a.name, op, size, batch, samples));
                assert_eq!(r["ok"], true, "{what}: {r}");
                let n = r["samples_ns"].as_array().expect("samples").len() as u64;
                assert_eq!(n, samples, "{what}");
                if keygen {
                    assert_eq!(r["batch"], 1, "{what}: batch 1 honoured");
                }
                let sum = r["checksum"].as_str().unwrap();
                let len = usize::from_str_radix(&sum[..8], 16).unwrap();
                let (lo, hi) = out_len(a.name, op, size);
                assert!((lo..=hi).contains(&len), "{what}: checksum {sum}");
                if op == Op::Verify {
                    assert_eq!(sum, checksum(&[1]), "{what}");
                }
            }
        }
    }
}

/// A fixed batch is honoured exactly, and an OAEP message that does not fit
/// is "not offered at this size".
#[test]
fn pk_bench_batch_and_sizes() {
    for d in drivers() {
        let (alg, op, size) = if pq_only(&d) {
            ("hqc-1", Op::Encaps, 0)
        } else {
            ("ecdsa-p256", Op::Sign, 32)
        };
        let r = call(&d, &bench_line(alg, op, size, 3, 2));
        assert_eq!(r["batch"], 3, "{}: {r}", d.prov.id());
        if d.prov.alg("rsa-2048-oaep").is_some() {
            let r = call(&d, &bench_line("rsa-2048-oaep", Op::Encrypt, 191, 1, 1));
            let err = r["error"].as_str().unwrap_or("");
            assert!(err.starts_with("not offered at this size:"), "{r}");
            let r = call(&d, &bench_line("rsa-2048-oaep", Op::Decrypt, 190, 1, 1));
            assert_eq!(r["ok"], true, "{r}");
        }
    }
}

// ---- exchanges through the request handler ----------------------------------

const MSG_LEN: usize = 32;

fn hex_msg() -> String {
    encode_hex(&message(SEED, MSG_LEN))
}

fn keypair(d: &Driver, alg: &str) -> (String, String) {
    let r = call(d, &json!({"cmd": "keypair", "alg": alg}).to_string());
    assert_eq!(r["ok"], true, "{} keypair {alg}: {r}", d.prov.id());
    let hex = |k: &str| {
        let s = r[k].as_str().unwrap().to_string();
        decode_hex(k, &s).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.is_empty(), "{} keypair {alg}: empty {k}", d.prov.id());
        s
    };
    (hex("public"), hex("private"))
}

/// One case through the verify request; the result object.
fn case(d: &Driver, alg: &str, op: &str, fields: Value) -> Value {
    let mut c = json!({"id": "x#1", "op": op});
    c.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    let r = call(
        d,
        &json!({"cmd": "verify", "alg": alg, "cases": [c]}).to_string(),
    );
    assert_eq!(r["ok"], true, "{} {alg} {op}: {r}", d.prov.id());
    r["results"][0].clone()
}

fn flip(h: &str) -> String {
    let mut b = decode_hex("x", h).unwrap();
    let i = b.len() / 2;
    b[i] ^= 1;
    encode_hex(&b)
}

fn out(r: &Value) -> &str {
    r["out"].as_str().unwrap_or("")
}

/// The `nth` key pair of (provider, alg), made once per test process (RSA-3072/4096
/// key generation takes seconds in pure Rust): `pk_crosscheck` and
/// `pk_rejects_and_unsupported` need the same valid pairs, which `keypair` checks
/// when it makes them. Above 2048 bits the first RSA pair of a size serves every
/// variant of that size (rsa-N, -pss, -pkcs1, -oaep: the same PKCS#8 / SPKI key, as
/// the C driver's crosscheck.py has it); every variant makes its own at 2048.
fn shared_pair(d: &Driver, alg: &str, nth: u8) -> (String, String) {
    type Slot = Arc<OnceLock<(String, String)>>;
    type Made = HashMap<(String, String, u8), Slot>;
    static PAIRS: OnceLock<Mutex<Made>> = OnceLock::new();
    let key = match rsa_bits(alg) {
        Some(bits) if bits > 2048 => format!("rsa-{bits}"),
        _ => alg.to_string(),
    };
    let slot = PAIRS
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry((d.prov.id().to_string(), key, nth))
        .or_default()
        .clone();
    slot.get_or_init(|| keypair(d, alg)).clone()
}

/// The providers of an exchange and their key pairs.
struct Pairs<'a> {
    ds: &'a [Driver],
}

impl Pairs<'_> {
    fn get(&mut self, i: usize, alg: &str, nth: u8) -> (String, String) {
        shared_pair(&self.ds[i], alg, nth)
    }
}

/// What `p` produces, `q` accepts (crosscheck.py's checks); the failures.
fn exchange(pairs: &mut Pairs, pi: usize, qi: usize, a: &Alg) -> Vec<String> {
    let (p, q) = (&pairs.ds[pi], &pairs.ds[qi]);
    let (alg, msg) = (a.name, hex_msg());
    let tag = format!("{alg} {} -> {}", p.prov.id(), q.prov.id());
    let mut bad = Vec::new();
    let mut check = |ok: bool, what: &str, detail: &Value| {
        if !ok {
            bad.push(format!("{tag}: {what}: {detail}"));
        }
    };
    if a.offers(Op::Sign) {
        let (public, private) = pairs.get(pi, alg, 0);
        let s = case(p, alg, "sign", json!({"private": private, "msg": msg}));
        check(!out(&s).is_empty(), "sign", &s);
        let v = case(
            q,
            alg,
            "verify",
            json!({"public": public, "msg": msg, "sig": out(&s)}),
        );
        check(out(&v) == "01", "signature verifies", &v);
        let v = case(
            q,
            alg,
            "verify",
            json!({"public": public, "msg": msg, "sig": flip(out(&s))}),
        );
        check(v["rejected"] == true, "corrupted signature rejected", &v);
    } else if a.offers(Op::Derive) {
        let (pp, ps) = pairs.get(pi, alg, 0);
        let (qp, qs) = pairs.get(qi, alg, if pi == qi { 1 } else { 0 });
        let x = case(p, alg, "derive", json!({"private": ps, "public": qp}));
        let y = case(q, alg, "derive", json!({"private": qs, "public": pp}));
        check(
            !out(&x).is_empty() && out(&x) == out(&y),
            "shared secrets agree",
            &json!([x, y]),
        );
    } else if a.offers(Op::Encaps) {
        let (qp, qs) = pairs.get(qi, alg, 0);
        let (_, other) = pairs.get(pi, alg, 1);
        let e = case(p, alg, "encaps", json!({"public": qp}));
        let ctk = out(&e);
        check(ctk.len() > 64, "encaps", &e);
        let (ct, k) = ctk.split_at(ctk.len().saturating_sub(64));
        let d = case(q, alg, "decaps", json!({"private": qs, "msg": ct}));
        check(out(&d) == k, "decapsulates to the same key", &d);
        let w = case(q, alg, "decaps", json!({"private": other, "msg": ct}));
        check(
            w["rejected"] == true || (!out(&w).is_empty() && out(&w) != k),
            "a wrong key gives another key",
            &w,
        );
    } else if a.offers(Op::Encrypt) {
        let (qp, qs) = pairs.get(qi, alg, 0);
        let e = case(p, alg, "encrypt", json!({"public": qp, "msg": msg}));
        let d = case(q, alg, "decrypt", json!({"private": qs, "msg": out(&e)}));
        check(out(&d) == msg, "ciphertext decrypts", &d);
        let d = case(
            q,
            alg,
            "decrypt",
            json!({"private": qs, "msg": flip(out(&e))}),
        );
        check(d["rejected"] == true, "corrupted ciphertext rejected", &d);
    } else if a.offers(Op::Keygen) {
        // rsa-N: the key pair signs and verifies under another provider
        let sig_alg = format!("{alg}-pkcs1");
        if q.prov.alg(&sig_alg).is_some() {
            let (public, private) = pairs.get(pi, alg, 0);
            let s = case(q, &sig_alg, "sign", json!({"private": private, "msg": msg}));
            let v = case(
                q,
                &sig_alg,
                "verify",
                json!({"public": public, "msg": msg, "sig": out(&s)}),
            );
            check(out(&v) == "01", "key pair signs and verifies", &v);
        }
    } else {
        bad.push(format!("{tag}: no exchange for ops {:?}", a.ops));
    }
    bad
}

/// Within each provider and between every ordered pair of providers.
#[test]
fn pk_crosscheck() {
    let ds = drivers();
    let mut pairs = Pairs { ds: &ds };
    let mut failures = Vec::new();
    let mut done: Vec<(String, String, String)> = Vec::new();
    for pi in 0..ds.len() {
        for a in ds[pi].prov.algs().iter().filter(|a| a.keypair.is_some()) {
            if slow(a.name) {
                continue;
            }
            for qi in 0..ds.len() {
                if let Some(b) = ds[qi].prov.alg(a.name) {
                    // the consumer's own catalogue entry decides the checks
                    let ops_match = a.ops.iter().any(|&o| b.offers(o));
                    assert!(ops_match, "{}: no common op", a.name);
                    failures.extend(exchange(&mut pairs, pi, qi, a));
                    done.push((
                        a.name.to_string(),
                        ds[pi].prov.id().to_string(),
                        ds[qi].prov.id().to_string(),
                    ));
                }
            }
        }
    }
    let has =
        |alg: &str, p: &str, q: &str| done.iter().any(|(a, x, y)| a == alg && x == p && y == q);
    assert!(has("ecdsa-p256", "rust:rustcrypto", "rust:ring"));
    assert!(has("ml-kem-768", "rust:rustcrypto", "rust:aws-lc-rs"));
    assert!(has("ml-kem-768", "rust:aws-lc-rs", "rust:rustcrypto"));
    assert!(has("rsa-2048-pss", "rust:ring", "rust:rustcrypto"));
    println!("{} exchanges", done.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Malformed inputs are `rejected`, never errors or panics; variants an API
/// lacks are `unsupported`.
#[test]
fn pk_rejects_and_unsupported() {
    for d in drivers() {
        let pid = d.prov.id();
        for a in d.prov.algs().iter().filter(|a| a.keypair.is_some()) {
            let alg = a.name;
            if slow(alg) {
                continue;
            }
            let (public, private) = shared_pair(&d, alg, 0);
            let mut cases: Vec<(&str, Value)> = vec![];
            if a.offers(Op::Verify) {
                cases.push(("verify", json!({"public": "00", "msg": "", "sig": "00"})));
                cases.push((
                    "verify",
                    json!({"public": public, "msg": "", "sig": "3000"}),
                ));
            }
            if a.offers(Op::Sign) {
                cases.push(("sign", json!({"private": "0001", "msg": ""})));
            }
            if a.offers(Op::Derive) {
                cases.push(("derive", json!({"private": private, "public": "0400"})));
            }
            if a.offers(Op::Decrypt) {
                cases.push(("decrypt", json!({"private": private, "msg": "00"})));
                cases.push(("decrypt", json!({"private": "3000", "msg": "00"})));
            }
            if a.offers(Op::Encaps) {
                cases.push(("encaps", json!({"public": "00"})));
                cases.push(("decaps", json!({"private": private, "msg": "00"})));
            }
            for (op, fields) in cases {
                let r = case(&d, alg, op, fields.clone());
                assert!(
                    r["rejected"] == true || r.get("unsupported").is_some(),
                    "{pid} {alg} {op} {fields}: {r}"
                );
            }
        }
        if let Some(a) = d.prov.alg("ml-dsa-65") {
            let (_, private) = keypair(&d, a.name);
            let r = case(
                &d,
                a.name,
                "sign",
                json!({"private": private, "msg": "00", "deterministic": true, "ctx": "01"}),
            );
            let fine = if pid == "rust:aws-lc-rs" {
                r["unsupported"].is_string()
            } else {
                r["out"].is_string()
            };
            assert!(fine, "{pid}: {r}");
        }
    }
}

/// rust:rustcrypto's SLH-DSA and X-Wing beyond the sweeps: keygen from the
/// seed reproduces `keypair`'s public key, deterministic signing
/// (opt_rand = PK.seed) and encapsulation (a given eseed) are repeatable
/// and differ from the hedged/random ones, contexts bind; every one of the
/// twelve SLH-DSA sets refuses malformed seeds, keys and signatures.
#[test]
fn slh_dsa_and_x_wing() {
    let d = driver("rust:rustcrypto");
    let sets: Vec<&str> = d
        .prov
        .algs()
        .iter()
        .map(|a| a.name)
        .filter(|n| n.starts_with("slh-dsa-"))
        .collect();
    assert_eq!(sets.len(), 12, "{sets:?}");
    for alg in &sets {
        let n = out_len(alg, Op::Keygen, 0).0 / 2;
        for (op, fields) in [
            ("keygen", json!({"seed": "00".repeat(3 * n - 1)})),
            ("sign", json!({"private": "0001", "msg": ""})),
            (
                "verify",
                json!({"public": "00".repeat(2 * n), "msg": "", "sig": "00"}),
            ),
            ("verify", json!({"public": "00", "msg": "", "sig": "00"})),
        ] {
            let r = case(&d, alg, op, fields.clone());
            assert_eq!(r["rejected"], true, "{alg} {op} {fields}: {r}");
        }
    }
    let msg = hex_msg();
    for alg in ["slh-dsa-sha2-128f", "slh-dsa-shake-128f"] {
        let (public, private) = keypair(&d, alg);
        assert_eq!(
            private.len(),
            4 * 16 * 2,
            "{alg}: SK.seed||SK.prf||PK.seed||PK.root"
        );
        assert_eq!(
            &private[64..],
            public,
            "{alg}: the private key ends with the public key"
        );
        let k = case(&d, alg, "keygen", json!({"seed": &private[..96]}));
        assert_eq!(out(&k), public, "{alg}: keygen from the seed");
        let sign = |det: bool, ctx: &str| {
            let r = case(
                &d,
                alg,
                "sign",
                json!({"private": private, "msg": msg, "deterministic": det, "ctx": ctx}),
            );
            out(&r).to_string()
        };
        let (d1, d2, h) = (sign(true, ""), sign(true, ""), sign(false, ""));
        assert_eq!(d1, d2, "{alg}: deterministic signing repeats");
        assert_ne!(d1, h, "{alg}: hedged signing draws opt_rand");
        // the signature's first n bytes are R = PRF_msg(SK.prf, opt_rand, M')
        let c = sign(true, "01");
        assert_ne!(c[..32], d1[..32], "{alg}: the context is signed");
        let v = |sig: &str, ctx: &str| {
            case(
                &d,
                alg,
                "verify",
                json!({"public": public, "msg": msg, "sig": sig, "ctx": ctx}),
            )
        };
        assert_eq!(out(&v(&c, "01")), "01", "{alg}");
        assert_eq!(v(&c, "")["rejected"], true, "{alg}: context mismatch");
        assert_eq!(out(&v(&h, "")), "01", "{alg}");
    }

    let (public, private) = keypair(&d, "x-wing");
    assert_eq!((public.len(), private.len()), (2 * 1216, 2 * 32));
    let k = case(&d, "x-wing", "keygen", json!({"seed": private}));
    assert_eq!(out(&k), public, "x-wing: keygen from the seed");
    let eseed = "5a".repeat(64);
    let e1 = case(
        &d,
        "x-wing",
        "encaps",
        json!({"public": public, "m": eseed}),
    );
    let e2 = case(
        &d,
        "x-wing",
        "encaps",
        json!({"public": public, "m": eseed}),
    );
    let e3 = case(&d, "x-wing", "encaps", json!({"public": public}));
    assert_eq!(out(&e1).len(), 2 * (1120 + 32), "{e1}");
    assert_eq!(
        out(&e1),
        out(&e2),
        "x-wing: deterministic encapsulation repeats"
    );
    assert_ne!(out(&e1), out(&e3), "x-wing: random encapsulation");
    let (ct, key) = out(&e1).split_at(2 * 1120);
    let dk = case(
        &d,
        "x-wing",
        "decaps",
        json!({"private": private, "msg": ct}),
    );
    assert_eq!(out(&dk), key, "x-wing: decapsulates");
    let short = case(&d, "x-wing", "encaps", json!({"public": public, "m": "5a"}));
    assert_eq!(short["rejected"], true, "x-wing: a short eseed: {short}");
}

/// X-Wing's first test vector of draft-connolly-cfrg-xwing-kem-06 (as the
/// x-wing crate ships it): the public key from the 32-byte seed `sk`, the
/// ciphertext and shared secret of the encapsulation with `eseed`, the
/// decapsulation. The 1216-byte key and 1120-byte ciphertext are compared
/// by their SHA-256.
#[test]
fn x_wing_draft_vector() {
    use sha2::{Digest, Sha256};
    let d = driver("rust:rustcrypto");
    let sk = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
    let eseed = "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e2\
                 35b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2";
    let ss = "d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384";
    let sha = |h: &str| encode_hex(&Sha256::digest(decode_hex("x", h).unwrap()));
    let pk = case(&d, "x-wing", "keygen", json!({"seed": sk}));
    let pk = out(&pk);
    assert_eq!(
        sha(pk),
        "2e816deebcd76c5c80d0cd2d174478871658e8e2ff42bc9d4a6e486372e856bb"
    );
    let e = case(&d, "x-wing", "encaps", json!({"public": pk, "m": eseed}));
    let (ct, key) = out(&e).split_at(2 * 1120);
    assert_eq!(
        sha(ct),
        "17cd532d657e44c897ca6583e548a5424fc70bf54f99515a4d2bcf99e3469f33"
    );
    assert_eq!(key, ss);
    let k = case(&d, "x-wing", "decaps", json!({"private": sk, "msg": ct}));
    assert_eq!(out(&k), ss);
}
