/* Native tests of the C driver family (drivers.md, "Tests"): the fixed input, every exported vector
 * case through the verify case executor, one bench request per offered algorithm/operation
 * through the request handler, and for every public-key algorithm a self-cross-check through
 * keypair and verify cases (sign -> verify, a flipped signature rejected, ECDH shares agree,
 * encaps -> decaps, malformed keys rejected). Exits non-zero on any failure.
 *
 * One source for every binary: the Makefile compiles it once per ops module with
 * -DCB_TEST_PROVIDER='"<provider id>"' and -DCB_TEST_OPS_<module> (the catalogue that module must
 * offer); the module's table goes through the driver's loader (ops_plugin.c) as in cbdriver.
 * OpenSSL's one-call API is the independent reference for SHA-2 and HMAC in all of them. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <jansson.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "input.h"
#include "ops.h"
#include "ops_plugin.h"
#include "protocol.h"
#include "timing.h"

#define SEED 2654435769u

#ifndef CB_TEST_PROVIDER
#define CB_TEST_PROVIDER "c:openssl"
#define CB_TEST_OPS_openssl
#endif

#if defined(CB_TEST_OPS_openssl)
#include "ops_hs.h" /* the handshake cells' test hook */
#endif
#if defined(CB_TEST_OPS_liboqs)
#include <oqs/oqs.h> /* which ML-DSA code runs (known_deviations_active) */
#endif

/* RSA with each padding at three sizes, ECDSA and ECDH on three curves: Botan and OpenSSL alike */
#define RSA_EC_PK                                                                                  \
  "rsa-2048", "rsa-3072", "rsa-4096", "rsa-2048-pss", "rsa-3072-pss", "rsa-4096-pss",              \
      "rsa-2048-pkcs1", "rsa-3072-pkcs1", "rsa-4096-pkcs1", "rsa-2048-oaep", "rsa-3072-oaep",      \
      "rsa-4096-oaep", "ecdsa-p256", "ecdsa-p384", "ecdsa-secp256k1", "ecdh-p256", "ecdh-p384",    \
      "ecdh-secp256k1"

/* What each module must offer and stream (absent: must not be offered or streamed). ANY_CHUNK: the
 * library's streaming API takes pieces of any length (no granularity: chunk 100 must work). */
#if defined(CB_TEST_OPS_sodium)
static const char *const MUST_OFFER[] = {"noop",
                                         "sha256",
                                         "sha512",
                                         "blake2b-512",
                                         "hmac-sha256",
                                         "chacha20",
                                         "chacha20-poly1305",
                                         "xchacha20-poly1305",
                                         NULL};
static const char *const MUST_STREAM[] = {"sha256",      "sha512",   "blake2b-512",
                                          "hmac-sha256", "chacha20", NULL};
static const char *const NEVER_OFFER[] = {"aes-128-gcm", "aes-128-ctr", "aes-256-cbc", "sha3-256",
                                          "blake2s-256", "sm3",         "aes-128-ccm", "ecdsa-p256",
                                          "rsa-2048",    "ed448",       "x448",        "ml-kem-768",
                                          "ml-dsa-65",   "sm2",         NULL};
static const char *const MUST_OFFER_PK[] = {"ed25519", "x25519", NULL};
#define MIN_OFFERS 10
#define ANY_CHUNK 0
#elif defined(CB_TEST_OPS_liboqs) /* ML-KEM, ML-DSA, Falcon, HQC, SPHINCS+ and noop */
static const char *const MUST_OFFER[] = {"noop", NULL};
static const char *const MUST_STREAM[] = {NULL};
/* SPHINCS+ is never SLH-DSA (other outputs): liboqs 0.13 has no SLH-DSA */
static const char *const NEVER_OFFER[] = {"sha256",
                                          "aes-128-gcm",
                                          "chacha20-poly1305",
                                          "x25519",
                                          "ed25519",
                                          "ecdsa-p256",
                                          "rsa-2048",
                                          "sm2",
                                          "slh-dsa-sha2-128s",
                                          "slh-dsa-shake-256f",
                                          NULL};
static const char *const MUST_OFFER_PK[] = {"ml-kem-512",
                                            "ml-kem-768",
                                            "ml-kem-1024",
                                            "ml-dsa-44",
                                            "ml-dsa-65",
                                            "ml-dsa-87",
                                            "falcon-512",
                                            "falcon-1024",
                                            "hqc-128",
                                            "hqc-192",
                                            "hqc-256",
                                            "sphincs-sha2-128s-simple",
                                            "sphincs-sha2-128f-simple",
                                            "sphincs-sha2-192s-simple",
                                            "sphincs-sha2-192f-simple",
                                            "sphincs-sha2-256s-simple",
                                            "sphincs-sha2-256f-simple",
                                            "sphincs-shake-128s-simple",
                                            "sphincs-shake-128f-simple",
                                            "sphincs-shake-192s-simple",
                                            "sphincs-shake-192f-simple",
                                            "sphincs-shake-256s-simple",
                                            "sphincs-shake-256f-simple",
                                            NULL};
#define MIN_OFFERS 24
#define ANY_CHUNK 0
#elif defined(CB_TEST_OPS_botan) || defined(CB_TEST_OPS_botan_ffi)
static const char *const MUST_OFFER[] = {"noop",
                                         "sha256",
                                         "sha512",
                                         "sha3-256",
                                         "sha3-512",
                                         "blake2b-512",
                                         "sm3",
                                         "hmac-sha256",
                                         "aes-128-ecb",
                                         "aes-256-ecb",
                                         "aes-128-cbc",
                                         "aes-256-cbc",
                                         "aes-128-ctr",
                                         "aes-256-ctr",
                                         "chacha20",
                                         "aes-128-gcm",
                                         "aes-256-gcm",
                                         "aes-128-ccm",
                                         "aes-256-ccm",
                                         "chacha20-poly1305",
                                         "xchacha20-poly1305",
                                         NULL};
static const char *const MUST_STREAM[] = {
    "sha256",      "sha512",      "sha3-256",          "sha3-512",
    "blake2b-512", "sm3",         "hmac-sha256",       "aes-128-cbc",
    "aes-256-cbc", "aes-128-ctr", "aes-256-ctr",       "chacha20",
    "aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "xchacha20-poly1305",
    NULL};
static const char *const NEVER_OFFER[] = {"blake2s-256", "ed448",     "x448",
                                          "ml-kem-768",  "ml-dsa-65", NULL};
static const char *const MUST_OFFER_PK[] = {RSA_EC_PK, "ed25519", "x25519",  "sm2", "sm4-ecb",
                                            "sm4-cbc", "sm4-ctr", "sm4-gcm", NULL};
#define MIN_OFFERS 46
#define ANY_CHUNK 0
#else /* OpenSSL: what every supported version (1.1.1 .. 4.0) has */
static const char *const MUST_OFFER[] = {
    "noop",        "sha256",      "sha512",      "sha3-256",          "sha3-512",
    "blake2b-512", "hmac-sha256", "aes-128-ecb", "aes-256-ecb",       "aes-128-cbc",
    "aes-256-cbc", "aes-128-ctr", "aes-256-ctr", "chacha20",          "aes-128-gcm",
    "aes-256-gcm", "aes-128-ccm", "aes-256-ccm", "chacha20-poly1305", NULL};
static const char *const MUST_STREAM[] = {
    "sha256",      "sha512",   "hmac-sha256", "aes-128-ecb",       "aes-128-cbc",
    "aes-128-ctr", "chacha20", "aes-128-gcm", "chacha20-poly1305", NULL};
static const char *const MUST_OFFER_PK[] = {"sm4-ecb",
                                            "sm4-cbc",
                                            "sm4-ctr",
                                            RSA_EC_PK,
                                            "ed25519",
                                            "ed448",
                                            "x25519",
                                            "x448",
                                            "sm2",
#if OPENSSL_VERSION_NUMBER >= 0x30500000L /* native ML-KEM and ML-DSA, SM4-GCM */
                                            "ml-kem-512",
                                            "ml-kem-768",
                                            "ml-kem-1024",
                                            "ml-dsa-44",
                                            "ml-dsa-65",
                                            "ml-dsa-87",
                                            "sm4-gcm",
                                            "slh-dsa-sha2-128s",
                                            "slh-dsa-sha2-128f",
                                            "slh-dsa-sha2-192s",
                                            "slh-dsa-sha2-192f",
                                            "slh-dsa-sha2-256s",
                                            "slh-dsa-sha2-256f",
                                            "slh-dsa-shake-128s",
                                            "slh-dsa-shake-128f",
                                            "slh-dsa-shake-192s",
                                            "slh-dsa-shake-192f",
                                            "slh-dsa-shake-256s",
                                            "slh-dsa-shake-256f",
                                            "x25519mlkem768",
                                            "secp256r1mlkem768",
                                            "secp384r1mlkem1024",
#endif
                                            NULL};
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
static const char *const NEVER_OFFER[] = {NULL};
#else
static const char *const NEVER_OFFER[] = {
    "ml-kem-512",     "ml-kem-768",        "ml-kem-1024",        "ml-dsa-44",
    "ml-dsa-65",      "ml-dsa-87",         "slh-dsa-sha2-128s",  "slh-dsa-shake-256f",
    "x25519mlkem768", "secp256r1mlkem768", "secp384r1mlkem1024", NULL};
#endif
#define MIN_OFFERS 46
#define ANY_CHUNK 1
#endif

/* Vector cases the library is known to get wrong: reported on every run ("known library
 * deviation"), not counted as failures here. The orchestrator still marks the algorithm failed
 * for that provider (no number without a passing verify); README.md lists them. A listed case that
 * starts passing is reported too, so the list is kept honest. */
#if defined(CB_TEST_OPS_botan) || defined(CB_TEST_OPS_botan_ffi)
static const char *const KNOWN_DEVIATIONS[] = {
    /* RSA verification takes the signature as an integer: leading zero bytes are not refused */
    "wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json#104",
    /* the same for an OAEP ciphertext */
    "wycheproof/rsa_oaep_2048_sha256_mgf1sha256_test.json#30",
    /* Botan 2's Ed25519 verification does not enforce S < L (RFC 8032, 5.1.7): malleable */
    "wycheproof/ed25519_test.json#63", "wycheproof/ed25519_test.json#85", NULL};
#elif defined(CB_TEST_OPS_liboqs)
#include "known_deviations_liboqs.h" /* ML-DSA verification in liboqs 0.13.0's AVX2 code */
#else
static const char *const KNOWN_DEVIATIONS[] = {NULL};
#endif

/* Whether the library code the list above describes is the code that runs: for liboqs, its ML-DSA
 * AVX2 code (compiled in, and chosen at run time on a CPU with AVX2 and POPCNT); otherwise the
 * listed cases must pass like every other. */
static int known_deviations_active(void) {
#if defined(CB_TEST_OPS_liboqs)
#if defined(OQS_ENABLE_SIG_ml_dsa_44_avx2) && defined(OQS_ENABLE_SIG_ml_dsa_65_avx2) &&            \
    defined(OQS_ENABLE_SIG_ml_dsa_87_avx2)
  return OQS_CPU_has_extension(OQS_CPU_EXT_AVX2) && OQS_CPU_has_extension(OQS_CPU_EXT_POPCNT);
#else
  return 0;
#endif
#else
  return 1;
#endif
}

/* Key derivation and handshakes (protocol version 3): what the module must offer, and not. */
#if defined(CB_TEST_OPS_openssl)
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
static const char *const MUST_OFFER_V3[] = {"hkdf-sha256", "ntor",         "pq-ntor-512",
                                            "pq-ntor-768", "pq-ntor-1024", NULL};
static const char *const NEVER_OFFER_V3[] = {NULL};
#else /* ntor wherever OpenSSL has X25519 and HKDF; pq-ntor needs ML-KEM */
static const char *const MUST_OFFER_V3[] = {"hkdf-sha256", "ntor", NULL};
static const char *const NEVER_OFFER_V3[] = {"pq-ntor-512", "pq-ntor-768", "pq-ntor-1024", NULL};
#endif
#else
static const char *const MUST_OFFER_V3[] = {NULL};
static const char *const NEVER_OFFER_V3[] = {"hkdf-sha256", "ntor", "pq-ntor-768", NULL};
#endif

static int passed, failed;

