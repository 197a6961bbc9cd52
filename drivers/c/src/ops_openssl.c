#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* ops for OpenSSL libcrypto, through EVP only.
 *
 * Compiles against OpenSSL 1.1.1 and 3.x/4.0. The 3.x branch fetches each algorithm once per
 * cell (EVP_MD_fetch / EVP_CIPHER_fetch / EVP_MAC_fetch) and never calls an API deprecated in
 * 3.0; the 1.1.1 branch looks algorithms up by name and does HMAC with HMAC_CTX. Public-key
 * algorithms are in ops_openssl_pk.c, HKDF and the ntor / pq-ntor handshakes (protocol version 3)
 * in ops_openssl_hs.c; this file dispatches their cells there.
 *
 * `update` (ciphers and AEADs but CCM, for bench/accuracy only): one EVP_EncryptUpdate of the
 * message on a context given its key and IV once per cell, the counter continuing from one
 * operation to the next, no final, no tag: the loop `openssl speed -evp` times.
 */
#include "ops_hs.h"
/* the cells that hand their work to another file's: public-key (ops_openssl_pk.c), KDF and
 * handshake (ops_openssl_hs.c), TLS (ops_openssl_tls.c); ops_module.h */
#define OPS_SUBCELLS(X) X(pk, pk_cell) X(hs, hs_cell) X(tls, tls_cell)

#include "ops_module.h"
#include "ops_ossl.h"
#include "ops_pk.h"
#include "ops_regen.h"
#include "ops_tls.h"
#include "tls_iface.h"
#include <cryptobench/kit.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define CB_OSSL3 1
#include <openssl/core_names.h>
#include <openssl/params.h>
#else
#define CB_OSSL3 0
#include <openssl/hmac.h>
#endif

#if OPENSSL_VERSION_NUMBER < 0x10101000L
#error "OpenSSL 1.1.1 or later is required"
#endif

enum kind { K_NOOP, K_HASH, K_MAC, K_CIPHER, K_AEAD };
/* each kind's operations are the kit's (include/cryptobench/kit.h) */
static const enum cb_kit_kind KIT_KIND[] = {CB_KIT_NOOP, CB_KIT_HASH, CB_KIT_MAC, CB_KIT_CIPHER,
                                            CB_KIT_AEAD};
enum mode { M_NONE, M_ECB, M_CBC, M_CTR, M_CHACHA20, M_GCM, M_CCM, M_CHACHAPOLY };
enum op { OP_NOOP, OP_HASH, OP_MAC, OP_ENCRYPT, OP_DECRYPT, OP_SEAL, OP_OPEN, OP_UPDATE, OP_REKEY };
static const char *const OP_NAMES[] = {"noop", "hash", "mac",    "encrypt", "decrypt",
                                       "seal", "open", "update", "rekey"};

typedef struct alg_def {
  const char *name; /* protocol name */
  const char *ossl; /* OpenSSL algorithm name (digest or cipher); the digest for HMAC */
  enum kind kind;
  enum mode mode;
  size_t block;  /* messages must be a multiple of this (ECB, CBC: 16) */
  size_t iv_len; /* ciphers: IV length the protocol gives (0: ECB); AEAD: left to OpenSSL */
} alg_def;

static const alg_def DEFS[] = {
    {"noop", NULL, K_NOOP, M_NONE, 1, 0},
    {"sha256", "sha256", K_HASH, M_NONE, 1, 0},
    {"sha512", "sha512", K_HASH, M_NONE, 1, 0},
    {"sha3-256", "sha3-256", K_HASH, M_NONE, 1, 0},
    {"sha3-512", "sha3-512", K_HASH, M_NONE, 1, 0},
    {"blake2b-512", "blake2b512", K_HASH, M_NONE, 1, 0},
    {"blake2s-256", "blake2s256", K_HASH, M_NONE, 1, 0},
    {"sm3", "sm3", K_HASH, M_NONE, 1, 0},
    {"hmac-sha256", "sha256", K_MAC, M_NONE, 1, 0},
    {"aes-128-ecb", "aes-128-ecb", K_CIPHER, M_ECB, 16, 0},
    {"aes-256-ecb", "aes-256-ecb", K_CIPHER, M_ECB, 16, 0},
    {"aes-128-cbc", "aes-128-cbc", K_CIPHER, M_CBC, 16, 16},
    {"aes-256-cbc", "aes-256-cbc", K_CIPHER, M_CBC, 16, 16},
    {"aes-128-ctr", "aes-128-ctr", K_CIPHER, M_CTR, 1, 16},
    {"aes-256-ctr", "aes-256-ctr", K_CIPHER, M_CTR, 1, 16},
    {"chacha20", "chacha20", K_CIPHER, M_CHACHA20, 1, 12},
    {"aes-128-gcm", "aes-128-gcm", K_AEAD, M_GCM, 1, 0},
    {"aes-256-gcm", "aes-256-gcm", K_AEAD, M_GCM, 1, 0},
    {"aes-128-ccm", "aes-128-ccm", K_AEAD, M_CCM, 1, 0},
    {"aes-256-ccm", "aes-256-ccm", K_AEAD, M_CCM, 1, 0},
    {"chacha20-poly1305", "chacha20-poly1305", K_AEAD, M_CHACHAPOLY, 1, 0},
    {"sm4-ecb", "sm4-ecb", K_CIPHER, M_ECB, 16, 0},
    {"sm4-cbc", "sm4-cbc", K_CIPHER, M_CBC, 16, 16},
    {"sm4-ctr", "sm4-ctr", K_CIPHER, M_CTR, 1, 16},
    {"sm4-gcm", "sm4-gcm", K_AEAD, M_GCM, 1, 0},
};
#define NDEFS (sizeof DEFS / sizeof DEFS[0])
#define MAX_PK 64  /* public-key catalogue entries (ops_openssl_pk.c) */
#define MAX_HS 8   /* key derivation and handshake entries (ops_openssl_hs.c) */
#define MAX_TLS 50 /* TLS 1.3 cells (ops_openssl_tls.c): 5 groups x 5 auths, full and resumed */
#define MAX_CATALOGUE (NDEFS + MAX_PK + MAX_HS + MAX_TLS)

