// Public-key and post-quantum algorithms (since protocol version 2): one small
// bench per provider/algorithm/op (what the cell produced is checked
// through the case executor: signatures verify, ciphertexts decrypt, KEM
// ciphertexts decapsulate), the self-cross-check and the cross-provider
// checks of cryptobench/verify/cross_checks.py run with the JavaScript providers
// (keypair -> sign -> verify, a flipped bit rejected; shares agree;
// encaps -> decaps; OAEP round trips), the keypair command, malformed
// inputs, and the encoding glue of src/pk.js.
//
// RSA-3072/4096 key generation takes seconds per key: by default those
// algorithms get one node:crypto key pair per size, used by js:node and
// js:webcrypto in both directions; CRYPTOBENCH_SLOW_TESTS=1 adds their
// bench cells and self-checks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checksum, fromHex, message, toHex } from "../src/input.js";
import { Rejected } from "../src/ops.js";
import { EC_CURVES, ecPointFromSpki, ecSpki, ecdsaDerToRaw, ecdsaRawToDer, requireNamedCurve } from "../src/pk.js";
import { PROVIDER_IDS, SLOW, driverFor, request, slowAlg } from "./helpers.js";

const SEED = 2654435769;
const MSG_BYTES = message(SEED, 32);
const MSG = toHex(MSG_BYTES); // crosscheck.py's MESSAGE

const ONE_SUM = checksum(Uint8Array.of(1));

// ---- helpers --------------------------------------------------------------

function kindOf(alg) {
  if (/^rsa-\d+$/.test(alg)) return "keygen";
  if (alg.endsWith("-oaep")) return "pke";
  if (alg.startsWith("ecdh-") || alg === "x25519" || alg === "x448") return "kex";
  if (alg.startsWith("ml-kem-") || alg.startsWith("hqc-") || alg === "x-wing") return "kem";
  return "sig";
}

// ssHex: the hex digits of the key a KEM's encaps output ends with (HQC in
// js:liboqs: the 2023-04-30 submission's 64 bytes).
const ssHex = (alg) => (alg.startsWith("hqc-") ? 128 : 64);

// caseOf sends one verify case and returns its result object.
async function caseOf(d, alg, op, fields) {
  const r = await request(d, { cmd: "verify", alg, cases: [{ id: "x#1", op, ...fields }] });
  assert.equal(r.ok, true, `${d.prov.id} ${alg} ${op}: ${r.error}`);
  return r.results[0];
}

// A signature scheme with a context (ML-DSA, SLH-DSA): deterministic signing is
// reproducible, hedged signing differs, and the signature verifies under its
// own context only.
async function signsWithContext(d, alg, kp) {
  const f = { private: kp.private, msg: MSG, ctx: "0102", deterministic: true };
  const a = await caseOf(d, alg, "sign", f);
  const b = await caseOf(d, alg, "sign", f);
  assert.equal(a.out, b.out, "deterministic signing is reproducible");
  const h = await caseOf(d, alg, "sign", { ...f, deterministic: false });
  assert.notEqual(h.out, a.out, "hedged signing differs");
  const v = await caseOf(d, alg, "verify", { public: kp.public, msg: MSG, sig: a.out, ctx: "0102" });
  assert.equal(v.out, "01");
  const w = await caseOf(d, alg, "verify", { public: kp.public, msg: MSG, sig: a.out });
  assert.equal(w.rejected, true, "another context rejects");
}

async function keypair(d, alg) {
  const r = await request(d, { cmd: "keypair", alg });
  assert.equal(r.ok, true, `${d.prov.id} keypair ${alg}: ${r.error}`);
  assert.match(r.public, /^([0-9a-f]{2})+$/);
  assert.match(r.private, /^([0-9a-f]{2})+$/);
  return r;
}

function flip(hex) {
  const b = fromHex("x", hex);
  b[b.length >> 1] ^= 1;
  return toHex(b);
}