static void check(int ok, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void check(int ok, const char *fmt, ...) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  va_list ap;
  va_start(ap, fmt);
  fputs("FAIL: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Send one request through the handler as a line, parse the response line. */
static json_t *call(json_t *req) {
  char *line = json_dumps(req, JSON_COMPACT);
  int bye = 0;
  char *resp = cb_handle_line(line, strlen(line), &bye);
  json_t *r = NULL;
  if (resp == NULL || strchr(resp, '\n') != NULL) {
    check(0, "response to %s is not one line", line);
  } else {
    json_error_t e;
    r = json_loads(resp, 0, &e);
    check(json_is_object(r), "response is not a JSON object: %s", resp);
  }
  free(line);
  free(resp);
  json_decref(req);
  return r != NULL ? r : json_object();
}

static json_t *call_str(const char *line) {
  int bye = 0;
  char *resp = cb_handle_line(line, strlen(line), &bye);
  json_error_t e;
  json_t *r = resp != NULL ? json_loads(resp, 0, &e) : NULL;
  check(r != NULL && strchr(resp, '\n') == NULL, "response to %s is not one JSON line", line);
  free(resp);
  return r != NULL ? r : json_object();
}

static int is_ok(json_t *r) { return json_is_true(json_object_get(r, "ok")); }

/* json_decref of each argument */
static void decref_all(json_t *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    json_decref(v[i]);
}
#define DECREF(...)                                                                                \
  decref_all((json_t *[]){__VA_ARGS__}, sizeof((json_t *[]){__VA_ARGS__}) / sizeof(json_t *))

static const char *str(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s != NULL ? s : "";
}

static char *hex(const uint8_t *b, size_t n) { return hex_encode(b, n); }

#if defined(CB_TEST_OPS_openssl) && !defined(__wasi__) /* wasm: no sockets, no TLS cells */
#include "test_tls.h" /* the TLS 1.3 cells and interop commands (protocol version 7) */
#endif

#if defined(__wasi__)
/* wasm32 (OpenSSL's portable C bignum, no asm) takes minutes for every public-key algorithm: one
 * of each family is benched and self-checked (the others: `cryptobench verify` in each engine) */
static int wasm_pk(const char *alg) {
  static const char *const some[] = {"ed25519",    "x25519",    "ecdsa-p256", "rsa-2048-pss",
                                     "ml-kem-768", "ml-dsa-44", NULL};
  for (size_t i = 0; some[i] != NULL; i++)
    if (strcmp(alg, some[i]) == 0)
      return 1;
  return 0;
}
#else
static int wasm_pk(const char *alg) { return alg != NULL; }
#endif

/* ---- 1. input ---- */

static void test_input(void) {
  uint8_t *p = malloc(INPUT_PERIOD);
  input_pattern(SEED, p);
  char *h = hex(p, 16);
  check(strcmp(h, "193e3ab51f37d0bf39b8eeb4d33cb85f") == 0, "first 16 bytes of P: %s", h);
  free(h);
  check(input_fnv1a64(p, 1024) == 0x7ef541935f3b9cc9ULL, "FNV-1a 64 of 1 KiB");
  check(input_fnv1a64(p, INPUT_PERIOD) == 0x1846d3257d44728cULL, "FNV-1a 64 of 1 MiB");
  check(input_fnv1a64(p, 0) == 0xcbf29ce484222325ULL, "FNV-1a 64 of nothing");

  uint8_t *m = input_message(SEED, 1024);
  check(memcmp(m, p, 1024) == 0, "message of 1 KiB is P[0..1024)");
  free(m);
  size_t big = INPUT_PERIOD * 2 + 100;
  m = input_message(SEED, big);
  check(memcmp(m, p, INPUT_PERIOD) == 0 && memcmp(m + INPUT_PERIOD, p, INPUT_PERIOD) == 0 &&
            memcmp(m + 2 * INPUT_PERIOD, p, 100) == 0,
        "message longer than 1 MiB repeats P");
  free(m);

  uint8_t md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  EVP_Digest(p, 1024, md, &mdlen, EVP_sha256(), NULL);
  h = hex(md, mdlen);
  check(strcmp(h, "8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01") == 0,
        "SHA-256 of 1 KiB: %s", h);
  free(h);
  char cs[INPUT_CHECKSUM_LEN];
  input_checksum(md, mdlen, cs);
  check(strcmp(cs, "00000020:fb4898be6151a393") == 0, "checksum of the 1 KiB digest: %s", cs);
  input_checksum(p, 0, cs);
  check(strcmp(cs, "00000000:cbf29ce484222325") == 0, "checksum of nothing: %s", cs);

  uint8_t *b = NULL;
  size_t n = 0;
  check(hex_decode("00ff7A", &b, &n) == 0 && n == 3 && b[0] == 0 && b[1] == 0xff && b[2] == 0x7a,
        "hex decode");
  free(b);
  check(hex_decode("", &b, &n) == 0 && n == 0 && b != NULL, "hex decode of \"\"");
  free(b);
  check(hex_decode("abc", &b, &n) != 0, "odd-length hex rejected");
  check(hex_decode("0g", &b, &n) != 0, "non-hex rejected");
  free(p);
}

/* ---- 2. vectors ---- */

static int matches(const char *out, const char *expected, const char *cmp) {
  if (strcmp(cmp, "prefix") == 0)
    return strncmp(out, expected, strlen(expected)) == 0;
  return strcmp(out, expected) == 0;
}

/* Judge one result by the protocol.md appendix rules. */
static int judge(json_t *expected, json_t *result, char *why, size_t whylen) {
  const char *expect = str(expected, "expect"), *cmp = str(expected, "cmp");
  const char *want = str(expected, "out");
  json_t *out = json_object_get(result, "out");
  if (json_object_get(result, "error") != NULL) {
    snprintf(why, whylen, "error: %s", str(result, "error"));
    return 0;
  }
  if (strcmp(expect, "valid") == 0) {
    if (!json_is_string(out)) {
      snprintf(why, whylen, "valid case not answered with out");
      return 0;
    }
    if (!matches(json_string_value(out), want, cmp)) {
      snprintf(why, whylen, "out %.80s, expected %.80s (%s)", json_string_value(out), want, cmp);
      return 0;
    }
    return 1;
  }
  if (strcmp(expect, "invalid") == 0) {
    if (json_is_true(json_object_get(result, "rejected")))
      return 1;
    if (json_is_string(out) && !matches(json_string_value(out), want, cmp))
      return 1;
    snprintf(why, whylen, "invalid case accepted");
    return 0;
  }
  if (strcmp(expect, "acceptable") == 0)
    return 1;
  snprintf(why, whylen, "unknown expect: %s", expect);
  return 0;
}

static void test_vectors(void) {
  const char *dir = getenv("CRYPTOBENCH_CASES");
  if (dir == NULL || *dir == '\0')
    dir = "../../build/cases";
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    check(0,
          "cases directory %s not found: create it with "
          "`cd <repository root> && python3 -m cryptobench.verify.vectors.export build/cases` "
          "(or set CRYPTOBENCH_CASES)",
          dir);
    return;
  }
  for (size_t i = 0; i < ops_alg_count(); i++) {
    const ops_alg *a = ops_alg_at(i);
    if (strcmp(a->name, "noop") == 0)
      continue; /* no vectors: the empty operation */
    if (strncmp(a->name, "tls13-", 6) == 0)
      continue; /* no vectors: checked by their own handshakes and interop (test_tls.h) */
    if (a->pk && !wasm_pk(a->name))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, a->name);
    FILE *f = fopen(path, "r");
    if (f == NULL && a->pk) { /* e.g. ed448, sm2, rsa-3072-*: no Wycheproof file exported */
      printf("vectors %-18s no case file: checked by the self-cross-check only\n", a->name);
      continue;
    }
    if (f == NULL) {
      check(0, "%s offered but %s missing", a->name, path);
      continue;
    }
    json_t *expected = json_array(), *cases = json_array();
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
      if (line[0] == '\n')
        continue;
      json_error_t e;
      json_t *c = json_loads(line, 0, &e);
      if (!json_is_object(c)) {
        check(0, "%s: unparseable line: %s", path, e.text);
        json_decref(c);
        continue;
      }
      json_t *sent = json_deep_copy(c);
      json_object_del(sent, "expect");
      json_object_del(sent, "out");
      json_object_del(sent, "cmp");
      json_array_append_new(cases, sent);
      json_array_append_new(expected, c);
    }
    free(line);
    fclose(f);
    size_t ncases = json_array_size(cases);
    check(ncases > 0, "%s: no cases", path);
    json_t *r = call(json_pack("{s:s, s:s, s:o}", "cmd", "verify", "alg", a->name, "cases", cases));
    json_t *results = json_object_get(r, "results");
    check(is_ok(r) && json_array_size(results) == ncases, "%s: verify answered %zu of %zu", a->name,
          json_array_size(results), ncases);
    size_t good = 0, skipped = 0, known = 0;
    for (size_t k = 0; k < ncases && k < json_array_size(results); k++) {
      json_t *exp = json_array_get(expected, k), *res = json_array_get(results, k);
      char why[300] = "";
      int same_id = json_equal(json_object_get(res, "id"), json_object_get(exp, "id"));
      if (same_id && json_object_get(res, "unsupported") != NULL) {
        skipped++; /* the library has no API for this variant: skipped, as the orchestrator does */
        continue;
      }
      int ok = same_id && judge(exp, res, why, sizeof why);
      int deviation = 0;
      for (size_t d = 0; known_deviations_active() && KNOWN_DEVIATIONS[d] != NULL; d++)
        deviation |= strcmp(KNOWN_DEVIATIONS[d], str(exp, "id")) == 0;
      if (deviation) {
        known++;
        printf("vectors %-18s %s: %s\n", a->name, str(exp, "id"),
               ok ? "listed as a known library deviation but passes now: update the list"
                  : "known library deviation (see README.md)");
        continue;
      }
      check(ok, "%s %s: %s", a->name, str(exp, "id"), why[0] ? why : "id not echoed");
      good += ok;
    }
    check(good > 0, "%s: no vector case passed", a->name);
    printf("vectors %-18s %zu/%zu cases pass", a->name, good, ncases);
    if (skipped > 0)
      printf(", %zu unsupported (skipped)", skipped);
    if (known > 0)
      printf(", %zu known library deviations", known);
    printf("\n");
    DECREF(r, expected);
  }
}

/* ---- 3. bench ---- */

static size_t key_len_for(const char *alg) {
  if (strncmp(alg, "aes-128", 7) == 0 || strncmp(alg, "sm4-", 4) == 0)
    return 16;
  if (strncmp(alg, "aes-256", 7) == 0 || strncmp(alg, "chacha20", 8) == 0 ||
      strncmp(alg, "xchacha20", 9) == 0 || strcmp(alg, "hmac-sha256") == 0)
    return 32;
  return 0;
}

static size_t iv_len_for(const char *alg) {
  if (strncmp(alg, "xchacha20", 9) == 0)
    return 24;
  if (strncmp(alg, "aes", 3) != 0 && strncmp(alg, "chacha20", 8) != 0 &&
      strncmp(alg, "sm4-", 4) != 0)
    return 0;
  if (strstr(alg, "-ecb") != NULL)
    return 0;
  if (strstr(alg, "-cbc") != NULL || strstr(alg, "-ctr") != NULL)
    return 16;
  return 12;
}

/* A bench request with the key k and IV v in hex (both freed here). */
static json_t *bench_req_hex(const char *alg, const char *op, size_t size, size_t chunk,
                             size_t batch, size_t samples, uint64_t warmup_ns, char *k, char *v) {
  json_t *req = json_pack("{s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "cmd",
                          "bench", "alg", alg, "op", op, "size", (json_int_t)size, "chunk",
                          (json_int_t)chunk, "key", k, "iv", v, "seed", (json_int_t)SEED, "batch",
                          (json_int_t)batch, "target_ns", (json_int_t)200000, "warmup_ns",
                          (json_int_t)warmup_ns, "samples", (json_int_t)samples);
  free(k);
  free(v);
  return req;
}

static json_t *bench_req_n(const char *alg, const char *op, size_t size, size_t chunk, size_t batch,
                           size_t samples, uint64_t warmup_ns) {
  uint8_t key[32], iv[24];
  for (int i = 0; i < 32; i++)
    key[i] = (uint8_t)(i * 7 + 1);
  for (int i = 0; i < 24; i++)
    iv[i] = (uint8_t)(0xa0 + i);
  return bench_req_hex(alg, op, size, chunk, batch, samples, warmup_ns, hex(key, key_len_for(alg)),
                       hex(iv, iv_len_for(alg)));
}

static json_t *bench_req(const char *alg, const char *op, size_t size, size_t chunk, size_t batch) {
  return bench_req_n(alg, op, size, chunk, batch, 3, 1000000);
}