static ops_alg catalogue[MAX_CATALOGUE];
/* NULL: a public-key algorithm (pk set), one of ops_openssl_hs.c (catalogue_hs set) or a TLS
 * cell (catalogue_tls set) */
static const alg_def *catalogue_def[MAX_CATALOGUE];
static int catalogue_hs[MAX_CATALOGUE];
static int catalogue_tls[MAX_CATALOGUE];
static size_t catalogue_len;

/* ---- fetching: once per cell in 3.x, a name look-up in 1.1.1 ---- */

#if CB_OSSL3
typedef EVP_MD md_t;
typedef EVP_CIPHER cipher_t;
static md_t *md_get(const char *name) { return EVP_MD_fetch(NULL, name, NULL); }
static void md_put(md_t *md) { EVP_MD_free(md); }
static cipher_t *cipher_get(const char *name) { return EVP_CIPHER_fetch(NULL, name, NULL); }
static void cipher_put(cipher_t *c) { EVP_CIPHER_free(c); }
static int md_size(const md_t *md) { return EVP_MD_get_size(md); }
static int cipher_key_length(const cipher_t *c) { return EVP_CIPHER_get_key_length(c); }
#else
typedef const EVP_MD md_t;
typedef const EVP_CIPHER cipher_t;
static md_t *md_get(const char *name) { return EVP_get_digestbyname(name); }
static void md_put(md_t *md) { (void)md; }
static cipher_t *cipher_get(const char *name) { return EVP_get_cipherbyname(name); }
static void cipher_put(cipher_t *c) { (void)c; }
static int md_size(const md_t *md) { return EVP_MD_size(md); }
static int cipher_key_length(const cipher_t *c) { return EVP_CIPHER_key_length(c); }
#endif

struct ops_cell {
  const alg_def *def; /* NULL: a public-key cell (pk) or a KDF / handshake cell (hs) */
  pk_cell *pk;
  hs_cell *hs;
  tls_cell *tls;
  enum op op;
  int enc;           /* encrypt / seal */
  const uint8_t *in; /* data to process */
  size_t in_len;
  size_t period;        /* > 0: `in` is the periodic pattern (ops_params.period) */
  int streaming;        /* chunk > 0: output goes to a piece-sized buffer, through the tap */
  ops_tap *tap;         /* streaming: where the output stream is folded (NULL while timed) */
  const uint8_t *tag;   /* open: the expected tag (end of msg) */
  int regen;            /* big streamed decrypt/open: the ciphertext is regenerated per piece */
  EVP_CIPHER_CTX *gctx; /* regen: the encrypting context that makes each piece */
  uint8_t *gbuf;        /* regen: one piece of ciphertext */
  uint8_t gtag[16];     /* regen, open: the tag the encrypting context made */
  uint64_t untimed_ns;  /* regen: time spent making ciphertext, subtracted by timing.c */
  const uint8_t *aad;
  size_t aad_len;
  size_t step;  /* bytes per update call */
  uint8_t *out; /* preallocated output */
  size_t out_cap;
  size_t out_len;
  uint8_t iv[16]; /* the IV as OpenSSL takes it (ChaCha20: counter || nonce) */
  int has_iv;
  size_t iv_len;
  uint8_t key[32]; /* rekey: the key, set again every operation */
  md_t *md;
  EVP_MD_CTX *mdctx;
  cipher_t *cipher;
  EVP_CIPHER_CTX *cctx;
#if CB_OSSL3
  EVP_MAC *mac;
  EVP_MAC_CTX *macctx;
#else
  HMAC_CTX *hctx;
#endif
  char err[256];
};

