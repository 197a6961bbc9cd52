#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* ops for Botan 2 through its C FFI, botan/ffi.h (provider c:botan-ffi): the same library and
 * algorithms as ops_botan.cpp, the way a C user (or a language binding) reaches them.
 *
 * botan_hash_update/final; botan_mac_set_key once per cell, botan_mac_update/final;
 * botan_cipher_init + botan_cipher_set_key once per cell, then per message botan_cipher_start and
 * one botan_cipher_update with BOTAN_CIPHER_UPDATE_FLAG_FINAL over the whole message (the FFI
 * copies it into its own buffer, runs finish() there and copies the result out); ECB through
 * botan_block_cipher_encrypt_blocks. Streaming: one botan_cipher_update without the final flag per
 * piece (whole multiples of botan_cipher_get_update_granularity), the final flag on the last.
 * Public-key algorithms are in ops_botan_ffi_pk.c; this file dispatches their cells there.
 */
/* a public-key cell hands its work to ops_botan_ffi_pk.c's (ops_module.h) */
#define OPS_SUBCELLS(X) X(pk, pk_cell)

#include "ops_botan_cell.h"
#include "ops_module.h"
#include "ops_pk.h"
#include "ops_regen.h"
#include <cryptobench/kit.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <botan/ffi.h>

enum kind { K_NOOP, K_HASH, K_MAC, K_BLOCK, K_CIPHER, K_AEAD };
/* each kind's operations are the kit's (include/cryptobench/kit.h) */
static const enum cb_kit_kind KIT_KIND[] = {CB_KIT_NOOP,   CB_KIT_HASH,   CB_KIT_MAC,
                                            CB_KIT_CIPHER, CB_KIT_CIPHER, CB_KIT_AEAD};
enum op { OP_NOOP, OP_HASH, OP_MAC, OP_ENCRYPT, OP_DECRYPT, OP_SEAL, OP_OPEN };
static const char *const OP_NAMES[] = {"noop", "hash", "mac", "encrypt", "decrypt", "seal", "open"};

typedef struct alg_def {
  const char *name;  /* protocol name */
  const char *botan; /* Botan's name, as botan_*_init takes it */
  enum kind kind;
  size_t key_len; /* 0: any (HMAC) or none */
  size_t iv_len;  /* 0: none (ECB) or, for GCM, any the mode accepts */
  size_t block;   /* messages must be a multiple of this */
  int stream;     /* has a streaming API here */
} alg_def;

static const alg_def DEFS[] = {
    {"noop", "", K_NOOP, 0, 0, 1, 0},
    {"sha256", "SHA-256", K_HASH, 0, 0, 1, 1},
    {"sha512", "SHA-512", K_HASH, 0, 0, 1, 1},
    {"sha3-256", "SHA-3(256)", K_HASH, 0, 0, 1, 1},
    {"sha3-512", "SHA-3(512)", K_HASH, 0, 0, 1, 1},
    {"blake2b-512", "BLAKE2b(512)", K_HASH, 0, 0, 1, 1},
    {"sm3", "SM3", K_HASH, 0, 0, 1, 1},
    {"hmac-sha256", "HMAC(SHA-256)", K_MAC, 0, 0, 1, 1},
    {"aes-128-ecb", "AES-128", K_BLOCK, 16, 0, 16, 0},
    {"aes-256-ecb", "AES-256", K_BLOCK, 32, 0, 16, 0},
    {"aes-128-cbc", "AES-128/CBC/NoPadding", K_CIPHER, 16, 16, 16, 1},
    {"aes-256-cbc", "AES-256/CBC/NoPadding", K_CIPHER, 32, 16, 16, 1},
    {"aes-128-ctr", "CTR-BE(AES-128)", K_CIPHER, 16, 16, 1, 1},
    {"aes-256-ctr", "CTR-BE(AES-256)", K_CIPHER, 32, 16, 1, 1},
    {"chacha20", "ChaCha(20)", K_CIPHER, 32, 12, 1, 1},
    {"aes-128-gcm", "AES-128/GCM", K_AEAD, 16, 0, 1, 1},
    {"aes-256-gcm", "AES-256/GCM", K_AEAD, 32, 0, 1, 1},
    /* CCM(tag, L): a 12-byte nonce leaves L = 3; the whole output comes from the final call */
    {"aes-128-ccm", "AES-128/CCM(16,3)", K_AEAD, 16, 12, 1, 0},
    {"aes-256-ccm", "AES-256/CCM(16,3)", K_AEAD, 32, 12, 1, 0},
    {"chacha20-poly1305", "ChaCha20Poly1305", K_AEAD, 32, 12, 1, 1},
    {"xchacha20-poly1305", "ChaCha20Poly1305", K_AEAD, 32, 24, 1, 1},
    {"sm4-ecb", "SM4", K_BLOCK, 16, 0, 16, 0},
    {"sm4-cbc", "SM4/CBC/NoPadding", K_CIPHER, 16, 16, 16, 1},
    {"sm4-ctr", "CTR-BE(SM4)", K_CIPHER, 16, 16, 1, 1},
    {"sm4-gcm", "SM4/GCM", K_AEAD, 16, 0, 1, 1},
};
#define NDEFS (sizeof DEFS / sizeof DEFS[0])
#define MAX_PK 40 /* public-key catalogue entries (ops_botan_ffi_pk.c) */

