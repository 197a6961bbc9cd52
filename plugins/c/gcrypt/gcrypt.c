/* c:libgcrypt — libgcrypt 1.10 as a cryptobench plugin, through its documented
 * API: gcry_md_hash_buffer for the hashes, gcry_mac (HMAC, keyed once per cell,
 * gcry_mac_reset per message), and one gcry_cipher handle per cell (key set
 * once; IV or counter, AAD and tag per message) for AES-CBC/CTR/GCM,
 * SM4-CBC/CTR and ChaCha20-Poly1305; Ed25519 through S-expressions and
 * gcry_pk_sign / gcry_pk_verify, X25519 and X448 through gcry_ecc_mul_point. */
#include <gcrypt.h>
#include <stdio.h>
#include <string.h>

#include "../common/oneshot.h"

#define CHECK(call) ONESHOT_CHECK(call, #call, gcry_error_t, 0, gcry_strerror)

static cb_status init(char *err, size_t errlen) {
  if (gcry_check_version(GCRYPT_VERSION) == NULL) {
    snprintf(err, errlen, "libgcrypt is older than the %s its headers say", GCRYPT_VERSION);
    return CB_ERROR;
  }
  gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
  return CB_OK;
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
  if (c->def->arg2 == GCRY_CIPHER_MODE_ECB)
    return 0;
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
/* CCM must be told the message, AAD and tag lengths before the AAD */
static int ccm_lengths(oneshot_cell *c, size_t n) {
  uint64_t lengths[3] = {n, c->p.aad_len, CB_TAG_LEN};
  return c->def->arg2 != GCRY_CIPHER_MODE_CCM
             ? 0
             : gcry_cipher_ctl(c->ctx, GCRYCTL_SET_CCM_LENGTHS, lengths, sizeof lengths);
}
static int seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  CHECK(set_iv(c));
  CHECK(ccm_lengths(c, n));
  CHECK(gcry_cipher_authenticate(c->ctx, c->p.aad, c->p.aad_len));
  CHECK(gcry_cipher_final(c->ctx));
  CHECK(gcry_cipher_encrypt(c->ctx, c->out, n, c->p.msg, n));
  CHECK(gcry_cipher_gettag(c->ctx, c->out + n, CB_TAG_LEN));
  return 0;
}
static int open_(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  CHECK(set_iv(c));
  CHECK(ccm_lengths(c, n));
  CHECK(gcry_cipher_authenticate(c->ctx, c->p.aad, c->p.aad_len));
  CHECK(gcry_cipher_final(c->ctx));
  CHECK(gcry_cipher_decrypt(c->ctx, c->out, n, c->p.msg, n));
  gcry_error_t e = gcry_cipher_checktag(c->ctx, c->p.msg + n, CB_TAG_LEN);
  if (gcry_err_code(e) == GPG_ERR_CHECKSUM)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  CHECK(e);
  return 0;
}

/* ---- Ed25519 through S-expressions (gcry_pk_sign / gcry_pk_verify); X25519 and X448 through
 * gcry_ecc_mul_point. Raw keys: the Ed25519 private key is the 32-byte seed ---- */

/* r || s of an eddsa sig-val into out */
static int eddsa_rs(oneshot_cell *c, gcry_sexp_t sig) {
  size_t off = 0;
  for (const char *name = "r"; *name; name = *name == 'r' ? "s" : "") {
    gcry_sexp_t t = gcry_sexp_find_token(sig, name, 0);
    size_t n = 0;
    const char *v = t != NULL ? gcry_sexp_nth_data(t, 1, &n) : NULL;
    if (v == NULL || n != 32 || off + n > c->out_len) {
      gcry_sexp_release(t);
      return oneshot_fail(c, "gcry_pk_sign: no 32-byte %s in the signature", name);
    }
    memcpy(c->out + off, v, n);
    off += n;
    gcry_sexp_release(t);
  }
  return 0;
}