OPS_MODULE_SUBCELL_WRAPS((ops_cell *)calloc(1, sizeof(ops_cell)))
OPS_MODULE_CELL_OF

/* ---- identity and catalogue ---- */

static int probe(const alg_def *d) {
  int ok = 1;
  if (d->kind == K_HASH || d->kind == K_MAC) {
    md_t *md = md_get(d->ossl);
    ok = md != NULL;
    md_put(md);
#if CB_OSSL3
    if (ok && d->kind == K_MAC) {
      EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
      ok = mac != NULL;
      EVP_MAC_free(mac);
    }
#endif
  } else if (d->kind == K_CIPHER || d->kind == K_AEAD) {
    cipher_t *c = cipher_get(d->ossl);
    ok = c != NULL;
    cipher_put(c);
  }
  ERR_clear_error();
  return ok;
}

int mod_init(char *err, size_t errlen) {
  if (!OPENSSL_init_crypto(OPENSSL_INIT_ADD_ALL_CIPHERS | OPENSSL_INIT_ADD_ALL_DIGESTS, NULL)) {
    ossl_err(err, errlen, "OPENSSL_init_crypto");
    return -1;
  }
  catalogue_len = 0;
  for (size_t i = 0; i < NDEFS; i++) {
    const alg_def *d = &DEFS[i];
    if (!probe(d))
      continue;
    /* CCM's EVP interface takes the whole message in one update; noop has nothing to stream */
    ops_alg *a = ops_alg_entry(&catalogue[catalogue_len], d->name, KIT_KIND[d->kind],
                               d->kind != K_NOOP && d->mode != M_CCM);
    /* for bench/accuracy only: a cipher's and a non-CCM AEAD's update, GCM's rekey */
    if (d->kind == K_CIPHER || (d->kind == K_AEAD && d->mode != M_CCM))
      a->ops[2] = "update";
    if (d->kind == K_AEAD && d->mode == M_GCM)
      a->ops[3] = "rekey";
    catalogue_def[catalogue_len++] = d;
  }
  size_t npk = pk_catalogue(catalogue + catalogue_len, MAX_PK);
  for (size_t i = 0; i < npk; i++)
    catalogue_def[catalogue_len++] = NULL;
  size_t nhs = hs_catalogue(catalogue + catalogue_len, MAX_HS);
  for (size_t i = 0; i < nhs; i++) {
    catalogue_hs[catalogue_len] = 1;
    catalogue_def[catalogue_len++] = NULL;
  }
  size_t ntls = tls_catalogue(catalogue + catalogue_len, MAX_TLS);
  for (size_t i = 0; i < ntls; i++) {
    catalogue_tls[catalogue_len] = 1;
    catalogue_def[catalogue_len++] = NULL;
  }
  return 0;
}

int mod_provider_accepts(const char *id) {
  return strcmp(id, "c:openssl") == 0 || strncmp(id, "c:openssl-", 10) == 0;
}

const char *mod_library_name(void) { return "OpenSSL"; }

const char *mod_library_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

size_t mod_notes(const char *provider, const char **notes, size_t max) {
  static char built[160], mismatch[300], cap[300];
  size_t n = 0;
  snprintf(built, sizeof built, "built against headers of %s, EVP API only", OPENSSL_VERSION_TEXT);
  if (n < max)
    notes[n++] = built;
  if (n < max)
    notes[n++] = CB_OSSL3 ? "algorithms fetched once per cell (EVP_*_fetch); HMAC via EVP_MAC"
                          : "algorithms looked up by name (EVP_get_*byname); HMAC via HMAC_CTX";
  if (n < max)
    notes[n++] = "key schedule and contexts once per cell; per operation: IV/nonce re-set with "
                 "EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, -1), update(s), final, tag";
  if (n < max)
    notes[n++] = "op update (ciphers and AEADs but CCM), for bench/accuracy only: one "
                 "EVP_EncryptUpdate of the message on a context given its key and IV once per "
                 "cell, the counter continuing across operations, no final, no tag (the loop "
                 "`openssl speed -evp` times); not a contract operation, so no other provider "
                 "offers it";
  /* a version suffix in the provider id that the loaded library contradicts */
  if (strncmp(provider, "c:openssl-", 10) == 0 && provider[10] >= '0' && provider[10] <= '9') {
    const char *v = OpenSSL_version(OPENSSL_VERSION);
    char want[64];
    snprintf(want, sizeof want, "OpenSSL %s", provider + 10);
    if (strncmp(v, want, strlen(want)) != 0 && n < max) {
      snprintf(mismatch, sizeof mismatch, "WARNING: provider id %s but the library is %s", provider,
               v);
      notes[n++] = mismatch;
    }
  }
  const char *ia32 = getenv("OPENSSL_ia32cap");
  if (ia32 != NULL && n < max) {
    snprintf(cap, sizeof cap, "OPENSSL_ia32cap=%.200s (CPU features masked)", ia32);
    notes[n++] = cap;
  }
  n += pk_notes(notes + n, max - n);
  n += hs_notes(notes + n, max - n);
  return n + tls_notes(notes + n, max - n);
}

