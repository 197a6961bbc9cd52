// js:webcrypto — the Web Crypto API (globalThis.crypto.subtle), the same
// module in Node and, through the browser bridge, in a browser.
//
// Runtime-neutral: everything runtime-specific (id, version, runtime text)
// comes from the entry point in env.

import { checkedAlg, checkLen, describe, keyIvCheck, noopAlg, Rejected } from "./ops.js";
import {
  EC_CURVES,
  OKP,
  b64url,
  bytes,
  ecPkcs8,
  ecdsaDerToRaw,
  ecdsaRawToDer,
  leftPad,
  oaepMax,
  okpPkcs8,
  requireNamedCurve,
} from "./pk.js";
import { pkAlg } from "./pkalg.js";

const subtle = () => {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new Error("crypto.subtle is not available here");
  return s;
};

// firstOf: the sink contribution of an ArrayBuffer result (a one-byte view:
// the only way to read it).
function firstOf(ab) {
  return ab.byteLength === 0 ? 0 : new Uint8Array(ab, 0, 1)[0];
}

// WebCrypto is asynchronous only: every cell's run() returns a promise and
// the timing loop awaits it. The key is imported once per cell, the
// algorithm parameter object is made once per cell, crypto.subtle is looked
// up once per cell. SubtleCell is what the cells share (set-up and output);
// each cell's run() is its own one call.
class SubtleCell {
  constructor() {
    this.async = true;
    this.subtle = subtle();
    this.out = new ArrayBuffer(0); // the last result, for output()
  }
  output() {
    return new Uint8Array(this.out);
  }
}

class DigestCell extends SubtleCell {
  constructor(name, msg) {
    super();
    this.name = name;
    this.msg = msg;
  }
  async run() {
    const d = await this.subtle.digest(this.name, this.msg);
    this.out = d;
    return firstOf(d);
  }
}

class SignCell extends SubtleCell {
  constructor(key, msg) {
    super();
    this.key = key;
    this.msg = msg;
  }
  async run() {
    const t = await this.subtle.sign("HMAC", this.key, this.msg);
    this.out = t;
    return firstOf(t);
  }
}

// CryptCell: subtle.encrypt or subtle.decrypt with a prepared key and
// parameter object (AES-CTR: counter block and length 128; AES-GCM: iv and
// tagLength 128, the tag appended by the API itself).
class CryptCell extends SubtleCell {
  constructor(encrypt, params, key, input) {
    super();
    this.encrypt = encrypt;
    this.params = params;
    this.key = key;
    this.in = input;
  }
  async run() {
    const r = this.encrypt
      ? await this.subtle.encrypt(this.params, this.key, this.in)
      : await this.subtle.decrypt(this.params, this.key, this.in);
    this.out = r;
    return firstOf(r);
  }
}

function digestAlg(name, webName) {
  return {
    name,
    ops: ["hash"],
    stream: false,
    exec: async (c) => new Uint8Array(await subtle().digest(webName, c.msg)),
    cell: (p) => new DigestCell(webName, p.msg),
  };
}

const hmacImport = (key) => subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);

function hmacAlg() {
  return {
    name: "hmac-sha256",
    ops: ["mac"],
    stream: false,
    exec: async (c) => new Uint8Array(await subtle().sign("HMAC", await hmacImport(c.key), c.msg)),
    cell: async (p) => new SignCell(await hmacImport(p.key), p.msg),
  };
}

const aesImport = (name, key) => subtle().importKey("raw", key, { name }, false, ["encrypt", "decrypt"]);

// The cell of an AES mode: the key imported and the parameter object made
// once; encrypt/seal (forward) times the message, decrypt/open its
// encryption, made here off the clock.
async function aesCell(mode, key, params, forward, msg) {
  const k = await aesImport(mode, key);
  const input = forward ? msg : new Uint8Array(await subtle().encrypt(params, k, msg));
  return new CryptCell(forward, params, k, input);
}

// aesAlg: an AES mode (mode: its WebCrypto name) whose ops are [forward,
// backward]: key and IV lengths checked, the key imported; once(c, key) is
// a verify case's call, params(iv) a cell's parameter object.
function aesAlg(name, mode, keyLen, ivLen, ops, params, once) {
  return checkedAlg(keyIvCheck(keyLen, ivLen), {
    name,
    ops,
    stream: false,
    exec: async (c) => once(c, await aesImport(mode, c.key)),
    cell: (p) => aesCell(mode, p.key, params(p.iv), p.op === ops[0], p.msg),
  });
}

