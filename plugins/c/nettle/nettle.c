/* c:nettle — GNU Nettle as a cryptobench plugin
 * (include/cryptobench/provider.h), through its documented low-level API: the
 * SHA-2/SHA-3 contexts, hmac_sha256, the cbc_/ctr_ modes over aes128/aes256,
 * gcm_aes128/gcm_aes256 and chacha_poly1305. Keys are scheduled once per cell
 * (setup); every operation sets its IV or nonce again, as the protocol says. */
#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/ccm.h>
#include <nettle/chacha-poly1305.h>
#include <nettle/ctr.h>
#include <nettle/curve25519.h>
#include <nettle/eddsa.h>
#include <nettle/gcm.h>
#include <nettle/hkdf.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <nettle/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>

#include "../common/oneshot.h"

/* ---- hashes and HMAC: init, update, digest ---- */

#define NETTLE_HASH(fn, ctx_t, init, update, digest, size)                                         \
  static int fn(oneshot_cell *c) {                                                                 \
    struct ctx_t h;                                                                                \
    init(&h);                                                                                      \
    update(&h, c->p.msg_len, c->p.msg);                                                            \
    digest(&h, size, c->out);                                                                      \
    return 0;                                                                                      \
  }
NETTLE_HASH(sha256, sha256_ctx, sha256_init, sha256_update, sha256_digest, SHA256_DIGEST_SIZE)
NETTLE_HASH(sha512, sha512_ctx, sha512_init, sha512_update, sha512_digest, SHA512_DIGEST_SIZE)
NETTLE_HASH(sha3_256, sha3_256_ctx, sha3_256_init, sha3_256_update, sha3_256_digest,
            SHA3_256_DIGEST_SIZE)
NETTLE_HASH(sha3_512, sha3_512_ctx, sha3_512_init, sha3_512_update, sha3_512_digest,
            SHA3_512_DIGEST_SIZE)

static int hmac_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(struct hmac_sha256_ctx)) != 0)
    return CB_FAIL;
  hmac_sha256_set_key(c->ctx, c->p.key_len, c->p.key);
  return 0;
}
/* hmac_sha256_digest leaves the context keyed for the next message */
static int hmac(oneshot_cell *c) {
  hmac_sha256_update(c->ctx, c->p.msg_len, c->p.msg);
  hmac_sha256_digest(c->ctx, SHA256_DIGEST_SIZE, c->out);
  return 0;
}

/* ---- AES-CBC and AES-CTR: both key schedules once, the IV copied per message
 * ---- */

typedef struct aes_keys {
  union {
    struct aes128_ctx a128;
    struct aes256_ctx a256;
  } enc, dec;
  nettle_cipher_func *encrypt, *decrypt;
} aes_keys;

/* the key schedules hold no library allocations: ONESHOT_AES_CBC_ECB_CTR's cleanup frees c->ctx */
#define aes_cleanup oneshot_free_ctx

static int aes_setup(oneshot_cell *c) {
  ONESHOT_STATE(aes_keys, k);
  if (c->p.key_len == 16) {
    aes128_set_encrypt_key(&k->enc.a128, c->p.key);
    aes128_set_decrypt_key(&k->dec.a128, c->p.key);
    k->encrypt = (nettle_cipher_func *)aes128_encrypt;
    k->decrypt = (nettle_cipher_func *)aes128_decrypt;
  } else {
    aes256_set_encrypt_key(&k->enc.a256, c->p.key);
    aes256_set_decrypt_key(&k->dec.a256, c->p.key);
    k->encrypt = (nettle_cipher_func *)aes256_encrypt;
    k->decrypt = (nettle_cipher_func *)aes256_decrypt;
  }
  return 0;
}

/* CBC one way: nettle's cbc_encrypt or cbc_decrypt with that way's key schedule and block
 * function, on a copy of the IV */
