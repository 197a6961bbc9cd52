/* c:mbedtls — Mbed TLS 2.28 (libmbedcrypto) as a cryptobench plugin, through
 * its documented API: mbedtls_sha256_ret / mbedtls_sha512_ret, HMAC through
 * mbedtls_md (keyed once per cell, reset per message), mbedtls_aes_crypt_cbc /
 * _ctr, mbedtls_gcm and mbedtls_chachapoly. Mbed TLS 2.28 has no SHA-3. */
#include <mbedtls/aes.h>
#include <mbedtls/chachapoly.h>
#include <mbedtls/gcm.h>
#include <mbedtls/md.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include <mbedtls/version.h>
#include <stdlib.h>

#include "../common/oneshot.h"

static int sha256(oneshot_cell *c) {
  return mbedtls_sha256_ret(c->p.msg, c->p.msg_len, c->out, 0) == 0 ? 0 : CB_FAIL;
}
static int sha512(oneshot_cell *c) {
  return mbedtls_sha512_ret(c->p.msg, c->p.msg_len, c->out, 0) == 0 ? 0 : CB_FAIL;
}

/* ---- HMAC-SHA256: keyed once, reset per message ---- */

static int hmac_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(mbedtls_md_context_t)) != 0)
    return CB_FAIL;
  mbedtls_md_init(c->ctx);
  if (mbedtls_md_setup(c->ctx, mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), 1) != 0 ||
      mbedtls_md_hmac_starts(c->ctx, c->p.key, c->p.key_len) != 0)
    return oneshot_fail(c, "mbedtls_md_hmac_starts failed");
  return 0;
}
static int hmac(oneshot_cell *c) {
  if (mbedtls_md_hmac_reset(c->ctx) != 0 ||
      mbedtls_md_hmac_update(c->ctx, c->p.msg, c->p.msg_len) ||
      mbedtls_md_hmac_finish(c->ctx, c->out) != 0)
    return oneshot_fail(c, "mbedtls_md_hmac failed");
  return 0;
}
static void hmac_cleanup(oneshot_cell *c) {
  if (c->ctx != NULL)
    mbedtls_md_free(c->ctx);
  oneshot_free_ctx(c);
}

/* ---- AES-CBC and AES-CTR: both key schedules once, the IV copied per message
 * ---- */

typedef struct aes_keys {
  mbedtls_aes_context enc, dec;
} aes_keys;

static int aes_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(aes_keys)) != 0)
    return CB_FAIL;
  aes_keys *k = c->ctx;
  mbedtls_aes_init(&k->enc);
  mbedtls_aes_init(&k->dec);
  unsigned bits = (unsigned)c->p.key_len * 8;
  if (mbedtls_aes_setkey_enc(&k->enc, c->p.key, bits) != 0 ||
      mbedtls_aes_setkey_dec(&k->dec, c->p.key, bits) != 0)
    return oneshot_fail(c, "mbedtls_aes_setkey failed");
  return 0;
}
static void aes_cleanup(oneshot_cell *c) {
  aes_keys *k = c->ctx;
  if (k != NULL) {
    mbedtls_aes_free(&k->enc);
    mbedtls_aes_free(&k->dec);
  }
  oneshot_free_ctx(c);
}

static int cbc(oneshot_cell *c, int mode) {
  aes_keys *k = c->ctx;
  unsigned char iv[16];
  memcpy(iv, c->p.iv, sizeof iv);
  int r = mbedtls_aes_crypt_cbc(mode == MBEDTLS_AES_ENCRYPT ? &k->enc : &k->dec, mode, c->p.msg_len,
                                iv, c->p.msg, c->out);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_aes_crypt_cbc: -0x%04x", (unsigned)-r);
}
static int cbc_enc(oneshot_cell *c) { return cbc(c, MBEDTLS_AES_ENCRYPT); }
static int cbc_dec(oneshot_cell *c) { return cbc(c, MBEDTLS_AES_DECRYPT); }

static int ctr(oneshot_cell *c) { /* the whole 16-byte block is the big-endian counter */
  aes_keys *k = c->ctx;
  unsigned char counter[16], block[16];
  size_t off = 0;
  memcpy(counter, c->p.iv, sizeof counter);
  int r = mbedtls_aes_crypt_ctr(&k->enc, c->p.msg_len, &off, counter, block, c->p.msg, c->out);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_aes_crypt_ctr: -0x%04x", (unsigned)-r);
}