/* The output of one operation on msg through the verify case executor (a fresh cell), hex. */
static char *oneshot(const char *alg, const char *op, const uint8_t *msg, size_t n) {
  json_t *req = bench_req(alg, op, 0, 0, 0); /* borrow key and iv */
  char *m = hex(msg, n);
  json_t *cs = json_pack("{s:s, s:s, s:O, s:O, s:s}", "id", "oneshot", "op", op, "key",
                         json_object_get(req, "key"), "iv", json_object_get(req, "iv"), "msg", m);
  free(m);
  json_t *r = call(json_pack("{s:s, s:s, s:[o]}", "cmd", "verify", "alg", alg, "cases", cs));
  json_decref(req);
  json_t *res = json_array_get(json_object_get(r, "results"), 0);
  const char *out = json_string_value(json_object_get(res, "out"));
  check(out != NULL, "one-shot %s %s: %s", alg, op, str(res, "error"));
  char *copy = strdup(out != NULL ? out : "");
  json_decref(r);
  return copy;
}

/* Where OpenSSL has a one-call API, compare the executor's output with it. */
static void independent(const char *alg, const uint8_t *msg, size_t n, const char *out) {
  uint8_t md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  if (strcmp(alg, "hmac-sha256") == 0) {
    json_t *req = bench_req(alg, "mac", 0, 0, 0); /* the same key */
    uint8_t *key = NULL;
    size_t klen = 0;
    hex_decode(str(req, "key"), &key, &klen);
    HMAC(EVP_sha256(), key, (int)klen, msg, n, md, &mdlen);
    free(key);
    json_decref(req);
  } else if (strcmp(alg, "sha256") == 0 || strcmp(alg, "sha512") == 0) {
    EVP_Digest(msg, n, md, &mdlen, alg[3] == '2' ? EVP_sha256() : EVP_sha512(), NULL);
  } else {
    return;
  }
  char *h = hex(md, mdlen);
  check(strcmp(h, out) == 0, "%s agrees with OpenSSL's one-call API", alg);
  free(h);
}

static void checksum_of_hex(const char *h, char *cs) {
  uint8_t *b = NULL;
  size_t n = 0;
  if (hex_decode(h, &b, &n) != 0) {
    strcpy(cs, "bad hex");
    return;
  }
  input_checksum(b, n, cs);
  free(b);
}

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A bench request answered with an error starting "not offered" (the library's streaming API
 * cannot take this chunk): allowed where the caller says so; returns 1 when that happened. */
/* want: a checksum; "LLLLLLLL:*" (the length only, for randomised outputs); "*" (any non-empty
 * output, for outputs of variable length such as DER signatures). */
static int checksum_matches(const char *got, const char *want) {
  if (strcmp(want, "*") == 0)
    return strlen(got) == 25 && strncmp(got, "00000000:", 9) != 0;
  size_t n = strlen(want);
  if (n > 0 && want[n - 1] == '*')
    return strlen(got) == 25 && strncmp(got, want, n - 1) == 0;
  return strcmp(got, want) == 0;
}

static int check_bench_full(const char *alg, const char *op, size_t size, size_t chunk,
                            size_t batch, size_t nsamples, uint64_t warmup_ns, const char *want,
                            int may_decline) {
  json_t *r = call(bench_req_n(alg, op, size, chunk, batch, nsamples, warmup_ns));
  if (may_decline && !is_ok(r) && starts_with(str(r, "error"), "not offered")) {
    printf("bench   %-18s %-7s size %zu chunk %zu: %s\n", alg, op, size, chunk, str(r, "error"));
    json_decref(r);
    return 1;
  }
  json_t *samples = json_object_get(r, "samples_ns");
  json_int_t got_batch = json_integer_value(json_object_get(r, "batch"));
  int ok = is_ok(r) && json_array_size(samples) == nsamples && got_batch > 0 &&
           (batch == 0 || got_batch == (json_int_t)batch) &&
           checksum_matches(str(r, "checksum"), want) &&
           strlen(str(r, "checksum_after")) == strlen(str(r, "checksum")) &&
           json_is_integer(json_object_get(r, "sink")) &&
           json_integer_value(json_object_get(json_object_get(r, "warmup"), "ops")) >= 1 &&
           json_integer_value(json_object_get(r, "peak_rss_kb")) > 0;
  for (size_t i = 0; ok && i < json_array_size(samples); i++)
    ok = json_integer_value(json_array_get(samples, i)) > 0;
  json_t *ticks = json_object_get(r, "samples_tsc"); /* optional: one count per sample */
  if (ok && ticks != NULL)
    ok = json_array_size(ticks) == nsamples;
  for (size_t i = 0; ok && ticks != NULL && i < nsamples; i++)
    ok = json_integer_value(json_array_get(ticks, i)) > 0;
  char *dump = json_dumps(r, JSON_COMPACT);
  check(ok, "bench %s %s size %zu chunk %zu batch %zu: want %s, got %.300s", alg, op, size, chunk,
        batch, want, dump);
  free(dump);
  json_decref(r);
  return 0;
}

static int check_bench_opt(const char *alg, const char *op, size_t size, size_t chunk, size_t batch,
                           const char *want, int may_decline) {
  return check_bench_full(alg, op, size, chunk, batch, 3, 1000000, want, may_decline);
}

static void check_bench(const char *alg, const char *op, size_t size, size_t chunk, size_t batch,
                        const char *want) {
  (void)check_bench_opt(alg, op, size, chunk, batch, want, 0);
}

/* ---- public-key algorithms ---- */

#define PK_MSG_LEN                                                                                 \
  32 /* the message of sign/verify/encrypt (the digest-sized input, docs/protocol.md) */

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Fixed output lengths of public-key operations (algorithms.py), -1 where they vary (DER
 * signatures); keygen: the encoded public key. */
static long pk_out_len(const char *alg, const char *op) {
  int n = 0;
  if (strcmp(op, "verify") == 0)
    return 1;
  if (strcmp(op, "decrypt") == 0)
    return PK_MSG_LEN;
  if (sscanf(alg, "ml-kem-%d", &n) == 1) {
    long ct = n == 512 ? 768 : n == 768 ? 1088 : 1568, ek = n == 512 ? 800 : n == 768 ? 1184 : 1568;
    return strcmp(op, "encaps") == 0 ? ct + 32 : strcmp(op, "decaps") == 0 ? 32 : ek;
  }
  if (sscanf(alg, "ml-dsa-%d", &n) == 1) {
    if (strcmp(op, "sign") == 0)
      return n == 44 ? 2420 : n == 65 ? 3309 : 4627;
    return n == 44 ? 1312 : n == 65 ? 1952 : 2592;
  }
  if (sscanf(alg, "falcon-%d", &n) == 1) /* signatures: compressed, of variable length */
    return strcmp(op, "keygen") == 0 ? (n == 512 ? 897 : 1793) : -1;
  if (sscanf(alg, "hqc-%d", &n) == 1) { /* liboqs 0.13: the 2023-04-30 submission, 64-byte keys */
    long ct = n == 128   ? 4433
              : n == 192 ? 8978
                         : 14421,
         pk = n == 128   ? 2249
              : n == 192 ? 4522
                         : 7245;
    return strcmp(op, "encaps") == 0 ? ct + 64 : strcmp(op, "decaps") == 0 ? 64 : pk;
  }
  char hash[8];
  int bits = 0;
  char speed = 0;
  if (sscanf(alg, "sphincs-%7[a-z0-9]-%d%c-simple", hash, &bits, &speed) == 3 ||
      sscanf(alg, "slh-dsa-%7[a-z0-9]-%d%c", hash, &bits, &speed) == 3) {
    /* FIPS 205 Table 2, the same sizes as SPHINCS+ round 3.1 */
    static const long sig_s[] = {7856, 16224, 29792}, sig_f[] = {17088, 35664, 49856};
    int k = bits == 128 ? 0 : bits == 192 ? 1 : 2;
    if (strcmp(op, "sign") == 0)
      return speed == 's' ? sig_s[k] : sig_f[k];
    return 2L * bits / 8;
  }
  if (sscanf(alg, "rsa-%d", &n) == 1) {
    if (strcmp(op, "keygen") == 0) /* SPKI DER of an RSA key with e = 65537 */
      return n == 2048 ? 294 : n == 3072 ? 422 : 550;
    return strcmp(op, "sign") == 0 || strcmp(op, "encrypt") == 0 ? n / 8 : -1;
  }
  static const struct {
    const char *alg, *op;
    long len;
  } t[] = {{"ed25519", "sign", 64},
           {"ed25519", "keygen", 32},
           {"ed448", "sign", 114},
           {"ed448", "keygen", 57},
           {"x25519", "keygen", 32},
           {"x25519", "derive", 32},
           {"x448", "keygen", 56},
           {"x448", "derive", 56},
           {"ecdh-p256", "derive", 32},
           {"ecdh-secp256k1", "derive", 32},
           {"ecdh-p384", "derive", 48},
           {"ecdsa-p256", "keygen", 91},
           {"ecdsa-p384", "keygen", 120},
           {"ecdsa-secp256k1", "keygen", 88},
           {"sm2", "keygen", 91},
           /* the TLS hybrid shares: key share, server share || secret, secret */
           {"x25519mlkem768", "keygen", 1216},
           {"x25519mlkem768", "encaps", 1120 + 64},
           {"x25519mlkem768", "decaps", 64},
           {"secp256r1mlkem768", "keygen", 1249},
           {"secp256r1mlkem768", "encaps", 1153 + 64},
           {"secp256r1mlkem768", "decaps", 64},
           {"secp384r1mlkem1024", "keygen", 1665},
           {"secp384r1mlkem1024", "encaps", 1665 + 80},
           {"secp384r1mlkem1024", "decaps", 80}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].alg, alg) == 0 && strcmp(t[i].op, op) == 0)
      return t[i].len;
  return -1;
}

/* SLH-DSA's 's' parameter sets sign in tenths of a second (seconds on a busy machine): their
 * signing is benched on one set only, slh-dsa-sha2-128s (the others run the same code with another
 * name), each other operation once, batch 1, one sample. */
static int slow_sign(const char *alg) {
  size_t n = strlen(alg);
  return (has_prefix(alg, "slh-dsa-") && n > 0 && alg[n - 1] == 's') ||
         (has_prefix(alg, "sphincs-") && n > 8 && strcmp(alg + n - 8, "s-simple") == 0);
}

/* the one slow set of each family whose signing is benched (SPHINCS+ round 3.1: liboqs) */
static int slow_sign_benched(const char *alg) {
  return strcmp(alg, "slh-dsa-sha2-128s") == 0 || strcmp(alg, "sphincs-sha2-128s-simple") == 0;
}

/* RSA above 2048 bits: every bench cell makes its own key pair, seconds each at 3072 and 4096 bits
 * (most of this test's time). Their cells are benched once, with a fixed batch (and keygen with one
 * sample): the calibration path and the sample count are the same code as at 2048 bits, which are
 * benched both ways; the lengths and checksums of every size are still checked. */
static int big_rsa(const char *alg) {
  int bits = 0;
  return sscanf(alg, "rsa-%d", &bits) == 1 && bits > 2048;
}

/* One small bench per public-key algorithm/operation: keys, signatures, ciphertexts made by the
 * driver; a deterministic output (verify: 01, decrypt: the message) checked whole, the others by
 * length where it is fixed. RSA key generation is asked with batch 1, as the orchestrator does. */
static void bench_pk(const char *alg, const char *op) {
  char want[INPUT_CHECKSUM_LEN + 8];
  if (!wasm_pk(alg))
    return;
  long len = pk_out_len(alg, op);
  int keygen_rsa = strcmp(op, "keygen") == 0 && has_prefix(alg, "rsa-");
  if (strcmp(op, "verify") == 0) {
    static const uint8_t one = 1;
    input_checksum(&one, 1, want);
  } else if (strcmp(op, "decrypt") == 0) {
    uint8_t *m = input_message(SEED, PK_MSG_LEN);
    input_checksum(m, PK_MSG_LEN, want);
    free(m);
  } else if (len > 0) {
    snprintf(want, sizeof want, "%08lx:*", len);
  } else {
    strcpy(want, "*");
  }
  size_t size = strcmp(op, "sign") == 0 || strcmp(op, "verify") == 0 ||
                        strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0
                    ? PK_MSG_LEN
                    : 0;
  if (keygen_rsa) {
    check_bench_full(alg, op, size, 0, 1, big_rsa(alg) ? 1 : 2, 0, want, 0);
  } else if (big_rsa(alg)) {
    check_bench(alg, op, size, 0, 3, want);
  } else if (slow_sign(alg) && strcmp(op, "sign") == 0 && !slow_sign_benched(alg)) {
    printf("bench   %-18s %-7s not benched here: the 128s set's code, seconds a signature\n", alg,
           op);
    return;
  } else if (slow_sign(alg)) {
    check_bench_full(alg, op, size, 0, 1, 1, 0, want, 0);
  } else {
    check_bench(alg, op, size, 0, 0, want);
    check_bench(alg, op, size, 0, 3, want);
  }
  json_t *r = call(bench_req(alg, op, size, 256, 1));
  check(!is_ok(r) && starts_with(str(r, "error"), "not offered"),
        "%s %s with a chunk: answered not offered (%s)", alg, op, str(r, "error"));
  json_decref(r);
  printf("bench   %-18s %-7s ok (checksum %s)\n", alg, op, want);
}