// exchange runs crosscheck.py's checks with P producing and Q consuming (P
// and Q may be the same driver: the self-cross-check).
async function exchange(alg, P, Q) {
  const who = `${P.prov.id} -> ${Q.prov.id} ${alg}`;
  switch (kindOf(alg)) {
    case "sig": {
      const kp = await keypair(P, alg);
      const s = await caseOf(P, alg, "sign", { private: kp.private, msg: MSG });
      assert.equal(typeof s.out, "string", `${who}: sign ${JSON.stringify(s)}`);
      const v = await caseOf(Q, alg, "verify", { public: kp.public, msg: MSG, sig: s.out });
      assert.equal(v.out, "01", `${who}: signature verifies ${JSON.stringify(v)}`);
      const bad = await caseOf(Q, alg, "verify", { public: kp.public, msg: MSG, sig: flip(s.out) });
      assert.equal(bad.rejected, true, `${who}: corrupted signature rejected ${JSON.stringify(bad)}`);
      const other = await caseOf(Q, alg, "verify", { public: kp.public, msg: flip(MSG), sig: s.out });
      assert.equal(other.rejected, true, `${who}: another message rejected ${JSON.stringify(other)}`);
      return;
    }
    case "kex": {
      const kp = await keypair(P, alg);
      const kq = await keypair(Q, alg);
      const a = await caseOf(P, alg, "derive", { private: kp.private, public: kq.public });
      const b = await caseOf(Q, alg, "derive", { private: kq.private, public: kp.public });
      assert.equal(typeof a.out, "string", `${who}: ${JSON.stringify(a)}`);
      assert.ok(a.out.length > 0);
      assert.equal(a.out, b.out, `${who}: shared secrets agree`);
      return;
    }
    case "kem": {
      const kq = await keypair(Q, alg);
      // another of Q's own keys: private keys need not be readable across providers (js:liboqs
      // takes liboqs' expanded ML-KEM key, not the seed)
      const wrong = await keypair(Q, alg);
      const e = await caseOf(P, alg, "encaps", { public: kq.public });
      assert.equal(typeof e.out, "string", `${who}: encaps ${JSON.stringify(e)}`);
      const ct = e.out.slice(0, -ssHex(alg));
      const k = e.out.slice(-ssHex(alg));
      const got = await caseOf(Q, alg, "decaps", { private: kq.private, msg: ct });
      assert.equal(got.out, k, `${who}: decapsulates to the same key`);
      const w = await caseOf(Q, alg, "decaps", { private: wrong.private, msg: ct });
      assert.ok(w.rejected === true || (typeof w.out === "string" && w.out !== k), `${who}: wrong key differs`);
      return;
    }
    case "pke": {
      const kq = await keypair(Q, alg);
      const e = await caseOf(P, alg, "encrypt", { public: kq.public, msg: MSG });
      assert.equal(typeof e.out, "string", `${who}: encrypt ${JSON.stringify(e)}`);
      const dec = await caseOf(Q, alg, "decrypt", { private: kq.private, msg: e.out });
      assert.equal(dec.out, MSG, `${who}: ciphertext decrypts`);
      const bad = await caseOf(Q, alg, "decrypt", { private: kq.private, msg: flip(e.out) });
      assert.equal(bad.rejected, true, `${who}: corrupted ciphertext rejected ${JSON.stringify(bad)}`);
      return;
    }
    case "keygen": {
      const kp = await keypair(P, alg);
      const s = await caseOf(Q, `${alg}-pkcs1`, "sign", { private: kp.private, msg: MSG });
      const v = await caseOf(Q, `${alg}-pkcs1`, "verify", { public: kp.public, msg: MSG, sig: s.out });
      assert.equal(v.out, "01", `${who}: key pair signs and verifies ${JSON.stringify(s)} ${JSON.stringify(v)}`);
      return;
    }
  }
}

// ---- output lengths (algorithms.py's table, plus the variable DER ones) ---

