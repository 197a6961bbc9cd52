// js:liboqs — @oqs/liboqs-js: liboqs compiled to WebAssembly (one Emscripten
// module per algorithm), called through the package's classes, which wrap
// liboqs' generic API (OQS_KEM_keypair/encaps/decaps, OQS_SIG_keypair/sign/
// verify) and copy keys, messages and results in and out of the wasm heap on
// every call. It is the newest liboqs any registry packages (crates.io's
// oqs-sys, behind c:liboqs, is at liboqs 0.13): a version of its own.
//
// What the package exposes decides what this provider can do: only the
// randomised generic calls (no OQS_KEM_keypair_derand, no context strings,
// no deterministic signing), so
// - keys are liboqs' own encodings: ML-KEM's private key is the expanded
//   decapsulation key (FIPS 203, 1632/2400/3168 bytes), not the protocol's
//   64-byte seed; ML-DSA's the expanded private key (FIPS 204), not the seed
//   ξ (as c:liboqs); SLH-DSA's is FIPS 205's SK.seed‖SK.prf‖PK.seed‖PK.root,
//   the protocol's own; Falcon's and HQC's the submissions';
// - a seed-form private key, keygen from a seed, encapsulation from a given
//   m, deterministic signing and a context string answer `unsupported`.
//
// Each algorithm's wasm module is instantiated on first use (not at start-up:
// 23 modules), outside any timed region. Runtime-neutral: the version text
// comes from the entry point.

import { describe, noopAlg, packageVersion, Unsupported } from "./ops.js";
import { pkAlg } from "./pkalg.js";

const PACKAGE = "@oqs/liboqs-js";

// The package, or one clear line when it is not installed (a checkout whose
// node_modules predates it): the entry point prints a failure's stack, so
// the stack is that line.
const oqs = await import(PACKAGE).catch((e) => {
  const err = new Error(
    `${PACKAGE} is not installed in drivers/js/node_modules (${e && e.code ? e.code : e}): run \`npm ci --prefix drivers/js\` (or \`cryptobench build js\`)`,
  );
  err.stack = err.message;
  throw err;
});

// The liboqs release inside: the package's README ("@oqs/liboqs-js 0.15.x
// includes LibOQS 0.15.1"); its wasm exports no OQS_version to ask.
const LIBOQS_OF_PACKAGE = { "0.15.1": "0.15.1" };

const SIG = ["keygen", "sign", "verify"];
const KEM = ["keygen", "encaps", "decaps"];

// ML-KEM and ML-DSA: the seed lengths a protocol private key has (which this
// package cannot take: unsupported, not rejected, so vector cases are
// skipped rather than failed).
const SEED_FORM = { "ml-kem": 64, "ml-dsa": 32 };

// keyPairs: the key half both engines share — liboqs' own key encodings, and a
// seed-form private key refused as unsupported (`expanded` names what it takes).
function keyPairs(instance, family, expanded) {
  const seedLen = SEED_FORM[family];
  return {
    generate: () => {
      const k = instance.generateKeyPair();
      return { pub: k.publicKey, priv: k.secretKey };
    },
    exportPair: (k) => ({ public: k.pub, private: k.priv }),
    publicOf: (k) => k.pub,
    importPublic: (b) => b,
    importPrivate: (b) => {
      if (seedLen !== undefined && b.length === seedLen) {
        throw new Unsupported(
          `a private key in seed form (${seedLen} bytes): ${PACKAGE} has no key pair from a seed; it takes liboqs' expanded ${expanded}`,
        );
      }
      return b;
    },
  };
}

// kemEngine: the pkalg.js engine over one of the package's KEM instances.
function kemEngine(kem, family) {
  return {
    async: false,
    ...keyPairs(kem, family, "decapsulation key"),
    encapsulator: (pub) => (m) => {
      if (m !== undefined) {
        throw new Unsupported(`deterministic encapsulation (a given m): ${PACKAGE} has no encapsulation from m`);
      }
      return kem.encapsulate(pub);
    },
    encapsParts: (r) => ({ ct: r.ciphertext, ss: r.sharedSecret }),
    decapsulator: (priv) => (ct) => kem.decapsulate(ct, priv),
  };
}

// sigEngine: the same for a signature instance. sign is one OQS_SIG_sign
// (randomised where the scheme is: ML-DSA hedged, Falcon's nonce, SLH-DSA's
// opt_rand), verify one OQS_SIG_verify (false: does not verify).
function sigEngine(sig, family) {
  return {
    async: false,
    context: false,
    deterministic: false,
    ...keyPairs(sig, family, "private key"),
    signer: (priv) => (m) => sig.sign(m, priv),
    verifier: (pub) => (m, s) => sig.verify(m, s, pub),
  };
}

