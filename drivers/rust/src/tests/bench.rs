//! One small bench request per offered algorithm/op through the request
//! handler, for every provider, checked against a one-shot computation by
//! the case executor; plus the error paths and the request loop.

use serde_json::Value;

use super::{call, drivers, pq_only};
use crate::input::{self, checksum, encode_hex, message, PATTERN_LEN};
use crate::ops::{self, Alg, CellParams, Op};
use crate::protocol::{RawCase, PROTOCOL_VERSION};
use crate::{run_case, Driver};

const SEED: u32 = 2654435769;

/// A key and IV of the right lengths for an algorithm.
pub(super) fn key_iv(alg: &str) -> (String, String) {
    let key_len =
        if alg.starts_with("aes-128-") || alg.starts_with("sm4-") || alg == "ascon-aead128" {
            16
        } else if alg.starts_with("aes-256-") || alg.contains("chacha20") || alg == "hmac-sha256" {
            32
        } else {
            0
        };
    let iv_len = if alg.ends_with("-cbc") || alg.ends_with("-ctr") || alg == "ascon-aead128" {
        16
    } else if alg.starts_with("xchacha20") {
        24
    } else if alg.ends_with("-gcm") || alg.ends_with("-ccm") || alg.starts_with("chacha20") {
        12
    } else {
        0
    };
    let k: Vec<u8> = (0..key_len).map(|i| 0x10 + i as u8).collect();
    let v: Vec<u8> = (0..iv_len).map(|i| 0xa0 + i as u8).collect();
    (encode_hex(&k), encode_hex(&v))
}

fn bench_line(alg: &str, op: &str, key: &str, iv: &str, size: usize, chunk: usize) -> String {
    serde_json::json!({
        "cmd": "bench", "alg": alg, "op": op, "size": size, "chunk": chunk,
        "key": key, "iv": iv, "seed": SEED, "batch": 0,
        "target_ns": 200_000, "warmup_ns": 200_000, "samples": 3,
    })
    .to_string()
}

/// A bench request for one operation's checksum (batch 1, one sample, no
/// warm-up time or calibration target), as cross-checks ask it: the sizes of
/// a megabyte and more, where sample counts and calibration (checked at
/// 1 KiB) would only repeat the operation.
fn checksum_line(alg: &str, op: Op, key: &str, iv: &str, size: usize, chunk: usize) -> String {
    let mut line: Value =
        serde_json::from_str(&bench_line(alg, op.name(), key, iv, size, chunk)).unwrap();
    for (k, v) in [
        ("batch", 1),
        ("samples", 1),
        ("target_ns", 0),
        ("warmup_ns", 0),
    ] {
        line[k] = v.into();
    }
    line.to_string()
}

/// The output of one operation without the bench cell: the verify case
/// executor for the forward direction, the plaintext itself for
/// decrypt/open.
fn expected(a: &Alg, op: Op, key: &str, iv: &str, msg: &[u8]) -> String {
    match op {
        Op::Noop => return checksum(&[]),
        Op::Decrypt | Op::Open => return checksum(msg),
        _ => {}
    }
    let r = run_case(
        a,
        &RawCase {
            id: "x".into(),
            op: op.name().into(),
            key: key.into(),
            iv: iv.into(),
            msg: encode_hex(msg),
            ..Default::default()
        },
    );
    let out = r.out.clone().unwrap_or_else(|| panic!("executor: {r:?}"));
    checksum(&crate::input::decode_hex("out", &out).unwrap())
}

fn check_ok(r: &Value, what: &str, want: &str) {
    check_ok_n(r, what, want, 3);
}

/// `check_ok` of a request for `n` samples.
fn check_ok_n(r: &Value, what: &str, want: &str, n: usize) {
    assert_eq!(r["ok"], true, "{what}: {r}");
    let samples = r["samples_ns"].as_array().expect("samples_ns");
    assert_eq!(samples.len(), n, "{what}: samples");
    assert!(
        samples.iter().all(|s| s.as_u64().is_some_and(|s| s > 0)),
        "{what}: samples {samples:?}"
    );
    assert!(r["batch"].as_u64().is_some_and(|b| b > 0), "{what}: batch");
    assert_eq!(
        r["checksum"], want,
        "{what}: checksum vs one-shot computation"
    );
    assert!(r["sink"].is_u64(), "{what}: sink");
    assert!(
        r["warmup"]["ops"].as_u64().is_some_and(|n| n >= 1),
        "{what}: warmup"
    );
    assert!(r["warmup"]["ns"].is_u64(), "{what}: warmup ns");
    assert!(
        r["peak_rss_kb"].as_u64().is_some_and(|k| k > 0),
        "{what}: peak_rss_kb"
    );
}

