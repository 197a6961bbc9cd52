//! rust:rustcrypto's public-key and post-quantum algorithms (protocol.md,
//! since version 2): `rsa` (RSA keygen, RSASSA-PSS, RSASSA-PKCS1-v1_5,
//! RSAES-OAEP), `p256`/`p384`/`k256` (ECDSA, ECDH), `ed25519-dalek`,
//! `x25519-dalek`, `ml-kem`, `ml-dsa`, `slh-dsa`, `x-wing` and `sm2`. Randomness comes from
//! `rand::rng()` (rand's ThreadRng: ChaCha12 seeded and reseeded from the
//! OS through getrandom), made once per cell.

use std::hint::black_box;

use rand::rngs::ThreadRng;
use rand::Rng as _;

use super::pk::{
    array, check_oaep_size, decaps_agrees, ec_point_from_spki, ec_scalar, ec_spki, keygen_cell,
    message, no_case, no_cell, op_cell, put, put2, rejected, sign_alg, verdict, verified,
    verify_cell, Curve, Keys,
};
use super::{Alg, Case, Cell, CellParams, Failure, KeyPair, Op};

fn rng() -> ThreadRng {
    rand::rng()
}

/// An algorithm's cells: `keygen` times `generate` alone, with the cell's
/// generator (`public`, the public key's encoding for the checksum, is
/// untimed); every other operation's cell is `cell`'s, given a fresh generator.
fn cells<K: 'static>(
    generate: impl Fn(&mut ThreadRng) -> K + Copy + 'static,
    public: impl Fn(&K) -> Vec<u8> + Copy + 'static,
    cell: impl Fn(&CellParams, ThreadRng) -> Result<Box<dyn Cell>, String> + 'static,
) -> impl Fn(&CellParams) -> Result<Box<dyn Cell>, String> + 'static {
    move |p| {
        let mut r = rng();
        if p.op == Op::Keygen {
            return Ok(keygen_cell(
                move || Ok(generate(&mut r)),
                move |k: &K| Ok(public(k)),
            ));
        }
        cell(p, r)
    }
}

/// Every public-key algorithm of the provider.
pub fn algs() -> Vec<Alg> {
    let mut v = Vec::new();
    for (bits, names) in [
        (
            2048,
            [
                "rsa-2048",
                "rsa-2048-pss",
                "rsa-2048-pkcs1",
                "rsa-2048-oaep",
            ],
        ),
        (
            3072,
            [
                "rsa-3072",
                "rsa-3072-pss",
                "rsa-3072-pkcs1",
                "rsa-3072-oaep",
            ],
        ),
        (
            4096,
            [
                "rsa-4096",
                "rsa-4096-pss",
                "rsa-4096-pkcs1",
                "rsa-4096-oaep",
            ],
        ),
    ] {
        v.push(rsa::keygen_alg(names[0], bits));
        v.push(rsa::sig_alg(names[1], bits, rsa::Padding::Pss));
        v.push(rsa::sig_alg(names[2], bits, rsa::Padding::Pkcs1));
        v.push(rsa::oaep_alg(names[3], bits));
    }
    v.extend(ec::p256());
    v.extend(ec::p384());
    v.extend(ec::k256());
    v.push(ed25519());
    v.push(x25519());
    v.push(mlkem::mlkem512());
    v.push(mlkem::mlkem768());
    v.push(mlkem::mlkem1024());
    v.push(mldsa::mldsa44());
    v.push(mldsa::mldsa65());
    v.push(mldsa::mldsa87());
    v.extend(slhdsa::all());
    v.push(xwing());
    v.push(sm2());
    v
}

pub const NOTES: &[&str] = &[
    "Public-key cells: keys (and the peer key, the signature to verify, the ciphertext to decrypt or decapsulate) are made once per cell, untimed; key objects are parsed/expanded once per cell (RustCrypto's ML-DSA and ML-KEM keys keep their expanded matrices, as the library does). Randomness: rand::rng() (ThreadRng, a ChaCha12 CSPRNG seeded from the OS), one handle per cell.",
    "keygen: the timed operation is the library's generate call alone (RsaPrivateKey::new with e = 65537 incl. CRT precomputation; ecdsa SigningKey::random, which computes the verifying key; ed25519 SigningKey::generate; x25519 StaticSecret::random_from_rng + PublicKey::from; ML-KEM DecapsulationKey::generate_from_rng; ML-DSA SigningKey::generate_from_rng; SM2 SecretKey::random + public_key()); encoding the public key for the checksum is untimed and the sink folds the constant 1 per key pair.",
    "RSA (rsa 0.9, the latest stable release; num-bigint-dig arithmetic, not constant-time: RUSTSEC-2023-0071 'Marvin'; 0.10 is a release candidate): PSS is pss::SigningKey<Sha256>::sign_with_rng (salt 32 bytes, blinded), PKCS#1 v1.5 is pkcs1v15::SigningKey<Sha256>::sign_with_rng (the rng blinds the private operation), OAEP is oaep::EncryptingKey/DecryptingKey<Sha256> (MGF1-SHA-256, empty label; decrypt_with_rng, blinded). rsa 0.9 uses sha2 0.10.",
    "ECDSA (p256, p384, k256 0.14 on ecdsa 0.17): SigningKey::sign_with_rng into a DER signature (RFC 6979 nonce hedged with rng output), VerifyingKey::verify over the message (the hash is inside both calls); the DER signature to verify is parsed once per cell. k256 signs low-S and, by design (Bitcoin's low-S rule), refuses high-S signatures, which plain ECDSA (Wycheproof, other libraries' signatures) accepts: the driver calls the crate's Signature::normalize_s before k256's verify (inside the timed verify; a comparison and a conditional negation). ECDH: elliptic_curve::ecdh::diffie_hellman(secret scalar, peer affine point) -> the x coordinate.",
    "Ed25519: ed25519-dalek 3 SigningKey::sign / VerifyingKey::verify (Verifier trait, not verify_strict). X25519: x25519-dalek 3 StaticSecret::diffie_hellman.",
    "ML-KEM (ml-kem 0.3): encapsulate_with_rng, decapsulate; keygen from the seed d||z with DecapsulationKey::from_seed, deterministic encapsulation with encapsulate_deterministic(m). ML-DSA (ml-dsa 0.1): ExpandedSigningKey::sign_randomized (hedged, empty context) and VerifyingKey::verify_with_context; the cases' deterministic signing is sign_deterministic, their keygen ExpandedSigningKey::from_seed(xi).",
    "SLH-DSA (slh-dsa 0.2.0-rc.5, all 12 FIPS 205 parameter sets): keygen is SigningKey::new(rng) (three n-byte seeds from the rng, then PK.root); sign is the hedged RandomizedSigner::try_sign_with_rng (a fresh n-byte opt_rand from the rng, pure, empty context); verify is VerifyingKey::try_verify_with_context with an empty context. Cases: keygen from SK.seed||SK.prf||PK.seed with slh_keygen_internal, sign with try_sign_with_context (deterministic: opt_rand = PK.seed).",
    "X-Wing (x-wing 0.1.1, draft-connolly-cfrg-xwing-kem-06, over ml-kem 0.3 and x25519-dalek 3): keygen is DecapsulationKey::generate_from_rng (a 32-byte seed, expanded with SHAKE256 into the ML-KEM-768 and X25519 keys); encaps is encapsulate_with_rng; decaps is DecapsulationKey::decapsulate, which expands the 32-byte seed again on every call (the crate keeps only the seed, as the draft's private key is), so the timed decaps includes that expansion (an ML-KEM-768 key generation and an X25519 base-point multiplication). Cases: keygen from the seed, deterministic encapsulation with encapsulate_deterministic(eseed).",
    "SM2 (sm2 0.14): dsa::SigningKey with the identity 1234567812345678, sign_with_rng into a DER signature; VerifyingKey::verify (Z_A is computed when the key is made, once per cell).",
    "Not offered: ECDH and ECDSA keygen for ECDH algorithms (derive only), Ed448/X448 (RustCrypto's ed448-goldilocks/x448 are only pre-releases, 0.14.0-pre), SM2 encryption and key exchange (not in the suite).",
];

