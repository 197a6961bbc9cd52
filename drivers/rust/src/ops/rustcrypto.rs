//! rust:rustcrypto — the RustCrypto crates: sha2, sha3, blake2, hmac, aes
//! with the cbc, ctr and ecb mode crates, aes-gcm, ccm, chacha20,
//! chacha20poly1305, sm3 and sm4 (SM4-GCM through aes-gcm's generic
//! AesGcm), Ascon (NIST SP 800-232: ascon-aead, ascon-hash256,
//! ascon-xof128). Pure Rust; the crates pick AES-NI, SHA-NI, CLMUL and AVX2 code
//! paths at run time (cpufeatures), no target-cpu flags. Public-key and
//! post-quantum algorithms are in `rustcrypto_pk.rs`.

use std::marker::PhantomData;

use aes::cipher::array::Array;
use aes::cipher::common::InnerInit;
use aes::cipher::consts::U16;
use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser,
    InnerIvInit, KeyInit, KeyIvInit, StreamCipher, StreamCipherCoreWrapper, StreamCipherSeek,
};
use aes::{Aes128, Aes256};
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::aead::{AeadInOut, Nonce, Tag};
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm};
use ascon_aead::AsconAead128;
use ascon_hash256::AsconHash256;
use ascon_xof128::{AsconXof128, ExtendableOutput, XofReader};
use blake2::{Blake2b512, Blake2s256};
use ccm::consts::U12;
use ccm::Ccm;
use chacha20::ChaCha20;
use chacha20poly1305::{ChaCha20Poly1305, XChaCha20Poly1305};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256, Sha512};
use sha3::{Sha3_256, Sha3_512};
use sm3::Sm3;
use sm4::Sm4;

use super::rustcrypto_pk;
use super::{
    check_blocks, check_chunk_blocks, check_len, crate_versions, decrypt_cell, one_shot,
    stream_cell, stream_exec, Alg, Case, CellParams, Failure, Hook, Op, PieceFn, Pieces, Provider,
    StreamOp,
};

/// The crates whose versions `library_version` reports: the ones used
/// directly, then the trait and backend crates that hold the code paths.
const CRATES: &[&str] = &[
    "sha2",
    "sha3",
    "blake2",
    "hmac",
    "aes",
    "cbc",
    "ctr",
    "ecb",
    "aes-gcm",
    "ccm",
    "chacha20",
    "chacha20poly1305",
    "sm3",
    "sm4",
    "ascon-aead",
    "ascon-hash256",
    "ascon-xof128",
    "rsa",
    "p256",
    "p384",
    "k256",
    "ecdsa",
    "elliptic-curve",
    "ed25519-dalek",
    "x25519-dalek",
    "curve25519-dalek",
    "ml-kem",
    "ml-dsa",
    "slh-dsa",
    "x-wing",
    "sm2",
    "rand",
    "digest",
    "cipher",
    "aead",
    "keccak",
    "ghash",
    "polyval",
    "poly1305",
    "cpufeatures",
];

pub fn provider() -> Provider {
    let algs = [algs(), rustcrypto_pk::algs()];
    let notes = &[NOTES, rustcrypto_pk::NOTES];
    Provider::new(
        "rust:rustcrypto",
        "RustCrypto",
        crate_versions(CRATES),
        notes,
        algs,
    )
}

fn algs() -> Vec<Alg> {
    vec![
        hash::<Sha256>("sha256"),
        hash::<Sha512>("sha512"),
        hash::<Sha3_256>("sha3-256"),
        hash::<Sha3_512>("sha3-512"),
        hash::<Blake2b512>("blake2b-512"),
        hash::<Blake2s256>("blake2s-256"),
        hmac_sha256(),
        block::<Aes128>("aes-128-ecb", 16, Mode::Ecb),
        block::<Aes256>("aes-256-ecb", 32, Mode::Ecb),
        block::<Aes128>("aes-128-cbc", 16, Mode::Cbc),
        block::<Aes256>("aes-256-cbc", 32, Mode::Cbc),
        block::<Aes128>("aes-128-ctr", 16, Mode::Ctr),
        block::<Aes256>("aes-256-ctr", 32, Mode::Ctr),
        chacha20(),
        aead::<Aes128Gcm>("aes-128-gcm", 16, 12, None),
        aead::<Aes256Gcm>("aes-256-gcm", 32, 12, None),
        // CCM with a 12-byte nonce has a 3-byte length field.
        aead::<Ccm<Aes128, U16, U12>>("aes-128-ccm", 16, 12, Some((1 << 24) - 1)),
        aead::<Ccm<Aes256, U16, U12>>("aes-256-ccm", 32, 12, Some((1 << 24) - 1)),
        aead::<ChaCha20Poly1305>("chacha20-poly1305", 32, 12, None),
        aead::<XChaCha20Poly1305>("xchacha20-poly1305", 32, 24, None),
        hash::<Sm3>("sm3"),
        block::<Sm4>("sm4-ecb", 16, Mode::Ecb),
        block::<Sm4>("sm4-cbc", 16, Mode::Cbc),
        block::<Sm4>("sm4-ctr", 16, Mode::Ctr),
        aead::<AesGcm<Sm4, U12>>("sm4-gcm", 16, 12, None),
        aead::<AsconAead128>("ascon-aead128", 16, 16, None),
        hash::<AsconHash256>("ascon-hash256"),
        xof::<AsconXof128>("ascon-xof128", 32),
    ]
}

