/* ops for libsodium (provider c:libsodium), through its documented high-level API.
 *
 * Hashes: crypto_hash_sha256 / crypto_hash_sha512 / crypto_generichash (BLAKE2b, 64-byte output,
 * no key) in one call, streamed through their _init/_update/_final state API. HMAC-SHA256:
 * crypto_auth_hmacsha256_init once per cell, the keyed state copied per message. AEADs are
 * one-shot (combined mode: ciphertext || tag), so never streamed: AES-256-GCM through the
 * precomputed-key API (beforenm once per cell, encrypt/decrypt_afternm per message) and only where
 * crypto_aead_aes256gcm_is_available(); ChaCha20-Poly1305 and XChaCha20-Poly1305 in their IETF
 * variants. ChaCha20: crypto_stream_chacha20_ietf_xor_ic, which continues a stream only at 64-byte
 * block boundaries.
 *
 * Public-key: Ed25519 (crypto_sign_*: keygen, detached sign and verify; the private key is the
 * 32-byte seed, expanded with crypto_sign_seed_keypair once per cell) and X25519
 * (crypto_scalarmult: keygen is a random secret and crypto_scalarmult_base, derive refuses an
 * all-zero shared secret, as libsodium does for low-order points).
 */
#define _POSIX_C_SOURCE 200809L
/* no sub-cells: the public-key cells are this file's own (ops_module.h) */
#define OPS_SUBCELLS(X)

#include "ops_module.h"
#include <cryptobench/kit.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

enum kind { K_NOOP, K_HASH, K_MAC, K_CIPHER, K_AEAD, K_SIG, K_KEX };
/* each kind's operations are the kit's (include/cryptobench/kit.h) */
static const enum cb_kit_kind KIT_KIND[] = {CB_KIT_NOOP, CB_KIT_HASH, CB_KIT_MAC, CB_KIT_CIPHER,
                                            CB_KIT_AEAD, CB_KIT_SIG,  CB_KIT_KEX};
enum alg {
  A_NOOP,
  A_SHA256,
  A_SHA512,
  A_BLAKE2B,
  A_HMAC_SHA256,
  A_CHACHA20,
  A_AES256GCM,
  A_CHACHAPOLY,
  A_XCHACHAPOLY,
  A_ED25519,
  A_X25519
};
enum op {
  OP_NOOP,
  OP_HASH,
  OP_MAC,
  OP_ENCRYPT,
  OP_DECRYPT,
  OP_SEAL,
  OP_OPEN,
  OP_KEYGEN,
  OP_SIGN,
  OP_VERIFY,
  OP_DERIVE
};
static const char *const OP_NAMES[] = {"noop", "hash",   "mac",  "encrypt", "decrypt", "seal",
                                       "open", "keygen", "sign", "verify",  "derive"};

typedef struct alg_def {
  const char *name; /* protocol name */
  enum alg alg;
  enum kind kind;
  size_t key_len; /* 0: any (HMAC) or none */
  size_t iv_len;
  int stream; /* has a streaming API here */
} alg_def;

static const alg_def DEFS[] = {
    {"noop", A_NOOP, K_NOOP, 0, 0, 0},
    {"sha256", A_SHA256, K_HASH, 0, 0, 1},
    {"sha512", A_SHA512, K_HASH, 0, 0, 1},
    {"blake2b-512", A_BLAKE2B, K_HASH, 0, 0, 1},
    {"hmac-sha256", A_HMAC_SHA256, K_MAC, 0, 0, 1},
    {"chacha20", A_CHACHA20, K_CIPHER, crypto_stream_chacha20_ietf_KEYBYTES,
     crypto_stream_chacha20_ietf_NONCEBYTES, 1},
    {"aes-256-gcm", A_AES256GCM, K_AEAD, crypto_aead_aes256gcm_KEYBYTES,
     crypto_aead_aes256gcm_NPUBBYTES, 0},
    {"chacha20-poly1305", A_CHACHAPOLY, K_AEAD, crypto_aead_chacha20poly1305_ietf_KEYBYTES,
     crypto_aead_chacha20poly1305_ietf_NPUBBYTES, 0},
    {"xchacha20-poly1305", A_XCHACHAPOLY, K_AEAD, crypto_aead_xchacha20poly1305_ietf_KEYBYTES,
     crypto_aead_xchacha20poly1305_ietf_NPUBBYTES, 0},
    {"ed25519", A_ED25519, K_SIG, 0, 0, 0},
    {"x25519", A_X25519, K_KEX, 0, 0, 0},
};
#define NDEFS (sizeof DEFS / sizeof DEFS[0])