// ---- RSA ----------------------------------------------------------------------

mod rsa {
    use ::rsa::oaep::{DecryptingKey, EncryptingKey};
    use ::rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
    use ::rsa::sha2::Sha256;
    use ::rsa::signature::{RandomizedSigner, SignatureEncoding, Verifier};
    use ::rsa::traits::{RandomizedDecryptor, RandomizedEncryptor};
    use ::rsa::{pkcs1v15, pss, RsaPrivateKey, RsaPublicKey};
    use rand::rngs::ThreadRng;
    use rand::Rng as _;

    use super::*;

    /// rsa 0.9 takes rand_core 0.6 generators: ThreadRng through that API.
    pub struct Rng06(pub ThreadRng);

    impl ::rsa::rand_core::RngCore for Rng06 {
        fn next_u32(&mut self) -> u32 {
            self.0.next_u32()
        }
        fn next_u64(&mut self) -> u64 {
            self.0.next_u64()
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            self.0.fill_bytes(dest)
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), ::rsa::rand_core::Error> {
            self.0.fill_bytes(dest);
            Ok(())
        }
    }

    impl ::rsa::rand_core::CryptoRng for Rng06 {}

    fn rng06() -> Rng06 {
        Rng06(rng())
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Padding {
        Pss,
        Pkcs1,
    }

    fn generate(bits: usize) -> Result<RsaPrivateKey, String> {
        RsaPrivateKey::new(&mut rng06(), bits).map_err(|e| format!("RSA keygen: {e}"))
    }

    fn spki(k: &RsaPublicKey) -> Result<Vec<u8>, String> {
        Ok(k.to_public_key_der()
            .map_err(|e| format!("public key DER: {e}"))?
            .as_bytes()
            .to_vec())
    }

    fn encode(k: &RsaPrivateKey) -> Result<Keys, String> {
        let private = k
            .to_pkcs8_der()
            .map_err(|e| format!("PKCS#8: {e}"))?
            .as_bytes()
            .to_vec();
        Ok(Keys::pair(spki(&k.to_public_key())?, private))
    }

    fn keypair(bits: usize) -> Result<KeyPair, String> {
        let k = encode(&generate(bits)?)?;
        Ok(k.into())
    }

    fn private(der: &[u8]) -> Result<RsaPrivateKey, Failure> {
        RsaPrivateKey::from_pkcs8_der(der).map_err(rejected)
    }

    fn public(der: &[u8]) -> Result<RsaPublicKey, Failure> {
        RsaPublicKey::from_public_key_der(der).map_err(rejected)
    }

    pub fn keygen_alg(name: &'static str, bits: usize) -> Alg {
        crate::ops::pk::keygen_only_alg(name, move || {
            let mut r = rng06();
            keygen_cell(
                move || RsaPrivateKey::new(&mut r, bits).map_err(|e| format!("keygen: {e}")),
                |k: &RsaPrivateKey| spki(&k.to_public_key()),
            )
        })
        .with_keypair(move || keypair(bits))
    }

    fn sign(key: RsaPrivateKey, pad: Padding, msg: &[u8], r: &mut Rng06) -> Vec<u8> {
        match pad {
            Padding::Pss => pss::SigningKey::<Sha256>::new(key)
                .sign_with_rng(r, msg)
                .to_vec(),
            Padding::Pkcs1 => pkcs1v15::SigningKey::<Sha256>::new(key)
                .sign_with_rng(r, msg)
                .to_vec(),
        }
    }

    fn verify(key: RsaPublicKey, pad: Padding, msg: &[u8], sig: &[u8]) -> Result<(), Failure> {
        match pad {
            Padding::Pss => {
                let sig = pss::Signature::try_from(sig).map_err(rejected)?;
                pss::VerifyingKey::<Sha256>::new(key)
                    .verify(msg, &sig)
                    .map_err(rejected)
            }
            Padding::Pkcs1 => {
                let sig = pkcs1v15::Signature::try_from(sig).map_err(rejected)?;
                pkcs1v15::VerifyingKey::<Sha256>::new(key)
                    .verify(msg, &sig)
                    .map_err(rejected)
            }
        }
    }

    pub fn sig_alg(name: &'static str, bits: usize, pad: Padding) -> Alg {
        Alg::new(
            name,
            &[Op::Sign, Op::Verify],
            false,
            move |c: &Case| match c.op {
                Op::Sign => Ok(sign(private(&c.private)?, pad, &c.msg, &mut rng06())),
                Op::Verify => {
                    verify(public(&c.public)?, pad, &c.msg, &c.sig)?;
                    Ok(vec![1])
                }
                op => Err(no_case(name, op)),
            },
            move |p: &CellParams| {
                let key = generate(bits)?;
                let keys = encode(&key)?;
                let msg = message(p);
                match (p.op, pad) {
                    (Op::Sign, Padding::Pss) => {
                        let sk = pss::SigningKey::<Sha256>::new(key);
                        let mut r = rng06();
                        Ok(op_cell(keys, msg, move |m, out| {
                            put(out, &sk.sign_with_rng(&mut r, m).to_bytes())
                        }))
                    }
                    (Op::Sign, Padding::Pkcs1) => {
                        let sk = pkcs1v15::SigningKey::<Sha256>::new(key);
                        let mut r = rng06();
                        Ok(op_cell(keys, msg, move |m, out| {
                            put(out, &sk.sign_with_rng(&mut r, m).to_bytes())
                        }))
                    }
                    (Op::Verify, Padding::Pss) => {
                        let sig = pss::SigningKey::<Sha256>::new(key.clone())
                            .sign_with_rng(&mut rng06(), &msg);
                        let vk = pss::VerifyingKey::<Sha256>::new(key.to_public_key());
                        Ok(verify_cell(keys, msg, move |m| vk.verify(m, &sig).is_ok()))
                    }
                    (Op::Verify, Padding::Pkcs1) => {
                        let sig = pkcs1v15::SigningKey::<Sha256>::new(key.clone())
                            .sign_with_rng(&mut rng06(), &msg);
                        let vk = pkcs1v15::VerifyingKey::<Sha256>::new(key.to_public_key());
                        Ok(verify_cell(keys, msg, move |m| vk.verify(m, &sig).is_ok()))
                    }
                    (op, _) => Err(no_cell(name, op)),
                }
            },
        )
        .with_keypair(move || keypair(bits))
        .with_prepare_of(Op::Sign, move |c: &Case| {
            let (key, msg, mut r) = (private(&c.private)?, c.msg.clone(), rng06());
            Ok(match pad {
                Padding::Pss => {
                    let sk = pss::SigningKey::<Sha256>::new(key);
                    Box::new(move || {
                        black_box(sk.sign_with_rng(&mut r, &msg).to_bytes());
                        Ok(())
                    })
                }
                Padding::Pkcs1 => {
                    let sk = pkcs1v15::SigningKey::<Sha256>::new(key);
                    Box::new(move || {
                        black_box(sk.sign_with_rng(&mut r, &msg).to_bytes());
                        Ok(())
                    })
                }
            })
        })
    }

    pub fn oaep_alg(name: &'static str, bits: usize) -> Alg {
        Alg::new(
            name,
            &[Op::Encrypt, Op::Decrypt],
            false,
            move |c: &Case| match c.op {
                Op::Encrypt => EncryptingKey::<Sha256>::new(public(&c.public)?)
                    .encrypt_with_rng(&mut rng06(), &c.msg)
                    .map_err(rejected),
                Op::Decrypt => DecryptingKey::<Sha256>::new(private(&c.private)?)
                    .decrypt_with_rng(&mut rng06(), &c.msg)
                    .map_err(rejected),
                op => Err(no_case(name, op)),
            },
            move |p: &CellParams| {
                check_oaep_size(name, bits, p.size)?;
                let key = generate(bits)?;
                let keys = encode(&key)?;
                let msg = message(p);
                let ek = EncryptingKey::<Sha256>::new(key.to_public_key());
                let mut r = rng06();
                match p.op {
                    Op::Encrypt => Ok(op_cell(keys, msg, move |m, out| {
                        put(
                            out,
                            &ek.encrypt_with_rng(&mut r, m)
                                .map_err(|e| format!("encrypt: {e}"))?,
                        )
                    })),
                    Op::Decrypt => {
                        let ct = ek
                            .encrypt_with_rng(&mut r, &msg)
                            .map_err(|e| format!("encrypt: {e}"))?;
                        let dk = DecryptingKey::<Sha256>::new(key);
                        Ok(op_cell(keys, ct, move |c, out| {
                            put(
                                out,
                                &dk.decrypt_with_rng(&mut r, c)
                                    .map_err(|e| format!("decrypt: {e}"))?,
                            )
                        }))
                    }
                    op => Err(no_cell(name, op)),
                }
            },
        )
        .with_keypair(move || keypair(bits))
        .with_prepare_of(Op::Decrypt, move |c: &Case| {
            let dk = DecryptingKey::<Sha256>::new(private(&c.private)?);
            let (ct, mut r) = (c.msg.clone(), rng06());
            // a refused padding is the library's answer, inside the call: rejected
            Ok(Box::new(move || {
                black_box(dk.decrypt_with_rng(&mut r, &ct).map_err(rejected)?);
                Ok(())
            }))
        })
    }
}

// ---- ECDSA and ECDH -------------------------------------------------------------

mod ec {
    use super::*;