const NOTES: &[&str] = &[
    "Hashes: D::new(), update per piece, finalize (chunk 0: one update of the whole message, which is what D::digest does).",
    "HMAC-SHA256: Hmac<Sha256>::new_from_slice once per cell (key prepared); one operation clones the keyed Hmac, updates, finalizes.",
    "AES-ECB/CBC/CTR: the Aes128/Aes256 key schedule is made once per cell; each operation builds ecb::Encryptor/cbc::Encryptor/ctr::Ctr128BE over a reference to it (plus the IV) and runs encrypt_blocks_b2b/apply_keystream_b2b into the output buffer; streamed CBC/ECB chunks must be multiples of 16.",
    "ChaCha20: ChaCha20::new(key, nonce) per message (block counter 0), apply_keystream_b2b per piece.",
    "AEADs: one-shot in RustCrypto (not streamable); the cipher object (key schedule) is made once per cell; seal is encrypt_inout_detached from the message into the output buffer with the tag written after it, open is decrypt_inout_detached: no copy inside the timed region. CCM: Ccm<Aes, U16, U12>, at most 2^24-1 bytes.",
    "SM3, SM4-ECB/CBC/CTR: the sm3 and sm4 crates through the same code as SHA-2 and AES (Sm3 in the hash stream, Sm4 in the ecb/cbc/ctr mode crates). SM4-GCM: aes-gcm's generic AesGcm<Sm4, U12> (GHASH from the ghash crate, one-shot).",
    "Ascon (NIST SP 800-232): Ascon-AEAD128 is ascon-aead's AsconAead128 through the same one-shot AEAD code as AES-GCM (16-byte key, nonce and tag; RustCrypto's own ascon-aead128 0.1.1 does not build against the released ascon 0.5.0 permutation crate, so the SP 800-232 implementation of ascon-aead 0.6 is used); Ascon-Hash256 is ascon-hash256 through the hash stream; Ascon-XOF128 is ascon-xof128: default(), update per piece, finalize_xof, read the first 32 bytes.",
];

// ---- hashes and HMAC ----------------------------------------------------------

struct HashStream<D>(PhantomData<D>);

impl<D: Digest + 'static> StreamOp for HashStream<D> {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut h = D::new();
        p.absorb(|piece| h.update(piece));
        p.finish(|out| {
            let d = h.finalize();
            out[..d.len()].copy_from_slice(&d);
            Ok(d.len())
        })
    }
}

fn hash<D: Digest + 'static>(name: &'static str) -> Alg {
    let n = <D as Digest>::output_size();
    Alg::new(
        name,
        &[Op::Hash],
        true,
        move |c| stream_exec(HashStream::<D>(PhantomData), &c.msg, n),
        move |p| stream_cell(p, HashStream::<D>(PhantomData), None, n),
    )
}

/// An XOF (Ascon-XOF128): absorb the pieces, then read the first `n`
/// bytes of its output. digest's `Update` is named in full: in scope it
/// would clash with `Mac::update` below.
struct XofStream<X> {
    n: usize,
    x: PhantomData<X>,
}

impl<X: Default + ascon_xof128::Update + ExtendableOutput + 'static> StreamOp for XofStream<X> {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut h = X::default();
        p.absorb(|piece| ascon_xof128::Update::update(&mut h, piece));
        let n = self.n;
        p.finish(|out| {
            h.finalize_xof().read(&mut out[..n]);
            Ok(n)
        })
    }
}

fn xof<X: Default + ascon_xof128::Update + ExtendableOutput + 'static>(
    name: &'static str,
    n: usize,
) -> Alg {
    let op = move || XofStream::<X> { n, x: PhantomData };
    Alg::new(
        name,
        &[Op::Hash],
        true,
        move |c| stream_exec(op(), &c.msg, n),
        move |p| stream_cell(p, op(), None, n),
    )
}

