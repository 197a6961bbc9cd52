//! rust:ring — the ring crate: digest (SHA-256, SHA-512), hmac
//! (HMAC-SHA256) and aead (AES-128/256-GCM, ChaCha20-Poly1305 through
//! `LessSafeKey`). ring has no SHA-3, BLAKE2, unauthenticated cipher modes,
//! raw ChaCha20, AES-CCM or XChaCha20-Poly1305 in its public API.

use ring::aead::{Aad, Nonce};

use super::{direct_crate_versions, ring_pk, Provider};

pub fn provider() -> Provider {
    let algs = [ring_family_algs(), ring_pk::algs()];
    let notes = &[NOTES, ring_pk::NOTES];
    // ring as this driver links it, not rustls' copy (rust:ring@0.16)
    let version = direct_crate_versions(&["ring"]);
    Provider::new("rust:ring", "ring", version, notes, algs)
}

const NOTES: &[&str] = &[
    "Hashes: chunk 0 is digest::digest(alg, msg); chunk > 0 is digest::Context::new, update per piece, finish.",
    "HMAC-SHA256: hmac::Key::new once per cell (key prepared); chunk 0 is hmac::sign(&key, msg), chunk > 0 is hmac::Context::with_key, update per piece, sign.",
    "AEADs: LessSafeKey (key schedule once per cell), nonce per message, Aad::empty(). ring only seals and opens in place, so each timed seal copies the fixed plaintext into the output buffer before seal_in_place_separate_tag (then writes the tag after it), and each timed open copies the fixed ciphertext+tag into the working buffer before open_in_place: one memcpy of `size` bytes per operation is inside the timed region. One-shot only (ring has no streaming AEAD).",
    "Not offered: SHA-3, BLAKE2, AES-ECB/CBC/CTR, ChaCha20, AES-CCM, XChaCha20-Poly1305 (not in ring's public API).",
];

// ---- hashes, HMAC and AEADs (ring_family.rs) -----------------------------------

/// The crate's constant-time comparison (the leak request's `compare`):
/// ring 0.16's `constant_time::verify_slices_are_equal`; 0.17 has none public.
#[cfg(ring_016)]
fn library_compare() -> Option<super::Compare> {
    Some(|a, b| ring::constant_time::verify_slices_are_equal(a, b).is_ok())
}

#[cfg(not(ring_016))]
fn library_compare() -> Option<super::Compare> {
    None
}

// ring seals and opens in place only: each timed seal copies the fixed
// plaintext into the output buffer first (the tag written after it), each
// timed open the fixed ciphertext+tag into the working buffer (see notes).
super::ring_family::ring_family!(
    lib = ring,
    open_room = TAG_LEN,
    seal_timed = |key, nonce, m, out| {
        let (ct, tag_out) = out.split_at_mut(m.len());
        ct.copy_from_slice(m); // ring seals in place (see notes)
        let tag = key
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), ct)
            .map_err(|_| "seal failed".to_string())?;
        tag_out.copy_from_slice(tag.as_ref());
        Ok(m.len() + TAG_LEN)
    },
    open_timed = |key, nonce, c, out| {
        out.copy_from_slice(c); // ring opens in place (see notes)
        let pt = key
            .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::empty(), out)
            .map_err(|_| "open failed: the tag did not verify".to_string())?;
        Ok(pt.len())
    },
);