#ifdef __clang__ /* the compiler hello names (src/protocol.c): clang for the wasm build */
#define RUNTIME_PREFIX "clang "
#else
#define RUNTIME_PREFIX "gcc "
#endif

static void test_bench(void) {
  json_t *h = call_str("{\"cmd\":\"hello\",\"protocol\":2}");
  json_t *offers = json_object_get(h, "offers"), *stream = json_object_get(h, "stream");
  char language[16];
  snprintf(language, sizeof language, "%.*s", (int)strcspn(CB_TEST_PROVIDER, ":"),
           CB_TEST_PROVIDER);
  check(is_ok(h) && json_integer_value(json_object_get(h, "protocol")) == 5 &&
            json_integer_value(json_object_get(json_object_get(h, "clock"), "probe_reads")) ==
                20000 &&
            strcmp(str(h, "provider"), CB_TEST_PROVIDER) == 0 &&
            strcmp(str(h, "language"), language) == 0 &&
            strcmp(str(h, "library"), ops_library_name()) == 0 &&
            strcmp(str(h, "library_version"), ops_library_version()) == 0 &&
            *ops_library_version() != '\0' &&
            strncmp(str(h, "runtime"), RUNTIME_PREFIX, strlen(RUNTIME_PREFIX)) == 0 &&
            json_integer_value(json_object_get(json_object_get(h, "clock"), "resolution_ns")) > 0 &&
            json_array_size(json_object_get(h, "notes")) > 0,
        "hello identity: %s %s %s", str(h, "provider"), str(h, "language"),
        str(h, "library_version"));
  check(json_object_size(offers) >= MIN_OFFERS, "hello offers %zu algorithms, want >= %d",
        json_object_size(offers), MIN_OFFERS);
  for (size_t i = 0; MUST_OFFER[i] != NULL; i++)
    check(json_object_get(offers, MUST_OFFER[i]) != NULL, "hello offers %s", MUST_OFFER[i]);
  for (size_t i = 0; MUST_OFFER_PK[i] != NULL; i++)
    check(json_object_get(offers, MUST_OFFER_PK[i]) != NULL, "hello offers %s", MUST_OFFER_PK[i]);
  for (size_t i = 0; NEVER_OFFER[i] != NULL; i++)
    check(json_object_get(offers, NEVER_OFFER[i]) == NULL, "hello does not offer %s",
          NEVER_OFFER[i]);
  for (size_t i = 0; MUST_OFFER_V3[i] != NULL; i++)
    check(json_object_get(offers, MUST_OFFER_V3[i]) != NULL, "hello offers %s", MUST_OFFER_V3[i]);
  for (size_t i = 0; NEVER_OFFER_V3[i] != NULL; i++)
    check(json_object_get(offers, NEVER_OFFER_V3[i]) == NULL, "hello does not offer %s",
          NEVER_OFFER_V3[i]);
  size_t si;
  json_t *sv;
  /* a module that must stream something lists it (liboqs streams nothing) */
  int stream_ok = json_array_size(stream) > 0 || MUST_STREAM[0] == NULL;
  json_array_foreach(stream, si, sv) {
    const char *s = json_string_value(sv);
    /* CCM's output only comes at the end; noop has nothing to stream; all listed are offered */
    stream_ok = stream_ok && strstr(s, "ccm") == NULL && strcmp(s, "noop") != 0 &&
                json_object_get(offers, s) != NULL;
  }
  check(stream_ok, "stream lists neither CCM nor noop, only offered algorithms");
  for (size_t i = 0; MUST_STREAM[i] != NULL; i++) {
    int listed = 0;
    json_array_foreach(stream, si, sv) listed |= strcmp(json_string_value(sv), MUST_STREAM[i]) == 0;
    check(listed, "stream lists %s", MUST_STREAM[i]);
  }

  const size_t size = 1024;
  uint8_t *msg = input_message(SEED, size);
  char plain_cs[INPUT_CHECKSUM_LEN];
  input_checksum(msg, size, plain_cs);

  const char *alg;
  json_t *ops;
  json_object_foreach(offers, alg, ops) {
    size_t oi;
    json_t *ov;
    const ops_alg *oa = ops_alg_find(alg);
    if (oa != NULL && oa->pk) {
      json_array_foreach(ops, oi, ov) bench_pk(alg, json_string_value(ov));
      continue;
    }
    if (strcmp(alg, "hkdf-sha256") == 0 || (oa != NULL && oa->fresh))
      continue; /* test_v3() */
    int streamable = 0;
    json_array_foreach(stream, si, sv) streamable |= strcmp(json_string_value(sv), alg) == 0;
    json_array_foreach(ops, oi, ov) {
      const char *op = json_string_value(ov);
      char want[INPUT_CHECKSUM_LEN];
      if (strcmp(op, "noop") == 0) {
        strcpy(want, "00000000:cbf29ce484222325");
      } else if (strcmp(op, "decrypt") == 0 || strcmp(op, "open") == 0) {
        /* the inverse of a one-shot encrypt/seal: gives back the fixed input */
        char *ct = oneshot(alg, strcmp(op, "open") == 0 ? "seal" : "encrypt", msg, size);
        uint8_t *ctb = NULL;
        size_t ctn = 0;
        hex_decode(ct, &ctb, &ctn);
        char *pt = oneshot(alg, op, ctb, ctn);
        checksum_of_hex(pt, want);
        check(strcmp(want, plain_cs) == 0, "%s %s gives back the input", alg, op);
        free(ct);
        free(ctb);
        free(pt);
      } else {
        char *out = oneshot(alg, op, msg, size);
        checksum_of_hex(out, want);
        independent(alg, msg, size, out);
        if (strcmp(op, "update") == 0 || strcmp(op, "rekey") == 0) {
          /* bench/accuracy's update and rekey: the first operation is encrypt / seal without the
           * tag */
          char *full = oneshot(
              alg, strstr(alg, "gcm") != NULL || strstr(alg, "poly") != NULL ? "seal" : "encrypt",
              msg, size);
          check(strncmp(full, out, strlen(out)) == 0 && strlen(out) == 2 * size,
                "%s %s: the first operation is the encryption of the message", alg, op);
          free(full);
        }
        free(out);
      }
      check_bench(alg, op, size, 0, 0, want);
      check_bench(alg, op, size, 0, 5, want);
      if (strcmp(op, "update") == 0 || strcmp(op, "rekey") == 0) {
        json_t *r = call(bench_req(alg, op, size, 256, 0));
        check(!is_ok(r) && starts_with(str(r, "error"), "not offered"),
              "%s %s with a chunk: answered not offered (%s)", alg, op, str(r, "error"));
        json_decref(r);
      } else if (streamable) {
        /* 100: not a multiple of any block (a library whose streaming API needs whole
         * multiples of its granularity may decline it, as not offered); 256: whole multiples of
         * every granularity seen (Botan: CBC 256, GCM 64; libsodium ChaCha20: 64); 4096: a chunk
         * larger than the message */
        (void)check_bench_opt(alg, op, size, 100, 0, want, !ANY_CHUNK);
        check_bench(alg, op, size, 256, 0, want);
        check_bench(alg, op, size, 4096, 0, want);
      } else if (strcmp(alg, "noop") != 0) {
        json_t *r = call(bench_req(alg, op, size, 256, 0));
        check(!is_ok(r) && starts_with(str(r, "error"), "not offered"),
              "%s %s with a chunk: answered not offered (%s)", alg, op, str(r, "error"));
        json_decref(r);
      }
    }
  }
  free(msg);

  /* the documented 1 KiB SHA-256 cell; a size that is not a multiple of 16 for a stream cipher
   * (streamed: the last piece is short); an empty message through an AEAD */
  if (ops_alg_find("sha256") != NULL)
    check_bench("sha256", "hash", 1024, 0, 0, "00000020:fb4898be6151a393");
  char want[INPUT_CHECKSUM_LEN];
  msg = input_message(SEED, 1000);
  /* each: its one-shot output's checksum is the bench's, one-shot and (chunk > 0) streamed */
  static const struct {
    const char *alg, *op;
    size_t size, chunk;
  } odd[] = {{"aes-128-ctr", "encrypt", 1000, 64},
             {"chacha20", "encrypt", 1000, 64},
             {"aes-128-gcm", "seal", 0, 0},
             {"chacha20-poly1305", "seal", 0, 0}};
  for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
    if (ops_alg_find(odd[i].alg) == NULL)
      continue;
    char *out = oneshot(odd[i].alg, odd[i].op, msg, odd[i].size);
    checksum_of_hex(out, want);
    check_bench(odd[i].alg, odd[i].op, odd[i].size, 0, 0, want);
    if (odd[i].chunk > 0)
      check_bench(odd[i].alg, odd[i].op, odd[i].size, odd[i].chunk, 0, want);
    free(out);
  }
  free(msg);
  json_decref(h);
}

/* ---- public-key self-cross-check: keypair and verify cases, as cryptobench/verify/cross_checks.py
 * uses them between providers ---- */

static int offers_op(const ops_alg *a, const char *op) {
  for (size_t k = 0; a->ops[k] != NULL; k++)
    if (strcmp(a->ops[k], op) == 0)
      return 1;
  return 0;
}

/* One verify case (a JSON object, consumed) for alg; its result (caller decrefs). */
static json_t *pk_case(const char *alg, json_t *cs) {
  json_object_set_new(cs, "id", json_string("self#1"));
  json_t *r = call(json_pack("{s:s, s:s, s:[o]}", "cmd", "verify", "alg", alg, "cases", cs));
  json_t *res = json_array_get(json_object_get(r, "results"), 0);
  json_t *copy = res != NULL ? json_deep_copy(res) : json_object();
  json_decref(r);
  return copy;
}

static json_t *keypair(const char *alg) {
  json_t *r = call(json_pack("{s:s, s:s}", "cmd", "keypair", "alg", alg));
  check(is_ok(r) && *str(r, "public") != '\0' && *str(r, "private") != '\0' &&
            json_object_size(r) == 3,
        "keypair %s: %s", alg, str(r, "error"));
  return r;
}

/* RSA keys above 2048 bits take seconds each: the first key pair of a size serves every variant of
 * that size (rsa-N, -pss, -pkcs1, -oaep: the same PKCS#8 / SPKI key, as in crosscheck.py); each
 * variant makes its own at 2048. A new reference each call: the caller's json_decref keeps it. */
static json_t *self_keypair(const char *alg) {
  static json_t *kept[2]; /* 3072, 4096 */
  int bits = 0;
  if (sscanf(alg, "rsa-%d", &bits) != 1 || (bits != 3072 && bits != 4096))
    return keypair(alg);
  json_t **slot = &kept[bits == 4096];
  if (*slot == NULL)
    *slot = keypair(alg);
  return json_incref(*slot);
}

static int rejected(json_t *res) {
  return json_is_true(json_object_get(res, "rejected")) && json_object_size(res) == 2;
}

/* hex with one bit flipped in the middle byte (the orchestrator's corruption) */
static char *flip(const char *h) {
  char *f = strdup(h);
  size_t n = strlen(f) / 2;
  if (n > 0) {
    size_t i = 2 * (n / 2) + 1;
    f[i] = "1032547698badcfe"[strchr("0123456789abcdef", f[i]) - "0123456789abcdef"];
  }
  return f;
}

