/* c:libgcrypt — libgcrypt 1.10 as a cryptobench plugin, through its documented
 * API: gcry_md_hash_buffer for the hashes, gcry_mac (HMAC, keyed once per cell,
 * gcry_mac_reset per message), and one gcry_cipher handle per cell (key set
 * once; IV or counter, AAD and tag per message) for AES-CBC/CTR/GCM,
 * SM4-CBC/CTR and ChaCha20-Poly1305. */
#include <gcrypt.h>
#include <stdio.h>

#include "../common/oneshot.h"

#define CHECK(call)                                                                                \
  do {                                                                                             \
    gcry_error_t e_ = (call);                                                                      \
    if (e_ != 0)                                                                                   \
      return oneshot_fail(c, "%s: %s", #call, gcry_strerror(e_));                                  \
  } while (0)

static int init(char *err, size_t errlen) {
  if (gcry_check_version(GCRYPT_VERSION) == NULL) {
    snprintf(err, errlen, "libgcrypt is older than the %s its headers say", GCRYPT_VERSION);
    return -1;
  }
  gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
  return 0;
}

static int hash(oneshot_cell *c) {
  gcry_md_hash_buffer(c->def->arg, c->out, c->p.msg, c->p.msg_len);
  return 0;
}

static int hmac_setup(oneshot_cell *c) {
  gcry_mac_hd_t h;
  CHECK(gcry_mac_open(&h, GCRY_MAC_HMAC_SHA256, 0, NULL));
  c->ctx = h;
  CHECK(gcry_mac_setkey(h, c->p.key, c->p.key_len));
  return 0;
}
static int hmac(oneshot_cell *c) {
  size_t n = c->out_len;
  CHECK(gcry_mac_reset(c->ctx));
  CHECK(gcry_mac_write(c->ctx, c->p.msg, c->p.msg_len));
  CHECK(gcry_mac_read(c->ctx, c->out, &n));
  return 0;
}
static void hmac_cleanup(oneshot_cell *c) { gcry_mac_close(c->ctx); }

/* ---- ciphers: one handle per cell, arg = algorithm, arg2 = mode ---- */

static int cipher_setup(oneshot_cell *c) {
  gcry_cipher_hd_t h;
  CHECK(gcry_cipher_open(&h, c->def->arg, c->def->arg2, 0));
  c->ctx = h;
  CHECK(gcry_cipher_setkey(h, c->p.key, c->p.key_len));
  return 0;
}
static void cipher_cleanup(oneshot_cell *c) { gcry_cipher_close(c->ctx); }

static int set_iv(oneshot_cell *c) {
  if (c->def->arg2 == GCRY_CIPHER_MODE_CTR)
    return gcry_cipher_setctr(c->ctx, c->p.iv, c->p.iv_len);
  return gcry_cipher_setiv(c->ctx, c->p.iv, c->p.iv_len);
}
static int encrypt(oneshot_cell *c) {
  CHECK(set_iv(c));
  CHECK(gcry_cipher_encrypt(c->ctx, c->out, c->out_len, c->p.msg, c->p.msg_len));
  return 0;
}
static int decrypt(oneshot_cell *c) {
  CHECK(set_iv(c));
  CHECK(gcry_cipher_decrypt(c->ctx, c->out, c->out_len, c->p.msg, c->p.msg_len));
  return 0;
}
static int seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  CHECK(set_iv(c));
  CHECK(gcry_cipher_authenticate(c->ctx, c->p.aad, c->p.aad_len));
  CHECK(gcry_cipher_final(c->ctx));
  CHECK(gcry_cipher_encrypt(c->ctx, c->out, n, c->p.msg, n));
  CHECK(gcry_cipher_gettag(c->ctx, c->out + n, CB_TAG_LEN));
  return 0;
}
static int open_(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  CHECK(set_iv(c));
  CHECK(gcry_cipher_authenticate(c->ctx, c->p.aad, c->p.aad_len));
  CHECK(gcry_cipher_final(c->ctx));
  CHECK(gcry_cipher_decrypt(c->ctx, c->out, n, c->p.msg, n));
  gcry_error_t e = gcry_cipher_checktag(c->ctx, c->p.msg + n, CB_TAG_LEN);
  if (gcry_err_code(e) == GPG_ERR_CHECKSUM)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  CHECK(e);
  return 0;
}

#define HASH(name, algo, size)                                                                     \
  { {name, {"hash"}, 0, 0, 0}, 0, 0, 0, size, NULL, {hash}, NULL, algo, 0 }
#define CIPHER(name, key, block, algo, mode)                                                       \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}, 0, 0, 0}, key, 16, block, 0, cipher_setup, {encrypt, decrypt},  \
        cipher_cleanup, algo, mode                                                                 \
  }
#define AEAD(name, key, algo, mode)                                                                \
  {                                                                                                \
    {name, {"seal", "open"}, 0, 0, 0}, key, 12, 0, 0, cipher_setup, {seal, open_}, cipher_cleanup, \
        algo, mode                                                                                 \
  }

const oneshot_alg oneshot_algs[] = {
    HASH("sha256", GCRY_MD_SHA256, 32),
    HASH("sha512", GCRY_MD_SHA512, 64),
    HASH("sha3-256", GCRY_MD_SHA3_256, 32),
    HASH("sha3-512", GCRY_MD_SHA3_512, 64),
    HASH("blake2b-512", GCRY_MD_BLAKE2B_512, 64),
    HASH("blake2s-256", GCRY_MD_BLAKE2S_256, 32),
    HASH("sm3", GCRY_MD_SM3, 32),
    {{"hmac-sha256", {"mac"}, 0, 0, 0}, 0, 0, 0, 32, hmac_setup, {hmac}, hmac_cleanup, 0, 0},
    CIPHER("aes-128-cbc", 16, 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CBC),
    CIPHER("aes-256-cbc", 32, 16, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CBC),
    CIPHER("aes-128-ctr", 16, 0, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CTR),
    CIPHER("aes-256-ctr", 32, 0, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CTR),
    CIPHER("sm4-cbc", 16, 16, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC),
    CIPHER("sm4-ctr", 16, 0, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CTR),
    AEAD("aes-128-gcm", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM),
    AEAD("aes-256-gcm", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM),
    AEAD("chacha20-poly1305", 32, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305),
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "libgcrypt"; }
static const char *library_version(void) { return gcry_check_version(NULL); }

static const cb_provider table =
    ONESHOT_TABLE("libgcrypt", "c:libgcrypt", "c", init, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
