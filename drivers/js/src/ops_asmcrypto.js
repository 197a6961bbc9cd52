// js:asmcrypto — asmcrypto.js (asm.js: AES in ECB/CBC/CTR/GCM/CCM, SHA-256,
// SHA-512, HMAC-SHA256), the library of the web report issue 36 redoes. The
// same module serves browser:asmcrypto through the browser bridge.
//
// Runtime-neutral: versions and runtime text come from the entry point. It
// imports the package's ES2017 build (asmcrypto.all.es8.js, the file its
// package.json "module" names) by path in both runtimes, so Node and the
// browser run the same code; the package's asmcrypto.all.mjs is an older
// build (it lacks 2.3.2's joinBytes and aes_init_done) and is not used.
//
// Every asmcrypto object owns a fresh 64 KiB heap and links its own asm.js
// module instance (AES: the key schedule and the S-box tables are written
// into that heap) when it is constructed: that is the library's per-object
// cost, which a caller pays per message for ciphers (the IV/nonce is set
// at construction; there is no re-key/re-IV API).

import {
  AES_CBC,
  AES_CCM,
  AES_CTR,
  AES_ECB,
  AES_GCM,
  HmacSha256,
  SecurityError,
  Sha256,
  Sha512,
} from "asmcrypto.js/asmcrypto.all.es8.js";
import { PATTERN_LEN, Pieces, RegenPieces, pattern } from "./input.js";
import { CallCell, Collector, HashCell, StreamCell, streamOut } from "./cells.js";
import { aesAlgs, cipherCheck, describe, EMPTY, noopAlg, NotOffered, packageVersion, Rejected } from "./ops.js";

function piecesOf(p) {
  return new Pieces(pattern(p.seed), PATTERN_LEN, p.size, p.chunk);
}

// ---- hashes and HMAC ------------------------------------------------------

// AsmHashCell (a HashCell, cells.js): one operation is make() — for a hash, reset() of the object
// made once per cell (its heap and asm.js module); for HMAC a new
// HmacSha256(key) (see hmacAlg) — then process (whole message or per
// piece), finish(), whose .result is a new Uint8Array.
class AsmHashCell extends HashCell {
  absorb(h, data) {
    h.process(data);
  }
  finish(h) {
    return h.finish().result;
  }
}

function hashAlg(name, Cons) {
  return {
    name,
    ops: ["hash"],
    stream: true,
    exec: (c) => new Cons().process(c.msg).finish().result,
    cell: (p) => {
      const h = new Cons();
      return new AsmHashCell(() => h.reset(), p.msg, p.chunk > 0 ? piecesOf(p) : null);
    },
  };
}

// HMAC: new HmacSha256(key) per message — asmcrypto's Hmac keeps its
// result after finish() and its reset() does not clear it, so an instance
// computes one MAC (a second process() throws "state must be reset"); the
// constructor makes a Sha256 (heap + asm.js module) and absorbs the padded
// key.
function hmacAlg() {
  return {
    name: "hmac-sha256",
    ops: ["mac"],
    stream: true,
    exec: (c) => new HmacSha256(c.key).process(c.msg).finish().result,
    cell: (p) => {
      const key = p.key;
      return new AsmHashCell(() => new HmacSha256(key), p.msg, p.chunk > 0 ? piecesOf(p) : null);
    },
  };
}

// ---- AES ------------------------------------------------------------------

