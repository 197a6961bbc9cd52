// Key and signature encodings of the public-key contract (protocol.md,
// "Encodings"), written once for the three JavaScript providers. This is
// encoding glue, never timed: a library's native form is made from the
// protocol's bytes (or the other way round) outside the timed region.
//
// - EC public keys travel as DER SubjectPublicKeyInfo with a named curve.
//   noble takes and gives raw SEC1 points, so for it the SPKI is built and
//   parsed as a fixed prefix per curve and point form (uncompressed 04‖x‖y,
//   or compressed 02/03‖x): any other SPKI (explicit curve parameters,
//   another curve or algorithm, a wrong length) is refused. node:crypto and
//   WebCrypto parse SPKI themselves.
// - EC private keys travel as the bare scalar. node:crypto and WebCrypto
//   import it as PKCS#8 wrapping a SEC1 ECPrivateKey without the optional
//   public key (the library computes it), built here.
// - Ed25519/Ed448/X25519/X448 keys travel raw; node:crypto and WebCrypto
//   import the private key as PKCS#8 (RFC 8410) built here (WebCrypto has
//   no raw private-key import), node:crypto the public key as SPKI.
// - ECDSA signatures travel as DER SEQUENCE {r, s}; WebCrypto signs and
//   verifies raw r‖s (IEEE P1363), converted here, strictly: a signature
//   that is not canonical DER is refused before the library sees it, as
//   DER-taking libraries do.
//
// Runtime-neutral: no Node API (no Buffer), so the browser bridge loads it.

import { Rejected, checkLen } from "./ops.js";
import { fromHex } from "./input.js";

// ---- DER ------------------------------------------------------------------

