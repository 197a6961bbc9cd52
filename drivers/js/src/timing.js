// Timing: the injected clock and its measured resolution, warm-up, batch
// calibration, sampling and the sink.
//
// Runtime-neutral. The clock is injected by the entry point:
//   { source: "text for hello", now: () => reading, diffNs: (t0, t1) => ns }
// In Node, now is process.hrtime.bigint() (CLOCK_MONOTONIC); in a browser,
// performance.now(). Only two readings are taken per batch, so the cost of
// a reading (a BigInt in Node) is not spread over the operations.
//
// A cell is { async, run() } where run() performs exactly one operation and
// returns a number folded from its output. For a synchronous cell the batch
// is a plain loop; for an async cell (cell.async === true: WebCrypto) the
// loop awaits each run(), which is what a caller of that API pays. A sync
// cell's loop never awaits.

// MAX_BATCH caps calibration: the batch doubles from 1 until one batch lasts
// at least target_ns or reaches this many operations.
export const MAX_BATCH = 2 ** 30;

// globalSink receives every folded sink so no JIT can prove the results
// unused.
let globalSink = 0;

export function sinkValue() {
  return globalSink;
}

function absorb(s) {
  globalSink = (globalSink + s) % 4294967296;
}

// PROBE_READS: successive clock readings of the resolution probe
// (docs/protocol.md, "The measurement loop").
export const PROBE_READS = 20000;

// probeResolution: the smallest non-zero difference between PROBE_READS
// successive clock readings, in ns (0 if the clock never moved).
export function probeResolution(clock) {
  let best = 0;
  let prev = clock.now();
  for (let i = 0; i < PROBE_READS; i++) {
    const now = clock.now();
    const d = clock.diffNs(prev, now);
    if (d > 0 && (best === 0 || d < best)) best = d;
    prev = now;
  }
  return Math.round(best);
}

// timeBatchSync times n consecutive operations of a synchronous cell.
// Nothing but the calls to run() and the addition of their results is
// inside the timed region.
//
// A cell with work inside run() that is not the operation (a big streamed
// decrypt's ciphertext made again, docs/protocol.md "With chunk > 0") has
// takeUntimedNs(): the batch subtracts it.
//
// Where the clock has a cycle counter (clock.counter: Node with the rdtsc
// addon, tsc_node.js), it is read just inside the clock reads; the third
// element is its ticks over the batch, 0 without a counter or when untimed
// work was subtracted (the ticks would include it).
function timeBatchSync(clock, cell, n) {
  const untimed = cell.takeUntimedNs !== undefined;
  if (untimed) cell.takeUntimedNs(); // what the warm-up or the checksum left behind
  const counter = clock.counter || noCounter;
  let sink = 0;
  const t0 = clock.now();
  const c0 = counter();
  for (let i = 0; i < n; i++) {
    sink += cell.run();
  }
  const c1 = counter();
  const t1 = clock.now();
  absorb(sink);
  const left = untimed ? cell.takeUntimedNs() : 0;
  return [clock.diffNs(t0, t1) - left, sink, left === 0 ? c1 - c0 : 0];
}

function noCounter() {
  return 0;
}

// timeBatchAsync: the same for a cell whose run() returns a promise; each
// operation is awaited before the next starts.
// A TLS cell timing one side of a handshake subtracts the other side's
// calls and the transport the same way (takeUntimedNs).
async function timeBatchAsync(clock, cell, n) {
  const untimed = cell.takeUntimedNs !== undefined;
  if (untimed) cell.takeUntimedNs();
  const counter = clock.counter || noCounter;
  let sink = 0;
  const t0 = clock.now();
  const c0 = counter();
  for (let i = 0; i < n; i++) {
    sink += await cell.run();
  }
  const c1 = counter();
  const t1 = clock.now();
  absorb(sink);
  const left = untimed ? cell.takeUntimedNs() : 0;
  return [clock.diffNs(t0, t1) - left, sink, left === 0 ? c1 - c0 : 0];
}

// timeBatch returns [ns, sink, ticks] (a promise for async cells).
export function timeBatch(clock, cell, n) {
  return cell.async ? timeBatchAsync(clock, cell, n) : timeBatchSync(clock, cell, n);
}

// warmUp runs the cell in rounds of 1, 2, 4, ... operations (the last cut to
// the time left) until warmupNs has passed: at least one operation. Between
// rounds (outside any loop) the event loop may run.
export async function warmUp(clock, cell, warmupNs) {
  let ops = 0;
  let sink = 0;
  let n = 1;
  let ns = 0;
  const t0 = clock.now();
  for (;;) {
    const [, s] = await timeBatch(clock, cell, n);
    sink += s;
    ops += n;
    ns = clock.diffNs(t0, clock.now());
    if (ns >= warmupNs) break;
    const perOp = Math.max(1, Math.floor(ns / ops));
    n = Math.min(2 * n, Math.floor((warmupNs - ns) / perOp) + 1, MAX_BATCH);
  }
  return { warmup: { ops, ns: Math.round(ns) }, sink };
}

// calibrate doubles the batch from 1 until one batch takes at least
// targetNs, capped at MAX_BATCH: { batch, ops, sink }.
export async function calibrate(clock, cell, targetNs) {
  let sink = 0;
  let ops = 0;
  for (let batch = 1; ; batch *= 2) {
    const [ns, s] = await timeBatch(clock, cell, batch);
    sink += s;
    ops += batch;
    if (ns >= targetNs || batch >= MAX_BATCH) return { batch, ops, sink };
  }
}

// measure is docs/protocol.md's loop: warm-up, calibration when batch is 0,
// then `samples` timed batches: { batch, samples_ns, sink, warmup }.
export async function measure(clock, cell, batch, targetNs, warmupNs, samples) {
  const w = await warmUp(clock, cell, warmupNs);
  let sink = w.sink;
  if (batch === 0) {
    const c = await calibrate(clock, cell, targetNs);
    batch = c.batch;
    w.warmup.calibration_ops = c.ops;
    sink += c.sink;
  }
  const samplesNs = new Array(samples);
  const ticks = new Array(samples);
  for (let i = 0; i < samples; i++) {
    const [ns, s, t] = await timeBatch(clock, cell, batch);
    samplesNs[i] = Math.round(ns);
    ticks[i] = Math.round(t);
    sink += s;
  }
  const m = { batch, samples_ns: samplesNs, sink, warmup: w.warmup };
  if (clock.counter && ticks.every((t) => t > 0)) m.samples_tsc = ticks; // a partial list would be worse than none
  return m;
}
