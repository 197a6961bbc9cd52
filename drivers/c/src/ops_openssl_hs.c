/* Key derivation and handshakes of cbdriver-openssl (protocol.md, version 3).
 *
 * hkdf-sha256 `derive`: HKDF-SHA256 (RFC 5869), extract and expand in one call. 3.x: EVP_KDF
 * "HKDF" fetched and its context made (digest set) once per cell; one operation is one
 * EVP_KDF_derive with IKM, salt and info passed as parameters (the way a caller with a fresh IKM
 * uses it, and the way the handshake library calls it). 1.1.1: an EVP_PKEY_HKDF context made once
 * per cell; one operation is EVP_PKEY_derive_init, the digest, key, salt and info, and
 * EVP_PKEY_derive (1.1.1 appends info on every call, so the context is re-initialised).
 *
 * Handshakes (docs/pq-ntor.md): the C library protocols/pqntor/c/pqntor.c, compiled into this
 * binary (one source; ntor wherever OpenSSL has X25519 and HKDF, pq-ntor-512/768/1024 only with
 * ML-KEM, OpenSSL >= 3.5), with system randomness (x, y, b from RAND_priv_bytes, OpenSSL's ML-KEM
 * drawing d|z and m itself) and 72 bytes of keys. Per cell, outside the timed region: the relay's
 * identity (random bytes) and long-term key; for server-reply one valid onionskin. One operation:
 *   client-create  pqntor_client_create (fresh x, and for pq-ntor a fresh ML-KEM key pair); the
 *                  client state it allocates is kept and freed in the next ops_cell_prepare(),
 *                  outside the timed region (as protocols/pqntor/c/bench.c does)
 *   server-reply   pqntor_server_reply on the prepared onionskin (fresh y, fresh encapsulation)
 *   client-finish  pqntor_client_finish on a fresh (state, reply) pair: ops_cell_prepare(n) makes
 *                  n pairs (client_create + server_reply each) before every sample, outside the
 *                  timed region, and frees the states used before; a failed finish is OPS_FAIL
 *   full           create, reply, finish and freeing the state, all inside the operation
 * Output: the onionskin, the reply, or the 72 bytes of keys (client-finish, full).
 *
 * The `handshake` verify case runs the three steps with the case's secrets through the library's
 * draw hooks (x, d|z for create; y, m for reply) and answers onionskin || reply || keys, after
 * checking that both sides derived the same keys.
 */
#include "ops_hs.h"
#include <cryptobench/kit.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

#include "pqntor.h"

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define HS_OSSL3 1
#include <openssl/core_names.h>
#include <openssl/params.h>
#else
#define HS_OSSL3 0
#endif

/* protocol.md: 72 bytes of HKDF output in bench; a case asking for more than HKDF_CASE_MAX is
 * an error (no huge buffer); the handshake cells derive 72 bytes of keys (docs/pq-ntor.md); one
 * prepare makes or keeps at most HS_MAX_PREPARED client states */
#define HKDF_BENCH_LEN 72
#define HKDF_CASE_MAX ((size_t)1 << 20)
#define HS_KEY_LEN 72
#define HS_MAX_PREPARED ((uint64_t)1 << 16)

static const struct {
  const char *name;
  pqntor_suite suite;
} SUITES[] = {
    {"ntor", PQNTOR_SUITE_NTOR},
    {"pq-ntor-512", PQNTOR_SUITE_MLKEM512},
    {"pq-ntor-768", PQNTOR_SUITE_MLKEM768},
    {"pq-ntor-1024", PQNTOR_SUITE_MLKEM1024},
};
#define NSUITES (sizeof SUITES / sizeof SUITES[0])

enum step { ST_DERIVE, ST_CASE, ST_CREATE, ST_REPLY, ST_FINISH, ST_FULL };