const FIXED = {
  "ml-kem-512": { encaps: 768 + 32, decaps: 32, keygen: 800 },
  "ml-kem-768": { encaps: 1088 + 32, decaps: 32, keygen: 1184 },
  "ml-kem-1024": { encaps: 1568 + 32, decaps: 32, keygen: 1568 },
  "ml-dsa-44": { sign: 2420, keygen: 1312 },
  "ml-dsa-65": { sign: 3309, keygen: 1952 },
  "ml-dsa-87": { sign: 4627, keygen: 2592 },
  "x-wing": { encaps: 1120 + 32, decaps: 32, keygen: 1216 },
  "falcon-512": { keygen: 897 },
  // HQC as liboqs 0.13-0.15 ship it (the 2023-04-30 submission): js:liboqs
  "hqc-128": { keygen: 2249, encaps: 4433 + 64, decaps: 64 },
  "hqc-192": { keygen: 4522, encaps: 8978 + 64, decaps: 64 },
  "hqc-256": { keygen: 7245, encaps: 14421 + 64, decaps: 64 },
  "falcon-1024": { keygen: 1793 },
  ed25519: { sign: 64, keygen: 32 },
  ed448: { sign: 114, keygen: 57 },
  x25519: { keygen: 32, derive: 32 },
  x448: { keygen: 56, derive: 56 },
  "ecdh-p256": { derive: 32 },
  "ecdh-secp256k1": { derive: 32 },
  "ecdh-p384": { derive: 48 },
  "ecdsa-p256": { keygen: 91 },
  "ecdsa-secp256k1": { keygen: 88 },
  "ecdsa-p384": { keygen: 120 },
  "rsa-2048": { keygen: 294 },
  "rsa-3072": { keygen: 422 },
  "rsa-4096": { keygen: 550 },
};
// FIPS 205 Table 2: public key, signature
const SLH = { 128: 32, 192: 48, 256: 64 };
const SLH_SIG = { "128s": 7856, "128f": 17088, "192s": 16224, "192f": 35664, "256s": 29792, "256f": 49856 };
for (const h of ["sha2", "shake"]) {
  for (const [p, sig] of Object.entries(SLH_SIG))
    FIXED[`slh-dsa-${h}-${p}`] = { sign: sig, keygen: SLH[p.slice(0, 3)] };
}
for (const n of [2048, 3072, 4096]) {
  FIXED[`rsa-${n}-pss`] = { sign: n / 8 };
  FIXED[`rsa-${n}-pkcs1`] = { sign: n / 8 };
  FIXED[`rsa-${n}-oaep`] = { encrypt: n / 8, decrypt: 32 };
}

function checkLength(alg, op, n) {
  if (op === "verify") return assert.equal(n, 1);
  const want = FIXED[alg] && FIXED[alg][op];
  if (want !== undefined) return assert.equal(n, want, `${alg} ${op}: output length`);
  if (alg.startsWith("falcon-") && op === "sign") {
    const max = alg === "falcon-512" ? 752 : 1462; // compressed: variable, at most the submission's maximum
    return assert.ok(n > 41 && n <= max, `${alg} sign: length ${n}`);
  }
  if (alg.startsWith("ecdsa-") && op === "sign") {
    const max = alg === "ecdsa-p384" ? 104 : 72; // DER SEQUENCE {r, s}
    return assert.ok(n >= 8 && n <= max, `${alg} sign: DER length ${n}`);
  }
  assert.fail(`no expected length for ${alg} ${op}`);
}

const SIZED = new Set(["sign", "verify", "encrypt", "decrypt"]);

function benchReq(alg, op, extra = {}) {
  return {
    cmd: "bench",
    alg,
    op,
    size: SIZED.has(op) ? 32 : 0,
    chunk: 0,
    seed: SEED,
    batch: /^rsa-\d+$/.test(alg) ? 1 : 0,
    target_ns: 100000,
    warmup_ns: 100000,
    samples: 2,
    ...extra,
  };
}

const hexPair = (k) => ({ public: toHex(k.public), private: toHex(k.private) });

// One operation of the cell the bench request would time, and its output.
async function cellOutput(a, op) {
  const cell = await a.cell({
    op,
    key: new Uint8Array(0),
    iv: new Uint8Array(0),
    size: 32,
    chunk: 0,
    seed: SEED,
    msg: MSG_BYTES,
  });
  await cell.run();
  return toHex(await cell.output());
}

// ---- bench cells ----------------------------------------------------------

