/*
 * pqntor: ntor and PQ-ntor (docs/pq-ntor.md), C implementation on OpenSSL >= 3.5 EVP.
 * Section numbers in comments refer to docs/pq-ntor.md.
 */
#include "pqntor.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

/*
 * One source for every OpenSSL the C driver links (drivers/c): ntor needs X25519 and HKDF
 * (OpenSSL >= 1.1.1), pq-ntor needs ML-KEM (>= 3.5). Built against an OpenSSL without ML-KEM,
 * the pq-ntor suites answer PQNTOR_ERR_UNSUPPORTED (pqntor_suite_supported() says which run).
 * 3.x: HMAC and HKDF through EVP_MAC / EVP_KDF, fetched once (3.0's HKDF cannot duplicate a
 * context, so there each derivation gets a new one); 1.1.1: HMAC() and the EVP_PKEY_HKDF
 * derivation.
 */
#if OPENSSL_VERSION_NUMBER < 0x10101000L
#error "pqntor needs OpenSSL >= 1.1.1 (X25519, HKDF); pq-ntor (ML-KEM) needs >= 3.5"
#endif
#define PQNTOR_OSSL3 (OPENSSL_VERSION_NUMBER >= 0x30000000L)
#define PQNTOR_HAVE_MLKEM (OPENSSL_VERSION_NUMBER >= 0x30500000L)

#if PQNTOR_OSSL3
#include <openssl/core_names.h>
#include <openssl/params.h>
#else
#include <openssl/hmac.h>
#endif

/* ---- suites (section 3) ---- */

#define TAGS(p) p, p ":mac", p ":key_extract", p ":verify", p ":key_expand"

static const pqntor_suite_info suites[PQNTOR_NUM_SUITES] = {
    {PQNTOR_SUITE_NTOR, "ntor", TAGS("ntor-curve25519-sha256-1"), NULL, 20, 0, 0, 84, 64, 204, 178},
    {PQNTOR_SUITE_MLKEM512, "pq-ntor-mlkem512", TAGS("pqntor-x25519-mlkem512-sha256-1"),
     "ML-KEM-512", 32, 800, 768, 896, 832, 1823, 1765},
    {PQNTOR_SUITE_MLKEM768, "pq-ntor-mlkem768", TAGS("pqntor-x25519-mlkem768-sha256-1"),
     "ML-KEM-768", 32, 1184, 1088, 1280, 1152, 2527, 2469},
    {PQNTOR_SUITE_MLKEM1024, "pq-ntor-mlkem1024", TAGS("pqntor-x25519-mlkem1024-sha256-1"),
     "ML-KEM-1024", 32, 1568, 1568, 1664, 1632, 3392, 3334},
};

#define MAX_SECRET_INPUT 3392
#define MAX_AUTH_INPUT 3334
#define MAX_EK 1568
#define MLKEM_SS_LEN 32

const pqntor_suite_info *pqntor_suite_get(pqntor_suite suite) {
  if ((int)suite < 0 || (int)suite >= PQNTOR_NUM_SUITES)
    return NULL;
  return &suites[suite];
}

int pqntor_suite_supported(pqntor_suite suite) {
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  return si != NULL && (si->ek_len == 0 || PQNTOR_HAVE_MLKEM);
}

int pqntor_suite_by_name(const char *name, pqntor_suite *out) {
  if (name == NULL || out == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < PQNTOR_NUM_SUITES; i++) {
    if (strcmp(name, suites[i].name) == 0) {
      *out = suites[i].suite;
      return PQNTOR_OK;
    }
  }
  return PQNTOR_ERR_INVALID_ARGUMENT;
}

const char *pqntor_error_class(int err) {
  switch (err) {
  case PQNTOR_OK:
    return "ok";
  case PQNTOR_ERR_MALFORMED:
    return "malformed";
  case PQNTOR_ERR_UNKNOWN_RELAY:
    return "unknown-relay";
  case PQNTOR_ERR_BAD_KEY:
    return "bad-key";
  case PQNTOR_ERR_HANDSHAKE_FAILED:
    return "handshake-failed";
  case PQNTOR_ERR_INVALID_ARGUMENT:
    return "invalid-argument";
  case PQNTOR_ERR_STATE_USED:
    return "state-used";
  case PQNTOR_ERR_RANDOM:
    return "random-failed";
  case PQNTOR_ERR_UNSUPPORTED:
    return "unsupported";
  default:
    return "internal";
  }
}

/* ---- hooks ---- */

static int deterministic(const pqntor_hooks *h) { return h != NULL && h->draw != NULL; }

static int draw(const pqntor_hooks *h, uint8_t *out, size_t n) {
  if (deterministic(h))
    return h->draw(h->draw_ctx, out, n) == 1;
  return RAND_priv_bytes(out, (int)n) == 1;
}