struct hs_cell {
  enum step step;
  const uint8_t *out;
  size_t out_len;
  uint8_t *buf; /* HKDF output; the handshake case's onionskin || reply || keys */
  size_t buf_len;
  char err[256];
  /* hkdf-sha256 */
  const uint8_t *ikm, *salt, *info;
  size_t ikm_len, salt_len, info_len;
#if HS_OSSL3
  EVP_KDF *kdf;
  EVP_KDF_CTX *kctx;
#else
  EVP_PKEY_CTX *pctx;
#endif
  /* handshakes */
  const pqntor_suite_info *si;
  size_t key_len;
  pqntor_relay *relay;
  const uint8_t *id, *B; /* the relay's, as the client knows them */
  uint8_t onionskin[PQNTOR_MAX_ONIONSKIN_LEN], reply[PQNTOR_MAX_REPLY_LEN];
  size_t onionskin_len, reply_len;
  uint8_t keys[HS_KEY_LEN], keys2[HS_KEY_LEN];
  /* client-create: the states made since the last prepare (freed there); client-finish: states
   * and their replies, [0, next) used, [next, count) ready */
  pqntor_client **states;
  uint8_t *replies; /* cap * si->reply_len */
  size_t cap, count, next;
  /* the handshake case */
  const ops_params *p;
};

static int fail(hs_cell *c, const char *what, int rc) {
  cb_kit_err(c->err, sizeof c->err, "%s: %s", what, pqntor_error_class(rc));
  ERR_clear_error();
  return OPS_FAIL;
}

/* A refusal of the protocol (a message or key the other side does not accept) is a rejection;
 * anything else a failure. */
static int refused(int rc) {
  return rc == PQNTOR_ERR_MALFORMED || rc == PQNTOR_ERR_UNKNOWN_RELAY || rc == PQNTOR_ERR_BAD_KEY ||
         rc == PQNTOR_ERR_HANDSHAKE_FAILED;
}

/* ---- catalogue ---- */

static int hkdf_available(void) {
#if HS_OSSL3
  EVP_KDF *k = EVP_KDF_fetch(NULL, "HKDF", NULL);
  EVP_KDF_free(k);
  ERR_clear_error();
  return k != NULL;
#else
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
  EVP_PKEY_CTX_free(c);
  ERR_clear_error();
  return c != NULL;
#endif
}

/* One whole handshake with system randomness: the suite runs in this build. */
static int suite_runs(pqntor_suite suite) {
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  if (si == NULL || !pqntor_suite_supported(suite))
    return 0;
  uint8_t id[PQNTOR_MAX_ID_LEN] = {1}, os[PQNTOR_MAX_ONIONSKIN_LEN], rep[PQNTOR_MAX_REPLY_LEN];
  uint8_t k1[HS_KEY_LEN], k2[HS_KEY_LEN];
  size_t olen = sizeof os, rlen = sizeof rep;
  pqntor_relay *relay = NULL;
  pqntor_client *st = NULL;
  int ok =
      pqntor_relay_generate(&relay, id, si->id_len, NULL) == PQNTOR_OK &&
      pqntor_client_create(&st, os, &olen, suite, HS_KEY_LEN, id, si->id_len,
                           pqntor_relay_public_key(relay), NULL) == PQNTOR_OK &&
      pqntor_server_reply(relay, suite, os, olen, rep, &rlen, k1, HS_KEY_LEN, NULL) == PQNTOR_OK &&
      pqntor_client_finish(st, rep, rlen, k2, HS_KEY_LEN, NULL) == PQNTOR_OK &&
      memcmp(k1, k2, HS_KEY_LEN) == 0;
  pqntor_client_free(st);
  pqntor_relay_free(relay);
  ERR_clear_error();
  return ok;
}

static const pqntor_suite_info *suite_of(const char *alg) {
  for (size_t i = 0; i < NSUITES; i++)
    if (strcmp(alg, SUITES[i].name) == 0)
      return pqntor_suite_get(SUITES[i].suite);
  return NULL;
}

size_t hs_catalogue(ops_alg *out, size_t max) {
  size_t n = 0;
  if (n < max && hkdf_available()) {
    memset(&out[n], 0, sizeof out[n]);
    out[n].name = "hkdf-sha256";
    out[n].ops[0] = "derive";
    n++;
  }
  for (size_t i = 0; i < NSUITES && n < max; i++) {
    if (!suite_runs(SUITES[i].suite))
      continue;
    memset(&out[n], 0, sizeof out[n]);
    out[n].name = SUITES[i].name;
    out[n].ops[0] = "client-create";
    out[n].ops[1] = "server-reply";
    out[n].ops[2] = "client-finish";
    out[n].ops[3] = "full";
    out[n].fresh = 1;
    n++;
  }
  return n;
}