OPS_MODULE_ALG_AT

/* ---- cells ---- */

void mod_cell_free(ops_cell *c) {
  if (c == NULL)
    return;
  OPS_SUBCELLS(OPS_SUB_FREE)
  EVP_MD_CTX_free(c->mdctx);
  md_put(c->md);
  EVP_CIPHER_CTX_free(c->cctx);
  EVP_CIPHER_CTX_free(c->gctx);
  free(c->gbuf);
  cipher_put(c->cipher);
#if CB_OSSL3
  EVP_MAC_CTX_free(c->macctx);
  EVP_MAC_free(c->mac);
#else
  HMAC_CTX_free(c->hctx);
#endif
  free(c->out);
  free(c);
}

static int prepare_hash(ops_cell *c, char *err, size_t errlen) {
  c->md = md_get(c->def->ossl);
  c->mdctx = EVP_MD_CTX_new();
  if (c->md == NULL || c->mdctx == NULL) {
    ossl_err(err, errlen, "digest set-up");
    return -1;
  }
  c->out_cap = (size_t)md_size(c->md);
  return 0;
}

static int prepare_mac(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  static const uint8_t empty[1] = {0};
  const uint8_t *key = p->key != NULL ? p->key : empty;
  c->md = md_get(c->def->ossl);
  if (c->md == NULL) {
    ossl_err(err, errlen, "digest fetch");
    return -1;
  }
  c->out_cap = (size_t)md_size(c->md);
#if CB_OSSL3
  OSSL_PARAM params[2];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)c->def->ossl, 0);
  params[1] = OSSL_PARAM_construct_end();
  c->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  c->macctx = c->mac != NULL ? EVP_MAC_CTX_new(c->mac) : NULL;
  if (c->macctx == NULL || !EVP_MAC_init(c->macctx, key, p->key_len, params)) {
    ossl_err(err, errlen, "HMAC set-up");
    return -1;
  }
#else
  if (p->key_len > INT_MAX) {
    cb_kit_err(err, errlen, "key too long");
    return -1;
  }
  c->hctx = HMAC_CTX_new();
  if (c->hctx == NULL || !HMAC_Init_ex(c->hctx, key, (int)p->key_len, c->md, NULL)) {
    ossl_err(err, errlen, "HMAC set-up");
    return -1;
  }
#endif
  return 0;
}

OPS_REGEN_DEFINE_EXPORTS

/* regen: the encrypting context (same key and nonce) and one piece's buffer. */
static int prepare_regeneration(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  c->gctx = EVP_CIPHER_CTX_new();
  c->gbuf = malloc(c->step + 48);
  int ok = c->gctx != NULL && c->gbuf != NULL &&
           EVP_CipherInit_ex(c->gctx, c->cipher, NULL, NULL, NULL, 1);
  if (ok && c->def->kind != K_CIPHER)
    ok = EVP_CIPHER_CTX_ctrl(c->gctx, EVP_CTRL_AEAD_SET_IVLEN, (int)p->iv_len, NULL);
  ok = ok && EVP_CipherInit_ex(c->gctx, NULL, NULL, p->key, NULL, 1) &&
       EVP_CIPHER_CTX_set_padding(c->gctx, 0);
  if (!ok) {
    ossl_err(err, errlen, "ciphertext regeneration set-up");
    return -1;
  }
  return 0;
}

/* regen: the next piece of ciphertext from `len` bytes of plaintext, off the clock. */
static const uint8_t *regenerate(ops_cell *c, const uint8_t *in, size_t len) {
  uint64_t t0 = ops_regen_now_ns();
  int outl = 0;
  int ok = EVP_CipherUpdate(c->gctx, c->gbuf, &outl, in, (int)len) && (size_t)outl == len;
  c->untimed_ns += ops_regen_now_ns() - t0;
  return ok ? c->gbuf : NULL;
}

