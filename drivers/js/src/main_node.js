#!/usr/bin/env node
// cryptobench's JavaScript driver, Node entry point: speaks the JSON-lines
// driver protocol (docs/protocol.md, version 7) on stdin/stdout for one
// provider, selected by --provider.
//
//   node src/main_node.js --provider js:noble
//
// This file and ops_node.js are the only ones using Node APIs: it injects
// the clock (process.hrtime.bigint), the peak RSS, a full GC and package
// versions into the runtime-neutral modules, and owns the transport
// (stdin/stdout lines). The browser bridge does the same with its own.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { Driver } from "./protocol.js";
import { counter, counterStatus } from "./tsc_node.js";

const NAME = "cbdriver-js";

// The providers this entry point serves: id -> module and its notes for
// this runtime.
const PROVIDERS = {
  "js:node": () => import("./ops_node.js"),
  "js:webcrypto": () => import("./ops_webcrypto.js"),
  "js:noble": () => import("./ops_noble.js"),
  "js:asmcrypto": () => import("./ops_asmcrypto.js"),
  "js:jsrsasign": () => import("./ops_jsrsasign.js"),
  "js:liboqs": () => import("./ops_liboqs.js"),
  "wasm:hash-wasm": () => import("./ops_hashwasm.js"),
};

export const providerIds = () => Object.keys(PROVIDERS).sort();

// Providers with TLS 1.3 cells (protocol 7): id -> the module adding them.
const TLS = {
  "js:node": () => import("./ops_tls.js"),
};

// The monotonic clock: process.hrtime.bigint() is CLOCK_MONOTONIC in ns;
// beside it the time-stamp counter where its addon loads (tsc_node.js).
export const clock = {
  source: "process.hrtime.bigint() (libuv uv_hrtime, CLOCK_MONOTONIC on Linux)",
  now: () => process.hrtime.bigint(),
  diffNs: (t0, t1) => Number(t1 - t0),
  counter,
  counterStatus,
};

// gc: a full collection. --expose-gc is set at run time so the driver
// command needs no node flags.
let gcFn = null;
function gc() {
  if (gcFn === null) {
    if (typeof globalThis.gc === "function") {
      gcFn = globalThis.gc;
    } else {
      v8.setFlagsFromString("--expose-gc");
      gcFn = vm.runInNewContext("gc");
    }
  }
  gcFn();
}

// packageVersion reads the version of an installed dependency from its
// own package.json at run time (what is actually loaded, not what our
// package.json asks for).
export function packageVersion(name) {
  try {
    let dir = dirname(fileURLToPath(import.meta.resolve(name)));
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
        if (pkg.name === name) return pkg.version;
      } catch {
        // not here: look one level up
      }
      dir = dirname(dir);
    }
  } catch {
    // unresolvable
  }
  return "(version unknown)";
}

const runtime = `node ${process.version} (V8 ${process.versions.v8}) ${process.platform}/${process.arch}`;

const commonNotes = [
  "Clock: process.hrtime.bigint(), read once before and once after each batch. V8's JIT warms up during the warm-up (warmup_ns), which runs the same loop as the samples.",
  "A full GC (v8 gc(), exposed at start-up) runs before each cell's warm-up; the collector stays on.",
];

// envFor: what each provider module gets from this entry point.
export function envFor(id) {
  const notes = [...commonNotes];
  const env = { id, runtime, packageVersion, notes };
  if (id === "js:webcrypto") {
    env.libraryVersion = `WebCrypto of Node ${process.version} (node:crypto webcrypto, OpenSSL ${process.versions.openssl})`;
    notes.push(
      "In Node, crypto.subtle runs each operation as a job on libuv's thread pool and resolves its promise on a later event-loop turn: the figure includes that hand-off.",
      "Node marks WebCrypto's Ed448 and X448 as experimental (an ExperimentalWarning, kept off stderr by the driver); Ed25519 and X25519 are not flagged.",
    );
  }
  return env;
}

// loadProvider returns the provider object for id, or null if unknown.
export async function loadProvider(id) {
  const load = PROVIDERS[id];
  if (!Object.hasOwn(PROVIDERS, id) || typeof load !== "function") return null;
  const mod = await load();
  const p = mod.createProvider(envFor(id));
  if (Object.hasOwn(TLS, id)) (await TLS[id]()).addTls(p);
  return p;
}

// nodeDriver makes a Driver with the Node environment.
export function nodeDriver(provider) {
  return new Driver(provider, {
    clock,
    peakRssKb: () => process.resourceUsage().maxRSS,
    gc,
  });
}

// parseArgs reads --provider <id> (or --provider=<id>); the browser bridge
// takes the same arguments.
export function parseArgs(argv) {
  let provider = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--provider" || a === "-provider") {
      provider = argv[++i] ?? "";
    } else if (a.startsWith("--provider=")) {
      provider = a.slice("--provider=".length);
    } else {
      return { error: `unexpected argument ${JSON.stringify(a)}` };
    }
  }
  if (provider === null) return { error: "missing --provider" };
  return { provider };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const known = providerIds().join(", ");
  if (args.error) {
    process.stderr.write(`${NAME}: ${args.error} (usage: main_node.js --provider <id>; known: ${known})\n`);
    process.exit(2);
  }
  // Node 20 warns on stderr that WebCrypto's Ed448/X448 are experimental
  // (hello.notes says so instead); other warnings still go to stderr.
  process.removeAllListeners("warning");
  process.on("warning", (w) => {
    if (w.name === "ExperimentalWarning" && /Web Crypto/.test(w.message)) return;
    process.stderr.write(`${w.name}: ${w.message}\n`);
  });
  const provider = await loadProvider(args.provider);
  if (provider === null) {
    process.stderr.write(`${NAME}: unknown provider ${JSON.stringify(args.provider)} (known: ${known})\n`);
    process.exit(2);
  }
  // stdout carries protocol lines only: anything a library logs goes to
  // stderr.
  console.log = console.info = console.debug = console.error;

  const driver = nodeDriver(provider);
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of rl) {
    if (line.trim() === "") continue;
    const resp = await driver.handleLine(line);
    await write(resp + "\n");
    if (driver.quit) break;
  }
  // bye, or end of input (which means bye)
  process.exit(0);
}

// write: one string to stdout, resolved once it is handed over.
export function write(s) {
  return new Promise((resolve, reject) => {
    process.stdout.write(s, (err) => (err ? reject(err) : resolve()));
  });
}

// runIfMain runs main() when the module at url is the script node was started
// with (not when it is imported); a failure is one stderr line and exit 1.
export function runIfMain(url, name, main) {
  if (process.argv[1] && url === pathToFileURL(process.argv[1]).href) {
    main().catch((e) => {
      process.stderr.write(`${name}: ${e && e.stack ? e.stack : e}\n`);
      process.exit(1);
    });
  }
}

runIfMain(import.meta.url, NAME, main);
