// js:liboqs (@oqs/liboqs-js, liboqs as WebAssembly): what the generic
// tests (bench, vectors, pk) do not pin for this provider — the version it
// reports, liboqs' key encodings, the variants the package has no API for
// (answered unsupported, never rejected or passed), HQC's sizes, and that
// signing is randomised. The bench cells, Wycheproof cases and the
// cross-provider checks run through bench.test.js, vectors.test.js and
// pk.test.js like every provider's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { message, toHex } from "../src/input.js";
import { driverFor, request } from "./helpers.js";
import { liboqsVersion } from "../src/ops_liboqs.js";

const MSG = toHex(message(2654435769, 32));
const SEED64 = "ab".repeat(64);
const SEED32 = "cd".repeat(32);

async function caseOf(d, alg, op, fields) {
  const r = await request(d, { cmd: "verify", alg, cases: [{ id: "x#1", op, ...fields }] });
  assert.equal(r.ok, true, `${alg} ${op}: ${r.error}`);
  return r.results[0];
}

async function keypair(d, alg) {
  const r = await request(d, { cmd: "keypair", alg });
  assert.equal(r.ok, true, `keypair ${alg}: ${r.error}`);
  return r;
}

const unsupported = (r, what) =>
  assert.ok(typeof r.unsupported === "string" && r.out === undefined && !r.rejected, `${what}: ${JSON.stringify(r)}`);

test("js:liboqs says the liboqs release inside and offers the 2026 PQ families, never SPHINCS+", async () => {
  const d = await driverFor("js:liboqs");
  const h = await request(d, { cmd: "hello", protocol: 5 });
  assert.equal(h.ok, true, h.error);
  assert.match(h.library_version, /^liboqs 0\.15\.\d+ \(wasm, @oqs\/liboqs-js 0\.15\.\d+\)$/);
  assert.equal(liboqsVersion("9.9.9"), "liboqs (release unknown) (wasm, @oqs/liboqs-js 9.9.9)");
  const offers = Object.keys(h.offers);
  for (const a of ["ml-kem-768", "ml-dsa-65", "slh-dsa-sha2-128s", "slh-dsa-shake-256f", "falcon-512", "hqc-256"]) {
    assert.ok(offers.includes(a), `offers ${a}`);
  }
  assert.equal(offers.filter((a) => a.startsWith("slh-dsa-")).length, 12);
  assert.ok(!offers.some((a) => a.startsWith("sphincs-")), "SPHINCS+ is not in the package");
});

test("js:liboqs keys are liboqs' encodings; what the package cannot do is unsupported", async () => {
  const d = await driverFor("js:liboqs");
  // ML-KEM: the expanded decapsulation key (FIPS 203: 1632 bytes for ML-KEM-512), not the seed
  const k = await keypair(d, "ml-kem-512");
  assert.equal(k.public.length, 2 * 800);
  assert.equal(k.private.length, 2 * 1632);
  unsupported(await caseOf(d, "ml-kem-512", "keygen", { seed: SEED64 }), "ML-KEM keygen from a seed");
  unsupported(await caseOf(d, "ml-kem-512", "decaps", { private: SEED64, msg: "00".repeat(768) }), "seed-form dk");
  unsupported(await caseOf(d, "ml-kem-512", "encaps", { public: k.public, m: SEED32 }), "encaps from m");
  const bad = await caseOf(d, "ml-kem-512", "encaps", { public: "00" });
  assert.equal(bad.rejected, true, "a malformed encapsulation key is rejected");
  // ML-DSA: the expanded private key (2560 bytes for ML-DSA-44), not the seed xi
  const s = await keypair(d, "ml-dsa-44");
  assert.equal(s.private.length, 2 * 2560);
  unsupported(await caseOf(d, "ml-dsa-44", "sign", { private: SEED32, msg: MSG }), "seed-form ML-DSA key");
  unsupported(
    await caseOf(d, "ml-dsa-44", "sign", { private: s.private, msg: MSG, deterministic: true }),
    "deterministic ML-DSA",
  );
  unsupported(await caseOf(d, "ml-dsa-44", "sign", { private: s.private, msg: MSG, ctx: "0102" }), "a context");
  // SLH-DSA: FIPS 205's encodings (the protocol's): SK.seed || SK.prf || PK.seed || PK.root
  const h = await keypair(d, "slh-dsa-sha2-128f");
  assert.equal(h.public.length, 2 * 32);
  assert.equal(h.private.length, 2 * 64);
  assert.ok(h.private.endsWith(h.public), "the private key ends with the public key");
  unsupported(await caseOf(d, "slh-dsa-sha2-128f", "keygen", { seed: "ef".repeat(48) }), "SLH-DSA keygen from a seed");
});

test("js:liboqs HQC is the 2023-04-30 submission (64-byte keys) and decapsulates its own ciphertexts", async () => {
  const d = await driverFor("js:liboqs");
  const k = await keypair(d, "hqc-128");
  assert.equal(k.public.length, 2 * 2249);
  assert.equal(k.private.length, 2 * 2305);
  const e = await caseOf(d, "hqc-128", "encaps", { public: k.public });
  assert.equal(e.out.length, 2 * (4433 + 64));
  const got = await caseOf(d, "hqc-128", "decaps", { private: k.private, msg: e.out.slice(0, -128) });
  assert.equal(got.out, e.out.slice(-128));
  const short = await caseOf(d, "hqc-128", "decaps", { private: k.private, msg: e.out.slice(0, -130) });
  assert.equal(short.rejected, true, "a truncated ciphertext is rejected");
});

test("js:liboqs signing is randomised (Falcon's nonce, SLH-DSA's opt_rand) and verifies", async () => {
  const d = await driverFor("js:liboqs");
  for (const alg of ["falcon-512", "slh-dsa-sha2-128f"]) {
    const k = await keypair(d, alg);
    const a = await caseOf(d, alg, "sign", { private: k.private, msg: MSG });
    const b = await caseOf(d, alg, "sign", { private: k.private, msg: MSG });
    assert.ok(a.out && b.out && a.out !== b.out, `${alg}: two signatures of one message differ`);
    const v = await caseOf(d, alg, "verify", { public: k.public, msg: MSG, sig: b.out });
    assert.equal(v.out, "01", `${alg}: verifies`);
    const w = await caseOf(d, alg, "verify", { public: k.public, msg: MSG, sig: a.out.slice(0, -2) });
    assert.equal(w.rejected, true, `${alg}: a truncated signature is rejected`);
  }
});