for (const id of PROVIDER_IDS) {
  test(`pk bench cells of ${id}`, async (t) => {
    const d = await driverFor(id);
    for (const a of d.prov.algs) {
      if (!a.pk || (slowAlg(a.name) && !SLOW)) continue;
      for (const op of a.ops) {
        await t.test(`${a.name}/${op}`, async () => {
          const r = await request(d, benchReq(a.name, op));
          assert.equal(r.ok, true, r.error);
          assert.equal(r.samples_ns.length, 2);
          for (const s of r.samples_ns) assert.ok(Number.isInteger(s) && s > 0);
          if (/^rsa-\d+$/.test(a.name)) assert.equal(r.batch, 1, "batch 1 honoured");
          assert.ok(Number.isInteger(r.sink));
          const [lenHex] = r.checksum.split(":");
          checkLength(a.name, op, parseInt(lenHex, 16));
          if (op === "keygen") return;
          // The cells' own keys: what a cell produced must be usable.
          const kp = hexPair(await a.cellKeypair());
          switch (op) {
            case "verify":
              assert.equal(r.checksum, ONE_SUM);
              break;
            case "decrypt":
              assert.equal(r.checksum, checksum(MSG_BYTES), "the plaintext");
              break;
            case "derive": {
              const peer = hexPair(await a.cellKeypair("peer"));
              const want = await caseOf(d, a.name, "derive", { private: kp.private, public: peer.public });
              assert.equal(r.checksum, checksum(fromHex("out", want.out)), "the shared secret of the cell's keys");
              break;
            }
            case "sign": {
              const sig = await cellOutput(a, "sign");
              const v = await caseOf(d, a.name, "verify", { public: kp.public, msg: MSG, sig });
              assert.equal(v.out, "01", "the cell's signature verifies");
              break;
            }
            case "encrypt": {
              const ct = await cellOutput(a, "encrypt");
              const pt = await caseOf(d, a.name, "decrypt", { private: kp.private, msg: ct });
              assert.equal(pt.out, MSG, "the cell's ciphertext decrypts");
              break;
            }
            case "encaps": {
              const out = await cellOutput(a, "encaps");
              const n = ssHex(a.name);
              const k = await caseOf(d, a.name, "decaps", { private: kp.private, msg: out.slice(0, -n) });
              assert.equal(k.out, out.slice(-n), "the cell's ciphertext decapsulates to its key");
              break;
            }
            case "decaps":
              break; // length above; the key depends on a random ciphertext
            default:
              assert.fail(`unexpected op ${op}`);
          }
        });
      }
    }
    // a fixed batch is honoured; a streamed cell is not offered
    if (!d.prov.algs.some((a) => a.name === "ed25519")) return;
    const r = await request(d, benchReq("ed25519", "sign", { batch: 3, samples: 1 }));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.batch, 3);
    const c = await request(d, benchReq("ed25519", "sign", { chunk: 16 }));
    assert.match(c.error ?? "", /^not offered: /);
  });
}

test("rsa-oaep: a plaintext longer than k - 66 is not offered at that size", async () => {
  for (const id of ["js:node", "js:webcrypto"]) {
    const d = await driverFor(id);
    const ok = await request(d, benchReq("rsa-2048-oaep", "encrypt", { size: 190 }));
    assert.equal(ok.ok, true, ok.error);
    assert.equal(ok.checksum.split(":")[0], "00000100");
    const r = await request(d, benchReq("rsa-2048-oaep", "decrypt", { size: 191 }));
    assert.equal(r.ok, false);
    assert.match(r.error, /^not offered: .*190 bytes/);
  }
});

// ---- self- and cross-provider checks --------------------------------------

for (const id of PROVIDER_IDS) {
  test(`pk self-cross-check ${id}`, async (t) => {
    const d = await driverFor(id);
    for (const a of d.prov.algs) {
      if (!a.pk || (slowAlg(a.name) && !SLOW)) continue;
      await t.test(a.name, () => exchange(a.name, d, d));
    }
  });
}