size_t hs_notes(const char **notes, size_t max) {
  size_t n = 0;
  if (n < max)
    notes[n++] =
        HS_OSSL3
            ? "hkdf-sha256 derive: EVP_KDF \"HKDF\" (SHA-256, extract and expand) fetched and its "
              "context made once per cell; one operation is one EVP_KDF_derive with IKM, salt "
              "and info passed as parameters, 72 bytes out"
            : "hkdf-sha256 derive: an EVP_PKEY_HKDF context made once per cell; one operation is "
              "EVP_PKEY_derive_init, digest, key, salt and info set, EVP_PKEY_derive (72 bytes)";
  if (n < max)
    notes[n++] =
        "ntor / pq-ntor (docs/pq-ntor.md): the C library protocols/pqntor/c compiled into this "
        "binary, system randomness, 72 bytes of keys; the relay's identity and long-term key "
        "once per cell. server-reply answers one onionskin made outside the timed region. "
        "client-finish: before every sample (and warm-up operation) ops_cell_prepare makes "
        "`batch` fresh (client state, reply) pairs outside the timed region and frees the states "
        "used before; client-create's states are freed there too. full = create, reply, finish "
        "and freeing the state, all timed";
  if (!pqntor_suite_supported(PQNTOR_SUITE_MLKEM768) && n < max)
    notes[n++] = "pq-ntor-512/768/1024 not offered: this OpenSSL has no ML-KEM (3.5 and later)";
  return n;
}

/* ---- cells ---- */

void hs_cell_free(hs_cell *c) {
  if (c == NULL)
    return;
  for (size_t i = 0; i < c->count; i++)
    pqntor_client_free(c->states[i]);
  free(c->states);
  free(c->replies);
  pqntor_relay_free(c->relay);
#if HS_OSSL3
  EVP_KDF_CTX_free(c->kctx);
  EVP_KDF_free(c->kdf);
#else
  EVP_PKEY_CTX_free(c->pctx);
#endif
  free(c->buf);
  OPENSSL_cleanse(c->keys, sizeof c->keys);
  OPENSSL_cleanse(c->keys2, sizeof c->keys2);
  free(c);
}

static hs_cell *new_hkdf(hs_cell *c, const ops_params *p, char *err, size_t errlen) {
  size_t len = p->out_len != 0 ? p->out_len : HKDF_BENCH_LEN;
  if (strcmp(p->op, "derive") != 0) {
    cb_kit_err(err, errlen, "operation %s not offered for hkdf-sha256", p->op);
    return NULL;
  }
  if (len > HKDF_CASE_MAX) {
    cb_kit_err(err, errlen, "output size %zu too large for this driver (at most %zu)", len,
               HKDF_CASE_MAX);
    return NULL;
  }
  static const uint8_t empty[1] = {0};
  c->step = ST_DERIVE;
  c->ikm = p->msg != NULL ? p->msg : empty;
  c->ikm_len = p->msg_len;
  c->salt = p->key != NULL ? p->key : empty;
  c->salt_len = p->key != NULL ? p->key_len : 0;
  c->info = p->iv != NULL ? p->iv : empty;
  c->info_len = p->iv != NULL ? p->iv_len : 0;
  c->buf_len = len;
  c->buf = malloc(len > 0 ? len : 1);
  if (c->buf == NULL) {
    cb_kit_err(err, errlen, "out of memory");
    return NULL;
  }
#if HS_OSSL3
  static char sha256[] = "SHA256";
  OSSL_PARAM dp[] = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, sha256, 0),
                     OSSL_PARAM_construct_end()};
  c->kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  c->kctx = c->kdf != NULL ? EVP_KDF_CTX_new(c->kdf) : NULL;
  if (c->kctx == NULL || EVP_KDF_CTX_set_params(c->kctx, dp) != 1) {
    cb_kit_err(err, errlen, "HKDF set-up failed");
    ERR_clear_error();
    return NULL;
  }
#else
  if (c->ikm_len > INT_MAX || c->salt_len > INT_MAX || c->info_len > INT_MAX) {
    cb_kit_err(err, errlen, "input too long for EVP_PKEY_HKDF");
    return NULL;
  }
  if (c->ikm_len == 0) { /* EVP_PKEY_CTX_set1_hkdf_key copies the key with a 0-byte malloc */
    cb_kit_err(err, errlen,
               "not offered at this size: OpenSSL 1.1.1's EVP_PKEY_HKDF refuses an empty IKM");
    return NULL;
  }
  c->pctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
  if (c->pctx == NULL) {
    cb_kit_err(err, errlen, "HKDF set-up failed");
    ERR_clear_error();
    return NULL;
  }