static int prepare_cipher(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const alg_def *d = c->def;
  c->cipher = cipher_get(d->ossl);
  c->cctx = EVP_CIPHER_CTX_new();
  if (c->cipher == NULL || c->cctx == NULL) {
    ossl_err(err, errlen, "cipher set-up");
    return -1;
  }
  size_t klen = (size_t)cipher_key_length(c->cipher);
  if (p->key == NULL || p->key_len != klen) {
    cb_kit_err(err, errlen, "wrong key length: %zu bytes, %s needs %zu", p->key_len, d->name, klen);
    return -1;
  }
  if (d->kind == K_CIPHER) {
    if (d->mode != M_ECB && (p->iv == NULL || p->iv_len != d->iv_len)) {
      cb_kit_err(err, errlen, "wrong IV length: %zu bytes, %s needs %zu", p->iv_len, d->name,
                 d->iv_len);
      return -1;
    }
    if (d->mode == M_CHACHA20) {
      /* OpenSSL's ChaCha20 IV: 32-bit little-endian block counter || 96-bit nonce */
      c->iv[0] = (uint8_t)(p->counter & 0xff);
      c->iv[1] = (uint8_t)(p->counter >> 8 & 0xff);
      c->iv[2] = (uint8_t)(p->counter >> 16 & 0xff);
      c->iv[3] = (uint8_t)(p->counter >> 24 & 0xff);
      memcpy(c->iv + 4, p->iv, 12);
      c->has_iv = 1;
    } else if (d->mode != M_ECB) {
      memcpy(c->iv, p->iv, 16);
      c->has_iv = 1;
    }
    if (c->in_len % d->block != 0) {
      cb_kit_err(err, errlen, "size %zu is not a multiple of %zu for %s", c->in_len, d->block,
                 d->name);
      return -1;
    }
    if (!EVP_CipherInit_ex(c->cctx, c->cipher, NULL, p->key, NULL, c->enc) ||
        !EVP_CIPHER_CTX_set_padding(c->cctx, 0)) {
      ossl_err(err, errlen, "cipher key set-up");
      return -1;
    }
  } else { /* AEAD */
    if (p->iv == NULL || p->iv_len == 0 || p->iv_len > sizeof c->iv) {
      cb_kit_err(err, errlen, "wrong nonce length: %zu bytes", p->iv_len);
      return -1;
    }
    memcpy(c->iv, p->iv, p->iv_len);
    c->has_iv = 1;
    c->iv_len = p->iv_len;
    if (c->op == OP_REKEY) {
      if (d->mode != M_GCM || p->key_len > sizeof c->key) {
        cb_kit_err(err, errlen, "not offered: rekey is for GCM only");
        return -1;
      }
      memcpy(c->key, p->key, p->key_len);
    }
    if (!EVP_CipherInit_ex(c->cctx, c->cipher, NULL, NULL, NULL, c->enc)) {
      ossl_err(err, errlen, "cipher set-up");
      return -1;
    }
    if (!EVP_CIPHER_CTX_ctrl(c->cctx, EVP_CTRL_AEAD_SET_IVLEN, (int)p->iv_len, NULL)) {
      ossl_err(err, errlen, "nonce length not accepted");
      return -1;
    }
    /* CCM: the tag length is fixed at key set-up (the tag value comes per message) */
    if (d->mode == M_CCM &&
        !EVP_CIPHER_CTX_ctrl(c->cctx, EVP_CTRL_AEAD_SET_TAG, OPS_TAG_LEN, NULL)) {
      ossl_err(err, errlen, "CCM tag length");
      return -1;
    }
    if (!EVP_CipherInit_ex(c->cctx, NULL, NULL, p->key, NULL, -1)) {
      ossl_err(err, errlen, "cipher key set-up");
      return -1;
    }
    if (d->mode == M_CCM && c->in_len > INT_MAX) {
      cb_kit_err(err, errlen, "not offered at this size: CCM takes at most %d bytes in one update",
                 INT_MAX);
      return -1;
    }
    /* CCM encodes the length in 15 - nonce length bytes (12-byte nonce: < 16 MiB) */
    if (d->mode == M_CCM && p->iv_len >= 7 && p->iv_len <= 13 && 15 - p->iv_len < 8 &&
        (uint64_t)c->in_len >> (8 * (15 - p->iv_len)) != 0) {
      cb_kit_err(err, errlen,
                 "not offered at this size: CCM with a %zu-byte nonce takes messages below 2^%zu "
                 "bytes",
                 p->iv_len, 8 * (15 - p->iv_len));
      return -1;
    }
  }
  if (c->op == OP_UPDATE) {
    /* the IV once per cell: the operations continue one stream (bench/accuracy only) */
    if (c->in_len > INT_MAX) {
      cb_kit_err(err, errlen, "not offered at this size: update takes at most %d bytes", INT_MAX);
      return -1;
    }
    if (!EVP_CipherInit_ex(c->cctx, NULL, NULL, NULL, c->has_iv ? c->iv : NULL, -1)) {
      ossl_err(err, errlen, "cipher IV set-up");
      return -1;
    }
  }
  /* a block of slack for final + the tag; a streaming cell holds one piece's output */
  c->out_cap = (c->streaming ? c->step : c->in_len) + 48;
  return c->regen ? prepare_regeneration(c, p, err, errlen) : 0;
}