// lazyAlg: pkAlg over an engine whose wasm module is instantiated on the
// first request that needs it (every entry point awaits it first).
function lazyAlg(name, ops, create, family) {
  let inner = null;
  const get = () => {
    if (inner === null) {
      inner = create().then((o) => pkAlg(name, ops, ops === KEM ? kemEngine(o, family) : sigEngine(o, family)));
      inner.catch(() => {
        inner = null;
      });
    }
    return inner;
  };
  return {
    name,
    ops,
    stream: false,
    pk: true,
    exec: async (c) => (await get()).exec(c),
    prepare: async (c) => (await get()).prepare(c),
    cell: async (p) => (await get()).cell(p),
    keypair: async () => (await get()).keypair(),
    cellKeypair: async (role) => (await get()).cellKeypair(role),
  };
}

// The catalogue's names and the package's factories. HQC: liboqs' HQC-128/
// 192/256 are the catalogue's hqc-128/192/256 (the 2023-04-30 submission; hqc-1/3/5 name the 2025 revision).
const SLH_SETS = ["128s", "128f", "192s", "192f", "256s", "256f"];
const cap = (h) => h[0].toUpperCase() + h.slice(1);
export const ALGS = [
  ["ml-kem-512", KEM, "createMLKEM512", "ml-kem"],
  ["ml-kem-768", KEM, "createMLKEM768", "ml-kem"],
  ["ml-kem-1024", KEM, "createMLKEM1024", "ml-kem"],
  ["ml-dsa-44", SIG, "createMLDSA44", "ml-dsa"],
  ["ml-dsa-65", SIG, "createMLDSA65", "ml-dsa"],
  ["ml-dsa-87", SIG, "createMLDSA87", "ml-dsa"],
  ...["sha2", "shake"].flatMap((h) =>
    SLH_SETS.map((s) => [`slh-dsa-${h}-${s}`, SIG, `createSlhDsa${cap(h)}${s}`, "slh-dsa"]),
  ),
  ["falcon-512", SIG, "createFalcon512", "falcon"],
  ["falcon-1024", SIG, "createFalcon1024", "falcon"],
  ["hqc-128", KEM, "createHQC128", "hqc"],
  ["hqc-192", KEM, "createHQC192", "hqc"],
  ["hqc-256", KEM, "createHQC256", "hqc"],
];

function publicKeyAlgs() {
  const out = [];
  for (const [name, ops, factory, family] of ALGS) {
    const create = oqs[factory];
    if (typeof create !== "function") continue; // not in this version of the package: not offered
    out.push(lazyAlg(name, ops, () => create(), family));
  }
  return out;
}

// liboqsVersion: "liboqs 0.15.1 (wasm, @oqs/liboqs-js 0.15.1)".
export function liboqsVersion(pkgVersion) {
  const lib = LIBOQS_OF_PACKAGE[pkgVersion];
  return `liboqs ${lib ?? "(release unknown)"} (wasm, ${PACKAGE} ${pkgVersion})`;
}

// env: { id, runtime, packageVersion(name), notes } from the entry point.
export function createProvider(env = {}) {
  return {
    ...describe(env, {
      id: "js:liboqs",
      language: "wasm",
      library: `${PACKAGE} (liboqs compiled to WebAssembly by Emscripten)`,
      libraryVersion: liboqsVersion(packageVersion(env, PACKAGE)),
    }),
    notes: [
      `liboqs release: the package README's ("${PACKAGE} 0.15.x includes LibOQS 0.15.1"); the wasm modules export no OQS_version. Its SLH-DSA is liboqs' (SLH_DSA_PURE_*), its HQC the 2023-04-30 submission (public key 2249/4522/7245 bytes, ciphertext 4433/8978/14421, shared secret 64), as in liboqs 0.13 (c:liboqs); SPHINCS+ is not in the package.`,
      `One Emscripten module per algorithm, instantiated on first use (outside the timed region); every timed operation is one method call of the package's class (generateKeyPair, encapsulate, decapsulate, sign, verify), which mallocs its buffers in the wasm heap, copies key, message and output in and out, and frees them: that copying is part of what a JavaScript caller of this package pays.`,
      `Keys are liboqs' encodings: ML-KEM's private key is the expanded decapsulation key, ML-DSA's the expanded private key (not the protocol's seeds: the package has no key generation from a seed); SLH-DSA's is FIPS 205's (the protocol's); Falcon's and HQC's the submissions'. Falcon signatures are compressed (variable length).`,
      `Answered unsupported (skipped in vector cases): a seed-form ML-KEM/ML-DSA private key, keygen from a seed, encapsulation from a given m, deterministic signing, a context string (the package calls OQS_SIG_sign/verify only: pure, empty context).`,
      `Randomness: liboqs' OQS_randombytes inside the wasm module (Emscripten's getentropy: crypto.getRandomValues / node:crypto), inside the timed region for keygen, encaps and randomised signing.`,
      "Key pairs for sign/verify/encaps/decaps cells are generated once per algorithm and process (outside the timed region); the signature a verify cell checks and the ciphertext a decaps cell opens are made once per request.",
      `${PACKAGE} asks for Node >= 22 in its package.json; it runs on Node 20 (WebAssembly SIMD is there since Node 16.4).`,
      ...(env.notes || []),
    ],
    algs: [noopAlg(), ...publicKeyAlgs()],
  };
}