function ctrAlg(name, keyLen) {
  const params = (iv) => ({ name: "AES-CTR", counter: iv, length: 128 });
  return aesAlg(name, "AES-CTR", keyLen, 16, ["encrypt", "decrypt"], params, async (c, k) => {
    const f = c.op === "encrypt" ? subtle().encrypt : subtle().decrypt;
    return new Uint8Array(await f.call(subtle(), params(c.iv), k, c.msg));
  });
}

function gcmAlg(name, keyLen) {
  const params = (iv, aad) => {
    const pr = { name: "AES-GCM", iv, tagLength: 128 };
    if (aad && aad.length > 0) pr.additionalData = aad;
    return pr;
  };
  return aesAlg(name, "AES-GCM", keyLen, 12, ["seal", "open"], params, async (c, k) => {
    if (c.op === "seal") return new Uint8Array(await subtle().encrypt(params(c.iv, c.aad), k, c.msg));
    if (c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
    try {
      return new Uint8Array(await subtle().decrypt(params(c.iv, c.aad), k, c.msg));
    } catch (e) {
      if (e && e.name === "OperationError") throw new Rejected();
      throw e;
    }
  });
}

// ---- public key -----------------------------------------------------------

// Keys are CryptoKeys imported or generated outside the timed region; the
// algorithm parameter objects are made once per cell; the timed operation
// is one awaited subtle.sign / verify / deriveBits / encrypt / decrypt /
// generateKey. Key generation returns CryptoKeys: the export of the public
// key (keygen's output) happens outside the timed region.

const exportRaw = async (k) => new Uint8Array(await subtle().exportKey("raw", k));
const exportSpki = async (k) => new Uint8Array(await subtle().exportKey("spki", k));
const exportPkcs8 = async (k) => new Uint8Array(await subtle().exportKey("pkcs8", k));
const jwkD = async (k) => b64url((await subtle().exportKey("jwk", k)).d);
const pairOf = (k) => ({ pub: k.publicKey, priv: k.privateKey });

// ECDSA / ECDH on P-256, P-384. WebCrypto's ECDSA signatures are raw r‖s
// (IEEE P1363): sign's result is converted to DER and a DER signature to
// r‖s outside the timed region (the timed operation is subtle.sign /
// subtle.verify itself). The private scalar goes in as PKCS#8 (pk.js) and
// comes out as the JWK "d".
function ecEngine(info, kind) {
  const ecdh = kind === "ECDH";
  const algo = { name: kind, namedCurve: info.web };
  const params = ecdh ? null : { name: "ECDSA", hash: info.hash };
  const pubUse = ecdh ? [] : ["verify"];
  const privUse = ecdh ? ["deriveBits"] : ["sign"];
  const bitsLen = 8 * info.bytes;
  return {
    async: true,
    generate: async () => pairOf(await subtle().generateKey(algo, true, ecdh ? ["deriveBits"] : ["sign", "verify"])),
    exportPair: async (k) => ({ public: await exportSpki(k.pub), private: leftPad(await jwkD(k.priv), info.bytes) }),
    publicOf: (k) => exportSpki(k.pub),
    importPublic: (b) => subtle().importKey("spki", requireNamedCurve(b), algo, true, pubUse),
    importPrivate: (b) => subtle().importKey("pkcs8", ecPkcs8(info, b), algo, true, privUse),
    signer: (priv) => (m) => subtle().sign(params, priv, m),
    verifier: (pub) => (m, s) => subtle().verify(params, pub, s, m),
    sigOut: (s) => ecdsaRawToDer(bytes(s)),
    sigIn: (b) => ecdsaDerToRaw(b, info.bytes),
    deriver: (priv, pub) => {
      const p = { name: "ECDH", public: pub };
      return () => subtle().deriveBits(p, priv, bitsLen);
    },
  };
}

// Ed25519/Ed448 and X25519/X448: raw public keys; the private key goes in
// as PKCS#8 (RFC 8410, pk.js: WebCrypto has no raw private import) and
// comes out as the JWK "d".
function okpEngine(kind) {
  const x = kind.web.startsWith("X");
  const algo = { name: kind.web };
  const bitsLen = 8 * kind.pub;
  return {
    async: true,
    deterministic: true, // EdDSA
    generate: async () => pairOf(await subtle().generateKey(algo, true, x ? ["deriveBits"] : ["sign", "verify"])),
    exportPair: async (k) => ({ public: await exportRaw(k.pub), private: await jwkD(k.priv) }),
    publicOf: (k) => exportRaw(k.pub),
    importPublic: (b) => {
      checkLen("public key", b, kind.pub);
      return subtle().importKey("raw", b, algo, true, x ? [] : ["verify"]);
    },
    importPrivate: (b) => subtle().importKey("pkcs8", okpPkcs8(kind, b), algo, true, x ? ["deriveBits"] : ["sign"]),
    signer: (priv) => (m) => subtle().sign(algo, priv, m),
    verifier: (pub) => (m, s) => subtle().verify(algo, pub, s, m),
    deriver: (priv, pub) => {
      const p = { name: kind.web, public: pub };
      return () => subtle().deriveBits(p, priv, bitsLen);
    },
  };
}

// RSA with SHA-256: RSA-PSS (salt 32, MGF1 = the key's hash),
// RSASSA-PKCS1-v1_5, RSA-OAEP (empty label); generateKey with e = 65537.
// The keygen algorithm (rsa-N) generates RSASSA-PKCS1-v1_5 keys.
function rsaEngine(bitsLen, name) {
  const algo = { name, hash: "SHA-256" };
  const genAlgo = { ...algo, modulusLength: bitsLen, publicExponent: Uint8Array.of(1, 0, 1) };
  const oaep = name === "RSA-OAEP";
  const params = name === "RSA-PSS" ? { name, saltLength: 32 } : { name };
  return {
    async: true,
    deterministic: name === "RSASSA-PKCS1-v1_5",
    generate: async () =>
      pairOf(await subtle().generateKey(genAlgo, true, oaep ? ["encrypt", "decrypt"] : ["sign", "verify"])),
    exportPair: async (k) => ({ public: await exportSpki(k.pub), private: await exportPkcs8(k.priv) }),
    publicOf: (k) => exportSpki(k.pub),
    importPublic: (b) => subtle().importKey("spki", b, algo, true, oaep ? ["encrypt"] : ["verify"]),
    importPrivate: (b) => subtle().importKey("pkcs8", b, algo, true, oaep ? ["decrypt"] : ["sign"]),
    signer: (priv) => (m) => subtle().sign(params, priv, m),
    verifier: (pub) => (m, s) => subtle().verify(params, pub, s, m),
    maxPlain: oaepMax(bitsLen),
    encryptor: (pub) => (m) => subtle().encrypt(params, pub, m),
    decryptor: (priv) => (c) => subtle().decrypt(params, priv, c),
  };
}

// supported: whether this runtime's WebCrypto has an algorithm (Ed25519,
// X25519, Ed448 and X448 are not in every browser, nor in every Node).
async function supported(algo, usages) {
  try {
    await subtle().generateKey(algo, false, usages);
    return true;
  } catch {
    return false;
  }
}

const SIG = ["keygen", "sign", "verify"];
const RSA_BITS = [2048, 3072, 4096];

async function publicKeyAlgs() {
  const algs = [
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}`, ["keygen"], rsaEngine(n, "RSASSA-PKCS1-v1_5"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pss`, ["sign", "verify"], rsaEngine(n, "RSA-PSS"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pkcs1`, ["sign", "verify"], rsaEngine(n, "RSASSA-PKCS1-v1_5"))),
    ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-oaep`, ["encrypt", "decrypt"], rsaEngine(n, "RSA-OAEP"))),
    pkAlg("ecdsa-p256", SIG, ecEngine(EC_CURVES.p256, "ECDSA")),
    pkAlg("ecdsa-p384", SIG, ecEngine(EC_CURVES.p384, "ECDSA")),
    pkAlg("ecdh-p256", ["derive"], ecEngine(EC_CURVES.p256, "ECDH")),
    pkAlg("ecdh-p384", ["derive"], ecEngine(EC_CURVES.p384, "ECDH")),
  ];
  for (const [name, kind, ops] of [
    ["ed25519", OKP.ed25519, SIG],
    ["ed448", OKP.ed448, SIG],
    ["x25519", OKP.x25519, ["keygen", "derive"]],
    ["x448", OKP.x448, ["keygen", "derive"]],
  ]) {
    const usages = kind.web.startsWith("X") ? ["deriveBits"] : ["sign", "verify"];
    if (await supported({ name: kind.web }, usages)) algs.push(pkAlg(name, ops, okpEngine(kind)));
  }
  return algs;
}

