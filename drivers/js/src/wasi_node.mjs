#!/usr/bin/env node
// Run the C driver's wasm32-wasi build (drivers/c/build/wasm/cbdriver-openssl.wasm, docs/wasm.md)
// in Node's own WASI (node:wasi, on V8): the module's standard input, output and error are this
// process's, so it speaks the driver protocol's JSON lines itself; nothing of the JavaScript
// driver runs here.
//
//   node --no-warnings drivers/js/src/wasi_node.mjs FILE.wasm --provider wasm:openssl-node
//
// Exit status: the module's own (proc_exit), 2 for bad arguments or a missing file (one line on
// standard error), 1 when the module traps.

import { readFileSync, existsSync } from "node:fs";
import { basename } from "node:path";
import { WASI } from "node:wasi";

function fail(code, msg) {
  process.stderr.write(`wasi_node: ${msg}\n`);
  process.exit(code);
}

const [file, ...rest] = process.argv.slice(2);
if (!file || file.startsWith("-")) fail(2, "usage: wasi_node.mjs FILE.wasm [driver arguments...]");
if (!existsSync(file)) fail(2, `${file} not found (not built: \`cryptobench build wasm-openssl\` adds it)`);

const engine = `node ${process.version} node:wasi (V8 ${process.versions.v8}, uvwasi ${process.versions.uvwasi})`;
const wasi = new WASI({
  version: "preview1",
  args: [basename(file), ...rest, "--engine", engine],
  env: {},
  returnOnExit: true,
});
let code;
try {
  const module = await WebAssembly.compile(readFileSync(file));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  code = wasi.start(instance);
} catch (e) {
  fail(1, `the module failed: ${String((e && e.message) || e).split("\n")[0]}`);
}
process.exitCode = code;
