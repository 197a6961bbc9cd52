// The browser providers: id -> the JavaScript driver's ops module that does
// the work (served from drivers/js/src) and the npm packages whose versions
// hello reports (served from drivers/js/node_modules).
//
// Shared by the bridge (Node: which ids exist, before Chromium starts) and
// the page (which module to load), so the list lives in one place.

export const PROVIDERS = {
  "browser:webcrypto": {
    module: "/js/src/ops_webcrypto.js",
    packages: [],
  },
  "browser:noble": {
    module: "/js/src/ops_noble.js",
    packages: ["@noble/hashes", "@noble/ciphers", "@noble/curves", "@noble/post-quantum"],
  },
  "browser:asmcrypto": {
    module: "/js/src/ops_asmcrypto.js",
    packages: ["asmcrypto.js"],
  },
  "browser:jsrsasign": {
    module: "/js/src/ops_jsrsasign.js",
    packages: ["jsrsasign"],
  },
  "browser:wasm": {
    module: "/js/src/ops_hashwasm.js",
    packages: ["hash-wasm"],
  },
  // the C driver's OpenSSL module compiled to wasm32-wasi (docs/wasm.md): a WASI program that
  // speaks the protocol itself, run in a Web Worker (page/wasi_driver.js), not a JS ops module
  "browser:openssl-wasm": {
    module: "/page/wasi_driver.js",
    wasi: true,
    wasm: "/wasm/cbdriver-openssl.wasm",
    packages: [],
  },
};

export const providerIds = () => Object.keys(PROVIDERS).sort();