static void trace(const pqntor_hooks *h, const char *name, const uint8_t *data, size_t n) {
  if (h != NULL && h->trace != NULL)
    h->trace(h->trace_ctx, name, data, n);
}

/* ---- HMAC-SHA256 and HKDF-SHA256 (section 2), fetched once (3.x) ---- */

static CRYPTO_ONCE init_once = CRYPTO_ONCE_STATIC_INIT;
static int init_ok;

#if PQNTOR_OSSL3
static char sha256_name[] = "SHA256";
static EVP_MAC_CTX *hmac_template; /* HMAC with digest SHA256 set, no key */
static EVP_KDF_CTX *hkdf_template; /* HKDF with digest SHA256 set */
static EVP_KDF *hkdf_kdf;          /* OpenSSL 3.0's HKDF cannot duplicate a context: new ones */
static int hkdf_dup_ok;

static void do_init(void) {
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  hkdf_kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  OSSL_PARAM mp[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, sha256_name, 0),
                     OSSL_PARAM_construct_end()};
  OSSL_PARAM kp[] = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, sha256_name, 0),
                     OSSL_PARAM_construct_end()};
  if (mac != NULL && hkdf_kdf != NULL) {
    hmac_template = EVP_MAC_CTX_new(mac);
    hkdf_template = EVP_KDF_CTX_new(hkdf_kdf);
    init_ok = hmac_template != NULL && hkdf_template != NULL &&
              EVP_MAC_CTX_set_params(hmac_template, mp) == 1 &&
              EVP_KDF_CTX_set_params(hkdf_template, kp) == 1;
  }
  if (init_ok) {
    EVP_KDF_CTX *probe = EVP_KDF_CTX_dup(hkdf_template);
    hkdf_dup_ok = probe != NULL;
    EVP_KDF_CTX_free(probe);
  }
  ERR_clear_error();
  EVP_MAC_free(mac); /* the contexts hold their own references */
}

/* H(x, t) = HMAC-SHA256(key = t, message = x) */
static int hmac_sha256(const char *key, const uint8_t *msg, size_t msg_len, uint8_t out[32]) {
  EVP_MAC_CTX *c = EVP_MAC_CTX_dup(hmac_template);
  size_t outl = 0;
  int ok = c != NULL && EVP_MAC_init(c, (const unsigned char *)key, strlen(key), NULL) == 1 &&
           EVP_MAC_update(c, msg, msg_len) == 1 && EVP_MAC_final(c, out, &outl, 32) == 1 &&
           outl == 32;
  EVP_MAC_CTX_free(c);
  return ok;
}

#define HKDF_EXTRACT_ONLY EVP_KDF_HKDF_MODE_EXTRACT_ONLY
#define HKDF_EXPAND_ONLY EVP_KDF_HKDF_MODE_EXPAND_ONLY

static int hkdf_run(int mode, const uint8_t *key, size_t key_len, const char *salt_or_info,
                    uint8_t *out, size_t out_len) {
  EVP_KDF_CTX *c = hkdf_dup_ok ? EVP_KDF_CTX_dup(hkdf_template) : EVP_KDF_CTX_new(hkdf_kdf);
  const char *which = mode == HKDF_EXTRACT_ONLY ? OSSL_KDF_PARAM_SALT : OSSL_KDF_PARAM_INFO;
  OSSL_PARAM p[] = {
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, key_len),
      OSSL_PARAM_construct_octet_string(which, (void *)salt_or_info, strlen(salt_or_info)),
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, sha256_name, 0),
      OSSL_PARAM_construct_end()};
  if (hkdf_dup_ok) /* the template has the digest already */
    p[3] = OSSL_PARAM_construct_end();
  int ok = c != NULL && EVP_KDF_derive(c, out, out_len, p) == 1;
  EVP_KDF_CTX_free(c);
  return ok;
}
#else /* OpenSSL 1.1.1 */
static void do_init(void) { init_ok = 1; }

static int hmac_sha256(const char *key, const uint8_t *msg, size_t msg_len, uint8_t out[32]) {
  unsigned int outl = 0;
  return HMAC(EVP_sha256(), key, (int)strlen(key), msg, msg_len, out, &outl) != NULL && outl == 32;
}

#define HKDF_EXTRACT_ONLY EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY
#define HKDF_EXPAND_ONLY EVP_PKEY_HKDEF_MODE_EXPAND_ONLY

static int hkdf_run(int mode, const uint8_t *key, size_t key_len, const char *salt_or_info,
                    uint8_t *out, size_t out_len) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
  const unsigned char *si = (const unsigned char *)salt_or_info;
  int sl = (int)strlen(salt_or_info);
  size_t n = out_len;
  int ok = c != NULL && key_len <= INT_MAX && EVP_PKEY_derive_init(c) == 1 &&
           EVP_PKEY_CTX_set_hkdf_md(c, EVP_sha256()) == 1 && EVP_PKEY_CTX_hkdf_mode(c, mode) == 1 &&
           EVP_PKEY_CTX_set1_hkdf_key(c, key, (int)key_len) == 1 &&
           (mode == HKDF_EXTRACT_ONLY ? EVP_PKEY_CTX_set1_hkdf_salt(c, si, sl)
                                      : EVP_PKEY_CTX_add1_hkdf_info(c, si, sl)) == 1 &&
           EVP_PKEY_derive(c, out, &n) == 1 && n == out_len;
  EVP_PKEY_CTX_free(c);
  return ok;
}
#endif

