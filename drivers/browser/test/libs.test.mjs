// browser:asmcrypto and browser:jsrsasign (issue 36), one Chromium each,
// kept cheap: hello, a few algorithms' shared vectors (jsrsasign's known
// Wycheproof failures pinned as in the JavaScript driver's jsrsasign.test.js),
// bench checksums equal to the same module's in Node and to node:crypto's,
// a streamed seal, and a browser signature the Node driver verifies.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Bridge, benchReq, casesDir, judgeAll, loadCases, nodeRequest, stripped } from "./helpers.mjs";
import { KNOWN_FAILURES } from "../../js/test/known_failures.js";

const SLOW = { timeout: 600000 };

async function vectors(b, alg, limit = Infinity) {
  const cases = loadCases(join(casesDir(), `${alg}.jsonl`)).slice(0, limit);
  const resp = await b.request({ cmd: "verify", alg, cases: cases.map(stripped) });
  assert.equal(resp.ok, true, `${alg}: ${resp.error}`);
  const ids = new Set(cases.map((c) => c.id));
  const want = Object.keys(KNOWN_FAILURES)
    .filter((id) => ids.has(id))
    .map((id) => `${id}: accepted an invalid case`);
  const { failures, passed } = judgeAll(cases, resp.results);
  assert.deepEqual(failures, want, alg);
  assert.ok(passed > 0, alg);
}

test("bridge browser:asmcrypto", SLOW, async () => {
  const b = new Bridge("browser:asmcrypto");
  try {
    const hello = await b.request({ cmd: "hello", protocol: 7 });
    assert.equal(hello.ok, true, hello.error);
    assert.equal(hello.library_version, "asmcrypto.js 2.3.2");
    assert.match(hello.runtime, /^Chromium /);
    assert.ok(hello.stream.includes("aes-128-gcm") && hello.stream.includes("aes-128-cbc"));
    for (const alg of ["aes-128-cbc", "aes-128-ctr", "aes-128-gcm", "aes-128-ccm", "sha256"]) await vectors(b, alg);
    for (const [alg, op, size, chunk] of [
      ["aes-128-gcm", "seal", 1024, 0],
      ["aes-128-gcm", "open", 16384, 0],
      ["aes-128-cbc", "decrypt", 16384, 0],
      ["aes-128-gcm", "seal", 100000, 4096],
      ["aes-128-ctr", "decrypt", 100000, 4096],
    ]) {
      const iv = /-(cbc|ctr)$/.test(alg) ? { iv: "a0".repeat(16) } : {};
      const req = benchReq(alg, op, size, { chunk, ...iv });
      const r = await b.request(req);
      assert.equal(r.ok, true, `${alg}/${op}/${chunk}: ${r.error}`);
      const small = { ...req, target_ns: 1000, warmup_ns: 0, samples: 1 };
      assert.equal(r.checksum, (await nodeRequest("js:asmcrypto", small)).checksum, `${alg}/${op} vs js:asmcrypto`);
      assert.equal(r.checksum, (await nodeRequest("js:node", small)).checksum, `${alg}/${op} vs js:node`);
    }
    const r = await b.request(benchReq("aes-128-gcm", "open", 4096, { chunk: 1024 }));
    assert.equal(r.ok, false);
    assert.match(r.error, /^not offered: streamed aes-128-gcm open/);
  } finally {
    b.kill();
  }
});

test("bridge browser:jsrsasign", SLOW, async () => {
  const b = new Bridge("browser:jsrsasign");
  try {
    const hello = await b.request({ cmd: "hello", protocol: 7 });
    assert.equal(hello.ok, true, hello.error);
    assert.match(hello.library_version, /^jsrsasign 11\.1\.5/);
    await vectors(b, "rsa-2048-pss");
    await vectors(b, "ecdsa-p256", 8);
    // a P-256 key pair and signature made in the browser, verified by node:crypto
    const kp = await b.request({ cmd: "keypair", alg: "ecdsa-p256" });
    assert.equal(kp.ok, true, kp.error);
    const signed = await b.request({
      cmd: "verify",
      alg: "ecdsa-p256",
      cases: [{ id: "s", op: "sign", private: kp.private, msg: "616263" }],
    });
    const sig = signed.results[0].out;
    assert.equal(typeof sig, "string", JSON.stringify(signed));
    const check = await nodeRequest("js:node", {
      cmd: "verify",
      alg: "ecdsa-p256",
      cases: [{ id: "v", op: "verify", public: kp.public, msg: "616263", sig }],
    });
    assert.deepEqual(check.results, [{ id: "v", out: "01" }]);
    const r = await b.request(benchReq("rsa-2048-pss", "verify", 32, { target_ns: 0, samples: 2 }));
    assert.equal(r.ok, true, r.error);
  } finally {
    b.kill();
  }
});
