// The shared-vector cases a JavaScript library is known to fail, pinned by
// test/jsrsasign.test.js and the browser driver's libs.test.mjs: case id ->
// what Wycheproof says about it. jsrsasign 11.1.5 accepts these invalid
// signatures.

export const KNOWN_FAILURES = {
  "wycheproof/rsa_signature_2048_sha256_test.json#243": "PKCS#1 padding too short: 000001ff... (ShortPadding)",
  "wycheproof/rsa_signature_2048_sha256_test.json#244": "the signature is not reduced (SignatureMalleability)",
  "wycheproof/ecdsa_secp256r1_sha256_test.json#6": "Legacy: ASN encoding of s misses leading 0 (MissingZero)",
};