fn is_block_mode(alg: &str) -> bool {
    alg.ends_with("-ecb") || alg.ends_with("-cbc")
}

/// Public-key algorithms have their own bench test (`pk.rs`).
pub(super) fn is_pk(a: &Alg) -> bool {
    a.keypair.is_some()
}

#[test]
fn bench_every_offer() {
    const SIZE: usize = 1024;
    let msg = message(SEED, SIZE);
    for d in drivers() {
        for a in d.prov.algs().iter().filter(|a| !is_pk(a)) {
            for &op in a.ops {
                let (key, iv) = key_iv(a.name);
                let want = expected(a, op, &key, &iv, &msg);
                let mut chunks = vec![0];
                if a.stream {
                    chunks.extend([48, 4096]);
                    if !is_block_mode(a.name) {
                        chunks.push(1000); // ECB/CBC pieces are whole blocks
                    }
                }
                for chunk in chunks {
                    let what = format!("{} {} {} chunk {chunk}", d.prov.id(), a.name, op.name());
                    let r = call(&d, &bench_line(a.name, op.name(), &key, &iv, SIZE, chunk));
                    check_ok(&r, &what, &want);
                }
            }
        }
    }
}

#[test]
fn bench_known_checksum() {
    for d in drivers() {
        if pq_only(&d) {
            let r = call(&d, &bench_line("sha256", "hash", "", "", 1024, 0));
            assert_eq!(r["ok"], false, "{}: {r}", d.prov.id());
        } else {
            known_sha256_checksum(&d);
        }
        let r = call(
            &d,
            r#"{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":1,"batch":7,"samples":2}"#,
        );
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["batch"], 7, "{r}");
        assert_eq!(r["checksum"], "00000000:cbf29ce484222325", "{r}");
        assert_eq!(r["samples_ns"].as_array().map(Vec::len), Some(2), "{r}");
    }
}

fn known_sha256_checksum(d: &Driver) {
    for chunk in [0, 100] {
        let r = call(d, &bench_line("sha256", "hash", "", "", 1024, chunk));
        assert_eq!(
            r["checksum"],
            "00000020:fb4898be6151a393",
            "{} chunk {chunk}: {r}",
            d.prov.id()
        );
    }
}

/// Sizes with odd tails, one-shot, for the algorithms that allow them.
#[test]
fn bench_odd_sizes() {
    for d in drivers() {
        for a in d.prov.algs() {
            if is_block_mode(a.name) || a.name == "noop" || is_pk(a) {
                continue;
            }
            for size in [0, 1, PATTERN_LEN + 3] {
                let op = a.ops[0];
                let (key, iv) = key_iv(a.name);
                let want = expected(a, op, &key, &iv, &message(SEED, size));
                let what = format!("{} {} size {size}", d.prov.id(), a.name);
                check_ok_n(
                    &call(&d, &checksum_line(a.name, op, &key, &iv, size, 0)),
                    &what,
                    &want,
                    1,
                );
            }
        }
    }
}

/// Streamed messages longer than the pattern's period, with pieces that
/// straddle the 1 MiB boundary (and pieces of exactly 1 MiB), agree with
/// the one-shot computation over the materialised message: the doubled
/// pattern and the incremental checksum are right.
#[test]
fn bench_streamed_across_the_period() {
    for d in drivers() {
        for a in d.prov.algs().iter().filter(|a| a.stream) {
            // ECB/CBC: whole blocks, pieces of whole blocks.
            let (size, chunks) = if is_block_mode(a.name) {
                (2 * PATTERN_LEN + 96, [4096 + 16, PATTERN_LEN])
            } else {
                (2 * PATTERN_LEN + 100, [4096 + 3, PATTERN_LEN])
            };
            let msg = message(SEED, size);
            for &op in a.ops {
                let (key, iv) = key_iv(a.name);
                let want = expected(a, op, &key, &iv, &msg);
                for chunk in chunks {
                    let line = checksum_line(a.name, op, &key, &iv, size, chunk);
                    let what = format!(
                        "{} {} {} size {size} chunk {chunk}",
                        d.prov.id(),
                        a.name,
                        op.name()
                    );
                    check_ok_n(&call(&d, &line), &what, &want, 1);
                }
            }
        }
    }
}

