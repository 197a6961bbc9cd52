//! What the public-key and post-quantum catalogues share (protocol.md,
//! since version 2): the cell shapes, protocol.md's key encodings (a small strict
//! DER reader and writer for SubjectPublicKeyInfo, PKCS#8 and RFC 5915),
//! output sizes and checks.
//!
//! Cells: keys, peer keys, signatures and ciphertexts are made when the
//! cell is prepared (once per cell, untimed); [`op_cell`] then times one
//! closure call per operation and [`keygen_cell`] one key-pair generation.

use std::hint::black_box;

use super::{Cell, CellParams, Failure, KeyPair, Op};
use crate::input;

/// The keys a cell was prepared with, in protocol.md's encodings (empty
/// where the library does not give the encoding out, e.g. an AWS-LC ML-KEM
/// key's seed). Only the native tests read them.
#[derive(Clone, Debug, Default)]
pub struct Keys {
    pub public: Vec<u8>,
    pub private: Vec<u8>,
    /// `derive`: the fixed peer's public key.
    pub peer: Vec<u8>,
}

impl Keys {
    /// A key pair's keys (no peer).
    pub fn pair(public: Vec<u8>, private: Vec<u8>) -> Keys {
        Keys {
            public,
            private,
            peer: Vec::new(),
        }
    }
}

/// The `keypair` command's answer is a cell's keys without the peer.
impl From<Keys> for KeyPair {
    fn from(k: Keys) -> KeyPair {
        KeyPair {
            public: k.public,
            private: k.private,
        }
    }
}

/// Enough for every public-key output (the largest: an SLH-DSA-*-256f
/// signature, 49856 bytes; an ML-DSA-87 signature is 4627, an ML-KEM-1024
/// ciphertext plus key 1600).
pub const OUT_CAP: usize = 64 * 1024;

/// Copies `b` into the output buffer and returns its length.
#[inline(always)]
pub fn put(out: &mut [u8], b: &[u8]) -> Result<usize, String> {
    out.get_mut(..b.len())
        .ok_or_else(|| format!("output of {} bytes exceeds the buffer", b.len()))?
        .copy_from_slice(b);
    Ok(b.len())
}

/// Copies `a` then `b` (encaps: ciphertext ‖ shared key).
#[inline(always)]
pub fn put2(out: &mut [u8], a: &[u8], b: &[u8]) -> Result<usize, String> {
    let n = put(out, a)?;
    Ok(n + put(&mut out[n..], b)?)
}

/// A decaps cell's set-up check (untimed): the shared key its prepared
/// ciphertext decapsulates to must be the one encapsulation gave, or no cell.
pub fn decaps_agrees(alg: &str, decapsulated: &[u8], encapsulated: &[u8]) -> Result<(), String> {
    if decapsulated == encapsulated {
        Ok(())
    } else {
        Err(format!("{alg}: decapsulation disagrees with encapsulation"))
    }
}

/// A cell whose operation is `op(input, out) -> output length`: `input` is
/// the message (sign, verify, encrypt), the ciphertext (decrypt, decaps) or
/// empty; everything else the operation needs is captured by `op`, prepared.
pub fn op_cell<F>(keys: Keys, input: Vec<u8>, op: F) -> Box<dyn Cell>
where
    F: FnMut(&[u8], &mut [u8]) -> Result<usize, String> + 'static,
{
    super::one_shot_with_keys(input, OUT_CAP, op, Some(keys))
}

/// A `verify` cell: one verification of the prepared signature; a
/// signature that does not verify is an error (as for `open`).
pub fn verify_cell<F>(keys: Keys, msg: Vec<u8>, mut verify: F) -> Box<dyn Cell>
where
    F: FnMut(&[u8]) -> bool + 'static,
{
    op_cell(keys, msg, move |m, out| {
        if !verify(m) {
            return Err("verify failed: the prepared signature did not verify".into());
        }
        out[0] = 1;
        Ok(1)
    })
}

struct KeygenCell<G, E> {
    gen: G,
    encode: E,
    out: Vec<u8>,
    err: Option<String>,
}

impl<K, G, E> Cell for KeygenCell<G, E>
where
    G: FnMut() -> Result<K, String>,
    E: Fn(&K) -> Result<Vec<u8>, String>,
{
    fn run(&mut self) -> u64 {
        match (self.gen)() {
            Ok(k) => {
                black_box(&k);
                1
            }
            Err(e) => {
                self.err.get_or_insert(e);
                0
            }
        }
    }
    fn output(&self) -> &[u8] {
        &self.out
    }
    fn err(&self) -> Option<&str> {
        self.err.as_deref()
    }
    fn checksum(&mut self) -> String {
        match (self.gen)().and_then(|k| (self.encode)(&k)) {
            Ok(public) => self.out = public,
            Err(e) => {
                self.err.get_or_insert(e);
            }
        }
        input::checksum(&self.out)
    }
}