    /// ECDSA and ECDH over one of the RustCrypto curve crates (same API).
    macro_rules! curve {
        ($fn:ident, $c:ident, $curve:expr, $ecdsa:literal, $ecdh:literal, $low_s:literal) => {
            pub fn $fn() -> [Alg; 2] {
                use signature::{RandomizedSigner, Verifier};
                use $c::ecdsa::{DerSignature, Signature, SigningKey, VerifyingKey};
                use $c::elliptic_curve::sec1::ToSec1Point;
                use $c::elliptic_curve::Generate as _;
                use $c::{PublicKey, SecretKey};

                const CURVE: Curve = $curve;
                /// k256 refuses high-S signatures (its low-S policy); the
                /// contract is plain ECDSA, so s is normalised first with
                /// the crate's own normalize_s (see NOTES).
                const LOW_S: bool = $low_s;

                fn verify(vk: &VerifyingKey, msg: &[u8], sig: &Signature) -> bool {
                    if LOW_S {
                        vk.verify(msg, &sig.normalize_s()).is_ok()
                    } else {
                        vk.verify(msg, sig).is_ok()
                    }
                }

                fn vk_spki(vk: &VerifyingKey) -> Vec<u8> {
                    ec_spki(CURVE, vk.to_sec1_point(false).as_bytes())
                }
                fn pk_spki(pk: &PublicKey) -> Vec<u8> {
                    ec_spki(CURVE, pk.to_sec1_point(false).as_bytes())
                }
                fn sk_keys(sk: &SigningKey) -> Keys {
                    Keys::pair(vk_spki(sk.verifying_key()), sk.to_bytes().to_vec())
                }
                fn public(spki: &[u8]) -> Result<PublicKey, Failure> {
                    PublicKey::from_sec1_bytes(ec_point_from_spki(spki, CURVE)?).map_err(rejected)
                }

                let ecdsa = sign_alg(
                    $ecdsa,
                    |c: &Case| match c.op {
                        Op::Sign => {
                            let sk = SigningKey::from_slice(ec_scalar(&c.private, CURVE)?)
                                .map_err(rejected)?;
                            let sig: DerSignature = sk
                                .try_sign_with_rng(&mut rng(), &c.msg)
                                .map_err(|e| Failure::Error(format!("sign: {e}")))?;
                            Ok(sig.as_bytes().to_vec())
                        }
                        Op::Verify => {
                            let vk = VerifyingKey::from(public(&c.public)?);
                            let sig = Signature::from_der(&c.sig).map_err(rejected)?;
                            verdict(verify(&vk, &c.msg, &sig))
                        }
                        op => Err(no_case($ecdsa, op)),
                    },
                    cells(
                        |r| SigningKey::generate_from_rng(r),
                        |sk: &SigningKey| vk_spki(sk.verifying_key()),
                        |p: &CellParams, mut r| {
                            let sk = SigningKey::generate_from_rng(&mut r);
                            let keys = sk_keys(&sk);
                            let msg = message(p);
                            match p.op {
                                Op::Sign => Ok(op_cell(keys, msg, move |m, out| {
                                    let sig: DerSignature = sk
                                        .try_sign_with_rng(&mut r, m)
                                        .map_err(|e| format!("sign: {e}"))?;
                                    put(out, sig.as_bytes())
                                })),
                                Op::Verify => {
                                    let sig: DerSignature = sk.sign_with_rng(&mut r, &msg);
                                    // parsed once per cell, as a verifier holding a DER signature would
                                    let sig = Signature::from_der(sig.as_bytes())
                                        .map_err(|e| format!("signature: {e}"))?;
                                    let vk = *sk.verifying_key();
                                    Ok(verify_cell(keys, msg, move |m| verify(&vk, m, &sig)))
                                }
                                op => Err(no_cell($ecdsa, op)),
                            }
                        },
                    ),
                )
                .with_keypair(|| {
                    let k = sk_keys(&SigningKey::generate_from_rng(&mut rng()));
                    Ok(k.into())
                })
                .with_prepare_of(Op::Sign, |c: &Case| {
                    let sk =
                        SigningKey::from_slice(ec_scalar(&c.private, CURVE)?).map_err(rejected)?;
                    let (msg, mut r) = (c.msg.clone(), rng());
                    Ok(Box::new(move || {
                        let sig: DerSignature = sk
                            .try_sign_with_rng(&mut r, &msg)
                            .map_err(|e| Failure::Error(format!("sign: {e}")))?;
                        black_box(sig);
                        Ok(())
                    }))
                });

                let ecdh = Alg::new(
                    $ecdh,
                    &[Op::Derive],
                    false,
                    |c: &Case| match c.op {
                        Op::Derive => {
                            let sk = SecretKey::from_slice(ec_scalar(&c.private, CURVE)?)
                                .map_err(rejected)?;
                            let peer = public(&c.public)?;
                            let shared =
                                $c::ecdh::diffie_hellman(sk.to_nonzero_scalar(), peer.as_affine());
                            Ok(shared.raw_secret_bytes().to_vec())
                        }
                        op => Err(no_case($ecdh, op)),
                    },
                    |p: &CellParams| {
                        if p.op != Op::Derive {
                            return Err(no_cell($ecdh, p.op));
                        }
                        let mut r = rng();
                        let sk = SecretKey::generate_from_rng(&mut r);
                        let peer = SecretKey::generate_from_rng(&mut r).public_key();
                        let keys = Keys {
                            public: pk_spki(&sk.public_key()),
                            private: sk.to_bytes().to_vec(),
                            peer: pk_spki(&peer),
                        };
                        let scalar = sk.to_nonzero_scalar();
                        let point = *peer.as_affine();
                        Ok(op_cell(keys, Vec::new(), move |_, out| {
                            let shared = $c::ecdh::diffie_hellman(scalar, point);
                            put(out, shared.raw_secret_bytes())
                        }))
                    },
                )
                .with_keypair(|| {
                    let sk = SecretKey::generate_from_rng(&mut rng());
                    Ok(KeyPair {
                        public: pk_spki(&sk.public_key()),
                        private: sk.to_bytes().to_vec(),
                    })
                })
                .with_prepare_of(Op::Derive, |c: &Case| {
                    let sk =
                        SecretKey::from_slice(ec_scalar(&c.private, CURVE)?).map_err(rejected)?;
                    let (scalar, point) = (sk.to_nonzero_scalar(), *public(&c.public)?.as_affine());
                    Ok(Box::new(move || {
                        let shared = $c::ecdh::diffie_hellman(scalar, point);
                        black_box(shared.raw_secret_bytes());
                        Ok(())
                    }))
                });
                [ecdsa, ecdh]
            }
        };
    }