static void self_sig(const char *alg, const char *msg) {
  json_t *kp = self_keypair(alg);
  json_t *s = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private", str(kp, "private"), "msg", msg));
  const char *sig = str(s, "out");
  long len = pk_out_len(alg, "sign");
  check(*sig != '\0' && (len < 0 || (long)strlen(sig) == 2 * len), "%s sign: %s (%zu hex digits)",
        alg, str(s, "error"), strlen(sig));
  json_t *v = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                     str(kp, "public"), "msg", msg, "sig", sig));
  check(strcmp(str(v, "out"), "01") == 0, "%s: its own signature verifies (%s)", alg,
        str(v, "error"));
  char *bad = flip(sig), *other = flip(msg);
  json_t *v2 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                      str(kp, "public"), "msg", msg, "sig", bad));
  check(rejected(v2), "%s: a signature with one bit flipped is rejected", alg);
  json_t *v3 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                      str(kp, "public"), "msg", other, "sig", sig));
  check(rejected(v3), "%s: the signature of another message is rejected", alg);
  /* malformed inputs come back rejected, never as errors */
  json_t *m1 =
      pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private", "00", "msg", msg));
  json_t *m2 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public", "3000",
                                      "msg", msg, "sig", sig));
  json_t *m3 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                      str(kp, "public"), "msg", msg, "sig", ""));
  check(rejected(m1) && rejected(m2) && rejected(m3),
        "%s: a malformed private key, public key, empty signature are rejected", alg);
  if (offers_op(ops_alg_find(alg), "keygen")) {
    json_t *g = pk_case(alg, json_pack("{s:s}", "op", "keygen"));
    const char *gk = str(g, "out"), *pk = str(kp, "public");
    long kl = pk_out_len(alg, "keygen");
    check(*gk != '\0' && (kl < 0 || (long)strlen(gk) == 2 * kl), "%s keygen case: %s", alg,
          str(g, "error"));
    /* EC keygen writes the point after a SubjectPublicKeyInfo header made once per cell: the
     * header must be the one of the key pair's full encoding */
    size_t field = has_prefix(alg, "ecdsa-p384") ? 48 : 32;
    if (has_prefix(alg, "ecdsa-") || strcmp(alg, "sm2") == 0)
      check(strlen(gk) == strlen(pk) && strlen(pk) > 2 * (1 + 2 * field) &&
                strncmp(gk, pk, strlen(pk) - 2 * (1 + 2 * field)) == 0,
            "%s keygen: the same SubjectPublicKeyInfo header as keypair's (%s / %s)", alg, gk, pk);
    json_decref(g);
  }
  if (!has_prefix(alg, "ml-dsa-") && !has_prefix(alg, "slh-dsa-")) {
    /* a context string is ML-DSA's and SLH-DSA's only: unsupported */
    json_t *u = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "sign", "private",
                                       str(kp, "private"), "msg", msg, "ctx", "01"));
    check(json_is_string(json_object_get(u, "unsupported")) && json_object_size(u) == 2,
          "%s: a context string answers unsupported", alg);
    json_decref(u);
  }
#if defined(CB_TEST_OPS_liboqs)
  if (has_prefix(alg, "ml-dsa-")) {
    /* liboqs 0.13 has no deterministic signing and no key from the seed xi: unsupported, never an
     * error or a pass; hedged signing with a context verifies only with it */
    json_t *u1 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:b}", "op", "sign", "private",
                                        str(kp, "private"), "msg", msg, "deterministic", 1));
    json_t *u2 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private",
                                        "000102030405060708090a0b0c0d0e0f"
                                        "101112131415161718191a1b1c1d1e1f",
                                        "msg", msg));
    json_t *u3 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed",
                                        "000102030405060708090a0b0c0d0e0f"
                                        "101112131415161718191a1b1c1d1e1f"));
    check(json_is_string(json_object_get(u1, "unsupported")) && json_object_size(u1) == 2 &&
              json_is_string(json_object_get(u2, "unsupported")) && json_object_size(u2) == 2 &&
              json_is_string(json_object_get(u3, "unsupported")) && json_object_size(u3) == 2,
          "%s: deterministic signing, a seed-form private key, keygen from a seed: unsupported",
          alg);
    json_t *c1 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "sign", "private",
                                        str(kp, "private"), "msg", msg, "ctx", "0102"));
    json_t *cv = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                        str(kp, "public"), "msg", msg, "sig", str(c1, "out"), "ctx",
                                        "0102"));
    json_t *cn = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                        str(kp, "public"), "msg", msg, "sig", str(c1, "out")));
    check(*str(c1, "out") != '\0' && strcmp(str(cv, "out"), "01") == 0 && rejected(cn),
          "%s: signing with a context verifies only with it (%s)", alg, str(c1, "error"));
    DECREF(u1, u2, u3, c1, cv, cn);
  } else {
    /* Falcon, SPHINCS+: liboqs 0.13 signs with its own randomness only and makes no key from a
     * seed; the signatures of one message differ (Falcon's nonce, SPHINCS+'s optrand) */
    json_t *u1 = pk_case(alg, json_pack("{s:s, s:s, s:s, s:b}", "op", "sign", "private",
                                        str(kp, "private"), "msg", msg, "deterministic", 1));
    json_t *u2 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed",
                                        "000102030405060708090a0b0c0d0e0f"
                                        "101112131415161718191a1b1c1d1e1f"));
    check(json_is_string(json_object_get(u1, "unsupported")) && json_object_size(u1) == 2 &&
              json_is_string(json_object_get(u2, "unsupported")) && json_object_size(u2) == 2,
          "%s: deterministic signing, keygen from a seed: unsupported", alg);
    json_t *s2 = slow_sign(alg) ? NULL /* seconds a signature: the 'f' sets show it */
                                : pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private",
                                                         str(kp, "private"), "msg", msg));
    check(s2 == NULL || (*str(s2, "out") != '\0' && strcmp(str(s2, "out"), sig) != 0),
          "%s: two signatures of one message differ (randomised signing)", alg);
    DECREF(u1, u2, s2);
  }
#else
  /* deterministic signing with a context string (SLH-DSA: not the 's' sets, seconds a signature
   * here; the same code with another name) */
  if (has_prefix(alg, "ml-dsa-") || (has_prefix(alg, "slh-dsa-") && !slow_sign(alg))) {
    json_t *d1 =
        pk_case(alg, json_pack("{s:s, s:s, s:s, s:s, s:b}", "op", "sign", "private",
                               str(kp, "private"), "msg", msg, "ctx", "0102", "deterministic", 1));
    json_t *d2 =
        pk_case(alg, json_pack("{s:s, s:s, s:s, s:s, s:b}", "op", "sign", "private",
                               str(kp, "private"), "msg", msg, "ctx", "0102", "deterministic", 1));
    json_t *dv = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                        str(kp, "public"), "msg", msg, "sig", str(d1, "out"), "ctx",
                                        "0102"));
    json_t *dn = pk_case(alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                        str(kp, "public"), "msg", msg, "sig", str(d1, "out")));
    check(*str(d1, "out") != '\0' && strcmp(str(d1, "out"), str(d2, "out")) == 0 &&
              strcmp(str(dv, "out"), "01") == 0 && rejected(dn),
          "%s: deterministic signing with a context repeats and verifies only with it", alg);
    DECREF(d1, d2, dv, dn);
  }
#endif
  free(bad);
  free(other);
  DECREF(m1, m2, m3, v3, v2, v, s, kp);
}

static void self_kex(const char *alg) {
  json_t *a = keypair(alg), *b = keypair(alg);
  json_t *ab = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "derive", "private",
                                      str(a, "private"), "public", str(b, "public")));
  json_t *ba = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "derive", "private",
                                      str(b, "private"), "public", str(a, "public")));
  long len = pk_out_len(alg, "derive");
  check(*str(ab, "out") != '\0' && strcmp(str(ab, "out"), str(ba, "out")) == 0 &&
            (len < 0 || (long)strlen(str(ab, "out")) == 2 * len),
        "%s: both sides derive the same secret (%s / %s)", alg, str(ab, "out"), str(ba, "out"));
  json_t *m1 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "derive", "private",
                                      str(a, "private"), "public", "00"));
  json_t *m2 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "derive", "private", "00", "public",
                                      str(b, "public")));
  check(rejected(m1) && rejected(m2), "%s: a malformed public or private key is rejected", alg);
  if (offers_op(ops_alg_find(alg), "keygen")) {
    json_t *g = pk_case(alg, json_pack("{s:s}", "op", "keygen"));
    check((long)strlen(str(g, "out")) == 2 * pk_out_len(alg, "keygen"), "%s keygen case: %s", alg,
          str(g, "error"));
    json_decref(g);
  }
  DECREF(m1, m2, ab, ba, a, b);
}

/* ctk: an encapsulation to a's public key, the ciphertext then the key (its last kh hex digits).
 * decaps of the ciphertext under a's private key gives the key, under b's another key (or a
 * rejection); a truncated ciphertext, and with bad_key a malformed private key, is rejected. */
static void check_decaps(const char *alg, json_t *a, json_t *b, const char *ctk, size_t kh,
                         int bad_key) {
  size_t n = strlen(ctk);
  if (n <= kh)
    return;
  char *ct = strndup(ctk, n - kh), *shortct = strndup(ctk, n - kh - 2);
  json_t *d = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private", str(a, "private"), "msg", ct));
  json_t *w = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private", str(b, "private"), "msg", ct));
  json_t *t = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private",
                                     str(a, "private"), "msg", shortct));
  json_t *z =
      bad_key
          ? pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private", "00", "msg", ct))
          : NULL;
  check(strcmp(str(d, "out"), ctk + n - kh) == 0, "%s: decaps gives the encapsulated key", alg);
  check(rejected(w) || (*str(w, "out") != '\0' && strcmp(str(w, "out"), ctk + n - kh) != 0),
        "%s: decaps under another key gives another key", alg);
  if (bad_key)
    check(rejected(t) && rejected(z), "%s: a truncated ciphertext, a malformed key are rejected",
          alg);
  else
    check(rejected(t), "%s: a truncated ciphertext is rejected", alg);
  DECREF(d, w, t, z);
  free(ct);
  free(shortct);
}

static void self_kem(const char *alg) {
  json_t *a = keypair(alg), *b = keypair(alg);
  json_t *e = pk_case(alg, json_pack("{s:s, s:s}", "op", "encaps", "public", str(a, "public")));
  const char *ctk = str(e, "out");
  long klen = pk_out_len(alg, "decaps");
  size_t n = strlen(ctk), kh = 2 * (size_t)(klen > 0 ? klen : 32); /* the key's hex digits */
  check((long)n == 2 * pk_out_len(alg, "encaps"), "%s encaps: %s", alg, str(e, "error"));
  check_decaps(alg, a, b, ctk, kh, 0);
  json_t *m1 = pk_case(alg, json_pack("{s:s, s:s}", "op", "encaps", "public", "00"));
  check(rejected(m1), "%s: a malformed encapsulation key is rejected", alg);
  /* keygen from a seed repeats; a deterministic encapsulation too */
  const char *seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                     "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f";
  json_t *g1 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed", seed));
  json_t *g2 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed", seed));
  if (!has_prefix(alg, "ml-kem-")) { /* HQC in liboqs 0.13: no key pair from a seed */
    check(json_is_string(json_object_get(g1, "unsupported")) && json_object_size(g1) == 2,
          "%s: keygen from a seed answers unsupported (%s)", alg, str(g1, "error"));
    json_t *g = pk_case(alg, json_pack("{s:s}", "op", "keygen"));
    check((long)strlen(str(g, "out")) == 2 * pk_out_len(alg, "keygen"), "%s keygen case: %s", alg,
          str(g, "error"));
    json_decref(g);
  } else {
    check((long)strlen(str(g1, "out")) == 2 * pk_out_len(alg, "keygen") &&
              strcmp(str(g1, "out"), str(g2, "out")) == 0,
          "%s: keygen from a seed repeats (%s)", alg, str(g1, "error"));
    /* the private key of keypair is the seed d || z: keygen from it gives keypair's public key */
    json_t *g3 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed", str(a, "private")));
    check(*str(g3, "out") != '\0' && strcmp(str(g3, "out"), str(a, "public")) == 0,
          "%s: keygen from keypair's private key (the seed) gives its public key (%s)", alg,
          str(g3, "error"));
    json_decref(g3);
  }
  json_t *x1 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "encaps", "public", str(a, "public"),
                                      "m", seed + 64));
  json_t *x2 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "encaps", "public", str(a, "public"),
                                      "m", seed + 64));
#if defined(CB_TEST_OPS_liboqs) /* liboqs 0.13 has no encapsulation from a given m */
  check(json_is_string(json_object_get(x1, "unsupported")) && json_object_size(x1) == 2,
        "%s: encaps with m answers unsupported (%s)", alg, str(x1, "error"));