test("pk cross-provider checks within JavaScript", async (t) => {
  const ids = PROVIDER_IDS.filter((id) => id !== "wasm:hash-wasm");
  const drivers = await Promise.all(ids.map((id) => driverFor(id)));
  const offers = (d, alg) => d.prov.algs.some((a) => a.name === alg);
  const pairs = [];
  for (const P of drivers) {
    for (const Q of drivers) {
      if (P === Q) continue;
      for (const a of P.prov.algs) {
        if (!a.pk || slowAlg(a.name) || !offers(Q, a.name)) continue;
        pairs.push([a.name, P, Q]);
      }
    }
  }
  // the pairs the lead asked for are among them
  const has = (alg, p, q) => pairs.some(([x, P, Q]) => x === alg && P.prov.id === p && Q.prov.id === q);
  assert.ok(has("ecdsa-p256", "js:noble", "js:node"), "js:node verifies js:noble's P-256 signature");
  assert.ok(has("ecdsa-p256", "js:node", "js:webcrypto"), "js:webcrypto verifies js:node's P-256 signature");
  for (const [alg, P, Q] of pairs) {
    await t.test(`${alg} ${P.prov.id} -> ${Q.prov.id}`, () => exchange(alg, P, Q));
  }
});

// RSA-3072/4096 without their key generation cost per algorithm: one
// node:crypto key pair per size, used by js:node and js:webcrypto for
// PSS, PKCS#1 v1.5 and OAEP in both directions.
test("rsa-3072/4096 with one key pair per size", { skip: SLOW && "covered by the slow tests" }, async (t) => {
  const node = await driverFor("js:node");
  const web = await driverFor("js:webcrypto");
  for (const n of [3072, 4096]) {
    const kp = await keypair(node, `rsa-${n}`);
    for (const [P, Q] of [
      [node, web],
      [web, node],
    ]) {
      await t.test(`rsa-${n} ${P.prov.id} -> ${Q.prov.id}`, async () => {
        for (const scheme of ["pss", "pkcs1"]) {
          const alg = `rsa-${n}-${scheme}`;
          const s = await caseOf(P, alg, "sign", { private: kp.private, msg: MSG });
          assert.equal(s.out.length, n / 4, `${alg} signature length`);
          assert.equal((await caseOf(Q, alg, "verify", { public: kp.public, msg: MSG, sig: s.out })).out, "01");
          const bad = await caseOf(Q, alg, "verify", { public: kp.public, msg: MSG, sig: flip(s.out) });
          assert.equal(bad.rejected, true);
        }
        const alg = `rsa-${n}-oaep`;
        const e = await caseOf(P, alg, "encrypt", { public: kp.public, msg: MSG });
        assert.equal((await caseOf(Q, alg, "decrypt", { private: kp.private, msg: e.out })).out, MSG);
        const bad = await caseOf(Q, alg, "decrypt", { private: kp.private, msg: flip(e.out) });
        assert.equal(bad.rejected, true);
      });
    }
  }
});

// ---- the keypair command, malformed input, unsupported variants -----------

test("keypair: encodings and errors", async () => {
  const lengths = {
    "ecdsa-p256": [91, 32],
    "ecdh-p384": [120, 48],
    ed25519: [32, 32],
    x448: [56, 56],
    "ml-kem-768": [1184, 64],
    "ml-dsa-65": [1952, 32],
  };
  // js:liboqs: @oqs/liboqs-js makes no key from a seed, so its private keys are the expanded ones
  // (FIPS 203 decapsulation key, FIPS 204 private key), never handed to another provider
  const expanded = { "ml-kem-768": [1184, 2400], "ml-dsa-65": [1952, 4032] };
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    for (const [alg, sizes] of Object.entries(lengths)) {
      if (!d.prov.algs.some((a) => a.name === alg)) continue;
      const [pub, priv] = id === "js:liboqs" ? expanded[alg] : sizes;
      const kp = await keypair(d, alg);
      assert.equal(kp.public.length, 2 * pub, `${id} ${alg} public`);
      assert.equal(kp.private.length, 2 * priv, `${id} ${alg} private`);
    }
    for (const alg of ["noop", "md5"]) {
      const r = await request(d, { cmd: "keypair", alg });
      assert.equal(r.ok, false);
      assert.match(r.error, /^not offered: /);
    }
    assert.equal((await request(d, { cmd: "keypair" })).ok, false);
  }
});