ops_cell *mod_cell_new(const ops_params *p, char *err, size_t errlen) {
  size_t idx = mod_alg_lookup(p->alg, err, errlen);
  if (idx == (size_t)-1)
    return NULL;
  if (catalogue_tls[idx]) {
    ops_cell *c = p->chunk == 0 ? cb_kit_zalloc(sizeof *c, err, errlen) : NULL;
    if (p->chunk > 0)
      cb_kit_err(err, errlen, "not offered: %s has no streaming API (chunk must be 0)", p->alg);
    if (c != NULL && (c->tls = tls_cell_new(p, &c->untimed_ns, err, errlen)) == NULL) {
      free(c);
      c = NULL;
    }
    return c;
  }
  if (catalogue_hs[idx]) {
    if (p->chunk > 0) {
      cb_kit_err(err, errlen, "not offered: %s has no streaming API (chunk must be 0)", p->alg);
      return NULL;
    }
    return ops_wrap_hs(hs_cell_new(p, err, errlen), err, errlen);
  }
  if (catalogue[idx].pk)
    return ops_wrap_pk(pk_cell_new(p, err, errlen), err, errlen);
  const alg_def *d = catalogue_def[idx];
  /* beyond the kinds: update (a cipher or AEAD but CCM) and rekey (GCM) */
  int opi = cb_kit_op_index(p->op, OP_NAMES, sizeof OP_NAMES / sizeof *OP_NAMES);
  enum op op = (enum op)opi;
  int own = (op == OP_UPDATE && d->kind >= K_CIPHER && d->mode != M_CCM) ||
            (op == OP_REKEY && d->kind == K_AEAD && d->mode == M_GCM);
  if (!own && cb_kit_op_of_kind(p->op, KIT_KIND[d->kind], OP_NAMES,
                                sizeof OP_NAMES / sizeof *OP_NAMES, d->name, err, errlen) < 0)
    return NULL;
  if (p->chunk > 0 && !catalogue[idx].stream) {
    cb_kit_err(err, errlen, "%s is not streamable: chunk must be 0", d->name);
    return NULL;
  }
  if (p->chunk > 0 && (op == OP_UPDATE || op == OP_REKEY)) {
    cb_kit_err(err, errlen, "not offered: %s is one EVP_EncryptUpdate call (chunk must be 0)",
               p->op);
    return NULL;
  }
  ops_cell *c = mod_cell_of(d, op, err, errlen);
  if (c == NULL)
    return NULL;
  c->enc = op == OP_ENCRYPT || op == OP_SEAL || op == OP_UPDATE || op == OP_REKEY;
  OPS_CELL_INPUT(c, p, op == OP_DECRYPT || op == OP_OPEN);
  c->aad = p->aad;
  c->aad_len = p->aad != NULL ? p->aad_len : 0;
  if (op == OP_OPEN && !c->regen) {
    if (p->msg_len < OPS_TAG_LEN) {
      cb_kit_err(err, errlen, "open: input shorter than the %d-byte tag", OPS_TAG_LEN);
      mod_cell_free(c);
      return NULL;
    }
    c->in_len = p->msg_len - OPS_TAG_LEN;
    c->tag = p->msg + c->in_len;
  }
  c->step = ops_step(p, c->in_len);
  if (p->period > 0 && (p->chunk == 0 || p->chunk > p->period)) {
    cb_kit_err(err, errlen, "a periodic input needs 0 < chunk <= period");
    mod_cell_free(c);
    return NULL;
  }
  int rc = 0;
  switch (d->kind) {
  case K_NOOP:
    c->out_cap = 0;
    break;
  case K_HASH:
    rc = prepare_hash(c, err, errlen);
    break;
  case K_MAC:
    rc = prepare_mac(c, p, err, errlen);
    break;
  case K_CIPHER:
  case K_AEAD:
    rc = prepare_cipher(c, p, err, errlen);
    /* EVP_CipherUpdate takes an int length: split larger one-shot inputs (CCM refused above) */
    if (c->step > (size_t)1 << 30)
      c->step = (size_t)1 << 30;
    break;
  }
  if (rc == 0) {
    if ((c->out = ops_out_buf(c->out_cap, err, errlen)) == NULL)
      rc = -1;
    else if ((c->op == OP_UPDATE || c->op == OP_REKEY) && c->in_len <= c->out_cap) {
      /* like `openssl speed`: one malloc'd buffer, encrypted in place again and again */
      memcpy(c->out, c->in, c->in_len);
    }
  }
  return mod_cell_done(c, rc == 0);
}