/* the key S-expression, once per cell; NULL (run() answers rejected) when refused */
static int ed_setup(oneshot_cell *c) {
  gcry_sexp_t key = NULL;
  if (c->op == 0 && c->p.priv_len == 32)
    gcry_sexp_build(&key, NULL, "(private-key(ecc(curve Ed25519)(flags eddsa)(d %b)))", 32,
                    c->p.priv);
  else if (c->op == 1 && c->p.pub_len == 32)
    gcry_sexp_build(&key, NULL, "(public-key(ecc(curve Ed25519)(flags eddsa)(q %b)))", 32,
                    c->p.pub);
  c->ctx = key;
  return 0;
}
static void ed_cleanup(oneshot_cell *c) { gcry_sexp_release(c->ctx); }

/* libgcrypt's API takes the message as an S-expression: building it is part of every operation */
static int ed_data(oneshot_cell *c, gcry_sexp_t *data) {
  CHECK(gcry_sexp_build(data, NULL, "(data(flags eddsa)(hash-algo sha512)(value %b))",
                        (int)c->p.msg_len, c->p.msg));
  return 0;
}
static int ed_sign(oneshot_cell *c) {
  gcry_sexp_t data = NULL, sig = NULL;
  if (c->ctx == NULL)
    return oneshot_fail(c, "Ed25519 private key refused"), CB_REJECTED;
  if (ed_data(c, &data) != 0)
    return CB_FAIL;
  gcry_error_t e = gcry_pk_sign(&sig, data, c->ctx);
  int r = e == 0 ? eddsa_rs(c, sig) : oneshot_fail(c, "gcry_pk_sign: %s", gcry_strerror(e));
  gcry_sexp_release(data);
  gcry_sexp_release(sig);
  return r;
}
static int ed_verify(oneshot_cell *c) {
  gcry_sexp_t data = NULL, sig = NULL;
  if (c->ctx == NULL || c->p.sig_len != 64)
    return oneshot_fail(c, "Ed25519 key or signature refused"), CB_REJECTED;
  if (ed_data(c, &data) != 0)
    return CB_FAIL;
  gcry_error_t e =
      gcry_sexp_build(&sig, NULL, "(sig-val(eddsa(r %b)(s %b)))", 32, c->p.sig, 32, c->p.sig + 32);
  if (e == 0)
    e = gcry_pk_verify(sig, data, c->ctx);
  gcry_sexp_release(data);
  gcry_sexp_release(sig);
  if (e != 0)
    return oneshot_fail(c, "gcry_pk_verify: %s", gcry_strerror(e)), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}

/* X25519 / X448: arg = the gcry_ecc_curves id */
static int x_derive(oneshot_cell *c) {
  size_t n = gcry_ecc_get_algo_keylen(c->def->arg);
  if (c->p.priv_len != n || c->p.pub_len != n)
    return oneshot_fail(c, "keys of %zu and %zu bytes", c->p.priv_len, c->p.pub_len), CB_REJECTED;
  gcry_error_t e = gcry_ecc_mul_point(c->def->arg, c->out, c->p.priv, c->p.pub);
  if (e != 0)
    return oneshot_fail(c, "gcry_ecc_mul_point: %s", gcry_strerror(e)), CB_REJECTED;
  return 0;
}

/* key pairs: the private key from libgcrypt's generator (GCRY_STRONG_RANDOM), the public key
 * from it with the library's own call */
