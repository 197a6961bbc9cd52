// js:node — Node's node:crypto (OpenSSL inside the node binary).
//
// Node-only (node:crypto, Buffer): loaded by main_node.js, never by the
// browser bridge.

import * as nc from "node:crypto";
import { Buffer } from "node:buffer";
import { CallCell, Collector, HashCell, StreamCell, streamOut } from "./cells.js";
import { PATTERN_LEN, Pieces, RegenPieces, pattern } from "./input.js";
import { aesAlgs, checkedAlg, cipherCheck, concat, EMPTY, first, keyIvCheck, noopAlg, Rejected } from "./ops.js";
import { EC_CURVES, OKP, b64url, ecPkcs8, leftPad, oaepMax, okpPkcs8, okpSpki, requireNamedCurve } from "./pk.js";
import { pkAlg } from "./pkalg.js";

// One-shot crypto.hash() (added in Node 21.7.0 / 20.12.0) when this Node
// has it; createHash().update().digest() otherwise.
const hasOneShot = typeof nc.hash === "function";

// ---- hashes ---------------------------------------------------------------

// HashCell (cells.js): createHash per message (a Node Hash cannot be reset), update
// with the whole message (chunk 0, Node without crypto.hash) or piece by
// piece, digest into a new Buffer. HMAC is the same with createHmac and
// the KeyObject made once per cell.
function piecesOf(p) {
  return p.chunk > 0 ? new Pieces(pattern(p.seed), PATTERN_LEN, p.size, p.chunk) : null;
}

function hashAlg(name, nodeName) {
  return {
    name,
    ops: ["hash"],
    stream: true,
    exec: (c) => nc.createHash(nodeName).update(c.msg).digest(),
    cell: (p) => {
      if (p.chunk === 0 && hasOneShot) return new CallCell((m) => nc.hash(nodeName, m, "buffer"), p.msg);
      return new HashCell(() => nc.createHash(nodeName), p.msg, piecesOf(p));
    },
  };
}

function hmacAlg(name, nodeHash) {
  return {
    name,
    ops: ["mac"],
    stream: true,
    exec: (c) => nc.createHmac(nodeHash, c.key).update(c.msg).digest(),
    cell: (p) => {
      const key = nc.createSecretKey(p.key);
      return new HashCell(() => nc.createHmac(nodeHash, key), p.msg, piecesOf(p));
    },
  };
}

// ---- ciphers without authentication ---------------------------------------

// Node's chacha20 takes a 16-byte IV: the 32-bit block counter (little
// endian) followed by the 12-byte nonce.
function chachaIV(nonce, counter) {
  const iv = Buffer.alloc(16);
  iv.writeUInt32LE(counter >>> 0, 0);
  iv.set(nonce, 4);
  return iv;
}

// CipherCell: createCipheriv/createDecipheriv per message (the IV is set
// per message; the key is a KeyObject made once per cell), setAutoPadding
// (false) for ECB/CBC, update, final. Node allocates the output of every
// update (there is no update-into-buffer API).
class CipherCell {
  constructor(s, input) {
    this.async = false;
    this.s = s;
    this.in = input;
    this.out = EMPTY;
  }
  run() {
    const s = this.s;
    const c = s.encrypt ? nc.createCipheriv(s.node, s.key, s.iv) : nc.createDecipheriv(s.node, s.key, s.iv);
    if (s.block) c.setAutoPadding(false);
    const a = c.update(this.in);
    const b = c.final();
    this.out = b.length === 0 ? a : Buffer.concat([a, b]);
    return first(this.out);
  }
  output() {
    return this.out;
  }
}

// Streamed (a StreamCell, cells.js): the same API fed piece by piece
// (cipherStream); each update's output is a fresh piece-sized Buffer that is
// dropped (its first byte goes to the sink), so memory stays bounded.
function cipherStream(s) {
  return {
    make: () => {
      const c = s.encrypt ? nc.createCipheriv(s.node, s.key, s.iv) : nc.createDecipheriv(s.node, s.key, s.iv);
      if (s.block) c.setAutoPadding(false);
      return c;
    },
    proc: (c, d) => c.update(d),
    fin: (c) => c.final(),
  };
}

