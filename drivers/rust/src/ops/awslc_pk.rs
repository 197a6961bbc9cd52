//! rust:aws-lc-rs's public-key and post-quantum algorithms (protocol.md,
//! version 2), all through aws-lc-rs's stable API (no `unstable` feature):
//! `rsa` (keygen, OAEP), `signature` (RSA PSS/PKCS#1, ECDSA P-256/P-384/
//! secp256k1, Ed25519, ML-DSA), `agreement` (ECDH P-256/P-384, X25519) and
//! `kem` (ML-KEM).

use std::hint::black_box;

use aws_lc_rs::agreement::{self, PrivateKey as AgreementKey};
use aws_lc_rs::encoding::{AsBigEndian, AsDer, Curve25519SeedBin, EcPrivateKeyBin};
use aws_lc_rs::kem;
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::rsa::{
    KeySize, OaepPrivateDecryptingKey, OaepPublicEncryptingKey, PrivateDecryptingKey,
    PublicEncryptingKey, OAEP_SHA256_MGF1SHA256,
};
use aws_lc_rs::signature::{
    self, EcdsaKeyPair, EcdsaSigningAlgorithm, EcdsaVerificationAlgorithm, Ed25519KeyPair,
    KeyPair as _, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm, PqdsaVerificationAlgorithm,
    RsaKeyPair, UnparsedPublicKey,
};

use super::pk::{
    check_oaep_size, decaps_agrees, ec_point_from_spki, ec_scalar, ec_spki, keygen_cell,
    keygen_only_alg, message, no_case, no_cell, op_cell, put, put2, rejected, sign_alg, verified,
    verify_cell, Curve, Keys, OUT_CAP,
};
use super::unspecified;
use super::{Alg, Case, CellParams, Failure, KeyPair, Op};

pub fn algs() -> Vec<Alg> {
    let mut v = Vec::new();
    for (bits, size, names) in [
        (
            2048,
            KeySize::Rsa2048,
            [
                "rsa-2048",
                "rsa-2048-pss",
                "rsa-2048-pkcs1",
                "rsa-2048-oaep",
            ],
        ),
        (
            3072,
            KeySize::Rsa3072,
            [
                "rsa-3072",
                "rsa-3072-pss",
                "rsa-3072-pkcs1",
                "rsa-3072-oaep",
            ],
        ),
        (
            4096,
            KeySize::Rsa4096,
            [
                "rsa-4096",
                "rsa-4096-pss",
                "rsa-4096-pkcs1",
                "rsa-4096-oaep",
            ],
        ),
    ] {
        v.push(rsa_keygen(names[0], size));
        v.push(rsa_sig_alg(
            names[1],
            size,
            &signature::RSA_PSS_SHA256,
            &signature::RSA_PSS_2048_8192_SHA256,
        ));
        v.push(rsa_sig_alg(
            names[2],
            size,
            &signature::RSA_PKCS1_SHA256,
            &signature::RSA_PKCS1_2048_8192_SHA256,
        ));
        v.push(rsa_oaep(names[3], bits, size));
    }
    v.push(ecdsa(
        "ecdsa-p256",
        Curve::P256,
        &signature::ECDSA_P256_SHA256_ASN1_SIGNING,
        &signature::ECDSA_P256_SHA256_ASN1,
    ));
    v.push(ecdsa(
        "ecdsa-p384",
        Curve::P384,
        &signature::ECDSA_P384_SHA384_ASN1_SIGNING,
        &signature::ECDSA_P384_SHA384_ASN1,
    ));
    v.push(ecdsa(
        "ecdsa-secp256k1",
        Curve::Secp256k1,
        &signature::ECDSA_P256K1_SHA256_ASN1_SIGNING,
        &signature::ECDSA_P256K1_SHA256_ASN1,
    ));
    v.push(ecdh("ecdh-p256", Curve::P256, &agreement::ECDH_P256));
    v.push(ecdh("ecdh-p384", Curve::P384, &agreement::ECDH_P384));
    v.push(ed25519());
    v.push(x25519());
    v.push(mlkem("ml-kem-512", &kem::ML_KEM_512, MlKem::K512));
    v.push(mlkem("ml-kem-768", &kem::ML_KEM_768, MlKem::K768));
    v.push(mlkem("ml-kem-1024", &kem::ML_KEM_1024, MlKem::K1024));
    v.push(mldsa(
        "ml-dsa-44",
        &signature::ML_DSA_44_SIGNING,
        &signature::ML_DSA_44,
    ));
    v.push(mldsa(
        "ml-dsa-65",
        &signature::ML_DSA_65_SIGNING,
        &signature::ML_DSA_65,
    ));
    v.push(mldsa(
        "ml-dsa-87",
        &signature::ML_DSA_87_SIGNING,
        &signature::ML_DSA_87,
    ));
    v
}