    curve!(p256, p256, Curve::P256, "ecdsa-p256", "ecdh-p256", false);
    curve!(p384, p384, Curve::P384, "ecdsa-p384", "ecdh-p384", false);
    curve!(
        k256,
        k256,
        Curve::Secp256k1,
        "ecdsa-secp256k1",
        "ecdh-secp256k1",
        true
    );
}

// ---- Ed25519 and X25519 ---------------------------------------------------------

fn ed25519() -> Alg {
    use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
    fn keys(sk: &SigningKey) -> Keys {
        Keys::pair(
            sk.verifying_key().to_bytes().to_vec(),
            sk.to_bytes().to_vec(),
        )
    }
    sign_alg(
        "ed25519",
        |c: &Case| match c.op {
            Op::Sign => {
                let sk = SigningKey::from_bytes(&array::<32>(&c.private)?);
                Ok(sk.sign(&c.msg).to_bytes().to_vec())
            }
            Op::Verify => {
                let vk = VerifyingKey::from_bytes(&array::<32>(&c.public)?).map_err(rejected)?;
                let sig = Signature::from_slice(&c.sig).map_err(rejected)?;
                verified(vk.verify(&c.msg, &sig))
            }
            op => Err(no_case("ed25519", op)),
        },
        cells(
            SigningKey::generate,
            |sk: &SigningKey| sk.verifying_key().to_bytes().to_vec(),
            |p: &CellParams, mut r| {
                let sk = SigningKey::generate(&mut r);
                let msg = message(p);
                match p.op {
                    Op::Sign => Ok(op_cell(keys(&sk), msg, move |m, out| {
                        put(out, &sk.sign(m).to_bytes())
                    })),
                    Op::Verify => {
                        let sig = sk.sign(&msg);
                        let vk = sk.verifying_key();
                        Ok(verify_cell(keys(&sk), msg, move |m| {
                            vk.verify(m, &sig).is_ok()
                        }))
                    }
                    op => Err(no_cell("ed25519", op)),
                }
            },
        ),
    )
    .with_keypair(|| {
        let k = keys(&SigningKey::generate(&mut rng()));
        Ok(k.into())
    })
    .with_prepare_of(Op::Sign, |c: &Case| {
        // from_bytes computes the public key (a scalar multiplication): outside the call
        let sk = SigningKey::from_bytes(&array::<32>(&c.private)?);
        let msg = c.msg.clone();
        Ok(Box::new(move || {
            black_box(sk.sign(&msg).to_bytes());
            Ok(())
        }))
    })
}

fn x25519() -> Alg {
    use x25519_dalek::{PublicKey, StaticSecret};
    Alg::new(
        "x25519",
        &[Op::Keygen, Op::Derive],
        false,
        |c: &Case| match c.op {
            Op::Derive => {
                let sk = StaticSecret::from(array::<32>(&c.private)?);
                let peer = PublicKey::from(array::<32>(&c.public)?);
                Ok(sk.diffie_hellman(&peer).as_bytes().to_vec())
            }
            op => Err(no_case("x25519", op)),
        },
        cells(
            |r| {
                let sk = StaticSecret::random_from_rng(r);
                let pk = PublicKey::from(&sk);
                (sk, pk)
            },
            |(_, pk): &(StaticSecret, PublicKey)| pk.as_bytes().to_vec(),
            |p: &CellParams, mut r| match p.op {
                Op::Derive => {
                    let sk = StaticSecret::random_from_rng(&mut r);
                    let peer = PublicKey::from(&StaticSecret::random_from_rng(&mut r));
                    let keys = Keys {
                        public: PublicKey::from(&sk).as_bytes().to_vec(),
                        private: sk.to_bytes().to_vec(),
                        peer: peer.as_bytes().to_vec(),
                    };
                    Ok(op_cell(keys, Vec::new(), move |_, out| {
                        put(out, sk.diffie_hellman(&peer).as_bytes())
                    }))
                }
                op => Err(no_cell("x25519", op)),
            },
        ),
    )
    .with_keypair(|| {
        let sk = StaticSecret::random_from_rng(&mut rng());
        Ok(KeyPair {
            public: PublicKey::from(&sk).as_bytes().to_vec(),
            private: sk.to_bytes().to_vec(),
        })
    })
    .with_prepare_of(Op::Derive, |c: &Case| {
        let sk = StaticSecret::from(array::<32>(&c.private)?);
        let peer = PublicKey::from(array::<32>(&c.public)?);
        Ok(Box::new(move || {
            black_box(sk.diffie_hellman(&peer).as_bytes());
            Ok(())
        }))
    })
}

// ---- ML-KEM -------------------------------------------------------------------

/// An encaps or decaps cell of ML-KEM or X-Wing (the `kem` crate's traits,
/// which both implement) over a fresh decapsulation key and its keys.
fn kem_cell<D: ml_kem::Decapsulate + 'static>(
    name: &str,
    p: &CellParams,
    mut r: ThreadRng,
    dk: D,
    keys: Keys,
) -> Result<Box<dyn Cell>, String> {
    use ml_kem::{Ciphertext, Encapsulate as _};
    let ek = dk.encapsulation_key().clone();
    match p.op {
        Op::Encaps => Ok(op_cell(keys, Vec::new(), move |_, out| {
            let (ct, k) = ek.encapsulate_with_rng(&mut r);
            put2(out, &ct, &k)
        })),
        Op::Decaps => {
            let (ct, k) = ek.encapsulate_with_rng(&mut r);
            decaps_agrees(name, &dk.decapsulate(&ct), &k)?;
            Ok(op_cell(keys, ct.to_vec(), move |c, out| {
                let ct = Ciphertext::<D::Kem>::try_from(c)
                    .map_err(|_| "ciphertext length".to_string())?;
                put(out, &dk.decapsulate(&ct))
            }))
        }
        op => Err(no_cell(name, op)),
    }
}