struct HmacStream {
    mac: Hmac<Sha256>,
}

impl StreamOp for HmacStream {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut m = self.mac.clone();
        p.absorb(|piece| m.update(piece));
        p.finish(|out| {
            let t = m.finalize().into_bytes();
            out[..t.len()].copy_from_slice(&t);
            Ok(t.len())
        })
    }
}

fn hmac_stream(key: &[u8]) -> Result<HmacStream, String> {
    let mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).map_err(|e| format!("key: {e}"))?;
    Ok(HmacStream { mac })
}

fn hmac_sha256() -> Alg {
    Alg::new(
        "hmac-sha256",
        &[Op::Mac],
        true,
        |c| stream_exec(hmac_stream(&c.key)?, &c.msg, 32),
        |p| stream_cell(p, hmac_stream(p.key)?, None, 32),
    )
    // the leak request's verify: the keyed Hmac made outside the call, then update and
    // Mac::verify_slice (the hmac crate's comparison, through subtle) inside; no compare (the
    // crates this driver links give no comparison of their own)
    .with_prepare(|c| match c.op {
        Op::Verify => {
            let mut mac = Some(hmac_stream(&c.key)?.mac);
            let (msg, tag) = (c.msg.clone(), c.sig.clone());
            Ok(Box::new(move || {
                let mut m = mac
                    .take()
                    .ok_or(Failure::Error("a prepared verify runs once".into()))?;
                m.update(&msg);
                m.verify_slice(&tag).map_err(|_| Failure::Rejected)
            }))
        }
        Op::Compare => Err(Failure::Unsupported(
            "the RustCrypto crates linked here give no comparison of their own (subtle is theirs)"
                .into(),
        )),
        op => Err(Failure::Error(format!(
            "hmac-sha256 has no leak operation {:?}",
            op.name()
        ))),
    })
}

// ---- AES modes and ChaCha20 ---------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Ecb,
    Cbc,
    Ctr,
}

/// Bound for the AES key schedules (`Aes128`, `Aes256`).
trait Aes:
    BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16> + KeyInit + Clone + 'static
{
}
impl<T> Aes for T where
    T: BlockCipherEncrypt
        + BlockCipherDecrypt
        + BlockSizeUser<BlockSize = U16>
        + KeyInit
        + Clone
        + 'static
{
}

/// One ECB/CBC/CTR operation per run: the mode object is built from a
/// reference to the prepared key schedule and the IV, then fed the pieces.
#[derive(Clone)]
struct BlockStream<C> {
    cipher: C,
    iv: Array<u8, U16>,
    mode: Mode,
    encrypt: bool,
}

type Block = Array<u8, U16>;

/// The whole blocks of a piece and of the output buffer, same length.
#[inline(always)]
fn blocks<'a>(piece: &'a [u8], out: &'a mut [u8]) -> (&'a [Block], &'a mut [Block]) {
    let (inb, _) = Array::slice_as_chunks(piece);
    let (outb, _) = Array::slice_as_chunks_mut(&mut out[..piece.len()]);
    (inb, outb)
}

fn unequal<E>(_: E) -> String {
    "internal error: input and output blocks differ in length".into()
}

/// The pieces through a block mode's `encrypt_blocks_b2b` or
/// `decrypt_blocks_b2b` (the modes' types share no trait for both), whole
/// blocks each.
macro_rules! each_block {
    ($p:ident, $m:ident.$crypt:ident) => {
        $p.each(|piece, out| {
            let (i, o) = blocks(piece, out);
            $m.$crypt(i, o).map_err(unequal)?;
            Ok(piece.len())
        })
    };
}

impl<C: Aes> StreamOp for BlockStream<C> {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let c = &self.cipher;
        match (self.mode, self.encrypt) {
            (Mode::Ecb, true) => {
                let mut m = ecb::Encryptor::<&C>::inner_init(c);
                each_block!(p, m.encrypt_blocks_b2b)
            }
            (Mode::Ecb, false) => {
                let mut m = ecb::Decryptor::<&C>::inner_init(c);
                each_block!(p, m.decrypt_blocks_b2b)
            }
            (Mode::Cbc, true) => {
                let mut m = cbc::Encryptor::<&C>::inner_iv_init(c, &self.iv);
                each_block!(p, m.encrypt_blocks_b2b)
            }
            (Mode::Cbc, false) => {
                let mut m = cbc::Decryptor::<&C>::inner_iv_init(c, &self.iv);
                each_block!(p, m.decrypt_blocks_b2b)
            }
            (Mode::Ctr, _) => {
                let core = ctr::CtrCore::<&C, ctr::flavors::Ctr128BE>::inner_iv_init(c, &self.iv);
                let mut m: ctr::Ctr128BE<&C> = StreamCipherCoreWrapper::from_core(core);
                p.each(|piece, out| {
                    m.apply_keystream_b2b(piece, &mut out[..piece.len()]);
                    Ok::<_, String>(piece.len())
                })
            }
        }
    }
}

