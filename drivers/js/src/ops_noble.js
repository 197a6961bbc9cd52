// js:noble — @noble/hashes, @noble/ciphers, @noble/curves (v2) and
// @noble/post-quantum (pure JavaScript, ESM only). The same module serves
// browser:noble through the browser bridge.
//
// Runtime-neutral: versions and runtime text come from the entry point.

import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { sha3_256, sha3_512 } from "@noble/hashes/sha3.js";
import { blake2b, blake2s } from "@noble/hashes/blake2.js";
import { hmac } from "@noble/hashes/hmac.js";
import { cbc, ctr, ecb, gcm } from "@noble/ciphers/aes.js";
import { chacha20, chacha20poly1305, xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { randomBytes } from "@noble/hashes/utils.js";
import { p256, p384 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import { ed448, x448 } from "@noble/curves/ed448.js";
import { ml_kem512, ml_kem768, ml_kem1024 } from "@noble/post-quantum/ml-kem.js";
import { ml_dsa44, ml_dsa65, ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import * as slh from "@noble/post-quantum/slh-dsa.js";
import { falcon512, falcon1024 } from "@noble/post-quantum/falcon.js";
import { ml_kem768_x25519 } from "@noble/post-quantum/hybrid.js";
import { CallCell, HashCell } from "./cells.js";
import { PATTERN_LEN, Pieces, pattern } from "./input.js";
import {
  aesAlgs,
  checkedAlg,
  checkLen,
  cipherCheck,
  describe,
  keyIvCheck,
  noopAlg,
  packageVersion,
  Rejected,
} from "./ops.js";
import { EC_CURVES, OKP, ecPointFromSpki, ecSpki } from "./pk.js";
import { pkAlg } from "./pkalg.js";

function piecesOf(p) {
  return new Pieces(pattern(p.seed), PATTERN_LEN, p.size, p.chunk);
}

// ---- hashes ---------------------------------------------------------------

// Hashes, chunk 0: a CallCell (cells.js) of the one-shot function
// (sha256(msg) and friends), which returns a new digest array.
// DigestIntoCell (a HashCell, cells.js): update, then digestInto a buffer
// made once per cell. Hashes, chunk > 0: fn.create() per message (noble
// hashes have no reset).
class DigestIntoCell extends HashCell {
  constructor(make, msg, pieces, outputLen) {
    super(make, msg, pieces);
    this.buf = new Uint8Array(outputLen);
  }
  finish(h) {
    h.digestInto(this.buf);
    return this.buf;
  }
}

function hashAlg(name, fn) {
  return {
    name,
    ops: ["hash"],
    stream: true,
    exec: (c) => fn(c.msg),
    cell: (p) =>
      p.chunk > 0
        ? new DigestIntoCell(() => fn.create(), null, piecesOf(p), fn.outputLen)
        : new CallCell((m) => fn(m), p.msg),
  };
}

// HMAC: hmac.create(sha256, key) once per cell (the key is absorbed into
// the inner and outer states there); one operation is clone() of that keyed
// instance, update (whole message or per piece), digestInto a buffer made
// once per cell.
function hmacAlg() {
  return {
    name: "hmac-sha256",
    ops: ["mac"],
    stream: true,
    exec: (c) => hmac(sha256, c.key, c.msg),
    cell: (p) => {
      const keyed = hmac.create(sha256, p.key);
      return new DigestIntoCell(() => keyed.clone(), p.msg, p.chunk > 0 ? piecesOf(p) : null, 32);
    },
  };
}

// ---- ciphers --------------------------------------------------------------

// noble binds key and IV/nonce when the cipher object is made and lets it
// encrypt only once, so one operation makes the object (a closure: no key
// schedule yet) and calls encrypt/decrypt, which expands the AES key inside
// every call (the public API has no prepared key schedule). Output goes to
// a buffer made once per cell where the API takes one (ECB, CBC, CTR,
// ChaCha20, (X)ChaCha20-Poly1305); AES-GCM's encrypt/decrypt take none and
// return a new array.
const NO_PADDING = Object.freeze({ disablePadding: true });

// blockAlg: aes-*-ecb/cbc/ctr. mode: "ecb" | "cbc" | "ctr".
function blockAlg(name, keyLen, mode) {
  const make = (key, iv, encrypt) => {
    if (mode === "ecb") {
      return encrypt ? (i, o) => ecb(key, NO_PADDING).encrypt(i, o) : (i, o) => ecb(key, NO_PADDING).decrypt(i, o);
    }
    if (mode === "cbc") {
      return encrypt
        ? (i, o) => cbc(key, iv, NO_PADDING).encrypt(i, o)
        : (i, o) => cbc(key, iv, NO_PADDING).decrypt(i, o);
    }
    return encrypt ? (i, o) => ctr(key, iv).encrypt(i, o) : (i, o) => ctr(key, iv).decrypt(i, o);
  };
  return checkedAlg(cipherCheck(name, keyLen, mode === "ecb" ? 0 : 16, mode !== "ctr"), {
    name,
    ops: ["encrypt", "decrypt"],
    stream: false,
    exec: (c) => make(c.key, c.iv, c.op === "encrypt")(c.msg, undefined),
    cell: (p) => {
      const enc = p.op === "encrypt";
      const input = enc ? p.msg : make(p.key, p.iv, true)(p.msg, undefined);
      return new CallCell(make(p.key, p.iv, enc), input, new Uint8Array(p.size));
    },
  });
}

// chacha20Alg: noble's chacha20 is a function (key, nonce, data, out,
// counter): no object at all; block counter 0 for bench cells.
function chacha20Alg() {
  return checkedAlg(keyIvCheck(32, 12), {
    name: "chacha20",
    ops: ["encrypt", "decrypt"],
    stream: false,
    exec: (c) => chacha20(c.key, c.iv, c.msg, undefined, c.counter),
    cell: (p) => {
      const key = p.key;
      const nonce = p.iv;
      const input = p.op === "encrypt" ? p.msg : chacha20(key, nonce, p.msg);
      return new CallCell((i, o) => chacha20(key, nonce, i, o, 0), input, new Uint8Array(p.size));
    },
  });
}

// aeadAlg: gcm, chacha20poly1305, xchacha20poly1305 — cons(key, nonce[,
// aad]) per message; seal = encrypt (ciphertext ‖ 16-byte tag), open =
// decrypt (throws on a bad tag). withOutput: the API takes an output buffer.
function aeadAlg(name, cons, keyLen, nonceLen, withOutput) {
  return checkedAlg(keyIvCheck(keyLen, nonceLen), {
    name,
    ops: ["seal", "open"],
    stream: false,
    exec: (c) => {
      const aad = c.aad.length > 0 ? c.aad : undefined;
      if (c.op === "seal") return cons(c.key, c.iv, aad).encrypt(c.msg);
      if (c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
      try {
        return cons(c.key, c.iv, aad).decrypt(c.msg);
      } catch (e) {
        // "invalid tag" (noble 2.x), "invalid ghash tag" (1.x: `js:noble@1`, docs/versions.md)
        if (e instanceof Error && /invalid (ghash )?tag/.test(e.message)) throw new Rejected();
        throw e;
      }
    },
    cell: (p) => {
      const key = p.key;
      const nonce = p.iv;
      const seal = p.op === "seal";
      if (seal) {
        const run = withOutput ? (i, o) => cons(key, nonce).encrypt(i, o) : (i) => cons(key, nonce).encrypt(i);
        return new CallCell(run, p.msg, withOutput ? new Uint8Array(p.size + 16) : null);
      }
      const ct = cons(key, nonce).encrypt(p.msg);
      const run = withOutput ? (i, o) => cons(key, nonce).decrypt(i, o) : (i) => cons(key, nonce).decrypt(i);
      return new CallCell(run, ct, withOutput ? new Uint8Array(p.size) : null);
    },
  });
}

// ---- public key (@noble/curves) -------------------------------------------

// ECDSA: sign/verify hash the message with the curve's hash inside the call
// (prehash: true: SHA-256 for P-256 and secp256k1, SHA-384 for P-384),
// signatures in and out as DER (format: 'der'). lowS: false on both sides:
// plain ECDSA (FIPS 186-5, X9.62) as OpenSSL does it: signing does not
// normalise s, and verification accepts high-S signatures (valid ECDSA;
// noble v2's default lowS: true is a Bitcoin rule that would refuse valid
// Wycheproof vectors). k is RFC 6979 deterministic (noble's default, no
// extraEntropy).
const ECDSA_SIGN = Object.freeze({ prehash: true, lowS: false, format: "der" });
const ECDSA_VERIFY = Object.freeze({ prehash: true, lowS: false, format: "der" });

// ecEngine: keys are a raw secret scalar and a raw uncompressed SEC1 point
// (the public key travels as SPKI, glued on and off as a fixed prefix,
// pk.js). keygen = utils.randomSecretKey() + getPublicKey(sk, false).
function ecEngine(c, info) {
  return {
    async: false,
    deterministic: true, // RFC 6979
    generate: () => {
      const priv = c.utils.randomSecretKey();
      return { priv, pub: c.getPublicKey(priv, false) };
    },
    exportPair: (k) => ({ public: ecSpki(info, k.pub), private: k.priv }),
    publicOf: (k) => ecSpki(info, k.pub),
    importPublic: (b) => ecPointFromSpki(info, b),
    importPrivate: (b) => {
      checkLen("EC private key", b, info.bytes);
      return b;
    },
    signer: (priv) => (m) => c.sign(m, priv, ECDSA_SIGN),
    verifier: (pub) => (m, s) => c.verify(s, m, pub, ECDSA_VERIFY),
    // ECDH: getSharedSecret gives the compressed shared point; the secret
    // is its x coordinate (a view past the parity byte).
    deriver: (priv, pub) => () => c.getSharedSecret(priv, pub, true).subarray(1),
  };
}

// EdDSA (RFC 8032, pure) with raw keys; verification with zip215: false,
// the strict RFC 8032 / FIPS 186-5 rules (canonical encodings) instead of
// noble's default consensus-friendly ZIP 215 ones. Each sign() re-derives
// the public key from the 32/57-byte secret (noble has no expanded-key API).
const ED_VERIFY = Object.freeze({ zip215: false });

function rawKeys(kind) {
  return {
    exportPair: (k) => ({ public: k.pub, private: k.priv }),
    publicOf: (k) => k.pub,
    importPublic: (b) => {
      checkLen("public key", b, kind.pub);
      return b;
    },
    importPrivate: (b) => {
      checkLen("private key", b, kind.priv);
      return b;
    },
  };
}

function edEngine(c, kind) {
  return {
    async: false,
    deterministic: true,
    ...rawKeys(kind),
    generate: () => {
      const k = c.keygen();
      return { priv: k.secretKey, pub: k.publicKey };
    },
    signer: (priv) => (m) => c.sign(m, priv),
    verifier: (pub) => (m, s) => c.verify(s, m, pub, ED_VERIFY),
  };
}

function xEngine(c, kind) {
  return {
    async: false,
    ...rawKeys(kind),
    generate: () => {
      const k = c.keygen();
      return { priv: k.secretKey, pub: k.publicKey };
    },
    deriver: (priv, pub) => () => c.getSharedSecret(priv, pub),
  };
}

// ---- post-quantum (@noble/post-quantum) -----------------------------------

// ML-KEM (FIPS 203). A key pair is { pub: encapsulation key, priv: the
// expanded decapsulation key, seed: d‖z }; the protocol's private key is the
// seed, expanded with keygen(seed) outside the timed region. keygen draws
// the 64-byte seed with randomBytes (as keygen() does inside) so that the
// pair can be exported. encapsulate(ek, m) with m: deterministic (the
// vectors); without: m drawn inside. encapsulate checks ek (FIPS 203 modulus
// check) on every call; the prepare() API that caches the expanded key is
// not used.
function mlkemEngine(kem) {
  const fromSeed = (seed) => {
    checkLen("ML-KEM seed", seed, 64);
    const k = kem.keygen(seed);
    return { pub: k.publicKey, priv: k.secretKey, seed };
  };
  return seedKemEngine(kem, 64, fromSeed, (b) => fromSeed(b).priv);
}

// A noble KEM whose protocol private key is its seed (ML-KEM, X-Wing): pairs
// from fromSeed(seed of seedLen random bytes), the private key of a case from
// importPrivate, and the library's encapsulate / decapsulate.
function seedKemEngine(kem, seedLen, fromSeed, importPrivate) {
  return {
    async: false,
    generate: () => fromSeed(randomBytes(seedLen)),
    fromSeed,
    exportPair: (k) => ({ public: k.pub, private: k.seed }),
    publicOf: (k) => k.pub,
    importPublic: (b) => b,
    importPrivate,
    encapsulator: (pub) => (m) => kem.encapsulate(pub, m),
    encapsParts: (r) => ({ ct: r.cipherText, ss: r.sharedSecret }),
    decapsulator: (priv) => (ct) => kem.decapsulate(ct, priv),
  };
}

// ML-DSA (FIPS 204), pure. The private key is the 32-byte seed ξ, expanded
// with keygen(seed) outside the timed region. sign is hedged (32 fresh
// random bytes inside the call) unless the case asks for the deterministic
// variant (extraEntropy: false, rnd = 0^32); the context string goes in as
// { context }.
function mldsaEngine(dsa) {
  const fromSeed = (seed) => {
    checkLen("ML-DSA seed", seed, 32);
    const k = dsa.keygen(seed);
    return { pub: k.publicKey, priv: k.secretKey, seed };
  };
  const signOpts = (o) => {
    const r = {};
    if (o.ctx) r.context = o.ctx;
    if (o.deterministic) r.extraEntropy = false;
    return Object.freeze(r);
  };
  return {
    async: false,
    context: true,
    deterministic: true,
    generate: () => fromSeed(randomBytes(32)),
    fromSeed,
    exportPair: (k) => ({ public: k.pub, private: k.seed }),
    publicOf: (k) => k.pub,
    importPublic: (b) => b,
    importPrivate: (b) => fromSeed(b).priv,
    signer: (priv, o) => {
      const opts = signOpts(o);
      return (m) => dsa.sign(m, priv, opts);
    },
    verifier: (pub, o) => {
      const opts = Object.freeze(o.ctx ? { context: o.ctx } : {});
      return (m, s) => dsa.verify(s, m, pub, opts);
    },
  };
}

// SLH-DSA (FIPS 205), pure, any of the 12 parameter sets. Keys are noble's
// own and the protocol's: public PK.seed‖PK.root, private SK.seed‖SK.prf‖
// PK.seed‖PK.root (4n bytes, no expansion). keygen(seed) takes SK.seed‖
// SK.prf‖PK.seed (3n bytes): the keygen case's seed; the timed keygen draws
// those 3n bytes with randomBytes, as keygen() does inside. sign is hedged
// (opt_rand = n fresh random bytes inside the call) unless the case asks for
// the deterministic variant (extraEntropy: false, opt_rand = PK.seed); the
// context string goes in as { context }.
function slhEngine(dsa) {
  const n = dsa.lengths.publicKey / 2;
  const fromSeed = (seed) => {
    checkLen("SLH-DSA seed", seed, 3 * n);
    const k = dsa.keygen(seed);
    return { pub: k.publicKey, priv: k.secretKey };
  };
  return {
    async: false,
    context: true,
    deterministic: true,
    generate: () => fromSeed(randomBytes(3 * n)),
    fromSeed,
    exportPair: (k) => ({ public: k.pub, private: k.priv }),
    publicOf: (k) => k.pub,
    importPublic: (b) => {
      checkLen("SLH-DSA public key", b, 2 * n);
      return b;
    },
    importPrivate: (b) => {
      checkLen("SLH-DSA private key", b, 4 * n);
      return b;
    },
    signer: (priv, o) => {
      const r = {};
      if (o.ctx) r.context = o.ctx;
      if (o.deterministic) r.extraEntropy = false;
      const opts = Object.freeze(r);
      return (m) => dsa.sign(m, priv, opts);
    },
    verifier: (pub, o) => {
      const opts = Object.freeze(o.ctx ? { context: o.ctx } : {});
      return (m, s) => dsa.verify(s, m, pub, opts);
    },
  };
}

// Falcon (round 3, the basis of FIPS 206), detached compressed signatures
// (falcon512 / falcon1024, not the *padded exports): header 0x30+logn ‖
// 40-byte nonce ‖ compressed s2, as liboqs writes them; keys in the
// submission's encoding (headers 0x00+logn and 0x50+logn). sign draws its
// 48-byte sampler seed inside the call; keygen() draws its seed inside. No
// seed-based keygen case (the protocol has none for Falcon), no
// deterministic signing, no context.
function falconEngine(f) {
  return {
    async: false,
    generate: () => {
      const k = f.keygen();
      return { pub: k.publicKey, priv: k.secretKey };
    },
    exportPair: (k) => ({ public: k.pub, private: k.priv }),
    publicOf: (k) => k.pub,
    importPublic: (b) => {
      checkLen("Falcon public key", b, f.lengths.publicKey);
      return b;
    },
    importPrivate: (b) => {
      checkLen("Falcon private key", b, f.lengths.secretKey);
      return b;
    },
    signer: (priv) => (m) => f.sign(m, priv),
    verifier: (pub) => (m, s) => f.verify(s, m, pub),
  };
}

// X-Wing (draft-connolly-cfrg-xwing-kem): noble's hybrid.js ml_kem768_x25519
// is X-Wing — combineKEMS(32-byte seed, SHAKE256-expanded to ML-KEM-768 d‖z
// and an X25519 secret; shared key SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖
// "\.//^\")), not its QSF_* or KitchenSink_* combiners. The private key
// is the 32-byte seed, expanded inside every decapsulate (noble keeps no
// expanded key); encapsulate(pk, eseed) with the 64-byte eseed of the
// vectors, without it eseed is drawn inside.
function xwingEngine(kem) {
  const fromSeed = (seed) => {
    checkLen("X-Wing seed", seed, 32);
    return { pub: kem.keygen(seed).publicKey, priv: seed, seed };
  };
  return seedKemEngine(kem, 32, fromSeed, (b) => {
    checkLen("X-Wing private key", b, 32);
    return b;
  });
}

// The SLH-DSA sets offered: those whose one signature takes at most a few
// seconds in pure JavaScript. Measured on this project's 2-core machine
// under load (one signature): SHA2-128f 0.5 s, SHA2-256f 1.3 s, SHAKE-128f
// 2.2 s, SHAKE-192f 2.3 s, SHA2-128s 3.4-4.5 s, SHAKE-256f 3.9 s, SHA2-192s
// 8 s, SHA2-256s 12 s, SHAKE-256s 53 s (SHAKE is slower than SHA2 here). Each set costs
// a run its key pair and signature before a verify cell is timed, at least
// ten timed signatures in a sign cell, and four signatures in its ACVP
// cases, all inside the orchestrator's 60 s per request; SHAKE-256f and the
// slower 's' sets timed out there, so they are not offered (noble itself
// has all 12).
export const SLH_DSA_SETS = ["sha2-128s", "sha2-128f", "sha2-192f", "sha2-256f", "shake-128f", "shake-192f"].map(
  (p) => [`slh-dsa-${p}`, slh[`slh_dsa_${p.replace("-", "_")}`]],
);

const SIG = ["keygen", "sign", "verify"];

function publicKeyAlgs() {
  return [
    pkAlg("ecdsa-p256", SIG, ecEngine(p256, EC_CURVES.p256)),
    pkAlg("ecdsa-p384", SIG, ecEngine(p384, EC_CURVES.p384)),
    pkAlg("ecdsa-secp256k1", SIG, ecEngine(secp256k1, EC_CURVES.secp256k1)),
    pkAlg("ecdh-p256", ["derive"], ecEngine(p256, EC_CURVES.p256)),
    pkAlg("ecdh-p384", ["derive"], ecEngine(p384, EC_CURVES.p384)),
    pkAlg("ecdh-secp256k1", ["derive"], ecEngine(secp256k1, EC_CURVES.secp256k1)),
    pkAlg("ed25519", SIG, edEngine(ed25519, OKP.ed25519)),
    pkAlg("ed448", SIG, edEngine(ed448, OKP.ed448)),
    pkAlg("x25519", ["keygen", "derive"], xEngine(x25519, OKP.x25519)),
    pkAlg("x448", ["keygen", "derive"], xEngine(x448, OKP.x448)),
    pkAlg("ml-kem-512", ["keygen", "encaps", "decaps"], mlkemEngine(ml_kem512)),
    pkAlg("ml-kem-768", ["keygen", "encaps", "decaps"], mlkemEngine(ml_kem768)),
    pkAlg("ml-kem-1024", ["keygen", "encaps", "decaps"], mlkemEngine(ml_kem1024)),
    pkAlg("ml-dsa-44", SIG, mldsaEngine(ml_dsa44)),
    pkAlg("ml-dsa-65", SIG, mldsaEngine(ml_dsa65)),
    pkAlg("ml-dsa-87", SIG, mldsaEngine(ml_dsa87)),
    ...SLH_DSA_SETS.map(([name, dsa]) => pkAlg(name, SIG, slhEngine(dsa))),
    pkAlg("falcon-512", SIG, falconEngine(falcon512)),
    pkAlg("falcon-1024", SIG, falconEngine(falcon1024)),
    pkAlg("x-wing", ["keygen", "encaps", "decaps"], xwingEngine(ml_kem768_x25519)),
  ];
}

// ---- the catalogue --------------------------------------------------------

// env: { id, runtime, packageVersion(name) } from the entry point.
export function createProvider(env = {}) {
  const packages = ["@noble/hashes", "@noble/ciphers", "@noble/curves", "@noble/post-quantum"];
  return {
    ...describe(env, {
      id: "js:noble",
      library: `${packages.join(" + ")} (pure JavaScript)`,
      libraryVersion: packages.map((name) => `${name} ${packageVersion(env, name)}`).join(" + "),
    }),
    notes: [
      "Hashes: chunk=0 uses the one-shot function (sha256(msg), sha512, sha3_256, sha3_512, blake2b (64-byte output), blake2s (32)), which returns a new array; chunk>0 uses fn.create() per message (no reset in noble), update per piece, digestInto a buffer made once per cell.",
      "HMAC: hmac.create(sha256, key) once per cell; one operation is clone() of that keyed instance (two small hash objects), update, digestInto.",
      "Ciphers: noble binds key and IV/nonce when the cipher object is made and allows one encrypt per object, so each operation makes the object and calls encrypt/decrypt; the AES key schedule is expanded inside every encrypt/decrypt call (the public API has no prepared-key object). ECB/CBC with { disablePadding: true }. Output into a buffer made once per cell for ECB, CBC, CTR, ChaCha20, (X)ChaCha20-Poly1305; AES-GCM's encrypt/decrypt take no output buffer and return a new array.",
      "ChaCha20 is the function chacha20(key, nonce, data, out, counter) (RFC 8439, counter 0 for bench cells).",
      "Streaming (chunk>0): hashes and HMAC only (create/update/digest); @noble/ciphers has no incremental cipher API, so ciphers and AEADs are one-shot (a streamed cell answers `not offered`).",
      "ECDSA (@noble/curves nist.js p256/p384, secp256k1.js): sign(msg, sk, { prehash: true, lowS: false, format: 'der' }) hashes the message with the curve's hash (SHA-256, SHA-384) inside the call and returns DER; k is RFC 6979 deterministic (noble's default). verify(der, msg, point, { prehash: true, lowS: false, format: 'der' }) parses the DER signature and the SEC1 point inside the call and accepts high-S signatures (plain ECDSA; noble v2's default lowS: true is Bitcoin's rule). keygen = utils.randomSecretKey() + getPublicKey(sk, false).",
      "EC keys: noble takes raw SEC1 points, the protocol SPKI DER: the SPKI is glued on and off as a fixed prefix per curve (uncompressed or compressed point), outside the timed region; any other SPKI (explicit parameters, another curve) is refused. ECDH derive = getSharedSecret(sk, point, true) minus the parity byte (the x coordinate); the peer point is parsed and checked inside every call.",
      "Ed25519/Ed448: sign(msg, secret) (re-derives the public key from the secret on every call: noble has no expanded-key API), verify(sig, msg, pk, { zip215: false }) (strict RFC 8032 / FIPS 186-5 rules). X25519/X448: getSharedSecret(sk, pk); keygen = keygen().",
      "ML-KEM (@noble/post-quantum): keygen = keygen(seed) with a 64-byte seed from randomBytes (as keygen() draws inside); encaps = encapsulate(ek) (modulus check and matrix expansion inside every call; the prepare() cache is not used); decaps = decapsulate(ct, dk) with dk expanded from the seed once per cell. ML-DSA: keygen = keygen(32-byte random seed); sign(msg, sk) hedged (32 random bytes per call), empty context; verify(sig, msg, pk).",
      "SLH-DSA (@noble/post-quantum slh-dsa.js, FIPS 205, pure): the sets SHA2-128s/128f/192f/256f and SHAKE-128f/192f, those that sign within seconds in pure JavaScript (SHAKE-256f 4 s, SHA2-192s 8 s, SHA2-256s 12 s, SHAKE-256s 53 s a signature on a loaded 2-core machine: not offered). keygen = keygen(3n random bytes: SK.seed‖SK.prf‖PK.seed); sign(msg, sk) hedged (n fresh random bytes as opt_rand inside the call), empty context, the private key is SK.seed‖SK.prf‖PK.seed‖PK.root as the protocol's (no expansion); verify(sig, msg, pk). A verify cell's one signature is made outside the timed region at that cost.",
      "Falcon (@noble/post-quantum falcon.js, round 3): falcon512/falcon1024 detached compressed signatures (header 0x30+logn, 40-byte nonce, compressed s2; not the padded exports); keygen() draws its seed inside; sign draws its 48-byte sampler seed inside every call; keys in the submission's encoding.",
      "X-Wing (@noble/post-quantum hybrid.js ml_kem768_x25519, draft-connolly-cfrg-xwing-kem; not the QSF/KitchenSink combiners): keygen = keygen(32 random bytes); encaps = encapsulate(pk) (64 bytes of eseed drawn inside); decaps = decapsulate(ct, seed): the 32-byte seed is expanded (SHAKE256, ML-KEM-768 and X25519 key generation) inside every call, noble keeps no expanded key. TLS hybrid key shares (x25519mlkem768 ...) are not offered: noble's ml_kem768_p256 / ml_kem1024_p384 hash their secrets (SHA3-256) instead of the TLS concatenation.",
      "Key pairs for sign/verify/derive/encaps/decaps cells are generated once per algorithm and process and reused by every request of the cell (outside the timed region); the signature a verify cell checks and the ciphertext a decaps cell opens are made once per request.",
      "Not offered: AES-CCM (not in @noble/ciphers), SM3 (not in @noble/hashes), RSA (no RSA in noble), SM2 (not in @noble/curves), SLH-DSA pre-hash (HashSLH-DSA), HQC, Ascon, the TLS hybrid key shares.",
      "The timing loop is synchronous (no await): noop is a plain synchronous empty call.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg(),
      hashAlg("sha256", sha256),
      hashAlg("sha512", sha512),
      hashAlg("sha3-256", sha3_256),
      hashAlg("sha3-512", sha3_512),
      hashAlg("blake2b-512", blake2b),
      hashAlg("blake2s-256", blake2s),
      hmacAlg(),
      ...aesAlgs(blockAlg, ["ecb", "cbc", "ctr"]),
      chacha20Alg(),
      aeadAlg("aes-128-gcm", gcm, 16, 12, false),
      aeadAlg("aes-256-gcm", gcm, 32, 12, false),
      aeadAlg("chacha20-poly1305", chacha20poly1305, 32, 12, true),
      aeadAlg("xchacha20-poly1305", xchacha20poly1305, 32, 24, true),
      ...publicKeyAlgs(),
    ],
  };
}
