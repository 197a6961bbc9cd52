// One small bench request per provider/algorithm/op through the request
// handler, checked against a one-shot computation by the case executor
// (symmetric algorithms; public-key ones are in pk.test.js);
// streamed cells too; errors that keep the driver alive; the Node entry
// point's request loop (long lines, end of input, unknown provider).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { checksum, fromHex, message, toHex } from "../src/input.js";
import { runCase } from "../src/protocol.js";
import { PROVIDER_IDS, SLOW, driverFor, keyIV, request, withRegenerationAbove } from "./helpers.js";

const SEED = 2654435769;

// Providers whose odd-size cells (1 MiB + 3 bytes, four requests each) cost
// seconds per cipher: their aes-256 twins (the same code with a longer key
// schedule) only with CRYPTOBENCH_SLOW_TESTS=1.
const SLOW_ODD = new Set(["js:asmcrypto"]);
const MAIN = fileURLToPath(new URL("../src/main_node.js", import.meta.url));

function benchReq(alg, op, key, iv, size, chunk, extra = {}) {
  return {
    cmd: "bench",
    alg,
    op,
    size,
    chunk,
    key,
    iv,
    seed: SEED,
    batch: 0,
    target_ns: 200000,
    warmup_ns: 200000,
    samples: 3,
    ...extra,
  };
}

// expected: the checksum of one operation computed without the bench cell:
// the verify case executor for the forward direction, the plaintext itself
// for decrypt/open.
async function expected(alg, op, key, iv, msg) {
  if (op === "noop") return checksum(new Uint8Array(0));
  if (op === "decrypt" || op === "open") return checksum(msg);
  const r = await runCase(alg, { id: "x", op, key, iv, msg: toHex(msg) });
  assert.equal(typeof r.out, "string", `executor: ${JSON.stringify(r)}`);
  return checksum(fromHex("out", r.out));
}

function checkResponse(r, what, want, samples = 3) {
  assert.equal(r.ok, true, `${what}: ${r.error}`);
  assert.equal(r.samples_ns.length, samples, `${what}: samples`);
  for (const s of r.samples_ns) assert.ok(Number.isInteger(s) && s > 0, `${what}: sample ${s} ns`);
  assert.ok(Number.isInteger(r.batch) && r.batch > 0, `${what}: batch ${r.batch}`);
  assert.equal(r.checksum, want, `${what}: checksum ${r.checksum}, one-shot computation gives ${want}`);
  assert.ok(Number.isInteger(r.sink), `${what}: sink`);
  assert.ok(r.warmup && r.warmup.ops >= 1 && r.warmup.ns >= 0, `${what}: warmup`);
  assert.match(r.checksum_after, /^[0-9a-f]{8}:[0-9a-f]{16}$/, `${what}: checksum_after`);
  assert.ok(Number.isInteger(r.peak_rss_kb) && r.peak_rss_kb > 0, `${what}: peak_rss_kb`);
}

for (const id of PROVIDER_IDS) {
  test(`bench every offer of ${id}`, async (t) => {
    const d = await driverFor(id);
    const size = 1024;
    const msg = message(SEED, size);
    for (const a of d.prov.algs) {
      if (a.pk || a.tls) continue; // pk.test.js, tls.test.js
      for (const op of a.ops) {
        await t.test(`${a.name}/${op}`, async () => {
          const { key, iv } = keyIV(a.name);
          const want = await expected(a, op, key, iv, msg);
          const noStream = (a.streamNotOffered || []).includes(op);
          const chunks = a.stream && !noStream ? [0, 48, 1000, 4096] : [0];
          for (const chunk of chunks) {
            const r = await request(d, benchReq(a.name, op, key, iv, size, chunk));
            checkResponse(r, `chunk ${chunk}`, want);
          }
          if (noStream) {
            const r = await request(d, benchReq(a.name, op, key, iv, size, 64));
            assert.equal(r.ok, false);
            assert.match(r.error, /^not offered: /, "a streamed cell the library cannot do is not offered");
          }
          if (!a.stream) {
            const r = await request(d, benchReq(a.name, op, key, iv, size, 64));
            assert.equal(r.ok, false);
            assert.match(r.error, /^not offered: /, "a streamed cell of a one-shot API is not offered");
          }
        });
      }
    }
  });

  // Sizes with odd tails and past the 1 MiB period, one-shot and streamed
  // (the streamed cell reads pieces of the pattern; decrypt/open a
  // ciphertext made by the streaming encrypt/seal).
  test(`bench odd sizes of ${id}`, async (t) => {
    const d = await driverFor(id);
    for (const a of d.prov.algs) {
      if (a.pk || a.tls || a.name === "noop" || a.name.endsWith("-ecb") || a.name.endsWith("-cbc")) continue;
      if (SLOW_ODD.has(id) && a.name.startsWith("aes-256-") && !SLOW) {
        await t.test(a.name, { skip: "the aes-128 twin runs the same code (asm.js GCM: ~2 MB/s loaded)" }, () => {});
        continue;
      }
      await t.test(a.name, async () => {
        const { key, iv } = keyIV(a.name);
        for (const size of [0, 1, (1 << 20) + 3]) {
          const ops = a.stream && size > 1 ? a.ops : [a.ops[0]];
          for (const op of ops) {
            const want = await expected(a, op, key, iv, message(SEED, size));
            const chunks = a.stream && !(a.streamNotOffered || []).includes(op) ? [0, 1000, 65536] : [0];
            for (const chunk of chunks) {
              // one operation's checksum, as cross-checks ask it (the loop's sample count and
              // calibration are checked at 1 KiB above): a 1 MiB cell costs seconds in pure JS
              const only = { batch: 1, samples: 1, target_ns: 0, warmup_ns: 0 };
              const r = await request(d, benchReq(a.name, op, key, iv, size, chunk, only));
              checkResponse(r, `${op} size ${size} chunk ${chunk}`, want, 1);
            }
          }
        }
      });
    }
  });
}