#define CBC_WAY(fn, NETTLE_CBC, schedule, block_fn)                                                \
  static int fn(oneshot_cell *c) {                                                                 \
    aes_keys *k = c->ctx;                                                                          \
    uint8_t iv[AES_BLOCK_SIZE];                                                                    \
    memcpy(iv, c->p.iv, sizeof iv);                                                                \
    NETTLE_CBC(&k->schedule, k->block_fn, AES_BLOCK_SIZE, iv, c->p.msg_len, c->out, c->p.msg);     \
    return 0;                                                                                      \
  }
CBC_WAY(cbc_enc, cbc_encrypt, enc, encrypt)
CBC_WAY(cbc_dec, cbc_decrypt, dec, decrypt)
static int ecb_enc(oneshot_cell *c) { /* nettle's block functions take any multiple of 16 */
  aes_keys *k = c->ctx;
  k->encrypt(&k->enc, c->p.msg_len, c->out, c->p.msg);
  return 0;
}
static int ecb_dec(oneshot_cell *c) {
  aes_keys *k = c->ctx;
  k->decrypt(&k->dec, c->p.msg_len, c->out, c->p.msg);
  return 0;
}
static int ctr(oneshot_cell *c) { /* the whole 16-byte block is the big-endian counter */
  aes_keys *k = c->ctx;
  uint8_t iv[AES_BLOCK_SIZE];
  memcpy(iv, c->p.iv, sizeof iv);
  ctr_crypt(&k->enc, k->encrypt, AES_BLOCK_SIZE, iv, c->p.msg_len, c->out, c->p.msg);
  return 0;
}

/* ---- AEADs: nonce and AAD per message, tag appended / verified ---- */

#define NETTLE_AEAD(prefix, ctx_t, set_key, set_iv, update, encrypt, decrypt, digest)              \
  static int prefix##_setup(oneshot_cell *c) {                                                     \
    if (oneshot_ctx(c, sizeof(struct ctx_t)) != 0)                                                 \
      return CB_FAIL;                                                                              \
    set_key(c->ctx, c->p.key);                                                                     \
    return 0;                                                                                      \
  }                                                                                                \
  static int prefix##_seal(oneshot_cell *c) {                                                      \
    set_iv(c->ctx, c->p.iv_len, c->p.iv);                                                          \
    update(c->ctx, c->p.aad_len, c->p.aad);                                                        \
    encrypt(c->ctx, c->p.msg_len, c->out, c->p.msg);                                               \
    digest(c->ctx, CB_TAG_LEN, c->out + c->p.msg_len);                                             \
    return 0;                                                                                      \
  }                                                                                                \
  static int prefix##_open(oneshot_cell *c) {                                                      \
    size_t n = c->p.msg_len - CB_TAG_LEN;                                                          \
    uint8_t tag[CB_TAG_LEN];                                                                       \
    set_iv(c->ctx, c->p.iv_len, c->p.iv);                                                          \
    update(c->ctx, c->p.aad_len, c->p.aad);                                                        \
    decrypt(c->ctx, n, c->out, c->p.msg);                                                          \
    digest(c->ctx, CB_TAG_LEN, tag);                                                               \
    if (!memeql_sec(tag, c->p.msg + n, CB_TAG_LEN)) {                                              \
      oneshot_fail(c, "tag mismatch");                                                             \
      return CB_REJECTED;                                                                          \
    }                                                                                              \
    return 0;                                                                                      \
  }
NETTLE_AEAD(gcm128, gcm_aes128_ctx, gcm_aes128_set_key, gcm_aes128_set_iv, gcm_aes128_update,
            gcm_aes128_encrypt, gcm_aes128_decrypt, gcm_aes128_digest)
NETTLE_AEAD(gcm256, gcm_aes256_ctx, gcm_aes256_set_key, gcm_aes256_set_iv, gcm_aes256_update,
            gcm_aes256_encrypt, gcm_aes256_decrypt, gcm_aes256_digest)

/* chacha_poly1305_set_nonce takes no length: the nonce is always 12 bytes */
static void chapo_set_nonce(struct chacha_poly1305_ctx *ctx, size_t len, const uint8_t *nonce) {
  (void)len;
  chacha_poly1305_set_nonce(ctx, nonce);
}
NETTLE_AEAD(chapo, chacha_poly1305_ctx, chacha_poly1305_set_key, chapo_set_nonce,
            chacha_poly1305_update, chacha_poly1305_encrypt, chacha_poly1305_decrypt,
            chacha_poly1305_digest)

