// Shared by the native tests: a bridge process spoken to in JSON lines, the
// shared vector cases, protocol.md's judging rules, and the Node driver of
// the same modules (drivers/js) to compare against.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { loadProvider, nodeDriver } from "../../js/src/main_node.js";

// js:webcrypto in this Node process tries Ed448/X448, which Node 20 marks
// experimental (main_node.js keeps the same warning off stderr).
process.removeAllListeners("warning");
process.on("warning", (w) => {
  if (w.name === "ExperimentalWarning" && /Web Crypto/.test(w.message)) return;
  process.stderr.write(`${w.name}: ${w.message}\n`);
});

export const BRIDGE = fileURLToPath(new URL("../bridge.mjs", import.meta.url));
export const SEED = 2654435769;

// Bridge: one `node bridge.mjs --provider <id>` process.
export class Bridge {
  constructor(provider, env = {}) {
    this.proc = spawn(process.execPath, [BRIDGE, "--provider", provider], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    this.stderr = "";
    this.proc.stderr.setEncoding("utf8");
    this.proc.stderr.on("data", (s) => (this.stderr += s));
    this.lines = [];
    this.waiters = [];
    this.closed = false;
    const rl = createInterface({ input: this.proc.stdout, crlfDelay: Infinity });
    rl.on("line", (l) => {
      const w = this.waiters.shift();
      if (w) w.resolve(l);
      else this.lines.push(l);
    });
    rl.on("close", () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w.reject(new Error(`bridge closed its output; stderr: ${this.stderr}`));
    });
    this.exited = new Promise((res) => this.proc.on("exit", (code, signal) => res({ code, signal })));
  }

  nextLine(timeoutMs) {
    if (this.lines.length) return Promise.resolve(this.lines.shift());
    if (this.closed) return Promise.reject(new Error(`bridge closed its output; stderr: ${this.stderr}`));
    return new Promise((res, rej) => {
      const w = { resolve: res, reject: rej };
      const t = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        rej(new Error(`no response within ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      w.resolve = (l) => (clearTimeout(t), res(l));
      w.reject = (e) => (clearTimeout(t), rej(e));
      this.waiters.push(w);
    });
  }

  // raw sends one line and returns the response line.
  async raw(line, timeoutMs = 120000) {
    this.proc.stdin.write(line + "\n");
    return this.nextLine(timeoutMs);
  }

  // request sends one request object and parses the one-line answer.
  async request(req, timeoutMs = 120000) {
    const out = await this.raw(typeof req === "string" ? req : JSON.stringify(req), timeoutMs);
    return JSON.parse(out);
  }

  // bye: the answer, then exit 0.
  async bye() {
    const r = await this.request({ cmd: "bye" });
    const { code } = await this.exited;
    return { resp: r, code };
  }

  kill() {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill("SIGKILL");
  }
}

// ---- the shared vector cases --------------------------------------------

// From the JavaScript driver's tests: one copy of the rules.
export { casesDir, judge, judgeAll, loadCases, stripped } from "../../js/test/cases.js";

// ---- the same modules in Node ---------------------------------------------

const nodeDrivers = new Map();

// nodeDriverFor: the Node driver (drivers/js) of a provider, e.g. js:noble.
export async function nodeDriverFor(id) {
  if (!nodeDrivers.has(id)) {
    const p = await loadProvider(id);
    if (p === null) throw new Error(`no Node provider ${id}`);
    nodeDrivers.set(id, nodeDriver(p));
  }
  return nodeDrivers.get(id);
}

export async function nodeRequest(id, req) {
  const d = await nodeDriverFor(id);
  return JSON.parse(await d.handleLine(JSON.stringify(req)));
}

export function benchReq(alg, op, size, extra = {}) {
  const keyLen = alg.startsWith("aes-128-") ? 16 : alg === "hmac-sha256" ? 32 : 0;
  const ivLen = alg.endsWith("-gcm") ? 12 : 0;
  return {
    cmd: "bench",
    alg,
    op,
    size,
    chunk: 0,
    key: "2b".repeat(keyLen),
    iv: "a0".repeat(ivLen),
    seed: SEED,
    batch: 0,
    target_ns: 200000,
    warmup_ns: 1000000,
    samples: 3,
    ...extra,
  };
}