static ops_alg catalogue[NDEFS + MAX_PK];
static const alg_def *catalogue_def[NDEFS + MAX_PK]; /* NULL: a public-key algorithm */
static size_t catalogue_len;

/* ChaCha20 block counters in verify cases: the FFI has no seek, so that many 64-byte blocks of
 * keystream are skipped by encrypting zeros (outside any timed cell: bench uses counter 0) */
#define MAX_SKIP_BLOCKS 1024

struct ops_cell {
  pk_cell *pk; /* a public-key cell (ops_botan_ffi_pk.c) */
  const alg_def *def;
  enum op op;
  const uint8_t *in; /* data to process (open: ciphertext || tag) */
  size_t in_len;     /* bytes to process (open: without the tag) */
  size_t period;     /* > 0: `in` is the periodic pattern (ops_params.period) */
  size_t step;       /* bytes per update call */
  int streaming;
  size_t extra; /* open: the tag after the ciphertext, given to the final call */
  ops_tap *tap;
  uint8_t iv[32];
  size_t iv_len;
  const uint8_t *aad;
  size_t aad_len;
  uint32_t counter;
  botan_hash_t hash;
  botan_mac_t mac;
  botan_block_cipher_t bc;
  botan_cipher_t cipher;
  uint8_t *out;
  size_t out_cap;
  size_t out_len;
  char err[256];
  /* regen (a big streamed decrypt/open, ops.h): `in` is the plaintext pattern and each piece of
   * ciphertext is made again just before it is consumed, by an encrypting twin of `cipher` */
  int regen;
  botan_cipher_t gcipher;
  uint8_t *gbuf;       /* one piece of ciphertext (the last: and its tag), out_cap bytes */
  uint64_t untimed_ns; /* spent making it, subtracted by timing.c */
};

OPS_MODULE_SUBCELL_WRAPS((ops_cell *)calloc(1, sizeof(ops_cell)))
OPS_MODULE_CELL_OF

static void set_botan_err(char *err, size_t errlen, const char *what, int rc) {
  cb_kit_err(err, errlen, "%s: %s (%d)", what, botan_error_description(rc), rc);
}

/* ---- identity and catalogue ---- */

static int probe(const alg_def *d) {
  int ok = 0;
  switch (d->kind) {
  case K_NOOP:
    return 1;
  case K_HASH: {
    botan_hash_t h;
    if ((ok = botan_hash_init(&h, d->botan, 0) == 0))
      botan_hash_destroy(h);
    break;
  }
  case K_MAC: {
    botan_mac_t m;
    if ((ok = botan_mac_init(&m, d->botan, 0) == 0))
      botan_mac_destroy(m);
    break;
  }
  case K_BLOCK: {
    botan_block_cipher_t b;
    if ((ok = botan_block_cipher_init(&b, d->botan) == 0))
      botan_block_cipher_destroy(b);
    break;
  }
  case K_CIPHER:
  case K_AEAD: {
    botan_cipher_t c;
    if ((ok = botan_cipher_init(&c, d->botan, BOTAN_CIPHER_INIT_FLAG_ENCRYPT) == 0)) {
      if (d->iv_len != 0)
        ok = botan_cipher_valid_nonce_length(c, d->iv_len) == 1;
      botan_cipher_destroy(c);
    }
    break;
  }
  }
  return ok;
}