pub const NOTES: &[&str] = &[
    "Public-key cells: keys (and the peer key, the signature to verify, the ciphertext to decrypt or decapsulate) are made once per cell, untimed, with AWS-LC's own generators; public keys to verify with or derive against are parsed once per cell (signature::ParsedPublicKey, agreement::ParsedPublicKey). Randomness: AWS-LC's internal DRBG.",
    "keygen: the timed operation is the generate call alone (rsa::KeyPair::generate(KeySize), e = 65537; EcdsaKeyPair::generate; Ed25519KeyPair::generate; agreement::PrivateKey::generate(X25519) + compute_public_key; kem::DecapsulationKey::generate; PqdsaKeyPair::generate); encoding the public key for the checksum is untimed.",
    "RSA: RsaKeyPair::sign(RSA_PSS_SHA256 | RSA_PKCS1_SHA256) into the output buffer (PSS salt 32 bytes), verify is ParsedPublicKey::verify_sig(RSA_PSS_2048_8192_SHA256 | RSA_PKCS1_2048_8192_SHA256); OAEP is OaepPublicEncryptingKey::encrypt / OaepPrivateDecryptingKey::decrypt with OAEP_SHA256_MGF1SHA256 and no label, into the output buffer.",
    "ECDSA (P-256, P-384, secp256k1): EcdsaKeyPair::sign (*_ASN1_SIGNING, DER output) over the message; verify is ParsedPublicKey::verify_sig(*_ASN1). protocol.md's private key is the bare scalar: sign cases import it as an RFC 5915 ECPrivateKey (from_private_key_der), from which AWS-LC computes the public key. ECDH (P-256, P-384): agreement::agree(&PrivateKey, peer ParsedPublicKey, ...) with the private key imported by PrivateKey::from_private_key (raw scalar); the peer key is parsed once per cell and handed over as a clone per operation (agree takes it by value: an EVP_PKEY reference-count increment plus a copy of the encoded key). X25519: the same with agreement::X25519.",
    "Ed25519: Ed25519KeyPair::sign; verify is ParsedPublicKey::verify_sig(ED25519).",
    "ML-KEM (kem::ML_KEM_512/768/1024): EncapsulationKey::encapsulate, DecapsulationKey::decapsulate. aws-lc-rs has no key generation from the seed d||z and no deterministic encapsulation: those vector cases answer unsupported; decapsulation cases import the expanded decapsulation key (DecapsulationKey::new), which the driver derives from the seed with RustCrypto's ml-kem (untimed), and the keypair command does the same with a seed from aws_lc_rs::rand (aws-lc-rs cannot give out a generated key's seed).",
    "ML-DSA (signature::ML_DSA_44/65/87, stable since aws-lc-rs 1.18): PqdsaKeyPair::sign (hedged, empty context), verify_sig; keypair, keygen and sign cases use PqdsaKeyPair::from_seed(xi). aws-lc-rs has no context string and no deterministic signing in its API: such cases answer unsupported.",
    "Not offered: ECDH secp256k1 (agreement has P-256/P-384/P-521 and X25519 only), Ed448/X448, SM2 (not in aws-lc-rs).",
];

// the RSA and Ed25519 cases and prepared signs, the RSA sign (ring_family.rs)
super::ring_family::ring_family_pk!(
    lib = aws_lc_rs,
    modulus_len = rsa_modulus_len,
    rsa_size = KeySize
);

fn rsa_modulus_len(kp: &RsaKeyPair) -> usize {
    kp.public_modulus_len()
}