static int x_keypair(int curve, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                     char *err, size_t errlen) {
  size_t n = gcry_ecc_get_algo_keylen(curve);
  if (oneshot_alloc(priv, priv_len, n) != 0 || oneshot_alloc(pub, pub_len, n) != 0)
    return -1;
  gcry_randomize(*priv, n, GCRY_STRONG_RANDOM);
  gcry_error_t e = gcry_ecc_mul_point(curve, *pub, *priv, NULL); /* NULL: the base point */
  if (e != 0)
    snprintf(err, errlen, "gcry_ecc_mul_point: %s", gcry_strerror(e));
  return e == 0 ? 0 : -1;
}
static int x25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                          char *err, size_t errlen) {
  return x_keypair(GCRY_ECC_CURVE25519, pub, pub_len, priv, priv_len, err, errlen);
}
static int x448_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,
                        size_t errlen) {
  return x_keypair(GCRY_ECC_CURVE448, pub, pub_len, priv, priv_len, err, errlen);
}
static int ed25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                           char *err, size_t errlen) {
  gcry_sexp_t parms = NULL, key = NULL, q = NULL;
  gcry_error_t e = gcry_sexp_build(&parms, NULL, "(genkey(ecc(curve Ed25519)(flags eddsa)))");
  if (e == 0)
    e = gcry_pk_genkey(&key, parms);
  size_t nq = 0, nd = 0;
  const char *vq = NULL, *vd = NULL;
  gcry_sexp_t d = NULL;
  if (e == 0) {
    q = gcry_sexp_find_token(key, "q", 0);
    d = gcry_sexp_find_token(key, "d", 0);
    vq = q ? gcry_sexp_nth_data(q, 1, &nq) : NULL;
    vd = d ? gcry_sexp_nth_data(d, 1, &nd) : NULL;
  }
  /* q may carry the 0x40 prefix of libgcrypt's compact point encoding */
  if (vq != NULL && nq == 33 && vq[0] == 0x40)
    vq++, nq--;
  int ok = vq != NULL && vd != NULL && nq == 32 && nd == 32 &&
           oneshot_alloc(pub, pub_len, 32) == 0 && oneshot_alloc(priv, priv_len, 32) == 0;
  if (ok) {
    memcpy(*pub, vq, 32);
    memcpy(*priv, vd, 32);
  } else
    snprintf(err, errlen, "gcry_pk_genkey(Ed25519): %s", e ? gcry_strerror(e) : "no 32-byte q, d");
  gcry_sexp_release(parms);
  gcry_sexp_release(key);
  gcry_sexp_release(q);
  gcry_sexp_release(d);
  return ok ? 0 : -1;
}

#define HASH(name, algo, size)                                                                     \
  { {name, {"hash"}, 0, 0, 0}, 0, 0, 0, size, NULL, {hash}, NULL, algo, 0 }
#define ECB(name, key, algo)                                                                       \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}}, key, 0, 16, 0, cipher_setup, {encrypt, decrypt},               \
        cipher_cleanup, algo, GCRY_CIPHER_MODE_ECB                                                 \
  }
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
    ONESHOT_HASHES(HASH, GCRY_MD_SHA256, GCRY_MD_SHA512, GCRY_MD_SHA3_256, GCRY_MD_SHA3_512,
                   GCRY_MD_BLAKE2B_512, GCRY_MD_BLAKE2S_256),
    HASH("sm3", GCRY_MD_SM3, 32),
    ONESHOT_HMAC_SHA256(hmac_setup, hmac, hmac_cleanup),
    CIPHER("aes-128-cbc", 16, 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CBC),
    CIPHER("aes-256-cbc", 32, 16, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CBC),
    ECB("aes-128-ecb", 16, GCRY_CIPHER_AES128),
    ECB("aes-256-ecb", 32, GCRY_CIPHER_AES256),
    ECB("sm4-ecb", 16, GCRY_CIPHER_SM4),
    CIPHER("aes-128-ctr", 16, 0, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CTR),
    CIPHER("aes-256-ctr", 32, 0, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CTR),
    CIPHER("sm4-cbc", 16, 16, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC),
    CIPHER("sm4-ctr", 16, 0, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CTR),
    AEAD("aes-128-gcm", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM),
    AEAD("aes-256-gcm", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM),
    AEAD("chacha20-poly1305", 32, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305),
    AEAD("aes-128-ccm", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CCM),
    AEAD("aes-256-ccm", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CCM),
    AEAD("sm4-gcm", 16, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_GCM),
    ONESHOT_ED25519(ed_setup, ed_cleanup, 0, ed25519_keypair),
    ONESHOT_X25519(NULL, NULL, GCRY_ECC_CURVE25519, x25519_keypair),
    {{"x448", {"derive"}, 0, 1, 0},
     0,
     0,
     0,
     56,
     NULL,
     {x_derive},
     NULL,
     GCRY_ECC_CURVE448,
     0,
     x448_keypair},
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "libgcrypt"; }
static const char *library_version(void) { return gcry_check_version(NULL); }

static const cb_provider table =
    ONESHOT_TABLE("libgcrypt", "c:libgcrypt", "c", init, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
