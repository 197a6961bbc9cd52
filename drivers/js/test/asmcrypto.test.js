// js:asmcrypto beyond the generic tests: the library bug behind its
// `not offered` streamed open (shown on asmcrypto.js itself, so the test
// fails once a release fixes it), and a big streamed decrypt that makes its
// ciphertext again piece by piece (the threshold lowered) with the same
// checksum as node:crypto's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { AES_CCM, AES_GCM } from "asmcrypto.js/asmcrypto.all.es8.js";
import { driverFor, keyIV, request, withRegenerationAbove } from "./helpers.js";

const SEED = 2654435769;

test("asmcrypto.js 2.3.2: GCM/CCM Decrypt_process fails a ciphertext fed in two pieces, one-shot passes", () => {
  const key = new Uint8Array(16);
  const nonce = new Uint8Array(12);
  const msg = new Uint8Array(1024).map((_, i) => (i * 7) & 0xff);
  for (const [name, make] of [
    ["GCM", () => new AES_GCM(key, nonce, undefined, 16)],
    ["CCM", () => new AES_CCM(key, nonce, undefined, 16, msg.length)],
  ]) {
    const ct = make().encrypt(msg);
    assert.deepEqual(make().decrypt(ct), msg, `${name} one-shot`);
    const d = make();
    const proc = name === "GCM" ? (x) => d.AES_GCM_Decrypt_process(x) : (x) => d.AES_CCM_Decrypt_process(x);
    const fin = name === "GCM" ? () => d.AES_GCM_Decrypt_finish() : () => d.AES_CCM_Decrypt_finish();
    assert.throws(
      () => {
        proc(ct.subarray(0, 512));
        proc(ct.subarray(512));
        fin();
      },
      /data integrity check failed/,
      `${name}: two pieces (if this passes, the library was fixed: offer the streamed open)`,
    );
  }
});

test("js:asmcrypto: streamed open is not offered, with the reason", async () => {
  const d = await driverFor("js:asmcrypto");
  const { key, iv } = keyIV("aes-128-gcm");
  const base = { cmd: "bench", alg: "aes-128-gcm", key, iv, size: 4096, seed: SEED, samples: 1 };
  const r = await request(d, { ...base, op: "open", chunk: 1024 });
  assert.equal(r.ok, false);
  assert.match(r.error, /^not offered: streamed aes-128-gcm open: .*Decrypt_process/);
  const s = await request(d, { ...base, op: "seal", chunk: 1024, target_ns: 0 });
  assert.equal(s.ok, true, s.error);
});

test("js:asmcrypto: a big streamed decrypt regenerates its ciphertext (same checksum as js:node)", async () => {
  await withRegenerationAbove("../src/ops_asmcrypto.js", 100, async () => {
    const a = await driverFor("js:asmcrypto");
    const n = await driverFor("js:node");
    for (const alg of ["aes-128-cbc", "aes-128-ctr", "aes-256-ecb"]) {
      const { key, iv } = keyIV(alg);
      const req = {
        cmd: "bench",
        alg,
        op: "decrypt",
        key,
        iv,
        size: 64 * 1024,
        chunk: 4096,
        seed: SEED,
        batch: 2,
        samples: 2,
      };
      const ra = await request(a, req);
      const rn = await request(n, req);
      assert.equal(ra.ok, true, ra.error);
      assert.equal(ra.checksum, rn.checksum, `${alg}: checksum`);
      assert.equal(ra.checksum_after, ra.checksum, `${alg}: checksum_after`);
      for (const ns of ra.samples_ns) assert.ok(ns > 0, `${alg}: sample ${ns}`);
    }
  });
});