fn fail<E>(what: &'static str) -> impl Fn(E) -> Failure {
    move |_| Failure::Error(format!("{what} failed"))
}

// ---- RSA ----------------------------------------------------------------------

/// A fresh RSA key (e = 65537) from AWS-LC: (PKCS#8, SubjectPublicKeyInfo).
/// ring's RSA cells and keypair use it too (ring has no RSA keygen).
pub fn rsa_generate(bits: usize) -> Result<(Vec<u8>, Vec<u8>), String> {
    let size = match bits {
        2048 => KeySize::Rsa2048,
        3072 => KeySize::Rsa3072,
        4096 => KeySize::Rsa4096,
        _ => return Err(format!("no {bits}-bit RSA keys")),
    };
    rsa_encode(&RsaKeyPair::generate(size).map_err(unspecified("RSA keygen"))?)
}

fn rsa_encode(kp: &RsaKeyPair) -> Result<(Vec<u8>, Vec<u8>), String> {
    let private: aws_lc_rs::encoding::Pkcs8V1Der = kp.as_der().map_err(unspecified("PKCS#8"))?;
    let public: aws_lc_rs::encoding::PublicKeyX509Der =
        kp.public_key().as_der().map_err(unspecified("SPKI"))?;
    Ok((private.as_ref().to_vec(), public.as_ref().to_vec()))
}

fn rsa_keys(kp: &RsaKeyPair) -> Result<Keys, String> {
    let (private, public) = rsa_encode(kp)?;
    Ok(Keys::pair(public, private))
}

fn rsa_keypair(size: KeySize) -> Result<KeyPair, String> {
    let k = rsa_keys(&RsaKeyPair::generate(size).map_err(unspecified("RSA keygen"))?)?;
    Ok(k.into())
}

fn rsa_keygen(name: &'static str, size: KeySize) -> Alg {
    keygen_only_alg(name, move || {
        keygen_cell(
            move || RsaKeyPair::generate(size).map_err(unspecified("keygen")),
            |kp: &RsaKeyPair| Ok(rsa_encode(kp)?.1),
        )
    })
    .with_keypair(move || rsa_keypair(size))
}

/// aws-lc-rs verifies with the SubjectPublicKeyInfo (checked to be RSA's first).
fn rsa_verify_key(spki: &[u8]) -> Result<&[u8], Failure> {
    super::pk::rsa_public_from_spki(spki)?;
    Ok(spki)
}

/// A verify cell: the public key parsed once per cell.
fn verify_sig_cell(
    vrf: &'static dyn signature::VerificationAlgorithm,
    public: &[u8],
    keys: Keys,
    msg: Vec<u8>,
    sig: impl AsRef<[u8]> + 'static,
) -> Result<Box<dyn super::Cell>, String> {
    let pk = ParsedPublicKey::new(vrf, public).map_err(|e| format!("public key: {e}"))?;
    Ok(verify_cell(keys, msg, move |m| {
        pk.verify_sig(m, sig.as_ref()).is_ok()
    }))
}

/// An RSA cell's key pair, fresh from AWS-LC, and its encodings.
fn rsa_cell_keys(size: KeySize) -> Result<(RsaKeyPair, Keys), String> {
    let kp = RsaKeyPair::generate(size).map_err(unspecified("RSA keygen"))?;
    let keys = rsa_keys(&kp)?;
    Ok((kp, keys))
}

/// A decrypt case's OAEP key (PKCS#8).
fn oaep_case_key(c: &Case) -> Result<OaepPrivateDecryptingKey, Failure> {
    let dk = PrivateDecryptingKey::from_pkcs8(&c.private).map_err(rejected)?;
    OaepPrivateDecryptingKey::new(dk).map_err(rejected)
}

