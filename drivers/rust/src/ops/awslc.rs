//! rust:aws-lc-rs — the aws-lc-rs crate over AWS-LC (C and assembly, built
//! from source by aws-lc-sys): digest (SHA-2, SHA-3), hmac, aead (AES-GCM,
//! ChaCha20-Poly1305) and cipher (unpadded AES-ECB/CBC/CTR one-shot, AES-CTR
//! streaming). No BLAKE2, raw ChaCha20, AES-CCM or XChaCha20-Poly1305 in
//! its public API.

use aws_lc_rs::aead::{Aad, Nonce};
use aws_lc_rs::cipher::{
    self, DecryptingKey, DecryptionContext, EncryptingKey, EncryptionContext,
    StreamingDecryptingKey, StreamingEncryptingKey, UnboundCipherKey,
};
use aws_lc_rs::digest;
use aws_lc_rs::iv::FixedLength;

use super::unspecified;
use super::{
    awslc_pk, check_blocks, check_len, crate_versions, decrypt_cell, one_shot, stream_cell, Alg,
    Case, CellParams, Hook, Op, PieceFn, Pieces, Provider, StreamOp,
};

pub fn provider() -> Provider {
    let algs = [ring_family_algs(), algs(), awslc_pk::algs()];
    let notes = &[NOTES, awslc_pk::NOTES];
    Provider::new(
        "rust:aws-lc-rs",
        "aws-lc-rs (AWS-LC)",
        library_version(),
        notes,
        algs,
    )
}

/// The crate versions and the AWS-LC version the library reports.
fn library_version() -> String {
    format!(
        "{} (AWS-LC {} as reported at run time by aws_lc_rs::awslc_version())",
        crate_versions(&["aws-lc-rs", "aws-lc-sys"]),
        aws_lc_rs::awslc_version()
    )
}

/// What aws-lc-rs offers beyond ring's API: SHA-3 and the unpadded AES modes.
fn algs() -> Vec<Alg> {
    vec![
        hash("sha3-256", &digest::SHA3_256),
        hash("sha3-512", &digest::SHA3_512),
        block("aes-128-ecb", &cipher::AES_128, Mode::Ecb),
        block("aes-256-ecb", &cipher::AES_256, Mode::Ecb),
        block("aes-128-cbc", &cipher::AES_128, Mode::Cbc),
        block("aes-256-cbc", &cipher::AES_256, Mode::Cbc),
        block("aes-128-ctr", &cipher::AES_128, Mode::Ctr),
        block("aes-256-ctr", &cipher::AES_256, Mode::Ctr),
    ]
}

const NOTES: &[&str] = &[
    "Hashes: chunk 0 is digest::digest(alg, msg); chunk > 0 is digest::Context::new, update per piece, finish.",
    "HMAC-SHA256: hmac::Key::new once per cell (key prepared); chunk 0 is hmac::sign(&key, msg), chunk > 0 is hmac::Context::with_key (a copy of the keyed HMAC_CTX), update per piece, sign.",
    "AES-ECB/CBC/CTR (chunk 0): cipher::EncryptingKey/DecryptingKey::ecb/cbc/ctr (unpadded; key schedule once per cell), less_safe_encrypt/decrypt with the IV set per message. That API works in place only, so each timed operation first copies the fixed input into the output buffer: one memcpy of `size` bytes per operation is inside the timed region. ECB in aws-lc-rs is a loop over AES_ecb_encrypt, one block per call.",
    "AES-CTR (chunk > 0): cipher::StreamingEncryptingKey::less_safe_ctr / StreamingDecryptingKey::ctr, update per piece (out of place), finish. The streaming API takes an UnboundCipherKey by value, so each operation includes EVP_CIPHER_CTX_new + EVP_EncryptInit_ex (the key schedule) and the context's free. AES-CBC/ECB are not streamable here: aws-lc-rs streams CBC/ECB only with PKCS#7 padding.",
    "AEADs: aead::LessSafeKey (key schedule once per cell), nonce per message, Aad::empty(); seal is seal_out_of_place_scatter (message -> output buffer, tag after it), open is open_separate_gather (ciphertext and tag -> output buffer): no copy inside the timed region. One-shot only (no streaming AEAD).",
    "Not offered: BLAKE2, ChaCha20, AES-CCM, XChaCha20-Poly1305 (not in aws-lc-rs's public API).",
];

// ---- AES modes ----------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
}

const AES_BLOCK: usize = 16;

const NO_STREAM: &str =
    "aws-lc-rs streams AES-CBC/ECB only with PKCS#7 padding (StreamingEncryptingKey::cbc_pkcs7/ecb_pkcs7), and the contract has no padding";

fn enc_context(mode: Mode, iv: [u8; 16]) -> EncryptionContext {
    match mode {
        Mode::Ecb => EncryptionContext::None,
        _ => EncryptionContext::Iv128(FixedLength::from(iv)),
    }
}