#else
  check(*str(x1, "out") != '\0' && strcmp(str(x1, "out"), str(x2, "out")) == 0,
        "%s: encaps with m repeats (%s)", alg, str(x1, "error"));
#endif
  DECREF(x1, x2, g1, g2, m1, e, a, b);
}

/* ---- the OpenSSL 3.5+ post-quantum additions: SLH-DSA's encodings, the TLS hybrid shares ---- */

/* SLH-DSA (FIPS 205): the private key is SK.seed || SK.prf || PK.seed || PK.root and the public
 * key PK.seed || PK.root; keygen from the seed SK.seed || SK.prf || PK.seed gives the same public
 * key; hedged signatures of one message differ (not for the slow 's' sets). */
static void self_slh(const char *alg, const char *msg) {
  json_t *kp = keypair(alg);
  const char *pub = str(kp, "public"), *priv = str(kp, "private");
  size_t pl = strlen(pub), sl = strlen(priv);
  check(pl > 0 && sl == 2 * pl && strcmp(priv + pl, pub) == 0,
        "%s: the private key ends with the public key (SK.seed || SK.prf || PK.seed || PK.root)",
        alg);
  char *seed = strndup(priv, sl * 3 / 4);
  json_t *g = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed", seed));
  check(strcmp(str(g, "out"), pub) == 0,
        "%s: keygen from SK.seed || SK.prf || PK.seed gives keypair's public key (%s)", alg,
        str(g, "error"));
  if (!slow_sign(alg)) {
    json_t *s1 =
        pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private", priv, "msg", msg));
    json_t *s2 =
        pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private", priv, "msg", msg));
    check(*str(s1, "out") != '\0' && strcmp(str(s1, "out"), str(s2, "out")) != 0,
          "%s: two hedged signatures of one message differ (fresh opt_rand)", alg);
    DECREF(s1, s2);
  }
  json_decref(g);
  free(seed);
  json_decref(kp);
}

/* The TLS hybrid shares (docs/protocol.md): their ML-KEM and EC/X25519 halves; the ML-KEM part
 * comes first in x25519mlkem768's key share, server share and secret, second in the others'.
 * 1 when alg is one of them. */
static int hybrid_parts(const char *alg, const char **mlkem, const char **ec) {
  static const struct {
    const char *alg, *mlkem, *ec;
  } t[] = {{"x25519mlkem768", "ml-kem-768", "x25519"},
           {"secp256r1mlkem768", "ml-kem-768", "ecdh-p256"},
           {"secp384r1mlkem1024", "ml-kem-1024", "ecdh-p384"}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(alg, t[i].alg) == 0) {
      if (mlkem != NULL)
        *mlkem = t[i].mlkem;
      if (ec != NULL)
        *ec = t[i].ec;
      return 1;
    }
  return 0;
}

/* x || y, freshly allocated (hex) */
static char *cat2(const char *x, const char *y) {
  size_t a = strlen(x), b = strlen(y);
  char *r = malloc(a + b + 1);
  memcpy(r, x, a);
  memcpy(r + a, y, b + 1);
  return r;
}

/* A hybrid share's two halves, in the order the share has them. */
static char *in_order(int mlkem_first, const char *m, const char *e) {
  return mlkem_first ? cat2(m, e) : cat2(e, m);
}

/* The generic KEM checks (as self_kem, with the hybrids' key lengths and no deterministic
 * variants), then the composition in both directions through this binary's own ML-KEM and
 * X25519 / ECDH cases (each checked on Wycheproof above): an encapsulation to a key share built
 * from an ML-KEM and an EC key pair decapsulates and derives, half by half, to its secret; a
 * server share built from an ML-KEM encapsulation and an ephemeral EC key decapsulates under the
 * hybrid's private key to the two secrets. This pins the byte order of docs/protocol.md. */
static void self_hybrid(const char *alg) {
  const char *mlkem = NULL, *ec = NULL;
  hybrid_parts(alg, &mlkem, &ec);
  int mfirst = strcmp(ec, "x25519") == 0;
  size_t ekh = 2 * (size_t)pk_out_len(mlkem, "keygen"),
         cth = 2 * (size_t)(pk_out_len(mlkem, "encaps") - 32);
  size_t field = strcmp(ec, "ecdh-p384") == 0 ? 48 : 32;
  size_t pth = 2 * (mfirst ? 32 : 1 + 2 * field), ssh = 2 * field; /* EC point, EC secret */
  size_t kh = 2 * (size_t)pk_out_len(alg, "decaps");
  json_t *a = keypair(alg), *b = keypair(alg);
  const char *apub = str(a, "public");
  json_t *e = pk_case(alg, json_pack("{s:s, s:s}", "op", "encaps", "public", apub));
  const char *ctk = str(e, "out");
  size_t n = strlen(ctk);
  check((long)n == 2 * pk_out_len(alg, "encaps") && strlen(apub) == ekh + pth, "%s encaps: %s", alg,
        str(e, "error"));
  check_decaps(alg, a, b, ctk, kh, 1);
  json_t *m1 = pk_case(alg, json_pack("{s:s, s:s}", "op", "encaps", "public", "00"));
  json_t *g = pk_case(alg, json_pack("{s:s}", "op", "keygen"));
  json_t *u1 = pk_case(alg, json_pack("{s:s, s:s}", "op", "keygen", "seed",
                                      "000102030405060708090a0b0c0d0e0f"
                                      "101112131415161718191a1b1c1d1e1f"));
  json_t *u2 = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "encaps", "public", apub, "m",
                                      "000102030405060708090a0b0c0d0e0f"
                                      "101112131415161718191a1b1c1d1e1f"));
  check(rejected(m1), "%s: a malformed key share is rejected", alg);
  check((long)strlen(str(g, "out")) == 2 * pk_out_len(alg, "keygen"), "%s keygen case: %s", alg,
        str(g, "error"));
  check(json_is_string(json_object_get(u1, "unsupported")) && json_object_size(u1) == 2 &&
            json_is_string(json_object_get(u2, "unsupported")) && json_object_size(u2) == 2,
        "%s: keygen from a seed, encaps from m: unsupported (OpenSSL has neither)", alg);

  /* encapsulation to a key share made of an ML-KEM and an EC key pair */
  json_t *mk = keypair(mlkem), *xk = keypair(ec);
  const char *xpub = str(xk, "public");
  size_t xl = strlen(xpub);
  char *prefix = strndup(xpub, xl >= pth ? xl - pth : 0); /* the SPKI header (none for X25519) */
  char *share = in_order(mfirst, str(mk, "public"), xpub + (xl >= pth ? xl - pth : 0));
  json_t *e2 = pk_case(alg, json_pack("{s:s, s:s}", "op", "encaps", "public", share));
  const char *o = str(e2, "out");
  int ok = strlen(o) == cth + pth + kh;
  if (ok) {
    char *ctm = strndup(o + (mfirst ? 0 : pth), cth), *eph = strndup(o + (mfirst ? cth : 0), pth);
    const char *sec = o + cth + pth;
    char *ephk = cat2(prefix, eph);
    json_t *dm = pk_case(mlkem, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private",
                                          str(mk, "private"), "msg", ctm));
    json_t *dx = pk_case(ec, json_pack("{s:s, s:s, s:s}", "op", "derive", "private",
                                       str(xk, "private"), "public", ephk));
    char *want = in_order(mfirst, str(dm, "out"), str(dx, "out"));
    ok = strlen(str(dm, "out")) == 64 && strlen(str(dx, "out")) == ssh && strcmp(want, sec) == 0;
    free(want);
    free(ctm);
    free(eph);
    free(ephk);
    DECREF(dm, dx);
  }
  check(ok, "%s: encaps to %s || %s halves decapsulates (%s) and derives (%s) to its secret (%s)",
        alg, mfirst ? mlkem : ec, mfirst ? ec : mlkem, mlkem, ec, str(e2, "error"));

  /* a server share made of an ML-KEM encapsulation and an ephemeral EC key */
  const char *aek = apub + (mfirst ? 0 : pth);
  char *ek = strndup(aek, ekh), *apt = strndup(apub + (mfirst ? ekh : 0), pth);
  json_t *em = pk_case(mlkem, json_pack("{s:s, s:s}", "op", "encaps", "public", ek));
  json_t *eph = keypair(ec);
  const char *ephpub = str(eph, "public");
  size_t el = strlen(ephpub);
  char *apk = cat2(prefix, apt);
  json_t *dx = pk_case(ec, json_pack("{s:s, s:s, s:s}", "op", "derive", "private",
                                     str(eph, "private"), "public", apk));
  const char *emo = str(em, "out");
  ok = strlen(emo) == cth + 64 && el >= pth && strlen(str(dx, "out")) == ssh;
  if (ok) {
    char *ctm = strndup(emo, cth);
    char *server = in_order(mfirst, ctm, ephpub + el - pth);
    json_t *d = pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "decaps", "private",
                                       str(a, "private"), "msg", server));
    char *want = in_order(mfirst, emo + cth, str(dx, "out"));
    ok = strcmp(str(d, "out"), want) == 0;
    free(want);
    free(server);
    free(ctm);
    json_decref(d);
  }
  check(ok,
        "%s: a server share of a %s encapsulation and an ephemeral %s key decapsulates to "
        "both secrets",
        alg, mlkem, ec);
  free(ek);
  free(apt);
  free(apk);
  free(prefix);
  free(share);
  DECREF(em, eph, dx, e2, mk, xk, m1, g, u1, u2, e, a, b);
}

static void self_pke(const char *alg, const char *msg) {
  json_t *a = self_keypair(alg);
  json_t *e = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "encrypt", "public", str(a, "public"), "msg", msg));
  const char *ct = str(e, "out");
  check((long)strlen(ct) == 2 * pk_out_len(alg, "encrypt"), "%s encrypt: %s", alg, str(e, "error"));
  char *bad = flip(ct);
  json_t *d = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "decrypt", "private", str(a, "private"), "msg", ct));
  json_t *w = pk_case(
      alg, json_pack("{s:s, s:s, s:s}", "op", "decrypt", "private", str(a, "private"), "msg", bad));
  json_t *m1 =
      pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "encrypt", "public", "00", "msg", msg));
  json_t *m2 =
      pk_case(alg, json_pack("{s:s, s:s, s:s}", "op", "decrypt", "private", "00", "msg", ct));
  check(strcmp(str(d, "out"), msg) == 0, "%s: the ciphertext decrypts to the message", alg);
  check(rejected(w), "%s: a ciphertext with one bit flipped is rejected", alg);
  check(rejected(m1) && rejected(m2), "%s: malformed keys are rejected", alg);
  free(bad);
  DECREF(m1, m2, w, d, e, a);
}

/* rsa-N: a generated key pair signs and verifies under rsa-N-pkcs1 of the same binary. */
static void self_keygen(const char *alg, const char *msg) {
  char sig_alg[32];
  snprintf(sig_alg, sizeof sig_alg, "%s-pkcs1", alg);
  json_t *kp = self_keypair(alg);
  long klen = pk_out_len(alg, "keygen");
  check(klen < 0 || (long)strlen(str(kp, "public")) == 2 * klen, "%s keypair: public key length",
        alg);
  if (ops_alg_find(sig_alg) != NULL) {
    json_t *s = pk_case(sig_alg, json_pack("{s:s, s:s, s:s}", "op", "sign", "private",
                                           str(kp, "private"), "msg", msg));
    json_t *v = pk_case(sig_alg, json_pack("{s:s, s:s, s:s, s:s}", "op", "verify", "public",
                                           str(kp, "public"), "msg", msg, "sig", str(s, "out")));
    check(strcmp(str(v, "out"), "01") == 0, "%s: the generated key pair signs and verifies", alg);
    DECREF(s, v);
  }
  json_decref(kp);
}

