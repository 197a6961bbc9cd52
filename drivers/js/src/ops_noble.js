// js:noble — @noble/hashes and @noble/ciphers (v2, pure JavaScript, ESM
// only). The same module serves browser:noble through the browser bridge.
//
// Runtime-neutral: versions and runtime text come from the entry point.

import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { sha3_256, sha3_512 } from "@noble/hashes/sha3.js";
import { blake2b, blake2s } from "@noble/hashes/blake2.js";
import { hmac } from "@noble/hashes/hmac.js";
import { cbc, ctr, ecb, gcm } from "@noble/ciphers/aes.js";
import { chacha20, chacha20poly1305, xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { PATTERN_LEN, Pieces, pattern } from "./input.js";
import { Rejected, checkBlocks, checkLen, first, noopAlg } from "./ops.js";

function piecesOf(p) {
  return new Pieces(pattern(p.seed), PATTERN_LEN, p.size, p.chunk);
}

// ---- hashes ---------------------------------------------------------------

// HashOneShotCell: chunk 0 uses the one-shot function (sha256(msg) and
// friends), which returns a new digest array.
class HashOneShotCell {
  constructor(fn, msg) {
    this.async = false;
    this.fn = fn;
    this.msg = msg;
    this.out = new Uint8Array(0);
  }
  run() {
    const d = this.fn(this.msg);
    this.out = d;
    return d[0];
  }
  output() {
    return this.out;
  }
}

// HashStreamCell: chunk > 0: fn.create() per message (noble hashes have no
// reset), update per piece, digestInto a buffer made once per cell.
class HashStreamCell {
  constructor(fn, pieces) {
    this.async = false;
    this.fn = fn;
    this.pieces = pieces;
    this.out = new Uint8Array(fn.outputLen);
  }
  run() {
    const h = this.fn.create();
    const p = this.pieces;
    for (let k = 0; k < p.count; k++) h.update(p.at(k));
    h.digestInto(this.out);
    return this.out[0];
  }
  output() {
    return this.out;
  }
}

function hashAlg(name, fn) {
  return {
    name,
    ops: ["hash"],
    stream: true,
    exec: (c) => fn(c.msg),
    cell: (p) => (p.chunk > 0 ? new HashStreamCell(fn, piecesOf(p)) : new HashOneShotCell(fn, p.msg)),
  };
}

// HmacCell: hmac.create(sha256, key) once per cell (the key is absorbed
// into the inner and outer states there); one operation is clone() of that
// keyed instance, update (whole message or per piece), digestInto a buffer
// made once per cell.
class HmacCell {
  constructor(keyed, msg, pieces) {
    this.async = false;
    this.keyed = keyed;
    this.msg = msg;
    this.pieces = pieces;
    this.out = new Uint8Array(32);
  }
  run() {
    const h = this.keyed.clone();
    const p = this.pieces;
    if (p === null) {
      h.update(this.msg);
    } else {
      for (let k = 0; k < p.count; k++) h.update(p.at(k));
    }
    h.digestInto(this.out);
    return this.out[0];
  }
  output() {
    return this.out;
  }
}

function hmacAlg() {
  return {
    name: "hmac-sha256",
    ops: ["mac"],
    stream: true,
    exec: (c) => hmac(sha256, c.key, c.msg),
    cell: (p) => new HmacCell(hmac.create(sha256, p.key), p.msg, p.chunk > 0 ? piecesOf(p) : null),
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
class CipherCell {
  // make(input, out) performs one operation and returns its output.
  constructor(make, input, out) {
    this.async = false;
    this.make = make;
    this.in = input;
    this.out = out;
    this.last = out;
  }
  run() {
    const o = this.make(this.in, this.out);
    this.last = o;
    return first(o);
  }
  output() {
    return this.last;
  }
}

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
  const check = (key, iv, size) => {
    checkLen("key", key, keyLen);
    checkLen("iv", iv, mode === "ecb" ? 0 : 16);
    if (mode !== "ctr") checkBlocks(size, name);
  };
  return {
    name,
    ops: ["encrypt", "decrypt"],
    stream: false,
    exec: (c) => {
      check(c.key, c.iv, c.msg.length);
      return make(c.key, c.iv, c.op === "encrypt")(c.msg, undefined);
    },
    cell: (p) => {
      check(p.key, p.iv, p.size);
      const enc = p.op === "encrypt";
      const input = enc ? p.msg : make(p.key, p.iv, true)(p.msg, undefined);
      return new CipherCell(make(p.key, p.iv, enc), input, new Uint8Array(p.size));
    },
  };
}

// chacha20Alg: noble's chacha20 is a function (key, nonce, data, out,
// counter): no object at all; block counter 0 for bench cells.
function chacha20Alg() {
  const check = (key, iv) => {
    checkLen("key", key, 32);
    checkLen("iv", iv, 12);
  };
  return {
    name: "chacha20",
    ops: ["encrypt", "decrypt"],
    stream: false,
    exec: (c) => {
      check(c.key, c.iv);
      return chacha20(c.key, c.iv, c.msg, undefined, c.counter);
    },
    cell: (p) => {
      check(p.key, p.iv);
      const key = p.key;
      const nonce = p.iv;
      const input = p.op === "encrypt" ? p.msg : chacha20(key, nonce, p.msg);
      return new CipherCell((i, o) => chacha20(key, nonce, i, o, 0), input, new Uint8Array(p.size));
    },
  };
}

// aeadAlg: gcm, chacha20poly1305, xchacha20poly1305 — cons(key, nonce[,
// aad]) per message; seal = encrypt (ciphertext ‖ 16-byte tag), open =
// decrypt (throws on a bad tag). withOutput: the API takes an output buffer.
function aeadAlg(name, cons, keyLen, nonceLen, withOutput) {
  const check = (key, iv) => {
    checkLen("key", key, keyLen);
    checkLen("iv", iv, nonceLen);
  };
  return {
    name,
    ops: ["seal", "open"],
    stream: false,
    exec: (c) => {
      check(c.key, c.iv);
      const aad = c.aad.length > 0 ? c.aad : undefined;
      if (c.op === "seal") return cons(c.key, c.iv, aad).encrypt(c.msg);
      if (c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
      try {
        return cons(c.key, c.iv, aad).decrypt(c.msg);
      } catch (e) {
        if (e instanceof Error && /invalid tag/.test(e.message)) throw new Rejected();
        throw e;
      }
    },
    cell: (p) => {
      check(p.key, p.iv);
      const key = p.key;
      const nonce = p.iv;
      const seal = p.op === "seal";
      if (seal) {
        const run = withOutput ? (i, o) => cons(key, nonce).encrypt(i, o) : (i) => cons(key, nonce).encrypt(i);
        return new CipherCell(run, p.msg, withOutput ? new Uint8Array(p.size + 16) : null);
      }
      const ct = cons(key, nonce).encrypt(p.msg);
      const run = withOutput ? (i, o) => cons(key, nonce).decrypt(i, o) : (i) => cons(key, nonce).decrypt(i);
      return new CipherCell(run, ct, withOutput ? new Uint8Array(p.size) : null);
    },
  };
}

// ---- the catalogue --------------------------------------------------------

// env: { id, runtime, packageVersion(name) } from the entry point.
export function createProvider(env = {}) {
  const v = (name) => (env.packageVersion ? env.packageVersion(name) : "(version unknown)");
  return {
    id: env.id || "js:noble",
    language: "javascript",
    library: "@noble/hashes + @noble/ciphers (pure JavaScript)",
    libraryVersion: `@noble/hashes ${v("@noble/hashes")} + @noble/ciphers ${v("@noble/ciphers")}`,
    runtime: env.runtime || "(runtime unknown)",
    notes: [
      "Hashes: chunk=0 uses the one-shot function (sha256(msg), sha512, sha3_256, sha3_512, blake2b (64-byte output), blake2s (32)), which returns a new array; chunk>0 uses fn.create() per message (no reset in noble), update per piece, digestInto a buffer made once per cell.",
      "HMAC: hmac.create(sha256, key) once per cell; one operation is clone() of that keyed instance (two small hash objects), update, digestInto.",
      "Ciphers: noble binds key and IV/nonce when the cipher object is made and allows one encrypt per object, so each operation makes the object and calls encrypt/decrypt; the AES key schedule is expanded inside every encrypt/decrypt call (the public API has no prepared-key object). ECB/CBC with { disablePadding: true }. Output into a buffer made once per cell for ECB, CBC, CTR, ChaCha20, (X)ChaCha20-Poly1305; AES-GCM's encrypt/decrypt take no output buffer and return a new array.",
      "ChaCha20 is the function chacha20(key, nonce, data, out, counter) (RFC 8439, counter 0 for bench cells).",
      "Streaming (chunk>0): hashes and HMAC only (create/update/digest); @noble/ciphers has no incremental cipher API, so ciphers and AEADs are one-shot (a streamed cell answers `not offered`).",
      "Not offered: AES-CCM (not in @noble/ciphers), SM3 (not in @noble/hashes).",
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
      blockAlg("aes-128-ecb", 16, "ecb"),
      blockAlg("aes-256-ecb", 32, "ecb"),
      blockAlg("aes-128-cbc", 16, "cbc"),
      blockAlg("aes-256-cbc", 32, "cbc"),
      blockAlg("aes-128-ctr", 16, "ctr"),
      blockAlg("aes-256-ctr", 32, "ctr"),
      chacha20Alg(),
      aeadAlg("aes-128-gcm", gcm, 16, 12, false),
      aeadAlg("aes-256-gcm", gcm, 32, 12, false),
      aeadAlg("chacha20-poly1305", chacha20poly1305, 32, 12, true),
      aeadAlg("xchacha20-poly1305", xchacha20poly1305, 32, 24, true),
    ],
  };
}