static ops_alg catalogue[NDEFS];
static const alg_def *catalogue_def[NDEFS];
static size_t catalogue_len;
static int aesgcm_available;

/* The states libsodium wants aligned (crypto_generichash_state: 64 bytes) come first; the cell is
 * allocated with that alignment. */
struct ops_cell {
  union {
    crypto_generichash_state blake2b;
    crypto_hash_sha256_state sha256;
    crypto_hash_sha512_state sha512;
    crypto_auth_hmacsha256_state hmac;
  } st;
  crypto_auth_hmacsha256_state hmac_keyed; /* HMAC: the state after keying, copied per message */
  crypto_aead_aes256gcm_state *gcm;        /* AES-256-GCM: the expanded key (beforenm) */
  const alg_def *def;
  enum op op;
  const uint8_t *in; /* data to process */
  size_t in_len;
  size_t period; /* > 0: `in` is the periodic pattern (ops_params.period) */
  const uint8_t *aad;
  size_t aad_len;
  size_t step;   /* bytes per update call */
  int streaming; /* chunk > 0 */
  ops_tap *tap;
  uint8_t key[32];
  uint8_t nonce[24];
  uint32_t counter; /* ChaCha20 initial block counter */
  uint8_t *out;
  size_t out_cap;
  size_t out_len;
  /* public-key cells */
  uint8_t sk[crypto_sign_SECRETKEYBYTES]; /* Ed25519: seed || public; X25519: the scalar */
  uint8_t pk[crypto_sign_PUBLICKEYBYTES]; /* Ed25519 public key; X25519: the peer's */
  const uint8_t *sig;
  size_t sig_len;
  int refused; /* the key material was refused: runs answer OPS_REJECTED */
  char err[256];
};

/* ---- identity and catalogue ---- */

int mod_init(char *err, size_t errlen) {
  if (sodium_init() < 0) {
    cb_kit_err(err, errlen, "sodium_init() failed");
    return -1;
  }
  aesgcm_available = crypto_aead_aes256gcm_is_available();
  catalogue_len = 0;
  OPS_CATALOGUE_FROM_DEFS(d->alg != A_AES256GCM || aesgcm_available)
  return 0;
}

int mod_provider_accepts(const char *id) { return strcmp(id, "c:libsodium") == 0; }

const char *mod_library_name(void) { return "libsodium"; }

const char *mod_library_version(void) { return sodium_version_string(); }

size_t mod_notes(const char *provider, const char **notes, size_t max) {
  static char built[200], cpu[200];
  (void)provider;
  size_t n = 0;
  snprintf(built, sizeof built, "built against libsodium headers %s; sodium_init() at start-up",
           SODIUM_VERSION_STRING);
  snprintf(cpu, sizeof cpu, "CPU features libsodium detected: aesni=%d pclmul=%d avx2=%d",
           sodium_runtime_has_aesni(), sodium_runtime_has_pclmul(), sodium_runtime_has_avx2());
  const char *text[] = {
      built,
      cpu,
      aesgcm_available
          ? "aes-256-gcm: crypto_aead_aes256gcm_beforenm once per cell (the key schedule outside "
            "the timed region, as the contract requires), then crypto_aead_aes256gcm_encrypt_"
            "afternm / decrypt_afternm per message"
          : "aes-256-gcm not offered: crypto_aead_aes256gcm_is_available() is 0 on this CPU "
            "(libsodium's AES-GCM needs AES-NI and PCLMULQDQ)",
      "chacha20-poly1305 / xchacha20-poly1305: crypto_aead_(x)chacha20poly1305_ietf_encrypt / "
      "decrypt (the key is used as is, there is no schedule to precompute)",
      "AEADs are one-shot in libsodium (combined mode: ciphertext || tag): not in stream",
      "hashes: crypto_hash_sha256 / crypto_hash_sha512 / crypto_generichash (64-byte output, no "
      "key) in one call; streamed through the _init/_update/_final state API",
      "hmac-sha256: crypto_auth_hmacsha256_init once per cell, the keyed state copied per message, "
      "then _update/_final",
      "chacha20: crypto_stream_chacha20_ietf_xor_ic with the block counter; a stream continues "
      "only at 64-byte block boundaries, so a streamed cell needs a chunk that is a multiple of 64 "
      "(others answer not offered)",
      "ed25519: crypto_sign_keypair (keygen, the public key out), crypto_sign_detached and "
      "crypto_sign_verify_detached over the message; a private key (the 32-byte seed) is "
      "expanded with crypto_sign_seed_keypair once per cell",
      "x25519: keygen is randombytes_buf + crypto_scalarmult_base; derive is crypto_scalarmult "
      "with the peer's key, which refuses an all-zero result (a low-order peer point): rejected",
      "not in libsodium, so not offered: AES-128, AES-ECB/CBC/CTR, AES-CCM, SHA-3, BLAKE2s, SM3, "
      "RSA, ECDSA, ECDH, Ed448, X448, SM2, ML-KEM, ML-DSA",
  };
  n += cb_kit_notes(text, sizeof text / sizeof text[0], notes + n, max - n);
  return n;
}