int mod_init(char *err, size_t errlen) {
  if (botan_version_major() != BOTAN_VERSION_MAJOR) {
    cb_kit_err(err, errlen, "built against Botan %d headers but the loaded library is %s",
               BOTAN_VERSION_MAJOR, botan_version_string());
    return -1;
  }
  catalogue_len = 0;
  OPS_CATALOGUE_FROM_DEFS(probe(d))
  size_t npk = pk_catalogue(catalogue + catalogue_len, MAX_PK);
  for (size_t i = 0; i < npk; i++)
    catalogue_def[catalogue_len++] = NULL;
  return 0;
}

int mod_provider_accepts(const char *id) { return strcmp(id, "c:botan-ffi") == 0; }

const char *mod_library_name(void) { return "Botan"; }

const char *mod_library_version(void) { return botan_version_string(); }

/* "AES-128/CBC/NoPadding 256, ..." as botan_cipher_get_update_granularity reports them */
static void granularities(char *s, size_t n) {
  static const char *const names[] = {"AES-128/CBC/NoPadding", "CTR-BE(AES-128)", "ChaCha(20)",
                                      "AES-128/GCM", "ChaCha20Poly1305"};
  size_t used = 0;
  s[0] = '\0';
  for (size_t i = 0; i < sizeof names / sizeof names[0] && used < n; i++) {
    botan_cipher_t c;
    size_t g = 0;
    if (botan_cipher_init(&c, names[i], BOTAN_CIPHER_INIT_FLAG_ENCRYPT) != 0)
      continue;
    if (botan_cipher_get_update_granularity(c, &g) == 0)
      used += (size_t)snprintf(s + used, n - used, "%s%s %zu", used ? ", " : "", names[i], g);
    botan_cipher_destroy(c);
  }
}

size_t mod_notes(const char *provider, const char **notes, size_t max) {
  static char built[200], gran[600];
  (void)provider;
  snprintf(built, sizeof built,
           "built against Botan headers %d.%d.%d; the C FFI (botan/ffi.h, API version %u), the "
           "same library as cpp:botan",
           BOTAN_VERSION_MAJOR, BOTAN_VERSION_MINOR, BOTAN_VERSION_PATCH,
           (unsigned)botan_ffi_api_version());
  char g[400];
  granularities(g, sizeof g);
  snprintf(gran, sizeof gran,
           "streamed cipher cells: one botan_cipher_update per piece without the final flag, the "
           "final flag on the last; pieces must be whole multiples of "
           "botan_cipher_get_update_granularity (%s), other chunks answer not offered. Botan %d's "
           "FFI then runs Cipher_Mode::update once per granularity unit, copying each unit in and "
           "out: 1 byte for CTR and ChaCha20, whatever the piece size (Botan issues #2744, #3925; "
           "botan_cipher_get_ideal_update_granularity only exists from Botan 3)",
           g, BOTAN_VERSION_MAJOR);
  const char *text[] = {
      built,
      "hashes: botan_hash_init once per cell, botan_hash_update + botan_hash_final per message; "
      "hmac-sha256: botan_mac_init(\"HMAC(SHA-256)\") + botan_mac_set_key once per cell, "
      "botan_mac_update + botan_mac_final per message",
      "ciphers and AEADs (CBC/NoPadding, CTR-BE, ChaCha(20), GCM, CCM(16,3), ChaCha20Poly1305; a "
      "24-byte nonce makes it XChaCha20Poly1305): botan_cipher_init + botan_cipher_set_key once "
      "per cell; per message botan_cipher_start, then one botan_cipher_update with "
      "BOTAN_CIPHER_UPDATE_FLAG_FINAL over the whole message: the FFI copies it into its own "
      "secure_vector, runs finish() there and copies the result out. That buffer was cleared "
      "after the previous message, so the copy in fills it element by element (libstdc++ with "
      "Botan's allocator), not with memmove: most of what this path costs over cpp:botan",
      gran,
      "ECB: Botan 2 has no ECB cipher mode; botan_block_cipher_encrypt_blocks / decrypt_blocks "
      "over the message (one-shot, not in stream)",
      "chacha20 with a block counter (verify only; bench uses counter 0): the FFI has no seek, so "
      "counter x 64 bytes of keystream are skipped by encrypting zeros after botan_cipher_start",
      "CCM: the whole output comes from the final call, so not in stream; L = 3 (12-byte "
      "nonce): messages below 2^24 bytes (larger: not offered at this size)",
      "BLAKE2s is not in Botan 2: not offered",
  };
  return ops_notes_and(text, sizeof text / sizeof text[0], notes, max, pk_notes);
}