#endif
  return c;
}

static int run_hkdf(hs_cell *c) {
#if HS_OSSL3
  OSSL_PARAM p[4];
  size_t i = 0;
  p[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)c->ikm, c->ikm_len);
  if (c->salt_len > 0)
    p[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)c->salt, c->salt_len);
  if (c->info_len > 0)
    p[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)c->info, c->info_len);
  p[i] = OSSL_PARAM_construct_end();
  int ok = EVP_KDF_derive(c->kctx, c->buf, c->buf_len, p) == 1;
#else
  size_t n = c->buf_len;
  int ok =
      EVP_PKEY_derive_init(c->pctx) == 1 && EVP_PKEY_CTX_set_hkdf_md(c->pctx, EVP_sha256()) == 1 &&
      EVP_PKEY_CTX_set1_hkdf_key(c->pctx, c->ikm, (int)c->ikm_len) == 1 &&
      (c->salt_len == 0 || EVP_PKEY_CTX_set1_hkdf_salt(c->pctx, c->salt, (int)c->salt_len) == 1) &&
      (c->info_len == 0 || EVP_PKEY_CTX_add1_hkdf_info(c->pctx, c->info, (int)c->info_len) == 1) &&
      EVP_PKEY_derive(c->pctx, c->buf, &n) == 1 && n == c->buf_len;
#endif
  if (!ok) { /* the library refused: an output length over 255 * 32, ... */
    unsigned long e = ERR_peek_error();
    char msg[160] = "";
    if (e != 0)
      ERR_error_string_n(e, msg, sizeof msg);
    cb_kit_err(c->err, sizeof c->err, "HKDF refused %zu bytes of output%s%s", c->buf_len,
               e != 0 ? ": " : "", msg);
    ERR_clear_error();
    c->out_len = 0;
    return OPS_REJECTED;
  }
  c->out = c->buf;
  c->out_len = c->buf_len;
  return c->buf_len > 0 ? c->buf[0] : 0;
}

static int parse_step(const char *op, enum step *st) {
  static const struct {
    const char *name;
    enum step step;
  } t[] = {{"handshake", ST_CASE},
           {"client-create", ST_CREATE},
           {"server-reply", ST_REPLY},
           {"client-finish", ST_FINISH},
           {"full", ST_FULL}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(op, t[i].name) == 0) {
      *st = t[i].step;
      return 0;
    }
  return -1;
}

/* A handshake secret of the case (cb_params.ext), its length in *len */
static const uint8_t *ext(const ops_params *p, const char *key, size_t *len) {
  return cb_ext_get(p, key, len);
}

/* The handshake case's secrets: lengths checked here, so a malformed case is an error. */
static int check_case(const hs_cell *c, const ops_params *p, char *err, size_t errlen) {
  const pqntor_suite_info *si = c->si;
  int pq = si->ek_len != 0;
  struct {
    const char *name;
    size_t want;
    const uint8_t *v;
    size_t len;
  } f[] = {{"relay_id", si->id_len, NULL, 0},
           {"relay_b_secret", 32, NULL, 0},
           {"client_x_secret", 32, NULL, 0},
           {"relay_y_secret", 32, NULL, 0},
           {"client_mlkem_seed", PQNTOR_MLKEM_SEED_LEN, NULL, 0},
           {"mlkem_encaps_m", PQNTOR_MLKEM_M_LEN, NULL, 0}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    if (i >= 4 && !pq)
      continue;
    f[i].v = cb_ext_get(p, f[i].name, &f[i].len); /* the case's secrets are extensions */
    if (f[i].v == NULL || f[i].len != f[i].want) {
      cb_kit_err(err, errlen, "handshake case: %s must be %zu bytes (got %s%zu)", f[i].name,
                 f[i].want, f[i].v == NULL ? "none, " : "", f[i].len);
      return -1;
    }
  }
  if (p->out_len < 1 || p->out_len > PQNTOR_MAX_KEY_LEN) {
    cb_kit_err(err, errlen, "handshake case: key_len %zu not in 1..%d", p->out_len,
               PQNTOR_MAX_KEY_LEN);
    return -1;
  }
  return 0;
}