/// A `keygen` cell: the timed operation is `gen` alone, which returns the
/// library's key pair with its public key computed; `encode` (protocol.md's
/// public-key encoding, for the checksum) runs only in the untimed
/// checksum operation. The sink folds the constant 1 per key pair.
pub fn keygen_cell<K, G, E>(gen: G, encode: E) -> Box<dyn Cell>
where
    K: 'static,
    G: FnMut() -> Result<K, String> + 'static,
    E: Fn(&K) -> Result<Vec<u8>, String> + 'static,
{
    Box::new(KeygenCell {
        gen,
        encode,
        out: Vec::new(),
        err: None,
    })
}

/// An algorithm whose only operation is key generation (RSA keygen): no
/// verify case (no key generation from a seed), and one `keygen` cell.
pub fn keygen_only_alg(
    name: &'static str,
    cell: impl Fn() -> Box<dyn Cell> + 'static,
) -> super::Alg {
    super::Alg::new(
        name,
        &[Op::Keygen],
        false,
        move |c: &super::Case| Err(no_case(name, c.op)),
        move |p: &CellParams| {
            if p.op != Op::Keygen {
                return Err(no_cell(name, p.op));
            }
            Ok(cell())
        },
    )
}

/// The operations of a signature algorithm.
pub const SIGN_OPS: &[Op] = &[Op::Keygen, Op::Sign, Op::Verify];

/// A signature algorithm (keygen, sign, verify, not streamable).
pub fn sign_alg(
    name: &'static str,
    exec: impl Fn(&super::Case) -> Result<Vec<u8>, Failure> + 'static,
    new_cell: impl Fn(&CellParams) -> Result<Box<dyn Cell>, String> + 'static,
) -> super::Alg {
    super::Alg::new(name, SIGN_OPS, false, exec, new_cell)
}

/// A verify case's answer from the library's verdict: `[1]`, or rejected.
pub fn verified<E>(verdict: Result<(), E>) -> Result<Vec<u8>, Failure> {
    verdict.map_err(rejected)?;
    Ok(vec![1])
}

/// A verify case's answer from a library's yes or no.
pub fn verdict(ok: bool) -> Result<Vec<u8>, Failure> {
    verified(if ok { Ok(()) } else { Err(()) })
}

/// The message of a sign/verify/encrypt cell.
pub fn message(p: &CellParams) -> Vec<u8> {
    p.message()
}

/// A bench op the catalogue does not have for this algorithm (the request
/// handler checks `ops` first, so this is a safety net).
pub fn no_cell(alg: &str, op: Op) -> String {
    format!("op {:?} not offered for {alg}", op.name())
}

/// A case op the algorithm does not take.
pub fn no_case(alg: &str, op: Op) -> Failure {
    Failure::Error(format!("{alg} has no case operation {:?}", op.name()))
}

/// The error of a library call on a case input: the library refused it.
pub fn rejected<E>(_: E) -> Failure {
    Failure::Rejected
}

/// RSAES-OAEP with SHA-256 takes at most k - 2*32 - 2 bytes.
pub fn oaep_max(bits: usize) -> usize {
    bits / 8 - 2 * 32 - 2
}

pub fn check_oaep_size(alg: &str, bits: usize, size: usize) -> Result<(), String> {
    if size > oaep_max(bits) {
        return Err(format!(
            "not offered at this size: {alg} encrypts at most {} bytes (RSAES-OAEP with SHA-256), asked for {size}",
            oaep_max(bits)
        ));
    }
    Ok(())
}

/// The 32-byte ML-KEM `m` or ML-DSA seed of a case, or `Rejected`.
pub fn array<const N: usize>(b: &[u8]) -> Result<[u8; N], Failure> {
    b.try_into().map_err(|_| Failure::Rejected)
}

// ---- curves and OIDs ----------------------------------------------------------

/// The elliptic curves of the catalogue, with what their encodings need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Curve {
    P256,
    P384,
    Secp256k1,
    Sm2,
}

impl Curve {
    /// Field (and scalar) size in bytes.
    pub fn size(self) -> usize {
        match self {
            Curve::P384 => 48,
            _ => 32,
        }
    }

    /// The named-curve OID's content octets.
    pub fn oid(self) -> &'static [u8] {
        match self {
            // 1.2.840.10045.3.1.7
            Curve::P256 => &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
            // 1.3.132.0.34
            Curve::P384 => &[0x2b, 0x81, 0x04, 0x00, 0x22],
            // 1.3.132.0.10
            Curve::Secp256k1 => &[0x2b, 0x81, 0x04, 0x00, 0x0a],
            // 1.2.156.10197.1.301
            Curve::Sm2 => &[0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d],
        }
    }
}

