//! The calls drivers/rust times for the same cells (its notes say which),
//! under criterion's own loop: SHA-256 (ring `digest::digest`, RustCrypto
//! `Sha256` new/update/finalize) and AES-128-GCM seal (ring
//! `LessSafeKey::seal_in_place_separate_tag` after a copy of the message,
//! as ring seals in place; RustCrypto `encrypt_inout_detached` into a
//! buffer). Key, nonce and message as the orchestrator's fixed input; sizes from
//! `CB_SIZES` (default 64,1024,16384).

use std::hint::black_box;

use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::aead::{AeadInOut, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use ring::aead::{Aad, LessSafeKey, UnboundKey, AES_128_GCM};
use ring::digest;
use sha2::{Digest, Sha256};

/// The xorshift32 message of docs/protocol.md ("The fixed input").
fn message(seed: u32, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|i| {
            if i % (1 << 20) == 0 {
                x = seed;
            }
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

fn sizes() -> Vec<usize> {
    std::env::var("CB_SIZES")
        .unwrap_or_else(|_| "64,1024,16384".into())
        .split(',')
        .map(|s| s.parse().expect("CB_SIZES: comma-separated byte counts"))
        .collect()
}

const SEED: u32 = 2654435769;

fn sha256(c: &mut Criterion) {
    let mut g = c.benchmark_group("sha256");
    for n in sizes() {
        let m = message(SEED, n);
        g.bench_with_input(BenchmarkId::new("ring", n), &m, |b, m| {
            b.iter(|| digest::digest(&digest::SHA256, black_box(m)))
        });
        g.bench_with_input(BenchmarkId::new("rustcrypto", n), &m, |b, m| {
            b.iter(|| {
                let mut h = Sha256::new();
                h.update(black_box(m));
                h.finalize()
            })
        });
    }
    g.finish();
}

fn gcm_seal(c: &mut Criterion) {
    let key = message(0x5EED_0001, 16); // fixed_input.cell_key / cell_iv
    let iv: [u8; 12] = message(0x5EED_0002, 12).try_into().unwrap();
    let mut g = c.benchmark_group("aes-128-gcm-seal");
    for n in sizes() {
        let m = message(SEED, n);
        let k = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &key).unwrap());
        let mut out = vec![0u8; n + 16];
        g.bench_with_input(BenchmarkId::new("ring", n), &m, |b, m| {
            b.iter(|| {
                let (ct, tag_out) = out.split_at_mut(m.len());
                ct.copy_from_slice(black_box(m));
                let nonce = ring::aead::Nonce::assume_unique_for_key(iv);
                let tag = k
                    .seal_in_place_separate_tag(nonce, Aad::empty(), ct)
                    .unwrap();
                tag_out.copy_from_slice(tag.as_ref());
                out[0]
            })
        });
        let a = Aes128Gcm::new_from_slice(&key).unwrap();
        let nonce = Nonce::from(iv);
        let mut out = vec![0u8; n + 16];
        g.bench_with_input(BenchmarkId::new("rustcrypto", n), &m, |b, m| {
            b.iter(|| {
                let (ct, tag_out) = out.split_at_mut(m.len());
                let buf = InOutBuf::new(black_box(m), ct).unwrap();
                let tag = a.encrypt_inout_detached(&nonce, &[], buf).unwrap();
                tag_out.copy_from_slice(&tag);
                out[0]
            })
        });
    }
    g.finish();
}

criterion_group!(benches, sha256, gcm_seal);
criterion_main!(benches);