OPS_MODULE_ALG_AT

/* ---- cells ---- */

void mod_cell_free(ops_cell *c) {
  if (c == NULL)
    return;
  if (c->gcm != NULL) {
    sodium_memzero(c->gcm, sizeof *c->gcm);
    free(c->gcm);
  }
  free(c->out);
  sodium_memzero(c, sizeof *c);
  free(c);
}

/* Ed25519 / X25519: the keys of the cell, parsed once. A key of the wrong length is refused
 * (the runs answer rejected). */
static void prepare_pk(ops_cell *c, const ops_params *p) {
  c->out_cap = crypto_sign_BYTES;
  if (c->op == OP_KEYGEN)
    return;
  if (c->def->alg == A_ED25519 && c->op == OP_SIGN) {
    if (p->priv == NULL || p->priv_len != crypto_sign_SEEDBYTES) {
      cb_kit_err(c->err, sizeof c->err, "Ed25519 private key of %zu bytes (32 needed)",
                 p->priv_len);
      c->refused = 1;
      return;
    }
    uint8_t pk[crypto_sign_PUBLICKEYBYTES];
    crypto_sign_seed_keypair(pk, c->sk, p->priv);
    return;
  }
  if (c->op == OP_DERIVE && (p->priv == NULL || p->priv_len != crypto_scalarmult_SCALARBYTES)) {
    cb_kit_err(c->err, sizeof c->err, "X25519 private key of %zu bytes (32 needed)", p->priv_len);
    c->refused = 1;
    return;
  }
  if (p->pub == NULL || p->pub_len != crypto_sign_PUBLICKEYBYTES) {
    cb_kit_err(c->err, sizeof c->err, "public key of %zu bytes (32 needed)", p->pub_len);
    c->refused = 1;
    return;
  }
  memcpy(c->pk, p->pub, crypto_sign_PUBLICKEYBYTES);
  if (c->op == OP_DERIVE)
    memcpy(c->sk, p->priv, crypto_scalarmult_SCALARBYTES);
  c->sig = p->sig != NULL ? p->sig : c->pk;
  c->sig_len = p->sig != NULL ? p->sig_len : 0;
}

static size_t aead_max(enum alg a) {
  switch (a) {
  case A_AES256GCM:
    return crypto_aead_aes256gcm_MESSAGEBYTES_MAX;
  case A_CHACHAPOLY:
    return crypto_aead_chacha20poly1305_ietf_MESSAGEBYTES_MAX;
  default:
    return crypto_aead_xchacha20poly1305_ietf_MESSAGEBYTES_MAX;
  }
}

