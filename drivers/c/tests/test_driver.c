/* Native tests of the C driver family (drivers.md, "Tests"): the fixed input, every exported vector
 * case through the verify case executor, and one bench request per offered algorithm/operation
 * through the request handler. Exits non-zero on any failure.
 *
 * One source for every binary: the Makefile compiles it once per ops module with
 * -DCB_TEST_PROVIDER='"<provider id>"' and -DCB_TEST_OPS_<module> (the catalogue that module must
 * offer). OpenSSL's one-call API is the independent reference for SHA-2 and HMAC in all of them. */
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
#include "protocol.h"

#define SEED 2654435769u

#ifndef CB_TEST_PROVIDER
#define CB_TEST_PROVIDER "c:openssl"
#define CB_TEST_OPS_openssl
#endif

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
                                          "blake2s-256", "sm3",         "aes-128-ccm", NULL};
#define MIN_OFFERS 8
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
static const char *const NEVER_OFFER[] = {"blake2s-256", NULL};
#define MIN_OFFERS 21
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
static const char *const NEVER_OFFER[] = {NULL};
#define MIN_OFFERS 20
#define ANY_CHUNK 1
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

static const char *str(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s != NULL ? s : "";
}

static char *hex(const uint8_t *b, size_t n) { return hex_encode(b, n); }

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
          "`cd <repository root> && python3 -m cryptobench.vectors.export build/cases` "
          "(or set CRYPTOBENCH_CASES)",
          dir);
    return;
  }
  for (size_t i = 0; i < ops_alg_count(); i++) {
    const ops_alg *a = ops_alg_at(i);
    if (strcmp(a->name, "noop") == 0)
      continue; /* no vectors: the empty operation */
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, a->name);
    FILE *f = fopen(path, "r");
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
    size_t good = 0;
    for (size_t k = 0; k < ncases && k < json_array_size(results); k++) {
      json_t *exp = json_array_get(expected, k), *res = json_array_get(results, k);
      char why[300] = "";
      int ok = json_equal(json_object_get(res, "id"), json_object_get(exp, "id")) &&
               judge(exp, res, why, sizeof why);
      check(ok, "%s %s: %s", a->name, str(exp, "id"), why[0] ? why : "id not echoed");
      good += ok;
    }
    printf("vectors %-18s %zu/%zu cases pass\n", a->name, good, ncases);
    json_decref(r);
    json_decref(expected);
  }
}

/* ---- 3. bench ---- */

static size_t key_len_for(const char *alg) {
  if (strncmp(alg, "aes-128", 7) == 0)
    return 16;
  if (strncmp(alg, "aes-256", 7) == 0 || strncmp(alg, "chacha20", 8) == 0 ||
      strncmp(alg, "xchacha20", 9) == 0 || strcmp(alg, "hmac-sha256") == 0)
    return 32;
  return 0;
}

static size_t iv_len_for(const char *alg) {
  if (strncmp(alg, "xchacha20", 9) == 0)
    return 24;
  if (strncmp(alg, "aes", 3) != 0 && strncmp(alg, "chacha20", 8) != 0)
    return 0;
  if (strstr(alg, "-ecb") != NULL)
    return 0;
  if (strstr(alg, "-cbc") != NULL || strstr(alg, "-ctr") != NULL)
    return 16;
  return 12;
}