static void test_pk(void) {
  uint8_t *m = input_message(SEED, PK_MSG_LEN);
  char *msg = hex(m, PK_MSG_LEN);
  size_t npk = 0;
  for (size_t i = 0; i < ops_alg_count(); i++) {
    const ops_alg *a = ops_alg_at(i);
    if (!a->pk || !wasm_pk(a->name))
      continue;
    int before = failed;
    npk++;
    if (offers_op(a, "sign")) {
      self_sig(a->name, msg);
      if (has_prefix(a->name, "slh-dsa-"))
        self_slh(a->name, msg);
    } else if (offers_op(a, "derive"))
      self_kex(a->name);
    else if (hybrid_parts(a->name, NULL, NULL))
      self_hybrid(a->name);
    else if (offers_op(a, "encaps"))
      self_kem(a->name);
    else if (offers_op(a, "encrypt"))
      self_pke(a->name, msg);
    else
      self_keygen(a->name, msg);
    printf("self    %-18s %s\n", a->name, failed == before ? "ok" : "FAILED");
  }
  /* keypair errors */
  json_t *r1 = call_str("{\"cmd\":\"keypair\",\"alg\":\"nope\"}");
  json_t *r2 = call_str("{\"cmd\":\"keypair\"}");
  json_t *r3 = call_str("{\"cmd\":\"keypair\",\"alg\":\"sha256\"}");
  check(!is_ok(r1) && !is_ok(r2) && !is_ok(r3) && *str(r1, "error") && *str(r2, "error") &&
            *str(r3, "error"),
        "keypair errors: unknown algorithm, no algorithm, not a public-key algorithm");
  DECREF(r1, r2, r3);
  printf("self-cross-check of %zu public-key algorithms\n", npk);
  free(msg);
  free(m);
}

/* ---- errors: one error line each, and the driver keeps answering ---- */

static void test_errors(void) {
  static const char *const bad[] = {
      "",
      "{",
      "[1]",
      "{\"cmd\":42}",
      "{\"cmd\":\"frobnicate\"}",
      "{\"cmd\":\"hello\",\"protocol\":0}",
      "{\"cmd\":\"hello\",\"protocol\":\"2\"}",
      "{\"cmd\":\"verify\",\"alg\":\"nope\",\"cases\":[]}",
      "{\"cmd\":\"verify\",\"alg\":\"sha256\",\"cases\":{}}",
      "{\"cmd\":\"bench\",\"alg\":\"nope\",\"op\":\"hash\",\"size\":16,\"seed\":1,\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"encrypt\",\"size\":16,\"seed\":1,"
      "\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-ecb\",\"op\":\"encrypt\",\"size\":1000,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-cbc\",\"op\":\"decrypt\",\"size\":1000,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\","
      "\"iv\":\"000102030405060708090a0b0c0d0e0f\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-ccm\",\"op\":\"seal\",\"size\":64,\"chunk\":16,"
      "\"seed\":1,\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\","
      "\"iv\":\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-ccm\",\"op\":\"open\",\"size\":16777216,"
      "\"seed\":1,\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\","
      "\"iv\":\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,\"chunk\":16,\"seed\":1,"
      "\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-gcm\",\"op\":\"seal\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"zz0102030405060708090a0b0c0d0e0f\",\"iv\":"
      "\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-gcm\",\"op\":\"seal\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0\",\"iv\":"
      "\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-gcm\",\"op\":\"seal\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e\",\"iv\":"
      "\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"aes-128-cbc\",\"op\":\"encrypt\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\",\"iv\":\"0001\"}",
      "{\"cmd\":\"bench\",\"alg\":\"chacha20\",\"op\":\"encrypt\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f\",\"iv\":"
      "\"000102030405060708090a0b\"}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"seed\":1,\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":-1,\"seed\":1,\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":\"16\",\"seed\":1,"
      "\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"seed\":0,\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"seed\":4294967296,"
      "\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"seed\":1,\"samples\":0}",
      "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"chunk\":1048577,"
      "\"seed\":1,\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"chacha20-poly1305\",\"op\":\"seal\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f\","
      "\"iv\":\"000102030405060708090a0b0c0d0e0f\"}",
      "{\"cmd\":\"bench\",\"alg\":\"xchacha20-poly1305\",\"op\":\"seal\",\"size\":64,\"seed\":1,"
      "\"samples\":1,\"key\":\"000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f\","
      "\"iv\":\"000102030405060708090a0b\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_t *r = call_str(bad[i]);
    const char *e = str(r, "error");
    check(json_is_false(json_object_get(r, "ok")) && *e != '\0' && json_object_size(r) == 2,
          "error response for %s", bad[i]);
    json_decref(r);
  }
  /* per-case errors inside an ok verify response (AES-GCM, or ChaCha20-Poly1305 where the library
   * has no AES-128) */
#if defined(CB_TEST_OPS_liboqs) /* no AEAD: the same with ML-KEM */
  json_t *r = call_str("{\"cmd\":\"verify\",\"alg\":\"ml-kem-768\",\"cases\":["
                       "{\"id\":\"a\",\"op\":\"decaps\",\"private\":\"xx\",\"msg\":\"\"},"
                       "{\"id\":\"b\",\"op\":\"hash\",\"msg\":\"\"},"
                       "{\"id\":\"c\",\"op\":\"keygen\",\"seed\":\"00\"},"
                       "{\"id\":\"d\",\"op\":\"decaps\",\"private\":\"00\",\"msg\":\"00\"}]}");
#else
  int gcm = ops_alg_find("aes-128-gcm") != NULL;
  const char *key = gcm ? "000102030405060708090a0b0c0d0e0f"
                        : "000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f";
  char line[1024];
  snprintf(line, sizeof line,
           "{\"cmd\":\"verify\",\"alg\":\"%s\",\"cases\":["
           "{\"id\":\"a\",\"op\":\"seal\",\"key\":\"xx\",\"iv\":\"\",\"msg\":\"\"},"
           "{\"id\":\"b\",\"op\":\"hash\",\"msg\":\"\"},"
           "{\"id\":\"c\",\"op\":\"open\",\"key\":\"%s\","
           "\"iv\":\"000102030405060708090a0b\",\"msg\":\"00\"},"
           "{\"id\":\"d\",\"op\":\"open\",\"key\":\"%s\","
           "\"iv\":\"000102030405060708090a0b\",\"aad\":\"\","
           "\"msg\":\"00000000000000000000000000000000\"}]}",
           gcm ? "aes-128-gcm" : "chacha20-poly1305", key, key);
  json_t *r = call_str(line);
#endif
  json_t *res = json_object_get(r, "results");
  check(is_ok(r) && json_array_size(res) == 4 &&
            json_object_get(json_array_get(res, 0), "error") != NULL &&
            json_object_get(json_array_get(res, 1), "error") != NULL &&
            json_object_get(json_array_get(res, 2), "error") != NULL &&
            json_is_true(json_object_get(json_array_get(res, 3), "rejected")) &&
            strcmp(str(json_array_get(res, 3), "id"), "d") == 0,
        "per-case errors and rejection in verify");
  json_decref(r);

  r = call_str("{\"cmd\":\"hello\",\"protocol\":1}");
  check(is_ok(r), "hello still answered after errors");
  json_decref(r);

  int bye = 0;
  const char *bye_line = "{\"cmd\":\"bye\"}";
  char *resp = cb_handle_line(bye_line, strlen(bye_line), &bye);
  check(bye == 1 && resp != NULL && strcmp(resp, "{\"ok\":true}") == 0, "bye");
  free(resp);
}

/* ---- streamed cells keep memory bounded (protocol.md, bench, chunk > 0) ---- */

static long maxrss_kb(void) {
#if defined(__wasi__) /* no ru_maxrss: the linear memory, which never shrinks, is the peak */
  return (long)(__builtin_wasm_memory_size(0) * 65536 / 1024);
#else
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
#endif
}

/* A streamed cell of `size` bytes must not grow the peak RSS by more than `bound` bytes (the
 * 2 MiB pattern, a piece, the library's state); its checksum must be the one-shot one. Pieces of
 * `chunk` bytes that do not divide 1 MiB cross the pattern's period. Runs first, before anything
 * else raised the peak. */
static void bounded(const char *alg, const char *op, size_t size, size_t chunk, size_t bound) {
  long before = maxrss_kb();
  json_t *r = call(bench_req(alg, op, size, chunk, 1));
  long after = maxrss_kb();
  check(is_ok(r), "streamed %s %s of %zu bytes: %s", alg, op, size, str(r, "error"));
  check(after - before < (long)(bound / 1024),
        "streamed %s %s of %zu bytes in chunks of %zu: peak RSS grew by %ld KiB (bound %zu KiB)",
        alg, op, size, chunk, after - before, bound / 1024);
  printf("bounded %-18s %-7s %zu MiB in chunks of %zu: peak RSS +%ld KiB\n", alg, op, size >> 20,
         chunk, after - before);
  json_t *one = call(bench_req(alg, op, size, 0, 1)); /* the whole message, one call */
  check(is_ok(one) && strcmp(str(r, "checksum"), str(one, "checksum")) == 0,
        "streamed %s %s checksum %s, one-shot %s", alg, op, str(r, "checksum"),
        str(one, "checksum"));
  DECREF(one, r);
}

static void test_bounded(void) {
  if (MUST_STREAM[0] == NULL) { /* liboqs: nothing streams */
    printf("bounded: no streaming algorithm in this module\n");
    return;
  }
  bounded("sha256", "hash", (size_t)64 << 20, 100000, (size_t)8 << 20);
  /* a cipher: its output goes to a piece-sized buffer (100032 = 64 * 1563: whole ChaCha20 blocks,
   * as libsodium's xor_ic wants) */
  const char *cipher = ops_alg_find("aes-128-ctr") != NULL ? "aes-128-ctr" : "chacha20";
  bounded(cipher, "encrypt", (size_t)16 << 20, 100032, (size_t)8 << 20);
  /* decrypt keeps the ciphertext whole (the only size-proportional buffer) and must give back
   * the message */
  size_t n = (size_t)4 << 20;
  uint8_t *m = input_message(SEED, n);
  char want[INPUT_CHECKSUM_LEN];
  input_checksum(m, n, want);
  free(m);
  check_bench(cipher, "decrypt", n, 100032, 1, want);
}

/* ---- key derivation and handshakes (protocol version 3) ---- */

/* RFC 5869 HKDF-SHA256 with OpenSSL's one-call HMAC(): the independent reference. */
static void hkdf_ref(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt, size_t salt_len,
                     const uint8_t *info, size_t info_len, uint8_t *out, size_t len) {
  static const uint8_t empty[1] = {0};
  uint8_t prk[32], t[32];
  unsigned int n = 0;
  HMAC(EVP_sha256(), salt_len > 0 ? salt : empty, (int)salt_len, ikm_len > 0 ? ikm : empty, ikm_len,
       prk, &n);
  uint8_t *buf = malloc(32 + info_len + 1);
  size_t tlen = 0, done = 0;
  for (unsigned i = 1; done < len; i++) {
    memcpy(buf, t, tlen);
    memcpy(buf + tlen, info, info_len);
    buf[tlen + info_len] = (uint8_t)i;
    HMAC(EVP_sha256(), prk, 32, buf, tlen + info_len + 1, t, &n);
    tlen = 32;
    size_t k = len - done < 32 ? len - done : 32;
    memcpy(out + done, t, k);
    done += k;
  }
  free(buf);
}

static json_t *hkdf_bench_req(size_t size, size_t chunk, size_t batch, const uint8_t key[32],
                              const uint8_t iv[16]) {
  return bench_req_hex("hkdf-sha256", "derive", size, chunk, batch, 3, 1000000, hex(key, 32),
                       hex(iv, 16));
}

