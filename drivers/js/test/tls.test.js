// js:node's TLS 1.3 cells (docs/protocol.md § TLS 1.3 handshakes): a bench
// of each op on a full and a resumed cell with the test PKI the orchestrator
// makes (cryptobench.verify.tls_pki), the untimed handshake's report, the
// errors a TLS cell answers, and interop between two drivers over loopback
// (one in a second node process, as the orchestrator runs them).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { driverFor, request } from "./helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..", "..");
const MAIN = join(HERE, "..", "src", "main_node.js");
const NAME = "server.cryptobench.test";

// makePki: the orchestrator's test PKI in a temporary folder (about a second).
function makePki() {
  const venv = join(REPO, ".venv", "bin", "python");
  const python = process.env.CRYPTOBENCH_PYTHON ?? (existsSync(venv) ? venv : "python3");
  const dir = mkdtempSync(join(tmpdir(), "cb-js-tls-"));
  const r = spawnSync(python, ["-m", "cryptobench.verify.tls_pki", dir], { cwd: REPO, encoding: "utf8" });
  assert.equal(r.status, 0, `tls_pki: ${r.stderr}`);
  return dir;
}

const PKI = makePki();
process.on("exit", () => rmSync(PKI, { recursive: true, force: true }));

const pki = (auth) => ({
  chain: join(PKI, auth, "chain.pem"),
  key: join(PKI, auth, "leaf.key"),
  ca: join(PKI, auth, "root.pem"),
  server_name: NAME,
});

// The auth of a cell's name: its PKI folder.
const authOf = (alg) => /^tls13-[a-z0-9]+-(.+?)(-resume)?$/.exec(alg)[1];

const bench = (alg, op, tls = pki(authOf(alg))) => ({
  cmd: "bench",
  alg,
  op,
  size: 0,
  chunk: 0,
  seed: 1,
  batch: 0,
  target_ns: 2000000,
  warmup_ns: 1000000,
  samples: 2,
  tls,
});

test("js:node hello offers the classical cells at protocol 7", async () => {
  const d = await driverFor("js:node");
  const h = await request(d, { cmd: "hello", protocol: 7 });
  assert.equal(h.protocol, 7);
  assert.deepEqual(h.offers["tls13-x25519-ecdsa-p256"], ["handshake", "client", "server"]);
  assert.deepEqual(h.offers["tls13-p256-rsa-2048-resume"], ["handshake", "client", "server"]);
  assert.ok(!("tls13-x25519mlkem768-ecdsa-p256" in h.offers), "no hybrid groups in OpenSSL 3.0");
  assert.ok(!("tls13-x25519-mldsa-65" in h.offers), "no ML-DSA in OpenSSL 3.0");
  const other = await driverFor("js:noble");
  const r = await request(other, { cmd: "tls-result" });
  assert.match(r.error, /^not offered: /);
});

for (const [alg, resumed, tickets] of [
  ["tls13-x25519-ecdsa-p256", false, false],
  ["tls13-p256-ed25519-resume", true, true],
]) {
  test(`bench ${alg}`, async () => {
    const d = await driverFor("js:node");
    const split = {};
    for (const op of ["handshake", "client", "server"]) {
      const r = await request(d, bench(alg, op));
      assert.equal(r.ok, true, r.error);
      assert.match(r.checksum, /^00000020:[0-9a-f]{16}$/);
      assert.notEqual(r.checksum, r.checksum_after, "every handshake exports a fresh value");
      assert.equal(r.tls.group, alg.includes("x25519") ? 0x1d : 0x17);
      assert.equal(r.tls.cipher, 0x1301);
      assert.equal(r.tls.sigalg, null);
      assert.equal(r.tls.resumed, resumed);
      assert.equal(r.tls.round_trips, 1);
      const f = r.tls.flights;
      assert.ok(
        f.client_hello > (resumed ? 300 : 200) && f.server_flight > 150 && f.client_finished > 50,
        `${op}: ${JSON.stringify(f)}`,
      );
      assert.equal(f.tickets > 0, tickets, `${op}: tickets ${f.tickets}`);
      if (!resumed) assert.ok(f.server_flight > 1000, "a full server flight carries the chain");
      split[op] = Math.min(...r.samples_ns) / r.batch;
    }
    // Each side's time is part of the whole (wide room: tiny batches on a loaded host).
    assert.ok(
      split.client > 0 && split.server > 0 && split.client < 5 * split.handshake && split.server < 5 * split.handshake,
      JSON.stringify(split),
    );
  });
}