test("malformed public-key input is rejected, never an error", async () => {
  const tries = [
    ["ecdsa-p256", "verify", { public: "00", msg: MSG, sig: "3006020101020101" }],
    ["ecdsa-p256", "verify", { public: "3059", msg: MSG, sig: "30" }],
    ["ecdh-p256", "derive", { private: "01".repeat(32), public: "04" + "00".repeat(64) }],
    ["ecdh-p256", "derive", { private: "01", public: "00" }],
    ["ed25519", "verify", { public: "00".repeat(31), msg: MSG, sig: "00".repeat(64) }],
    ["ed25519", "sign", { private: "00".repeat(31), msg: MSG }],
    ["x25519", "derive", { private: "00".repeat(32), public: "00".repeat(31) }],
    ["ml-kem-768", "decaps", { private: "00".repeat(64), msg: "00".repeat(10) }],
    ["ml-kem-768", "encaps", { public: "00".repeat(10) }],
    ["ml-kem-768", "keygen", { seed: "00".repeat(63) }],
    ["ml-dsa-65", "verify", { public: "00".repeat(10), msg: MSG, sig: "00" }],
    ["ml-dsa-65", "sign", { private: "00".repeat(32), msg: MSG, ctx: "00".repeat(256) }],
    ["rsa-2048-pss", "verify", { public: "3000", msg: MSG, sig: "00" }],
    ["rsa-2048-oaep", "decrypt", { private: "3000", msg: "00" }],
  ];
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    for (const [alg, op, fields] of tries) {
      if (!d.prov.algs.some((a) => a.name === alg)) continue;
      const r = await caseOf(d, alg, op, fields);
      // js:liboqs takes no seeds at all (keygen from one, a seed-form private key): unsupported
      if (id === "js:liboqs" && alg.startsWith("ml-") && (op === "keygen" || fields.private !== undefined)) {
        assert.equal(typeof r.unsupported, "string", `${id} ${alg} ${op}: ${JSON.stringify(r)}`);
        continue;
      }
      assert.deepEqual(r, { id: "x#1", rejected: true }, `${id} ${alg} ${op}`);
    }
  }
});

test("variants a library has no API for are unsupported, not failed", async () => {
  for (const id of PROVIDER_IDS) {
    const d = await driverFor(id);
    if (!d.prov.algs.some((a) => a.name === "ed25519")) continue;
    const kp = await keypair(d, "ed25519");
    const r = await caseOf(d, "ed25519", "sign", { private: kp.private, msg: MSG, ctx: "0102" });
    assert.equal(typeof r.unsupported, "string", `${id}: ${JSON.stringify(r)}`);
    // EdDSA is deterministic anyway
    const det = await caseOf(d, "ed25519", "sign", { private: kp.private, msg: MSG, deterministic: true });
    assert.equal(typeof det.out, "string", `${id}: ${JSON.stringify(det)}`);
    // ECDSA: deterministic in noble (RFC 6979), random k in OpenSSL
    const ek = await keypair(d, "ecdsa-p256");
    const e = await caseOf(d, "ecdsa-p256", "sign", { private: ek.private, msg: MSG, deterministic: true });
    if (id === "js:noble") assert.equal(typeof e.out, "string", JSON.stringify(e));
    else assert.equal(typeof e.unsupported, "string", `${id}: ${JSON.stringify(e)}`);
  }
  // noble's ML-DSA has both: the deterministic signature is reproducible
  const d = await driverFor("js:noble");
  const kp = await keypair(d, "ml-dsa-44");
  await signsWithContext(d, "ml-dsa-44", kp);
});

// ---- encoding glue ---------------------------------------------------------

test("pk.js: ECDSA DER <-> raw, strictly", () => {
  const raw = fromHex("r", "80" + "00".repeat(30) + "01" + "00".repeat(31) + "7f");
  const der = ecdsaRawToDer(raw);
  assert.equal(toHex(der), "3026022100800000000000000000000000000000000000000000000000000000000000000102017f");
  assert.deepEqual(ecdsaDerToRaw(der, 32), raw);
  const bad = [
    "3006020101020101ff", // trailing byte
    "3007020101020101", // wrong SEQUENCE length
    "3106020101020101", // not a SEQUENCE
    "30070202000102017f", // non-minimal INTEGER
    "3006020180020101", // negative INTEGER
    "308106020101020101", // non-minimal length
    "3080020101020101", // indefinite length
    "30050201010201", // truncated
    "3026022101" + "00".repeat(32) + "020101", // r longer than 32 bytes
  ];
  for (const h of bad) {
    assert.throws(
      () => ecdsaDerToRaw(fromHex("s", h), 32),
      (e) => e instanceof Rejected,
      h,
    );
  }
});

