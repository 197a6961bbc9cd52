// The shared vector cases (build/cases/<alg>.jsonl) and protocol.md's rules
// for judging a verify result, for the JavaScript driver's tests and the
// browser driver's (drivers/browser/test/helpers.mjs re-exports them).

import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const CASES_COMMAND = "cd <repo root> && .venv/bin/python -m cryptobench.verify.vectors.export build/cases";

// casesDir: $CRYPTOBENCH_CASES or the repository's build/cases; missing is a
// failure with the command that makes it, never a silent skip.
export function casesDir() {
  const dir = process.env.CRYPTOBENCH_CASES ? resolve(process.env.CRYPTOBENCH_CASES) : resolve(REPO, "build", "cases");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    assert.fail(
      `cases directory ${dir} not found: create it with \`${CASES_COMMAND}\` (or point CRYPTOBENCH_CASES at it)`,
    );
  }
  return dir;
}

export function loadCases(path) {
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

const CASE_FIELDS = [
  "id",
  "op",
  "key",
  "iv",
  "counter",
  "aad",
  "msg",
  // public-key cases (since protocol version 2)
  "public",
  "private",
  "sig",
  "seed",
  "m",
  "ctx",
  "deterministic",
];

// stripped: a case as the orchestrator sends it (without the answers).
export function stripped(c) {
  return Object.fromEntries(CASE_FIELDS.filter((f) => f in c).map((f) => [f, c[f]]));
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

// judgeAll judges a verify response's results case by case: the failures
// ("<id>: <why>") and how many cases passed (the rest were unsupported).
export function judgeAll(cases, results) {
  const failures = [];
  let passed = 0;
  cases.forEach((c, i) => {
    const why = judge(c, results[i]);
    if (why) failures.push(`${c.id}: ${why}`);
    else if (why === "") passed++;
  });
  return { failures, passed };
}