fn dec_context(mode: Mode, iv: [u8; 16]) -> DecryptionContext {
    match mode {
        Mode::Ecb => DecryptionContext::None,
        _ => DecryptionContext::Iv128(FixedLength::from(iv)),
    }
}

fn unbound(alg: &'static cipher::Algorithm, key: &[u8]) -> Result<UnboundCipherKey, String> {
    UnboundCipherKey::new(alg, key).map_err(|_| "key rejected".to_string())
}

/// A key of one direction (encrypting or decrypting): its constructor per
/// mode, and its name for errors.
trait ModeKey: Sized {
    const NAME: &'static str;
    const CTORS: [fn(UnboundCipherKey) -> Result<Self, aws_lc_rs::error::Unspecified>; 3];
}

impl ModeKey for EncryptingKey {
    const NAME: &'static str = "EncryptingKey";
    const CTORS: [fn(UnboundCipherKey) -> Result<Self, aws_lc_rs::error::Unspecified>; 3] =
        [EncryptingKey::ecb, EncryptingKey::cbc, EncryptingKey::ctr];
}

impl ModeKey for DecryptingKey {
    const NAME: &'static str = "DecryptingKey";
    const CTORS: [fn(UnboundCipherKey) -> Result<Self, aws_lc_rs::error::Unspecified>; 3] =
        [DecryptingKey::ecb, DecryptingKey::cbc, DecryptingKey::ctr];
}

/// A key of one direction for `mode`, by that direction's constructors.
fn mode_key<K: ModeKey>(
    alg: &'static cipher::Algorithm,
    key: &[u8],
    mode: Mode,
) -> Result<K, String> {
    let k = unbound(alg, key)?;
    let [ecb, cbc, ctr] = K::CTORS;
    match mode {
        Mode::Ecb => ecb(k),
        Mode::Cbc => cbc(k),
        Mode::Ctr => ctr(k),
    }
    .map_err(unspecified(K::NAME))
}

/// One whole-message operation the simple way (verify, and the ciphertext
/// a decrypt cell is prepared with).
fn crypt(
    alg: &'static cipher::Algorithm,
    mode: Mode,
    encrypt: bool,
    key: &[u8],
    iv: [u8; 16],
    msg: &[u8],
) -> Result<Vec<u8>, String> {
    let mut buf = msg.to_vec();
    if encrypt {
        mode_key::<EncryptingKey>(alg, key, mode)?
            .less_safe_encrypt(&mut buf, enc_context(mode, iv))
            .map_err(unspecified("encrypt"))?;
    } else {
        mode_key::<DecryptingKey>(alg, key, mode)?
            .decrypt(&mut buf, dec_context(mode, iv))
            .map_err(unspecified("decrypt"))?;
    }
    Ok(buf)
}

/// Streamed AES-CTR: a fresh streaming key (EVP context) per operation.
struct CtrStream {
    alg: &'static cipher::Algorithm,
    key: Vec<u8>,
    iv: [u8; 16],
    encrypt: bool,
}

/// A streaming key of either direction: the same update; finish differs
/// only in what it returns besides the bytes written.
trait Streaming: Sized {
    fn update_len(&mut self, piece: &[u8], out: &mut [u8]) -> Result<usize, String>;
    fn finish_len(self, out: &mut [u8]) -> Result<usize, String>;
}

/// Streaming for a key type; `$fin => $update` picks the BufferUpdate out
/// of what its finish returns.
macro_rules! streaming {
    ($key:ty, $fin:pat => $update:expr) => {
        impl Streaming for $key {
            #[inline(always)]
            fn update_len(&mut self, piece: &[u8], out: &mut [u8]) -> Result<usize, String> {
                self.update(piece, out)
                    .map(|u| u.written().len())
                    .map_err(unspecified("update"))
            }
            #[inline(always)]
            fn finish_len(self, out: &mut [u8]) -> Result<usize, String> {
                self.finish(out)
                    .map(|$fin| $update.written().len())
                    .map_err(unspecified("finish"))
            }
        }
    };
}

streaming!(StreamingEncryptingKey, (_, u) => u);
streaming!(StreamingDecryptingKey, u => u);

/// The pieces through one streaming key, then its finish.
#[inline(always)]
fn stream<S: Streaming, H: Hook>(mut s: S, p: &mut Pieces<'_, H>) -> Result<(), String> {
    p.each(|piece, out| s.update_len(piece, out))?;
    p.finish(|out| s.finish_len(out))
}

impl StreamOp for CtrStream {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let k = unbound(self.alg, &self.key)?;
        if self.encrypt {
            let ctx = EncryptionContext::Iv128(FixedLength::from(self.iv));
            let s = StreamingEncryptingKey::less_safe_ctr(k, ctx)
                .map_err(unspecified("StreamingEncryptingKey"))?;
            stream(s, p)
        } else {
            let ctx = DecryptionContext::Iv128(FixedLength::from(self.iv));
            let s = StreamingDecryptingKey::ctr(k, ctx)
                .map_err(unspecified("StreamingDecryptingKey"))?;
            stream(s, p)
        }
    }
}