test("pk.js: EC SPKI prefixes and named curves", () => {
  for (const [name, c] of Object.entries(EC_CURVES)) {
    const point = new Uint8Array(1 + 2 * c.bytes).fill(7);
    point[0] = 4;
    const spki = ecSpki(c, point);
    assert.equal(spki.length, { p256: 91, p384: 120, secp256k1: 88 }[name]);
    assert.deepEqual(ecPointFromSpki(c, spki), point);
    assert.equal(requireNamedCurve(spki), spki);
    const comp = point.subarray(0, 1 + c.bytes).slice();
    comp[0] = 3;
    assert.deepEqual(ecPointFromSpki(c, ecSpki(c, comp)), comp);
    comp[0] = 4;
    assert.throws(() => ecPointFromSpki(c, ecSpki(c, comp)), Rejected);
    const other = name === "p256" ? EC_CURVES.secp256k1 : EC_CURVES.p256;
    assert.throws(() => ecPointFromSpki(other, spki), Rejected);
  }
  assert.equal(
    toHex(ecSpki(EC_CURVES.p256, new Uint8Array(65))).slice(0, 52),
    "3059301306072a8648ce3d020106082a8648ce3d030107034200",
  );
  // explicit parameters (Wycheproof's UnnamedCurve keys) are refused
  const explicit = fromHex("k", "3081f53081ae06072a8648ce3d02013081a2020101");
  assert.throws(() => requireNamedCurve(explicit), Rejected);
});

// ---- noble's post-quantum additions ----------------------------------------

// X-Wing is one of three X25519+ML-KEM-768 combiners in noble's hybrid.js:
// rebuild draft-connolly-cfrg-xwing-kem from its parts (SHAKE256 key
// expansion, ML-KEM-768, X25519, SHA3-256 over ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖
// the label) and check that keygen, deterministic encaps and decaps of the
// `x-wing` the driver offers give the same bytes (QSF or KitchenSink would not).
test("x-wing is draft-connolly-cfrg-xwing-kem, rebuilt from its parts", async () => {
  const { shake256, sha3_256 } = await import("@noble/hashes/sha3.js");
  const { ml_kem768 } = await import("@noble/post-quantum/ml-kem.js");
  const { x25519 } = await import("@noble/curves/ed25519.js");
  const d = await driverFor("js:noble");
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
  const eseed = Uint8Array.from({ length: 64 }, (_, i) => 0x40 + i);
  const exp = shake256(seed, { dkLen: 96 });
  const m = ml_kem768.keygen(exp.subarray(0, 64));
  const skX = exp.subarray(64, 96);
  const pkX = x25519.getPublicKey(skX);
  const pk = toHex(m.publicKey) + toHex(pkX);
  const kg = await caseOf(d, "x-wing", "keygen", { seed: toHex(seed) });
  assert.equal(kg.out, pk, "public key = ML-KEM-768 ek ‖ X25519 pk of the expanded seed");
  const em = ml_kem768.encapsulate(m.publicKey, eseed.subarray(0, 32));
  const ctX = x25519.getPublicKey(eseed.subarray(32, 64));
  const ssX = x25519.getSharedSecret(eseed.subarray(32, 64), pkX);
  const label = Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c); // \.//^\
  const parts = [em.sharedSecret, ssX, ctX, pkX, label];
  const ss = sha3_256(Uint8Array.from(parts.flatMap((x) => [...x])));
  const enc = await caseOf(d, "x-wing", "encaps", { public: pk, m: toHex(eseed) });
  assert.equal(enc.out, toHex(em.cipherText) + toHex(ctX) + toHex(ss), "ct_M ‖ ct_X ‖ SHA3-256 combiner");
  const dec = await caseOf(d, "x-wing", "decaps", { private: toHex(seed), msg: enc.out.slice(0, -64) });
  assert.equal(dec.out, toHex(ss));
  const bad = await caseOf(d, "x-wing", "decaps", { private: "00".repeat(31), msg: enc.out.slice(0, -64) });
  assert.equal(bad.rejected, true, "a 31-byte seed is rejected");
});