static int fail(ops_cell *c, const char *what) {
  ossl_err(c->err, sizeof c->err, what);
  return OPS_FAIL;
}

static int run_hash(ops_cell *c) {
  unsigned int n = 0;
  if (!EVP_DigestInit_ex(c->mdctx, c->md, NULL))
    return fail(c, "EVP_DigestInit_ex");
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    if (!EVP_DigestUpdate(c->mdctx, ops_input_at(c->in, c->period, off), len))
      return fail(c, "EVP_DigestUpdate");
  }
  if (!EVP_DigestFinal_ex(c->mdctx, c->out, &n))
    return fail(c, "EVP_DigestFinal_ex");
  c->out_len = n;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, n);
  return c->out[0];
}

static int run_mac(ops_cell *c) {
#if CB_OSSL3
  size_t n = 0;
  if (!EVP_MAC_init(c->macctx, NULL, 0, NULL))
    return fail(c, "EVP_MAC_init");
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    if (!EVP_MAC_update(c->macctx, ops_input_at(c->in, c->period, off), len))
      return fail(c, "EVP_MAC_update");
  }
  if (!EVP_MAC_final(c->macctx, c->out, &n, c->out_cap))
    return fail(c, "EVP_MAC_final");
#else
  unsigned int n = 0;
  if (!HMAC_Init_ex(c->hctx, NULL, 0, NULL, NULL))
    return fail(c, "HMAC_Init_ex");
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    if (!HMAC_Update(c->hctx, ops_input_at(c->in, c->period, off), len))
      return fail(c, "HMAC_Update");
  }
  if (!HMAC_Final(c->hctx, c->out, &n))
    return fail(c, "HMAC_Final");
#endif
  c->out_len = n;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, n);
  return c->out[0];
}

static int run_cipher(ops_cell *c) {
  EVP_CIPHER_CTX *ctx = c->cctx;
  const alg_def *d = c->def;
  int outl = 0;
  size_t total = 0, folded = 0;

  if (!EVP_CipherInit_ex(ctx, NULL, NULL, NULL, c->has_iv ? c->iv : NULL, -1))
    return fail(c, "EVP_CipherInit_ex");
  if (c->regen) { /* the same message's ciphertext, made again from its start */
    uint64_t t0 = ops_regen_now_ns();
    int ok = EVP_CipherInit_ex(c->gctx, NULL, NULL, NULL, c->has_iv ? c->iv : NULL, -1);
    c->untimed_ns += ops_regen_now_ns() - t0;
    if (!ok)
      return fail(c, "regeneration: EVP_CipherInit_ex");
  }
  if (d->mode == M_CCM) {
    if (c->op == OP_OPEN &&
        !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, OPS_TAG_LEN, (void *)c->tag))
      return fail(c, "set CCM tag");
    /* CCM needs the total length before any data */
    if (!EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)c->in_len))
      return fail(c, "CCM length");
  }
  if (c->aad_len > 0) {
    if (c->aad_len > INT_MAX || !EVP_CipherUpdate(ctx, NULL, &outl, c->aad, (int)c->aad_len))
      return fail(c, "AAD");
  }
  if (d->mode == M_CCM) {
    /* one update with the whole message; decryption verifies the tag here */
    if (!EVP_CipherUpdate(ctx, c->out, &outl, c->in, (int)c->in_len)) {
      if (c->op == OP_OPEN) {
        ERR_clear_error();
        return OPS_REJECTED;
      }
      return fail(c, "EVP_CipherUpdate");
    }
    total = (size_t)outl;
  } else {
    for (size_t off = 0; off < c->in_len; off += c->step) {
      size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
      const uint8_t *in = ops_input_at(c->in, c->period, off);
      if (c->regen && (in = regenerate(c, in, len)) == NULL)
        return fail(c, "regeneration: EVP_CipherUpdate");
      if (c->streaming) { /* each piece's output overwrites the previous one's */
        if (!EVP_CipherUpdate(ctx, c->out, &outl, in, (int)len))
          return fail(c, "EVP_CipherUpdate");
        if (c->tap != NULL)
          ops_tap_fold(c->tap, c->out, (size_t)outl);
        total = folded = (size_t)outl;
      } else {
        if (!EVP_CipherUpdate(ctx, c->out + total, &outl, in, (int)len))
          return fail(c, "EVP_CipherUpdate");
        total += (size_t)outl;
      }
    }
  }
  if (c->regen && c->op == OP_OPEN) { /* the tag of the regenerated ciphertext */
    uint64_t t0 = ops_regen_now_ns();
    int gl = 0;
    int ok = EVP_CipherFinal_ex(c->gctx, c->gbuf, &gl) &&
             EVP_CIPHER_CTX_ctrl(c->gctx, EVP_CTRL_AEAD_GET_TAG, OPS_TAG_LEN, c->gtag);
    c->untimed_ns += ops_regen_now_ns() - t0;
    if (!ok)
      return fail(c, "regeneration: tag");
    c->tag = c->gtag;
  }
  if (c->op == OP_OPEN && d->mode != M_CCM &&
      !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, OPS_TAG_LEN, (void *)c->tag))
    return fail(c, "set tag");
  if (!EVP_CipherFinal_ex(ctx, c->out + total, &outl)) {
    if (c->op == OP_OPEN) {
      ERR_clear_error();
      return OPS_REJECTED;
    }
    return fail(c, "EVP_CipherFinal_ex");
  }
  total += (size_t)outl;
  if (c->op == OP_SEAL) {
    if (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, OPS_TAG_LEN, c->out + total))
      return fail(c, "get tag");
    total += OPS_TAG_LEN;
  }
  c->out_len = total;
  if (c->tap != NULL) /* streaming: the final output and the tag */
    ops_tap_fold(c->tap, c->out + folded, total - folded);
  return total > 0 ? c->out[0] : 0;
}