fn rsa_oaep(name: &'static str, bits: usize, size: KeySize) -> Alg {
    let alg = &OAEP_SHA256_MGF1SHA256;
    let encrypt = move |ek: &OaepPublicEncryptingKey, m: &[u8], out: &mut [u8]| {
        ek.encrypt(alg, m, out, None)
            .map(|c| c.len())
            .map_err(unspecified("encrypt"))
    };
    let decrypt = move |dk: &OaepPrivateDecryptingKey, c: &[u8], out: &mut [u8]| {
        dk.decrypt(alg, c, out, None).map(|p| p.len())
    };
    Alg::new(
        name,
        &[Op::Encrypt, Op::Decrypt],
        false,
        move |c: &Case| match c.op {
            Op::Encrypt => {
                let ek = PublicEncryptingKey::from_der(&c.public).map_err(rejected)?;
                let ek = OaepPublicEncryptingKey::new(ek).map_err(rejected)?;
                let mut out = vec![0; ek.ciphertext_size()];
                let n = encrypt(&ek, &c.msg, &mut out).map_err(|_| Failure::Rejected)?;
                out.truncate(n);
                Ok(out)
            }
            Op::Decrypt => {
                let dk = oaep_case_key(c)?;
                let mut out = vec![0; dk.min_output_size()];
                let n = decrypt(&dk, &c.msg, &mut out).map_err(rejected)?;
                out.truncate(n);
                Ok(out)
            }
            op => Err(no_case(name, op)),
        },
        move |p: &CellParams| {
            check_oaep_size(name, bits, p.size)?;
            let kp = RsaKeyPair::generate(size).map_err(unspecified("RSA keygen"))?;
            let keys = rsa_keys(&kp)?;
            let dk = PrivateDecryptingKey::from_pkcs8(&keys.private).map_err(|e| format!("{e}"))?;
            let ek = OaepPublicEncryptingKey::new(dk.public_key()).map_err(unspecified("key"))?;
            let dk = OaepPrivateDecryptingKey::new(dk).map_err(unspecified("key"))?;
            let msg = message(p);
            match p.op {
                Op::Encrypt => Ok(op_cell(keys, msg, move |m, out| encrypt(&ek, m, out))),
                Op::Decrypt => {
                    let mut ct = vec![0; ek.ciphertext_size()];
                    let n = encrypt(&ek, &msg, &mut ct)?;
                    ct.truncate(n);
                    Ok(op_cell(keys, ct, move |c, out| {
                        decrypt(&dk, c, out).map_err(unspecified("decrypt"))
                    }))
                }
                op => Err(no_cell(name, op)),
            }
        },
    )
    .with_keypair(move || rsa_keypair(size))
    .with_prepare_of(Op::Decrypt, move |c: &Case| {
        let dk = oaep_case_key(c)?;
        let (ct, mut out) = (c.msg.clone(), vec![0; dk.min_output_size()]);
        // a refused padding is the library's answer, inside the call: rejected
        Ok(Box::new(move || {
            black_box(decrypt(&dk, &ct, &mut out).map_err(rejected)?);
            Ok(())
        }))
    })
}

// ---- ECDSA and ECDH -------------------------------------------------------------

fn ecdsa_keys(curve: Curve, kp: &EcdsaKeyPair) -> Result<Keys, String> {
    let scalar: EcPrivateKeyBin = kp
        .private_key()
        .as_be_bytes()
        .map_err(unspecified("private key"))?;
    Ok(Keys::pair(
        ec_spki(curve, kp.public_key().as_ref()),
        scalar.as_ref().to_vec(),
    ))
}

/// A sign case's key: the bare scalar as an RFC 5915 ECPrivateKey.
fn ecdsa_case_key(
    c: &Case,
    curve: Curve,
    alg: &'static EcdsaSigningAlgorithm,
) -> Result<EcdsaKeyPair, Failure> {
    let der = super::pk::ec_private_key_der(curve, ec_scalar(&c.private, curve)?);
    EcdsaKeyPair::from_private_key_der(alg, &der).map_err(rejected)
}