#[test]
fn bench_errors_keep_driver_alive() {
    let k16 = "00".repeat(16);
    let k32 = "00".repeat(32);
    let iv16 = "00".repeat(16);
    let iv12 = "00".repeat(12);
    for d in drivers() {
        let mut bad: Vec<(&str, String)> = vec![
            ("unparseable", r#"{"cmd":"#.into()),
            ("not an object", "[1,2]".into()),
            ("array as request", r#"["hello"]"#.into()),
            ("no cmd", r#"{"alg":"sha256"}"#.into()),
            ("unknown cmd", r#"{"cmd":"dance"}"#.into()),
            ("unknown alg", bench_line("md5", "hash", "", "", 16, 0)),
            ("ed448 not offered", bench_line("ed448", "sign", "", "", 16, 0)),
            ("unknown op", bench_line("sha256", "encrypt", "", "", 16, 0)),
            ("chunk on aead", bench_line("aes-128-gcm", "seal", &k16, &iv12, 1024, 64)),
            ("chunk over 1 MiB", bench_line("sha256", "hash", "", "", 4 << 20, 2 << 20)),
            ("bad hex key", bench_line("aes-128-gcm", "seal", "xyz", &iv12, 16, 0)),
            ("bad key length", bench_line("aes-128-gcm", "seal", &k32, &iv12, 16, 0)),
            ("bad nonce length", bench_line("chacha20-poly1305", "seal", &k32, &iv16, 16, 0)),
            ("zero seed", r#"{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":0,"samples":1}"#.into()),
            ("big seed", r#"{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":4294967296,"samples":1}"#.into()),
            ("no samples", r#"{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":1}"#.into()),
            ("no size", r#"{"cmd":"bench","alg":"sha256","op":"hash","seed":1,"samples":1}"#.into()),
            ("negative size", r#"{"cmd":"bench","alg":"sha256","op":"hash","size":-1,"seed":1,"samples":1}"#.into()),
            ("negative chunk", r#"{"cmd":"bench","alg":"sha256","op":"hash","size":1,"chunk":-1,"seed":1,"samples":1}"#.into()),
            ("verify unknown", r#"{"cmd":"verify","alg":"ed448","cases":[]}"#.into()),
            ("protocol 0", r#"{"cmd":"hello","protocol":0}"#.into()),
            ("keypair of a hash", r#"{"cmd":"keypair","alg":"sha256"}"#.into()),
            ("keypair unknown", r#"{"cmd":"keypair","alg":"ed448"}"#.into()),
            ("keypair without alg", r#"{"cmd":"keypair"}"#.into()),
            ("op of another alg", bench_line("ed25519", "derive", "", "", 0, 0)),
        ];
        if d.prov.alg("aes-128-cbc").is_some() {
            bad.extend([
                (
                    "ecb size",
                    bench_line("aes-128-ecb", "encrypt", &k16, "", 17, 0),
                ),
                (
                    "cbc size",
                    bench_line("aes-128-cbc", "decrypt", &k16, &iv16, 1000, 0),
                ),
                (
                    "bad iv length",
                    bench_line("aes-256-ctr", "encrypt", &k32, &iv12, 16, 0),
                ),
            ]);
        }
        if d.prov.id() == "rust:rustcrypto" {
            bad.extend([
                (
                    "cbc chunk",
                    bench_line("aes-128-cbc", "encrypt", &k16, &iv16, 1024, 100),
                ),
                (
                    "ecb chunk",
                    bench_line("aes-128-ecb", "encrypt", &k16, "", 1024, 100),
                ),
                (
                    "ccm too long",
                    bench_line("aes-128-ccm", "seal", &k16, &iv12, 1 << 24, 0),
                ),
            ]);
        }
        if d.prov.id() == "rust:aws-lc-rs" {
            bad.push((
                "cbc chunk (PKCS#7 only)",
                bench_line("aes-128-cbc", "encrypt", &k16, &iv16, 1024, 64),
            ));
        }
        for (name, line) in &bad {
            let r = call(&d, line);
            let err = r["error"].as_str().unwrap_or("");
            assert!(
                r["ok"] == false && !err.is_empty(),
                "{} {name}: want a one-line error, got {r}",
                d.prov.id()
            );
            println!("{} {name}: {err}", d.prov.id());
        }
        for (name, prefix) in [
            ("chunk on aead", "not offered:"),
            ("ccm too long", "not offered at this size:"),
        ] {
            if let Some((_, line)) = bad.iter().find(|(n, _)| *n == name) {
                let r = call(&d, line);
                let err = r["error"].as_str().unwrap_or("");
                assert!(err.starts_with(prefix), "{} {name}: {err}", d.prov.id());
            }
        }
        // any version from 1 on is accepted; the answer is the highest implemented
        for asked in [1, 2, 3] {
            let (out, _) =
                d.handle_line(format!(r#"{{"cmd":"hello","protocol":{asked}}}"#).as_bytes());
            let want = format!(
                r#"{{"ok":true,"protocol":{PROTOCOL_VERSION},"provider":"{}""#,
                d.prov.id()
            );
            assert!(out.starts_with(&want), "hello after errors: {out:.200}");
        }
        let (out, quit) = d.handle_line(br#"{"cmd":"bye"}"#);
        assert!(out == r#"{"ok":true}"# && quit, "bye: {out} {quit}");
    }
}

#[test]
fn hello_lists_offers() {
    for d in drivers() {
        let r = call(&d, r#"{"cmd":"hello","protocol":1}"#);
        assert_eq!(r["ok"], true);
        assert_eq!(r["language"], "rust");
        assert!(r["clock"]["resolution_ns"].as_u64().is_some());
        assert!(
            !r["library_version"].as_str().unwrap().contains("unknown"),
            "{r}"
        );
        let offers = r["offers"].as_object().unwrap();
        assert_eq!(offers["noop"], serde_json::json!(["noop"]));
        for s in r["stream"].as_array().unwrap() {
            assert!(
                offers.contains_key(s.as_str().unwrap()),
                "{s} streams but is not offered"
            );
        }
        if pq_only(&d) {
            continue;
        }
        for a in [
            "sha256",
            "sha512",
            "hmac-sha256",
            "aes-128-gcm",
            "aes-256-gcm",
            "chacha20-poly1305",
        ] {
            assert!(offers.contains_key(a), "{}: {a} missing", d.prov.id());
        }
    }
}

#[test]
fn serve_long_lines_and_eof() {
    let d = Driver::new(ops::provider("rust:ring").unwrap());
    let msg = "ab".repeat(3 << 20); // a 6 MB line
    let input = format!(
        "{{\"cmd\":\"verify\",\"alg\":\"sha256\",\"cases\":[{{\"id\":\"big\",\"op\":\"hash\",\"msg\":\"{msg}\"}}]}}\n\n{}",
        r#"{"cmd":"hello","protocol":1}"# // no final newline, then EOF
    );
    let mut out = Vec::new();
    d.serve(input.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.trim_end().split('\n').collect();
    assert_eq!(lines.len(), 2, "{out:.300}");
    assert!(
        lines[0].contains(r#""id":"big","out":""#),
        "{:.300}",
        lines[0]
    );
    assert!(
        lines[1].contains(r#""provider":"rust:ring""#),
        "{:.300}",
        lines[1]
    );
}

/// On x86-64 every sample carries the TSC's ticks, read beside the clock at
/// one steady rate (docs/protocol.md, bench: `samples_tsc`); elsewhere none.
#[test]
fn samples_carry_the_counter_read_beside_the_clock() {
    let d = &drivers()[0];
    let req = serde_json::json!({"cmd": "bench", "alg": "noop", "op": "noop", "size": 0,
                                 "seed": SEED, "batch": 0, "target_ns": 2_000_000, "samples": 5});
    let r = call(d, &req.to_string());
    if crate::timing::tsc_now().is_none() {
        assert!(r.get("samples_tsc").is_none(), "no counter, yet {r}");
        return;
    }
    let ns: Vec<u64> = serde_json::from_value(r["samples_ns"].clone()).unwrap();
    let ticks: Vec<u64> = serde_json::from_value(r["samples_tsc"].clone()).expect("samples_tsc");
    assert_eq!((ticks.len(), ns.len()), (5, 5), "{r}");
    let rates: Vec<f64> = ticks
        .iter()
        .zip(&ns)
        .map(|(&t, &n)| t as f64 / n as f64)
        .collect();
    let (lo, hi) = rates
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    assert!(
        lo > 0.1 && hi < 20.0 && hi / lo < 1.02,
        "ticks per ns {rates:?}"
    );
}

/// The check values of docs/protocol.md ("The measurement loop") that every
/// driver reproduces, for every provider.
#[test]
fn measurement_loop_check_values() {
    for d in drivers() {
        let id = d.prov.id().to_string();
        let noop = |extra: Value| {
            let mut req = serde_json::json!({"cmd": "bench", "alg": "noop", "op": "noop",
                                             "size": 0, "seed": SEED, "samples": 3});
            for (k, v) in extra.as_object().unwrap() {
                req[k] = v.clone();
            }
            call(&d, &req.to_string())
        };
        let r = noop(serde_json::json!({"batch": 0, "target_ns": 0, "warmup_ns": 0}));
        assert_eq!(
            (
                &r["batch"],
                &r["warmup"]["ops"],
                &r["warmup"]["calibration_ops"]
            ),
            (&Value::from(1), &Value::from(1), &Value::from(1)),
            "{id}: {r}"
        );
        assert_eq!(r["samples_ns"].as_array().map(Vec::len), Some(3), "{id}");
        assert_eq!(r["checksum"], "00000000:cbf29ce484222325", "{id}");
        assert_eq!(r["checksum_after"], r["checksum"], "{id}");
        let r = noop(serde_json::json!({"batch": 0, "target_ns": 1_000_000}));
        let b = r["batch"].as_u64().unwrap();
        assert!(b.is_power_of_two(), "{id}: batch {b}");
        assert_eq!(r["warmup"]["calibration_ops"], 2 * b - 1, "{id}");
        let r = noop(serde_json::json!({"batch": 7, "samples": 5}));
        assert_eq!(r["batch"], 7, "{id}");
        assert_eq!(r["samples_ns"].as_array().map(Vec::len), Some(5), "{id}");
        assert!(r["warmup"].get("calibration_ops").is_none(), "{id}: {r}");
        for line in [
            r#"{"cmd":"bench","alg":"no-such-alg","op":"hash","size":64,"seed":1,"samples":1}"#,
            r#"{"cmd":"bench","alg":"noop","op":"no-such-op","size":0,"seed":1,"samples":1}"#,
        ] {
            let r = call(&d, line);
            let e = r["error"].as_str().unwrap_or("");
            assert!(e.starts_with("not offered:"), "{id}: {line} -> {r}");
        }
    }
}

#[test]
fn leak_times_each_call_and_says_which_inputs_were_refused() {
    let d = Driver::new(ops::provider("rust:ring").unwrap());
    let (key, iv) = ("00".repeat(16), "11".repeat(12));
    let seal = RawCase {
        id: "s".into(),
        op: "seal".into(),
        key: key.clone(),
        iv: iv.clone(),
        msg: "22".repeat(32),
        ..Default::default()
    };
    let sealed = run_case(d.prov.alg("aes-128-gcm").unwrap(), &seal)
        .out
        .unwrap();
    let mut forged = sealed.clone();
    forged.replace_range(
        forged.len() - 2..,
        if sealed.ends_with("00") { "01" } else { "00" },
    );
    let line = format!(
        r#"{{"cmd":"leak","alg":"aes-128-gcm","op":"open","order":[1,0,1],"inputs":[{{"key":"{key}","iv":"{iv}","msg":"{sealed}"}},{{"key":"{key}","iv":"{iv}","msg":"{forged}"}}]}}"#
    );
    let v = call(&d, &line);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["times"].as_array().unwrap().len(), 3);
    assert_eq!(v["outcomes"], serde_json::json!(["ok", "rejected"]));
    let bad = call(&d, &line.replace("[1,0,1]", "[2]"));
    assert!(bad["error"].as_str().unwrap().contains("order[0]"), "{bad}");
    let pk = call(
        &d,
        r#"{"cmd":"leak","alg":"x25519","op":"derive","order":[0],"inputs":[{}]}"#,
    );
    assert!(
        pk["error"].as_str().unwrap().starts_with("not offered"),
        "{pk}"
    );
}

/// Public-key leak requests: every key imported before the first
/// measurement (`prepare`), each call timed alone; an RSA-OAEP ciphertext
/// with a bit flipped comes back refused, a valid one decrypted.
#[test]
fn leak_prepares_public_key_operations_outside_the_call() {
    for (id, alg, op, msg) in [
        ("rust:ring", "ecdsa-p256", "sign", "00"),
        ("rust:ring", "ed25519", "sign", "00"),
        ("rust:aws-lc-rs", "x25519", "derive", ""),
        ("rust:aws-lc-rs", "ecdsa-p256", "sign", "00"),
        ("rust:aws-lc-rs", "ml-kem-512", "decaps", ""),
        ("rust:aws-lc-rs", "rsa-2048-oaep", "decrypt", ""),
        ("rust:rustcrypto", "x25519", "derive", ""),
        ("rust:rustcrypto", "ecdh-p256", "derive", ""),
        ("rust:rustcrypto", "ed25519", "sign", "00"),
        ("rust:rustcrypto", "rsa-2048-oaep", "decrypt", ""),
        ("rust:rustcrypto", "ml-kem-768", "decaps", ""),
    ] {
        let d = Driver::new(ops::provider(id).unwrap());
        let kp = call(&d, &format!(r#"{{"cmd":"keypair","alg":"{alg}"}}"#));
        let (public, private) = (
            kp["public"].as_str().unwrap(),
            kp["private"].as_str().unwrap(),
        );
        // the valid input (a ciphertext to a key's own public key where there is one) and a refused one
        let (good, bad) = match op {
            "decaps" | "decrypt" => {
                let mk = if op == "decaps" { "encaps" } else { "encrypt" };
                let r = call(
                    &d,
                    &format!(
                        r#"{{"cmd":"verify","alg":"{alg}","cases":[{{"id":"0","op":"{mk}","public":"{public}","msg":"0011"}}]}}"#
                    ),
                );
                let out = r["results"][0]["out"].as_str().unwrap().to_string();
                let ct = if op == "decaps" {
                    out[..out.len() - 64].to_string()
                } else {
                    out
                };
                let mut flipped = ct.clone();
                let at = ct.len() - 2; // the last byte: the integer stays below the modulus
                let b = u8::from_str_radix(&ct[at..], 16).unwrap() ^ 1;
                flipped.replace_range(at.., &format!("{b:02x}"));
                (ct, Some(flipped))
            }
            _ => (msg.to_string(), None),
        };
        let input =
            |m: &str| format!(r#"{{"private":"{private}","public":"{public}","msg":"{m}"}}"#);
        let inputs = match &bad {
            Some(b) => format!("[{},{}]", input(&good), input(b)),
            None => format!("[{}]", input(&good)),
        };
        let order = if bad.is_some() {
            "[0,1,1,0]"
        } else {
            "[0,0,0]"
        };
        let v = call(
            &d,
            &format!(
                r#"{{"cmd":"leak","alg":"{alg}","op":"{op}","order":{order},"inputs":{inputs}}}"#
            ),
        );
        assert_eq!(v["ok"], true, "{id} {alg}: {v}");
        assert!(v["times"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.as_u64().unwrap() > 0));
        let want = match (op, bad.is_some()) {
            ("decrypt", _) => serde_json::json!(["ok", "rejected"]),
            (_, true) => serde_json::json!(["ok", "ok"]), // ML-KEM's implicit rejection answers a key
            _ => serde_json::json!(["ok"]),
        };
        assert_eq!(v["outcomes"], want, "{id} {alg}");
        let broken = call(
            &d,
            &format!(
                r#"{{"cmd":"leak","alg":"{alg}","op":"{op}","order":[0],"inputs":[{{"private":"00","public":"{public}","msg":"{good}"}}]}}"#
            ),
        );
        let e = broken["error"].as_str().unwrap_or_default();
        assert!(e.starts_with("input 0: "), "{id} {alg}: {broken}");
    }
}

/// A MAC's leak-only operations: `verify` (the library's own MAC check: the
/// right tag ok, a wrong one refused) and `compare` (the crate's own
/// comparison, where it has one; else `not offered`).
#[test]
fn leak_verifies_macs_and_compares_with_the_library() {
    let key = "0b".repeat(32);
    for id in ["rust:ring", "rust:aws-lc-rs", "rust:rustcrypto"] {
        let d = Driver::new(ops::provider(id).unwrap());
        let mac = RawCase {
            id: "m".into(),
            op: "mac".into(),
            key: key.clone(),
            msg: "4869".into(),
            ..Default::default()
        };
        let tag = run_case(d.prov.alg("hmac-sha256").unwrap(), &mac)
            .out
            .unwrap();
        let wrong = format!(
            "{}{}",
            if tag.starts_with("00") { "01" } else { "00" },
            &tag[2..]
        );
        let v = call(
            &d,
            &format!(
                r#"{{"cmd":"leak","alg":"hmac-sha256","op":"verify","order":[0,1,1],"inputs":[{{"key":"{key}","msg":"4869","sig":"{tag}"}},{{"key":"{key}","msg":"4869","sig":"{wrong}"}}]}}"#
            ),
        );
        assert_eq!(
            v["outcomes"],
            serde_json::json!(["ok", "rejected"]),
            "{id}: {v}"
        );
        let v = call(
            &d,
            r#"{"cmd":"leak","alg":"hmac-sha256","op":"compare","order":[0,1],"inputs":[{"msg":"0011","sig":"0011"},{"msg":"0011","sig":"0111"}]}"#,
        );
        if id == "rust:aws-lc-rs" {
            assert_eq!(
                v["outcomes"],
                serde_json::json!(["ok", "rejected"]),
                "{id}: {v}"
            );
        } else {
            let e = v["error"].as_str().unwrap_or_default();
            assert!(
                e.starts_with("not offered: hmac-sha256 compare"),
                "{id}: {v}"
            );
        }
    }
}

/// Above `REGENERATE_ABOVE` (lowered here, for this test's thread) a
/// streamed decrypt makes its ciphertext again per piece off the clock: the
/// same output, and time handed to the loop to subtract (docs/protocol.md,
/// "With chunk > 0").
#[test]
fn big_streamed_decrypt_regenerates_its_ciphertext() {
    ops::REGENERATE_ABOVE.set(100);
    let mut seen = 0;
    for d in drivers() {
        for a in d
            .prov
            .algs()
            .iter()
            .filter(|a| a.stream && a.offers(Op::Decrypt))
        {
            let (key, iv) = key_iv(a.name);
            let (size, chunk) = (4096 + 2 * 16, 1024);
            let want = expected(a, Op::Decrypt, &key, &iv, &message(SEED, size));
            let what = format!("{} {} decrypt regenerated", d.prov.id(), a.name);
            let r = call(&d, &bench_line(a.name, "decrypt", &key, &iv, size, chunk));
            check_ok(&r, &what, &want);
            let p = CellParams {
                op: Op::Decrypt,
                key: &input::decode_hex("key", &key).unwrap(),
                iv: &input::decode_hex("iv", &iv).unwrap(),
                seed: SEED,
                size,
                chunk,
                tls: None,
            };
            let mut c = (a.new_cell)(&p).unwrap_or_else(|e| panic!("{what}: {e}"));
            c.run();
            assert!(c.err().is_none(), "{what}: {:?}", c.err());
            assert!(c.take_untimed_ns() > 0, "{what}: no regeneration time");
            seen += 1;
        }
    }
    // rustcrypto ECB/CBC/CTR x2 key sizes + ChaCha20, aws-lc-rs CTR x2
    assert!(seen >= 9, "only {seen} streamed decrypts");
}
