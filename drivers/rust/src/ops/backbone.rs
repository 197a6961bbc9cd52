//! rust:backbone — Backbone's HQC (crates.io `backbone-hqc`), native Rust:
//! HQC-1/3/5 as NIST selected it (the v5.0.0 specification of 2025-08-22,
//! FIPS 207 draft), the same crate PyPI `pqcrypto` wraps through PyO3
//! (`python:pqcrypto`), so the two side by side are the binding's cost.
//!
//! Key generation and encapsulation draw their 48-byte seeds from the OS
//! (`keygen()`, `encaps()`: getrandom), the calls the Python binding makes.
//! The crate's `*_with_rng` variants take an RNG, not a seed: answering
//! NIST's seeded cases through them would need the KAT's AES-CTR DRBG, which
//! this driver does not write. So keygen-from-seed and encapsulation with a
//! given `m` answer `unsupported` (as python:pqcrypto does), and the known
//! answers are the KAT's decapsulations (sk, ct -> ss).

use super::pk::{decaps_agrees, keygen_cell, no_case, no_cell, op_cell, put, put2, rejected, Keys};
use super::{crate_versions, Alg, Case, CellParams, Failure, KeyPair, Op, Provider};

pub fn provider() -> Provider {
    Provider::new(
        "rust:backbone",
        "Backbone's HQC (backbone-hqc crate), native Rust",
        crate_versions(&["backbone-hqc"]),
        &[NOTES],
        [vec![hqc1(), hqc3(), hqc5()]],
    )
}

const NOTES: &[&str] = &[
    "HQC (backbone-hqc, the v5.0.0 specification of 2025-08-22: hqc128/hqc192/hqc256 as hqc-1/3/5): keys and ciphertexts in the submission's encoding (its KAT files); keygen(), encaps(&pk), decaps(&sk, ct), each drawing its 48-byte seed from the OS (getrandom) inside the call, as PyPI pqcrypto's binding of the same crate (python:pqcrypto) does. Default features (no `simd`), as that wheel is built.",
    "Cells: the key pair (and the ciphertext to decapsulate) are made once per cell, untimed; PublicKey/SecretKey are the crate's byte wrappers, parsed once. keygen times the keygen() call alone; encaps encaps(&pk); decaps decaps(&sk, ct).",
    "unsupported: keygen from a seed and encapsulation with a given m (the crate takes an RNG, not a seed, and the KAT's AES-CTR DRBG is not written here): verified by the KAT's decapsulation cases and by cross-verification.",
];

/// Why a seeded case cannot be answered.
fn no_seed(what: &str) -> Failure {
    Failure::Unsupported(format!(
        "backbone-hqc has no {what}: its API takes an RNG, not a seed"
    ))
}

macro_rules! hqc {
    ($fn:ident, $m:ident, $name:literal) => {
        fn $fn() -> Alg {
            use backbone_hqc::$m::{decaps, encaps, keygen, PublicKey, SecretKey};

            fn keys(pk: &PublicKey, sk: &SecretKey) -> Keys {
                Keys::pair(pk.as_ref().to_vec(), sk.as_ref().to_vec())
            }
            fn fresh() -> Result<(PublicKey, SecretKey), String> {
                keygen().map_err(|e| format!("keygen: {e}"))
            }

            Alg::new(
                $name,
                &[Op::Keygen, Op::Encaps, Op::Decaps],
                false,
                |c: &Case| match c.op {
                    Op::Keygen => Err(no_seed("key generation from a seed")),
                    Op::Encaps if c.m.is_some() => Err(no_seed("encapsulation with a given m")),
                    Op::Encaps => {
                        let pk = PublicKey::from_bytes(&c.public).map_err(rejected)?;
                        let e = encaps(&pk).map_err(|e| Failure::Error(format!("encaps: {e}")))?;
                        Ok([&e.ciphertext[..], &e.shared_secret[..]].concat())
                    }
                    Op::Decaps => {
                        let sk = SecretKey::from_bytes(&c.private).map_err(rejected)?;
                        Ok(decaps(&sk, &c.msg).map_err(rejected)?.to_vec())
                    }
                    op => Err(no_case($name, op)),
                },
                |p: &CellParams| {
                    if p.op == Op::Keygen {
                        return Ok(keygen_cell(fresh, |(pk, _): &(PublicKey, SecretKey)| {
                            Ok(pk.as_ref().to_vec())
                        }));
                    }
                    let (pk, sk) = fresh()?;
                    let keys = keys(&pk, &sk);
                    match p.op {
                        Op::Encaps => Ok(op_cell(keys, Vec::new(), move |_, out| {
                            let e = encaps(&pk).map_err(|e| format!("encaps: {e}"))?;
                            put2(out, &e.ciphertext, &e.shared_secret)
                        })),
                        Op::Decaps => {
                            let e = encaps(&pk).map_err(|e| format!("encaps: {e}"))?;
                            let ss =
                                decaps(&sk, &e.ciphertext).map_err(|e| format!("decaps: {e}"))?;
                            decaps_agrees($name, ss.as_ref(), e.shared_secret.as_ref())?;
                            Ok(op_cell(keys, e.ciphertext.clone(), move |c, out| {
                                let ss = decaps(&sk, c).map_err(|e| format!("decaps: {e}"))?;
                                put(out, &ss)
                            }))
                        }
                        op => Err(no_cell($name, op)),
                    }
                },
            )
            .with_keypair(|| {
                let (pk, sk) = fresh()?;
                Ok(KeyPair::from(keys(&pk, &sk)))
            })
        }
    };
}

hqc!(hqc1, hqc128, "hqc-1");
hqc!(hqc3, hqc192, "hqc-3");
hqc!(hqc5, hqc256, "hqc-5");