test("known checksums and a fixed batch", async () => {
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    if (d.prov.algs.some((a) => a.name === "sha256")) {
      const r = await request(d, benchReq("sha256", "hash", "", "", 1024, 0));
      assert.equal(r.checksum, "00000020:fb4898be6151a393", `${id} sha256 at 1 KiB`);
    }
    const r = await request(d, '{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":1,"batch":7,"samples":2}');
    assert.equal(r.ok, true, r.error);
    assert.equal(r.batch, 7);
    assert.equal(r.samples_ns.length, 2);
    assert.equal(r.checksum, "00000000:cbf29ce484222325");
  }
});

test("noop: synchronous floors for sync providers, an awaited call for js:webcrypto", async () => {
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    const cell = await d.prov.algs.find((a) => a.name === "noop").cell({ op: "noop" });
    assert.equal(cell.async, id === "js:webcrypto", `${id} noop async`);
    const res = cell.run();
    if (cell.async) assert.ok(res instanceof Promise);
    else assert.equal(res, 0);
  }
});

// The check values of docs/protocol.md ("The measurement loop") that every
// driver reproduces.
for (const id of PROVIDER_IDS) {
  test(`measurement loop check values of ${id}`, async () => {
    const d = await driverFor(id);
    const noop = (extra) =>
      request(d, { cmd: "bench", alg: "noop", op: "noop", size: 0, seed: SEED, samples: 3, ...extra });
    let r = await noop({ batch: 0, target_ns: 0, warmup_ns: 0 });
    assert.deepEqual([r.batch, r.warmup.ops, r.warmup.calibration_ops, r.samples_ns.length], [1, 1, 1, 3], id);
    assert.equal(r.checksum, "00000000:cbf29ce484222325", id);
    assert.equal(r.checksum_after, r.checksum, id);
    r = await noop({ batch: 0, target_ns: 1000000 });
    assert.ok(Number.isInteger(Math.log2(r.batch)), `${id}: batch ${r.batch}`);
    assert.equal(r.warmup.calibration_ops, 2 * r.batch - 1, id);
    r = await noop({ batch: 7, samples: 5 });
    assert.deepEqual([r.batch, r.samples_ns.length, r.warmup.calibration_ops], [7, 5, undefined], id);
    for (const req of [
      { cmd: "bench", alg: "no-such-alg", op: "hash", size: 64, seed: 1, samples: 1 },
      { cmd: "bench", alg: "noop", op: "no-such-op", size: 0, seed: 1, samples: 1 },
    ]) {
      r = await request(d, req);
      assert.ok(r.ok === false && r.error.startsWith("not offered:"), `${id}: ${JSON.stringify(r)}`);
    }
  });
}

