// js:webcrypto — the Web Crypto API (globalThis.crypto.subtle), the same
// module in Node and, through the browser bridge, in a browser.
//
// Runtime-neutral: everything runtime-specific (id, version, runtime text)
// comes from the entry point in env.

import { Rejected, checkLen, noopAlg } from "./ops.js";

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
// up once per cell.
class DigestCell {
  constructor(name, msg) {
    this.async = true;
    this.subtle = subtle();
    this.name = name;
    this.msg = msg;
    this.out = new ArrayBuffer(0);
  }
  async run() {
    const d = await this.subtle.digest(this.name, this.msg);
    this.out = d;
    return firstOf(d);
  }
  output() {
    return new Uint8Array(this.out);
  }
}

class SignCell {
  constructor(key, msg) {
    this.async = true;
    this.subtle = subtle();
    this.key = key;
    this.msg = msg;
    this.out = new ArrayBuffer(0);
  }
  async run() {
    const t = await this.subtle.sign("HMAC", this.key, this.msg);
    this.out = t;
    return firstOf(t);
  }
  output() {
    return new Uint8Array(this.out);
  }
}

// CryptCell: subtle.encrypt or subtle.decrypt with a prepared key and
// parameter object (AES-CTR: counter block and length 128; AES-GCM: iv and
// tagLength 128, the tag appended by the API itself).
class CryptCell {
  constructor(encrypt, params, key, input) {
    this.async = true;
    this.subtle = subtle();
    this.encrypt = encrypt;
    this.params = params;
    this.key = key;
    this.in = input;
    this.out = new ArrayBuffer(0);
  }
  async run() {
    const r = this.encrypt
      ? await this.subtle.encrypt(this.params, this.key, this.in)
      : await this.subtle.decrypt(this.params, this.key, this.in);
    this.out = r;
    return firstOf(r);
  }
  output() {
    return new Uint8Array(this.out);
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

function ctrAlg(name, keyLen) {
  const params = (iv) => ({ name: "AES-CTR", counter: iv, length: 128 });
  const check = (key, iv) => {
    checkLen("key", key, keyLen);
    checkLen("iv", iv, 16);
  };
  return {
    name,
    ops: ["encrypt", "decrypt"],
    stream: false,
    exec: async (c) => {
      check(c.key, c.iv);
      const k = await aesImport("AES-CTR", c.key);
      const f = c.op === "encrypt" ? subtle().encrypt : subtle().decrypt;
      return new Uint8Array(await f.call(subtle(), params(c.iv), k, c.msg));
    },
    cell: async (p) => {
      check(p.key, p.iv);
      const k = await aesImport("AES-CTR", p.key);
      const pr = params(p.iv);
      const enc = p.op === "encrypt";
      const input = enc ? p.msg : new Uint8Array(await subtle().encrypt(pr, k, p.msg));
      return new CryptCell(enc, pr, k, input);
    },
  };
}

function gcmAlg(name, keyLen) {
  const params = (iv, aad) => {
    const pr = { name: "AES-GCM", iv, tagLength: 128 };
    if (aad && aad.length > 0) pr.additionalData = aad;
    return pr;
  };
  const check = (key, iv) => {
    checkLen("key", key, keyLen);
    checkLen("iv", iv, 12);
  };
  return {
    name,
    ops: ["seal", "open"],
    stream: false,
    exec: async (c) => {
      check(c.key, c.iv);
      const k = await aesImport("AES-GCM", c.key);
      if (c.op === "seal") return new Uint8Array(await subtle().encrypt(params(c.iv, c.aad), k, c.msg));
      if (c.msg.length < 16) throw new Rejected("ciphertext shorter than the tag");
      try {
        return new Uint8Array(await subtle().decrypt(params(c.iv, c.aad), k, c.msg));
      } catch (e) {
        if (e && e.name === "OperationError") throw new Rejected();
        throw e;
      }
    },
    cell: async (p) => {
      check(p.key, p.iv);
      const k = await aesImport("AES-GCM", p.key);
      const pr = params(p.iv, null);
      const seal = p.op === "seal";
      const input = seal ? p.msg : new Uint8Array(await subtle().encrypt(pr, k, p.msg));
      return new CryptCell(seal, pr, k, input);
    },
  };
}

// env: { id, libraryVersion, runtime } from the entry point.
export function createProvider(env = {}) {
  return {
    id: env.id || "js:webcrypto",
    language: "javascript",
    library: "WebCrypto (crypto.subtle)",
    libraryVersion: env.libraryVersion || "(version unknown)",
    runtime: env.runtime || "(runtime unknown)",
    notes: [
      "WebCrypto is promise-based only: every timed operation is `await crypto.subtle.<op>(...)` and the timing loop awaits each run() before the next (no operations in flight together).",
      "noop is an awaited empty async call (`async run() { return 0 }` awaited by the same loop): the floor of the promise machinery. Synchronous providers (js:node, js:noble, wasm:hash-wasm) have a plain synchronous noop; the difference between the two floors is the per-call cost of the promise machinery.",
      "Reading the first byte of the ArrayBuffer result for the sink needs a one-byte Uint8Array view (one small allocation per operation, not the library's).",
      "Keys are imported once per cell (importKey raw, non-extractable); the algorithm parameter object (iv/counter, tagLength, length) is made once per cell. HMAC = subtle.sign('HMAC', key, msg). AES-CTR uses a 128-bit counter (length: 128). AES-GCM: tagLength 128, no additionalData; the API appends the tag on encrypt and verifies it on decrypt (OperationError on a bad tag).",
      "Not offered: SHA-3, BLAKE2 and SM3 (not in WebCrypto), AES-ECB, AES-CCM, ChaCha20 and (X)ChaCha20-Poly1305 (not in WebCrypto), AES-CBC (WebCrypto always adds PKCS#7 padding, so it cannot encrypt exactly n bytes without padding as the contract asks). No streaming: WebCrypto has no init/update/final API, so stream is empty.",
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
    ],
  };
}
