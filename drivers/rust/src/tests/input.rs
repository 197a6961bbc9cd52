//! The check values of protocol.md, "The fixed input".

use sha2::{Digest, Sha256};

use crate::input::{checksum, decode_hex, encode_hex, fnv1a64, message, pattern, Fnv, PATTERN_LEN};

const CHECK_SEED: u32 = 2654435769;

#[test]
fn pattern_first_bytes() {
    assert_eq!(
        encode_hex(&pattern(CHECK_SEED)[..16]),
        "193e3ab51f37d0bf39b8eeb4d33cb85f"
    );
}

#[test]
fn pattern_fnv() {
    let p = pattern(CHECK_SEED);
    assert_eq!(p.len(), 2 * PATTERN_LEN, "the pattern is kept twice");
    assert_eq!(format!("{:016x}", fnv1a64(&p[..1024])), "7ef541935f3b9cc9");
    assert_eq!(
        format!("{:016x}", fnv1a64(&p[..PATTERN_LEN])),
        "1846d3257d44728c"
    );
    assert_eq!(p[..PATTERN_LEN], p[PATTERN_LEN..], "second copy differs");
}

#[test]
fn pattern_sha256() {
    let d = Sha256::digest(message(CHECK_SEED, 1024));
    assert_eq!(
        encode_hex(&d),
        "8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01"
    );
    assert_eq!(checksum(&d), "00000020:fb4898be6151a393");
}

#[test]
fn checksum_empty() {
    assert_eq!(checksum(&[]), "00000000:cbf29ce484222325");
}

#[test]
fn fnv_incremental() {
    let m = message(CHECK_SEED, 10_000);
    let mut f = Fnv::new();
    for piece in m.chunks(333) {
        f.update(piece);
    }
    assert_eq!(f.checksum(), checksum(&m));
}

#[test]
fn message_wraps() {
    let n = PATTERN_LEN + 100;
    let m = message(7, n);
    let p = pattern(7);
    assert_eq!(m.len(), n);
    for i in (0..n).step_by(4099) {
        assert_eq!(m[i], p[i % PATTERN_LEN], "M[{i}] != P[{i} mod 1 MiB]");
    }
    assert_eq!(m[n - 1], p[99], "last byte does not wrap");
    // A different seed gives a different pattern (and the cache follows).
    assert_ne!(pattern(8)[..16], p[..16]);
    assert_eq!(pattern(7)[..], p[..]);
}

#[test]
fn hex() {
    assert_eq!(decode_hex("key", "00ff").unwrap(), vec![0, 0xff]);
    assert_eq!(decode_hex("key", "ABcd").unwrap(), vec![0xab, 0xcd]);
    assert_eq!(decode_hex("key", "").unwrap(), Vec::<u8>::new());
    assert!(decode_hex("key", "0g").unwrap_err().contains("key"));
    assert!(decode_hex("iv", "abc").unwrap_err().contains("iv"));
    assert_eq!(encode_hex(&[0xab, 0x01]), "ab01");
}