fn block(name: &'static str, alg: &'static cipher::Algorithm, mode: Mode) -> Alg {
    let key_len = if std::ptr::eq(alg, &cipher::AES_128) {
        16
    } else {
        32
    };
    let check = move |key: &[u8], iv: &[u8], size: usize| -> Result<[u8; 16], String> {
        check_len("key", key, key_len)?;
        let mut iv16 = [0u8; 16];
        if mode != Mode::Ecb {
            check_len("iv", iv, 16)?;
            iv16.copy_from_slice(iv);
        }
        if mode != Mode::Ctr {
            check_blocks(size, name)?;
        }
        Ok(iv16)
    };
    Alg::new(
        name,
        &[Op::Encrypt, Op::Decrypt],
        mode == Mode::Ctr,
        move |c: &Case| {
            let iv = check(&c.key, &c.iv, c.msg.len())?;
            Ok(crypt(alg, mode, c.op == Op::Encrypt, &c.key, iv, &c.msg)?)
        },
        move |p: &CellParams| {
            let iv = check(p.key, p.iv, p.size)?;
            let encrypt = p.op == Op::Encrypt;
            if p.chunk > 0 {
                if mode != Mode::Ctr {
                    return Err(format!(
                        "not offered: chunk {}: {name}: {NO_STREAM}",
                        p.chunk
                    ));
                }
                let op = |encrypt| CtrStream {
                    alg,
                    key: p.key.to_vec(),
                    iv,
                    encrypt,
                };
                if encrypt {
                    return stream_cell(p, op(true), None, AES_BLOCK);
                }
                let key = p.key.to_vec();
                let fresh = move || -> Result<PieceFn, String> {
                    let ctx = EncryptionContext::Iv128(FixedLength::from(iv));
                    let mut s = StreamingEncryptingKey::less_safe_ctr(unbound(alg, &key)?, ctx)
                        .map_err(unspecified("StreamingEncryptingKey"))?;
                    // update wants a block of room beyond the piece
                    let mut room = Vec::new();
                    Ok(Box::new(move |piece, out| {
                        room.resize(piece.len() + AES_BLOCK, 0);
                        let u = s.update(piece, &mut room).map_err(unspecified("update"))?;
                        let n = u.written().len();
                        if n != piece.len() {
                            return Err(format!("update wrote {n} of {} bytes", piece.len()));
                        }
                        out.copy_from_slice(&room[..n]);
                        Ok(())
                    }))
                };
                return decrypt_cell(p, op(false), op(true), fresh, AES_BLOCK);
            }
            let msg = p.message();
            let n = msg.len();
            if encrypt {
                let k = mode_key::<EncryptingKey>(alg, p.key, mode)?;
                return Ok(one_shot(msg, n, move |m, out| {
                    out.copy_from_slice(m); // in-place API (see notes)
                    k.less_safe_encrypt(out, enc_context(mode, iv))
                        .map_err(unspecified("encrypt"))?;
                    Ok(n)
                }));
            }
            let ct = crypt(alg, mode, true, p.key, iv, &msg)?;
            let k = mode_key::<DecryptingKey>(alg, p.key, mode)?;
            Ok(one_shot(ct, n, move |c, out| {
                out.copy_from_slice(c); // in-place API (see notes)
                k.decrypt(out, dec_context(mode, iv))
                    .map_err(unspecified("decrypt"))?;
                Ok(n)
            }))
        },
    )
    .no_stream_because(NO_STREAM)
}

// ---- hashes, HMAC and AEADs (ring_family.rs) -----------------------------------

// aws-lc-rs seals and opens out of place: message -> output buffer with the
// tag after it; ciphertext and tag -> output buffer (no copy, see notes).
/// The crate's constant-time comparison (the leak request's `compare`).
fn library_compare() -> Option<super::Compare> {
    Some(|a, b| aws_lc_rs::constant_time::verify_slices_are_equal(a, b).is_ok())
}

super::ring_family::ring_family!(
    lib = aws_lc_rs,
    open_room = 0,
    seal_timed = |key, nonce, m, out| {
        let (ct, tag) = out.split_at_mut(m.len());
        key.seal_out_of_place_scatter(
            Nonce::assume_unique_for_key(nonce),
            Aad::empty(),
            m,
            ct,
            &[],
            tag,
        )
        .map_err(unspecified("seal"))?;
        Ok(m.len() + TAG_LEN)
    },
    open_timed = |key, nonce, c, out| {
        let (ct, tag) = c.split_at(c.len() - TAG_LEN);
        key.open_separate_gather(
            Nonce::assume_unique_for_key(nonce),
            Aad::empty(),
            ct,
            tag,
            &mut out[..ct.len()],
        )
        .map_err(|_| "open failed: the tag did not verify".to_string())?;
        Ok(ct.len())
    },
);