// A mode: how an object is made (key, iv, the plaintext length (CCM needs it
// up front), aad) and its streaming calls per direction. ECB and CBC without
// padding (padding: false); CTR's whole 16-byte IV is the initial counter
// block (asmcrypto increments its low 48 bits; OpenSSL all 128); GCM and CCM
// with 16-byte tags, the tag appended to the ciphertext (and read from its
// end by decrypt).
const MODES = {
  ecb: {
    ivLen: 0,
    block: true,
    make: (key) => new AES_ECB(key, false),
    enc: [(o, d) => o.AES_Encrypt_process(d), (o) => o.AES_Encrypt_finish()],
    dec: [(o, d) => o.AES_Decrypt_process(d), (o) => o.AES_Decrypt_finish()],
  },
  cbc: {
    ivLen: 16,
    block: true,
    make: (key, iv) => new AES_CBC(key, iv, false),
    enc: [(o, d) => o.AES_Encrypt_process(d), (o) => o.AES_Encrypt_finish()],
    dec: [(o, d) => o.AES_Decrypt_process(d), (o) => o.AES_Decrypt_finish()],
  },
  ctr: {
    ivLen: 16,
    block: false,
    make: (key, iv) => new AES_CTR(key, iv),
    // CTR decryption is encryption (AES_CTR.decrypt calls the same two)
    enc: [(o, d) => o.AES_Encrypt_process(d), (o) => o.AES_Encrypt_finish()],
    dec: [(o, d) => o.AES_Encrypt_process(d), (o) => o.AES_Encrypt_finish()],
  },
  gcm: {
    ivLen: 12,
    aead: true,
    make: (key, iv, size, aad) => new AES_GCM(key, iv, aad, 16),
    enc: [(o, d) => o.AES_GCM_Encrypt_process(d), (o) => o.AES_GCM_Encrypt_finish()],
    dec: [(o, d) => o.AES_GCM_Decrypt_process(d), (o) => o.AES_GCM_Decrypt_finish()],
  },
  ccm: {
    ivLen: 12,
    aead: true,
    make: (key, iv, size, aad) => new AES_CCM(key, iv, aad, 16, size),
    enc: [(o, d) => o.AES_CCM_Encrypt_process(d), (o) => o.AES_CCM_Encrypt_finish()],
    dec: [(o, d) => o.AES_CCM_Decrypt_process(d), (o) => o.AES_CCM_Decrypt_finish()],
  },
};

// One-shot (a CallCell, cells.js): one operation = a new object (key
// schedule, IV/nonce, CCM's length) and its one-shot encrypt/decrypt
// (process + finish + a joined new output array: the library's own one-shot
// path, what AES_CBC.encrypt(data, key, padding, iv) and the other static
// helpers do). Streamed (a StreamCell, cells.js): one operation = a new
// object, process() per piece (each call returns a new array of the whole
// blocks it completed), finish() (for seal: the last partial block and the
// tag).

// asmcrypto.js 2.3.2's AES_GCM_Decrypt_process and AES_CCM_Decrypt_process
// hold back the last 16 bytes of each call (they may be the tag) and, on the
// next call, authenticate and decrypt only as many bytes as that call
// brought, starting at the held ones, and drop the rest: a ciphertext fed
// in more than one call always fails its tag (test/asmcrypto.test.js shows it on the library directly). A streamed
// open is therefore not offered; the one-shot open is.
export const STREAMED_OPEN =
  "asmcrypto.js 2.3.2's AES_GCM/AES_CCM _Decrypt_process holds back 16 bytes per call and on the next call authenticates and decrypts only as many bytes as that call brought, starting at the held ones, dropping the rest, so a ciphertext fed in more than one piece always fails its tag (a library bug, reproduced by test/asmcrypto.test.js); only one-shot open is offered";

// Above this a streamed decrypt/open makes its ciphertext again piece by
// piece (RegenPieces) instead of holding it (docs/protocol.md); an object
// so that the native tests can lower it.
export const REGENERATE = { above: 64 * 1024 * 1024 };

