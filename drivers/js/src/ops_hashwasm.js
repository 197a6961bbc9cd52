// wasm:hash-wasm — hash-wasm's hashes compiled to WebAssembly. The same
// module serves browser:wasm through the browser bridge.
//
// Runtime-neutral: versions and runtime text come from the entry point.

import { createBLAKE2b, createBLAKE2s, createHMAC, createSHA256, createSHA3, createSHA512, createSM3 } from "hash-wasm";
import { PATTERN_LEN, Pieces, pattern } from "./input.js";
import { HashCell } from "./cells.js";
import { describe, noopAlg, packageVersion } from "./ops.js";

// hash-wasm's create*() functions are async (they instantiate the wasm
// module) and resolve to a hasher whose init/update/digest are synchronous:
// the hasher is made once per cell, outside the timed region, and the
// timed operation is init(), update (whole message or per piece),
// digest('binary') (which copies the digest out of wasm memory into a new
// Uint8Array). update copies its input into the wasm memory. HasherCell is
// a HashCell (cells.js).
class HasherCell extends HashCell {
  finish(h) {
    return h.digest("binary");
  }
}

function cellFor(h, p) {
  const pieces = p.chunk > 0 ? new Pieces(pattern(p.seed), PATTERN_LEN, p.size, p.chunk) : null;
  const init = () => {
    h.init();
    return h;
  };
  return new HasherCell(init, p.msg, pieces);
}

function digestOnce(h, msg) {
  h.init();
  h.update(msg);
  return h.digest("binary");
}

function hashAlg(name, create) {
  let shared = null; // one hasher for verify cases (sync after creation)
  return {
    name,
    ops: ["hash"],
    stream: true,
    exec: async (c) => {
      if (shared === null) shared = await create();
      return digestOnce(shared, c.msg);
    },
    cell: async (p) => cellFor(await create(), p),
  };
}

// HMAC: createHMAC(createSHA256(), key) once per cell; its init() restarts
// from the prepared key block (ipad), digest() runs the outer hash.
function hmacAlg() {
  return {
    name: "hmac-sha256",
    ops: ["mac"],
    stream: true,
    exec: async (c) => digestOnce(await createHMAC(createSHA256(), c.key), c.msg),
    cell: async (p) => cellFor(await createHMAC(createSHA256(), p.key), p),
  };
}

// env: { id, runtime, packageVersion(name) } from the entry point.
export function createProvider(env = {}) {
  return {
    ...describe(env, {
      id: "wasm:hash-wasm",
      language: "wasm",
      library: "hash-wasm (hashes compiled to WebAssembly)",
      libraryVersion: `hash-wasm ${packageVersion(env, "hash-wasm")}`,
    }),
    notes: [
      "API: the synchronous hasher interface. create*() (async: it instantiates the wasm module) once per cell, outside the timed region; one operation is init(), update(msg) (or update per piece when chunk>0), digest('binary'). update copies its input into the wasm memory; digest('binary') copies the digest out into a new Uint8Array. The one-shot async helpers (sha256(data) -> Promise<hex string>) are not used: they return hex.",
      "HMAC: createHMAC(createSHA256(), key) once per cell (key block prepared there); init() re-absorbs the prepared ipad block, digest() runs the outer hash.",
      "Hashes: sha256 (createSHA256), sha512, sha3-256/512 (createSHA3(256|512)), blake2b-512 (createBLAKE2b(512)), blake2s-256 (createBLAKE2s(256)), sm3 (createSM3); all streamable.",
      "Not offered: every cipher and AEAD (hash-wasm has hashes, MACs and KDFs only).",
      "The timing loop is synchronous (no await): noop is a plain synchronous empty call.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg(),
      hashAlg("sha256", createSHA256),
      hashAlg("sha512", createSHA512),
      hashAlg("sha3-256", () => createSHA3(256)),
      hashAlg("sha3-512", () => createSHA3(512)),
      hashAlg("blake2b-512", () => createBLAKE2b(512)),
      hashAlg("blake2s-256", () => createBLAKE2s(256)),
      hashAlg("sm3", createSM3),
      hmacAlg(),
    ],
  };
}