static int ensure_init(void) { return CRYPTO_THREAD_run_once(&init_once, do_init) && init_ok; }

/* HKDF-Extract(salt, IKM) -> PRK (= KEY_SEED) */
static int hkdf_extract(const char *salt, const uint8_t *ikm, size_t ikm_len, uint8_t prk[32]) {
  return hkdf_run(HKDF_EXTRACT_ONLY, ikm, ikm_len, salt, prk, 32);
}

/* HKDF-Expand(PRK, info, L) */
static int hkdf_expand(const uint8_t prk[32], const char *info, uint8_t *out, size_t len) {
  return hkdf_run(HKDF_EXPAND_ONLY, prk, 32, info, out, len);
}

int pqntor_kdf(pqntor_suite suite, const uint8_t *ikm, size_t ikm_len, uint8_t *out, size_t len) {
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  uint8_t prk[32];
  static const uint8_t empty[1] = {0};
  if (si == NULL || out == NULL || len < 1 || len > PQNTOR_MAX_KEY_LEN ||
      (ikm == NULL && ikm_len != 0))
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (!ensure_init())
    return PQNTOR_ERR_INTERNAL;
  int ok = hkdf_extract(si->t_key, ikm != NULL ? ikm : empty, ikm_len, prk) &&
           hkdf_expand(prk, si->m_expand, out, len);
  OPENSSL_cleanse(prk, sizeof prk);
  if (!ok) {
    OPENSSL_cleanse(out, len);
    return PQNTOR_ERR_INTERNAL;
  }
  return PQNTOR_OK;
}

/* ---- X25519 (section 2: EXP, KEYGEN) ---- */

/* KEYGEN with a given private key: the EVP key for s, and EXP(9, s). */
static EVP_PKEY *x25519_keypair(const uint8_t s[32], uint8_t pub[32]) {
  EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, s, 32);
  size_t n = 32;
  if (k != NULL && (EVP_PKEY_get_raw_public_key(k, pub, &n) != 1 || n != 32)) {
    EVP_PKEY_free(k);
    return NULL;
  }
  return k;
}

/* The peer's key as received, without OpenSSL's optional public-key validation (3.x). */
static int set_peer(EVP_PKEY_CTX *c, EVP_PKEY *peer) {
#if PQNTOR_OSSL3
  return EVP_PKEY_derive_set_peer_ex(c, peer, 0);
#else
  return EVP_PKEY_derive_set_peer(c, peer);
#endif
}

/*
 * EXP(P, s) for the private key `priv`. Returns 1, or 0 if the output is all-zero (OpenSSL
 * refuses to return an all-zero X25519 output, RFC 7748 section 6.1) or on any failure.
 * P is used as received: X25519 itself ignores bit 255.
 */
static int x25519_exp(EVP_PKEY *priv, const uint8_t P[32], uint8_t out[32]) {
  static const uint8_t zero[32] = {0};
  EVP_PKEY *peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, P, 32);
  EVP_PKEY_CTX *c = peer != NULL ? EVP_PKEY_CTX_new(priv, NULL) : NULL;
  size_t n = 32;
  int ok = c != NULL && EVP_PKEY_derive_init(c) == 1 && set_peer(c, peer) == 1 &&
           EVP_PKEY_derive(c, out, &n) == 1 && n == 32 && CRYPTO_memcmp(out, zero, 32) != 0;
  EVP_PKEY_CTX_free(c);
  EVP_PKEY_free(peer);
  if (!ok)
    OPENSSL_cleanse(out, 32);
  return ok;
}

/* ---- ML-KEM (section 2): OpenSSL >= 3.5 only ---- */

#if PQNTOR_HAVE_MLKEM

/* KeyGen_internal(d, z) from seed = d | z, or a randomized KeyGen with seed == NULL. */
static EVP_PKEY *mlkem_keygen(const char *alg, const uint8_t *seed) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
  EVP_PKEY *k = NULL;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_ML_KEM_SEED, (void *)seed,
                                                      PQNTOR_MLKEM_SEED_LEN),
                    OSSL_PARAM_construct_end()};
  if (c == NULL || EVP_PKEY_keygen_init(c) != 1 ||
      (seed != NULL && EVP_PKEY_CTX_set_params(c, p) != 1) || EVP_PKEY_generate(c, &k) != 1) {
    EVP_PKEY_free(k);
    k = NULL;
  }
  EVP_PKEY_CTX_free(c);
  return k;
}