hs_cell *hs_cell_new(const ops_params *p, char *err, size_t errlen) {
  hs_cell *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c == NULL)
    return NULL;
  if (strcmp(p->alg, "hkdf-sha256") == 0) {
    if (new_hkdf(c, p, err, errlen) == NULL) {
      hs_cell_free(c);
      return NULL;
    }
    return c;
  }
  c->si = suite_of(p->alg);
  if (c->si == NULL || parse_step(p->op, &c->step) != 0) {
    cb_kit_err(err, errlen, "operation %s not offered for %s", p->op, p->alg);
    hs_cell_free(c);
    return NULL;
  }
  int rc;
  if (c->step == ST_CASE) {
    size_t id_len, b_len;
    const uint8_t *id = ext(p, "relay_id", &id_len), *b = ext(p, "relay_b_secret", &b_len);
    if (check_case(c, p, err, errlen) != 0) {
      hs_cell_free(c);
      return NULL;
    }
    c->p = p;
    c->key_len = p->out_len;
    c->buf_len = c->si->onionskin_len + c->si->reply_len + c->key_len;
    c->buf = malloc(c->buf_len + c->key_len);
    rc = c->buf == NULL ? PQNTOR_ERR_INTERNAL : pqntor_relay_new(&c->relay, id, id_len, b);
  } else {
    if (p->msg_len != 0) {
      cb_kit_err(err, errlen, "%s %s: size must be 0 (a handshake step has no message)", p->alg,
                 p->op);
      hs_cell_free(c);
      return NULL;
    }
    /* the relay (a random identity, a random long-term key), once per cell */
    uint8_t id[PQNTOR_MAX_ID_LEN];
    c->key_len = HS_KEY_LEN;
    rc = RAND_bytes(id, (int)c->si->id_len) == 1
             ? pqntor_relay_generate(&c->relay, id, c->si->id_len, NULL)
             : PQNTOR_ERR_RANDOM;
  }
  if (rc != PQNTOR_OK) {
    cb_kit_err(err, errlen, "%s: making the relay keys: %s", p->alg, pqntor_error_class(rc));
    ERR_clear_error();
    hs_cell_free(c);
    return NULL;
  }
  c->id = pqntor_relay_id(c->relay, NULL);
  c->B = pqntor_relay_public_key(c->relay);
  if (c->step == ST_REPLY) { /* one valid onionskin, made outside the timed region */
    pqntor_client *st = NULL;
    c->onionskin_len = sizeof c->onionskin;
    rc = pqntor_client_create(&st, c->onionskin, &c->onionskin_len, c->si->suite, c->key_len, c->id,
                              c->si->id_len, c->B, NULL);
    pqntor_client_free(st);
    if (rc != PQNTOR_OK) {
      cb_kit_err(err, errlen, "%s: making the onionskin: %s", p->alg, pqntor_error_class(rc));
      ERR_clear_error();
      hs_cell_free(c);
      return NULL;
    }
  }
  return c;
}

/* ---- the prepared client states ---- */

static int reserve(hs_cell *c, size_t n) {
  if (n <= c->cap)
    return 0;
  pqntor_client **s = realloc(c->states, n * sizeof *s);
  if (s == NULL)
    return -1;
  c->states = s;
  if (c->step == ST_FINISH) {
    uint8_t *r = realloc(c->replies, n * c->si->reply_len);
    if (r == NULL)
      return -1;
    c->replies = r;
  }
  c->cap = n;
  return 0;
}

/* Free the states [0, upto) and move the rest to the front. */
static void release(hs_cell *c, size_t upto) {
  size_t rl = c->step == ST_FINISH ? c->si->reply_len : 0;
  for (size_t i = 0; i < upto; i++)
    pqntor_client_free(c->states[i]);
  size_t rest = c->count - upto;
  if (rest > 0 && upto > 0) {
    memmove(c->states, c->states + upto, rest * sizeof *c->states);
    if (rl > 0)
      memmove(c->replies, c->replies + upto * rl, rest * rl);
  }
  c->count = rest;
  c->next = 0;
}

