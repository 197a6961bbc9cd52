// The bridge's static server without a browser: the page with its import
// map, the isolation headers on every response, the three served
// directories and nothing outside them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { HEADERS, JS_MODULES, fileFor, importMap, startServer } from "../server.mjs";

test("the import map covers every dependency of drivers/js and points at files that exist", () => {
  const { imports } = importMap();
  for (const name of ["@noble/hashes", "@noble/ciphers", "@noble/curves", "@noble/post-quantum", "hash-wasm"]) {
    assert.equal(imports[`${name}/`], `/node_modules/${name}/`);
    const file = join(JS_MODULES, imports[name].slice("/node_modules/".length));
    assert.ok(existsSync(file), `${name} -> ${file}`);
  }
  assert.equal(imports["hash-wasm"], "/node_modules/hash-wasm/dist/index.esm.js");
});

test("paths outside the served directories are refused", () => {
  assert.equal(fileFor("/js/src/../../browser/bridge.mjs"), null);
  assert.equal(fileFor("/js/src/..%2f..%2fpackage.json"), null);
  assert.equal(fileFor("/node_modules/%2e%2e/package.json"), null);
  assert.equal(fileFor("/etc/passwd"), null);
  assert.equal(fileFor("/page/%00"), null);
  assert.ok(fileFor("/js/src/protocol.js").endsWith(join("js", "src", "protocol.js")));
});

test("responses: the page, modules, isolation headers, 404 and 405", async () => {
  const { server, origin } = await startServer();
  try {
    const index = await fetch(`${origin}/`);
    assert.equal(index.status, 200);
    for (const [k, v] of Object.entries(HEADERS)) assert.equal(index.headers.get(k), v, k);
    const html = await index.text();
    assert.match(html, /<script type="importmap">\{"imports":\{/);
    assert.ok(html.indexOf("importmap") < html.indexOf("/page/main.js"), "the import map precedes the module script");

    const mod = await fetch(`${origin}/js/src/protocol.js`);
    assert.equal(mod.status, 200);
    assert.match(mod.headers.get("content-type"), /^text\/javascript/);
    assert.equal(mod.headers.get("cross-origin-embedder-policy"), "require-corp");
    const pkg = await fetch(`${origin}/node_modules/@noble/hashes/package.json`);
    assert.equal((await pkg.json()).name, "@noble/hashes");

    for (const path of ["/nothing.js", "/js/src/%2e%2e/package.json", "/js/test/helpers.js", "/bridge.mjs"]) {
      assert.equal((await fetch(origin + path)).status, 404, path);
    }
    assert.equal((await fetch(`${origin}/`, { method: "POST", body: "x" })).status, 405);
  } finally {
    server.close();
  }
});