static int get_octets(const EVP_PKEY *k, const char *name, uint8_t *out, size_t len) {
  size_t n = 0;
  return EVP_PKEY_get_octet_string_param(k, name, out, len, &n) == 1 && n == len;
}

/* The encoded encapsulation key EK, and the seed d|z, of a decapsulation key. */
static int mlkem_get_ek(const EVP_PKEY *k, uint8_t *out, size_t len) {
  return get_octets(k, OSSL_PKEY_PARAM_PUB_KEY, out, len);
}
static int mlkem_get_seed(const EVP_PKEY *k, uint8_t *out, size_t len) {
  return get_octets(k, OSSL_PKEY_PARAM_ML_KEM_SEED, out, len);
}

/*
 * An encapsulation key as received. OpenSSL's import performs the FIPS 203 section 7.2
 * checks (length and modulus: every decoded coefficient < q); NULL if it fails.
 */
static EVP_PKEY *mlkem_import_ek(const char *alg, const uint8_t *ek, size_t ek_len) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, alg, NULL);
  EVP_PKEY *k = NULL;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)ek, ek_len),
                    OSSL_PARAM_construct_end()};
  if (c == NULL || EVP_PKEY_fromdata_init(c) != 1 ||
      EVP_PKEY_fromdata(c, &k, EVP_PKEY_PUBLIC_KEY, p) != 1) {
    EVP_PKEY_free(k);
    k = NULL;
  }
  EVP_PKEY_CTX_free(c);
  return k;
}

/* Encaps_internal(ek, m), or a randomized Encaps with m == NULL. */
static int mlkem_encaps(EVP_PKEY *ek, const uint8_t *m, uint8_t *ct, size_t ct_len,
                        uint8_t ss[32]) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ek, NULL);
  OSSL_PARAM p[] = {
      OSSL_PARAM_construct_octet_string(OSSL_KEM_PARAM_IKME, (void *)m, PQNTOR_MLKEM_M_LEN),
      OSSL_PARAM_construct_end()};
  size_t cl = ct_len, sl = MLKEM_SS_LEN;
  int ok = c != NULL && EVP_PKEY_encapsulate_init(c, m != NULL ? p : NULL) == 1 &&
           EVP_PKEY_encapsulate(c, ct, &cl, ss, &sl) == 1 && cl == ct_len && sl == MLKEM_SS_LEN;
  EVP_PKEY_CTX_free(c);
  return ok;
}

static int mlkem_decaps(EVP_PKEY *dk, const uint8_t *ct, size_t ct_len, uint8_t ss[32]) {
  EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(dk, NULL);
  size_t sl = MLKEM_SS_LEN;
  int ok = c != NULL && EVP_PKEY_decapsulate_init(c, NULL) == 1 &&
           EVP_PKEY_decapsulate(c, ss, &sl, ct, ct_len) == 1 && sl == MLKEM_SS_LEN;
  EVP_PKEY_CTX_free(c);
  return ok;
}
#else /* no ML-KEM: the pq-ntor suites are refused before any of these is reached */
static EVP_PKEY *mlkem_keygen(const char *alg, const uint8_t *seed) {
  (void)alg;
  (void)seed;
  return NULL;
}
static EVP_PKEY *mlkem_import_ek(const char *alg, const uint8_t *ek, size_t ek_len) {
  (void)alg;
  (void)ek;
  (void)ek_len;
  return NULL;
}
static int mlkem_encaps(EVP_PKEY *ek, const uint8_t *m, uint8_t *ct, size_t ct_len,
                        uint8_t ss[32]) {
  (void)ek;
  (void)m;
  (void)ct;
  (void)ct_len;
  (void)ss;
  return 0;
}
static int mlkem_decaps(EVP_PKEY *dk, const uint8_t *ct, size_t ct_len, uint8_t ss[32]) {
  (void)dk;
  (void)ct;
  (void)ct_len;
  (void)ss;
  return 0;
}
static int mlkem_get_ek(const EVP_PKEY *k, uint8_t *out, size_t len) {
  (void)k;
  (void)out;
  (void)len;
  return 0;
}
static int mlkem_get_seed(const EVP_PKEY *k, uint8_t *out, size_t len) {
  (void)k;
  (void)out;
  (void)len;
  return 0;
}
#endif

/* ---- the key schedule (sections 5, 6.2, 6.4) ---- */

typedef struct {
  const uint8_t *p;
  size_t n;
} span;

static size_t concat(uint8_t *out, const span *parts, size_t count) {
  size_t off = 0;
  for (size_t i = 0; i < count; i++) {
    if (parts[i].n != 0)
      memcpy(out + off, parts[i].p, parts[i].n);
    off += parts[i].n;
  }
  return off;
}