fn ecdsa(
    name: &'static str,
    curve: Curve,
    alg: &'static EcdsaSigningAlgorithm,
    vrf: &'static EcdsaVerificationAlgorithm,
) -> Alg {
    sign_alg(
        name,
        move |c: &Case| match c.op {
            Op::Sign => {
                let kp = ecdsa_case_key(c, curve, alg)?;
                let sig = kp
                    .sign(&SystemRandom::new(), &c.msg)
                    .map_err(fail("sign"))?;
                Ok(sig.as_ref().to_vec())
            }
            Op::Verify => ecdsa_verify_case(c, curve, vrf),
            op => Err(no_case(name, op)),
        },
        move |p: &CellParams| {
            if p.op == Op::Keygen {
                return Ok(keygen_cell(
                    move || EcdsaKeyPair::generate(alg).map_err(unspecified("keygen")),
                    move |kp: &EcdsaKeyPair| Ok(ec_spki(curve, kp.public_key().as_ref())),
                ));
            }
            let kp = EcdsaKeyPair::generate(alg).map_err(unspecified("keygen"))?;
            let keys = ecdsa_keys(curve, &kp)?;
            ecdsa_cell(name, p, kp, keys, SystemRandom::new(), vrf)
        },
    )
    .with_keypair(move || {
        let k = ecdsa_keys(
            curve,
            &EcdsaKeyPair::generate(alg).map_err(unspecified("keygen"))?,
        )?;
        Ok(k.into())
    })
    .with_prepare_of(Op::Sign, move |c: &Case| {
        let kp = ecdsa_case_key(c, curve, alg)?;
        let (rng, msg) = (SystemRandom::new(), c.msg.clone());
        Ok(Box::new(move || {
            let sig = kp.sign(&rng, &msg).map_err(fail("sign"))?;
            black_box(sig.as_ref());
            Ok(())
        }))
    })
}

/// The public key of an agreement key, in protocol.md's encoding.
fn agreement_public(curve: Option<Curve>, k: &AgreementKey) -> Result<Vec<u8>, String> {
    let pk = k.compute_public_key().map_err(unspecified("public key"))?;
    Ok(match curve {
        Some(c) => ec_spki(c, pk.as_ref()),
        None => pk.as_ref().to_vec(),
    })
}

fn agreement_private(curve: Option<Curve>, k: &AgreementKey) -> Result<Vec<u8>, String> {
    Ok(match curve {
        Some(_) => {
            let b: EcPrivateKeyBin = k.as_be_bytes().map_err(unspecified("private key"))?;
            b.as_ref().to_vec()
        }
        None => {
            let b: Curve25519SeedBin = k.as_be_bytes().map_err(unspecified("private key"))?;
            b.as_ref().to_vec()
        }
    })
}

/// One shared secret into the output buffer.
fn agree_into(
    k: &AgreementKey,
    peer: agreement::ParsedPublicKey,
    out: &mut [u8],
) -> Result<usize, ()> {
    agreement::agree(k, peer, (), |s| put(out, s).map_err(|_| ()))
}

/// A derive case's private key and parsed peer key (untimed).
fn agreement_case_keys(
    c: &Case,
    curve: Option<Curve>,
    alg: &'static agreement::Algorithm,
) -> Result<(AgreementKey, agreement::ParsedPublicKey), Failure> {
    let k = match curve {
        Some(cv) => AgreementKey::from_private_key(alg, ec_scalar(&c.private, cv)?),
        None => AgreementKey::from_private_key(alg, &c.private),
    }
    .map_err(rejected)?;
    let peer = match curve {
        Some(cv) => ec_point_from_spki(&c.public, cv)?,
        None => &c.public,
    };
    let peer = agreement::ParsedPublicKey::try_from(agreement::UnparsedPublicKey::new(alg, peer))
        .map_err(rejected)?;
    Ok((k, peer))
}