static int prepare(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const alg_def *d = c->def;
  static const uint8_t empty[1] = {0};
  switch (d->kind) {
  case K_NOOP:
    c->out_cap = 0;
    return 0;
  case K_SIG:
  case K_KEX:
    if (p->seed != NULL || p->ctx != NULL) { /* keys from seeds, context strings: ML-* only */
      cb_kit_err(err, errlen, "%s%s for %s", OPS_UNSUPPORTED,
                 p->seed != NULL ? "a key from a seed" : "a context string", d->name);
      return -1;
    }
    prepare_pk(c, p);
    return 0;
  case K_HASH:
    c->out_cap = d->alg == A_SHA256   ? crypto_hash_sha256_BYTES
                 : d->alg == A_SHA512 ? crypto_hash_sha512_BYTES
                                      : crypto_generichash_BYTES_MAX;
    return 0;
  case K_MAC:
    crypto_auth_hmacsha256_init(&c->hmac_keyed, p->key != NULL ? p->key : empty, p->key_len);
    c->out_cap = crypto_auth_hmacsha256_BYTES;
    return 0;
  case K_CIPHER:
  case K_AEAD:
    break;
  }
  if (p->key == NULL || p->key_len != d->key_len) {
    cb_kit_err(err, errlen, "wrong key length: %zu bytes, %s needs %zu", p->key_len, d->name,
               d->key_len);
    return -1;
  }
  if (p->iv == NULL || p->iv_len != d->iv_len) {
    cb_kit_err(err, errlen, "wrong %s length: %zu bytes, %s needs %zu (libsodium)",
               d->kind == K_AEAD ? "nonce" : "IV", p->iv_len, d->name, d->iv_len);
    return -1;
  }
  memcpy(c->key, p->key, d->key_len);
  memcpy(c->nonce, p->iv, d->iv_len);
  if (d->kind == K_CIPHER) { /* ChaCha20 */
    c->counter = p->counter;
    /* the 32-bit block counter must not wrap (libsodium aborts on that misuse) */
    if ((uint64_t)c->in_len / 64 + (c->in_len % 64 != 0) > ((uint64_t)1 << 32) - c->counter) {
      cb_kit_err(err, errlen,
                 "not offered at this size: %zu bytes from block %u overflow ChaCha20's 32-bit "
                 "counter",
                 c->in_len, c->counter);
      return -1;
    }
    if (c->streaming && c->step < c->in_len && c->step % 64 != 0) {
      cb_kit_err(
          err, errlen,
          "not offered: crypto_stream_chacha20_ietf_xor_ic continues a stream only at 64-byte "
          "block boundaries; chunk %zu is not a multiple of 64",
          c->step);
      return -1;
    }
    c->out_cap = c->streaming ? c->step : c->in_len;
    return 0;
  }
  /* AEAD */
  if (c->in_len > aead_max(d->alg)) {
    cb_kit_err(err, errlen, "not offered at this size: %s takes at most %zu bytes", d->name,
               aead_max(d->alg));
    return -1;
  }
  if (d->alg == A_AES256GCM) {
    c->gcm = aligned_alloc(16, (sizeof *c->gcm + 15) / 16 * 16);
    if (c->gcm == NULL) {
      cb_kit_err(err, errlen, "out of memory");
      return -1;
    }
    crypto_aead_aes256gcm_beforenm(c->gcm, c->key);
  }
  c->out_cap = c->in_len + OPS_TAG_LEN;
  return 0;
}

static ops_cell *cell_new(const alg_def *d, size_t idx, int op, const ops_params *p, char *err,
                          size_t errlen) {
  (void)idx; /* d is all a cell needs */
  if (ops_sym_checks(p, d->name, d->stream, "is one-shot in libsodium", err, errlen) != 0)
    return NULL;
  /* 64: crypto_generichash_state's alignment; aligned_alloc wants a multiple of it */
  size_t sz = (sizeof(ops_cell) + 63) / 64 * 64;
  ops_cell *c = aligned_alloc(64, sz);
  if (c == NULL) {
    cb_kit_err(err, errlen, "out of memory");
    return NULL;
  }
  memset(c, 0, sz);
  c->def = d;
  c->op = op;
  c->in = p->msg;
  c->in_len = p->msg_len;
  c->period = p->period;
  c->aad = p->aad_len > 0 ? p->aad : NULL;
  c->aad_len = p->aad != NULL ? p->aad_len : 0;
  c->streaming = p->chunk > 0;
  c->step = ops_step(p, c->in_len);
  /* open: libsodium's combined mode takes ciphertext || tag as one input */
  return mod_cell_done(c, (op != OP_OPEN || ops_open_fits(p, err, errlen) == 0) &&
                              prepare(c, p, err, errlen) == 0 &&
                              (c->out = ops_out_buf(c->out_cap, err, errlen)) != NULL);
}