// Above this a streamed decrypt/open makes its ciphertext again piece by
// piece instead of holding it (docs/protocol.md, "With chunk > 0"); an
// object only so that the native tests can lower it.
export const REGENERATE = { above: 64 * 1024 * 1024 };

// hrNs: ns since this module loaded from process.hrtime.bigint(), as a
// number (exact below 2^53 ns, 104 days), the clock RegenPieces (input.js)
// reads around the ciphertext it makes again.
const HR0 = process.hrtime.bigint();
const hrNs = () => Number(process.hrtime.bigint() - HR0);

// The pieces a streamed decrypt/open reads: its ciphertext made again per
// piece when the message is big, else made once here and kept whole.
function ciphertextPieces(p, pieces, fresh, keep) {
  if (p.size > REGENERATE.above) return new RegenPieces(pieces, fresh, hrNs);
  return new Pieces(keep(), 0, p.size, p.chunk);
}

// mode: "ecb" | "cbc" | "ctr" | "chacha20"
function cipherAlg(name, nodeName, keyLen, mode) {
  const ivLen = mode === "ecb" ? 0 : mode === "chacha20" ? 12 : 16;
  const block = mode === "ecb" || mode === "cbc";
  const nodeIV = (iv, counter) => (mode === "ecb" ? null : mode === "chacha20" ? chachaIV(iv, counter) : iv);
  return checkedAlg(cipherCheck(name, keyLen, ivLen, block), {
    name,
    ops: ["encrypt", "decrypt"],
    stream: true,
    exec: (c) => {
      const iv = nodeIV(c.iv, c.counter);
      const x = c.op === "encrypt" ? nc.createCipheriv(nodeName, c.key, iv) : nc.createDecipheriv(nodeName, c.key, iv);
      if (block) x.setAutoPadding(false);
      return Buffer.concat([x.update(c.msg), x.final()]);
    },
    cell: (p) => {
      const s = {
        node: nodeName,
        key: nc.createSecretKey(p.key),
        iv: nodeIV(p.iv, 0),
        block,
        encrypt: p.op === "encrypt",
      };
      const enc = { ...s, encrypt: true };
      if (p.chunk === 0) {
        if (s.encrypt) return new CipherCell(s, p.msg);
        const pre = new CipherCell(enc, p.msg); // the ciphertext, made once
        pre.run();
        return new CipherCell(s, pre.out);
      }
      let pieces = piecesOf(p);
      if (!s.encrypt) {
        const encStream = cipherStream(enc);
        // the ciphertext, made by the streaming encrypt of the message
        const keep = () => streamOut(encStream, pieces, new Collector(p.size)).buf;
        pieces = ciphertextPieces(p, pieces, encStream.make, keep);
      }
      return new StreamCell(cipherStream(s), pieces);
    },
  });
}

// ---- AEADs ----------------------------------------------------------------

// AeadCell: createCipheriv/createDecipheriv per message with
// authTagLength 16, empty AAD (no setAAD call: none is needed without AAD,
// for CCM either), update, final, getAuthTag (seal) or setAuthTag before
// update (open; final throws when the tag does not verify).
class AeadCell {
  constructor(s, input, tag) {
    this.async = false;
    this.s = s;
    this.in = input;
    this.tag = tag; // open: the tag to verify
    this.out = EMPTY;
    this.outTag = EMPTY;
  }
  run() {
    const s = this.s;
    if (s.seal) {
      const c = nc.createCipheriv(s.node, s.key, s.iv, s.opts);
      const ct = c.update(this.in);
      c.final();
      const tag = c.getAuthTag();
      this.out = ct;
      this.outTag = tag;
      return ct.length !== 0 ? ct[0] : tag[0];
    }
    const d = nc.createDecipheriv(s.node, s.key, s.iv, s.opts);
    d.setAuthTag(this.tag);
    const pt = d.update(this.in);
    d.final();
    this.out = pt;
    return first(pt);
  }
  output() {
    return this.s.seal ? concat(this.out, this.outTag) : this.out;
  }
}

