// js:jsrsasign — jsrsasign (pure JavaScript RSA and ECDSA over Tom Wu's
// BigInteger), the RSA/ECC library of the web report issue 36 redoes. The
// same module serves browser:jsrsasign through the browser bridge (which
// serves the package's CommonJS lib/jsrsasign.js wrapped as an ES module).
//
// Runtime-neutral: versions and runtime text come from the entry point.
//
// jsrsasign works on hex strings: messages go in with updateHex, signatures
// come out and go in as hex. That conversion is encoding glue, made outside
// the timed region: a cell's message is converted once (the closure keeps
// the hex of the last message array it saw, which in a cell is always the
// same one), the signature a verify cell checks is kept as hex, and a sign
// cell's hex output is decoded only for the checksum.

import jsrsasign from "jsrsasign";
import { fromHex, toHex } from "./input.js";
import { checkLen, describe, noopAlg, packageVersion, Rejected } from "./ops.js";
import { EC_CURVES, ecPointFromSpki, ecSpki, leftPad } from "./pk.js";
import { pkAlg } from "./pkalg.js";

const { KEYUTIL, KJUR, RSAKey, hextopem } = jsrsasign;

// hexOf: the hex of a message, memoised on the array's identity (a cell
// passes the same message array to every call).
function hexMemo() {
  let last = null;
  let hex = "";
  return (m) => {
    if (m !== last) {
      hex = toHex(m);
      last = m;
    }
    return hex;
  };
}

const sigIn = (b) => toHex(b);
const sigOut = (h) => fromHex("signature", h);

// ---- RSA ------------------------------------------------------------------

// jsrsasign's own RSA key generation (KEYUTIL.generateKeypair('RSA', 2048))
// took 28 s for one 2048-bit key on this project's loaded 2-core machine:
// cell key pairs come from the runtime's WebCrypto generateKey (e = 65537),
// exported as PKCS#8/SPKI and parsed by KEYUTIL.getKey, outside the timed
// region; RSA key generation is not offered.
async function webcryptoRsaPair(bitsLen) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new Error("no WebCrypto in this runtime to make the RSA key pair");
  const k = await subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: bitsLen, publicExponent: Uint8Array.of(1, 0, 1), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  const spki = new Uint8Array(await subtle.exportKey("spki", k.publicKey));
  const pkcs8 = new Uint8Array(await subtle.exportKey("pkcs8", k.privateKey));
  return { pub: rsaPublic(spki), priv: rsaPrivate(pkcs8), spki, pkcs8 };
}

function rsaPublic(der) {
  const k = KEYUTIL.getKey(hextopem(toHex(der), "PUBLIC KEY"));
  if (!(k instanceof RSAKey)) throw new Rejected("not an RSA public key");
  return k;
}

function rsaPrivate(der) {
  const k = KEYUTIL.getKey(hextopem(toHex(der), "PRIVATE KEY"));
  if (!(k instanceof RSAKey) || !k.isPrivate) throw new Rejected("not an RSA private key");
  return k;
}

// Signature algorithm names: PKCS#1 v1.5 "SHA256withRSA"; PSS
// "SHA256withRSAandMGF1" (MGF1 with SHA-256) with psssaltlen 32.
function rsaEngine(bitsLen, scheme) {
  const params = scheme === "pss" ? { alg: "SHA256withRSAandMGF1", psssaltlen: 32 } : { alg: "SHA256withRSA" };
  return {
    async: false,
    deterministic: scheme === "pkcs1",
    generate: () => webcryptoRsaPair(bitsLen),
    exportPair: (k) => ({ public: k.spki, private: k.pkcs8 }),
    publicOf: (k) => k.spki,
    importPublic: (b) => {
      const k = rsaPublic(b);
      if (k.n.bitLength() !== bitsLen) throw new Rejected(`not a ${bitsLen}-bit key (${k.n.bitLength()})`);
      return k;
    },
    importPrivate: (b) => rsaPrivate(b),
    ...signing(params),
    sigIn,
    sigOut,
  };
}

// signing: the timed sign (new Signature, init(key), updateHex(message),
// sign() -> hex) and verify of a signature algorithm (RSA and ECDSA alike).
function signing(params) {
  return {
    signer: (priv) => {
      const hex = hexMemo();
      return (m) => {
        const s = new KJUR.crypto.Signature(params);
        s.init(priv);
        s.updateHex(hex(m));
        return s.sign();
      };
    },
    verifier: (pub) => {
      const hex = hexMemo();
      return (m, sigHex) => {
        const v = new KJUR.crypto.Signature(params);
        v.init(pub);
        v.updateHex(hex(m));
        return v.verify(sigHex) === true;
      };
    },
  };
}

// ---- ECDSA ----------------------------------------------------------------