OPS_MODULE_CELL_NEW(kind, )

static int run_hash(ops_cell *c) {
  const uint8_t *in = c->in;
  if (!c->streaming) {
    switch (c->def->alg) {
    case A_SHA256:
      crypto_hash_sha256(c->out, in, c->in_len);
      break;
    case A_SHA512:
      crypto_hash_sha512(c->out, in, c->in_len);
      break;
    default:
      crypto_generichash(c->out, crypto_generichash_BYTES_MAX, in, c->in_len, NULL, 0);
      break;
    }
  } else {
    switch (c->def->alg) {
    case A_SHA256:
      crypto_hash_sha256_init(&c->st.sha256);
      for (size_t off = 0; off < c->in_len; off += c->step) {
        size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
        crypto_hash_sha256_update(&c->st.sha256, ops_input_at(in, c->period, off), len);
      }
      crypto_hash_sha256_final(&c->st.sha256, c->out);
      break;
    case A_SHA512:
      crypto_hash_sha512_init(&c->st.sha512);
      for (size_t off = 0; off < c->in_len; off += c->step) {
        size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
        crypto_hash_sha512_update(&c->st.sha512, ops_input_at(in, c->period, off), len);
      }
      crypto_hash_sha512_final(&c->st.sha512, c->out);
      break;
    default:
      crypto_generichash_init(&c->st.blake2b, NULL, 0, crypto_generichash_BYTES_MAX);
      for (size_t off = 0; off < c->in_len; off += c->step) {
        size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
        crypto_generichash_update(&c->st.blake2b, ops_input_at(in, c->period, off), len);
      }
      crypto_generichash_final(&c->st.blake2b, c->out, crypto_generichash_BYTES_MAX);
      break;
    }
    if (c->tap != NULL)
      ops_tap_fold(c->tap, c->out, c->out_cap);
  }
  c->out_len = c->out_cap;
  return c->out[0];
}

static int run_mac(ops_cell *c) {
  c->st.hmac = c->hmac_keyed; /* the prepared key */
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    crypto_auth_hmacsha256_update(&c->st.hmac, ops_input_at(c->in, c->period, off), len);
  }
  crypto_auth_hmacsha256_final(&c->st.hmac, c->out);
  c->out_len = crypto_auth_hmacsha256_BYTES;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, c->out_len);
  return c->out[0];
}

static int run_chacha20(ops_cell *c) {
  if (!c->streaming) {
    crypto_stream_chacha20_ietf_xor_ic(c->out, c->in, c->in_len, c->nonce, c->counter, c->key);
    c->out_len = c->in_len;
    return c->in_len > 0 ? c->out[0] : 0;
  }
  size_t len = 0;
  for (size_t off = 0; off < c->in_len; off += c->step) {
    len = c->in_len - off < c->step ? c->in_len - off : c->step;
    crypto_stream_chacha20_ietf_xor_ic(c->out, ops_input_at(c->in, c->period, off), len, c->nonce,
                                       c->counter + (uint32_t)(off / 64), c->key);
    if (c->tap != NULL)
      ops_tap_fold(c->tap, c->out, len);
  }
  c->out_len = len;
  return len > 0 ? c->out[0] : 0;
}