function cipherAlg(name, keyLen, modeName) {
  const m = MODES[modeName];
  const aead = m.aead === true;
  const check = cipherCheck(name, keyLen, m.ivLen, m.block, aead ? "nonce" : "iv");
  const ops = aead ? ["seal", "open"] : ["encrypt", "decrypt"];
  return {
    name,
    ops,
    stream: true,
    // ops whose streamed cells answer `not offered` (the native tests check it)
    streamNotOffered: aead ? ["open"] : [],
    exec: (c) => {
      const forward = c.op === "encrypt" || c.op === "seal";
      const aad = c.aad.length > 0 ? c.aad : undefined;
      if (forward) {
        check(c.key, c.iv, c.msg.length);
        return m.make(c.key, c.iv, c.msg.length, aad).encrypt(c.msg);
      }
      if (aead && c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
      const ptLen = aead ? c.msg.length - 16 : c.msg.length;
      check(c.key, c.iv, ptLen);
      try {
        return m.make(c.key, c.iv, ptLen, aad).decrypt(c.msg);
      } catch (e) {
        // "data integrity check failed": the tag does not verify
        if (aead && e instanceof SecurityError) throw new Rejected();
        throw e;
      }
    },
    cell: (p) => {
      check(p.key, p.iv, p.size);
      const key = p.key;
      const iv = p.iv;
      const size = p.size;
      const forward = p.op === "encrypt" || p.op === "seal";
      if (p.chunk === 0) {
        if (forward) return new CallCell((i) => m.make(key, iv, size).encrypt(i), p.msg);
        const ct = m.make(key, iv, size).encrypt(p.msg); // made once, outside the timed region
        return new CallCell((i) => m.make(key, iv, size).decrypt(i), ct);
      }
      if (aead && !forward) throw new NotOffered(`streamed ${name} open: ${STREAMED_OPEN}`);
      const [proc, fin] = forward ? m.enc : m.dec;
      const s = { make: () => m.make(key, iv, size), proc, fin };
      const plain = piecesOf(p);
      if (forward) return new StreamCell(s, plain);
      // decrypt: the ciphertext of the streaming encrypt of the message, kept whole, or above
      // REGENERATE made again piece by piece (whole blocks only: process() returns whole blocks)
      const enc = { make: s.make, proc: m.enc[0], fin: m.enc[1] };
      if (size > REGENERATE.above && p.chunk % 16 === 0 && size % 16 === 0) {
        const fresh = () => {
          const o = enc.make();
          return { update: (d) => enc.proc(o, d) };
        };
        return new StreamCell(s, new RegenPieces(plain, fresh));
      }
      const made = streamOut(enc, plain, new Collector(size)).buf;
      return new StreamCell(s, new Pieces(made, 0, size, p.chunk));
    },
  };
}

// ---- the catalogue --------------------------------------------------------

// env: { id, runtime, packageVersion(name) } from the entry point.
export function createProvider(env = {}) {
  return {
    ...describe(env, {
      id: "js:asmcrypto",
      library: "asmcrypto.js (asm.js)",
      libraryVersion: `asmcrypto.js ${packageVersion(env, "asmcrypto.js")}`,
    }),
    notes: [
      "asmcrypto.js's ES2017 build (asmcrypto.all.es8.js, its package.json 'module') in Node and in the browser alike: asm.js code ('use asm' modules over a heap ArrayBuffer), run by the engine's JavaScript/asm.js pipeline: no WebAssembly module, no AES-NI.",
      "Every asmcrypto object allocates its own 64 KiB heap and links its own asm.js module instance at construction (AES: tables and key schedule written into that heap); ciphers set the IV/nonce at construction and have no re-key or re-IV API, so every cipher operation constructs its object.",
      "Hashes (SHA-256, SHA-512): the hash object is made once per cell; one operation is reset(), process() (whole message or per piece), finish() (result: a new Uint8Array).",
      "HMAC-SHA256: new HmacSha256(key) per message (an instance computes one MAC: its result is kept after finish() and reset() does not clear it), process(), finish().",
      "Ciphers, one-shot (chunk 0): new AES_ECB(key, false) / AES_CBC(key, iv, false) / AES_CTR(key, iv) / AES_GCM(key, nonce, undefined, 16) / AES_CCM(key, nonce, undefined, 16, length) then encrypt(msg) or decrypt(ct), which is process() + finish() + a joined new output array (the library's one-shot path; its static AES_*.encrypt helpers do the same). No padding for ECB/CBC. GCM/CCM: the 16-byte tag is appended to the ciphertext and read from its end by decrypt (which throws SecurityError on a bad tag: rejected).",
      "Streaming (chunk>0): hashes, HMAC, ECB/CBC/CTR both ways and GCM/CCM seal, through the public AES_*_Encrypt/Decrypt_process(piece) per piece and *_finish() (a new object per message); each process() returns a new array of the whole blocks it completed, dropped after its first byte goes to the sink, so memory stays bounded at 100-500 MB. CCM needs the message length up front (given at construction) and, with a 12-byte nonce, takes at most 2^24 - 16 bytes. A streamed GCM/CCM open answers `not offered`: " +
        STREAMED_OPEN +
        ".",
      "A streamed decrypt reads the ciphertext made once by the streaming encrypt and kept whole; above 64 MiB (whole-block pieces and message) it is made again piece by piece from the pattern by an encrypting object beside the decrypting one, timed with performance.now() and subtracted from the batch (docs/protocol.md).",
      "AES-CTR: the 16-byte IV is the initial counter block; asmcrypto increments only its low 48 bits (OpenSSL and the vectors: all 128), which differs only when those 48 bits wrap.",
      "Not offered: SHA-3, BLAKE2, ChaCha20(-Poly1305) (not in asmcrypto.js); RSA (asmcrypto.js has RSA-PSS/PKCS#1/OAEP over its asm.js bignum, not wired: jsrsasign is this project's JavaScript RSA of the web report).",
      "The timing loop is synchronous (no await): noop is a plain synchronous empty call.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg(),
      hashAlg("sha256", Sha256),
      hashAlg("sha512", Sha512),
      hmacAlg(),
      ...aesAlgs(cipherAlg, ["ecb", "cbc", "ctr", "gcm", "ccm"]),
    ],
  };
}