mod mlkem {
    use super::*;

    macro_rules! mlkem {
        ($fn:ident, $p:ty, $name:literal) => {
            pub fn $fn() -> Alg {
                use ml_kem::kem::{Decapsulate, Encapsulate, Generate, KeyExport};
                use ml_kem::{Ciphertext, DecapsulationKey, EncapsulationKey, Key, Seed, B32};
                type Dk = DecapsulationKey<$p>;
                type Ek = EncapsulationKey<$p>;

                fn from_seed(seed: &[u8]) -> Result<Dk, Failure> {
                    Ok(Dk::from_seed(Seed::from(array::<64>(seed)?)))
                }
                fn ek_bytes(dk: &Dk) -> Vec<u8> {
                    dk.encapsulation_key().to_bytes().to_vec()
                }
                fn random_seed(r: &mut ThreadRng) -> [u8; 64] {
                    let mut seed = [0u8; 64];
                    r.fill_bytes(&mut seed);
                    seed
                }

                Alg::new(
                    $name,
                    &[Op::Keygen, Op::Encaps, Op::Decaps],
                    false,
                    |c: &Case| match c.op {
                        Op::Keygen => Ok(ek_bytes(&from_seed(&c.seed)?)),
                        Op::Encaps => {
                            let key = Key::<Ek>::try_from(&c.public[..]).map_err(rejected)?;
                            let ek = Ek::new(&key).map_err(rejected)?;
                            let (ct, k) = match &c.m {
                                Some(m) => {
                                    ek.encapsulate_deterministic(&B32::from(array::<32>(m)?))
                                }
                                None => ek.encapsulate_with_rng(&mut rng()),
                            };
                            Ok([&ct[..], &k[..]].concat())
                        }
                        Op::Decaps => {
                            let dk = from_seed(&c.private)?;
                            let ct = Ciphertext::<$p>::try_from(&c.msg[..]).map_err(rejected)?;
                            Ok(dk.decapsulate(&ct).to_vec())
                        }
                        op => Err(no_case($name, op)),
                    },
                    cells(
                        |r| Dk::generate_from_rng(r),
                        ek_bytes,
                        |p: &CellParams, mut r| {
                            let seed = random_seed(&mut r);
                            let dk = from_seed(&seed).map_err(|_| "seed".to_string())?;
                            let keys = Keys::pair(ek_bytes(&dk), seed.to_vec());
                            kem_cell($name, p, r, dk, keys)
                        },
                    ),
                )
                .with_keypair(|| {
                    let seed = random_seed(&mut rng());
                    let dk = from_seed(&seed).map_err(|_| "seed".to_string())?;
                    Ok(KeyPair {
                        public: ek_bytes(&dk),
                        private: seed.to_vec(),
                    })
                })
                // the leak request: the key expanded from its seed and the ciphertext read
                // outside the call, decapsulation (implicit rejection included) inside
                .with_prepare_of(Op::Decaps, |c: &Case| {
                    let dk = from_seed(&c.private)?;
                    let ct = Ciphertext::<$p>::try_from(&c.msg[..])
                        .map_err(|_| Failure::Error("ciphertext length".into()))?;
                    Ok(Box::new(move || {
                        black_box(dk.decapsulate(&ct));
                        Ok(())
                    }))
                })
            }
        };
    }