/// The pull-style encrypter of `BlockStream` (a big decrypt's ciphertext
/// made again piece by piece): owns a copy of the key schedule.
fn block_encrypter<C: Aes>(s: &BlockStream<C>) -> impl Fn() -> Result<PieceFn, String> {
    let (cipher, iv, mode) = (s.cipher.clone(), s.iv, s.mode);
    move || -> Result<PieceFn, String> {
        let c = cipher.clone();
        Ok(match mode {
            Mode::Ecb => {
                let mut m = ecb::Encryptor::<C>::inner_init(c);
                Box::new(move |piece, out| {
                    let (i, o) = blocks(piece, out);
                    m.encrypt_blocks_b2b(i, o).map_err(unequal)
                })
            }
            Mode::Cbc => {
                let mut m = cbc::Encryptor::<C>::inner_iv_init(c, &iv);
                Box::new(move |piece, out| {
                    let (i, o) = blocks(piece, out);
                    m.encrypt_blocks_b2b(i, o).map_err(unequal)
                })
            }
            Mode::Ctr => {
                let core = ctr::CtrCore::<C, ctr::flavors::Ctr128BE>::inner_iv_init(c, &iv);
                let mut m: ctr::Ctr128BE<C> = StreamCipherCoreWrapper::from_core(core);
                Box::new(move |piece, out| {
                    m.apply_keystream_b2b(piece, out);
                    Ok(())
                })
            }
        })
    }
}

fn block<C: Aes>(name: &'static str, key_len: usize, mode: Mode) -> Alg {
    let prepare = move |key: &[u8], iv: &[u8], size: usize| -> Result<BlockStream<C>, String> {
        check_len("key", key, key_len)?;
        let iv = if mode == Mode::Ecb {
            Array::default()
        } else {
            check_len("iv", iv, 16)?;
            Array::try_from(iv).map_err(|_| "iv must be 16 bytes".to_string())?
        };
        if mode != Mode::Ctr {
            check_blocks(size, name)?;
        }
        let cipher = C::new_from_slice(key).map_err(|e| format!("key: {e}"))?;
        Ok(BlockStream {
            cipher,
            iv,
            mode,
            encrypt: true,
        })
    };
    Alg::new(
        name,
        &[Op::Encrypt, Op::Decrypt],
        true,
        move |c| {
            let mut op = prepare(&c.key, &c.iv, c.msg.len())?;
            op.encrypt = c.op == Op::Encrypt;
            stream_exec(op, &c.msg, 0)
        },
        move |p| {
            let enc = prepare(p.key, p.iv, p.size)?;
            if mode != Mode::Ctr && p.chunk > 0 {
                check_chunk_blocks(p.chunk, name)?;
            }
            if p.op == Op::Encrypt {
                stream_cell(p, enc, None, 0)
            } else {
                let dec = BlockStream {
                    encrypt: false,
                    ..enc.clone()
                };
                let fresh = block_encrypter(&enc);
                decrypt_cell(p, dec, enc, fresh, 0)
            }
        },
    )
}

struct ChaChaStream {
    key: chacha20::Key,
    nonce: chacha20::Nonce,
    counter: u32,
}

impl StreamOp for ChaChaStream {
    fn run<H: Hook>(&mut self, p: &mut Pieces<'_, H>) -> Result<(), String> {
        let mut c = ChaCha20::new(&self.key, &self.nonce);
        if self.counter != 0 {
            c.try_seek(u64::from(self.counter) * 64)
                .map_err(|e| format!("counter: {e}"))?;
        }
        p.each(|piece, out| {
            c.try_apply_keystream_b2b(piece, &mut out[..piece.len()])
                .map_err(|e| format!("keystream: {e}"))?;
            Ok(piece.len())
        })
    }
}

fn chacha_stream(key: &[u8], nonce: &[u8], counter: u32) -> Result<ChaChaStream, String> {
    check_len("key", key, 32)?;
    check_len("iv", nonce, 12)?;
    Ok(ChaChaStream {
        key: Array::try_from(key).map_err(|_| "key must be 32 bytes".to_string())?,
        nonce: Array::try_from(nonce).map_err(|_| "iv must be 12 bytes".to_string())?,
        counter,
    })
}