int hs_cell_prepare(hs_cell *c, uint64_t n) {
  if (c->step != ST_CREATE && c->step != ST_FINISH)
    return 0;
  if (n > HS_MAX_PREPARED) {
    cb_kit_err(c->err, sizeof c->err, "batch %llu too large: %s keeps at most %llu client states",
               (unsigned long long)n, c->step == ST_CREATE ? "client-create" : "client-finish",
               (unsigned long long)HS_MAX_PREPARED);
    return -1;
  }
  if (c->step == ST_CREATE) { /* the states made since the last prepare */
    release(c, c->count);
    if (reserve(c, (size_t)n) != 0) {
      cb_kit_err(c->err, sizeof c->err, "out of memory");
      return -1;
    }
    return 0;
  }
  release(c, c->next); /* the used ones; unused ones stay ready */
  if (reserve(c, (size_t)n) != 0) {
    cb_kit_err(c->err, sizeof c->err, "out of memory");
    return -1;
  }
  size_t rl = c->si->reply_len;
  while (c->count < n) {
    pqntor_client *st = NULL;
    size_t olen = sizeof c->onionskin, rlen = rl;
    int rc = pqntor_client_create(&st, c->onionskin, &olen, c->si->suite, c->key_len, c->id,
                                  c->si->id_len, c->B, NULL);
    if (rc == PQNTOR_OK)
      rc = pqntor_server_reply(c->relay, c->si->suite, c->onionskin, olen,
                               c->replies + c->count * rl, &rlen, c->keys, c->key_len, NULL);
    if (rc != PQNTOR_OK) {
      pqntor_client_free(st);
      fail(c, "preparing a client state and its reply", rc);
      return -1;
    }
    c->states[c->count++] = st;
  }
  return 0;
}

void hs_cell_test_corrupt_replies(hs_cell *c) {
  if (c == NULL || c->step != ST_FINISH)
    return;
  size_t rl = c->si->reply_len;
  for (size_t i = c->next; i < c->count; i++)
    c->replies[i * rl + rl - 1] ^= 0x01; /* the last bit of AUTH */
}

/* ---- one operation ---- */

typedef struct {
  const uint8_t *a, *b; /* drawn in this order */
  size_t a_len, b_len, off;
} draws;

static int draw_fn(void *ctx, uint8_t *out, size_t len) {
  draws *d = ctx;
  for (size_t i = 0; i < len; i++, d->off++) {
    if (d->off < d->a_len)
      out[i] = d->a[d->off];
    else if (d->off < d->a_len + d->b_len)
      out[i] = d->b[d->off - d->a_len];
    else
      return 0;
  }
  return 1;
}

static int run_case(hs_cell *c) {
  const ops_params *p = c->p;
  const pqntor_suite_info *si = c->si;
  int pq = si->ek_len != 0;
  size_t n;
  draws dc = {ext(p, "client_x_secret", &n), pq ? ext(p, "client_mlkem_seed", &n) : NULL, 32,
              pq ? PQNTOR_MLKEM_SEED_LEN : 0, 0};
  draws dr = {ext(p, "relay_y_secret", &n), pq ? ext(p, "mlkem_encaps_m", &n) : NULL, 32,
              pq ? PQNTOR_MLKEM_M_LEN : 0, 0};
  pqntor_hooks hc = {draw_fn, &dc, NULL, NULL}, hr = {draw_fn, &dr, NULL, NULL};
  uint8_t *os = c->buf, *rep = os + si->onionskin_len, *keys = rep + si->reply_len;
  uint8_t *ckeys = keys + c->key_len;
  size_t olen = si->onionskin_len, rlen = si->reply_len;
  pqntor_client *st = NULL;
  int rc =
      pqntor_client_create(&st, os, &olen, si->suite, c->key_len, c->id, si->id_len, c->B, &hc);
  const char *what = "client-create";
  if (rc == PQNTOR_OK) {
    what = "server-reply";
    rc = pqntor_server_reply(c->relay, si->suite, os, olen, rep, &rlen, keys, c->key_len, &hr);
  }
  if (rc == PQNTOR_OK) {
    what = "client-finish";
    rc = pqntor_client_finish(st, rep, rlen, ckeys, c->key_len, NULL);
  }
  pqntor_client_free(st);
  if (rc != PQNTOR_OK) {
    int r = fail(c, what, rc);
    return refused(rc) ? OPS_REJECTED : r;
  }
  if (dc.off != dc.a_len + dc.b_len || dr.off != dr.a_len + dr.b_len) {
    cb_kit_err(c->err, sizeof c->err,
               "the handshake drew %zu and %zu bytes, the case gives %zu, %zu", dc.off, dr.off,
               dc.a_len + dc.b_len, dr.a_len + dr.b_len);
    return OPS_FAIL;
  }
  if (CRYPTO_memcmp(keys, ckeys, c->key_len) != 0) {
    cb_kit_err(c->err, sizeof c->err, "client and relay derived different keys");
    return OPS_FAIL;
  }
  c->out = c->buf;
  c->out_len = c->buf_len;
  return c->out[0];
}