function derLen(n) {
  if (n < 0x80) return [n];
  const out = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

// tlv: one DER element from a tag and its content parts (byte arrays).
export function tlv(tag, ...parts) {
  const body = concatAll(parts);
  const head = [tag, ...derLen(body.length)];
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

export function concatAll(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const seq = (...parts) => tlv(0x30, ...parts);
const oid = (hex) => tlv(0x06, fromHex("oid", hex));
const octets = (b) => tlv(0x04, b);
const bits = (b) => tlv(0x03, Uint8Array.of(0), b);
const smallInt = (v) => tlv(0x02, Uint8Array.of(v));

const OID_EC_PUBLIC_KEY = "2a8648ce3d0201"; // 1.2.840.10045.2.1

// EC curves of the catalogue: field (scalar) size in bytes, curve OID, the
// hash of ECDSA over it, and the names each library uses.
export const EC_CURVES = {
  p256: { bytes: 32, oid: "2a8648ce3d030107", hash: "SHA-256", nodeHash: "sha256", web: "P-256", jwk: "P-256" },
  p384: { bytes: 48, oid: "2b81040022", hash: "SHA-384", nodeHash: "sha384", web: "P-384", jwk: "P-384" },
  secp256k1: {
    bytes: 32,
    oid: "2b8104000a",
    hash: "SHA-256",
    nodeHash: "sha256",
    web: null,
    jwk: "secp256k1",
  },
};

// ecSpki: the SubjectPublicKeyInfo of a SEC1 point on a named curve.
export function ecSpki(curve, point) {
  return seq(seq(oid(OID_EC_PUBLIC_KEY), oid(curve.oid)), bits(point));
}

// The fixed SPKI prefixes of a curve, for the uncompressed (1 + 2n bytes)
// and compressed (1 + n bytes) point: everything before the point.
const prefixCache = new Map();
function spkiPrefixes(curve) {
  let p = prefixCache.get(curve);
  if (!p) {
    const un = 1 + 2 * curve.bytes;
    const co = 1 + curve.bytes;
    p = [
      { prefix: ecSpki(curve, new Uint8Array(un)).subarray(0, -un), point: un, tags: [0x04] },
      { prefix: ecSpki(curve, new Uint8Array(co)).subarray(0, -co), point: co, tags: [0x02, 0x03] },
    ];
    prefixCache.set(curve, p);
  }
  return p;
}

// ecPointFromSpki returns the SEC1 point inside an SPKI of the curve, or
// throws Rejected for anything else.
export function ecPointFromSpki(curve, der) {
  for (const { prefix, point, tags } of spkiPrefixes(curve)) {
    if (der.length !== prefix.length + point) continue;
    if (!startsWith(der, prefix)) continue;
    if (!tags.includes(der[prefix.length])) continue;
    return der.subarray(prefix.length);
  }
  throw new Rejected("not an SPKI of a point on this named curve (uncompressed or compressed)");
}

function startsWith(b, prefix) {
  for (let i = 0; i < prefix.length; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

// requireNamedCurve refuses an EC SPKI whose AlgorithmIdentifier carries
// explicit curve parameters instead of a named-curve OID (RFC 5480: PKIX
// uses named curves only). OpenSSL matches explicit parameters to a named
// curve and ignores a missing or wrong cofactor, which Wycheproof counts
// as accepting an invalid key; node:crypto and WebCrypto get this check
// before their own parser.
export function requireNamedCurve(der) {
  const head = fromHex("oid", "06072a8648ce3d0201");
  if (der[0] !== 0x30) throw new Rejected("SPKI: expected SEQUENCE");
  const [, i] = readLen(der, 1);
  if (der[i] !== 0x30) throw new Rejected("SPKI: expected AlgorithmIdentifier");
  const [, j] = readLen(der, i + 1);
  for (let k = 0; k < head.length; k++) {
    if (der[j + k] !== head[k]) throw new Rejected("SPKI: not an id-ecPublicKey key");
  }
  if (der[j + head.length] !== 0x06) throw new Rejected("SPKI: explicit curve parameters, not a named curve");
  return der;
}

// ecPkcs8: PKCS#8 of a bare scalar, the SEC1 ECPrivateKey without the
// optional public key and parameters fields (RFC 5915 allows both out).
export function ecPkcs8(curve, scalar) {
  checkLen("EC private key", scalar, curve.bytes);
  return seq(smallInt(0), seq(oid(OID_EC_PUBLIC_KEY), oid(curve.oid)), octets(seq(smallInt(1), octets(scalar))));
}

// RFC 8410 curves: raw key lengths and OIDs.
export const OKP = {
  ed25519: { oid: "2b6570", pub: 32, priv: 32, web: "Ed25519", jwk: "Ed25519", node: "ed25519" },
  ed448: { oid: "2b6571", pub: 57, priv: 57, web: "Ed448", jwk: "Ed448", node: "ed448" },
  x25519: { oid: "2b656e", pub: 32, priv: 32, web: "X25519", jwk: "X25519", node: "x25519" },
  x448: { oid: "2b656f", pub: 56, priv: 56, web: "X448", jwk: "X448", node: "x448" },
};

export function okpPkcs8(kind, raw) {
  checkLen(`${kind.web} private key`, raw, kind.priv);
  return seq(smallInt(0), seq(oid(kind.oid)), octets(octets(raw)));
}

export function okpSpki(kind, raw) {
  checkLen(`${kind.web} public key`, raw, kind.pub);
  return seq(seq(oid(kind.oid)), bits(raw));
}

// ---- ECDSA signatures: DER <-> raw r‖s ------------------------------------

// readLen reads a DER length at b[i] (definite, minimal); returns [len, next].
function readLen(b, i) {
  if (i >= b.length) throw new Rejected("DER: truncated length");
  const first = b[i];
  if (first < 0x80) return [first, i + 1];
  const n = first & 0x7f;
  if (n === 0 || n > 3) throw new Rejected("DER: indefinite or oversized length");
  if (i + 1 + n > b.length) throw new Rejected("DER: truncated length");
  if (b[i + 1] === 0) throw new Rejected("DER: non-minimal length");
  let len = 0;
  for (let k = 0; k < n; k++) len = len * 256 + b[i + 1 + k];
  if (len < 0x80) throw new Rejected("DER: non-minimal length");
  return [len, i + 1 + n];
}

// readUint reads a DER INTEGER that must be positive and minimally encoded;
// returns [magnitude bytes without the sign byte, next].
function readUint(b, i) {
  if (b[i] !== 0x02) throw new Rejected("DER: expected INTEGER");
  const [len, start] = readLen(b, i + 1);
  const end = start + len;
  if (len === 0 || end > b.length) throw new Rejected("DER: bad INTEGER length");
  if (b[start] & 0x80) throw new Rejected("DER: negative INTEGER");
  if (len > 1 && b[start] === 0 && (b[start + 1] & 0x80) === 0) throw new Rejected("DER: non-minimal INTEGER");
  let s = start;
  if (b[s] === 0 && len > 1) s++;
  return [b.subarray(s, end), end];
}

// ecdsaDerToRaw: a strict DER SEQUENCE {r, s} -> r‖s, each n bytes.
export function ecdsaDerToRaw(der, n) {
  if (der[0] !== 0x30) throw new Rejected("DER: expected SEQUENCE");
  const [len, start] = readLen(der, 1);
  if (start + len !== der.length) throw new Rejected("DER: SEQUENCE length does not match the signature");
  const [r, i] = readUint(der, start);
  const [s, j] = readUint(der, i);
  if (j !== der.length) throw new Rejected("DER: trailing bytes in SEQUENCE");
  if (r.length > n || s.length > n) throw new Rejected("r or s longer than the group order");
  const out = new Uint8Array(2 * n);
  out.set(r, n - r.length);
  out.set(s, 2 * n - s.length);
  return out;
}

function uintDer(b) {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const v = b.subarray(i);
  return v[0] & 0x80 ? tlv(0x02, Uint8Array.of(0), v) : tlv(0x02, v);
}

// ecdsaRawToDer: r‖s (two halves of equal length) -> DER SEQUENCE {r, s}.
export function ecdsaRawToDer(raw) {
  const n = raw.length / 2;
  return seq(uintDer(raw.subarray(0, n)), uintDer(raw.subarray(n)));
}

// ---- small helpers --------------------------------------------------------

// leftPad: big-endian bytes padded with zeros to n bytes.
export function leftPad(b, n) {
  if (b.length >= n) return b;
  const out = new Uint8Array(n);
  out.set(b, n - b.length);
  return out;
}

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// b64url decodes base64url without padding (JWK members).
export function b64url(s) {
  const out = [];
  let acc = 0;
  let n = 0;
  for (const ch of s) {
    if (ch === "=") break;
    const v = B64URL.indexOf(ch === "+" ? "-" : ch === "/" ? "_" : ch);
    if (v < 0) throw new Error(`bad base64url character ${JSON.stringify(ch)}`);
    acc = (acc << 6) | v;
    n += 6;
    if (n >= 8) {
      n -= 8;
      out.push((acc >> n) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

// bytes: a Uint8Array view of a library result (ArrayBuffer, Buffer, ...).
export function bytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  throw new Error("not a byte array");
}

// OAEP with SHA-256 takes at most k - 2*32 - 2 bytes of plaintext.
export function oaepMax(bitsLen) {
  return bitsLen / 8 - 2 * 32 - 2;
}
