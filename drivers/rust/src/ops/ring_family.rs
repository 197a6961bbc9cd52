//! What rust:ring and rust:aws-lc-rs share. aws-lc-rs copies ring's API for
//! `digest`, `hmac` and `aead` name for name, so one macro writes the hash,
//! HMAC and AEAD algorithms for either crate: `ring_family!(lib = ring, ...)`
//! in `ring.rs`, `ring_family!(lib = aws_lc_rs, ...)` in `awslc.rs`. Same
//! algorithm names, same verify cases, same cells as the two copies it
//! replaces.
//!
//! The one difference is the pair of timed AEAD calls, passed in by the
//! provider file as the bodies of `seal_timed(key, nonce, input, out)` and
//! `open_timed(key, nonce, input, out)` (-> the output length): ring only seals
//! and opens in place (a copy of the input inside the timed region),
//! aws-lc-rs scatters and gathers out of place. `open_room` is how many
//! bytes open's output buffer holds beyond the plaintext (ring opens in a
//! buffer that also holds the tag).

macro_rules! ring_family {
    (
        lib = $lib:ident,
        open_room = $room:expr,
        $($timed:ident = |$k:ident, $n:ident, $i:ident, $o:ident| $body:block),+ $(,)?
    ) => {
        /// The AEAD tag length both crates use for every AEAD offered.
        const TAG_LEN: usize = 16;

        // The timed seal and open of an AEAD cell (the provider file's bodies),
        // inlined into the cell's closure as when they were written inside it.
        $(
            #[inline(always)]
            fn $timed(
                $k: &$lib::aead::LessSafeKey,
                $n: [u8; 12],
                $i: &[u8],
                $o: &mut [u8],
            ) -> Result<usize, String> $body
        )+

        /// What both crates offer the same way: SHA-256/512, HMAC-SHA256,
        /// AES-128/256-GCM and ChaCha20-Poly1305.
        fn ring_family_algs() -> Vec<$crate::ops::Alg> {
            use $lib::{aead, digest};
            vec![
                hash("sha256", &digest::SHA256),
                hash("sha512", &digest::SHA512),
                hmac_sha256(),
                aead_alg("aes-128-gcm", &aead::AES_128_GCM),
                aead_alg("aes-256-gcm", &aead::AES_256_GCM),
                aead_alg("chacha20-poly1305", &aead::CHACHA20_POLY1305),
            ]
        }

        // The output length of a digest algorithm, read from a digest: ring
        // 0.16 (`rust:ring@0.16.x`, docs/versions.md) has it as a field, later
        // releases and aws-lc-rs as a method. Computed once per cell, untimed.
        fn digest_len(alg: &'static $lib::digest::Algorithm) -> usize {
            $lib::digest::digest(alg, &[]).as_ref().len()
        }

        // ---- hashes and HMAC ------------------------------------------------

        struct HashStream(&'static $lib::digest::Algorithm);

        impl $crate::ops::StreamOp for HashStream {
            fn run<H: $crate::ops::Hook>(
                &mut self,
                p: &mut $crate::ops::Pieces<'_, H>,
            ) -> Result<(), String> {
                let mut ctx = $lib::digest::Context::new(self.0);
                p.absorb(|piece| ctx.update(piece));
                p.finish(|out| {
                    let d = ctx.finish();
                    out[..d.as_ref().len()].copy_from_slice(d.as_ref());
                    Ok(d.as_ref().len())
                })
            }
        }

        fn hash(name: &'static str, alg: &'static $lib::digest::Algorithm) -> $crate::ops::Alg {
            let n = digest_len(alg);
            $crate::ops::Alg::new(
                name,
                &[$crate::ops::Op::Hash],
                true,
                move |c| Ok($lib::digest::digest(alg, &c.msg).as_ref().to_vec()),
                move |p| {
                    if p.chunk > 0 {
                        return $crate::ops::stream_cell(p, HashStream(alg), None, n);
                    }
                    Ok($crate::ops::one_shot(p.message(), n, move |m, out| {
                        let d = $lib::digest::digest(alg, m);
                        out.copy_from_slice(d.as_ref());
                        Ok(n)
                    }))
                },
            )
        }

        struct HmacStream($lib::hmac::Key);

        impl $crate::ops::StreamOp for HmacStream {
            fn run<H: $crate::ops::Hook>(
                &mut self,
                p: &mut $crate::ops::Pieces<'_, H>,
            ) -> Result<(), String> {
                let mut ctx = $lib::hmac::Context::with_key(&self.0);
                p.absorb(|piece| ctx.update(piece));
                p.finish(|out| {
                    let t = ctx.sign();
                    out[..t.as_ref().len()].copy_from_slice(t.as_ref());
                    Ok(t.as_ref().len())
                })
            }
        }

        fn hmac_sha256() -> $crate::ops::Alg {
            use $lib::hmac::{self, HMAC_SHA256};
            let n = digest_len(HMAC_SHA256.digest_algorithm());
            $crate::ops::Alg::new(
                "hmac-sha256",
                &[$crate::ops::Op::Mac],
                true,
                |c| {
                    let key = hmac::Key::new(HMAC_SHA256, &c.key);
                    Ok(hmac::sign(&key, &c.msg).as_ref().to_vec())
                },
                move |p| {
                    let key = hmac::Key::new(HMAC_SHA256, p.key);
                    if p.chunk > 0 {
                        return $crate::ops::stream_cell(p, HmacStream(key), None, n);
                    }
                    Ok($crate::ops::one_shot(p.message(), n, move |m, out| {
                        out.copy_from_slice(hmac::sign(&key, m).as_ref());
                        Ok(n)
                    }))
                },
            )
            // the leak request's verify (hmac::verify: the MAC and its comparison) and compare
            // (the crate's own comparison, `library_compare` of the provider file)
            .with_prepare(|c| {
                use $crate::ops::{Failure, Op};
                let (key, msg, tag) = (hmac::Key::new(HMAC_SHA256, &c.key), c.msg.clone(), c.sig.clone());
                match c.op {
                    Op::Verify => Ok(Box::new(move || {
                        hmac::verify(&key, &msg, &tag).map_err(|_| Failure::Rejected)
                    })),
                    Op::Compare if msg.len() != tag.len() => Err(Failure::Error(format!(
                        "msg and sig differ in length ({}, {})", msg.len(), tag.len()
                    ))),
                    Op::Compare => {
                        let cmp = library_compare().ok_or_else(|| {
                            Failure::Unsupported(concat!(stringify!($lib), " exposes no comparison").into())
                        })?;
                        Ok(Box::new(move || cmp(&msg, &tag).then_some(()).ok_or(Failure::Rejected)))
                    }
                    op => Err(Failure::Error(format!("hmac-sha256 has no leak operation {:?}", op.name()))),
                }
            })
        }

        // ---- AEADs ----------------------------------------------------------

        fn aead_alg(name: &'static str, alg: &'static $lib::aead::Algorithm) -> $crate::ops::Alg {
            use $crate::ops::{check_len, one_shot, Case, CellParams, Failure, Op};
            use $lib::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
            let prepare =
                move |key: &[u8], nonce: &[u8]| -> Result<(LessSafeKey, [u8; 12]), String> {
                    check_len("key", key, alg.key_len())?;
                    check_len("iv", nonce, alg.nonce_len())?;
                    if alg.tag_len() != TAG_LEN {
                        return Err(format!("{name}: tag is not {TAG_LEN} bytes"));
                    }
                    let k = UnboundKey::new(alg, key).map_err(|_| "key rejected".to_string())?;
                    let mut n = [0u8; 12];
                    n.copy_from_slice(nonce);
                    Ok((LessSafeKey::new(k), n))
                };
            // The simple way, for verify and for the ciphertext an open cell holds.
            let seal = |key: &LessSafeKey, nonce: [u8; 12], aad: &[u8], msg: &[u8]| {
                let mut buf = msg.to_vec();
                let tag = key
                    .seal_in_place_separate_tag(
                        Nonce::assume_unique_for_key(nonce),
                        Aad::from(aad),
                        &mut buf,
                    )
                    .map_err(|_| format!("seal failed ({} bytes)", msg.len()))?;
                buf.extend_from_slice(tag.as_ref());
                Ok::<_, String>(buf)
            };
            $crate::ops::Alg::new(
                name,
                &[Op::Seal, Op::Open],
                false,
                move |c: &Case| {
                    let (key, nonce) = prepare(&c.key, &c.iv)?;
                    if c.op == Op::Seal {
                        return Ok(seal(&key, nonce, &c.aad, &c.msg)?);
                    }
                    let mut buf = c.msg.clone();
                    let pt = key
                        .open_in_place(
                            Nonce::assume_unique_for_key(nonce),
                            Aad::from(&c.aad[..]),
                            &mut buf,
                        )
                        .map_err(|_| Failure::Rejected)?;
                    Ok(pt.to_vec())
                },
                move |p: &CellParams| {
                    let (key, nonce) = prepare(p.key, p.iv)?;
                    let msg = p.message();
                    let n = msg.len();
                    if p.op == Op::Seal {
                        return Ok(one_shot(msg, n + TAG_LEN, move |m, out| {
                            seal_timed(&key, nonce, m, out)
                        }));
                    }
                    let sealed = seal(&key, nonce, &[], &msg)?;
                    Ok(one_shot(sealed, n + $room, move |c, out| {
                        open_timed(&key, nonce, c, out)
                    }))
                },
            )
        }
    };
}

pub(crate) use ring_family;

/// The public-key calls that ring and aws-lc-rs spell the same in
/// `signature` (`RsaKeyPair`, `Ed25519KeyPair`, `UnparsedPublicKey`): the
/// timed RSA signature into the output buffer, and the sign and verify cases
/// and the leak request's prepared sign of RSA and Ed25519 (ECDSA: the
/// verify case). `ring_family_pk!(lib = ring, modulus_len = ...)` in
/// `ring_pk.rs`, `ring_family_pk!(lib = aws_lc_rs, ...)` in `awslc_pk.rs`;
/// `modulus_len` names the function giving an RSA key pair's modulus length
/// (spelt differently by ring 0.16, ring 0.17 and aws-lc-rs). The cells stay
/// in the provider files: their timed verifications differ (aws-lc-rs
/// verifies with a key parsed once per cell, ring has no parsed key).
macro_rules! ring_family_pk {
    (lib = $lib:ident, modulus_len = $modulus_len:path, rsa_size = $size:ty $(,)?) => {
        /// The timed RSA signature, into the output buffer: its length.
        fn rsa_sign_into(
            kp: &$lib::signature::RsaKeyPair,
            pad: &'static dyn $lib::signature::RsaEncoding,
            rng: &$lib::rand::SystemRandom,
            msg: &[u8],
            out: &mut [u8],
        ) -> Result<usize, String> {
            let n = $modulus_len(kp);
            let sig = out.get_mut(..n).ok_or("signature buffer")?;
            kp.sign(pad, rng, msg, sig)
                .map_err($crate::ops::unspecified("sign"))?;
            Ok(n)
        }

        /// A sign case's RSA key (PKCS#8), imported, with a signature buffer.
        fn rsa_case_key(
            c: &$crate::ops::Case,
        ) -> Result<($lib::signature::RsaKeyPair, Vec<u8>), $crate::ops::Failure> {
            let kp = $lib::signature::RsaKeyPair::from_pkcs8(&c.private)
                .map_err($crate::ops::pk::rejected)?;
            let sig = vec![0; $modulus_len(&kp)];
            Ok((kp, sig))
        }

        fn rsa_sign_case(
            c: &$crate::ops::Case,
            pad: &'static dyn $lib::signature::RsaEncoding,
        ) -> Result<Vec<u8>, $crate::ops::Failure> {
            let (kp, mut sig) = rsa_case_key(c)?;
            rsa_sign_into(&kp, pad, &$lib::rand::SystemRandom::new(), &c.msg, &mut sig)?;
            Ok(sig)
        }

        /// The leak request's prepared RSA sign (`with_prepare_of(Op::Sign, ..)`):
        /// the key imported, one signature timed per call.
        fn rsa_sign_prepared(
            pad: &'static dyn $lib::signature::RsaEncoding,
        ) -> impl Fn(&$crate::ops::Case) -> Result<$crate::ops::Prepared, $crate::ops::Failure> {
            move |c| {
                let (kp, mut sig) = rsa_case_key(c)?;
                let (rng, msg) = ($lib::rand::SystemRandom::new(), c.msg.clone());
                Ok(Box::new(move || {
                    rsa_sign_into(&kp, pad, &rng, &msg, &mut sig)?;
                    std::hint::black_box(&sig);
                    Ok(())
                }))
            }
        }

        /// An RSA signature algorithm (sign, verify) of keys of `size`. The
        /// library's own functions make them (`rsa_cell_keys`: its key pair
        /// and protocol.md's encodings, fresh per cell; `rsa_keypair`) and
        /// take the public key (`rsa_verify_case`, `rsa_verify_cell`: ring and
        /// aws-lc-rs take it in different encodings).
        fn rsa_sig_alg(
            name: &'static str,
            size: $size,
            pad: &'static dyn $lib::signature::RsaEncoding,
            vrf: &'static $lib::signature::RsaParameters,
        ) -> $crate::ops::Alg {
            use $crate::ops::{pk, Op};
            $crate::ops::Alg::new(
                name,
                &[Op::Sign, Op::Verify],
                false,
                move |c: &$crate::ops::Case| match c.op {
                    Op::Sign => rsa_sign_case(c, pad),
                    Op::Verify => verify_case(vrf, rsa_verify_key(&c.public)?, c),
                    op => Err(pk::no_case(name, op)),
                },
                move |p: &$crate::ops::CellParams| {
                    let (kp, keys) = rsa_cell_keys(size)?;
                    let rng = $lib::rand::SystemRandom::new();
                    let msg = pk::message(p);
                    match p.op {
                        Op::Sign => Ok(pk::op_cell(keys, msg, move |m, out| {
                            rsa_sign_into(&kp, pad, &rng, m, out)
                        })),
                        Op::Verify => {
                            let mut sig = vec![0; $modulus_len(&kp)];
                            rsa_sign_into(&kp, pad, &rng, &msg, &mut sig)?;
                            let public = rsa_verify_key(&keys.public)
                                .map_err(|_| "public key".to_string())?
                                .to_vec();
                            verify_sig_cell(vrf, &public, keys, msg, sig)
                        }
                        op => Err(pk::no_cell(name, op)),
                    }
                },
            )
            .with_keypair(move || rsa_keypair(size))
            .with_prepare_of(Op::Sign, rsa_sign_prepared(pad))
        }

        /// An ECDSA sign or verify cell over a generated key pair and its
        /// encodings.
        fn ecdsa_cell(
            name: &'static str,
            p: &$crate::ops::CellParams,
            kp: $lib::signature::EcdsaKeyPair,
            keys: $crate::ops::pk::Keys,
            rng: $lib::rand::SystemRandom,
            vrf: &'static $lib::signature::EcdsaVerificationAlgorithm,
        ) -> Result<Box<dyn $crate::ops::Cell>, String> {
            use $crate::ops::{pk, unspecified, Op};
            use $lib::signature::KeyPair as _;
            let msg = pk::message(p);
            match p.op {
                Op::Sign => Ok(pk::op_cell(keys, msg, move |m, out| {
                    pk::put(out, kp.sign(&rng, m).map_err(unspecified("sign"))?.as_ref())
                })),
                Op::Verify => {
                    let sig = kp.sign(&rng, &msg).map_err(unspecified("sign"))?;
                    verify_sig_cell(vrf, kp.public_key().as_ref(), keys, msg, sig)
                }
                op => Err(pk::no_cell(name, op)),
            }
        }

        /// An Ed25519 sign or verify cell over a generated key pair and its
        /// encodings.
        fn ed25519_cell(
            p: &$crate::ops::CellParams,
            kp: $lib::signature::Ed25519KeyPair,
            keys: $crate::ops::pk::Keys,
        ) -> Result<Box<dyn $crate::ops::Cell>, String> {
            use $crate::ops::{pk, Op};
            use $lib::signature::KeyPair as _;
            let msg = pk::message(p);
            match p.op {
                Op::Sign => Ok(pk::op_cell(keys, msg, move |m, out| {
                    pk::put(out, kp.sign(m).as_ref())
                })),
                Op::Verify => {
                    let sig = kp.sign(&msg);
                    let vrf = &$lib::signature::ED25519;
                    verify_sig_cell(vrf, kp.public_key().as_ref(), keys, msg, sig)
                }
                op => Err(pk::no_cell("ed25519", op)),
            }
        }

        /// A signature verify case: the encoded public key as the
        /// verification algorithm takes it.
        fn verify_case(
            vrf: &'static dyn $lib::signature::VerificationAlgorithm,
            public: &[u8],
            c: &$crate::ops::Case,
        ) -> Result<Vec<u8>, $crate::ops::Failure> {
            $crate::ops::pk::verified(
                $lib::signature::UnparsedPublicKey::new(vrf, public).verify(&c.msg, &c.sig),
            )
        }

        fn ecdsa_verify_case(
            c: &$crate::ops::Case,
            curve: $crate::ops::pk::Curve,
            vrf: &'static dyn $lib::signature::VerificationAlgorithm,
        ) -> Result<Vec<u8>, $crate::ops::Failure> {
            verify_case(
                vrf,
                $crate::ops::pk::ec_point_from_spki(&c.public, curve)?,
                c,
            )
        }

        /// Ed25519's cases: sign with the seed, verify with the raw public key.
        fn ed25519_case(c: &$crate::ops::Case) -> Result<Vec<u8>, $crate::ops::Failure> {
            use $crate::ops::{pk, Op};
            match c.op {
                Op::Sign => {
                    let kp = $lib::signature::Ed25519KeyPair::from_seed_unchecked(&c.private)
                        .map_err(pk::rejected)?;
                    Ok(kp.sign(&c.msg).as_ref().to_vec())
                }
                Op::Verify => {
                    if c.public.len() != 32 {
                        return Err($crate::ops::Failure::Rejected); // raw keys only (protocol.md)
                    }
                    verify_case(&$lib::signature::ED25519, &c.public, c)
                }
                op => Err(pk::no_case("ed25519", op)),
            }
        }

        /// The leak request's prepared Ed25519 sign (`with_prepare_of(Op::Sign, ..)`).
        fn ed25519_prepared(
            c: &$crate::ops::Case,
        ) -> Result<$crate::ops::Prepared, $crate::ops::Failure> {
            let kp = $lib::signature::Ed25519KeyPair::from_seed_unchecked(&c.private)
                .map_err($crate::ops::pk::rejected)?;
            let msg = c.msg.clone();
            Ok(Box::new(move || {
                std::hint::black_box(kp.sign(&msg).as_ref());
                Ok(())
            }))
        }
    };
}

pub(crate) use ring_family_pk;
