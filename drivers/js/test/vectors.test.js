// The shared vectors, exported per algorithm as build/cases/<alg>.jsonl,
// run through the verify request of every provider and judged by
// protocol.md's appendix.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCase } from "../src/protocol.js";
import { PROVIDER_IDS, driverFor, request } from "./helpers.js";

const DRIVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const CASES_COMMAND = "cd <repo root> && .venv/bin/python -m cryptobench.verify.vectors.export build/cases";

function casesDir() {
  const dir = process.env.CRYPTOBENCH_CASES
    ? resolve(process.env.CRYPTOBENCH_CASES)
    : resolve(DRIVER_DIR, "..", "..", "build", "cases");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    assert.fail(
      `cases directory ${dir} not found: create it with \`${CASES_COMMAND}\` (or point CRYPTOBENCH_CASES at it)`,
    );
  }
  return dir;
}

function loadCases(path) {
  if (!existsSync(path)) assert.fail(`${path} not found (re-create the cases with \`${CASES_COMMAND}\`)`);
  const cases = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        cases.push(JSON.parse(line));
      } catch (e) {
        assert.fail(`${path}:${i + 1}: ${e.message}`);
      }
    });
  return cases;
}

// judge applies protocol.md's rules; "" means the case passes, null that
// it was skipped (the library has no API for the variant: `unsupported`).
export function judge(c, r) {
  if (r.id !== c.id) return `result id ${r.id} does not echo the case id`;
  if (r.error) return `error: ${r.error}`;
  if (typeof r.unsupported === "string") return null;
  let matches = false;
  if (typeof r.out === "string" && typeof c.out === "string") {
    matches = c.cmp === "prefix" ? r.out.startsWith(c.out) : r.out === c.out;
  }
  switch (c.expect) {
    case "valid":
      if (r.rejected) return "rejected a valid case";
      if (!matches) return `out ${r.out ?? "<none>"} does not match the expected one`;
      return "";
    case "invalid":
      if (!r.rejected && matches) return "accepted an invalid case";
      return "";
    case "acceptable":
      return "";
    default:
      return `unknown expect ${c.expect}`;
  }
}

const CASE_FIELDS = [
  "id",
  "op",
  "key",
  "iv",
  "counter",
  "aad",
  "msg",
  // public-key cases (protocol version 2)
  "public",
  "private",
  "sig",
  "seed",
  "m",
  "ctx",
  "deterministic",
];

// Public-key algorithms the shared vectors do not cover (Ed448, X448,
// RSA-3072/4096, RSA key generation) are checked by pk.test.js's self- and
// cross-checks instead.

for (const id of PROVIDER_IDS) {
  test(`vectors ${id}`, async (t) => {
    const dir = casesDir();
    const d = await driverFor(id);
    for (const a of d.prov.algs) {
      if (a.name === "noop") continue; // no vectors for the empty operation
      const file = join(dir, `${a.name}.jsonl`);
      if (a.pk && !existsSync(file)) {
        await t.test(a.name, { skip: "no shared vectors for this public-key algorithm (see pk.test.js)" }, () => {});
        continue;
      }
      await t.test(a.name, async (st) => {
        const cases = loadCases(file);
        assert.ok(cases.length > 0, `no cases for ${a.name}`);
        // Through the verify request, exactly as the orchestrator sends it
        // (without the answers).
        const sent = cases.map((c) => Object.fromEntries(CASE_FIELDS.filter((f) => f in c).map((f) => [f, c[f]])));
        const resp = await request(d, { cmd: "verify", alg: a.name, cases: sent });
        assert.equal(resp.ok, true, `verify failed: ${resp.error}`);
        assert.equal(resp.results.length, cases.length, "one result per case");
        const failures = [];
        let passed = 0;
        cases.forEach((c, i) => {
          const why = judge(c, resp.results[i]);
          if (why) failures.push(`${c.id}: ${why}`);
          else if (why === "") passed++;
        });
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
