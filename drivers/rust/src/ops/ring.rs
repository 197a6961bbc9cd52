//! rust:ring — the ring crate: digest (SHA-256, SHA-512), hmac
//! (HMAC-SHA256) and aead (AES-128/256-GCM, ChaCha20-Poly1305 through
//! `LessSafeKey`). ring has no SHA-3, BLAKE2, unauthenticated cipher modes,
//! raw ChaCha20, AES-CCM or XChaCha20-Poly1305 in its public API.

use ring::aead::{self, Aad, LessSafeKey, Nonce, UnboundKey};
use ring::{digest, hmac};

use super::{
    check_len, crate_versions, noop_alg, one_shot, stream_cell, Alg, Case, CellParams, Failure,
    Hook, Op, Pieces, Provider, StreamOp,
};

pub struct Ring {
    algs: Vec<Alg>,
}

impl Ring {
    pub fn new() -> Self {
        let mut p = Ring {
            algs: vec![
                noop_alg(),
                hash("sha256", &digest::SHA256),
                hash("sha512", &digest::SHA512),
                hmac_sha256(),
                aead_alg("aes-128-gcm", &aead::AES_128_GCM),
                aead_alg("aes-256-gcm", &aead::AES_256_GCM),
                aead_alg("chacha20-poly1305", &aead::CHACHA20_POLY1305),
            ],
        };
        p.algs.extend(super::ring_pk::algs());
        p
    }
}

impl Default for Ring {
    fn default() -> Self {
        Self::new()
    }
}

impl Provider for Ring {
    fn id(&self) -> &'static str {
        "rust:ring"
    }
    fn library(&self) -> &'static str {
        "ring"
    }
    fn library_version(&self) -> String {
        crate_versions(&["ring"])
    }
    fn notes(&self) -> Vec<String> {
        let mut notes = vec![
            "Hashes: chunk 0 is digest::digest(alg, msg); chunk > 0 is digest::Context::new, update per piece, finish.".into(),
            "HMAC-SHA256: hmac::Key::new once per cell (key prepared); chunk 0 is hmac::sign(&key, msg), chunk > 0 is hmac::Context::with_key, update per piece, sign.".into(),
            "AEADs: LessSafeKey (key schedule once per cell), nonce per message, Aad::empty(). ring only seals and opens in place, so each timed seal copies the fixed plaintext into the output buffer before seal_in_place_separate_tag (then writes the tag after it), and each timed open copies the fixed ciphertext+tag into the working buffer before open_in_place: one memcpy of `size` bytes per operation is inside the timed region. One-shot only (ring has no streaming AEAD).".into(),
            "Not offered: SHA-3, BLAKE2, AES-ECB/CBC/CTR, ChaCha20, AES-CCM, XChaCha20-Poly1305 (not in ring's public API).".into(),
        ];
        notes.extend(super::ring_pk::NOTES.iter().map(|s| s.to_string()));
        notes.push(super::build_note());
        notes
    }
    fn algs(&self) -> &[Alg] {
        &self.algs
    }
}

// ---- hashes and HMAC ----------------------------------------------------------

struct HashStream(&'static digest::Algorithm);

impl StreamOp for HashStream {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut ctx = digest::Context::new(self.0);
        p.absorb(|piece| ctx.update(piece));
        p.finish(|out| {
            let d = ctx.finish();
            out[..d.as_ref().len()].copy_from_slice(d.as_ref());
            Ok(d.as_ref().len())
        })
    }
}

fn hash(name: &'static str, alg: &'static digest::Algorithm) -> Alg {
    let n = digest_len(alg);
    Alg::new(
        name,
        &[Op::Hash],
        true,
        move |c| Ok(digest::digest(alg, &c.msg).as_ref().to_vec()),
        move |p| {
            if p.chunk > 0 {
                return stream_cell(p, HashStream(alg), None, n);
            }
            Ok(one_shot(p.message(), n, move |m, out| {
                let d = digest::digest(alg, m);
                out.copy_from_slice(d.as_ref());
                Ok(n)
            }))
        },
    )
}

struct HmacStream(hmac::Key);

impl StreamOp for HmacStream {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut ctx = hmac::Context::with_key(&self.0);
        p.absorb(|piece| ctx.update(piece));
        p.finish(|out| {
            let t = ctx.sign();
            out[..t.as_ref().len()].copy_from_slice(t.as_ref());
            Ok(t.as_ref().len())
        })
    }
}

fn hmac_sha256() -> Alg {
    let n = digest_len(hmac::HMAC_SHA256.digest_algorithm());
    Alg::new(
        "hmac-sha256",
        &[Op::Mac],
        true,
        |c| {
            let key = hmac::Key::new(hmac::HMAC_SHA256, &c.key);
            Ok(hmac::sign(&key, &c.msg).as_ref().to_vec())
        },
        move |p| {
            let key = hmac::Key::new(hmac::HMAC_SHA256, p.key);
            if p.chunk > 0 {
                return stream_cell(p, HmacStream(key), None, n);
            }
            Ok(one_shot(p.message(), n, move |m, out| {
                out.copy_from_slice(hmac::sign(&key, m).as_ref());
                Ok(n)
            }))
        },
    )
}

// ---- AEADs ------------------------------------------------------------------

const TAG_LEN: usize = 16;

fn aead_alg(name: &'static str, alg: &'static aead::Algorithm) -> Alg {
    let prepare = move |key: &[u8], nonce: &[u8]| -> Result<(LessSafeKey, [u8; 12]), String> {
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
    Alg::new(
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
                    let (ct, tag_out) = out.split_at_mut(m.len());
                    ct.copy_from_slice(m); // ring seals in place (see notes)
                    let tag = key
                        .seal_in_place_separate_tag(
                            Nonce::assume_unique_for_key(nonce),
                            Aad::empty(),
                            ct,
                        )
                        .map_err(|_| "seal failed".to_string())?;
                    tag_out.copy_from_slice(tag.as_ref());
                    Ok(m.len() + TAG_LEN)
                }));
            }
            let sealed = seal(&key, nonce, &[], &msg)?;
            Ok(one_shot(sealed, n + TAG_LEN, move |c, out| {
                out.copy_from_slice(c); // ring opens in place (see notes)
                let pt = key
                    .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::empty(), out)
                    .map_err(|_| "open failed: the tag did not verify".to_string())?;
                Ok(pt.len())
            }))
        },
    )
}

// ring 0.16 (`rust:ring@0.16.x`, docs/versions.md; build.rs sets the cfg) has the length as a field.
#[cfg(not(ring_016))]
fn digest_len(alg: &'static digest::Algorithm) -> usize {
    alg.output_len()
}

#[cfg(ring_016)]
fn digest_len(alg: &'static digest::Algorithm) -> usize {
    alg.output_len
}
