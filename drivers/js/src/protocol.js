// Protocol version 7 (docs/protocol.md): decoding requests, dispatching
// hello / verify / bench / keypair / leak / tls-serve / tls-result /
// tls-connect / bye, encoding responses, and
// turning any error into {"ok":false,"error":...}.
//
// Runtime-neutral: the entry point (main_node.js, or the browser bridge)
// owns the transport and passes each request line to handleLine, which
// resolves to exactly one response line (without the newline).

import { checksum, fromHex, message, toHex } from "./input.js";
import { measure, PROBE_READS, probeResolution } from "./timing.js";
import { NotOffered, Rejected, Unsupported } from "./ops.js";
import { leak } from "./leak.js";

export const PROTOCOL_VERSION = 7;

// DEFAULT_TARGET_NS: the calibration target when a bench request has none.
const DEFAULT_TARGET_NS = 5000000;
// The oldest version a client may ask for (later versions are additive).
export const MIN_PROTOCOL_VERSION = 1;
export const MAX_SIZE = 2 ** 31;
export const MAX_CHUNK = 1 << 20;

// oneLine squeezes an error message onto one line.
export function oneLine(s) {
  const t = String(s).split(/\s+/).filter(Boolean).join(" ");
  return t === "" ? "error" : t;
}

export function errorMessage(e) {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

export function encodeError(e) {
  return JSON.stringify({ ok: false, error: oneLine(errorMessage(e)) });
}

// decodeRequest parses one request line into an object with a "cmd".
export function decodeRequest(line) {
  let r;
  try {
    r = JSON.parse(line);
  } catch (e) {
    throw new Error(`cannot parse request: ${errorMessage(e)}`);
  }
  if (r === null || typeof r !== "object" || Array.isArray(r)) {
    throw new Error("cannot parse request: not a JSON object");
  }
  if (typeof r.cmd !== "string" || r.cmd === "") throw new Error('request has no "cmd"');
  return r;
}

// intField reads an optional non-negative integer field (default when
// absent); required fields pass def = undefined.
function intField(req, name, def, min, max) {
  const v = req[name];
  if (v === undefined || v === null) {
    if (def === undefined) throw new Error(`request has no "${name}"`);
    return def;
  }
  if (typeof v !== "number" || !Number.isInteger(v)) throw new Error(`"${name}" must be an integer`);
  if (v < min || v > max) throw new Error(`"${name}" ${v} out of range [${min}, ${max}]`);
  return v;
}

// Driver serves one provider. env = {
//   clock: see timing.js,
//   peakRssKb: () => number (0 where unknown),
//   gc: optional () => void, a full collection before each cell's warm-up,
// }
export class Driver {
  constructor(provider, env) {
    this.prov = provider;
    this.env = env;
    this.resolutionNs = probeResolution(env.clock);
    this.quit = false; // true after bye
  }

  // handleLine answers one request line with one response line. It never
  // rejects: any error becomes an error response. Callers await each line
  // before passing the next (responses are in order and a bench must not
  // share the thread with another request).
  async handleLine(line) {
    try {
      const req = decodeRequest(line);
      switch (req.cmd) {
        case "hello":
          return JSON.stringify(this.hello(req));
        case "verify":
          return JSON.stringify(await this.verify(req));
        case "bench":
          return JSON.stringify(await this.bench(req));
        case "keypair":
          return JSON.stringify(await this.keypair(req));
        case "leak":
          return JSON.stringify(await leak(this, req));
        case "tls-serve":
        case "tls-result":
        case "tls-connect":
          return JSON.stringify(await this.tlsCommand(req));
        case "bye":
          this.quit = true;
          return JSON.stringify({ ok: true });
        default:
          throw new Error(`unknown cmd ${JSON.stringify(req.cmd)}`);
      }
    } catch (e) {
      return encodeError(e);
    }
  }

  // hello answers with the highest version this driver implements (7) to a
  // request for any version >= 1: versions are additive, and the
  // orchestrator decides whether the answer is enough.
  hello(req) {
    const v = req.protocol;
    if (v !== undefined && !(Number.isInteger(v) && v >= MIN_PROTOCOL_VERSION)) {
      throw new Error(
        `protocol ${JSON.stringify(v)} not supported (this driver speaks ${MIN_PROTOCOL_VERSION} to ${PROTOCOL_VERSION})`,
      );
    }
    const p = this.prov;
    const offers = {};
    const stream = [];
    for (const a of p.algs) {
      offers[a.name] = [...a.ops];
      if (a.stream) stream.push(a.name);
    }
    stream.sort();
    return {
      ok: true,
      protocol: PROTOCOL_VERSION,
      provider: p.id,
      language: p.language,
      library: p.library,
      library_version: p.libraryVersion,
      runtime: p.runtime,
      clock: {
        source: this.env.clock.source,
        resolution_ns: this.resolutionNs,
        probe_reads: PROBE_READS,
        // samples_tsc's source, or why there is none (Node: tsc_node.js)
        ...(this.env.clock.counterStatus ? { counter: this.env.clock.counterStatus } : {}),
      },
      offers,
      stream,
      notes: p.notes,
    };
  }

  lookup(name) {
    if (typeof name !== "string" || name === "") throw new Error('request has no "alg"');
    const a = this.prov.algs.find((x) => x.name === name);
    if (!a) throw new NotOffered(`alg ${JSON.stringify(name)} is not offered by ${this.prov.id}`);
    return a;
  }

  async verify(req) {
    const a = this.lookup(req.alg);
    if (!Array.isArray(req.cases)) throw new Error('request has no "cases" array');
    const results = [];
    for (const rc of req.cases) results.push(await runCase(a, rc));
    return { ok: true, results };
  }

  async bench(req) {
    const a = this.lookup(req.alg);
    const op = req.op;
    if (typeof op !== "string" || op === "") throw new Error('request has no "op"');
    if (!a.ops.includes(op)) {
      throw new NotOffered(`op ${JSON.stringify(op)} is not offered for ${a.name} by ${this.prov.id}`);
    }
    const size = intField(req, "size", undefined, 0, MAX_SIZE);
    const seed = intField(req, "seed", undefined, 0, 0xffffffff);
    if (seed === 0) throw new Error(`seed ${seed} must be a non-zero 32-bit integer`);
    const samples = intField(req, "samples", undefined, 1, 1e6);
    const chunk = intField(req, "chunk", 0, 0, MAX_CHUNK);
    const batch = intField(req, "batch", 0, 0, Number.MAX_SAFE_INTEGER);
    const targetNs = intField(req, "target_ns", DEFAULT_TARGET_NS, 0, Number.MAX_SAFE_INTEGER);
    const warmupNs = intField(req, "warmup_ns", 0, 0, Number.MAX_SAFE_INTEGER);
    if (chunk > 0 && !a.stream) {
      throw new NotOffered(`${a.name} has no streaming API in ${this.prov.id} (chunk ${chunk}); only one-shot cells`);
    }
    const key = fromHex("key", req.key);
    const iv = fromHex("iv", req.iv);
    const msg = chunk > 0 ? null : message(seed, size);

    // A TLS cell's test PKI (protocol 7): file names, read by the cell.
    const tls = req.tls;
    if (a.tls && (tls === undefined || tls === null)) throw new Error("tls: no PKI in the request");
    if (a.tls && (typeof tls !== "object" || Array.isArray(tls))) throw new Error('tls: "tls" is not an object');

    const cell = await a.cell({ op, key, iv, size, chunk, seed, msg, tls });

    // The checksum of one operation on the fixed input, outside any timing.
    const sum = await checksumOfOne(cell);

    // Preparation garbage should not be collected inside a sample; a request
    // that only asks one operation's checksum times nothing worth it
    // (docs/protocol.md, "The measurement loop").
    if (this.env.gc && !checksumOnly(batch, samples, targetNs, warmupNs)) this.env.gc();

    const m = await measure(this.env.clock, cell, batch, targetNs, warmupNs, samples);
    // One more operation, untimed: state leaking between operations shows here.
    const after = await checksumOfOne(cell);
    const resp = { ok: true, ...m, checksum: sum, checksum_after: after, peak_rss_kb: this.env.peakRssKb() };
    // What the untimed handshake showed (group, cipher, flights, ...).
    if (a.tls) resp.tls = cell.report();
    return resp;
  }

  // tlsCommand: the interop commands (protocol 7), served by the provider's
  // tls part where it has one.
  async tlsCommand(req) {
    const t = this.prov.tls;
    if (!t) throw new NotOffered(`${req.cmd}: ${this.prov.id} has no TLS cells`);
    if (req.cmd === "tls-serve") return await t.serve(req);
    if (req.cmd === "tls-result") return await t.result(req);
    return await t.connect(req);
  }

  // keypair: a fresh key pair of a public-key algorithm from the provider's
  // own generator, in the protocol's encodings (for cross-verification).
  async keypair(req) {
    const a = this.lookup(req.alg);
    if (typeof a.keypair !== "function") {
      throw new NotOffered(`${a.name} has no key pair (not a public-key algorithm)`);
    }
    const k = await a.keypair();
    return { ok: true, public: toHex(k.public), private: toHex(k.private) };
  }
}

// decodeCase turns a verify case's hex fields into bytes.
export function decodeCase(rc) {
  if (rc === null || typeof rc !== "object" || Array.isArray(rc)) {
    throw new Error("case is not an object");
  }
  const c = {
    id: rc.id,
    op: rc.op,
    key: fromHex("key", rc.key),
    iv: fromHex("iv", rc.iv),
    aad: fromHex("aad", rc.aad),
    msg: fromHex("msg", rc.msg),
    counter: 0,
    // public-key cases (since version 2)
    public: fromHex("public", rc.public),
    private: fromHex("private", rc.private),
    sig: fromHex("sig", rc.sig),
    seed: fromHex("seed", rc.seed),
    m: rc.m === undefined || rc.m === null ? null : fromHex("m", rc.m),
    ctx: fromHex("ctx", rc.ctx),
    deterministic: rc.deterministic === true,
  };
  if (rc.deterministic !== undefined && rc.deterministic !== null && typeof rc.deterministic !== "boolean") {
    throw new Error('"deterministic" must be a boolean');
  }
  if (rc.counter !== undefined && rc.counter !== null) {
    if (!Number.isInteger(rc.counter) || rc.counter < 0 || rc.counter > 0xffffffff) {
      throw new Error(`counter ${rc.counter} does not fit 32 bits`);
    }
    c.counter = rc.counter;
  }
  return c;
}

// runCase is the case executor the verify request and the native vector
// test share: one of {id, out}, {id, rejected: true}, {id, unsupported},
// {id, error}.
export async function runCase(alg, rc) {
  const id = rc !== null && typeof rc === "object" ? rc.id : undefined;
  try {
    const c = decodeCase(rc);
    if (alg.tls) return { id, unsupported: `${alg.name} has no verify cases (verified by interop)` };
    if (!alg.ops.includes(c.op)) throw new NotOffered(`op ${JSON.stringify(c.op)} for ${alg.name}`);
    const out = await alg.exec(c);
    return { id, out: toHex(out) };
  } catch (e) {
    if (e instanceof Rejected) return { id, rejected: true };
    if (e instanceof Unsupported) return { id, unsupported: oneLine(errorMessage(e)) };
    return { id, error: oneLine(errorMessage(e)) };
  }
}

// checksumOfOne: the checksum of one operation, outside any timing (a
// streamed cell folds its whole output stream itself).
async function checksumOfOne(cell) {
  if (typeof cell.checksum === "function") return await cell.checksum();
  await cell.run();
  return checksum(await cell.output());
}

// checksumOnly: a request that times one operation only to have its
// checksum (cross-checks and differential inputs ask hundreds of these):
// no garbage collection before it, which would cost more than the operation.
function checksumOnly(batch, samples, targetNs, warmupNs) {
  return batch === 1 && samples === 1 && targetNs === 0 && warmupNs === 0;
}