/* ---- AES-GCM ---- */

static int gcm_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(mbedtls_gcm_context)) != 0)
    return CB_FAIL;
  mbedtls_gcm_init(c->ctx);
  if (mbedtls_gcm_setkey(c->ctx, MBEDTLS_CIPHER_ID_AES, c->p.key, (unsigned)c->p.key_len * 8))
    return oneshot_fail(c, "mbedtls_gcm_setkey failed");
  return 0;
}
static int gcm_seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  int r = mbedtls_gcm_crypt_and_tag(c->ctx, MBEDTLS_GCM_ENCRYPT, n, c->p.iv, c->p.iv_len, c->p.aad,
                                    c->p.aad_len, c->p.msg, c->out, CB_TAG_LEN, c->out + n);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_gcm_crypt_and_tag: -0x%04x", (unsigned)-r);
}
static int gcm_open(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  int r = mbedtls_gcm_auth_decrypt(c->ctx, n, c->p.iv, c->p.iv_len, c->p.aad, c->p.aad_len,
                                   c->p.msg + n, CB_TAG_LEN, c->p.msg, c->out);
  if (r == MBEDTLS_ERR_GCM_AUTH_FAILED)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_gcm_auth_decrypt: -0x%04x", (unsigned)-r);
}
static void gcm_cleanup(oneshot_cell *c) {
  if (c->ctx != NULL)
    mbedtls_gcm_free(c->ctx);
  oneshot_free_ctx(c);
}

/* ---- ChaCha20-Poly1305 ---- */

static int chapo_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(mbedtls_chachapoly_context)) != 0)
    return CB_FAIL;
  mbedtls_chachapoly_init(c->ctx);
  if (mbedtls_chachapoly_setkey(c->ctx, c->p.key) != 0)
    return oneshot_fail(c, "mbedtls_chachapoly_setkey failed");
  return 0;
}
static int chapo_seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  int r = mbedtls_chachapoly_encrypt_and_tag(c->ctx, n, c->p.iv, c->p.aad, c->p.aad_len, c->p.msg,
                                             c->out, c->out + n);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_chachapoly_encrypt_and_tag: -0x%04x", (unsigned)-r);
}
static int chapo_open(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  int r = mbedtls_chachapoly_auth_decrypt(c->ctx, n, c->p.iv, c->p.aad, c->p.aad_len, c->p.msg + n,
                                          c->p.msg, c->out);
  if (r == MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_chachapoly_auth_decrypt: -0x%04x", (unsigned)-r);
}
static void chapo_cleanup(oneshot_cell *c) {
  if (c->ctx != NULL)
    mbedtls_chachapoly_free(c->ctx);
  oneshot_free_ctx(c);
}

#define CIPHER(name, key, block, enc, dec)                                                         \
  { {name, {"encrypt", "decrypt"}, 0, 0, 0}, key, 16, block, 0, aes_setup, {enc, dec}, aes_cleanup }
#define AEAD(name, key, prefix)                                                                    \
  {                                                                                                \
    {name, {"seal", "open"}, 0, 0, 0}, key, 12, 0, 0, prefix##_setup,                              \
        {prefix##_seal, prefix##_open}, prefix##_cleanup                                           \
  }

const oneshot_alg oneshot_algs[] = {
    {{"sha256", {"hash"}, 0, 0, 0}, 0, 0, 0, 32, NULL, {sha256}, NULL},
    {{"sha512", {"hash"}, 0, 0, 0}, 0, 0, 0, 64, NULL, {sha512}, NULL},
    {{"hmac-sha256", {"mac"}, 0, 0, 0}, 0, 0, 0, 32, hmac_setup, {hmac}, hmac_cleanup},
    CIPHER("aes-128-cbc", 16, 16, cbc_enc, cbc_dec),
    CIPHER("aes-256-cbc", 32, 16, cbc_enc, cbc_dec),
    CIPHER("aes-128-ctr", 16, 0, ctr, ctr),
    CIPHER("aes-256-ctr", 32, 0, ctr, ctr),
    AEAD("aes-128-gcm", 16, gcm),
    AEAD("aes-256-gcm", 32, gcm),
    AEAD("chacha20-poly1305", 32, chapo),
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "Mbed TLS"; }
static const char *library_version(void) {
  static char v[18];
  mbedtls_version_get_string(v);
  return v;
}

static const cb_provider table =
    ONESHOT_TABLE("mbedtls", "c:mbedtls", "c", NULL, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