OPS_MODULE_ALG_AT

/* ---- cells ---- */

void mod_cell_free(ops_cell *c) {
  if (c == NULL)
    return;
  OPS_SUBCELLS(OPS_SUB_FREE)
  if (c->hash != NULL)
    botan_hash_destroy(c->hash);
  if (c->mac != NULL)
    botan_mac_destroy(c->mac);
  if (c->bc != NULL)
    botan_block_cipher_destroy(c->bc);
  if (c->cipher != NULL)
    botan_cipher_destroy(c->cipher);
  if (c->gcipher != NULL)
    botan_cipher_destroy(c->gcipher);
  free(c->gbuf);
  free(c->out);
  free(c);
}

static int prepare(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const alg_def *d = c->def;
  static const uint8_t empty[1] = {0};
  int rc;
  size_t n = 0;
  switch (d->kind) {
  case K_NOOP:
    return 0;
  case K_HASH:
    if ((rc = botan_hash_init(&c->hash, d->botan, 0)) != 0 ||
        (rc = botan_hash_output_length(c->hash, &n)) != 0) {
      set_botan_err(err, errlen, "botan_hash_init", rc);
      return -1;
    }
    c->out_cap = n;
    return 0;
  case K_MAC:
    if ((rc = botan_mac_init(&c->mac, d->botan, 0)) != 0 ||
        (rc = botan_mac_output_length(c->mac, &n)) != 0 ||
        (rc = botan_mac_set_key(c->mac, p->key != NULL ? p->key : empty, p->key_len)) != 0) {
      set_botan_err(err, errlen, "HMAC set-up", rc);
      return -1;
    }
    c->out_cap = n;
    return 0;
  default:
    break;
  }
  if (ops_key_block_checks(p, d->name, d->key_len, d->block, c->in_len, err, errlen) != 0)
    return -1;
  if (d->kind == K_BLOCK) {
    if ((rc = botan_block_cipher_init(&c->bc, d->botan)) != 0 ||
        (rc = botan_block_cipher_set_key(c->bc, p->key, p->key_len)) != 0) {
      set_botan_err(err, errlen, "block cipher set-up", rc);
      return -1;
    }
    c->out_cap = c->in_len;
    return 0;
  }
  if (ops_iv_checks(p, d->name, d->iv_len, d->kind == K_AEAD, sizeof c->iv, err, errlen) != 0)
    return -1;
  memcpy(c->iv, p->iv, p->iv_len);
  c->iv_len = p->iv_len;
  c->counter = p->counter;
  if (c->counter > MAX_SKIP_BLOCKS) {
    cb_kit_err(err, errlen, "not offered: Botan's FFI has no seek; block counters above %d",
               MAX_SKIP_BLOCKS);
    return -1;
  }
  const int enc = c->op == OP_ENCRYPT || c->op == OP_SEAL;
  rc = botan_cipher_init(&c->cipher, d->botan,
                         enc ? BOTAN_CIPHER_INIT_FLAG_ENCRYPT : BOTAN_CIPHER_INIT_FLAG_DECRYPT);
  if (rc != 0) {
    set_botan_err(err, errlen, "botan_cipher_init", rc);
    return -1;
  }
  if (botan_cipher_valid_nonce_length(c->cipher, p->iv_len) != 1) {
    cb_kit_err(err, errlen, "nonce length %zu not accepted by %s", p->iv_len, d->botan);
    return -1;
  }
  if ((rc = botan_cipher_set_key(c->cipher, p->key, p->key_len)) != 0) {
    set_botan_err(err, errlen, "botan_cipher_set_key", rc);
    return -1;
  }
  if (botan_ccm_fits(d->kind == K_AEAD && strstr(d->botan, "CCM") != NULL, d->name, c->in_len, err,
                     errlen) != 0)
    return -1;
  if (c->streaming && c->step < c->in_len) {
    size_t g = 0;
    if ((rc = botan_cipher_get_update_granularity(c->cipher, &g)) != 0) {
      set_botan_err(err, errlen, "botan_cipher_get_update_granularity", rc);
      return -1;
    }
    if (g == 0 || c->step % g != 0) {
      cb_kit_err(err, errlen,
                 "not offered: botan_cipher_update takes whole multiples of the update granularity "
                 "(%zu bytes for %s); chunk %zu is not one",
                 g, d->botan, c->step);
      return -1;
    }
  }
  /* the whole output (or a piece's), the tag, a block of slack; the zeros a counter skips */
  c->out_cap = (c->streaming ? c->step : c->in_len) + OPS_TAG_LEN + 32;
  if (c->out_cap < 64 * (size_t)c->counter)
    c->out_cap = 64 * (size_t)c->counter;
  if (c->regen) {
    if ((rc = botan_cipher_init(&c->gcipher, d->botan, BOTAN_CIPHER_INIT_FLAG_ENCRYPT)) != 0 ||
        (rc = botan_cipher_set_key(c->gcipher, p->key, p->key_len)) != 0) {
      set_botan_err(err, errlen, "ciphertext regeneration set-up", rc);
      return -1;
    }
    if ((c->gbuf = malloc(c->out_cap)) == NULL) {
      cb_kit_err(err, errlen, "out of memory");
      return -1;
    }
  }
  return 0;
}

