//! The shared vectors, exported per algorithm as build/cases/<alg>.jsonl,
//! run through the verify request for every provider and judged by
//! protocol.md's appendix.

use std::path::PathBuf;

use serde::Deserialize;

use super::{call, driver, drivers, pq_only};
use crate::protocol::{CaseResult, RawCase};
use crate::{ops, run_case, Driver};

const CASES_COMMAND: &str =
    "cd <repo root> && .venv/bin/python -m cryptobench.verify.vectors.export build/cases";

fn cases_dir() -> PathBuf {
    let dir = std::env::var_os("CRYPTOBENCH_CASES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/cases"));
    assert!(
        dir.is_dir(),
        "cases directory {} not found: create it with `{CASES_COMMAND}` (or point CRYPTOBENCH_CASES at it)",
        dir.display()
    );
    dir
}

/// A verify case plus its answer.
#[derive(Deserialize)]
struct ExportedCase {
    #[serde(flatten)]
    case: RawCase,
    expect: String,
    out: Option<String>,
    #[serde(default)]
    cmp: String,
}

/// Offered algorithms the shared vectors have no cases for (yet): their
/// key pairs and operations are checked by `pk.rs` (self- and
/// cross-provider checks) instead.
const NO_VECTORS: &[&str] = &[
    "rsa-2048",
    "rsa-3072",
    "rsa-4096",
    "rsa-3072-pss",
    "rsa-3072-pkcs1",
    "rsa-3072-oaep",
    "rsa-4096-pss",
    "rsa-4096-pkcs1",
    "rsa-4096-oaep",
    "sm2",
    // HQC-5's v5.0.0 KAT file (PQCkemKAT_7333.rsp) is not in vectors/pqc-kat
    "hqc-5",
];

/// Issue 32's algorithms: their shared vectors (ACVP for SLH-DSA and
/// Ascon) may not be exported yet; until they are, `pk.rs` and
/// `ascon_known_answers` check them.
fn vectors_pending(alg: &str) -> bool {
    alg.starts_with("slh-dsa-") || alg.starts_with("ascon-") || alg == "x-wing"
}

/// SLH-DSA key generation and signing take up to seconds per case in pure
/// Rust except for the 128f sets: the other ten sets run their verify cases
/// here, and all their cases through `cryptobench verify`.
fn too_slow(alg: &str, op: &str) -> bool {
    alg.starts_with("slh-dsa-") && !alg.ends_with("-128f") && op != "verify"
}

fn load_cases(alg: &str) -> Vec<ExportedCase> {
    let path = cases_dir().join(format!("{alg}.jsonl"));
    if (NO_VECTORS.contains(&alg) || vectors_pending(alg)) && !path.exists() {
        return Vec::new();
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (re-create the cases with `{CASES_COMMAND}`)",
            path.display()
        )
    });
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1))
        })
        .collect()
}

/// protocol.md's rules; `None` means the case passes.
fn judge(c: &ExportedCase, r: &CaseResult) -> Option<String> {
    if r.id != c.case.id {
        return Some(format!("result id {} does not echo the case id", r.id));
    }
    if let Some(e) = &r.error {
        return Some(format!("error: {e}"));
    }
    if r.unsupported.is_some() {
        return None; // skipped (counted by the caller)
    }
    let matches = match (&r.out, &c.out) {
        (Some(got), Some(want)) if c.cmp == "prefix" => got.starts_with(want.as_str()),
        (Some(got), Some(want)) => got == want,
        _ => false,
    };
    match c.expect.as_str() {
        "valid" if r.rejected => Some("rejected a valid case".into()),
        "valid" if !matches => Some(format!(
            "out {} does not match the expected one",
            r.out.as_deref().unwrap_or("<none>")
        )),
        "invalid" if !r.rejected && matches => Some("accepted an invalid case".into()),
        "valid" | "invalid" | "acceptable" => None,
        other => Some(format!("unknown expect {other}")),
    }
}

