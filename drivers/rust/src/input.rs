//! The fixed input (protocol.md, "The fixed input"): every driver generates
//! the same message bytes from a seed with xorshift32, over a 1 MiB period.
//! Also FNV-1a 64 (one-shot and incremental), the checksum string and hex.

use std::sync::{Arc, Mutex};

/// Period of the pattern: a message is `M[i] = P[i mod PATTERN_LEN]`.
pub const PATTERN_LEN: usize = 1 << 20;

/// The most recently generated pattern (the orchestrator uses one seed).
static PATTERN: Mutex<Option<(u32, Arc<[u8]>)>> = Mutex::new(None);

/// The first 1 MiB of the xorshift32 byte stream for `seed`, kept twice
/// (2 MiB), so any piece of up to 1 MiB starting anywhere in the period is
/// one contiguous slice: piece `[off, off+len)` of a message is
/// `p[off % PATTERN_LEN..][..len]`. Cached and shared.
pub fn pattern(seed: u32) -> Arc<[u8]> {
    let mut cache = PATTERN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, p)) = cache.as_ref() {
        if *s == seed {
            return Arc::clone(p);
        }
    }
    let mut p = vec![0u8; 2 * PATTERN_LEN];
    let mut x = seed;
    for b in p[..PATTERN_LEN].iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *b = x as u8;
    }
    p.copy_within(..PATTERN_LEN, PATTERN_LEN);
    let p: Arc<[u8]> = p.into();
    *cache = Some((seed, Arc::clone(&p)));
    p
}

/// A fresh `n`-byte message `M[i] = P[i mod 1 MiB]` (one-shot cells only:
/// streamed cells read pieces from `pattern` and never materialise it).
pub fn message(seed: u32, n: usize) -> Vec<u8> {
    let p = pattern(seed);
    let mut m = Vec::with_capacity(n);
    while m.len() < n {
        let k = (n - m.len()).min(PATTERN_LEN);
        m.extend_from_slice(&p[..k]);
    }
    m
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The 64-bit FNV-1a hash of `b` (the native input test checks it).
#[cfg_attr(not(test), allow(dead_code))]
pub fn fnv1a64(b: &[u8]) -> u64 {
    let mut f = Fnv::new();
    f.update(b);
    f.hash
}

/// Incremental FNV-1a 64 that also counts the bytes: the checksum of an
/// output that arrives in pieces (streamed cells).
#[derive(Clone, Debug)]
pub struct Fnv {
    pub hash: u64,
    pub len: u64,
}

impl Fnv {
    pub fn new() -> Self {
        Fnv {
            hash: FNV_OFFSET,
            len: 0,
        }
    }

    pub fn update(&mut self, b: &[u8]) {
        let mut h = self.hash;
        for &c in b {
            h ^= u64::from(c);
            h = h.wrapping_mul(FNV_PRIME);
        }
        self.hash = h;
        self.len += b.len() as u64;
    }

    /// `<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>`.
    pub fn checksum(&self) -> String {
        format!("{:08x}:{:016x}", self.len, self.hash)
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

/// `<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>` of `out`.
pub fn checksum(out: &[u8]) -> String {
    let mut f = Fnv::new();
    f.update(out);
    f.checksum()
}

/// Decodes a hex field of a request, naming the field on error. An empty
/// string is an empty value.
pub fn decode_hex(field: &str, s: &str) -> Result<Vec<u8>, String> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return Err(format!("bad hex in \"{field}\": odd length {}", s.len()));
    }
    s.chunks_exact(2)
        .enumerate()
        .map(|(i, pair)| match (nibble(pair[0]), nibble(pair[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => Err(format!(
                "bad hex in \"{field}\": invalid byte at offset {}",
                2 * i
            )),
        })
        .collect()
}

/// Lowercase hex, as the protocol wants.
pub fn encode_hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * b.len());
    for &c in b {
        s.push(DIGITS[usize::from(c >> 4)] as char);
        s.push(DIGITS[usize::from(c & 15)] as char);
    }
    s
}