static int run_create(hs_cell *c) {
  if (c->count >= c->cap) {
    cb_kit_err(c->err, sizeof c->err,
               "client-create: more operations than ops_cell_prepare() made room for");
    return OPS_FAIL;
  }
  size_t olen = sizeof c->onionskin;
  int rc = pqntor_client_create(&c->states[c->count], c->onionskin, &olen, c->si->suite, c->key_len,
                                c->id, c->si->id_len, c->B, NULL);
  if (rc != PQNTOR_OK)
    return fail(c, "client-create", rc);
  c->count++;
  c->out = c->onionskin;
  c->out_len = olen;
  return c->onionskin[0];
}

static int run_reply(hs_cell *c) {
  size_t rlen = sizeof c->reply;
  int rc = pqntor_server_reply(c->relay, c->si->suite, c->onionskin, c->onionskin_len, c->reply,
                               &rlen, c->keys, c->key_len, NULL);
  if (rc != PQNTOR_OK)
    return fail(c, "server-reply", rc);
  c->out = c->reply;
  c->out_len = rlen;
  return c->reply[0];
}

static int run_finish(hs_cell *c) {
  if (c->next >= c->count) {
    cb_kit_err(c->err, sizeof c->err,
               "client-finish: no prepared client state left (more operations than "
               "ops_cell_prepare() made)");
    return OPS_FAIL;
  }
  size_t i = c->next++, rl = c->si->reply_len;
  int rc = pqntor_client_finish(c->states[i], c->replies + i * rl, rl, c->keys2, c->key_len, NULL);
  if (rc != PQNTOR_OK)
    return fail(c, "client-finish", rc);
  c->out = c->keys2;
  c->out_len = c->key_len;
  return c->keys2[0];
}

static int run_full(hs_cell *c) {
  pqntor_client *st = NULL;
  size_t olen = sizeof c->onionskin, rlen = sizeof c->reply;
  const char *what = "client-create";
  int rc = pqntor_client_create(&st, c->onionskin, &olen, c->si->suite, c->key_len, c->id,
                                c->si->id_len, c->B, NULL);
  if (rc == PQNTOR_OK) {
    what = "server-reply";
    rc = pqntor_server_reply(c->relay, c->si->suite, c->onionskin, olen, c->reply, &rlen, c->keys,
                             c->key_len, NULL);
  }
  if (rc == PQNTOR_OK) {
    what = "client-finish";
    rc = pqntor_client_finish(st, c->reply, rlen, c->keys2, c->key_len, NULL);
  }
  pqntor_client_free(st);
  if (rc != PQNTOR_OK)
    return fail(c, what, rc);
  c->out = c->keys2;
  c->out_len = c->key_len;
  return c->keys2[0];
}

/* each step's operation; HKDF, well under a microsecond, is called directly */
static int (*const STEP_RUN[])(hs_cell *) = {[ST_CASE] = run_case,
                                             [ST_CREATE] = run_create,
                                             [ST_REPLY] = run_reply,
                                             [ST_FINISH] = run_finish,
                                             [ST_FULL] = run_full};

int hs_cell_run(hs_cell *c) {
  if (c->step == ST_DERIVE)
    return run_hkdf(c);
  size_t i = (size_t)c->step;
  return i < sizeof STEP_RUN / sizeof *STEP_RUN && STEP_RUN[i] != NULL ? STEP_RUN[i](c) : OPS_FAIL;
}

OPS_HALF_OUTPUT_ERROR(hs, c->out != NULL ? c->out : (const uint8_t *)"",
                      c->out != NULL ? c->out_len : 0, "operation failed")