// Streamed AEADs (a StreamCell, cells.js): GCM and ChaCha20-Poly1305 fed
// piece by piece (Node's AEAD ciphers are streams; CCM is not: it needs the
// whole message in one update). fin is final() (empty for these ciphers)
// and, for seal, the tag: the output stream is ciphertext ‖ tag, and a
// seal's sink value is the tag's first byte.
function aeadStream(s, tag) {
  return {
    make: () => {
      if (s.seal) return nc.createCipheriv(s.node, s.key, s.iv, s.opts);
      const c = nc.createDecipheriv(s.node, s.key, s.iv, s.opts);
      c.setAuthTag(tag);
      return c;
    },
    proc: (c, d) => c.update(d),
    fin: (c) => {
      const f = c.final();
      if (!s.seal) return f;
      return f.length === 0 ? c.getAuthTag() : concat(f, c.getAuthTag());
    },
  };
}

// Tail is a sink that keeps only the last piece (a big open's seal, run for
// its tag: the end of its last piece).
class Tail {
  constructor() {
    this.last = EMPTY;
  }
  update(b) {
    this.last = b;
    return this;
  }
}

function aeadAlg(name, nodeName, keyLen, stream) {
  const ccm = nodeName.endsWith("-ccm");
  return checkedAlg(keyIvCheck(keyLen, 12), {
    name,
    ops: ["seal", "open"],
    stream,
    exec: (c) => {
      const opts = { authTagLength: 16 };
      if (c.op === "seal") {
        const x = nc.createCipheriv(nodeName, c.key, c.iv, opts);
        if (c.aad.length > 0) x.setAAD(c.aad, ccm ? { plaintextLength: c.msg.length } : undefined);
        const ct = Buffer.concat([x.update(c.msg), x.final()]);
        return concat(ct, x.getAuthTag());
      }
      if (c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
      const ct = c.msg.subarray(0, c.msg.length - 16);
      const tag = c.msg.subarray(c.msg.length - 16);
      const x = nc.createDecipheriv(nodeName, c.key, c.iv, opts);
      x.setAuthTag(tag);
      if (c.aad.length > 0) x.setAAD(c.aad, ccm ? { plaintextLength: ct.length } : undefined);
      const pt = x.update(ct);
      try {
        x.final();
      } catch {
        throw new Rejected();
      }
      return pt;
    },
    cell: (p) => {
      const s = {
        node: nodeName,
        key: nc.createSecretKey(p.key),
        iv: p.iv,
        opts: { authTagLength: 16 },
        seal: p.op === "seal",
      };
      const sealer = { ...s, seal: true };
      if (p.chunk === 0) {
        if (s.seal) return new AeadCell(s, p.msg, null);
        const sc = new AeadCell(sealer, p.msg, null);
        sc.run();
        return new AeadCell(s, sc.out, sc.outTag);
      }
      const pieces = piecesOf(p);
      if (s.seal) return new StreamCell(aeadStream(s, null), pieces);
      // ciphertext and tag made by the streaming seal of the message (the tag is the same every
      // time: a big cell keeps it and makes the ciphertext again per piece)
      const big = p.size > REGENERATE.above;
      const sealing = aeadStream(sealer, null);
      const made = streamOut(sealing, pieces, big ? new Tail() : new Collector(p.size + 16));
      const tag = big ? made.last.subarray(made.last.length - 16) : made.buf.subarray(p.size);
      const ct = ciphertextPieces(p, pieces, sealing.make, () => made.buf.subarray(0, p.size));
      return new StreamCell(aeadStream(s, tag), ct);
    },
  });
}

// ---- public key -----------------------------------------------------------

// Every key is a KeyObject made outside the timed region: createPublicKey /
// createPrivateKey from DER (SPKI, PKCS#8; raw EC scalars and raw
// Ed/X keys are wrapped in PKCS#8 or SPKI first, pk.js), or
// generateKeyPairSync. The timed operations are the one-shot calls
// crypto.sign / crypto.verify / crypto.diffieHellman / publicEncrypt /
// privateDecrypt / generateKeyPairSync with those KeyObjects; option
// objects are made once per cell.

const der = (type) => ({ format: "der", type });
const SPKI = Object.freeze(der("spki"));
const PKCS8 = Object.freeze(der("pkcs8"));

function publicDer(b) {
  return nc.createPublicKey({ key: Buffer.from(b.buffer, b.byteOffset, b.length), format: "der", type: "spki" });
}

function privateDer(b) {
  return nc.createPrivateKey({ key: Buffer.from(b.buffer, b.byteOffset, b.length), format: "der", type: "pkcs8" });
}

// expect refuses a key of another type or curve than the algorithm's.
function expect(k, type, curve) {
  if (k.asymmetricKeyType !== type) throw new Rejected(`not a ${type} key (${k.asymmetricKeyType})`);
  if (curve && k.asymmetricKeyDetails.namedCurve !== curve) {
    throw new Rejected(`not a key on ${curve} (${k.asymmetricKeyDetails.namedCurve})`);
  }
  return k;
}

const pairOf = (k) => ({ pub: k.publicKey, priv: k.privateKey });
const exportSpki = (k) => new Uint8Array(k.pub.export(SPKI));

// ECDSA and ECDH on a named curve. The private scalar travels bare: it
// comes out of a KeyObject through its JWK "d" and goes in as PKCS#8.
function ecEngine(info, nodeCurve) {
  const hash = info.nodeHash;
  return {
    async: false,
    generate: () => pairOf(nc.generateKeyPairSync("ec", { namedCurve: nodeCurve })),
    exportPair: (k) => ({
      public: exportSpki(k),
      private: leftPad(b64url(k.priv.export({ format: "jwk" }).d), info.bytes),
    }),
    publicOf: exportSpki,
    importPublic: (b) => expect(publicDer(requireNamedCurve(b)), "ec", nodeCurve),
    importPrivate: (b) => expect(privateDer(ecPkcs8(info, b)), "ec", nodeCurve),
    // crypto.sign(hash, msg, key): hash and ECDSA inside one call, DER out
    // (dsaEncoding 'der', the default); random k (OpenSSL).
    signer: (priv) => (m) => nc.sign(hash, m, priv),
    verifier: (pub) => (m, s) => nc.verify(hash, m, pub, s),
    deriver: (priv, pub) => {
      const o = { privateKey: priv, publicKey: pub };
      return () => nc.diffieHellman(o);
    },
  };
}

// Ed25519/Ed448 (pure EdDSA: algorithm null) and X25519/X448, raw keys
// through JWK "x"/"d" out and SPKI/PKCS#8 in.
function okpEngine(kind) {
  const jwk = (key) => key.export({ format: "jwk" });
  return {
    async: false,
    deterministic: true, // EdDSA
    generate: () => pairOf(nc.generateKeyPairSync(kind.node)),
    exportPair: (k) => ({ public: b64url(jwk(k.pub).x), private: b64url(jwk(k.priv).d) }),
    publicOf: (k) => b64url(jwk(k.pub).x),
    importPublic: (b) => publicDer(okpSpki(kind, b)),
    importPrivate: (b) => privateDer(okpPkcs8(kind, b)),
    signer: (priv) => (m) => nc.sign(null, m, priv),
    verifier: (pub) => (m, s) => nc.verify(null, m, pub, s),
    deriver: (priv, pub) => {
      const o = { privateKey: priv, publicKey: pub };
      return () => nc.diffieHellman(o);
    },
  };
}

// RSA: keygen e = 65537; PSS with SHA-256, MGF1-SHA-256 (Node's default
// for PSS: the signature hash), salt 32; PKCS#1 v1.5 with SHA-256; OAEP
// with SHA-256 (oaepHash; MGF1 follows it), empty label.
function rsaEngine(bitsLen, scheme) {
  const C = nc.constants;
  const opts = { modulusLength: bitsLen, publicExponent: 0x10001 };
  const pad = (key) => {
    if (scheme === "pss") return { key, padding: C.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
    if (scheme === "oaep") return { key, padding: C.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" };
    return key;
  };
  return {
    async: false,
    deterministic: scheme === "pkcs1",
    generate: () => pairOf(nc.generateKeyPairSync("rsa", opts)),
    exportPair: (k) => ({ public: exportSpki(k), private: new Uint8Array(k.priv.export(PKCS8)) }),
    publicOf: exportSpki,
    importPublic: (b) => expect(publicDer(b), "rsa"),
    importPrivate: (b) => expect(privateDer(b), "rsa"),
    signer: (priv) => {
      const key = pad(priv);
      return (m) => nc.sign("sha256", m, key);
    },
    verifier: (pub) => {
      const key = pad(pub);
      return (m, s) => nc.verify("sha256", m, key, s);
    },
    maxPlain: oaepMax(bitsLen),
    encryptor: (pub) => {
      const key = pad(pub);
      return (m) => nc.publicEncrypt(key, m);
    },
    decryptor: (priv) => {
      const key = pad(priv);
      return (c) => nc.privateDecrypt(key, c);
    },
  };
}

const SIG = ["keygen", "sign", "verify"];
const RSA_BITS = [2048, 3072, 4096];

function publicKeyAlgs() {
  const ec = [
    ["p256", "prime256v1"],
    ["p384", "secp384r1"],
    ["secp256k1", "secp256k1"],
  ].filter(([, c]) => nodeCurves.has(c));
  return [
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}`, ["keygen"], rsaEngine(n, "pkcs1"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pss`, ["sign", "verify"], rsaEngine(n, "pss"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pkcs1`, ["sign", "verify"], rsaEngine(n, "pkcs1"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-oaep`, ["encrypt", "decrypt"], rsaEngine(n, "oaep"))),
    ...ec.map(([c, nodeName]) => pkAlg(`ecdsa-${c}`, SIG, ecEngine(EC_CURVES[c], nodeName))),
    ...ec.map(([c, nodeName]) => pkAlg(`ecdh-${c}`, ["derive"], ecEngine(EC_CURVES[c], nodeName))),
    pkAlg("ed25519", SIG, okpEngine(OKP.ed25519)),
    pkAlg("ed448", SIG, okpEngine(OKP.ed448)),
    pkAlg("x25519", ["keygen", "derive"], okpEngine(OKP.x25519)),
    pkAlg("x448", ["keygen", "derive"], okpEngine(OKP.x448)),
  ];
}

// ---- the catalogue --------------------------------------------------------

const nodeHashes = new Set(nc.getHashes());
const nodeCurves = new Set(nc.getCurves());

// env: { notes } from the entry point (main_node.js).
export function createProvider(env = {}) {
  const hashes = [
    ["sha256", "sha256"],
    ["sha512", "sha512"],
    ["sha3-256", "sha3-256"],
    ["sha3-512", "sha3-512"],
    ["blake2b-512", "blake2b512"],
    ["blake2s-256", "blake2s256"],
    ["sm3", "sm3"],
  ].filter(([, n]) => nodeHashes.has(n));
  return {
    id: "js:node",
    language: "javascript",
    library: "node:crypto (OpenSSL)",
    libraryVersion: `OpenSSL ${process.versions.openssl} (node:crypto in Node ${process.version})`,
    runtime: `node ${process.version} (V8 ${process.versions.v8}) ${process.platform}/${process.arch}`,
    notes: [
      hasOneShot
        ? "Hashes: chunk=0 uses the one-shot crypto.hash(alg, msg, 'buffer'); chunk>0 uses createHash(alg) per message, update per piece, digest()."
        : "Hashes: createHash(alg) per message, update (whole message or per piece), digest() (this Node has no crypto.hash).",
      "HMAC: createHmac('sha256', key) per message (a Node Hmac cannot be reset or reused: that is the API), the key a KeyObject made once per cell; update, digest().",
      "Ciphers: createCipheriv/createDecipheriv per message (the IV is set per message), key a KeyObject made once per cell, setAutoPadding(false) for ECB/CBC, update + final; every update returns a newly allocated Buffer (Node has no update-into-buffer API). ChaCha20's 16-byte IV is the 32-bit little-endian block counter (0) followed by the 12-byte nonce.",
      "AEADs: createCipheriv/createDecipheriv with authTagLength 16 per message; seal = update, final, getAuthTag (ciphertext and tag are separate Buffers; their concatenation is made only for the checksum); open = setAuthTag, update, final (throws on a bad tag). No setAAD call with empty AAD (CCM does not need one then).",
      "Streaming (chunk>0): hashes, HMAC, ECB/CBC/CTR/ChaCha20 and GCM/ChaCha20-Poly1305 through update() per piece, pieces read from the 2 MiB doubled pattern (views made once per cell up to 65,536 of them, else one subarray per piece); AES-CCM is one-shot only in Node (the whole message in one update), so it is not in stream.",
      "Public key: every key is a KeyObject made outside the timed region (createPublicKey/createPrivateKey from SPKI/PKCS#8 DER, or generateKeyPairSync); raw EC scalars and raw Ed/X keys are wrapped in PKCS#8/SPKI first (the EC PKCS#8 carries no public key: OpenSSL computes it). Option objects ({ key, padding, saltLength } and the like) are made once per cell.",
      "RSA: keygen = generateKeyPairSync('rsa', { modulusLength, publicExponent: 65537 }) returning KeyObjects (the key is not exported inside the timed region). PSS = crypto.sign('sha256', msg, { key, padding: RSA_PKCS1_PSS_PADDING, saltLength: 32 }) (MGF1 with the signature hash); PKCS#1 v1.5 = crypto.sign('sha256', msg, key); OAEP = publicEncrypt/privateDecrypt({ key, padding: RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }), empty label, at most k - 66 bytes of plaintext (a larger cell answers `not offered at this size`).",
      "ECDSA: crypto.sign('sha256'|'sha384', msg, key) hashes and signs in one call and returns DER (random k, OpenSSL); crypto.verify(hash, msg, key, der). keygen = generateKeyPairSync('ec', { namedCurve }). ECDH derive = crypto.diffieHellman({ privateKey, publicKey }) with KeyObjects (OpenSSL's ECDH: the x coordinate).",
      "Ed25519/Ed448: crypto.sign(null, msg, key) / crypto.verify(null, msg, key, sig) (pure EdDSA). X25519/X448: crypto.diffieHellman with KeyObjects; keygen = generateKeyPairSync('x25519'|'x448').",
      "Key pairs for sign/verify/derive/encrypt/decrypt cells are generated once per algorithm and process and reused by every request of the cell (outside the timed region, so an RSA-4096 cell pays its key generation once); the signature a verify cell checks and the ciphertext a decrypt cell opens are made once per request.",
      "Not offered: XChaCha20-Poly1305 (not in node:crypto / OpenSSL); ML-KEM and ML-DSA (node:crypto has them only from Node 24.7, this is " +
        process.version +
        "); SM2 (node:crypto cannot sign with SM2: no way to set the SM2 identity).",
      "The timing loop is synchronous (no await): noop is a plain synchronous empty call, the floor of this loop. Compare with js:webcrypto's noop (an awaited empty async call): the difference between the two floors is the per-call cost of the promise machinery.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg(),
      ...hashes.map(([n, nn]) => hashAlg(n, nn)),
      hmacAlg("hmac-sha256", "sha256"),
      ...aesAlgs((name, key, mode) => cipherAlg(name, name, key, mode), ["ecb", "cbc", "ctr"]),
      cipherAlg("chacha20", "chacha20", 32, "chacha20"),
      aeadAlg("aes-128-gcm", "aes-128-gcm", 16, true),
      aeadAlg("aes-256-gcm", "aes-256-gcm", 32, true),
      aeadAlg("aes-128-ccm", "aes-128-ccm", 16, false),
      aeadAlg("aes-256-ccm", "aes-256-ccm", 32, false),
      aeadAlg("chacha20-poly1305", "chacha20-poly1305", 32, true),
      ...publicKeyAlgs(),
    ],
  };
}