/* The values entering both hash inputs, as sent and received. */
typedef struct {
  const uint8_t *dh1; /* EXP(X,y) = EXP(Y,x) */
  const uint8_t *dh2; /* EXP(X,b) = EXP(B,x) */
  const uint8_t *ss;  /* K (pq-ntor) */
  const uint8_t *id, *B, *X, *ek, *Y, *ct;
} transcript;

/*
 * secret_input, KEY_SEED, verify, auth_input, AUTH. Writes KEY_SEED and AUTH; the caller
 * expands KEY_SEED only when it accepts.
 */
static int key_schedule(const pqntor_suite_info *si, const transcript *t, uint8_t key_seed[32],
                        uint8_t auth[32], const pqntor_hooks *h) {
  uint8_t secret_input[MAX_SECRET_INPUT], auth_input[MAX_AUTH_INPUT], verify[32];
  size_t ss_len = si->ek_len != 0 ? MLKEM_SS_LEN : 0;
  const span protoid = {(const uint8_t *)si->protoid, strlen(si->protoid)};
  const span s[] = {{t->dh1, 32},        {t->dh2, 32}, {t->ss, ss_len},     {t->id, si->id_len},
                    {t->B, 32},          {t->X, 32},   {t->ek, si->ek_len}, {t->Y, 32},
                    {t->ct, si->ct_len}, protoid};
  size_t sl = concat(secret_input, s, sizeof s / sizeof s[0]);
  int ok = sl == si->secret_input_len;

  trace(h, "secret_input", secret_input, sl);
  trace(h, "hkdf_salt", (const uint8_t *)si->t_key, strlen(si->t_key));
  trace(h, "hkdf_ikm", secret_input, sl);
  trace(h, "hkdf_info", (const uint8_t *)si->m_expand, strlen(si->m_expand));
  ok = ok && hkdf_extract(si->t_key, secret_input, sl, key_seed);
  trace(h, "key_seed", key_seed, 32);
  trace(h, "hmac_verify_key", (const uint8_t *)si->t_verify, strlen(si->t_verify));
  ok = ok && hmac_sha256(si->t_verify, secret_input, sl, verify);
  trace(h, "verify", verify, 32);

  const span a[] = {{verify, 32},
                    {t->id, si->id_len},
                    {t->B, 32},
                    {t->Y, 32},
                    {t->ct, si->ct_len},
                    {t->X, 32},
                    {t->ek, si->ek_len},
                    protoid,
                    {(const uint8_t *)"Server", 6}};
  size_t al = concat(auth_input, a, sizeof a / sizeof a[0]);
  ok = ok && al == si->auth_input_len;
  trace(h, "auth_input", auth_input, al);
  trace(h, "hmac_auth_key", (const uint8_t *)si->t_mac, strlen(si->t_mac));
  ok = ok && hmac_sha256(si->t_mac, auth_input, al, auth);
  trace(h, "auth", auth, 32);

  OPENSSL_cleanse(secret_input, sizeof secret_input);
  OPENSSL_cleanse(auth_input, sizeof auth_input);
  OPENSSL_cleanse(verify, sizeof verify);
  return ok;
}

/* ---- relay keys (section 4) ---- */

struct pqntor_relay {
  size_t id_len;
  uint8_t id[PQNTOR_MAX_ID_LEN];
  uint8_t b[32];
  uint8_t B[32];
  EVP_PKEY *bkey;
};