/// Every case of every offered algorithm, through the verify request
/// exactly as the orchestrator sends it.
fn check_provider(d: &Driver) {
    let mut failures = Vec::new();
    let mut judged = 0;
    for a in d.prov.algs().iter().filter(|a| a.name != "noop") {
        // the orchestrator sends only the cases of offered operations
        let cases: Vec<ExportedCase> = load_cases(a.name)
            .into_iter()
            .filter(|c| crate::ops::Op::parse(&c.case.op).is_some_and(|o| a.offers(o)))
            .filter(|c| !too_slow(a.name, &c.case.op))
            .collect();
        if cases.is_empty() {
            assert!(
                NO_VECTORS.contains(&a.name) || vectors_pending(a.name),
                "no cases for {}",
                a.name
            );
            println!("{} {}: no vectors (see pk.rs)", d.prov.id(), a.name);
            continue;
        }
        let raw: Vec<&RawCase> = cases.iter().map(|c| &c.case).collect();
        let line = serde_json::json!({"cmd": "verify", "alg": a.name, "cases": raw}).to_string();
        let resp = call(d, &line);
        assert_eq!(resp["ok"], true, "{} verify: {resp:.300}", a.name);
        let results: Vec<CaseResult> =
            serde_json::from_value(resp["results"].clone()).expect("results");
        assert_eq!(results.len(), cases.len(), "{}: results for cases", a.name);
        let (mut valid, mut invalid, mut skipped) = (0, 0, 0);
        for (c, r) in cases.iter().zip(&results) {
            if let Some(why) = judge(c, r) {
                failures.push(format!("{} {}: {why}", d.prov.id(), c.case.id));
            }
            if r.unsupported.is_some() {
                skipped += 1;
                continue;
            }
            match c.expect.as_str() {
                "valid" => valid += 1,
                _ => invalid += 1,
            }
        }
        assert!(
            valid + invalid > 0,
            "{} {}: no case passed ({skipped} unsupported)",
            d.prov.id(),
            a.name
        );
        judged += cases.len();
        println!(
            "{} {}: {} cases judged ({valid} valid, {invalid} invalid/acceptable, {skipped} unsupported)",
            d.prov.id(),
            a.name,
            cases.len()
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {judged} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn vectors_rustcrypto() {
    check_provider(&Driver::new(ops::provider("rust:rustcrypto").unwrap()));
}

#[test]
fn vectors_ring() {
    check_provider(&Driver::new(ops::provider("rust:ring").unwrap()));
}

#[test]
fn vectors_aws_lc_rs() {
    check_provider(&Driver::new(ops::provider("rust:aws-lc-rs").unwrap()));
}

/// HQC-1/3: the v5.0.0 KAT's 25 decapsulations each (keygen and
/// encapsulation cases, which need the KAT's DRBG, answer unsupported).
#[test]
fn vectors_backbone() {
    check_provider(&Driver::new(ops::provider("rust:backbone").unwrap()));
}

/// A tampered tag comes back as rejected (not as an error or an output);
/// a bad key length and bad hex come back as errors.
#[test]
fn open_rejects_tampered_tag() {
    for d in drivers().into_iter().filter(|d| !pq_only(d)) {
        let a = d
            .prov
            .alg("aes-128-gcm")
            .expect("every provider has AES-128-GCM");
        let raw = |id: &str, op: &str, key: &str, msg: &str| RawCase {
            id: id.into(),
            op: op.into(),
            key: key.into(),
            iv: "00".repeat(12),
            msg: msg.into(),
            ..Default::default()
        };
        let key = "00".repeat(16);
        let seal = run_case(a, &raw("s", "seal", &key, "00112233"));
        let mut ct = seal
            .out
            .unwrap_or_else(|| panic!("{}: seal failed", d.prov.id()));
        let last = if ct.ends_with('0') { "1" } else { "0" };
        ct.replace_range(ct.len() - 1.., last);
        let r = run_case(a, &raw("o", "open", &key, &ct));
        assert!(
            r.rejected && r.out.is_none() && r.error.is_none(),
            "{}: open of a tampered tag: {r:?}",
            d.prov.id()
        );
        let r = run_case(a, &raw("short", "open", &key, "0011"));
        assert!(r.rejected || r.error.is_some(), "{}: {r:?}", d.prov.id());
        let r = run_case(a, &raw("k", "seal", "00", ""));
        assert!(
            r.error.is_some(),
            "{}: seal with a 1-byte key: {r:?}",
            d.prov.id()
        );
        let r = run_case(a, &raw("h", "seal", "zz", ""));
        assert!(
            r.error.as_deref().is_some_and(|e| e.contains("hex")),
            "{}: seal with bad hex: {r:?}",
            d.prov.id()
        );
        let r = run_case(a, &raw("op", "hash", &key, ""));
        assert!(r.error.is_some(), "{}: hash on an AEAD: {r:?}", d.prov.id());
    }
}

/// Ascon (NIST SP 800-232) known answers from the designers' reference
/// implementation's KAT files (ascon-c: LWC_AEAD_KAT_128_128.txt counts 1
/// and 2, LWC_HASH_KAT_128_256.txt counts 1 and 2, LWC_XOF_KAT_128_512.txt
/// count 1, first 32 bytes), through the verify request; they hold even
/// before the ACVP cases are exported.
#[test]
fn ascon_known_answers() {
    let d = driver("rust:rustcrypto");
    let k = "000102030405060708090a0b0c0d0e0f";
    let cases = [
        (
            "ascon-aead128",
            serde_json::json!({"op": "seal", "key": k, "iv": k, "msg": "", "aad": ""}),
            "4427d64b8e1e1451fc445960f0839bb0",
        ),
        (
            "ascon-aead128",
            serde_json::json!({"op": "seal", "key": k, "iv": k, "msg": "", "aad": "00"}),
            "103ab79d913a0321287715a979bb8585",
        ),
        (
            "ascon-hash256",
            serde_json::json!({"op": "hash", "msg": ""}),
            "0b3be5850f2f6b98caf29f8fdea89b64a1fa70aa249b8f839bd53baa304d92b2",
        ),
        (
            "ascon-hash256",
            serde_json::json!({"op": "hash", "msg": "00"}),
            "0728621035af3ed2bca03bf6fde900f9456f5330e4b5ee23e7f6a1e70291bc80",
        ),
        (
            "ascon-xof128",
            serde_json::json!({"op": "hash", "msg": ""}),
            "473d5e6164f58b39dfd84aacdb8ae42ec2d91fed33388ee0d960d9b3993295c6",
        ),
    ];
    for (alg, mut c, want) in cases {
        c["id"] = "kat#1".into();
        let r = call(
            &d,
            &serde_json::json!({"cmd": "verify", "alg": alg, "cases": [c]}).to_string(),
        );
        assert_eq!(r["results"][0]["out"], want, "{alg} {c}: {r}");
    }
    let open = serde_json::json!({"id": "kat#2", "op": "open", "key": k, "iv": k, "aad": "00",
        "msg": "103ab79d913a0321287715a979bb8584"});
    let r = call(
        &d,
        &serde_json::json!({"cmd": "verify", "alg": "ascon-aead128", "cases": [open]}).to_string(),
    );
    assert_eq!(r["results"][0]["rejected"], true, "a flipped tag bit: {r}");
}