/* ---- Ed25519 and X25519: raw 32-byte keys, the private key is the seed / scalar ---- */

/* Nettle has no system generator: a fresh private key is 32 bytes of getrandom(2) */
static int random_key(uint8_t **priv, size_t *priv_len, char *err, size_t errlen) {
  if (oneshot_alloc(priv, priv_len, 32) != 0 || getrandom(*priv, 32, 0) != 32) {
    snprintf(err, errlen, "no memory or no getrandom");
    return -1;
  }
  return 0;
}
/* a fresh pair: the private key from random_key, the public key derived from it (X25519's
 * when x25519, else Ed25519's) */
static int raw_keypair(int x25519, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                       char *err, size_t errlen) {
  if (random_key(priv, priv_len, err, errlen) != 0 || oneshot_alloc(pub, pub_len, 32) != 0)
    return -1;
  if (x25519)
    curve25519_mul_g(*pub, *priv);
  else
    ed25519_sha512_public_key(*pub, *priv);
  return 0;
}
ONESHOT_KEYPAIR(ed25519_keypair, raw_keypair, 0)
ONESHOT_KEYPAIR(x25519_keypair, raw_keypair, 1)

/* the public key is derived from the seed once per cell (sign needs both) */
static int ed_sign_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, ED25519_KEY_SIZE) != 0)
    return CB_FAIL;
  if (c->p.priv_len == ED25519_KEY_SIZE)
    ed25519_sha512_public_key(c->ctx, c->p.priv);
  return 0;
}
static int ed_sign(oneshot_cell *c) {
  if (c->p.priv_len != ED25519_KEY_SIZE)
    return oneshot_fail(c, "Ed25519 private key of %zu bytes", c->p.priv_len), CB_REJECTED;
  ed25519_sha512_sign(c->ctx, c->p.priv, c->p.msg_len, c->p.msg, c->out);
  return 0;
}
static int ed_verify(oneshot_cell *c) {
  if (c->p.pub_len != ED25519_KEY_SIZE || c->p.sig_len != ED25519_SIGNATURE_SIZE ||
      !ed25519_sha512_verify(c->p.pub, c->p.msg_len, c->p.msg, c->p.sig))
    return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}
static int x_derive(oneshot_cell *c) {
  if (c->p.priv_len != CURVE25519_SIZE || c->p.pub_len != CURVE25519_SIZE)
    return oneshot_fail(c, "X25519 keys of %zu and %zu bytes", c->p.priv_len, c->p.pub_len),
           CB_REJECTED;
  curve25519_mul(c->out, c->p.priv, c->p.pub);
  return 0;
}

/* AES-CCM: the message functions, 16-byte tag, keyed once (arg: 128 or 256) */
typedef union ccm_keys {
  struct ccm_aes128_ctx a128;
  struct ccm_aes256_ctx a256;
} ccm_keys;
static int ccm_setup(oneshot_cell *c) {
  ONESHOT_STATE(ccm_keys, k);
  if (c->def->arg == 128)
    ccm_aes128_set_key(&k->a128, c->p.key);
  else
    ccm_aes256_set_key(&k->a256, c->p.key);
  return 0;
}
static int ccm_seal(oneshot_cell *c) {
  ccm_keys *k = c->ctx;
  size_t n = c->p.msg_len + CB_TAG_LEN;
  if (c->def->arg == 128)
    ccm_aes128_encrypt_message(&k->a128, c->p.iv_len, c->p.iv, c->p.aad_len, c->p.aad, CB_TAG_LEN,
                               n, c->out, c->p.msg);
  else
    ccm_aes256_encrypt_message(&k->a256, c->p.iv_len, c->p.iv, c->p.aad_len, c->p.aad, CB_TAG_LEN,
                               n, c->out, c->p.msg);
  return 0;
}
static int ccm_open(oneshot_cell *c) {
  ccm_keys *k = c->ctx;
  size_t n = c->p.msg_len - CB_TAG_LEN;
  int ok = c->def->arg == 128
               ? ccm_aes128_decrypt_message(&k->a128, c->p.iv_len, c->p.iv, c->p.aad_len, c->p.aad,
                                            CB_TAG_LEN, n, c->out, c->p.msg)
               : ccm_aes256_decrypt_message(&k->a256, c->p.iv_len, c->p.iv, c->p.aad_len, c->p.aad,
                                            CB_TAG_LEN, n, c->out, c->p.msg);
  return ok ? 0 : (oneshot_fail(c, "tag mismatch"), CB_REJECTED);
}

