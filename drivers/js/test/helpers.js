// Shared by the native tests: one driver per provider, built the way
// main_node.js builds it, and keys/IVs of the right lengths.

import { loadProvider, nodeDriver, providerIds } from "../src/main_node.js";

export const PROVIDER_IDS = providerIds();

export const SLOW = process.env.CRYPTOBENCH_SLOW_TESTS === "1";

// Pure-JS SLH-DSA signs in seconds (SHA2-128s: 4.5 s here) and Falcon-1024
// makes a key in about a second: by default one cheap set of each family
// (slh-dsa-sha2-128f, falcon-512) gets the bench cells and self-checks; the
// rest are slow tests.
export const slowAlg = (name) =>
  /^rsa-(3072|4096)/.test(name) ||
  (name.startsWith("slh-dsa-") && name !== "slh-dsa-sha2-128f") ||
  name === "falcon-1024";

const drivers = new Map();

// driverFor returns the (cached) Node driver of a provider.
export async function driverFor(id) {
  if (!drivers.has(id)) {
    const p = await loadProvider(id);
    if (p === null) throw new Error(`no provider ${id}`);
    drivers.set(id, nodeDriver(p));
  }
  return drivers.get(id);
}

// request sends one request object through handleLine and parses the answer.
export async function request(driver, req) {
  const line = typeof req === "string" ? req : JSON.stringify(req);
  const out = await driver.handleLine(line);
  if (typeof out !== "string" || out.includes("\n")) throw new Error(`response is not one line: ${out}`);
  return JSON.parse(out);
}

function hexOf(len, base) {
  let s = "";
  for (let i = 0; i < len; i++) s += ((base + i) & 0xff).toString(16).padStart(2, "0");
  return s;
}

// keyIV gives a key and IV of the right lengths for an algorithm (hex).
export function keyIV(alg) {
  let keyLen = 0;
  let ivLen = 0;
  if (alg.startsWith("aes-128-")) keyLen = 16;
  else if (alg.startsWith("aes-256-") || alg.includes("chacha20") || alg === "hmac-sha256") keyLen = 32;
  if (alg.endsWith("-cbc") || alg.endsWith("-ctr")) ivLen = 16;
  else if (alg.startsWith("xchacha20")) ivLen = 24;
  else if (alg.endsWith("-gcm") || alg.endsWith("-ccm") || alg.startsWith("chacha20")) ivLen = 12;
  return { key: hexOf(keyLen, 0x10), iv: hexOf(ivLen, 0xa0) };
}

// withRegenerationAbove runs body with a driver module's REGENERATE.above (the
// input size above which a streamed decrypt/open makes its ciphertext again
// per piece) lowered to `above`, and restores it after.
export async function withRegenerationAbove(module, above, body) {
  const { REGENERATE } = await import(module);
  const saved = REGENERATE.above;
  REGENERATE.above = above;
  try {
    await body();
  } finally {
    REGENERATE.above = saved;
  }
}