    mlkem!(mlkem512, ml_kem::MlKem512, "ml-kem-512");
    mlkem!(mlkem768, ml_kem::MlKem768, "ml-kem-768");
    mlkem!(mlkem1024, ml_kem::MlKem1024, "ml-kem-1024");
}

// ---- ML-DSA -------------------------------------------------------------------

mod mldsa {
    use super::*;

    macro_rules! mldsa {
        ($fn:ident, $p:ty, $name:literal) => {
            pub fn $fn() -> Alg {
                use ml_dsa::signature::Keypair as _;
                use ml_dsa::{
                    EncodedSignature, EncodedVerifyingKey, ExpandedSigningKey, Generate, Seed,
                    Signature, SigningKey, VerifyingKey,
                };
                type Sk = ExpandedSigningKey<$p>;

                fn expand(seed: &[u8]) -> Result<Sk, Failure> {
                    Ok(Sk::from_seed(&Seed::from(array::<32>(seed)?)))
                }
                fn random_seed(r: &mut ThreadRng) -> [u8; 32] {
                    let mut seed = [0u8; 32];
                    r.fill_bytes(&mut seed);
                    seed
                }
                fn keys(seed: [u8; 32], sk: &Sk) -> Keys {
                    Keys::pair(sk.verifying_key().encode().to_vec(), seed.to_vec())
                }

                sign_alg(
                    $name,
                    |c: &Case| match c.op {
                        Op::Keygen => Ok(expand(&c.seed)?.verifying_key().encode().to_vec()),
                        Op::Sign => {
                            let sk = expand(&c.private)?;
                            let sig = if c.deterministic {
                                sk.sign_deterministic(&c.msg, &c.ctx)
                            } else {
                                sk.sign_randomized(&c.msg, &c.ctx, &mut rng())
                            };
                            Ok(sig.map_err(rejected)?.encode().to_vec())
                        }
                        Op::Verify => {
                            let enc = EncodedVerifyingKey::<$p>::try_from(&c.public[..])
                                .map_err(rejected)?;
                            let vk = VerifyingKey::<$p>::decode(&enc);
                            let enc =
                                EncodedSignature::<$p>::try_from(&c.sig[..]).map_err(rejected)?;
                            let sig = Signature::<$p>::decode(&enc).ok_or(Failure::Rejected)?;
                            verdict(vk.verify_with_context(&c.msg, &c.ctx, &sig))
                        }
                        op => Err(no_case($name, op)),
                    },
                    cells(
                        |r| SigningKey::<$p>::generate_from_rng(r),
                        |sk: &SigningKey<$p>| sk.verifying_key().encode().to_vec(),
                        |p: &CellParams, mut r| {
                            let seed = random_seed(&mut r);
                            let sk = expand(&seed).map_err(|_| "seed".to_string())?;
                            let keys = keys(seed, &sk);
                            let msg = message(p);
                            match p.op {
                                Op::Sign => Ok(op_cell(keys, msg, move |m, out| {
                                    let sig = sk
                                        .sign_randomized(m, &[], &mut r)
                                        .map_err(|e| format!("sign: {e}"))?;
                                    put(out, &sig.encode())
                                })),
                                Op::Verify => {
                                    let sig = sk
                                        .sign_randomized(&msg, &[], &mut r)
                                        .map_err(|e| format!("sign: {e}"))?;
                                    let vk = sk.verifying_key();
                                    Ok(verify_cell(keys, msg, move |m| {
                                        vk.verify_with_context(m, &[], &sig)
                                    }))
                                }
                                op => Err(no_cell($name, op)),
                            }
                        },
                    ),
                )
                .with_keypair(|| {
                    let seed = random_seed(&mut rng());
                    let k = keys(seed, &expand(&seed).map_err(|_| "seed".to_string())?);
                    Ok(k.into())
                })
            }
        };
    }

