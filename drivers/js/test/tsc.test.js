// The time-stamp counter addon (native/tsc.c, loaded by src/tsc_node.js):
// it loads on x86-64, its ticks only go up, and a bench response's
// samples_tsc follows the clock (ticks per ns at the counter's own rate,
// within a factor of 3: a check that the count brackets the batch, not a
// timing threshold).

import { test } from "node:test";
import assert from "node:assert/strict";
import { arch } from "node:process";
import { counter, counterStatus } from "../src/tsc_node.js";
import { clock } from "../src/main_node.js";
import { measure } from "../src/timing.js";

const X64 = arch === "x64";

test("the counter addon loads on x86-64 (make -C native builds it)", () => {
  if (!X64) {
    assert.equal(counter, null);
    assert.match(counterStatus, /^none: /);
    return;
  }
  assert.equal(typeof counter, "function", counterStatus);
  assert.match(counterStatus, /^rdtsc through a Node-API addon/);
});

test("ticks increase monotonically", { skip: !X64 && "no time-stamp counter" }, () => {
  let prev = counter();
  for (let i = 0; i < 10000; i++) {
    const now = counter();
    assert.ok(now >= prev, `${now} after ${prev}`);
    prev = now;
  }
  assert.ok(prev > 0);
});

test("samples_tsc brackets each batch: ticks = time x the counter's rate", { skip: !X64 && "no counter" }, async () => {
  // the counter's rate over 20 ms of the clock
  const t0 = clock.now();
  const c0 = counter();
  while (clock.diffNs(t0, clock.now()) < 20e6);
  const rate = (counter() - c0) / clock.diffNs(t0, clock.now()); // ticks per ns (about)
  assert.ok(rate > 0.1 && rate < 20, `rate ${rate} ticks/ns`);
  let x = 0;
  const cell = { run: () => (x = (x * 31 + 7) % 1000003) & 1 };
  const m = await measure(clock, cell, 0, 1e6, 0, 5);
  assert.equal(m.samples_tsc.length, m.samples_ns.length);
  m.samples_tsc.forEach((t, i) => {
    const r = t / m.samples_ns[i] / rate;
    assert.ok(r > 1 / 3 && r < 3, `sample ${i}: ${t} ticks over ${m.samples_ns[i]} ns is ${r}x the rate`);
  });
  // a batch whose untimed work was subtracted sends no ticks: its ticks would include that work
  const untimedCell = { run: () => 1, takeUntimedNs: () => 1 };
  const u = await measure(clock, untimedCell, 4, 0, 0, 2);
  assert.equal(u.samples_tsc, undefined);
});