/* regen: the ciphertext of the `len` plaintext bytes at `off`, off the clock, or NULL; reads go in
 * order from offset 0 (which restarts the encrypting twin). `last` finishes the message: for open
 * the piece is then followed by its tag. */
static const uint8_t *regenerate(ops_cell *c, size_t off, size_t len, int last) {
  uint64_t t0 = ops_regen_now_ns();
  size_t written = 0, consumed = 0;
  int ok = 1;
  if (off == 0) {
    ok = (c->aad_len == 0 ||
          botan_cipher_set_associated_data(c->gcipher, c->aad, c->aad_len) == 0) &&
         botan_cipher_start(c->gcipher, c->iv, c->iv_len) == 0;
  }
  ok = ok && botan_cipher_update(c->gcipher, last ? BOTAN_CIPHER_UPDATE_FLAG_FINAL : 0, c->gbuf,
                                 c->out_cap, &written, ops_input_at(c->in, c->period, off), len,
                                 &consumed) == 0;
  ok = ok && consumed == len && written == len + (last ? c->extra : 0);
  c->untimed_ns += ops_regen_now_ns() - t0;
  return ok ? c->gbuf : NULL;
}

static ops_cell *cell_new(const alg_def *d, size_t idx, int op, const ops_params *p, char *err,
                          size_t errlen) {
  (void)idx; /* d is all a cell needs */
  if (botan_sym_checks(p, d->name, d->stream, d->botan, op == OP_DECRYPT,
                       "has no streaming API in Botan's FFI", err, errlen) != 0)
    return NULL;
  ops_cell *c = mod_cell_of(d, op, err, errlen);
  if (c == NULL)
    return NULL;
  OPS_CELL_INPUT(c, p, op == OP_DECRYPT || op == OP_OPEN);
  c->aad = p->aad;
  c->aad_len = p->aad != NULL ? p->aad_len : 0;
  if (op == OP_OPEN && c->regen) {
    c->extra = OPS_TAG_LEN; /* made by the encrypting twin after the last piece */
  } else if (op == OP_OPEN) {
    c->in_len = p->msg_len - OPS_TAG_LEN;
    c->extra = OPS_TAG_LEN;
  }
  c->step = ops_step(p, c->in_len);
  if ((op == OP_OPEN && !c->regen && ops_open_fits(p, err, errlen) != 0) ||
      prepare(c, p, err, errlen) != 0 || (c->out = ops_out_buf(c->out_cap, err, errlen)) == NULL) {
    mod_cell_free(c);
    return NULL;
  }
  if (c->counter > 0)
    memset(c->out, 0, 64 * (size_t)c->counter);
  return c;
}

OPS_MODULE_CELL_NEW(kind, OPS_PK_SUBCELL_FIRST)

static int fail(ops_cell *c, const char *what, int rc) {
  set_botan_err(c->err, sizeof c->err, what, rc);
  return OPS_FAIL;
}

static int run_hash(ops_cell *c) {
  int rc;
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    if ((rc = botan_hash_update(c->hash, ops_input_at(c->in, c->period, off), len)) != 0)
      return fail(c, "botan_hash_update", rc);
  }
  if ((rc = botan_hash_final(c->hash, c->out)) != 0) /* and reset for the next message */
    return fail(c, "botan_hash_final", rc);
  c->out_len = c->out_cap;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, c->out_len);
  return c->out[0];
}