/* bench/accuracy's `update`: one EVP_EncryptUpdate continuing the cell's stream, in place on a
 * malloc'd buffer, exactly the loop of `openssl speed -evp` (buf -> buf, same alignment); like it,
 * the IV is set again when the cipher refuses to go on (a GCM message limit reached) */
static int run_update(ops_cell *c) {
  int outl = 0;
  if (!EVP_CipherUpdate(c->cctx, c->out, &outl, c->out, (int)c->in_len)) {
    if (!EVP_CipherInit_ex(c->cctx, NULL, NULL, NULL, c->has_iv ? c->iv : NULL, -1) ||
        !EVP_CipherUpdate(c->cctx, c->out, &outl, c->out, (int)c->in_len))
      return fail(c, "EVP_EncryptUpdate");
  }
  c->out_len = (size_t)outl;
  return outl > 0 ? c->out[0] : 0;
}

/* bench/accuracy's `rekey`: the loop `openssl speed -evp` runs for GCM since OpenSSL 3
 * (apps/speed.c, EVP_Update_loop_aead_enc): per message the nonce length, key and nonce are set
 * again, then one in-place update and final; the tag is not fetched */
static int run_rekey(ops_cell *c) {
  int outl = 0, finl = 0;
  if (!EVP_CIPHER_CTX_ctrl(c->cctx, EVP_CTRL_AEAD_SET_IVLEN, (int)c->iv_len, NULL) ||
      !EVP_CipherInit_ex(c->cctx, NULL, NULL, c->key, c->iv, -1) ||
      !EVP_CipherUpdate(c->cctx, c->out, &outl, c->out, (int)c->in_len) ||
      !EVP_CipherFinal_ex(c->cctx, c->out + outl, &finl))
    return fail(c, "rekey");
  c->out_len = (size_t)(outl + finl);
  return outl > 0 ? c->out[0] : 0;
}

int mod_cell_prepare(ops_cell *c, uint64_t n) {
  if (c->tls != NULL)
    return tls_cell_prepare(c->tls, n);
  return c->hs != NULL ? hs_cell_prepare(c->hs, n) : 0;
}

hs_cell *ops_openssl_hs_of(ops_cell *c) { return c->hs; }

int mod_cell_run(ops_cell *c) {
  OPS_SUBCELLS(OPS_SUB_RUN)
  switch (c->def->kind) {
    OPS_RUN_NOOP_HASH_MAC
  case K_CIPHER:
  case K_AEAD:
    if (c->op == OP_UPDATE)
      return run_update(c);
    return c->op == OP_REKEY ? run_rekey(c) : run_cipher(c);
  }
  return OPS_FAIL;
}

OPS_MODULE_CELL_FUNCTIONS(out, c->err)
OPS_MODULE_PK_KEYPAIR

OPS_MODULE_EXPORT(mod_regenerates_ciphertext, mod_cell_untimed_ns)

/* ---- the driver's private TLS entry (tls_iface.h; not the plugin ABI) ---- */

static const char *tls_report_of(cb_cell *cell) {
  ops_cell *c = (ops_cell *)cell;
  return c != NULL && c->tls != NULL ? tls_cell_report(c->tls) : NULL;
}

static void tls_free_text(char *text) { free(text); }

static const cb_tls_iface tls_table = {CB_TLS_IFACE_VERSION, tls_report_of, tls_serve,
                                       tls_result,           tls_connect,   tls_free_text};

CB_PROVIDER_EXPORT const cb_tls_iface *cryptobench_c_tls(void) { return &tls_table; }