/// 1.2.840.10045.2.1 id-ecPublicKey
const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// 1.2.840.113549.1.1.1 rsaEncryption
const OID_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const BIT_STRING: u8 = 0x03;
const OCTET_STRING: u8 = 0x04;
const NULL: u8 = 0x05;
const OID: u8 = 0x06;

// ---- DER ------------------------------------------------------------------------

/// Reads one DER TLV (definite, minimal length; single-byte tags): the tag,
/// the contents and what follows.
pub fn der_read(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = b.split_first()?;
    if tag & 0x1f == 0x1f {
        return None; // multi-byte tags do not occur here
    }
    let (&l0, rest) = rest.split_first()?;
    let (len, rest) = if l0 < 0x80 {
        (usize::from(l0), rest)
    } else {
        let n = usize::from(l0 & 0x7f);
        if n == 0 || n > 4 || rest.len() < n || rest[0] == 0 {
            return None; // indefinite, too long, or not minimal
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, &d| (acc << 8) | usize::from(d));
        if len < 0x80 {
            return None; // should have used the short form
        }
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

/// Reads a TLV that must have `tag`.
fn expect(b: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    match der_read(b)? {
        (t, c, rest) if t == tag => Some((c, rest)),
        _ => None,
    }
}

/// Reads the whole of `b` as one TLV with `tag`.
fn whole(b: &[u8], tag: u8) -> Option<&[u8]> {
    match expect(b, tag)? {
        (c, []) => Some(c),
        _ => None,
    }
}

/// Encodes one TLV.
pub fn der_tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = content.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes = n.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

fn concat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// SubjectPublicKeyInfo: (algorithm OID, parameters TLV, key bits).
fn parse_spki(der: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let spki = whole(der, SEQUENCE)?;
    let (alg, rest) = expect(spki, SEQUENCE)?;
    let (bits, rest) = expect(rest, BIT_STRING)?;
    if !rest.is_empty() {
        return None;
    }
    let (oid, params) = expect(alg, OID)?;
    let (&unused, key) = bits.split_first()?;
    if unused != 0 {
        return None;
    }
    Some((oid, params, key))
}

/// The point of an EC SubjectPublicKeyInfo on `curve` (id-ecPublicKey with
/// the named curve; explicit parameters are refused), or `Rejected`.
pub fn ec_point_from_spki(der: &[u8], curve: Curve) -> Result<&[u8], Failure> {
    let (oid, params, point) = parse_spki(der).ok_or(Failure::Rejected)?;
    if oid != OID_EC_PUBLIC_KEY || whole(params, OID) != Some(curve.oid()) {
        return Err(Failure::Rejected);
    }
    Ok(point)
}

/// The SubjectPublicKeyInfo of an EC point (uncompressed, on `curve`).
pub fn ec_spki(curve: Curve, point: &[u8]) -> Vec<u8> {
    let alg = der_tlv(
        SEQUENCE,
        &concat(&[&der_tlv(OID, OID_EC_PUBLIC_KEY), &der_tlv(OID, curve.oid())]),
    );
    let bits = der_tlv(BIT_STRING, &concat(&[&[0], point]));
    der_tlv(SEQUENCE, &concat(&[&alg, &bits]))
}

/// The `RSAPublicKey` (PKCS #1) inside an RSA SubjectPublicKeyInfo, or
/// `Rejected`.
pub fn rsa_public_from_spki(der: &[u8]) -> Result<&[u8], Failure> {
    let (oid, params, key) = parse_spki(der).ok_or(Failure::Rejected)?;
    if oid != OID_RSA || (!params.is_empty() && whole(params, NULL) != Some(&[])) {
        return Err(Failure::Rejected);
    }
    Ok(key)
}

/// An RFC 5915 `ECPrivateKey` holding only the scalar and the curve (for
/// libraries that import private keys from DER and compute the public key).
pub fn ec_private_key_der(curve: Curve, scalar: &[u8]) -> Vec<u8> {
    der_tlv(
        SEQUENCE,
        &concat(&[
            &der_tlv(INTEGER, &[1]),
            &der_tlv(OCTET_STRING, scalar),
            &der_tlv(0xa0, &der_tlv(OID, curve.oid())),
        ]),
    )
}

/// A PKCS#8 document's privateKey contents and the fields after it.
fn pkcs8_private(pkcs8: &[u8]) -> Option<(&[u8], &[u8])> {
    let pki = whole(pkcs8, SEQUENCE)?;
    let (_version, rest) = expect(pki, INTEGER)?;
    let (_alg, rest) = expect(rest, SEQUENCE)?;
    expect(rest, OCTET_STRING)
}

/// The public key in the optional field `tag` among `fields`, if present: a
/// BIT STRING with no unused bits, which a constructed tag wraps (explicit
/// tagging, RFC 5915's `[1]`) and a primitive one is (implicit, RFC 8410's).
fn optional_public(mut fields: &[u8], tag: u8) -> Option<Option<&[u8]>> {
    let mut public = None;
    while let Some((t, content, next)) = der_read(fields) {
        if t == tag {
            let bits = if tag & 0x20 != 0 {
                whole(content, BIT_STRING)?
            } else {
                content
            };
            let (&unused, key) = bits.split_first()?;
            if unused != 0 {
                return None;
            }
            public = Some(key);
        }
        fields = next;
    }
    Some(public)
}

/// The secret scalar and, when present, the public point of an EC PKCS#8
/// document (`PrivateKeyInfo` wrapping an RFC 5915 `ECPrivateKey`), as
/// ring and AWS-LC write them.
pub fn ec_pkcs8_parts(pkcs8: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    let (key, _) = pkcs8_private(pkcs8)?;
    let ecpk = whole(key, SEQUENCE)?;
    let (_v, rest) = expect(ecpk, INTEGER)?;
    let (scalar, rest) = expect(rest, OCTET_STRING)?;
    Some((scalar, optional_public(rest, 0xa1)?))
}

/// The Ed25519 seed and public key of a PKCS#8 document (RFC 8410; v2 with
/// the public key, as ring's `generate_pkcs8` writes it: `[1]` implicit since
/// ring 0.17, explicit around a BIT STRING in ring 0.16).
pub fn ed25519_pkcs8_parts(pkcs8: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    let (key, rest) = pkcs8_private(pkcs8)?;
    let seed = whole(key, OCTET_STRING)?;
    let public = optional_public(rest, 0x81)?.or(optional_public(rest, 0xa1)?);
    Some((seed, public))
}

/// A case's private EC scalar, exactly the field size, or `Rejected`.
pub fn ec_scalar(b: &[u8], curve: Curve) -> Result<&[u8], Failure> {
    if b.len() != curve.size() {
        return Err(Failure::Rejected);
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{decode_hex, encode_hex};

    #[test]
    fn ed25519_pkcs8_public_key_in_both_rings_forms() {
        let head = "3051020101300506032b657004220420";
        let seed = "11".repeat(32);
        let pk = "22".repeat(32);
        // ring 0.17 (RFC 8410): [1] IMPLICIT BIT STRING
        let v017 = decode_hex("x", &format!("{head}{seed}812100{pk}")).unwrap();
        // ring 0.16: [1] EXPLICIT around the BIT STRING (a longer outer SEQUENCE)
        let v016 = decode_hex("x", &format!("3053{}{seed}a123032100{pk}", &head[4..])).unwrap();
        for doc in [&v017, &v016] {
            let (s, p) = ed25519_pkcs8_parts(doc).unwrap();
            assert_eq!(
                (encode_hex(s), p.map(encode_hex)),
                (seed.clone(), Some(pk.clone()))
            );
        }
        let v1 = decode_hex("x", &format!("302e{}{seed}", &head[4..])).unwrap();
        assert_eq!(ed25519_pkcs8_parts(&v1).map(|(_, p)| p), Some(None));
    }

    #[test]
    fn der_round_trips() {
        let point = [4u8; 65];
        let spki = ec_spki(Curve::P256, &point);
        assert_eq!(
            encode_hex(&spki[..26]),
            "3059301306072a8648ce3d020106082a8648ce3d030107034200"
        );
        assert_eq!(ec_point_from_spki(&spki, Curve::P256), Ok(&point[..]));
        assert_eq!(
            ec_point_from_spki(&spki, Curve::P384),
            Err(Failure::Rejected)
        );
        let long = der_tlv(OCTET_STRING, &[7; 300]);
        assert_eq!(&long[..4], &[0x04, 0x82, 0x01, 0x2c]);
        assert_eq!(
            der_read(&long).map(|(t, c, r)| (t, c.len(), r.len())),
            Some((4, 300, 0))
        );
        // non-minimal length
        assert!(der_read(&[0x04, 0x81, 0x01, 0x00]).is_none());
        let rsa_spki = decode_hex(
            "x",
            "30819f300d06092a864886f70d010101050003818d0030818902818100",
        )
        .unwrap();
        // truncated: refused, never a panic
        assert_eq!(rsa_public_from_spki(&rsa_spki), Err(Failure::Rejected));
    }
}