static int run_aead(ops_cell *c) {
  unsigned long long n = 0;
  int rc = 0;
  if (c->op == OP_SEAL) {
    switch (c->def->alg) {
    case A_AES256GCM:
      rc = crypto_aead_aes256gcm_encrypt_afternm(c->out, &n, c->in, c->in_len, c->aad, c->aad_len,
                                                 NULL, c->nonce, c->gcm);
      break;
    case A_CHACHAPOLY:
      rc = crypto_aead_chacha20poly1305_ietf_encrypt(c->out, &n, c->in, c->in_len, c->aad,
                                                     c->aad_len, NULL, c->nonce, c->key);
      break;
    default:
      rc = crypto_aead_xchacha20poly1305_ietf_encrypt(c->out, &n, c->in, c->in_len, c->aad,
                                                      c->aad_len, NULL, c->nonce, c->key);
      break;
    }
    if (rc != 0) {
      cb_kit_err(c->err, sizeof c->err, "%s encrypt failed", c->def->name);
      return OPS_FAIL;
    }
  } else {
    switch (c->def->alg) {
    case A_AES256GCM:
      rc = crypto_aead_aes256gcm_decrypt_afternm(c->out, &n, NULL, c->in, c->in_len, c->aad,
                                                 c->aad_len, c->nonce, c->gcm);
      break;
    case A_CHACHAPOLY:
      rc = crypto_aead_chacha20poly1305_ietf_decrypt(c->out, &n, NULL, c->in, c->in_len, c->aad,
                                                     c->aad_len, c->nonce, c->key);
      break;
    default:
      rc = crypto_aead_xchacha20poly1305_ietf_decrypt(c->out, &n, NULL, c->in, c->in_len, c->aad,
                                                      c->aad_len, c->nonce, c->key);
      break;
    }
    if (rc != 0)
      return OPS_REJECTED;
  }
  c->out_len = (size_t)n;
  return n > 0 ? c->out[0] : 0;
}

static int run_pk(ops_cell *c) {
  c->out_len = 0;
  if (c->refused)
    return OPS_REJECTED;
  const int ed = c->def->alg == A_ED25519;
  switch (c->op) {
  case OP_KEYGEN:
    if (ed) {
      crypto_sign_keypair(c->out, c->sk);
    } else {
      randombytes_buf(c->sk, crypto_scalarmult_SCALARBYTES);
      crypto_scalarmult_base(c->out, c->sk);
    }
    c->out_len = crypto_sign_PUBLICKEYBYTES;
    break;
  case OP_SIGN: {
    unsigned long long n = 0;
    crypto_sign_detached(c->out, &n, c->in, c->in_len, c->sk);
    c->out_len = (size_t)n;
    break;
  }
  case OP_VERIFY:
    if (c->sig_len != crypto_sign_BYTES ||
        crypto_sign_verify_detached(c->sig, c->in, c->in_len, c->pk) != 0) {
      cb_kit_err(c->err, sizeof c->err, "the signature does not verify");
      return OPS_REJECTED;
    }
    c->out[0] = 1;
    c->out_len = 1;
    break;
  case OP_DERIVE:
    if (crypto_scalarmult(c->out, c->sk, c->pk) != 0) {
      cb_kit_err(c->err, sizeof c->err, "crypto_scalarmult refused the peer key (all-zero result)");
      return OPS_REJECTED;
    }
    c->out_len = crypto_scalarmult_BYTES;
    break;
  default:
    return OPS_FAIL;
  }
  return c->out[0];
}

int mod_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                char *err, size_t errlen) {
  size_t idx = mod_keypair_index(alg, pub, priv, err, errlen);
  if (idx == (size_t)-1)
    return -1;
  *pub = malloc(32);
  *priv = malloc(crypto_sign_SECRETKEYBYTES);
  if (*pub == NULL || *priv == NULL) {
    free(*pub);
    free(*priv);
    *pub = *priv = NULL;
    cb_kit_err(err, errlen, "out of memory");
    return -1;
  }
  if (catalogue_def[idx]->alg == A_ED25519) {
    crypto_sign_keypair(*pub, *priv); /* sk = seed || public: the seed is the private key */
  } else {
    randombytes_buf(*priv, crypto_scalarmult_SCALARBYTES);
    crypto_scalarmult_base(*pub, *priv);
  }
  *pub_len = 32;
  *priv_len = 32;
  return 0;
}

int mod_cell_run(ops_cell *c) {
  switch (c->def->kind) {
    OPS_RUN_NOOP_HASH_MAC
  case K_SIG:
  case K_KEX:
    return run_pk(c);
  case K_CIPHER:
    return run_chacha20(c);
  case K_AEAD:
    return run_aead(c);
  }
  return OPS_FAIL;
}

OPS_MODULE_CELL_FUNCTIONS(out, c->err)
OPS_MODULE_NOTHING_TO_PREPARE

OPS_MODULE_EXPORT(NULL, NULL)