int pqntor_relay_new(pqntor_relay **out, const uint8_t *id, size_t id_len, const uint8_t b[32]) {
  if (out == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (id == NULL || b == NULL || (id_len != 20 && id_len != 32))
    return PQNTOR_ERR_INVALID_ARGUMENT;
  pqntor_relay *r = OPENSSL_zalloc(sizeof *r);
  if (r == NULL)
    return PQNTOR_ERR_INTERNAL;
  r->id_len = id_len;
  memcpy(r->id, id, id_len);
  memcpy(r->b, b, 32);
  r->bkey = x25519_keypair(b, r->B);
  if (r->bkey == NULL) {
    pqntor_relay_free(r);
    return PQNTOR_ERR_INTERNAL;
  }
  *out = r;
  return PQNTOR_OK;
}

int pqntor_relay_generate(pqntor_relay **out, const uint8_t *id, size_t id_len,
                          const pqntor_hooks *hooks) {
  uint8_t b[32];
  if (out == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (id == NULL || (id_len != 20 && id_len != 32))
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (!draw(hooks, b, sizeof b))
    return PQNTOR_ERR_RANDOM;
  int rc = pqntor_relay_new(out, id, id_len, b);
  OPENSSL_cleanse(b, sizeof b);
  return rc;
}

const uint8_t *pqntor_relay_id(const pqntor_relay *relay, size_t *id_len) {
  if (id_len != NULL)
    *id_len = relay->id_len;
  return relay->id;
}

const uint8_t *pqntor_relay_public_key(const pqntor_relay *relay) { return relay->B; }
const uint8_t *pqntor_relay_secret_key(const pqntor_relay *relay) { return relay->b; }

void pqntor_relay_free(pqntor_relay *relay) {
  if (relay == NULL)
    return;
  EVP_PKEY_free(relay->bkey);
  OPENSSL_clear_free(relay, sizeof *relay);
}

/* ---- client state ---- */

struct pqntor_client {
  const pqntor_suite_info *si;
  size_t key_len;
  int used;
  uint8_t id[PQNTOR_MAX_ID_LEN];
  uint8_t B[32];
  uint8_t X[32];
  uint8_t ek[MAX_EK];
  EVP_PKEY *xkey; /* x */
  EVP_PKEY *dk;   /* ML-KEM decapsulation key (pq-ntor) */
};

static void client_wipe(pqntor_client *st) {
  EVP_PKEY_free(st->xkey);
  EVP_PKEY_free(st->dk);
  st->xkey = NULL;
  st->dk = NULL;
}

void pqntor_client_free(pqntor_client *st) {
  if (st == NULL)
    return;
  client_wipe(st);
  OPENSSL_clear_free(st, sizeof *st);
}

pqntor_suite pqntor_client_suite(const pqntor_client *st) { return st->si->suite; }
size_t pqntor_client_key_len(const pqntor_client *st) { return st->key_len; }

/* A client state from x and (pq-ntor) the ML-KEM seed d|z, or a random key if seed == NULL. */
static int client_build(pqntor_client **out, const pqntor_suite_info *si, size_t key_len,
                        const uint8_t *id, const uint8_t *B, const uint8_t x[32],
                        const uint8_t *seed) {
  pqntor_client *st = OPENSSL_zalloc(sizeof *st);
  if (st == NULL)
    return PQNTOR_ERR_INTERNAL;
  st->si = si;
  st->key_len = key_len;
  memcpy(st->id, id, si->id_len);
  memcpy(st->B, B, 32);
  st->xkey = x25519_keypair(x, st->X);
  int ok = st->xkey != NULL;
  if (ok && si->ek_len != 0) {
    st->dk = mlkem_keygen(si->mlkem_alg, seed);
    ok = st->dk != NULL && mlkem_get_ek(st->dk, st->ek, si->ek_len);
  }
  if (!ok) {
    pqntor_client_free(st);
    return PQNTOR_ERR_INTERNAL;
  }
  *out = st;
  return PQNTOR_OK;
}

/* ---- client_create (sections 5, 6.1) ---- */

int pqntor_client_create(pqntor_client **state, uint8_t *onionskin, size_t *onionskin_len,
                         pqntor_suite suite, size_t key_len, const uint8_t *relay_id,
                         size_t relay_id_len, const uint8_t relay_B[32],
                         const pqntor_hooks *hooks) {
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  uint8_t x[32], seed[PQNTOR_MLKEM_SEED_LEN];
  int rc;

  if (state == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  *state = NULL;
  if (si == NULL || onionskin == NULL || onionskin_len == NULL ||
      *onionskin_len < si->onionskin_len || key_len < 1 || key_len > PQNTOR_MAX_KEY_LEN ||
      relay_id == NULL || relay_id_len != si->id_len || relay_B == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (!pqntor_suite_supported(suite))
    return PQNTOR_ERR_UNSUPPORTED;
  if (!ensure_init())
    return PQNTOR_ERR_INTERNAL;

  /* Draws (section 8): x, then d|z. */
  int det = deterministic(hooks);
  if (!draw(hooks, x, 32) || (si->ek_len != 0 && det && !draw(hooks, seed, sizeof seed))) {
    rc = PQNTOR_ERR_RANDOM;
    goto out;
  }
  rc = client_build(state, si, key_len, relay_id, relay_B, x, det ? seed : NULL);
  if (rc != PQNTOR_OK)
    goto out;

  pqntor_client *st = *state;
  const span parts[] = {{st->id, si->id_len}, {st->B, 32}, {st->X, 32}, {st->ek, si->ek_len}};
  *onionskin_len = concat(onionskin, parts, sizeof parts / sizeof parts[0]);
  trace(hooks, "client_X", st->X, 32);
  if (si->ek_len != 0)
    trace(hooks, "client_mlkem_ek", st->ek, si->ek_len);
out:
  OPENSSL_cleanse(x, sizeof x);
  OPENSSL_cleanse(seed, sizeof seed);
  return rc;
}

/* ---- server_reply (sections 5, 6.2, 7.1) ---- */

int pqntor_server_reply(const pqntor_relay *relay, pqntor_suite suite, const uint8_t *onionskin,
                        size_t onionskin_len, uint8_t *reply, size_t *reply_len, uint8_t *keys,
                        size_t key_len, const pqntor_hooks *hooks) {
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  uint8_t y[32], m[PQNTOR_MLKEM_M_LEN], Xy[32], Xb[32], ss[MLKEM_SS_LEN], key_seed[32];
  EVP_PKEY *ekey = NULL, *ykey = NULL;
  int rc = PQNTOR_ERR_INTERNAL;

  if (si == NULL || relay == NULL || reply == NULL || reply_len == NULL || keys == NULL ||
      (onionskin == NULL && onionskin_len != 0) || *reply_len < si->reply_len || key_len < 1 ||
      key_len > PQNTOR_MAX_KEY_LEN || relay->id_len != si->id_len)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (!pqntor_suite_supported(suite))
    return PQNTOR_ERR_UNSUPPORTED;
  if (!ensure_init())
    return PQNTOR_ERR_INTERNAL;
  memset(ss, 0, sizeof ss);

  /* 1. exact length */
  if (onionskin_len != si->onionskin_len)
    return PQNTOR_ERR_MALFORMED;
  const uint8_t *id = onionskin, *B = id + si->id_len, *X = B + 32, *ek = X + 32;
  /* 2, 3. our ID and onion key (public values) */
  if (CRYPTO_memcmp(id, relay->id, si->id_len) != 0 || CRYPTO_memcmp(B, relay->B, 32) != 0)
    return PQNTOR_ERR_UNKNOWN_RELAY;
  /* 4. FIPS 203 encapsulation-key check (done by OpenSSL's import) */
  if (si->ek_len != 0 && (ekey = mlkem_import_ek(si->mlkem_alg, ek, si->ek_len)) == NULL)
    return PQNTOR_ERR_BAD_KEY;

  /* 5. y, Y, and the two DH outputs, neither all-zero */
  uint8_t *Y = reply, *ct = reply + 32, *auth = reply + 32 + si->ct_len;
  if (!draw(hooks, y, sizeof y)) {
    rc = PQNTOR_ERR_RANDOM;
    goto out;
  }
  if ((ykey = x25519_keypair(y, Y)) == NULL)
    goto out;
  trace(hooks, "relay_Y", Y, 32);
  if (!x25519_exp(ykey, X, Xy) || !x25519_exp(relay->bkey, X, Xb)) {
    rc = PQNTOR_ERR_BAD_KEY;
    goto out;
  }
  trace(hooks, "exp_X_y", Xy, 32);
  trace(hooks, "exp_X_b", Xb, 32);

  /* 6. encapsulate to EK */
  if (si->ek_len != 0) {
    int det = deterministic(hooks);
    if (det && !draw(hooks, m, sizeof m)) {
      rc = PQNTOR_ERR_RANDOM;
      goto out;
    }
    if (!mlkem_encaps(ekey, det ? m : NULL, ct, si->ct_len, ss))
      goto out;
    trace(hooks, "mlkem_ciphertext", ct, si->ct_len);
    trace(hooks, "mlkem_shared_secret", ss, sizeof ss);
  }

  /* 7. key schedule, reply = Y | CT | AUTH, KEYS */
  const transcript t = {Xy, Xb, ss, id, B, X, ek, Y, ct};
  if (!key_schedule(si, &t, key_seed, auth, hooks) ||
      !hkdf_expand(key_seed, si->m_expand, keys, key_len))
    goto out;
  *reply_len = si->reply_len;
  rc = PQNTOR_OK;

out:
  if (rc != PQNTOR_OK) {
    OPENSSL_cleanse(keys, key_len);
    OPENSSL_cleanse(reply, si->reply_len);
  }
  OPENSSL_cleanse(y, sizeof y);
  OPENSSL_cleanse(m, sizeof m);
  OPENSSL_cleanse(Xy, sizeof Xy);
  OPENSSL_cleanse(Xb, sizeof Xb);
  OPENSSL_cleanse(ss, sizeof ss);
  OPENSSL_cleanse(key_seed, sizeof key_seed);
  EVP_PKEY_free(ykey);
  EVP_PKEY_free(ekey);
  return rc;
}

/* ---- client_finish (sections 5, 6.3, 7.2) ---- */

int pqntor_client_finish(pqntor_client *st, const uint8_t *reply, size_t reply_len, uint8_t *keys,
                         size_t key_len, const pqntor_hooks *hooks) {
  uint8_t Yx[32], Bx[32], ss[MLKEM_SS_LEN], key_seed[32], auth[32];
  int rc = PQNTOR_ERR_INTERNAL;

  if (st == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  /* 1. single use: the secrets go whatever happens below */
  if (st->used)
    return PQNTOR_ERR_STATE_USED;
  st->used = 1;
  const pqntor_suite_info *si = st->si;
  memset(ss, 0, sizeof ss);

  if (keys == NULL || key_len != st->key_len || (reply == NULL && reply_len != 0)) {
    rc = PQNTOR_ERR_INVALID_ARGUMENT;
    goto out;
  }
  if (!ensure_init())
    goto out;
  /* 2. exact length */
  if (reply_len != si->reply_len) {
    rc = PQNTOR_ERR_MALFORMED;
    goto out;
  }
  const uint8_t *Y = reply, *ct = reply + 32, *auth_recv = reply + 32 + si->ct_len;

  /* 3. neither DH output all-zero */
  if (!x25519_exp(st->xkey, Y, Yx) || !x25519_exp(st->xkey, st->B, Bx)) {
    rc = PQNTOR_ERR_HANDSHAKE_FAILED;
    goto out;
  }
  trace(hooks, "exp_X_y", Yx, 32);
  trace(hooks, "exp_X_b", Bx, 32);

  /* 4. decapsulate (a wrong CT gives an unrelated K, caught by step 5) */
  if (si->ek_len != 0) {
    if (!mlkem_decaps(st->dk, ct, si->ct_len, ss))
      goto out;
    trace(hooks, "mlkem_shared_secret", ss, sizeof ss);
  }

  /* 5. recompute AUTH, compare in constant time */
  const transcript t = {Yx, Bx, ss, st->id, st->B, st->X, st->ek, Y, ct};
  if (!key_schedule(si, &t, key_seed, auth, hooks))
    goto out;
  if (CRYPTO_memcmp(auth, auth_recv, PQNTOR_AUTH_LEN) != 0) {
    rc = PQNTOR_ERR_HANDSHAKE_FAILED;
    goto out;
  }
  /* 6. only then KEYS */
  if (!hkdf_expand(key_seed, si->m_expand, keys, key_len))
    goto out;
  rc = PQNTOR_OK;

out:
  if (rc != PQNTOR_OK && keys != NULL && key_len == st->key_len)
    OPENSSL_cleanse(keys, key_len);
  OPENSSL_cleanse(Yx, sizeof Yx);
  OPENSSL_cleanse(Bx, sizeof Bx);
  OPENSSL_cleanse(ss, sizeof ss);
  OPENSSL_cleanse(key_seed, sizeof key_seed);
  OPENSSL_cleanse(auth, sizeof auth);
  client_wipe(st);
  return rc;
}

/* ---- state serialization (CLI) ----
 * version 1: 0x01 | suite | L (2 bytes, big-endian) | id_len | ID | B | x | [d|z (pq-ntor)]
 */

int pqntor_client_serialize(const pqntor_client *st, uint8_t *out, size_t *len) {
  if (st == NULL || out == NULL || len == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (st->used)
    return PQNTOR_ERR_STATE_USED;
  const pqntor_suite_info *si = st->si;
  size_t need = 5 + si->id_len + 32 + 32 + (si->ek_len != 0 ? PQNTOR_MLKEM_SEED_LEN : 0);
  if (*len < need)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  size_t off = 0, n = 32;
  out[off++] = 1;
  out[off++] = (uint8_t)si->suite;
  out[off++] = (uint8_t)(st->key_len >> 8);
  out[off++] = (uint8_t)st->key_len;
  out[off++] = (uint8_t)si->id_len;
  memcpy(out + off, st->id, si->id_len);
  off += si->id_len;
  memcpy(out + off, st->B, 32);
  off += 32;
  if (EVP_PKEY_get_raw_private_key(st->xkey, out + off, &n) != 1 || n != 32)
    goto fail;
  off += 32;
  if (si->ek_len != 0) {
    if (!mlkem_get_seed(st->dk, out + off, PQNTOR_MLKEM_SEED_LEN))
      goto fail;
    off += PQNTOR_MLKEM_SEED_LEN;
  }
  *len = off;
  return PQNTOR_OK;
fail:
  OPENSSL_cleanse(out, need);
  return PQNTOR_ERR_INTERNAL;
}

int pqntor_client_deserialize(pqntor_client **state, const uint8_t *in, size_t len) {
  if (state == NULL)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  *state = NULL;
  if (in == NULL || len < 5 || in[0] != 1)
    return PQNTOR_ERR_INVALID_ARGUMENT;
  const pqntor_suite_info *si = pqntor_suite_get((pqntor_suite)in[1]);
  size_t key_len = ((size_t)in[2] << 8) | in[3];
  if (si == NULL || in[4] != si->id_len || key_len < 1 || key_len > PQNTOR_MAX_KEY_LEN ||
      len != 5 + si->id_len + 64 + (si->ek_len != 0 ? PQNTOR_MLKEM_SEED_LEN : 0))
    return PQNTOR_ERR_INVALID_ARGUMENT;
  if (!pqntor_suite_supported(si->suite))
    return PQNTOR_ERR_UNSUPPORTED;
  if (!ensure_init())
    return PQNTOR_ERR_INTERNAL;
  const uint8_t *id = in + 5, *B = id + si->id_len, *x = B + 32, *seed = x + 32;
  return client_build(state, si, key_len, id, B, x, si->ek_len != 0 ? seed : NULL);
}
