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
