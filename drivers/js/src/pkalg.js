// Public-key and post-quantum algorithms (protocol.md, since version 2), written
// once over a small per-library "engine", so that js:node, js:webcrypto
// and js:noble share the case dispatch, the bench cells and the key
// handling and differ only in the library calls.
//
// Runtime-neutral: no Node API.
//
// Engine = {
//   async: boolean       the library calls return promises (WebCrypto)
//   generate()           one fresh key pair in the library's own form,
//                        { pub, priv, ... }: this is the timed `keygen`
//   exportPair(k)        { public, private } in the protocol encodings (bytes)
//   publicOf(k)          the encoded public key (keygen's output)
//   importPublic(b), importPrivate(b)   protocol bytes -> library form
//   context: boolean     sign/verify take an ML-DSA context string
//   deterministic: boolean  sign can be asked to be deterministic (ML-DSA:
//                        rnd = 0^32) or always is (EdDSA, RSA PKCS#1 v1.5,
//                        noble's RFC 6979 ECDSA)
//   signer(priv, o)      -> (msg) => signature (library form); o = { ctx, deterministic }
//   verifier(pub, o)     -> (msg, sig) => boolean
//   sigOut(s), sigIn(b)  optional: library signature <-> protocol bytes (WebCrypto ECDSA)
//   deriver(priv, pub)   -> () => shared secret
//   fromSeed(seed)       the key pair of a seed (ML-KEM d‖z, ML-DSA ξ)
//   encapsulator(pub)    -> (m | undefined) => library result
//   encapsParts(r)       -> { ct, ss }
//   decapsulator(priv)   -> (ct) => shared key
//   encryptor(pub), decryptor(priv)   -> (msg) => ciphertext / plaintext
//   maxPlain             RSA-OAEP: the longest plaintext
// }
//
// Every closure an engine returns is made outside the timed region (once
// per cell, with the keys, parameter objects and option objects bound); the
// timed operation is one call of it.

import { NotOffered, Rejected, Unsupported } from "./ops.js";
import { bytes } from "./pk.js";
import { toHex } from "./input.js";

export const ONE = Uint8Array.of(1);

// sinkOf: the sink contribution of one output (first byte of bytes, 1 for
// anything else: a key pair, a KEM result, true).
export function sinkOf(o) {
  if (o instanceof Uint8Array) return o.length === 0 ? 0 : o[0];
  if (o instanceof ArrayBuffer) return o.byteLength === 0 ? 0 : new Uint8Array(o, 0, 1)[0];
  return 1;
}

const NOT_VERIFIED = "the signature made for this cell did not verify";

// PkCell: one call of a prepared closure. A `false` result (a signature
// that does not verify) is an error, like a failing tag in `open`.
class PkCell {
  constructor(fn, out) {
    this.async = false;
    this.fn = fn;
    this.out = out;
    this.last = null;
  }
  run() {
    const o = this.fn();
    if (o === false) throw new Error(NOT_VERIFIED);
    this.last = o;
    return sinkOf(o);
  }
  output() {
    return this.out(this.last);
  }
}

class AsyncPkCell extends PkCell {
  constructor(fn, out) {
    super(fn, out);
    this.async = true;
  }
  async run() {
    const o = await this.fn();
    if (o === false) throw new Error(NOT_VERIFIED);
    this.last = o;
    return sinkOf(o);
  }
}

// lib runs library calls of a case: anything the library throws is its
// refusal of the input (protocol.md: malformed input is `rejected`), except
// our own Unsupported and NotOffered.
async function lib(f) {
  try {
    return await f();
  } catch (e) {
    if (e instanceof Unsupported || e instanceof NotOffered || e instanceof Rejected) throw e;
    throw new Rejected(e instanceof Error ? e.message : String(e));
  }
}

// libSync: lib for a synchronous call (the leak request times it without a
// promise's microtask around it).
function libSync(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof Unsupported || e instanceof NotOffered || e instanceof Rejected) throw e;
    throw new Rejected(e instanceof Error ? e.message : String(e));
  }
}

function signOpts(e, c) {
  const o = { ctx: c.ctx && c.ctx.length > 0 ? c.ctx : null, deterministic: c.deterministic === true };
  if (o.ctx && !e.context) throw new Unsupported("no context string for this signature scheme");
  if (o.deterministic && !e.deterministic) throw new Unsupported("no deterministic signing in this library");
  return o;
}

const NO_OPTS = Object.freeze({ ctx: null, deterministic: false });

// lastOne memoises a key import for the case executor: Wycheproof groups
// share one key over many cases, and importing a bare EC scalar costs a
// scalar multiplication (the library computes the public key), more than
// the operation under test. Cases only: cells import nothing per operation.
function lastOne(f) {
  let key = null;
  let val = null;
  return async (b) => {
    const h = toHex(b);
    if (h === key) return val;
    const v = await f(b);
    key = h;
    val = v;
    return v;
  };
}

