// The provider interface shared by the ops_* modules: a catalogue of
// algorithms, each with a case executor (for `verify`) and a cell factory
// (for `bench`), plus small helpers. Runtime-neutral.
//
// Provider = {
//   id, language, library, libraryVersion, runtime,
//   notes: [string],
//   algs: [Alg],
// }
// Alg = {
//   name, ops: [op], stream: boolean (accepts chunk > 0 in bench),
//   exec(c) -> Uint8Array | Promise<Uint8Array>
//       one verify case: c = { id, op, key, iv, aad, msg, counter, public,
//       private, sig, seed, m, ctx, deterministic } (bytes decoded; m is
//       null when absent); throws Rejected when the library refused the
//       input (an open whose tag does not verify, a signature that does not
//       verify), Unsupported when the library has no API for the variant,
//       any other error otherwise;
//   cell(p) -> Cell | Promise<Cell>
//       p = { op, key, iv, size, chunk, seed, msg } where msg is the whole
//       message for chunk = 0 and null for chunk > 0 (the cell then reads
//       Pieces of pattern(seed)); op is already checked against ops, chunk
//       against stream.
//   pk: true for public-key algorithms (pkalg.js), which also have
//   keypair() -> Promise<{ public, private }> (bytes, protocol encodings).
// }
// Cell = {
//   async: boolean   run() returns a promise (awaited by the timing loop),
//   run()            exactly one operation; returns a number folded from its
//                    output (its first byte, 0 for an empty output),
//   output()         the whole output of the latest run (for the checksum;
//                    may return a promise: a WebCrypto key is exported),
//   checksum()       optional, replaces run()+output() for streamed cells
//                    whose output is not kept whole: performs one operation
//                    and returns the checksum string of its output stream.
// }

export class Rejected extends Error {
  constructor(msg = "rejected") {
    super(msg);
    this.name = "Rejected";
  }
}

// Unsupported: the library has no API for this variant of a case's
// operation (protocol.md: the case is answered {"unsupported": ...}, counted
// as skipped).
export class Unsupported extends Error {
  constructor(msg) {
    super(msg);
    this.name = "Unsupported";
  }
}

// NotOffered: an error whose message starts with "not offered:" (protocol.md:
// the orchestrator records such cells as not offered, not failed).
export class NotOffered extends Error {
  constructor(msg) {
    super("not offered: " + msg);
    this.name = "NotOffered";
  }
}

export const EMPTY = new Uint8Array(0);

// first is the sink contribution of one output.
export function first(b) {
  return b.length === 0 ? 0 : b[0];
}

export function checkLen(what, b, want) {
  if (b.length !== want) throw new Error(`${what} must be ${want} bytes, got ${b.length}`);
}

// cipherCheck: a check(key, iv, size) that key and IV (ivName: "nonce" where
// the library calls it so) have the lengths the cipher takes and, where
// blocks is true, that the message is whole 16-byte blocks.
export function cipherCheck(name, keyLen, ivLen, blocks, ivName = "iv") {
  return (key, iv, size) => {
    checkLen("key", key, keyLen);
    checkLen(ivName, iv, ivLen);
    if (blocks) checkBlocks(size, name);
  };
}

// keyIvCheck: a check(key, iv) that both have the lengths an algorithm takes.
export function keyIvCheck(keyLen, ivLen) {
  return cipherCheck("", keyLen, ivLen, false);
}

export function checkBlocks(size, alg) {
  if (size % 16 !== 0) {
    throw new Error(`size ${size} is not a multiple of 16 (${alg} takes whole blocks, no padding)`);
  }
}

// checkedAlg: a cipher's Alg whose every verify case and every cell is
// checked first (check(key, iv, size): cipherCheck, keyIvCheck); exec and
// cell are the library's part.
export function checkedAlg(check, { exec, cell, ...alg }) {
  return {
    ...alg,
    exec: (c) => {
      check(c.key, c.iv, c.msg.length);
      return exec(c);
    },
    cell: (p) => {
      check(p.key, p.iv, p.size);
      return cell(p);
    },
  };
}

// A library's AES entries of the given modes in both key sizes: make(name,
// keyLen, mode) for aes-128-<mode> and aes-256-<mode>, mode by mode.
export function aesAlgs(make, modes) {
  return modes.flatMap((m) => [make(`aes-128-${m}`, 16, m), make(`aes-256-${m}`, 32, m)]);
}

// Key and IV/nonce lengths of the shared algorithm names.
export function keyLen(alg) {
  if (alg.startsWith("aes-128-")) return 16;
  if (alg.startsWith("aes-256-")) return 32;
  if (alg.includes("chacha20")) return 32;
  return 0;
}

export function nonceLen(alg) {
  if (alg.endsWith("-cbc") || alg.endsWith("-ctr")) return 16;
  if (alg.startsWith("xchacha20")) return 24;
  if (alg.endsWith("-gcm") || alg.endsWith("-ccm") || alg.startsWith("chacha20")) return 12;
  return 0;
}

export function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// ---- the provider's description -------------------------------------------

// packageVersion: an npm package's version as the entry point knows it
// (env.packageVersion), "(version unknown)" where it does not.
export function packageVersion(env, name) {
  return env.packageVersion ? env.packageVersion(name) : "(version unknown)";
}

// describe: the fields a provider's description opens with; the entry
// point's id and runtime (env) win over the module's own.
export function describe(env, { id, language = "javascript", library, libraryVersion }) {
  return { id: env.id || id, language, library, libraryVersion, runtime: env.runtime || "(runtime unknown)" };
}

// ---- noop -----------------------------------------------------------------

// The empty operation through the same loop: the per-call floor. A sync
// provider's noop is a plain call returning 0; an async provider's is an
// awaited empty async call, so the difference between the two floors is
// the per-call cost of the promise machinery.
class NoopCell {
  constructor() {
    this.async = false;
  }
  run() {
    return 0;
  }
  output() {
    return EMPTY;
  }
}

class AsyncNoopCell {
  constructor() {
    this.async = true;
  }
  async run() {
    return 0;
  }
  output() {
    return EMPTY;
  }
}

export function noopAlg({ async = false } = {}) {
  return {
    name: "noop",
    ops: ["noop"],
    stream: false,
    exec: () => EMPTY,
    cell: () => (async ? new AsyncNoopCell() : new NoopCell()),
  };
}
