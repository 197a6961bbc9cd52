//! rust:ring — the ring crate: digest (SHA-256, SHA-512), hmac
//! (HMAC-SHA256) and aead (AES-128/256-GCM, ChaCha20-Poly1305 through
//! `LessSafeKey`). ring has no SHA-3, BLAKE2, unauthenticated cipher modes,
//! raw ChaCha20, AES-CCM or XChaCha20-Poly1305 in its public API.

use ring::aead::{self, Aad, LessSafeKey, Nonce};
use ring::digest;

use super::{crate_versions, noop_alg, Alg, Provider};

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

// ---- hashes, HMAC and AEADs (ring_family.rs) -----------------------------------

super::ring_family::ring_family!(
    lib = ring,
    seal = seal_timed,
    open = open_timed,
    open_room = TAG_LEN
);

/// The timed seal: ring seals in place only, so the fixed plaintext is
/// copied into the output buffer first (see notes), the tag written after it.
fn seal_timed(
    key: &LessSafeKey,
    nonce: [u8; 12],
    m: &[u8],
    out: &mut [u8],
) -> Result<usize, String> {
    let (ct, tag_out) = out.split_at_mut(m.len());
    ct.copy_from_slice(m); // ring seals in place (see notes)
    let tag = key
        .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), ct)
        .map_err(|_| "seal failed".to_string())?;
    tag_out.copy_from_slice(tag.as_ref());
    Ok(m.len() + TAG_LEN)
}

/// The timed open: the fixed ciphertext+tag is copied into the working
/// buffer first, for ring opens in place only (see notes).
fn open_timed(
    key: &LessSafeKey,
    nonce: [u8; 12],
    c: &[u8],
    out: &mut [u8],
) -> Result<usize, String> {
    out.copy_from_slice(c); // ring opens in place (see notes)
    let pt = key
        .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::empty(), out)
        .map_err(|_| "open failed: the tag did not verify".to_string())?;
    Ok(pt.len())
}