/* ---- the catalogue ---- */

#define HASH(name, fn, size)                                                                       \
  { {name, {"hash"}, 0, 0, 0}, 0, 0, 0, size, NULL, {fn}, NULL }
#define AEAD(name, key, prefix)                                                                    \
  {                                                                                                \
    {name, {"seal", "open"}, 0, 0, 0}, key, 12, 0, 0, prefix##_setup,                              \
        {prefix##_seal, prefix##_open}, oneshot_free_ctx                                           \
  }

/* HKDF-SHA256: IKM = msg, salt = key, info = iv (hkdf_extract / hkdf_expand over hmac_sha256) */
static int hkdf(oneshot_cell *c) {
  if (c->out_len > ONESHOT_HKDF_MAX)
    return oneshot_fail(c, "HKDF output of %zu bytes (at most 8160)", c->out_len), CB_REJECTED;
  struct hmac_sha256_ctx h;
  uint8_t prk[SHA256_DIGEST_SIZE];
  hmac_sha256_set_key(&h, c->p.key_len, c->p.key);
  hkdf_extract(&h, (nettle_hash_update_func *)hmac_sha256_update,
               (nettle_hash_digest_func *)hmac_sha256_digest, SHA256_DIGEST_SIZE, c->p.msg_len,
               c->p.msg, prk);
  hmac_sha256_set_key(&h, sizeof prk, prk);
  hkdf_expand(&h, (nettle_hash_update_func *)hmac_sha256_update,
              (nettle_hash_digest_func *)hmac_sha256_digest, SHA256_DIGEST_SIZE, c->p.iv_len,
              c->p.iv, c->out_len, c->out);
  return 0;
}

const oneshot_alg oneshot_algs[] = {
    HASH("sha256", sha256, SHA256_DIGEST_SIZE),
    HASH("sha512", sha512, SHA512_DIGEST_SIZE),
    HASH("sha3-256", sha3_256, SHA3_256_DIGEST_SIZE),
    HASH("sha3-512", sha3_512, SHA3_512_DIGEST_SIZE),
    ONESHOT_HMAC_SHA256(hmac_setup, hmac, oneshot_free_ctx),
    ONESHOT_AES_CBC_ECB_CTR,
    AEAD("aes-128-gcm", 16, gcm128),
    AEAD("aes-256-gcm", 32, gcm256),
    AEAD("chacha20-poly1305", 32, chapo),
    ONESHOT_HKDF("hkdf-sha256", hkdf),
    {{"aes-128-ccm", {"seal", "open"}, 0, 0, 0},
     16,
     12,
     0,
     0,
     ccm_setup,
     {ccm_seal, ccm_open},
     oneshot_free_ctx,
     128},
    {{"aes-256-ccm", {"seal", "open"}, 0, 0, 0},
     32,
     12,
     0,
     0,
     ccm_setup,
     {ccm_seal, ccm_open},
     oneshot_free_ctx,
     256},
    ONESHOT_ED25519(ed_sign_setup, oneshot_free_ctx, 0, ed25519_keypair),
    ONESHOT_X25519(NULL, NULL, 0, x25519_keypair),
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "Nettle"; }
static const char *library_version(void) {
  static char v[32];
  snprintf(v, sizeof v, "%d.%d", nettle_version_major(), nettle_version_minor());
  return v;
}

static const cb_provider table =
    ONESHOT_TABLE("nettle", "c:nettle", "c", NULL, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