test("errors keep the driver alive", async () => {
  const k16 = "00".repeat(16);
  const k32 = "00".repeat(32);
  const iv16 = "00".repeat(16);
  const iv12 = "00".repeat(12);
  const bench = (alg, op, key, iv, size, chunk) => JSON.stringify(benchReq(alg, op, key, iv, size, chunk));
  const common = {
    unparseable: '{"cmd":',
    "not an object": "[1,2]",
    null: "null",
    "no cmd": '{"alg":"sha256"}',
    "unknown cmd": '{"cmd":"dance"}',
    "unknown alg": bench("md5", "hash", "", "", 16, 0),
    "unknown op": bench("sha256", "encrypt", "", "", 16, 0),
    "zero seed": '{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":0,"samples":1}',
    "no samples": '{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":1}',
    "negative size": '{"cmd":"bench","alg":"sha256","op":"hash","size":-1,"seed":1,"samples":1}',
    "fractional size": '{"cmd":"bench","alg":"sha256","op":"hash","size":1.5,"seed":1,"samples":1}',
    "chunk over 1 MiB": bench("sha256", "hash", "", "", 16, (1 << 20) + 1),
    "verify unknown": '{"cmd":"verify","alg":"md5","cases":[]}',
    "verify without cases": '{"cmd":"verify","alg":"sha256"}',
    "protocol 0": '{"cmd":"hello","protocol":0}',
  };
  const perProvider = {
    "js:node": {
      "ccm chunk": bench("aes-128-ccm", "seal", k16, iv12, 1024, 64),
      "ecb size": bench("aes-128-ecb", "encrypt", k16, "", 17, 0),
      "cbc size": bench("aes-128-cbc", "decrypt", k16, iv16, 1000, 0),
      "bad hex key": bench("aes-128-gcm", "seal", "xyz", iv12, 16, 0),
      "bad key length": bench("aes-128-gcm", "seal", k32, iv12, 16, 0),
      "bad nonce length": bench("chacha20-poly1305", "seal", k32, iv16, 16, 0),
      "bad iv length": bench("aes-256-ctr", "encrypt", k32, iv12, 16, 0),
    },
    "js:webcrypto": {
      "cbc not offered": bench("aes-128-cbc", "encrypt", k16, iv16, 16, 0),
      chunk: bench("sha256", "hash", "", "", 1024, 64),
      "bad key length": bench("aes-128-gcm", "seal", k32, iv12, 16, 0),
    },
    "js:noble": {
      "ccm not offered": bench("aes-128-ccm", "seal", k16, iv12, 16, 0),
      "chunk on aead": bench("aes-128-gcm", "seal", k16, iv12, 1024, 64),
      "ecb size": bench("aes-128-ecb", "encrypt", k16, "", 17, 0),
      "bad nonce length": bench("xchacha20-poly1305", "seal", k32, iv12, 16, 0),
    },
    "wasm:hash-wasm": {
      "no ciphers": bench("aes-128-gcm", "seal", k16, iv12, 16, 0),
    },
  };
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    for (const [name, line] of Object.entries({ ...common, ...perProvider[id] })) {
      const out = await d.handleLine(line);
      assert.ok(!out.includes("\n"), `${id} ${name}: one line`);
      const r = JSON.parse(out);
      assert.equal(r.ok, false, `${id} ${name}: ${out}`);
      assert.ok(typeof r.error === "string" && r.error !== "", `${id} ${name}: ${out}`);
      assert.equal(d.quit, false);
    }
    const later = await request(d, { cmd: "hello", protocol: 8 });
    assert.equal(later.protocol, 7, "a later version is answered with the highest one this driver speaks");
    const hello = await request(d, { cmd: "hello", protocol: 1 });
    assert.equal(hello.ok, true);
    assert.equal(hello.protocol, 7, "a version-1 client gets the highest version too (2 to 7 are additive)");
    assert.equal(hello.provider, id);
    assert.deepEqual(Object.keys(hello), [
      "ok",
      "protocol",
      "provider",
      "language",
      "library",
      "library_version",
      "runtime",
      "clock",
      "offers",
      "stream",
      "notes",
    ]);
    assert.ok(hello.clock.resolution_ns > 0);
    for (const s of hello.stream) assert.ok(s in hello.offers, `${id}: streamed ${s} is offered`);
  }
});

