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

// measureResolution: the smallest non-zero difference between successive
// clock readings, in ns (0 if the clock never moved).
export function measureResolution(clock) {
  let best = Infinity;
  let prev = clock.now();
  for (let i = 0; i < 20000; i++) {
    const now = clock.now();
    const d = clock.diffNs(prev, now);
    if (d > 0 && d < best) best = d;
    prev = now;
  }
  return best === Infinity ? 0 : Math.round(best);
}

// timeBatchSync times n consecutive operations of a synchronous cell.
// Nothing but the calls to run() and the addition of their results is
// inside the timed region.
function timeBatchSync(clock, cell, n) {
  let sink = 0;
  const t0 = clock.now();
  for (let i = 0; i < n; i++) {
    sink += cell.run();
  }
  const t1 = clock.now();
  absorb(sink);
  return [clock.diffNs(t0, t1), sink];
}

// timeBatchAsync: the same for a cell whose run() returns a promise; each
// operation is awaited before the next starts.
async function timeBatchAsync(clock, cell, n) {
  let sink = 0;
  const t0 = clock.now();
  for (let i = 0; i < n; i++) {
    sink += await cell.run();
  }
  const t1 = clock.now();
  absorb(sink);
  return [clock.diffNs(t0, t1), sink];
}

// timeBatch returns [ns, sink] (a promise for async cells).
export function timeBatch(clock, cell, n) {
  return cell.async ? timeBatchAsync(clock, cell, n) : timeBatchSync(clock, cell, n);
}

// warmup runs the cell for at least warmupNs (and at least one operation),
// in rounds that double in size but do not run far past the deadline.
// Between rounds (outside any loop) the event loop may run.
export async function warmup(clock, cell, warmupNs) {
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
    const perOp = Math.max(1, ns / ops);
    const remaining = Math.floor((warmupNs - ns) / perOp) + 1;
    n = Math.min(2 * n, remaining, MAX_BATCH);
  }
  return { ops, ns: Math.round(ns), sink };
}

// calibrate doubles the batch from 1 until one batch takes at least
// targetNs, capped at MAX_BATCH.
export async function calibrate(clock, cell, targetNs) {
  let sink = 0;
  for (let batch = 1; ; batch *= 2) {
    const [ns, s] = await timeBatch(clock, cell, batch);
    sink += s;
    if (ns >= targetNs || batch >= MAX_BATCH) return { batch, sink };
  }
}

// sample takes n samples of batch operations each.
export async function sample(clock, cell, batch, n) {
  const samples = new Array(n);
  let sink = 0;
  for (let i = 0; i < n; i++) {
    const [ns, s] = await timeBatch(clock, cell, batch);
    samples[i] = Math.round(ns);
    sink += s;
  }
  return { samples, sink };
}