// Keys: KJUR.crypto.ECDSA objects made outside the timed region from the
// bare scalar (prv: hex) or from the SEC1 point inside the SPKI (pk.js
// parses the SPKI as the fixed prefix of the named curve, as for noble;
// anything else is refused). Signatures are DER (jsrsasign's own encoding
// in and out); k comes from jsrsasign's SecureRandom (an ARC4 stream keyed
// from the runtime's crypto.getRandomValues at load).
function ecEngine(info, curveName, alg) {
  const params = { alg };
  return {
    async: false,
    generate: () => {
      const kp = KEYUTIL.generateKeypair("EC", curveName);
      return { priv: kp.prvKeyObj, pub: kp.pubKeyObj };
    },
    exportPair: (k) => ({
      public: ecSpki(info, fromHex("point", k.pub.pubKeyHex)),
      private: leftPad(fromHex("scalar", k.priv.prvKeyHex), info.bytes),
    }),
    publicOf: (k) => ecSpki(info, fromHex("point", k.pub.pubKeyHex)),
    importPublic: (b) => {
      const point = ecPointFromSpki(info, b);
      return new KJUR.crypto.ECDSA({ curve: curveName, pub: toHex(point) });
    },
    importPrivate: (b) => {
      checkLen("EC private key", b, info.bytes);
      return new KJUR.crypto.ECDSA({ curve: curveName, prv: toHex(b) });
    },
    ...signing(params),
    sigIn,
    sigOut,
  };
}

const RSA_BITS = [2048, 3072, 4096];

// ---- the catalogue --------------------------------------------------------

// env: { id, runtime, packageVersion(name) } from the entry point.
export function createProvider(env = {}) {
  const pkg = packageVersion(env, "jsrsasign");
  const inner = jsrsasign.VERSION;
  return {
    ...describe(env, {
      id: "js:jsrsasign",
      library: "jsrsasign (pure JavaScript RSA/ECDSA)",
      libraryVersion:
        inner && inner !== pkg ? `jsrsasign ${pkg} (its VERSION string says ${inner})` : `jsrsasign ${pkg}`,
    }),
    notes: [
      "jsrsasign's lib/jsrsasign.js (the npm package's CommonJS main; in the browser the same file wrapped as an ES module by the bridge's server). Pure JavaScript: Tom Wu's BigInteger (jsbn) for RSA and EC arithmetic.",
      "Sign = new KJUR.crypto.Signature({ alg }) + init(key) + updateHex(message hex) + sign() -> hex; verify = new Signature + init(public key) + updateHex + verify(signature hex). The Signature object is made inside the timed call (jsrsasign's documented use: one per signature), and hashing the message (jsrsasign's own SHA-256/384) is inside; the hex of the message is made once per cell outside it (jsrsasign takes hex strings), and so is the hex of a verify cell's signature; a sign cell's hex output is decoded only for the checksum.",
      "RSA: PKCS#1 v1.5 = 'SHA256withRSA'; PSS = 'SHA256withRSAandMGF1' with psssaltlen 32 (MGF1 with SHA-256). Keys: KEYUTIL.getKey of the PKCS#8/SPKI (as PEM) outside the timed region. RSA key generation is not offered: jsrsasign's KEYUTIL.generateKeypair('RSA', 2048) took 28 s on this project's loaded 2-core machine, so a cell's key pair (and a keypair request's) comes from the runtime's WebCrypto generateKey (e = 65537) and is parsed by jsrsasign. No RSA-OAEP (jsrsasign 11 has no public OAEP API).",
      "ECDSA P-256 with SHA-256: keys are KJUR.crypto.ECDSA objects from the bare scalar or the SEC1 point (the SPKI is taken apart by this driver's fixed per-curve prefix, as for noble; anything else is refused); signatures DER in and out. k is random, from jsrsasign's SecureRandom (ARC4 keyed from crypto.getRandomValues when the library loads). keygen = KEYUTIL.generateKeypair('EC', curve).",
      "Not offered: hashes, HMAC and ciphers (jsrsasign bundles CryptoJS for them; this provider is its public-key side), RSA keygen (above), RSA-OAEP; ECDSA P-384 and secp256k1, which jsrsasign has: one P-384 verification took about 0.5 s here (Wycheproof's 505 P-384 cases 259 s, P-256's 485 cases 70 s on this loaded 2-core machine), so only P-256, the web report's curve, is offered; Ed25519 (not in jsrsasign).",
      "The timing loop is synchronous (no await): noop is a plain synchronous empty call.",
      ...(env.notes || []),
    ],
    algs: [
      noopAlg(),
      ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pss`, ["sign", "verify"], rsaEngine(n, "pss"))),
      ...RSA_BITS.map((n) => pkAlg(`rsa-${n}-pkcs1`, ["sign", "verify"], rsaEngine(n, "pkcs1"))),
      pkAlg("ecdsa-p256", ["keygen", "sign", "verify"], ecEngine(EC_CURVES.p256, "secp256r1", "SHA256withECDSA")),
    ],
  };
}