// Through the Node entry point: a 6 MB line, a blank line, a last line
// without newline, then end of input (which means bye).
test("main_node: long lines, end of input, stdout only protocol lines", () => {
  const msg = "ab".repeat(3 << 20);
  const input =
    `{"cmd":"verify","alg":"sha256","cases":[{"id":"big","op":"hash","msg":"${msg}"}]}\n\n` +
    '{"cmd":"hello","protocol":1}';
  const r = spawnSync(process.execPath, [MAIN, "--provider", "js:noble"], { input, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr.toString());
  const lines = r.stdout.toString().trimEnd().split("\n");
  assert.equal(lines.length, 2);
  const v = JSON.parse(lines[0]);
  assert.equal(v.results[0].id, "big");
  assert.equal(v.results[0].out.length, 64);
  assert.equal(JSON.parse(lines[1]).provider, "js:noble");
});

test("main_node: bye exits 0 and stops reading", () => {
  const input = '{"cmd":"bye"}\n{"cmd":"hello","protocol":1}\n';
  const r = spawnSync(process.execPath, [MAIN, "--provider", "wasm:hash-wasm"], { input });
  assert.equal(r.status, 0);
  assert.equal(r.stdout.toString(), '{"ok":true}\n');
});

test("main_node: unknown provider exits 2 with one stderr line", () => {
  for (const args of [["--provider", "js:nope"], []]) {
    const r = spawnSync(process.execPath, [MAIN, ...args], { input: "" });
    assert.equal(r.status, 2);
    assert.equal(r.stdout.length, 0);
    assert.equal(r.stderr.toString().trimEnd().split("\n").length, 1, r.stderr.toString());
  }
});

// The runtime-neutral modules with a browser-style environment: the clock
// is performance.now() (ms as a double), no peak RSS, no GC.
test("a browser-style environment (performance.now clock, no RSS, no GC)", async () => {
  const { Driver } = await import("../src/protocol.js");
  const { createProvider } = await import("../src/ops_webcrypto.js");
  const clock = { source: "performance.now()", now: () => performance.now(), diffNs: (t0, t1) => (t1 - t0) * 1e6 };
  const d = new Driver(await createProvider({ id: "browser:webcrypto", runtime: "test" }), {
    clock,
    peakRssKb: () => 0,
  });
  const hello = await request(d, { cmd: "hello", protocol: 1 });
  assert.equal(hello.provider, "browser:webcrypto");
  assert.equal(hello.clock.source, "performance.now()");
  const r = await request(d, benchReq("sha256", "hash", "", "", 1024, 0));
  assert.equal(r.ok, true, r.error);
  assert.equal(r.checksum, "00000020:fb4898be6151a393");
  assert.equal(r.peak_rss_kb, 0);
  for (const s of r.samples_ns) assert.ok(Number.isInteger(s));
});

test("leak times one prepared call per measurement and says which inputs were refused", async () => {
  const d = await driverFor("js:node");
  const key = "00".repeat(16);
  const iv = "11".repeat(12);
  const sealed = (
    await request(d, {
      cmd: "verify",
      alg: "aes-128-gcm",
      cases: [{ id: "s", op: "seal", key, iv, msg: "22".repeat(32) }],
    })
  ).results[0].out;
  const forged = sealed.slice(0, -2) + (sealed.endsWith("00") ? "01" : "00");
  const req = {
    cmd: "leak",
    alg: "aes-128-gcm",
    op: "open",
    order: [1, 0, 1],
    inputs: [
      { key, iv, msg: sealed },
      { key, iv, msg: forged },
    ],
  };
  const resp = await request(d, req);
  assert.ok(resp.ok, JSON.stringify(resp));
  assert.equal(resp.times.length, 3);
  assert.deepEqual(resp.outcomes, ["ok", "rejected"]);
  const bad = await request(d, { ...req, order: [2] });
  assert.ok(!bad.ok && bad.error.includes("order[0]"), bad.error);
  const kp = await request(d, { cmd: "keypair", alg: "x25519" });
  const derive = {
    cmd: "leak",
    alg: "x25519",
    op: "derive",
    order: [0, 0],
    inputs: [{ private: kp.private, public: kp.public }],
  };
  const x = await request(d, derive);
  assert.ok(x.ok && x.times.length === 2 && x.outcomes[0] === "ok", JSON.stringify(x));
});

// Above REGENERATE.above (lowered here) a streamed decrypt/open makes its
// ciphertext again per piece off the clock: the same plaintext, and time
// handed to the loop to subtract (docs/protocol.md, "With chunk > 0").
test("js:node: a big streamed decrypt/open regenerates its ciphertext", async () => {
  await withRegenerationAbove("../src/ops_node.js", 100, async () => {
    const d = await driverFor("js:node");
    const size = 4096 + 32;
    const want = checksum(message(SEED, size));
    const cases = [
      ["aes-128-ctr", "decrypt"],
      ["aes-128-cbc", "decrypt"],
      ["chacha20", "decrypt"],
      ["aes-128-gcm", "open"],
      ["chacha20-poly1305", "open"],
    ];
    for (const [alg, op] of cases) {
      const { key, iv } = keyIV(alg);
      const r = await request(d, benchReq(alg, op, key, iv, size, 1024));
      assert.equal(r.ok, true, `${alg} ${op}: ${r.error}`);
      assert.equal(r.checksum, want, `${alg} ${op}`);
      assert.equal(r.checksum_after, want, `${alg} ${op}`);
      const a = d.prov.algs.find((x) => x.name === alg);
      const cell = await a.cell({
        op,
        key: fromHex("key", key),
        iv: fromHex("iv", iv),
        size,
        chunk: 1024,
        seed: SEED,
        msg: null,
      });
      cell.run();
      assert.ok(cell.takeUntimedNs() > 0, `${alg} ${op}: no regeneration time measured`);
    }
  });
});
