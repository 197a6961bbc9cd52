// js:jsrsasign against the shared vectors, with its known failures pinned:
// jsrsasign 11.1.5 accepts three invalid Wycheproof signatures. The test
// fails if another case fails, or if one of these starts to pass (then the
// library was fixed: update the list, docs and README). ECDSA verification
// is pure JavaScript (about 0.15 s a signature on a loaded 2-core machine),
// so only the first cases of the P-256 file run here; `cryptobench verify`
// runs them all.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { casesDir, judgeAll, loadCases, stripped } from "./cases.js";
import { driverFor, request } from "./helpers.js";
import { KNOWN_FAILURES } from "./known_failures.js";

const CASES = [
  ["rsa-2048-pss", Infinity],
  ["rsa-2048-pkcs1", Infinity],
  ["ecdsa-p256", 12],
];

for (const [alg, limit] of CASES) {
  test(`jsrsasign ${alg}: the shared vectors, exactly the known failures`, async () => {
    const d = await driverFor("js:jsrsasign");
    const cases = loadCases(join(casesDir(), `${alg}.jsonl`)).slice(0, limit);
    const resp = await request(d, { cmd: "verify", alg, cases: cases.map(stripped) });
    assert.equal(resp.ok, true, resp.error);
    const { failures, passed } = judgeAll(cases, resp.results);
    const ids = new Set(cases.map((c) => c.id));
    const want = Object.keys(KNOWN_FAILURES)
      .filter((id) => ids.has(id))
      .map((id) => `${id}: accepted an invalid case`);
    assert.deepEqual(failures, want);
    assert.ok(passed >= cases.length - want.length - 5, `${passed} of ${cases.length} passed`);
  });
}

test("jsrsasign: hello names the package and its own VERSION string", async () => {
  const d = await driverFor("js:jsrsasign");
  const h = await request(d, { cmd: "hello", protocol: 7 });
  assert.match(h.library_version, /^jsrsasign 11\.1\.5\b/);
  assert.deepEqual(Object.keys(h.offers).sort(), [
    "ecdsa-p256",
    "noop",
    "rsa-2048-pkcs1",
    "rsa-2048-pss",
    "rsa-3072-pkcs1",
    "rsa-3072-pss",
    "rsa-4096-pkcs1",
    "rsa-4096-pss",
  ]);
});
