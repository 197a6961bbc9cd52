// The shared vectors, exported per algorithm as build/cases/<alg>.jsonl,
// run through the verify request of every provider and judged by
// protocol.md's appendix.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCase } from "../src/protocol.js";
import { casesDir, judgeAll, loadCases, stripped } from "./cases.js";
import { PROVIDER_IDS, SLOW, driverFor, request, slowAlg } from "./helpers.js";

// Public-key algorithms the shared vectors do not cover (Ed448, X448,
// RSA-3072/4096, RSA key generation) are checked by pk.test.js's self- and
// cross-checks instead.

for (const id of PROVIDER_IDS) {
  test(`vectors ${id}`, async (t) => {
    const dir = casesDir();
    const d = await driverFor(id);
    for (const a of d.prov.algs) {
      if (a.name === "noop" || a.tls) continue; // no vectors for the empty operation; TLS: tls.test.js
      const file = join(dir, `${a.name}.jsonl`);
      if (slowAlg(a.name) && !SLOW) {
        await t.test(
          a.name,
          { skip: "slow (CRYPTOBENCH_SLOW_TESTS=1); `cryptobench verify` runs its vectors" },
          () => {},
        );
        continue;
      }
      if (id === "js:jsrsasign" && a.pk) {
        await t.test(
          a.name,
          { skip: "jsrsasign.test.js pins its known Wycheproof failures (and its slow ECDSA)" },
          () => {},
        );
        continue;
      }
      if (a.pk && !existsSync(file)) {
        await t.test(a.name, { skip: "no shared vectors for this public-key algorithm (see pk.test.js)" }, () => {});
        continue;
      }
      await t.test(a.name, async (st) => {
        const cases = loadCases(file);
        assert.ok(cases.length > 0, `no cases for ${a.name}`);
        // Through the verify request, exactly as the orchestrator sends it
        // (without the answers).
        const resp = await request(d, { cmd: "verify", alg: a.name, cases: cases.map(stripped) });
        assert.equal(resp.ok, true, `verify failed: ${resp.error}`);
        assert.equal(resp.results.length, cases.length, "one result per case");
        const { failures, passed } = judgeAll(cases, resp.results);
        assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases failed`);
        assert.ok(passed > 0, "at least one case must pass");
        st.diagnostic(
          `${id} ${a.name}: ${passed} of ${cases.length} cases passed, ${cases.length - passed} unsupported`,
        );
      });
    }
  });
}

// A tampered tag comes back as rejected, not as an error or an output; a
// bad key length or bad hex is an error.
for (const id of ["js:node", "js:webcrypto", "js:noble"]) {
  test(`open rejects a tampered tag (${id})`, async () => {
    const d = await driverFor(id);
    const a = d.prov.algs.find((x) => x.name === "aes-128-gcm");
    const key = "00".repeat(16);
    const iv = "00".repeat(12);
    const seal = await runCase(a, { id: "s", op: "seal", key, iv, msg: "00112233" });
    assert.equal(typeof seal.out, "string", JSON.stringify(seal));
    const ct = seal.out.slice(0, -1) + (seal.out.endsWith("0") ? "1" : "0");
    assert.deepEqual(await runCase(a, { id: "o", op: "open", key, iv, msg: ct }), { id: "o", rejected: true });
    assert.deepEqual(await runCase(a, { id: "t", op: "open", key, iv, msg: "0011" }), { id: "t", rejected: true });
    const k = await runCase(a, { id: "k", op: "seal", key: "00", iv });
    assert.ok(k.error && !k.rejected && k.out === undefined, JSON.stringify(k));
    const h = await runCase(a, { id: "h", op: "seal", key: "zz", iv });
    assert.match(h.error ?? "", /hex/);
  });
}