/// Agreement over `curve` (`None`: X25519, raw keys).
fn agreement_alg(
    name: &'static str,
    ops: &'static [Op],
    curve: Option<Curve>,
    alg: &'static agreement::Algorithm,
) -> Alg {
    Alg::new(
        name,
        ops,
        false,
        move |c: &Case| match c.op {
            Op::Derive => {
                let (k, peer) = agreement_case_keys(c, curve, alg)?;
                let mut out = vec![0; 128];
                let n = agree_into(&k, peer, &mut out).map_err(rejected)?;
                out.truncate(n);
                Ok(out)
            }
            op => Err(no_case(name, op)),
        },
        move |p: &CellParams| {
            if p.op == Op::Keygen {
                return Ok(keygen_cell(
                    move || {
                        let k = AgreementKey::generate(alg).map_err(unspecified("keygen"))?;
                        let pk = k.compute_public_key().map_err(unspecified("public key"))?;
                        Ok((k, pk))
                    },
                    |(_, pk): &(AgreementKey, agreement::PublicKey)| Ok(pk.as_ref().to_vec()),
                ));
            }
            if p.op != Op::Derive {
                return Err(no_cell(name, p.op));
            }
            let k = AgreementKey::generate(alg).map_err(unspecified("keygen"))?;
            let other = AgreementKey::generate(alg).map_err(unspecified("keygen"))?;
            let keys = Keys {
                public: agreement_public(curve, &k)?,
                private: agreement_private(curve, &k)?,
                peer: agreement_public(curve, &other)?,
            };
            let point = other
                .compute_public_key()
                .map_err(unspecified("public key"))?;
            let peer = agreement::ParsedPublicKey::try_from(agreement::UnparsedPublicKey::new(
                alg,
                point.as_ref(),
            ))
            .map_err(|e| format!("peer key: {e}"))?;
            Ok(op_cell(keys, Vec::new(), move |_, out| {
                agree_into(&k, peer.clone(), out).map_err(|_| "agree failed".to_string())
            }))
        },
    )
    .with_keypair(move || {
        let k = AgreementKey::generate(alg).map_err(unspecified("keygen"))?;
        Ok(KeyPair {
            public: agreement_public(curve, &k)?,
            private: agreement_private(curve, &k)?,
        })
    })
    .with_prepare_of(Op::Derive, move |c: &Case| {
        let (k, peer) = agreement_case_keys(c, curve, alg)?;
        let mut out = vec![0; 128];
        Ok(Box::new(move || {
            // agree takes the parsed peer by value: cloned inside the call, as the bench cell does
            agree_into(&k, peer.clone(), &mut out).map_err(rejected)?;
            black_box(&out);
            Ok(())
        }))
    })
}

fn ecdh(name: &'static str, curve: Curve, alg: &'static agreement::Algorithm) -> Alg {
    agreement_alg(name, &[Op::Derive], Some(curve), alg)
}

fn x25519() -> Alg {
    agreement_alg(
        "x25519",
        &[Op::Keygen, Op::Derive],
        None,
        &agreement::X25519,
    )
}

// ---- Ed25519 ------------------------------------------------------------------

fn ed25519_keys(kp: &Ed25519KeyPair) -> Result<Keys, String> {
    let seed: Curve25519SeedBin = kp
        .seed()
        .map_err(unspecified("seed"))?
        .as_be_bytes()
        .map_err(unspecified("seed"))?;
    Ok(Keys::pair(
        kp.public_key().as_ref().to_vec(),
        seed.as_ref().to_vec(),
    ))
}

fn ed25519() -> Alg {
    sign_alg("ed25519", ed25519_case, |p: &CellParams| {
        if p.op == Op::Keygen {
            return Ok(keygen_cell(
                || Ed25519KeyPair::generate().map_err(unspecified("keygen")),
                |kp: &Ed25519KeyPair| Ok(kp.public_key().as_ref().to_vec()),
            ));
        }
        let kp = Ed25519KeyPair::generate().map_err(unspecified("keygen"))?;
        let keys = ed25519_keys(&kp)?;
        ed25519_cell(p, kp, keys)
    })
    .with_keypair(|| {
        let k = ed25519_keys(&Ed25519KeyPair::generate().map_err(unspecified("keygen"))?)?;
        Ok(k.into())
    })
    .with_prepare_of(Op::Sign, ed25519_prepared)
}

// ---- ML-KEM -------------------------------------------------------------------

#[derive(Clone, Copy)]
enum MlKem {
    K512,
    K768,
    K1024,
}