static json_t *bench_req(const char *alg, const char *op, size_t size, size_t chunk, size_t batch) {
  uint8_t key[32], iv[24];
  for (int i = 0; i < 32; i++)
    key[i] = (uint8_t)(i * 7 + 1);
  for (int i = 0; i < 24; i++)
    iv[i] = (uint8_t)(0xa0 + i);
  char *k = hex(key, key_len_for(alg)), *v = hex(iv, iv_len_for(alg));
  json_t *req =
      json_pack("{s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "cmd", "bench",
                "alg", alg, "op", op, "size", (json_int_t)size, "chunk", (json_int_t)chunk, "key",
                k, "iv", v, "seed", (json_int_t)SEED, "batch", (json_int_t)batch, "target_ns",
                (json_int_t)200000, "warmup_ns", (json_int_t)1000000, "samples", (json_int_t)3);
  free(k);
  free(v);
  return req;
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
static int check_bench_opt(const char *alg, const char *op, size_t size, size_t chunk, size_t batch,
                           const char *want, int may_decline) {
  json_t *r = call(bench_req(alg, op, size, chunk, batch));
  if (may_decline && !is_ok(r) && starts_with(str(r, "error"), "not offered")) {
    printf("bench   %-18s %-7s size %zu chunk %zu: %s\n", alg, op, size, chunk, str(r, "error"));
    json_decref(r);
    return 1;
  }
  json_t *samples = json_object_get(r, "samples_ns");
  json_int_t got_batch = json_integer_value(json_object_get(r, "batch"));
  int ok = is_ok(r) && json_array_size(samples) == 3 && got_batch > 0 &&
           (batch == 0 || got_batch == (json_int_t)batch) &&
           strcmp(str(r, "checksum"), want) == 0 && json_is_integer(json_object_get(r, "sink")) &&
           json_integer_value(json_object_get(json_object_get(r, "warmup"), "ops")) >= 1 &&
           json_integer_value(json_object_get(r, "peak_rss_kb")) > 0;
  for (size_t i = 0; ok && i < json_array_size(samples); i++)
    ok = json_integer_value(json_array_get(samples, i)) > 0;
  char *dump = json_dumps(r, JSON_COMPACT);
  check(ok, "bench %s %s size %zu chunk %zu batch %zu: want %s, got %.300s", alg, op, size, chunk,
        batch, want, dump);
  free(dump);
  json_decref(r);
  return 0;
}

static void check_bench(const char *alg, const char *op, size_t size, size_t chunk, size_t batch,
                        const char *want) {
  (void)check_bench_opt(alg, op, size, chunk, batch, want, 0);
}

static void test_bench(void) {
  json_t *h = call_str("{\"cmd\":\"hello\",\"protocol\":1}");
  json_t *offers = json_object_get(h, "offers"), *stream = json_object_get(h, "stream");
  char language[16];
  snprintf(language, sizeof language, "%.*s", (int)strcspn(CB_TEST_PROVIDER, ":"),
           CB_TEST_PROVIDER);
  check(is_ok(h) && json_integer_value(json_object_get(h, "protocol")) == 1 &&
            strcmp(str(h, "provider"), CB_TEST_PROVIDER) == 0 &&
            strcmp(str(h, "language"), language) == 0 &&
            strcmp(str(h, "library"), ops_library_name()) == 0 &&
            strcmp(str(h, "library_version"), ops_library_version()) == 0 &&
            *ops_library_version() != '\0' && strncmp(str(h, "runtime"), "gcc ", 4) == 0 &&
            json_integer_value(json_object_get(json_object_get(h, "clock"), "resolution_ns")) > 0 &&
            json_array_size(json_object_get(h, "notes")) > 0,
        "hello identity: %s %s %s", str(h, "provider"), str(h, "language"),
        str(h, "library_version"));
  check(json_object_size(offers) >= MIN_OFFERS, "hello offers %zu algorithms, want >= %d",
        json_object_size(offers), MIN_OFFERS);
  for (size_t i = 0; MUST_OFFER[i] != NULL; i++)
    check(json_object_get(offers, MUST_OFFER[i]) != NULL, "hello offers %s", MUST_OFFER[i]);
  for (size_t i = 0; NEVER_OFFER[i] != NULL; i++)
    check(json_object_get(offers, NEVER_OFFER[i]) == NULL, "hello does not offer %s",
          NEVER_OFFER[i]);
  size_t si;
  json_t *sv;
  int stream_ok = json_array_size(stream) > 0;
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
        free(out);
      }
      check_bench(alg, op, size, 0, 0, want);
      check_bench(alg, op, size, 0, 5, want);
      if (streamable) {
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
  check_bench("sha256", "hash", 1024, 0, 0, "00000020:fb4898be6151a393");
  char want[INPUT_CHECKSUM_LEN];
  msg = input_message(SEED, 1000);
  static const char *const ciphers[] = {"aes-128-ctr", "chacha20"};
  for (size_t i = 0; i < 2; i++) {
    if (ops_alg_find(ciphers[i]) == NULL)
      continue;
    char *out = oneshot(ciphers[i], "encrypt", msg, 1000);
    checksum_of_hex(out, want);
    check_bench(ciphers[i], "encrypt", 1000, 0, 0, want);
    check_bench(ciphers[i], "encrypt", 1000, 64, 0, want);
    free(out);
  }
  static const char *const aeads[] = {"aes-128-gcm", "chacha20-poly1305"};
  for (size_t i = 0; i < 2; i++) {
    if (ops_alg_find(aeads[i]) == NULL)
      continue;
    char *out = oneshot(aeads[i], "seal", msg, 0);
    checksum_of_hex(out, want);
    check_bench(aeads[i], "seal", 0, 0, 0, want);
    free(out);
  }
  free(msg);
  json_decref(h);
}

/* ---- errors: one error line each, and the driver keeps answering ---- */

static void test_errors(void) {
  static const char *const bad[] = {
      "",
      "{",
      "[1]",
      "{\"cmd\":42}",
      "{\"cmd\":\"frobnicate\"}",
      "{\"cmd\":\"hello\",\"protocol\":2}",
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
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
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
  json_decref(one);
  json_decref(r);
}

static void test_bounded(void) {
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

int main(void) {
  char err[300];
  if (ops_init(err, sizeof err) != 0) {
    fprintf(stderr, "ops_init: %s\n", err);
    return 1;
  }
  cb_set_provider(CB_TEST_PROVIDER);
  printf("provider %s, library: %s\n", CB_TEST_PROVIDER, ops_library_version());
  test_bounded();
  test_input();
  test_vectors();
  test_bench();
  test_errors();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