    mldsa!(mldsa44, ml_dsa::MlDsa44, "ml-dsa-44");
    mldsa!(mldsa65, ml_dsa::MlDsa65, "ml-dsa-65");
    mldsa!(mldsa87, ml_dsa::MlDsa87, "ml-dsa-87");
}

// ---- SLH-DSA ------------------------------------------------------------------

mod slhdsa {
    use super::*;

    macro_rules! slhdsa {
        ($fn:ident, $p:ty, $name:literal, $n:literal) => {
            pub fn $fn() -> Alg {
                use slh_dsa::signature::{Keypair as _, RandomizedSigner as _};
                use slh_dsa::{Signature, SigningKey, VerifyingKey};
                type Sk = SigningKey<$p>;
                /// The security parameter n: seeds, PK.root and opt_rand are n bytes.
                const N: usize = $n;

                fn keys(sk: &Sk) -> Keys {
                    Keys::pair(sk.verifying_key().to_vec(), sk.to_vec())
                }

                sign_alg(
                    $name,
                    |c: &Case| match c.op {
                        Op::Keygen => {
                            if c.seed.len() != 3 * N {
                                return Err(Failure::Rejected);
                            }
                            let (sk_seed, rest) = c.seed.split_at(N);
                            let (sk_prf, pk_seed) = rest.split_at(N);
                            let sk = Sk::slh_keygen_internal(sk_seed, sk_prf, pk_seed);
                            Ok(sk.verifying_key().to_vec())
                        }
                        Op::Sign => {
                            let sk = Sk::try_from(&c.private[..]).map_err(rejected)?;
                            let sig = if c.deterministic {
                                sk.try_sign_with_context(&c.msg, &c.ctx, None)
                            } else {
                                let mut opt_rand = [0u8; N];
                                rng().fill_bytes(&mut opt_rand);
                                sk.try_sign_with_context(&c.msg, &c.ctx, Some(&opt_rand))
                            };
                            Ok(sig.map_err(rejected)?.to_vec())
                        }
                        Op::Verify => {
                            let vk =
                                VerifyingKey::<$p>::try_from(&c.public[..]).map_err(rejected)?;
                            let sig = Signature::<$p>::try_from(&c.sig[..]).map_err(rejected)?;
                            verified(vk.try_verify_with_context(&c.msg, &c.ctx, &sig))
                        }
                        op => Err(no_case($name, op)),
                    },
                    cells(
                        |r| Sk::new(r),
                        |sk: &Sk| sk.verifying_key().to_vec(),
                        |p: &CellParams, mut r| {
                            let sk = Sk::new(&mut r);
                            let keys = keys(&sk);
                            let msg = message(p);
                            match p.op {
                                Op::Sign => Ok(op_cell(keys, msg, move |m, out| {
                                    let sig = sk
                                        .try_sign_with_rng(&mut r, m)
                                        .map_err(|e| format!("sign: {e}"))?;
                                    put(out, &sig.to_bytes())
                                })),
                                Op::Verify => {
                                    let sig = sk
                                        .try_sign_with_rng(&mut r, &msg)
                                        .map_err(|e| format!("sign: {e}"))?;
                                    let vk = sk.verifying_key();
                                    Ok(verify_cell(keys, msg, move |m| {
                                        vk.try_verify_with_context(m, &[], &sig).is_ok()
                                    }))
                                }
                                op => Err(no_cell($name, op)),
                            }
                        },
                    ),
                )
                .with_keypair(|| Ok(keys(&Sk::new(&mut rng())).into()))
            }
        };
    }

    slhdsa!(sha2_128s, slh_dsa::Sha2_128s, "slh-dsa-sha2-128s", 16);
    slhdsa!(sha2_128f, slh_dsa::Sha2_128f, "slh-dsa-sha2-128f", 16);
    slhdsa!(sha2_192s, slh_dsa::Sha2_192s, "slh-dsa-sha2-192s", 24);
    slhdsa!(sha2_192f, slh_dsa::Sha2_192f, "slh-dsa-sha2-192f", 24);
    slhdsa!(sha2_256s, slh_dsa::Sha2_256s, "slh-dsa-sha2-256s", 32);
    slhdsa!(sha2_256f, slh_dsa::Sha2_256f, "slh-dsa-sha2-256f", 32);
    slhdsa!(shake_128s, slh_dsa::Shake128s, "slh-dsa-shake-128s", 16);
    slhdsa!(shake_128f, slh_dsa::Shake128f, "slh-dsa-shake-128f", 16);
    slhdsa!(shake_192s, slh_dsa::Shake192s, "slh-dsa-shake-192s", 24);
    slhdsa!(shake_192f, slh_dsa::Shake192f, "slh-dsa-shake-192f", 24);
    slhdsa!(shake_256s, slh_dsa::Shake256s, "slh-dsa-shake-256s", 32);
    slhdsa!(shake_256f, slh_dsa::Shake256f, "slh-dsa-shake-256f", 32);