/// The FIPS 203 expanded decapsulation key and the encapsulation key of a
/// 64-byte seed d||z, computed with RustCrypto's ml-kem: aws-lc-rs imports
/// only the expanded key (see NOTES).
#[allow(deprecated)] // ExpandedKeyEncoding: the expanded form is what AWS-LC takes
fn mlkem_expand(which: MlKem, seed: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Failure> {
    use ml_kem::kem::KeyExport;
    use ml_kem::{DecapsulationKey, ExpandedKeyEncoding, Seed};
    let seed = Seed::from(super::pk::array::<64>(seed)?);
    macro_rules! parts {
        ($p:ty) => {{
            let dk = DecapsulationKey::<$p>::from_seed(seed);
            (
                dk.to_expanded_bytes().to_vec(),
                dk.encapsulation_key().to_bytes().to_vec(),
            )
        }};
    }
    Ok(match which {
        MlKem::K512 => parts!(ml_kem::MlKem512),
        MlKem::K768 => parts!(ml_kem::MlKem768),
        MlKem::K1024 => parts!(ml_kem::MlKem1024),
    })
}

/// A decaps case's key: the seed expanded (untimed) and imported.
fn mlkem_case_key(
    c: &Case,
    alg: &'static kem::Algorithm,
    which: MlKem,
) -> Result<kem::DecapsulationKey, Failure> {
    let (dk, _) = mlkem_expand(which, &c.private)?;
    kem::DecapsulationKey::new(alg, &dk).map_err(rejected)
}

fn mlkem(name: &'static str, alg: &'static kem::Algorithm, which: MlKem) -> Alg {
    Alg::new(
        name,
        &[Op::Keygen, Op::Encaps, Op::Decaps],
        false,
        move |c: &Case| match c.op {
            Op::Keygen => Err(Failure::Unsupported(
                "aws-lc-rs has no ML-KEM key generation from a seed".into(),
            )),
            Op::Encaps => {
                if c.m.is_some() {
                    return Err(Failure::Unsupported(
                        "aws-lc-rs has no deterministic ML-KEM encapsulation".into(),
                    ));
                }
                let ek = kem::EncapsulationKey::new(alg, &c.public).map_err(rejected)?;
                let (ct, k) = ek.encapsulate().map_err(rejected)?;
                Ok([ct.as_ref(), k.as_ref()].concat())
            }
            Op::Decaps => {
                let dk = mlkem_case_key(c, alg, which)?;
                let k = dk.decapsulate(c.msg[..].into()).map_err(rejected)?;
                Ok(k.as_ref().to_vec())
            }
            op => Err(no_case(name, op)),
        },
        move |p: &CellParams| {
            let ek_bytes = |dk: &kem::DecapsulationKey| -> Result<Vec<u8>, String> {
                let ek = dk.encapsulation_key().map_err(unspecified("key"))?;
                Ok(ek
                    .key_bytes()
                    .map_err(unspecified("key"))?
                    .as_ref()
                    .to_vec())
            };
            if p.op == Op::Keygen {
                return Ok(keygen_cell(
                    move || kem::DecapsulationKey::generate(alg).map_err(unspecified("keygen")),
                    move |dk: &kem::DecapsulationKey| ek_bytes(dk),
                ));
            }
            let dk = kem::DecapsulationKey::generate(alg).map_err(unspecified("keygen"))?;
            let ek = dk.encapsulation_key().map_err(unspecified("key"))?;
            // The seed of an AWS-LC key is not available: private stays empty.
            let keys = Keys::pair(ek_bytes(&dk)?, Vec::new());
            match p.op {
                Op::Encaps => Ok(op_cell(keys, Vec::new(), move |_, out| {
                    let (ct, k) = ek.encapsulate().map_err(unspecified("encapsulate"))?;
                    put2(out, ct.as_ref(), k.as_ref())
                })),
                Op::Decaps => {
                    let (ct, k) = ek.encapsulate().map_err(unspecified("encapsulate"))?;
                    let ct = ct.as_ref().to_vec();
                    let got = dk
                        .decapsulate(ct[..].into())
                        .map_err(unspecified("decapsulate"))?;
                    decaps_agrees(name, got.as_ref(), k.as_ref())?;
                    Ok(op_cell(keys, ct, move |c, out| {
                        let k = dk
                            .decapsulate(c.into())
                            .map_err(unspecified("decapsulate"))?;
                        put(out, k.as_ref())
                    }))
                }
                op => Err(no_cell(name, op)),
            }
        },
    )
    .with_keypair(move || {
        let mut seed = [0u8; 64];
        aws_lc_rs::rand::fill(&mut seed).map_err(unspecified("rand"))?;
        let (_, public) = mlkem_expand(which, &seed).map_err(|_| "seed".to_string())?;
        Ok(KeyPair {
            public,
            private: seed.to_vec(),
        })
    })
    .with_prepare_of(Op::Decaps, move |c: &Case| {
        let dk = mlkem_case_key(c, alg, which)?;
        let ct = c.msg.clone();
        Ok(Box::new(move || {
            let k = dk.decapsulate(ct[..].into()).map_err(rejected)?;
            black_box(k.as_ref());
            Ok(())
        }))
    })
}

// ---- ML-DSA -------------------------------------------------------------------

fn mldsa(
    name: &'static str,
    alg: &'static PqdsaSigningAlgorithm,
    vrf: &'static PqdsaVerificationAlgorithm,
) -> Alg {
    fn sign_into(kp: &PqdsaKeyPair, m: &[u8], out: &mut [u8]) -> Result<usize, String> {
        kp.sign(m, out).map_err(unspecified("sign"))
    }
    sign_alg(
        name,
        move |c: &Case| match c.op {
            Op::Sign => {
                if c.deterministic {
                    return Err(Failure::Unsupported(
                        "aws-lc-rs has no deterministic ML-DSA signing".into(),
                    ));
                }
                if !c.ctx.is_empty() {
                    return Err(Failure::Unsupported(
                        "aws-lc-rs has no ML-DSA context string".into(),
                    ));
                }
                let kp = PqdsaKeyPair::from_seed(alg, &c.private).map_err(rejected)?;
                let mut sig = vec![0; alg.signature_len()];
                let n = sign_into(&kp, &c.msg, &mut sig)?;
                sig.truncate(n);
                Ok(sig)
            }
            Op::Verify => {
                if !c.ctx.is_empty() {
                    return Err(Failure::Unsupported(
                        "aws-lc-rs has no ML-DSA context string".into(),
                    ));
                }
                verified(UnparsedPublicKey::new(vrf, &c.public).verify(&c.msg, &c.sig))
            }
            Op::Keygen => {
                let kp = PqdsaKeyPair::from_seed(alg, &c.seed).map_err(rejected)?;
                Ok(kp.public_key().as_ref().to_vec())
            }
            op => Err(no_case(name, op)),
        },
        move |p: &CellParams| {
            if p.op == Op::Keygen {
                return Ok(keygen_cell(
                    move || PqdsaKeyPair::generate(alg).map_err(unspecified("keygen")),
                    |kp: &PqdsaKeyPair| Ok(kp.public_key().as_ref().to_vec()),
                ));
            }
            let mut seed = [0u8; 32];
            aws_lc_rs::rand::fill(&mut seed).map_err(unspecified("rand"))?;
            let kp = PqdsaKeyPair::from_seed(alg, &seed).map_err(|e| format!("{e}"))?;
            let keys = Keys::pair(kp.public_key().as_ref().to_vec(), seed.to_vec());
            let msg = message(p);
            match p.op {
                Op::Sign => Ok(op_cell(keys, msg, move |m, out| sign_into(&kp, m, out))),
                Op::Verify => {
                    let mut sig = vec![0; OUT_CAP];
                    let n = sign_into(&kp, &msg, &mut sig)?;
                    sig.truncate(n);
                    let pk = ParsedPublicKey::new(vrf, kp.public_key().as_ref())
                        .map_err(|e| format!("public key: {e}"))?;
                    Ok(verify_cell(keys, msg, move |m| {
                        pk.verify_sig(m, &sig).is_ok()
                    }))
                }
                op => Err(no_cell(name, op)),
            }
        },
    )
    .with_keypair(move || {
        let mut seed = [0u8; 32];
        aws_lc_rs::rand::fill(&mut seed).map_err(unspecified("rand"))?;
        let kp = PqdsaKeyPair::from_seed(alg, &seed).map_err(|e| format!("{e}"))?;
        Ok(KeyPair {
            public: kp.public_key().as_ref().to_vec(),
            private: seed.to_vec(),
        })
    })
}
