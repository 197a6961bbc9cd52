// The leak request (since protocol version 5, docs/protocol.md § leak):
// single operations timed one call at a time, each from its own prepared
// input, for the dudect-style leak check (docs/leak.md). Driver's dispatch
// (protocol.js) calls leak(driver, req).

import { NotOffered, Rejected } from "./ops.js";
import { decodeCase, errorMessage, oneLine } from "./protocol.js";

// The leak request times one call: a clock coarser than this cannot (a browser's performance.now()).
export const LEAK_MAX_RESOLUTION_NS = 1000;

// One prepared case per measurement, each call timed alone. A public-key algorithm prepares its keys first
// (prepare); a symmetric one runs its case executor, which makes the
// cipher object per message as its bench cell does. A clock coarser than
// LEAK_MAX_RESOLUTION_NS (a browser's) cannot time one call: not offered.
export async function leak(d, req) {
  const a = d.lookup(req.alg);
  const op = req.op;
  if (!a.ops.includes(op)) throw new NotOffered(`op ${JSON.stringify(op)} for ${a.name} by ${d.prov.id}`);
  if (d.resolutionNs === 0 || d.resolutionNs > LEAK_MAX_RESOLUTION_NS) {
    throw new NotOffered(`the clock's resolution (${d.resolutionNs} ns) is too coarse to time one call`);
  }
  if (a.pk && typeof a.prepare !== "function") throw new NotOffered(`${a.name} prepares no case apart from running it`);
  const { inputs, order } = req;
  if (!Array.isArray(inputs) || !Array.isArray(order) || inputs.length === 0 || order.length === 0) {
    throw new Error("fields inputs and order must be non-empty arrays");
  }
  const calls = [];
  for (const [i, k] of order.entries()) {
    if (!Number.isInteger(k) || k < 0 || k >= inputs.length) {
      throw new Error(`order[${i}] is not an index into inputs (0 .. ${inputs.length - 1})`);
    }
    try {
      const c = decodeCase({ ...inputs[k], op });
      calls.push(a.pk ? await a.prepare(c) : () => a.exec(c));
    } catch (e) {
      throw new Error(`input ${k}: ${oneLine(errorMessage(e))}`);
    }
  }
  const clock = d.env.clock;
  const times = new Array(calls.length);
  const refused = new Array(calls.length).fill(false);
  for (let i = 0; i < calls.length; i++) {
    const t0 = clock.now();
    try {
      const r = calls[i]();
      if (r instanceof Promise) await r;
    } catch (e) {
      if (!(e instanceof Rejected)) throw new Error(`measurement ${i}: ${oneLine(errorMessage(e))}`);
      refused[i] = true;
    }
    times[i] = clock.diffNs(t0, clock.now());
  }
  const outcomes = inputs.map(() => "unused");
  order.forEach((k, i) => {
    if (outcomes[k] === "unused") outcomes[k] = refused[i] ? "rejected" : "ok";
  });
  return { ok: true, counter: "clock", times, outcomes };
}
