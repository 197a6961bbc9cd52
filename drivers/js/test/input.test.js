// The check values of protocol.md, "The fixed input", and the helpers
// around them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  Fnv64,
  MAX_CACHED_VIEWS,
  PATTERN_LEN,
  Pieces,
  checksum,
  fnv1a64,
  fromHex,
  message,
  pattern,
  toHex,
} from "../src/input.js";

const SEED = 2654435769;

test("first 16 bytes of the pattern", () => {
  assert.equal(toHex(pattern(SEED).subarray(0, 16)), "193e3ab51f37d0bf39b8eeb4d33cb85f");
});

test("FNV-1a 64 of 1 KiB and of the whole 1 MiB period", () => {
  const p = pattern(SEED);
  assert.equal(p.length, 2 * PATTERN_LEN, "the pattern is kept twice (2 MiB)");
  assert.deepEqual(p.subarray(PATTERN_LEN), p.subarray(0, PATTERN_LEN));
  assert.equal(fnv1a64(p.subarray(0, 1024)), "7ef541935f3b9cc9");
  assert.equal(fnv1a64(p.subarray(0, PATTERN_LEN)), "1846d3257d44728c");
});

test("SHA-256 of 1 KiB and its checksum", () => {
  const d = createHash("sha256").update(message(SEED, 1024)).digest();
  assert.equal(toHex(d), "8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01");
  assert.equal(checksum(d), "00000020:fb4898be6151a393");
});

test("checksum of the empty output", () => {
  assert.equal(checksum(new Uint8Array(0)), "00000000:cbf29ce484222325");
});

test("FNV-1a 64 is incremental", () => {
  const p = pattern(SEED);
  const f = new Fnv64();
  for (let off = 0; off < PATTERN_LEN; off += 1000) f.update(p.subarray(off, Math.min(off + 1000, PATTERN_LEN)));
  assert.equal(f.hex(), "1846d3257d44728c");
  assert.equal(f.checksum(), "00100000:1846d3257d44728c");
});

test("the message wraps every 1 MiB", () => {
  const n = PATTERN_LEN + 100;
  const m = message(7, n);
  const p = pattern(7);
  for (let i = 0; i < n; i += 4099) assert.equal(m[i], p[i % PATTERN_LEN], `M[${i}]`);
  assert.equal(m[n - 1], p[99], "last byte does not wrap");
});

// piecesConcat reads every piece and joins them.
function piecesConcat(pc) {
  const out = new Uint8Array(pc.size);
  let off = 0;
  for (let k = 0; k < pc.count; k++) {
    const v = pc.at(k);
    out.set(v, off);
    off += v.length;
  }
  assert.equal(off, pc.size);
  return out;
}

test("pieces of the doubled pattern are the message, cached or not", () => {
  const cases = [
    [1024, 48], // cached, tail
    [PATTERN_LEN + 3, 4096], // cached, wraps, tail
    [3 * PATTERN_LEN + 5, 1000], // 3146 pieces: fewer than the 131072 positions, all cached
    [3 * (MAX_CACHED_VIEWS + 10), 3], // more distinct views than the cache holds
    [PATTERN_LEN, PATTERN_LEN], // one whole period
    [0, 64], // empty
  ];
  for (const [size, chunk] of cases) {
    const pc = new Pieces(pattern(SEED), PATTERN_LEN, size, chunk);
    assert.deepEqual(piecesConcat(pc), message(SEED, size), `size ${size} chunk ${chunk}`);
  }
  const uncached = new Pieces(pattern(SEED), PATTERN_LEN, 3 * (MAX_CACHED_VIEWS + 10), 3);
  assert.equal(uncached.views, null, "beyond the cap views are made per piece");
  const cached = new Pieces(pattern(SEED), PATTERN_LEN, 64 * PATTERN_LEN, 4096);
  assert.equal(cached.views.length, PATTERN_LEN / 4096, "views repeat with the 1 MiB period");
});

test("pieces of a whole buffer (a ciphertext)", () => {
  const ct = message(9, 10000);
  const pc = new Pieces(ct, 0, ct.length, 333);
  assert.deepEqual(piecesConcat(pc), ct);
});

test("hex helpers", () => {
  assert.deepEqual([...fromHex("key", "00ffA0")], [0, 255, 160]);
  assert.equal(fromHex("key", undefined).length, 0);
  assert.throws(() => fromHex("key", "0g"), /bad hex in "key"/);
  assert.throws(() => fromHex("iv", "abc"), /bad hex in "iv"/);
  assert.equal(toHex(Uint8Array.of(0xab, 0x01)), "ab01");
});

test("seed must be a non-zero 32-bit integer", () => {
  assert.throws(() => pattern(0));
  assert.throws(() => pattern(2 ** 32));
});