static int run_mac(ops_cell *c) {
  int rc;
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    if ((rc = botan_mac_update(c->mac, ops_input_at(c->in, c->period, off), len)) != 0)
      return fail(c, "botan_mac_update", rc);
  }
  if ((rc = botan_mac_final(c->mac, c->out)) != 0) /* the key stays set */
    return fail(c, "botan_mac_final", rc);
  c->out_len = c->out_cap;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, c->out_len);
  return c->out[0];
}

static int run_block(ops_cell *c) {
  size_t blocks = c->in_len / 16;
  int rc = c->op == OP_ENCRYPT ? botan_block_cipher_encrypt_blocks(c->bc, c->in, c->out, blocks)
                               : botan_block_cipher_decrypt_blocks(c->bc, c->in, c->out, blocks);
  if (rc != 0)
    return fail(c, "botan_block_cipher_*crypt_blocks", rc);
  c->out_len = c->in_len;
  return c->out_len > 0 ? c->out[0] : 0;
}

static int run_cipher(ops_cell *c) {
  int rc;
  size_t written = 0, consumed = 0, off = 0;
  if (c->aad_len > 0 && (rc = botan_cipher_set_associated_data(c->cipher, c->aad, c->aad_len)) != 0)
    return fail(c, "botan_cipher_set_associated_data", rc);
  if ((rc = botan_cipher_start(c->cipher, c->iv, c->iv_len)) != 0)
    return fail(c, "botan_cipher_start", rc);
  if (c->counter > 0) { /* verify only: skip counter blocks of keystream (no seek in the FFI) */
    size_t skip = 64 * (size_t)c->counter;
    rc = botan_cipher_update(c->cipher, 0, c->out, c->out_cap, &written, c->out, skip, &consumed);
    if (rc != 0 || consumed != skip)
      return fail(c, "skipping keystream for the block counter", rc);
    memset(c->out, 0, skip);
  }
  if (c->streaming) {
    /* every piece but the last without the final flag */
    for (; c->in_len - off > c->step; off += c->step) {
      const uint8_t *in =
          c->regen ? regenerate(c, off, c->step, 0) : ops_input_at(c->in, c->period, off);
      if (in == NULL)
        return fail(c, "regeneration: botan_cipher_update", 0);
      rc = botan_cipher_update(c->cipher, 0, c->out, c->out_cap, &written, in, c->step, &consumed);
      if (rc != 0)
        return fail(c, "botan_cipher_update", rc);
      if (consumed != c->step) {
        cb_kit_err(c->err, sizeof c->err, "botan_cipher_update consumed %zu of %zu bytes", consumed,
                   c->step);
        return OPS_FAIL;
      }
      if (c->tap != NULL)
        ops_tap_fold(c->tap, c->out, written);
    }
  }
  /* the last piece (one-shot: the whole message), for open with the tag that follows it */
  size_t len = c->in_len - off + c->extra;
  const uint8_t *in =
      c->regen ? regenerate(c, off, c->in_len - off, 1) : ops_input_at(c->in, c->period, off);
  if (in == NULL)
    return fail(c, "regeneration: botan_cipher_update (final)", 0);
  rc = botan_cipher_update(c->cipher, BOTAN_CIPHER_UPDATE_FLAG_FINAL, c->out, c->out_cap, &written,
                           in, len, &consumed);
  if (rc != 0) {
    botan_cipher_reset(c->cipher); /* drop the half-finished message */
    if (rc == BOTAN_FFI_ERROR_BAD_MAC && c->op == OP_OPEN)
      return OPS_REJECTED;
    return fail(c, "botan_cipher_update (final)", rc);
  }
  c->out_len = written;
  if (c->tap != NULL)
    ops_tap_fold(c->tap, c->out, written);
  return written > 0 ? c->out[0] : 0;
}

OPS_REGEN_DEFINE_EXPORTS

int mod_cell_run(ops_cell *c) {
  OPS_SUBCELLS(OPS_SUB_RUN)
  switch (c->def->kind) {
    OPS_RUN_NOOP_HASH_MAC
  case K_BLOCK:
    return run_block(c);
  case K_CIPHER:
  case K_AEAD:
    return run_cipher(c);
  }
  return OPS_FAIL;
}

OPS_MODULE_CELL_FUNCTIONS(out, c->err)
OPS_MODULE_NOTHING_TO_PREPARE
OPS_MODULE_PK_KEYPAIR

OPS_MODULE_EXPORT(mod_regenerates_ciphertext, mod_cell_untimed_ns)