// pkAlg builds the Alg of protocol.js/ops.js for a public-key algorithm.
// Key pairs for cells are generated once per algorithm and kept for the
// life of the process ("own" and, for derive, "peer"): every bench request
// of a cell (the orchestrator sends several rounds) uses the same keys, so
// an RSA-4096 cell pays its key generation once.
export function pkAlg(name, ops, e) {
  const cache = new Map();
  const pair = (role) => {
    if (!cache.has(role)) {
      const k = Promise.resolve()
        .then(() => e.generate())
        .catch((err) => {
          cache.delete(role);
          throw err;
        });
      cache.set(role, k);
    }
    return cache.get(role);
  };
  const cellOf = (fn, out) => (e.async ? new AsyncPkCell(fn, out) : new PkCell(fn, out));
  const asBytes = (o) => bytes(o);
  const importPublic = lastOne((b) => e.importPublic(b));
  const importPrivate = lastOne((b) => e.importPrivate(b));

  async function exec(c) {
    switch (c.op) {
      case "sign": {
        const o = signOpts(e, c);
        const k = await lib(() => importPrivate(c.private));
        const s = await lib(() => e.signer(k, o)(c.msg));
        return bytes(e.sigOut ? e.sigOut(s) : s);
      }
      case "verify": {
        const o = signOpts(e, c);
        const ok = await lib(async () => {
          const k = await importPublic(c.public);
          const sig = e.sigIn ? e.sigIn(c.sig) : c.sig;
          return e.verifier(k, o)(c.msg, sig);
        });
        if (ok !== true) throw new Rejected("signature does not verify");
        return ONE;
      }
      case "derive":
        return bytes(await lib(async () => e.deriver(await importPrivate(c.private), await importPublic(c.public))()));
      case "encrypt":
        return bytes(await lib(async () => e.encryptor(await importPublic(c.public))(c.msg)));
      case "decrypt":
        return bytes(await lib(async () => e.decryptor(await importPrivate(c.private))(c.msg)));
      case "keygen": {
        if (!e.fromSeed) throw new Unsupported("no key generation from a seed");
        return bytes(await lib(async () => e.publicOf(await e.fromSeed(c.seed))));
      }
      case "encaps": {
        const r = await lib(async () => e.encapsulator(await importPublic(c.public))(c.m ?? undefined));
        const { ct, ss } = e.encapsParts(r);
        const out = new Uint8Array(ct.length + ss.length);
        out.set(ct, 0);
        out.set(ss, ct.length);
        return out;
      }
      case "decaps":
        return bytes(await lib(async () => e.decapsulator(await importPrivate(c.private))(c.msg)));
      default:
        throw new Error(`op ${JSON.stringify(c.op)} has no case executor for ${name}`);
    }
  }

  // prepare: a case's keys imported (each measurement its own import: no
  // memo, so a fixed key costs what a random one does) and its one
  // operation returned, for the leak request; null outside sign, derive,
  // decrypt and decaps.
  async function prepare(c) {
    // a synchronous library is timed without a promise around it
    const once = (f) => (e.async ? () => lib(f) : () => libSync(f));
    switch (c.op) {
      case "sign": {
        const sign = e.signer(await lib(() => e.importPrivate(c.private)), signOpts(e, c));
        return once(() => sign(c.msg));
      }
      case "derive": {
        const derive = e.deriver(
          await lib(() => e.importPrivate(c.private)),
          await lib(() => e.importPublic(c.public)),
        );
        return once(() => derive());
      }
      case "decrypt": {
        const decrypt = e.decryptor(await lib(() => e.importPrivate(c.private)));
        return once(() => decrypt(c.msg));
      }
      case "decaps": {
        const decaps = e.decapsulator(await lib(() => e.importPrivate(c.private)));
        return once(() => decaps(c.msg));
      }
      default:
        throw new NotOffered(`${name} ${c.op}: no single call to time`);
    }
  }

  async function cell(p) {
    const msg = p.msg;
    switch (p.op) {
      case "keygen":
        return cellOf(
          () => e.generate(),
          (k) => e.publicOf(k),
        );
      case "sign": {
        const k = await pair("own");
        const sign = e.signer(k.priv, NO_OPTS);
        return cellOf(
          () => sign(msg),
          (s) => bytes(e.sigOut ? e.sigOut(s) : s),
        );
      }
      case "verify": {
        const k = await pair("own");
        const sig = await e.signer(k.priv, NO_OPTS)(msg); // made once, outside the timed region
        const verify = e.verifier(k.pub, NO_OPTS);
        return cellOf(
          () => verify(msg, sig),
          () => ONE,
        );
      }
      case "derive": {
        const own = await pair("own");
        const peer = await pair("peer");
        const derive = e.deriver(own.priv, peer.pub);
        return cellOf(() => derive(), asBytes);
      }
      case "encrypt":
      case "decrypt": {
        if (p.size > e.maxPlain) {
          throw new NotOffered(
            `RSA-OAEP with SHA-256 takes at most ${e.maxPlain} bytes of plaintext with this key (size ${p.size})`,
          );
        }
        const k = await pair("own");
        const encrypt = e.encryptor(k.pub);
        if (p.op === "encrypt") return cellOf(() => encrypt(msg), asBytes);
        const ct = bytes(await encrypt(msg)); // made once, outside the timed region
        const decrypt = e.decryptor(k.priv);
        return cellOf(() => decrypt(ct), asBytes);
      }
      case "encaps": {
        const k = await pair("own");
        const encaps = e.encapsulator(k.pub);
        return cellOf(
          () => encaps(undefined),
          (r) => {
            const { ct, ss } = e.encapsParts(r);
            const out = new Uint8Array(ct.length + ss.length);
            out.set(ct, 0);
            out.set(ss, ct.length);
            return out;
          },
        );
      }
      case "decaps": {
        const k = await pair("own");
        const { ct } = e.encapsParts(await e.encapsulator(k.pub)(undefined)); // made once
        const decaps = e.decapsulator(k.priv);
        return cellOf(() => decaps(ct), asBytes);
      }
      default:
        throw new Error(`op ${JSON.stringify(p.op)} has no bench cell for ${name}`);
    }
  }

  return {
    name,
    ops,
    stream: false,
    pk: true,
    exec,
    prepare,
    cell,
    // keypair: a fresh key pair from the library's generator, encoded.
    keypair: async () => e.exportPair(await e.generate()),
    // cellKeypair: the encoded key pair the cells use ("own", or "peer" for
    // derive), so a test can check what a cell produced.
    cellKeypair: async (role = "own") => e.exportPair(await pair(role)),
  };
}