    /// The 12 parameter sets, in the catalogue's order.
    pub fn all() -> [Alg; 12] {
        [
            sha2_128s(),
            sha2_128f(),
            sha2_192s(),
            sha2_192f(),
            sha2_256s(),
            sha2_256f(),
            shake_128s(),
            shake_128f(),
            shake_192s(),
            shake_192f(),
            shake_256s(),
            shake_256f(),
        ]
    }
}

// ---- X-Wing -------------------------------------------------------------------

fn xwing() -> Alg {
    use x_wing::{
        Ciphertext, Decapsulate, DecapsulationKey, Decapsulator, Encapsulate, EncapsulationKey,
        Generate, KeyExport,
    };

    fn ek_bytes(dk: &DecapsulationKey) -> Vec<u8> {
        dk.encapsulation_key().to_bytes().to_vec()
    }
    fn keys(dk: &DecapsulationKey) -> Keys {
        Keys::pair(ek_bytes(dk), dk.as_bytes().to_vec())
    }

    Alg::new(
        "x-wing",
        &[Op::Keygen, Op::Encaps, Op::Decaps],
        false,
        |c: &Case| match c.op {
            Op::Keygen => Ok(ek_bytes(&DecapsulationKey::from(array::<32>(&c.seed)?))),
            Op::Encaps => {
                let ek = EncapsulationKey::try_from(&c.public[..]).map_err(rejected)?;
                let (ct, k) = match &c.m {
                    Some(m) => ek.encapsulate_deterministic(&array::<64>(m)?.into()),
                    None => ek.encapsulate_with_rng(&mut rng()),
                };
                Ok([&ct[..], &k[..]].concat())
            }
            Op::Decaps => {
                let dk = DecapsulationKey::from(array::<32>(&c.private)?);
                let ct = Ciphertext::try_from(&c.msg[..]).map_err(rejected)?;
                Ok(dk.decapsulate(&ct).to_vec())
            }
            op => Err(no_case("x-wing", op)),
        },
        cells(
            DecapsulationKey::generate_from_rng,
            ek_bytes,
            |p: &CellParams, mut r| {
                let dk = DecapsulationKey::generate_from_rng(&mut r);
                let keys = keys(&dk);
                kem_cell("x-wing", p, r, dk, keys)
            },
        ),
    )
    .with_keypair(|| Ok(keys(&DecapsulationKey::generate_from_rng(&mut rng())).into()))
}

// ---- SM2 ------------------------------------------------------------------------

/// GB/T 32918's default signer identity.
const SM2_ID: &str = "1234567812345678";

fn sm2() -> Alg {
    use signature::{RandomizedSigner, Verifier};
    use sm2::dsa::{Signature, SigningKey, VerifyingKey};
    use sm2::elliptic_curve::sec1::ToSec1Point;
    use sm2::elliptic_curve::Generate as _;
    use sm2::{PublicKey, SecretKey};

    fn spki(pk: &PublicKey) -> Vec<u8> {
        ec_spki(Curve::Sm2, pk.to_sec1_point(false).as_bytes())
    }
    fn keys(sk: &SecretKey) -> Keys {
        Keys::pair(spki(&sk.public_key()), sk.to_bytes().to_vec())
    }
    sign_alg(
        "sm2",
        |c: &Case| match c.op {
            Op::Sign => {
                let sk = SigningKey::from_slice(SM2_ID, ec_scalar(&c.private, Curve::Sm2)?)
                    .map_err(rejected)?;
                let sig: Signature = sk
                    .try_sign_with_rng(&mut rng(), &c.msg)
                    .map_err(|e| Failure::Error(format!("sign: {e}")))?;
                Ok(sig.to_der().as_bytes().to_vec())
            }
            Op::Verify => {
                let point = ec_point_from_spki(&c.public, Curve::Sm2)?;
                let vk = VerifyingKey::from_sec1_bytes(SM2_ID, point).map_err(rejected)?;
                let sig = Signature::from_der(&c.sig).map_err(rejected)?;
                verified(vk.verify(&c.msg, &sig))
            }
            op => Err(no_case("sm2", op)),
        },
        cells(
            |r| {
                let sk = SecretKey::generate_from_rng(r);
                let pk = sk.public_key();
                (sk, pk)
            },
            |(_, pk): &(SecretKey, PublicKey)| spki(pk),
            |p: &CellParams, mut r| {
                let secret = SecretKey::generate_from_rng(&mut r);
                let keys = keys(&secret);
                let sk = SigningKey::new(SM2_ID, &secret).map_err(|e| format!("SM2 key: {e}"))?;
                let msg = message(p);
                match p.op {
                    Op::Sign => Ok(op_cell(keys, msg, move |m, out| {
                        let sig: Signature = sk
                            .try_sign_with_rng(&mut r, m)
                            .map_err(|e| format!("sign: {e}"))?;
                        put(out, sig.to_der().as_bytes())
                    })),
                    Op::Verify => {
                        let sig: Signature = sk.sign_with_rng(&mut r, &msg);
                        let vk = sk.verifying_key().clone();
                        Ok(verify_cell(keys, msg, move |m| vk.verify(m, &sig).is_ok()))
                    }
                    op => Err(no_cell("sm2", op)),
                }
            },
        ),
    )
    .with_keypair(|| {
        let k = keys(&SecretKey::generate_from_rng(&mut rng()));
        Ok(k.into())
    })
}