fn chacha20() -> Alg {
    Alg::new(
        "chacha20",
        &[Op::Encrypt, Op::Decrypt],
        true,
        |c| stream_exec(chacha_stream(&c.key, &c.iv, c.counter)?, &c.msg, 0),
        |p| {
            let op = chacha_stream(p.key, p.iv, 0)?;
            if p.op == Op::Encrypt {
                return stream_cell(p, op, None, 0);
            }
            let (key, nonce) = (op.key, op.nonce);
            let fresh = move || -> Result<PieceFn, String> {
                let mut c = ChaCha20::new(&key, &nonce);
                Ok(Box::new(move |piece, out| {
                    c.try_apply_keystream_b2b(piece, out)
                        .map_err(|e| format!("keystream: {e}"))
                }))
            };
            decrypt_cell(p, op, chacha_stream(p.key, p.iv, 0)?, fresh, 0)
        },
    )
}

// ---- AEADs ------------------------------------------------------------------

const TAG_LEN: usize = 16;

fn aead<A>(name: &'static str, key_len: usize, nonce_len: usize, max_len: Option<usize>) -> Alg
where
    A: AeadInOut + KeyInit + 'static,
{
    let prepare = move |key: &[u8], nonce: &[u8]| -> Result<(A, Nonce<A>), String> {
        check_len("key", key, key_len)?;
        check_len("iv", nonce, nonce_len)?;
        let a = A::new_from_slice(key).map_err(|e| format!("key: {e}"))?;
        let n = Nonce::<A>::try_from(nonce).map_err(|_| format!("iv must be {nonce_len} bytes"))?;
        if Tag::<A>::default().len() != TAG_LEN {
            return Err(format!("{name}: tag is not {TAG_LEN} bytes"));
        }
        Ok((a, n))
    };
    let seal = |a: &A, nonce: &Nonce<A>, aad: &[u8], msg: &[u8]| -> Result<Vec<u8>, String> {
        let mut buf = msg.to_vec();
        let tag = a
            .encrypt_inout_detached(nonce, aad, buf.as_mut_slice().into())
            .map_err(|_| format!("seal failed ({} bytes)", msg.len()))?;
        buf.extend_from_slice(&tag);
        Ok(buf)
    };
    Alg::new(
        name,
        &[Op::Seal, Op::Open],
        false,
        move |c: &Case| {
            let (a, nonce) = prepare(&c.key, &c.iv)?;
            if c.op == Op::Seal {
                return Ok(seal(&a, &nonce, &c.aad, &c.msg)?);
            }
            if c.msg.len() < TAG_LEN {
                return Err(Failure::Rejected);
            }
            let (ct, tag) = c.msg.split_at(c.msg.len() - TAG_LEN);
            let tag = Tag::<A>::try_from(tag).map_err(|_| Failure::Rejected)?;
            let mut buf = ct.to_vec();
            a.decrypt_inout_detached(&nonce, &c.aad, buf.as_mut_slice().into(), &tag)
                .map_err(|_| Failure::Rejected)?;
            Ok(buf)
        },
        move |p: &CellParams| {
            if let Some(max) = max_len {
                if p.size > max {
                    return Err(format!(
                        "not offered at this size: {name} with a {nonce_len}-byte nonce takes at most {max} bytes"
                    ));
                }
            }
            let (a, nonce) = prepare(p.key, p.iv)?;
            let msg = p.message();
            let n = msg.len();
            if p.op == Op::Seal {
                return Ok(one_shot(msg, n + TAG_LEN, move |m, out| {
                    let (ct, tag_out) = out.split_at_mut(m.len());
                    let tag = a
                        .encrypt_inout_detached(&nonce, &[], InOutBuf::new(m, ct).map_err(unequal)?)
                        .map_err(|_| "seal failed".to_string())?;
                    tag_out.copy_from_slice(&tag);
                    Ok(m.len() + TAG_LEN)
                }));
            }
            let sealed = seal(&a, &nonce, &[], &msg)?;
            Ok(one_shot(sealed, n, move |c, out| {
                let (ct, tag) = c.split_at(c.len() - TAG_LEN);
                let tag = Tag::<A>::try_from(tag).map_err(|_| "bad tag length".to_string())?;
                let buf = InOutBuf::new(ct, &mut out[..ct.len()]).map_err(unequal)?;
                a.decrypt_inout_detached(&nonce, &[], buf, &tag)
                    .map_err(|_| "open failed: the tag did not verify".to_string())?;
                Ok(ct.len())
            }))
        },
    )
}