// env: { id, libraryVersion, runtime } from the entry point. Async: which
// Ed/X curves this runtime's WebCrypto has is found out by trying them.
export async function createProvider(env = {}) {
  const pk = await publicKeyAlgs();
  const offered = new Set(pk.map((a) => a.name));
  const missing = ["ed25519", "ed448", "x25519", "x448"].filter((n) => !offered.has(n));
  return {
    ...describe(env, {
      id: "js:webcrypto",
      library: "WebCrypto (crypto.subtle)",
      libraryVersion: env.libraryVersion || "(version unknown)",
    }),
    notes: [
      "WebCrypto is promise-based only: every timed operation is `await crypto.subtle.<op>(...)` and the timing loop awaits each run() before the next (no operations in flight together).",
      "noop is an awaited empty async call (`async run() { return 0 }` awaited by the same loop): the floor of the promise machinery. Synchronous providers (js:node, js:noble, wasm:hash-wasm) have a plain synchronous noop; the difference between the two floors is the per-call cost of the promise machinery.",
      "Reading the first byte of the ArrayBuffer result for the sink needs a one-byte Uint8Array view (one small allocation per operation, not the library's).",
      "Keys are imported once per cell (importKey raw, non-extractable); the algorithm parameter object (iv/counter, tagLength, length) is made once per cell. HMAC = subtle.sign('HMAC', key, msg). AES-CTR uses a 128-bit counter (length: 128). AES-GCM: tagLength 128, no additionalData; the API appends the tag on encrypt and verifies it on decrypt (OperationError on a bad tag).",
      "Not offered: SHA-3, BLAKE2 and SM3 (not in WebCrypto), AES-ECB, AES-CCM, ChaCha20 and (X)ChaCha20-Poly1305 (not in WebCrypto), AES-CBC (WebCrypto always adds PKCS#7 padding, so it cannot encrypt exactly n bytes without padding as the contract asks). No streaming: WebCrypto has no init/update/final API, so stream is empty.",
      "Public key: keys are CryptoKeys imported (spki/pkcs8/raw) or generated outside the timed region; the algorithm parameter objects are made once per cell; the timed operation is one awaited subtle.sign / verify / deriveBits / encrypt / decrypt / generateKey. keygen cells time generateKey alone (CryptoKeys); the public key is exported for the checksum outside the timed region. Raw private keys (EC scalars, Ed/X keys) are imported as PKCS#8 built by the driver (WebCrypto has no raw private import).",
      "ECDSA (P-256 with SHA-256, P-384 with SHA-384): WebCrypto signs and verifies raw r‖s (IEEE P1363); the driver converts to and from the protocol's DER outside the timed region (the timed operation is subtle.sign / subtle.verify itself; a signature that is not strict DER is refused by the driver before WebCrypto sees it). Random k. ECDH: deriveBits({ name: 'ECDH', public }, key, 256|384).",
      "RSA (SHA-256): RSA-PSS with saltLength 32 (MGF1 with the key's hash), RSASSA-PKCS1-v1_5, RSA-OAEP with an empty label (at most k - 66 bytes of plaintext); keygen = generateKey(RSASSA-PKCS1-v1_5, modulusLength, e = 65537).",
      "Ed25519/Ed448: subtle.sign/verify({ name }); X25519/X448: deriveBits. Offered when this runtime's WebCrypto can generate such a key (tried at start-up)" +
        (missing.length ? `; missing here: ${missing.join(", ")}.` : "."),
      "Key pairs for sign/verify/derive/encrypt/decrypt cells are generated once per algorithm and process and reused by every request of the cell (outside the timed region); the signature a verify cell checks and the ciphertext a decrypt cell opens are made once per request.",
      "Not offered: secp256k1 (not in WebCrypto), ML-KEM and ML-DSA (not in this WebCrypto), SM2.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg({ async: true }),
      digestAlg("sha256", "SHA-256"),
      digestAlg("sha512", "SHA-512"),
      hmacAlg(),
      ctrAlg("aes-128-ctr", 16),
      ctrAlg("aes-256-ctr", 32),
      gcmAlg("aes-128-gcm", 16),
      gcmAlg("aes-256-gcm", 32),
      ...pk,
    ],
  };
}