// X-Wing's first published test vector (draft-connolly-cfrg-xwing-kem-08,
// Appendix C): the public key and ciphertext as SHA-256 digests of the
// published hex, the seed, eseed and shared secret as published.
test("x-wing: the draft's test vector 1", async () => {
  const { sha256 } = await import("@noble/hashes/sha2.js");
  const d = await driverFor("js:noble");
  const seed = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
  const eseed =
    "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2";
  const ss = "d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384";
  const digest = (h) => toHex(sha256(fromHex("x", h)));
  const pk = (await caseOf(d, "x-wing", "keygen", { seed })).out;
  assert.equal(digest(pk), "2e816deebcd76c5c80d0cd2d174478871658e8e2ff42bc9d4a6e486372e856bb", "public key");
  const enc = (await caseOf(d, "x-wing", "encaps", { public: pk, m: eseed })).out;
  assert.equal(digest(enc.slice(0, -64)), "17cd532d657e44c897ca6583e548a5424fc70bf54f99515a4d2bcf99e3469f33", "ct");
  assert.equal(enc.slice(-64), ss);
  assert.equal((await caseOf(d, "x-wing", "decaps", { private: seed, msg: enc.slice(0, -64) })).out, ss);
});

// SLH-DSA: keygen from SK.seed‖SK.prf‖PK.seed puts PK.seed in the public key
// and both halves in the private one; the deterministic variant (opt_rand =
// PK.seed) is reproducible, the hedged one is not; the context binds.
test("slh-dsa-sha2-128f: seeded keygen, deterministic and hedged signing, context", async () => {
  const d = await driverFor("js:noble");
  const seed = Uint8Array.from({ length: 48 }, (_, i) => i);
  const kg = await caseOf(d, "slh-dsa-sha2-128f", "keygen", { seed: toHex(seed) });
  assert.equal(kg.out.slice(0, 32), toHex(seed.subarray(32, 48)), "PK.seed leads the public key");
  const kp = await keypair(d, "slh-dsa-sha2-128f");
  assert.equal(kp.public.length, 64);
  assert.equal(kp.private.length, 128);
  assert.equal(kp.private.slice(64), kp.public, "private key ends with the public key");
  await signsWithContext(d, "slh-dsa-sha2-128f", kp);
  const short = await caseOf(d, "slh-dsa-sha2-128f", "keygen", { seed: "00".repeat(47) });
  assert.equal(short.rejected, true);
});

test("js:noble offers the SLH-DSA sets that sign within seconds in pure JavaScript", async () => {
  const d = await driverFor("js:noble");
  const slh = d.prov.algs.filter((a) => a.name.startsWith("slh-dsa-")).map((a) => a.name);
  const want = ["sha2-128s", "sha2-128f", "sha2-192f", "sha2-256f", "shake-128f", "shake-192f"].map(
    (p) => `slh-dsa-${p}`,
  );
  assert.deepEqual(slh.sort(), want.sort());
});

test("falcon: no deterministic signing or context in noble's Falcon", async () => {
  const d = await driverFor("js:noble");
  const kp = await keypair(d, "falcon-512");
  assert.equal(kp.public.length, 2 * 897);
  assert.equal(kp.private.length, 2 * 1281);
  assert.equal(kp.public.slice(0, 2), "09", "public key header 0x00 + logn");
  const s = await caseOf(d, "falcon-512", "sign", { private: kp.private, msg: MSG });
  assert.equal(s.out.slice(0, 2), "39", "detached compressed signature header 0x30 + logn");
  const det = await caseOf(d, "falcon-512", "sign", { private: kp.private, msg: MSG, deterministic: true });
  assert.equal(typeof det.unsupported, "string", JSON.stringify(det));
  const ctx = await caseOf(d, "falcon-512", "sign", { private: kp.private, msg: MSG, ctx: "01" });
  assert.equal(typeof ctx.unsupported, "string", JSON.stringify(ctx));
});
