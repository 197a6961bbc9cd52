// The bridge's static HTTP server, on 127.0.0.1 at a random port: serves the
// page (drivers/browser/page), the JavaScript driver's modules
// (drivers/js/src) and their npm packages (drivers/js/node_modules), the C
// driver's wasm32-wasi build (drivers/c/build/wasm), with
// the headers that make the page cross-origin isolated (so performance.now()
// has Chromium's finer resolution). Nothing else: GET and HEAD only, no
// directory listings, nothing outside those four directories.

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const PAGE_DIR = join(HERE, "page");
export const JS_DIR = resolve(HERE, "..", "js");
export const JS_SRC = join(JS_DIR, "src");
export const JS_MODULES = join(JS_DIR, "node_modules");
// the C driver's wasm32-wasi build (browser:openssl-wasm, docs/wasm.md)
export const WASM_DIR = resolve(HERE, "..", "c", "build", "wasm");

// URL prefix -> directory.
const ROOTS = [
  ["/page/", PAGE_DIR],
  ["/js/src/", JS_SRC],
  ["/node_modules/", JS_MODULES],
  ["/wasm/", WASM_DIR],
];

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".map": "application/json; charset=utf-8",
};

// The headers of every response: cross-origin isolation (COOP + COEP; CORP
// so the page's own subresources satisfy require-corp), and no caching.
export const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

// entryOf: the file a bare import of a package resolves to in a browser
// (exports["."] with the browser/import/default conditions, else module,
// else main).
function entryOf(pkg) {
  let e = pkg.exports;
  if (e && typeof e === "object" && !Array.isArray(e) && Object.hasOwn(e, ".")) e = e["."];
  for (let i = 0; i < 4 && e && typeof e === "object" && !Array.isArray(e); i++) {
    e = e.browser ?? e.import ?? e.default ?? null;
  }
  if (typeof e === "string") return e;
  return pkg.module || pkg.main || "index.js";
}

// isCommonJs: a package with no ES-module entry for a browser (no "type":
// "module", no "module" field, no import/browser export): its main file
// assigns to `exports` (jsrsasign's lib/jsrsasign.js). The page gets it
// wrapped as an ES module under /cjs/<name>.js (cjsModule) instead.
export function isCommonJs(pkg) {
  if (pkg.type === "module" || typeof pkg.module === "string") return false;
  const e = pkg.exports;
  if (e && typeof e === "object" && JSON.stringify(e).match(/"(import|browser)"/)) return false;
  return true;
}

// cjsModule: a CommonJS file as an ES module whose default export is its
// module.exports (what Node's `import x from "pkg"` gives). The file runs
// in the module's strict scope: fine for jsrsasign (it declares what it
// assigns); a package that needs sloppy mode or require() would fail here.
export function cjsModule(text) {
  return `const module = { exports: {} };\nconst exports = module.exports;\n${text}\nexport default module.exports;\n`;
}

// cjsFiles: /cjs/<name>.js -> the CommonJS main file of that dependency.
const cjsFiles = new Map();

// importMap: every dependency of drivers/js/package.json, as a bare name
// (its browser entry) and as a prefix ("@noble/hashes/sha2.js" ->
// /node_modules/@noble/hashes/sha2.js; the noble packages' exports map
// every subpath to the same file).
export function importMap() {
  const jsPkg = JSON.parse(readFileSync(join(JS_DIR, "package.json"), "utf8"));
  const imports = {};
  for (const name of Object.keys(jsPkg.dependencies || {}).sort()) {
    const file = join(JS_MODULES, name, "package.json");
    if (!existsSync(file))
      throw new Error(`${file} not found: the JavaScript driver is not built (run \`cryptobench build js\`)`);
    const pkg = JSON.parse(readFileSync(file, "utf8"));
    const entry = entryOf(pkg).replace(/^\.\//, "");
    if (isCommonJs(pkg)) {
      cjsFiles.set(`/cjs/${name}.js`, join(JS_MODULES, name, entry));
      imports[name] = `/cjs/${name}.js`;
    } else {
      imports[name] = `/node_modules/${name}/${entry}`;
    }
    imports[`${name}/`] = `/node_modules/${name}/`;
  }
  return { imports };
}

// indexHtml: the page with the import map in place of its marker comment.
export function indexHtml(map) {
  const html = readFileSync(join(PAGE_DIR, "index.html"), "utf8");
  const tag = `<script type="importmap">${JSON.stringify(map).replace(/</g, "\\u003c")}</script>`;
  const marked = html.replace(/<!-- importmap:[^>]*-->/, tag);
  if (marked === html) throw new Error("page/index.html has no importmap marker");
  return marked;
}

// fileFor maps a URL path to a file inside one of the roots, or null.
export function fileFor(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.includes("\0")) return null;
  for (const [prefix, dir] of ROOTS) {
    if (!p.startsWith(prefix)) continue;
    const f = resolve(dir, "." + p.slice(prefix.length - 1));
    return f.startsWith(dir + sep) ? f : null;
  }
  return null;
}

// startServer listens on 127.0.0.1 at a random port; resolves to
// { server, origin }. log receives one-line diagnostics (stderr).
export function startServer(log = () => {}) {
  const index = indexHtml(importMap());
  const server = createServer(async (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { ...HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return send(405, "text/plain", "method not allowed\n");
      const path = new URL(req.url, "http://127.0.0.1").pathname;
      if (path === "/" || path === "/index.html") return send(200, TYPES[".html"], index);
      if (path === "/favicon.ico") return send(204, "text/plain", "");
      if (cjsFiles.has(path)) return send(200, TYPES[".js"], cjsModule(await readFile(cjsFiles.get(path), "utf8")));
      const f = fileFor(path);
      const type = f && TYPES[extname(f)];
      if (!type) {
        log(`404 ${path}`);
        return send(404, "text/plain", "not found\n");
      }
      let body;
      try {
        body = await readFile(f);
      } catch {
        log(`404 ${path}`);
        return send(404, "text/plain", "not found\n");
      }
      return send(200, type, body);
    } catch (e) {
      log(`500 ${req.url}: ${e && e.message}`);
      return send(500, "text/plain", "error\n");
    }
  });
  return new Promise((resolveP, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolveP({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}