static void test_hkdf(void) {
  if (ops_alg_find("hkdf-sha256") == NULL)
    return;
  uint8_t key[32], iv[16], out[8160];
  for (int i = 0; i < 32; i++)
    key[i] = (uint8_t)(i * 7 + 1);
  for (int i = 0; i < 16; i++)
    iv[i] = (uint8_t)(0xa0 + i);
  /* bench: IKM = the size-byte message, salt = key, info = iv, 72 bytes out, at the sizes the
   * handshakes use */
  static const size_t sizes[] = {0, 204, 1823, 3392};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    uint8_t *m = input_message(SEED, sizes[i]);
    char want[INPUT_CHECKSUM_LEN];
    hkdf_ref(m, sizes[i], key, 32, iv, 16, out, 72);
    input_checksum(out, 72, want);
    free(m);
    for (size_t b = 0; b <= 5; b += 5) {
      json_t *r = call(hkdf_bench_req(sizes[i], 0, b, key, iv));
#if defined(CB_TEST_OPS_openssl) && OPENSSL_VERSION_NUMBER < 0x30000000L
      if (sizes[i] == 0) { /* 1.1.1's EVP_PKEY_HKDF cannot take an empty IKM */
        check(!is_ok(r) && starts_with(str(r, "error"), "not offered at this size"),
              "hkdf-sha256 with an empty IKM on 1.1.1: not offered (%s)", str(r, "error"));
        json_decref(r);
        continue;
      }
#endif
      check(is_ok(r) && strcmp(str(r, "checksum"), want) == 0 &&
                json_array_size(json_object_get(r, "samples_ns")) == 3 &&
                (b == 0 || json_integer_value(json_object_get(r, "batch")) == (json_int_t)b),
            "hkdf-sha256 derive size %zu batch %zu: checksum %s, want %s (%s)", sizes[i], b,
            str(r, "checksum"), want, str(r, "error"));
      json_decref(r);
    }
  }
  json_t *r = call(hkdf_bench_req(204, 256, 0, key, iv));
  check(!is_ok(r) && starts_with(str(r, "error"), "not offered"),
        "hkdf-sha256 with a chunk: answered not offered (%s)", str(r, "error"));
  json_decref(r);
  /* cases: the largest output, and one byte more (rejected, not an error) */
  char *ikm = hex(key, 22), *salt = hex(iv, 13), *info = hex(key + 3, 10);
  r = call(
      json_pack("{s:s, s:s, s:[{s:s, s:s, s:s, s:s, s:s, s:i}, {s:s, s:s, s:s, s:s, s:s, s:i}]}",
                "cmd", "verify", "alg", "hkdf-sha256", "cases", "id", "max", "op", "derive", "ikm",
                ikm, "salt", salt, "info", info, "size", 8160, "id", "over", "op", "derive", "ikm",
                ikm, "salt", salt, "info", info, "size", 8161));
  json_t *res = json_object_get(r, "results");
  hkdf_ref(key, 22, iv, 13, key + 3, 10, out, 8160);
  char *want = hex(out, 8160);
  check(is_ok(r) && strcmp(str(json_array_get(res, 0), "out"), want) == 0,
        "hkdf-sha256 case of 8160 bytes: %s", str(json_array_get(res, 0), "error"));
  check(rejected(json_array_get(res, 1)), "hkdf-sha256 case of 8161 bytes rejected");
  printf(
      "v3      hkdf-sha256        derive ok (bench at 0/204/1823/3392 bytes, cases 8160/8161)\n");
  free(want);
  free(ikm);
  free(salt);
  free(info);
  json_decref(r);
}

/* onionskin and reply lengths (docs/pq-ntor.md section 3) */
static long hs_out_len(const char *alg, const char *op) {
  static const struct {
    const char *alg;
    long onionskin, reply;
  } t[] = {{"ntor", 84, 64},
           {"pq-ntor-512", 896, 832},
           {"pq-ntor-768", 1280, 1152},
           {"pq-ntor-1024", 1664, 1632}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].alg, alg) == 0)
      return strcmp(op, "client-create") == 0  ? t[i].onionskin
             : strcmp(op, "server-reply") == 0 ? t[i].reply
                                               : 72;
  return -1;
}

static void test_handshake(const ops_alg *a) {
  const char *alg = a->name;
  for (size_t k = 0; a->ops[k] != NULL; k++) {
    const char *op = a->ops[k];
    char want[32];
    snprintf(want, sizeof want, "%08lx:*", hs_out_len(alg, op));
    check(hs_out_len(alg, op) > 0, "%s: known suite", alg);
    check_bench(alg, op, 0, 0, 0, want);
    check_bench(alg, op, 0, 0, 3, want);
    if (strcmp(op, "client-finish") == 0) /* a fresh state for each of the 9 operations */
      check_bench_full(alg, op, 0, 0, 9, 4, 0, want, 0);
    json_t *r = call(bench_req(alg, op, 0, 256, 1));
    check(!is_ok(r) && starts_with(str(r, "error"), "not offered"),
          "%s %s with a chunk: answered not offered (%s)", alg, op, str(r, "error"));
    json_decref(r);
    r = call(bench_req(alg, op, 32, 0, 1));
    check(!is_ok(r) && *str(r, "error") != '\0', "%s %s with size 32: an error (%s)", alg, op,
          str(r, "error"));
    json_decref(r);
    printf("bench   %-18s %-13s ok (checksum %s)\n", alg, op, want);
  }
  /* a step is not a case; a case with a short secret is an error */
  json_t *r = call(json_pack("{s:s, s:s, s:[{s:s, s:s}, {s:s, s:s, s:s, s:s, s:s, s:i}]}", "cmd",
                             "verify", "alg", alg, "cases", "id", "step", "op", "client-finish",
                             "id", "short", "op", "handshake", "relay_id", "00", "relay_b_secret",
                             "00", "client_x_secret", "00", "key_len", 72));
  json_t *res = json_object_get(r, "results");
  check(is_ok(r) && json_object_get(json_array_get(res, 0), "error") != NULL &&
            json_object_get(json_array_get(res, 1), "error") != NULL,
        "%s: a step as a case, a case with short secrets: errors", alg);
  json_decref(r);

#if defined(CB_TEST_OPS_openssl)
  /* client-finish: the states are made by ops_cell_prepare, one per operation; running past
   * them, or a finish that fails (its reply corrupted), is an error, never a silent zero */
  ops_params p = {.alg = alg, .op = "client-finish", .msg = (const uint8_t *)"", .msg_len = 0};
  char err[300] = "";
  ops_cell *c = ops_cell_new(&p, err, sizeof err);
  check(c != NULL, "%s client-finish cell: %s", alg, err);
  if (c == NULL)
    return;
  int r1 = ops_cell_prepare(c, 2) == 0 ? ops_cell_run(c) : OPS_FAIL;
  int r2 = r1 >= 0 ? ops_cell_run(c) : OPS_FAIL;
  int r3 = ops_cell_run(c);
  check(r1 >= 0 && r2 >= 0 && r3 == OPS_FAIL && strstr(ops_cell_error(c), "prepared") != NULL,
        "%s client-finish: two prepared operations run, a third fails (%d %d %d: %s)", alg, r1, r2,
        r3, ops_cell_error(c));
  uint64_t ns = 0;
  timing_result m = {.samples_ns = &ns};
  check(timing_measure(c, 4, 0, 0, 1, &m) == 0 && ns > 0, "%s client-finish: a sample of 4: %s",
        alg, ops_cell_error(c));
  check(ops_cell_prepare(c, 3) == 0, "%s client-finish: prepare 3", alg);
  hs_cell_test_corrupt_replies(ops_openssl_hs_of(c));
  timing_result m3 = {.samples_ns = &ns};
  int bad = timing_measure(c, 3, 0, 0, 1, &m3);
  check(bad != 0 && strstr(ops_cell_error(c), "handshake-failed") != NULL,
        "%s client-finish with corrupted replies: the sample fails (%d: %s)", alg, bad,
        ops_cell_error(c));
  ops_cell_free(c);
  p.op = "client-create";
  c = ops_cell_new(&p, err, sizeof err);
  check(c != NULL && ops_cell_prepare(c, 1) == 0 && ops_cell_run(c) >= 0 &&
            ops_cell_run(c) == OPS_FAIL && ops_cell_prepare(c, (uint64_t)1 << 20) != 0,
        "%s client-create: room for the prepared count only, a huge batch refused", alg);
  ops_cell_free(c);
#endif
}

/* Botan refuses to decrypt an empty CBC ciphertext: that is "not offered at this size", not a
 * failure of the algorithm (the differential test asks for 0 bytes). */
static void test_botan_cbc_empty(void) {
#if defined(CB_TEST_OPS_botan) || defined(CB_TEST_OPS_botan_ffi)
  json_t *r = call(bench_req_n("aes-128-cbc", "decrypt", 0, 0, 1, 1, 0));
  check(!is_ok(r) && starts_with(str(r, "error"), "not offered at this size:"),
        "aes-128-cbc decrypt of 0 bytes: %s", str(r, "error"));
  json_decref(r);
#endif
}

/* x86-64: every sample comes with the TSC's ticks read beside the clock, at the rate the
 * resolution probe measured (docs/protocol.md, bench: samples_tsc). */
static void test_samples_tsc(void) {
#if defined(__x86_64__)
  json_t *r = call(bench_req_n("noop", "noop", 0, 0, 0, 5, 0));
  json_t *ns = json_object_get(r, "samples_ns"), *ticks = json_object_get(r, "samples_tsc");
  double hz = timing_tsc_hz(), worst = 0;
  int ok = is_ok(r) && json_array_size(ticks) == 5 && json_array_size(ns) == 5 && hz > 0;
  for (size_t i = 0; ok && i < 5; i++) {
    double rate = (double)json_integer_value(json_array_get(ticks, i)) /
                  (double)json_integer_value(json_array_get(ns, i)) * 1e9;
    double off = rate / hz > 1 ? rate / hz - 1 : 1 - rate / hz;
    worst = off > worst ? off : worst;
  }
  check(ok && worst < 0.02, "noop: samples_tsc beside samples_ns at %.0f Hz (worst %.4f)", hz,
        worst);
  json_decref(r);
#endif
}

/* The check values of docs/protocol.md, "The measurement loop", that every driver reproduces. */
static json_t *warm(json_t *r) { return json_object_get(r, "warmup"); }

static void test_loop_check_values(void) {
  json_t *r = call_str("{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,"
                       "\"seed\":2654435769,\"batch\":0,\"target_ns\":0,\"warmup_ns\":0,"
                       "\"samples\":3}");
  check(is_ok(r) && json_integer_value(json_object_get(r, "batch")) == 1 &&
            json_integer_value(json_object_get(warm(r), "ops")) == 1 &&
            json_integer_value(json_object_get(warm(r), "calibration_ops")) == 1 &&
            json_array_size(json_object_get(r, "samples_ns")) == 3 &&
            strcmp(str(r, "checksum"), "00000000:cbf29ce484222325") == 0 &&
            strcmp(str(r, "checksum_after"), str(r, "checksum")) == 0,
        "noop, target 0, warm-up 0: batch 1 after 1 calibration op, 1 warm-up op, 3 samples");
  json_decref(r);
  r = call_str("{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,"
               "\"seed\":2654435769,\"batch\":0,\"target_ns\":1000000,\"samples\":1}");
  json_int_t b = json_integer_value(json_object_get(r, "batch"));
  check(is_ok(r) && b > 0 && (b & (b - 1)) == 0 &&
            json_integer_value(json_object_get(warm(r), "calibration_ops")) == 2 * b - 1,
        "calibration: batch %lld is a power of two after 2*batch-1 operations", (long long)b);
  json_decref(r);
  r = call_str("{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,"
               "\"seed\":2654435769,\"batch\":7,\"samples\":5}");
  check(is_ok(r) && json_integer_value(json_object_get(r, "batch")) == 7 &&
            json_array_size(json_object_get(r, "samples_ns")) == 5 &&
            json_object_get(warm(r), "calibration_ops") == NULL,
        "a given batch of 7 and 5 samples, no calibration");
  json_decref(r);
  const char *unoffered[] = {
      "{\"cmd\":\"bench\",\"alg\":\"no-such-alg\",\"op\":\"hash\",\"size\":64,\"seed\":1,"
      "\"samples\":1}",
      "{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"no-such-op\",\"size\":0,\"seed\":1,"
      "\"samples\":1}",
      "{\"cmd\":\"verify\",\"alg\":\"no-such-alg\",\"cases\":[]}"};
  for (size_t i = 0; i < sizeof unoffered / sizeof *unoffered; i++) {
    r = call_str(unoffered[i]);
    check(!is_ok(r) && starts_with(str(r, "error"), "not offered:"), "%s answers not offered: %s",
          unoffered[i], str(r, "error"));
    json_decref(r);
  }
}

static void test_v3(void) {
  test_hkdf();
  size_t n = 0;
  for (size_t i = 0; i < ops_alg_count(); i++) {
    const ops_alg *a = ops_alg_at(i);
    if (a->fresh && strncmp(a->name, "tls13-", 6) != 0) { /* TLS cells: test_tls.h */
      test_handshake(a);
      n++;
    }
  }
  printf("v3      %zu handshake suites\n", n);
}

int main(void) {
  char err[300];
  /* the module's table through the driver's own loader, as cbdriver --plugin serves it */
  if (plugin_take(cryptobench_provider(), NULL, err, sizeof err) != 0 ||
      ops_init(err, sizeof err) != 0) {
    fprintf(stderr, "ops_init: %s\n", err);
    return 1;
  }
  cb_set_provider(CB_TEST_PROVIDER);
  printf("provider %s, library: %s\n", CB_TEST_PROVIDER, ops_library_version());
  test_bounded();
  test_input();
  test_vectors();
  test_bench();
  test_loop_check_values();
  test_samples_tsc();
  test_botan_cbc_empty();
  test_pk();
  test_v3();
#if defined(CB_TEST_OPS_openssl) && !defined(__wasi__)
  test_tls();
#endif
  test_errors();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