test("a TLS bench without a PKI, or with a missing file, is an error; verify cases are unsupported", async () => {
  const d = await driverFor("js:node");
  const v = await request(d, { cmd: "verify", alg: "tls13-x25519-ecdsa-p256", cases: [{ id: "1", op: "handshake" }] });
  assert.match(v.results[0].unsupported, /interop/);
  const r = await request(d, { ...bench("tls13-x25519-ecdsa-p256", "handshake"), tls: undefined });
  assert.equal(r.error, "tls: no PKI in the request");
  const bad = await request(
    d,
    bench("tls13-x25519-ecdsa-p256", "server", { ...pki("ecdsa-p256"), ca: "/nonexistent" }),
  );
  assert.equal(bad.ok, false);
  const wrong = await request(
    d,
    bench("tls13-x25519-ecdsa-p256", "server", { ...pki("ecdsa-p256"), ca: pki("rsa-2048").ca }),
  );
  assert.match(wrong.error, /^tls: .*certificate/, "a chain the client cannot verify fails the cell");
});

// A driver in its own process, spoken to over its stdin/stdout.
function child() {
  const p = spawn(process.execPath, [MAIN, "--provider", "js:node"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  return {
    async ask(req) {
      p.stdin.write(JSON.stringify(req) + "\n");
      return JSON.parse((await lines.next()).value);
    },
    end: () => p.stdin.end(),
  };
}

test("interop: a client in this process against a server in another, full and resumed", async () => {
  const d = await driverFor("js:node");
  const server = child();
  try {
    for (const [alg, auth, n] of [
      ["tls13-x25519-rsa-2048", "rsa-2048", 1],
      ["tls13-x25519-ecdsa-p256-resume", "ecdsa-p256", 2],
    ]) {
      const s = await server.ask({ cmd: "tls-serve", alg, connections: n, timeout_ms: 10000, tls: pki(auth) });
      assert.equal(s.ok, true, s.error);
      const { ca, server_name } = pki(auth);
      const c = await request(d, {
        cmd: "tls-connect",
        alg,
        port: s.port,
        connections: n,
        timeout_ms: 10000,
        tls: { ca, server_name },
      });
      assert.equal(c.ok, true, c.error);
      const r = await server.ask({ cmd: "tls-result" });
      assert.equal(r.ok, true, r.error);
      assert.equal(c.handshakes.length, n);
      assert.equal(r.handshakes.length, n);
      for (let i = 0; i < n; i++) {
        for (const h of [c.handshakes[i], r.handshakes[i]]) {
          assert.equal(h.group, 0x1d);
          assert.equal(h.cipher, 0x1301);
          assert.equal(h.resumed, i > 0, `${alg} connection ${i}`);
          assert.match(h.exporter, /^[0-9a-f]{64}$/);
        }
        assert.equal(c.handshakes[i].exporter, r.handshakes[i].exporter, `${alg} connection ${i}: exporters`);
      }
    }
    // A second tls-serve ends the first (its result is lost) and serves.
    const first = await server.ask({
      cmd: "tls-serve",
      alg: "tls13-x25519-ed25519",
      connections: 1,
      timeout_ms: 10000,
      tls: pki("ed25519"),
    });
    const second = await server.ask({
      cmd: "tls-serve",
      alg: "tls13-x25519-ed25519",
      connections: 1,
      timeout_ms: 10000,
      tls: pki("ed25519"),
    });
    assert.equal(first.ok && second.ok, true);
    const { ca, server_name } = pki("ed25519");
    const c = await request(d, {
      cmd: "tls-connect",
      alg: "tls13-x25519-ed25519",
      port: second.port,
      connections: 1,
      timeout_ms: 10000,
      tls: { ca, server_name },
    });
    assert.equal(c.ok, true, c.error);
    assert.equal((await server.ask({ cmd: "tls-result" })).ok, true);
    // A server nobody connects to gives up after its timeout.
    const s = await server.ask({
      cmd: "tls-serve",
      alg: "tls13-p256-ecdsa-p256",
      connections: 1,
      timeout_ms: 200,
      tls: pki("ecdsa-p256"),
    });
    assert.equal(s.ok, true, s.error);
    const r = await server.ask({ cmd: "tls-result" });
    assert.match(r.error, /^tls: .*timed out/);
  } finally {
    server.end();
  }
});
