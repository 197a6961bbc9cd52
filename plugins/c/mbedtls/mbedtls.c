/* c:mbedtls — Mbed TLS 2.28 (libmbedcrypto) as a cryptobench plugin, through
 * its documented API: mbedtls_sha256_ret / mbedtls_sha512_ret, HMAC through
 * mbedtls_md (keyed once per cell, reset per message), mbedtls_aes_crypt_cbc /
 * _ctr, mbedtls_gcm and mbedtls_chachapoly; ECDSA and ECDH on P-256 and X25519
 * through mbedtls_ecdsa / mbedtls_ecdh / mbedtls_pk. Mbed TLS 2.28 has no SHA-3
 * and no Ed25519. */
#include <mbedtls/aes.h>
#include <mbedtls/asn1write.h>
#include <mbedtls/ccm.h>
#include <mbedtls/chachapoly.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/ecdh.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/entropy.h>
#include <mbedtls/gcm.h>
#include <mbedtls/hkdf.h>
#include <mbedtls/md.h>
#include <mbedtls/oid.h>
#include <mbedtls/pk.h>
#include <mbedtls/rsa.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include <mbedtls/version.h>
#include <stdio.h>
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
ONESHOT_CLEANUP(hmac_cleanup, mbedtls_md_free(c->ctx))

/* ---- AES-CBC and AES-CTR: both key schedules once, the IV copied per message
 * ---- */

typedef struct aes_keys {
  mbedtls_aes_context enc, dec;
} aes_keys;

static int aes_setup(oneshot_cell *c) {
  ONESHOT_STATE(aes_keys, k);
  mbedtls_aes_init(&k->enc);
  mbedtls_aes_init(&k->dec);
  unsigned bits = (unsigned)c->p.key_len * 8;
  if (mbedtls_aes_setkey_enc(&k->enc, c->p.key, bits) != 0 ||
      mbedtls_aes_setkey_dec(&k->dec, c->p.key, bits) != 0)
    return oneshot_fail(c, "mbedtls_aes_setkey failed");
  return 0;
}
ONESHOT_CLEANUP_PAIR(aes_cleanup, aes_keys, mbedtls_aes_free, enc, dec)

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

/* ECB: mbedtls_aes_crypt_ecb is one block per call */
static int ecb(oneshot_cell *c, int mode) {
  aes_keys *k = c->ctx;
  mbedtls_aes_context *ctx = mode == MBEDTLS_AES_ENCRYPT ? &k->enc : &k->dec;
  for (size_t i = 0; i < c->p.msg_len; i += 16)
    if (mbedtls_aes_crypt_ecb(ctx, mode, c->p.msg + i, c->out + i) != 0)
      return oneshot_fail(c, "mbedtls_aes_crypt_ecb failed");
  return 0;
}
static int ecb_enc(oneshot_cell *c) { return ecb(c, MBEDTLS_AES_ENCRYPT); }
static int ecb_dec(oneshot_cell *c) { return ecb(c, MBEDTLS_AES_DECRYPT); }

static int ctr(oneshot_cell *c) { /* the whole 16-byte block is the big-endian counter */
  aes_keys *k = c->ctx;
  unsigned char counter[16], block[16];
  size_t off = 0;
  memcpy(counter, c->p.iv, sizeof counter);
  int r = mbedtls_aes_crypt_ctr(&k->enc, c->p.msg_len, &off, counter, block, c->p.msg, c->out);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_aes_crypt_ctr: -0x%04x", (unsigned)-r);
}

/* ---- the AEADs: a context keyed once per cell (mbedtls_<X>_context, _init, _setkey with the
 * arguments given after the cell's context), freed by the cleanup ---- */
#define AEAD_CONTEXT(prefix, X, ...)                                                               \
  static int prefix##_setup(oneshot_cell *c) {                                                     \
    if (oneshot_ctx(c, sizeof(mbedtls_##X##_context)) != 0)                                        \
      return CB_FAIL;                                                                              \
    mbedtls_##X##_init(c->ctx);                                                                    \
    if (mbedtls_##X##_setkey(c->ctx, __VA_ARGS__) != 0)                                            \
      return oneshot_fail(c, "mbedtls_" #X "_setkey failed");                                      \
    return 0;                                                                                      \
  }                                                                                                \
  ONESHOT_CLEANUP(prefix##_cleanup, mbedtls_##X##_free(c->ctx))

/* ---- AES-GCM ---- */

AEAD_CONTEXT(gcm, gcm, MBEDTLS_CIPHER_ID_AES, c->p.key, (unsigned)c->p.key_len * 8)
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

/* ---- AES-CCM, 16-byte tag ---- */

AEAD_CONTEXT(ccm, ccm, MBEDTLS_CIPHER_ID_AES, c->p.key, (unsigned)c->p.key_len * 8)
static int ccm_seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  int r = mbedtls_ccm_encrypt_and_tag(c->ctx, n, c->p.iv, c->p.iv_len, c->p.aad, c->p.aad_len,
                                      c->p.msg, c->out, c->out + n, CB_TAG_LEN);
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_ccm_encrypt_and_tag: -0x%04x", (unsigned)-r);
}
static int ccm_open(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  int r = mbedtls_ccm_auth_decrypt(c->ctx, n, c->p.iv, c->p.iv_len, c->p.aad, c->p.aad_len,
                                   c->p.msg, c->out, c->p.msg + n, CB_TAG_LEN);
  if (r == MBEDTLS_ERR_CCM_AUTH_FAILED)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_ccm_auth_decrypt: -0x%04x", (unsigned)-r);
}

/* ---- ChaCha20-Poly1305 ---- */

AEAD_CONTEXT(chapo, chachapoly, c->p.key)
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

/* ---- ECDSA P-256, ECDH P-256, X25519 (mbedtls_ecdsa / mbedtls_ecdh / mbedtls_pk) ---- */

/* one generator for signing (blinding), ECDH and key pairs: CTR_DRBG over mbedtls_entropy */
static mbedtls_entropy_context entropy;
static mbedtls_ctr_drbg_context drbg;

static cb_status init(char *err, size_t errlen) {
  mbedtls_entropy_init(&entropy);
  mbedtls_ctr_drbg_init(&drbg);
  int r = mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &entropy,
                                (const unsigned char *)"cryptobench", 11);
  if (r != 0)
    snprintf(err, errlen, "mbedtls_ctr_drbg_seed: -0x%04x", (unsigned)-r);
  return r == 0 ? CB_OK : CB_ERROR;
}

/* a cell's key material: the private key (d, with its group) and the public key (Q) */
typedef struct ec_state {
  mbedtls_ecp_keypair key; /* grp, d (sign, derive) */
  mbedtls_pk_context pk;   /* the parsed SubjectPublicKeyInfo (verify, ECDH's peer) */
  mbedtls_ecp_point peer;  /* X25519's peer point */
  mbedtls_mpi z;           /* the shared secret */
  int ok;                  /* the library accepted the key material */
} ec_state;

/* arg = the curve (mbedtls_ecp_group_id); the field size in bytes */
static size_t field_len(const mbedtls_ecp_group *grp) { return (grp->pbits + 7) / 8; }

static int ec_setup(oneshot_cell *c) {
  ONESHOT_STATE(ec_state, s);
  mbedtls_ecp_keypair_init(&s->key);
  mbedtls_pk_init(&s->pk);
  mbedtls_ecp_point_init(&s->peer);
  mbedtls_mpi_init(&s->z);
  mbedtls_ecp_group_id id = (mbedtls_ecp_group_id)c->def->arg;
  if (mbedtls_ecp_group_load(&s->key.grp, id) != 0)
    return oneshot_fail(c, "mbedtls_ecp_group_load failed");
  size_t n = field_len(&s->key.grp);
  int ok = 1;
  if (c->p.priv != NULL) {
    if (id == MBEDTLS_ECP_DP_CURVE25519) {
      /* decodeScalar25519 (RFC 7748 section 5): mbedtls wants the scalar already clamped */
      uint8_t k[32];
      if ((ok = c->p.priv_len == 32)) {
        memcpy(k, c->p.priv, 32);
        k[0] &= 248, k[31] &= 127, k[31] |= 64;
        ok = mbedtls_mpi_read_binary_le(&s->key.d, k, 32) == 0;
      }
    } else {
      ok = c->p.priv_len == n && mbedtls_mpi_read_binary(&s->key.d, c->p.priv, n) == 0 &&
           mbedtls_ecp_check_privkey(&s->key.grp, &s->key.d) == 0;
    }
  }
  if (ok && c->p.pub != NULL) {
    if (id == MBEDTLS_ECP_DP_CURVE25519)
      ok = c->p.pub_len == 32 &&
           mbedtls_ecp_point_read_binary(&s->key.grp, &s->peer, c->p.pub, 32) == 0;
    else
      ok = mbedtls_pk_parse_public_key(&s->pk, c->p.pub, c->p.pub_len) == 0 &&
           mbedtls_pk_get_type(&s->pk) == MBEDTLS_PK_ECKEY && mbedtls_pk_ec(s->pk)->grp.id == id;
  }
  s->ok = ok;
  return 0;
}
static void ec_cleanup(oneshot_cell *c) {
  ec_state *s = c->ctx;
  if (s != NULL) {
    mbedtls_ecp_keypair_free(&s->key);
    mbedtls_pk_free(&s->pk);
    mbedtls_ecp_point_free(&s->peer);
    mbedtls_mpi_free(&s->z);
  }
  oneshot_free_ctx(c);
}
#define EC_REFUSED(c) (oneshot_fail(c, "key material refused"), CB_REJECTED)

/* the message's hash, inside the operation: SHA-384 for P-384, SHA-256 for the others */
static int ec_hash(oneshot_cell *c, unsigned char hash[64], size_t *len, mbedtls_md_type_t *md) {
  int p384 = c->def->arg == MBEDTLS_ECP_DP_SECP384R1;
  *len = p384 ? 48 : 32;
  *md = p384 ? MBEDTLS_MD_SHA384 : MBEDTLS_MD_SHA256;
  return p384 ? mbedtls_sha512_ret(c->p.msg, c->p.msg_len, hash, 1)
              : mbedtls_sha256_ret(c->p.msg, c->p.msg_len, hash, 0);
}
static int ecdsa_sign(oneshot_cell *c) {
  ec_state *s = c->ctx;
  unsigned char hash[64]; /* mbedtls_sha512_ret writes into a 64-byte array type */
  size_t n = 0, hlen;
  mbedtls_md_type_t md;
  if (!s->ok)
    return EC_REFUSED(c);
  int r = ec_hash(c, hash, &hlen, &md);
  if (r == 0)
    r = mbedtls_ecdsa_write_signature(&s->key, md, hash, hlen, c->out, &n, mbedtls_ctr_drbg_random,
                                      &drbg);
  c->out_len = n; /* DER */
  return r == 0 ? 0 : oneshot_fail(c, "mbedtls_ecdsa_write_signature: -0x%04x", (unsigned)-r);
}
static int ecdsa_verify(oneshot_cell *c) {
  ec_state *s = c->ctx;
  unsigned char hash[64]; /* mbedtls_sha512_ret writes into a 64-byte array type */
  size_t hlen;
  mbedtls_md_type_t md;
  if (!s->ok)
    return EC_REFUSED(c);
  if (ec_hash(c, hash, &hlen, &md) != 0 ||
      mbedtls_pk_verify(&s->pk, md, hash, hlen, c->p.sig, c->p.sig_len) != 0)
    return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}
static int ecdh_derive(oneshot_cell *c) {
  ec_state *s = c->ctx;
  if (!s->ok)
    return EC_REFUSED(c);
  int x = c->def->arg == MBEDTLS_ECP_DP_CURVE25519;
  const mbedtls_ecp_point *peer = x ? &s->peer : &mbedtls_pk_ec(s->pk)->Q;
  size_t n = field_len(&s->key.grp);
  int r = mbedtls_ecdh_compute_shared(&s->key.grp, &s->z, peer, &s->key.d, mbedtls_ctr_drbg_random,
                                      &drbg);
  if (r == 0)
    r = x ? mbedtls_mpi_write_binary_le(&s->z, c->out, n)
          : mbedtls_mpi_write_binary(&s->z, c->out, n);
  c->out_len = n;
  return r == 0
             ? 0
             : (oneshot_fail(c, "mbedtls_ecdh_compute_shared: -0x%04x", (unsigned)-r), CB_REJECTED);
}

/* key pairs from mbedtls_ecp_gen_key: NIST / SEC curves as scalar + SubjectPublicKeyInfo,
 * X25519 raw */
static int ec_keypair(mbedtls_ecp_group_id id, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                      size_t *priv_len, char *err, size_t errlen) {
  mbedtls_pk_context pk;
  unsigned char der[200];
  int x = id == MBEDTLS_ECP_DP_CURVE25519;
  mbedtls_pk_init(&pk);
  int r = mbedtls_pk_setup(&pk, mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY));
  mbedtls_ecp_keypair *k = mbedtls_pk_ec(pk);
  if (r == 0)
    r = mbedtls_ecp_gen_key(id, k, mbedtls_ctr_drbg_random, &drbg);
  size_t f = r == 0 ? field_len(&k->grp) : 0;
  int n = (int)f;
  if (r == 0 && !x && (n = mbedtls_pk_write_pubkey_der(&pk, der, sizeof der)) < 0)
    r = n;
  if (r == 0 &&
      (oneshot_alloc(priv, priv_len, f) != 0 || oneshot_alloc(pub, pub_len, (size_t)n) != 0))
    r = -1;
  if (r == 0)
    r = x ? mbedtls_mpi_write_binary_le(&k->d, *priv, f)
          : mbedtls_mpi_write_binary(&k->d, *priv, f);
  if (r == 0 && x)
    r = mbedtls_mpi_write_binary_le(&k->Q.X, *pub, f);
  else if (r == 0)
    memcpy(*pub, der + sizeof der - n, (size_t)n); /* mbedtls writes DER at the end of the buffer */
  mbedtls_pk_free(&pk);
  if (r != 0)
    snprintf(err, errlen, "mbedtls key pair: -0x%04x", (unsigned)-r);
  return r == 0 ? 0 : -1;
}
ONESHOT_KEYPAIR(p256_keypair, ec_keypair, MBEDTLS_ECP_DP_SECP256R1)
ONESHOT_KEYPAIR(p384_keypair, ec_keypair, MBEDTLS_ECP_DP_SECP384R1)
ONESHOT_KEYPAIR(k256_keypair, ec_keypair, MBEDTLS_ECP_DP_SECP256K1)
ONESHOT_KEYPAIR(x25519_keypair, ec_keypair, MBEDTLS_ECP_DP_CURVE25519)

/* ---- RSA: PSS, PKCS#1 v1.5 (SHA-256) and OAEP (SHA-256, MGF1-SHA-256, no label) ----
 * Keys: SubjectPublicKeyInfo and PKCS#8 DER through mbedtls_pk_parse_*; arg = modulus bits,
 * arg2 = the scheme. */

typedef struct rsa_state {
  mbedtls_pk_context pk;
  int ok;
} rsa_state;

static int rsa_setup(oneshot_cell *c) {
  ONESHOT_STATE(rsa_state, s);
  mbedtls_pk_init(&s->pk);
  int r = c->p.priv != NULL ? mbedtls_pk_parse_key(&s->pk, c->p.priv, c->p.priv_len, NULL, 0)
                            : mbedtls_pk_parse_public_key(&s->pk, c->p.pub, c->p.pub_len);
  s->ok = r == 0 && mbedtls_pk_get_type(&s->pk) == MBEDTLS_PK_RSA &&
          mbedtls_pk_get_bitlen(&s->pk) == (size_t)c->def->arg;
  if (s->ok) {
    int pss = c->def->arg2 != ONESHOT_RSA_PKCS1;
    mbedtls_rsa_set_padding(mbedtls_pk_rsa(s->pk),
                            pss ? MBEDTLS_RSA_PKCS_V21 : MBEDTLS_RSA_PKCS_V15,
                            pss ? MBEDTLS_MD_SHA256 : MBEDTLS_MD_NONE);
  }
  return 0;
}
ONESHOT_CLEANUP(rsa_cleanup, mbedtls_pk_free(&((rsa_state *)c->ctx)->pk))

/* sign: the SHA-256 of the message, then the scheme's padding; salt = 32 bytes (the hash size) */
static int rsa_sign(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  unsigned char hash[32];
  if (!s->ok)
    return oneshot_fail(c, "private key refused"), CB_REJECTED;
  mbedtls_rsa_context *rsa = mbedtls_pk_rsa(s->pk);
  int r = mbedtls_sha256_ret(c->p.msg, c->p.msg_len, hash, 0);
  if (r == 0 && c->def->arg2 == ONESHOT_RSA_PSS)
    r = mbedtls_rsa_rsassa_pss_sign(rsa, mbedtls_ctr_drbg_random, &drbg, MBEDTLS_RSA_PRIVATE,
                                    MBEDTLS_MD_SHA256, 32, hash, c->out);
  else if (r == 0)
    r = mbedtls_rsa_rsassa_pkcs1_v15_sign(rsa, mbedtls_ctr_drbg_random, &drbg, MBEDTLS_RSA_PRIVATE,
                                          MBEDTLS_MD_SHA256, 32, hash, c->out);
  c->out_len = mbedtls_rsa_get_len(rsa);
  return r == 0 ? 0 : oneshot_fail(c, "RSA sign: -0x%04x", (unsigned)-r);
}
static int rsa_verify(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  unsigned char hash[32];
  if (!s->ok || c->p.sig_len != mbedtls_rsa_get_len(mbedtls_pk_rsa(s->pk)))
    return oneshot_fail(c, "key or signature length refused"), CB_REJECTED;
  mbedtls_rsa_context *rsa = mbedtls_pk_rsa(s->pk);
  int r = mbedtls_sha256_ret(c->p.msg, c->p.msg_len, hash, 0);
  if (r == 0 && c->def->arg2 == ONESHOT_RSA_PSS)
    r = mbedtls_rsa_rsassa_pss_verify_ext(rsa, NULL, NULL, MBEDTLS_RSA_PUBLIC, MBEDTLS_MD_SHA256,
                                          32, hash, MBEDTLS_MD_SHA256, 32, c->p.sig);
  else if (r == 0)
    r = mbedtls_rsa_rsassa_pkcs1_v15_verify(rsa, NULL, NULL, MBEDTLS_RSA_PUBLIC, MBEDTLS_MD_SHA256,
                                            32, hash, c->p.sig);
  if (r != 0)
    return oneshot_fail(c, "signature does not verify: -0x%04x", (unsigned)-r), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}
static int oaep_encrypt(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  if (!s->ok)
    return oneshot_fail(c, "public key refused"), CB_REJECTED;
  mbedtls_rsa_context *rsa = mbedtls_pk_rsa(s->pk);
  int r = mbedtls_rsa_rsaes_oaep_encrypt(rsa, mbedtls_ctr_drbg_random, &drbg, MBEDTLS_RSA_PUBLIC,
                                         NULL, 0, c->p.msg_len, c->p.msg, c->out);
  c->out_len = mbedtls_rsa_get_len(rsa);
  return r == 0 ? 0 : (oneshot_fail(c, "OAEP encrypt: -0x%04x", (unsigned)-r), CB_REJECTED);
}
static int oaep_decrypt(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  size_t n = 0;
  if (!s->ok || c->p.msg_len != mbedtls_rsa_get_len(mbedtls_pk_rsa(s->pk)))
    return oneshot_fail(c, "key or ciphertext length refused"), CB_REJECTED;
  int r = mbedtls_rsa_rsaes_oaep_decrypt(mbedtls_pk_rsa(s->pk), mbedtls_ctr_drbg_random, &drbg,
                                         MBEDTLS_RSA_PRIVATE, NULL, 0, &n, c->p.msg, c->out,
                                         c->def->out_len);
  c->out_len = n;
  return r == 0 ? 0 : (oneshot_fail(c, "OAEP decrypt: -0x%04x", (unsigned)-r), CB_REJECTED);
}

/* mbedtls_pk_write_key_der writes PKCS#1; the protocol's private key is PKCS#8: wrapped here with
 * the library's own ASN.1 writer (version 0, rsaEncryption, the PKCS#1 key as an OCTET STRING) */
static int pkcs8_wrap(const unsigned char *pkcs1, size_t n, uint8_t **out, size_t *out_len) {
  unsigned char buf[4096], *p = buf + sizeof buf;
  int len = 0, r;
#define W(call)                                                                                    \
  if ((r = (call)) < 0)                                                                            \
    return r;                                                                                      \
  len += r
  W(mbedtls_asn1_write_raw_buffer(&p, buf, pkcs1, n));
  W(mbedtls_asn1_write_len(&p, buf, n));
  W(mbedtls_asn1_write_tag(&p, buf, MBEDTLS_ASN1_OCTET_STRING));
  W(mbedtls_asn1_write_algorithm_identifier(&p, buf, MBEDTLS_OID_PKCS1_RSA,
                                            MBEDTLS_OID_SIZE(MBEDTLS_OID_PKCS1_RSA), 0));
  W(mbedtls_asn1_write_int(&p, buf, 0));
  W(mbedtls_asn1_write_len(&p, buf, (size_t)len));
  W(mbedtls_asn1_write_tag(&p, buf, MBEDTLS_ASN1_CONSTRUCTED | MBEDTLS_ASN1_SEQUENCE));
#undef W
  if (oneshot_alloc(out, out_len, (size_t)len) != 0)
    return -1;
  memcpy(*out, p, (size_t)len);
  return 0;
}

static int rsa_keypair(unsigned bits, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                       size_t *priv_len, char *err, size_t errlen) {
  mbedtls_pk_context pk;
  unsigned char der[4096];
  mbedtls_pk_init(&pk);
  int n = 0, r = mbedtls_pk_setup(&pk, mbedtls_pk_info_from_type(MBEDTLS_PK_RSA));
  if (r == 0)
    r = mbedtls_rsa_gen_key(mbedtls_pk_rsa(pk), mbedtls_ctr_drbg_random, &drbg, bits, 65537);
  if (r == 0 && (n = mbedtls_pk_write_key_der(&pk, der, sizeof der)) < 0)
    r = n;
  if (r == 0)
    r = pkcs8_wrap(der + sizeof der - n, (size_t)n, priv, priv_len);
  if (r == 0 && (n = mbedtls_pk_write_pubkey_der(&pk, der, sizeof der)) < 0)
    r = n;
  if (r == 0 && (r = oneshot_alloc(pub, pub_len, (size_t)n)) == 0)
    memcpy(*pub, der + sizeof der - n, (size_t)n);
  mbedtls_pk_free(&pk);
  if (r != 0)
    snprintf(err, errlen, "mbedtls RSA key pair: -0x%04x", (unsigned)-r);
  return r == 0 ? 0 : -1;
}
ONESHOT_RSA_KEYPAIRS

#define AEAD(name, key, prefix)                                                                    \
  {                                                                                                \
    {name, {"seal", "open"}, 0, 0, 0}, key, 12, 0, 0, prefix##_setup,                              \
        {prefix##_seal, prefix##_open}, prefix##_cleanup                                           \
  }

/* HKDF-SHA256: IKM = msg, salt = key, info = iv */
static int hkdf(oneshot_cell *c) {
  if (c->out_len > ONESHOT_HKDF_MAX)
    return oneshot_fail(c, "HKDF output of %zu bytes (at most 8160)", c->out_len), CB_REJECTED;
  int r = mbedtls_hkdf(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), c->p.key, c->p.key_len,
                       c->p.msg, c->p.msg_len, c->p.iv, c->p.iv_len, c->out, c->out_len);
  return r == 0 ? 0 : (oneshot_fail(c, "mbedtls_hkdf: -0x%04x", (unsigned)-r), CB_REJECTED);
}

const oneshot_alg oneshot_algs[] = {
    {{"sha256", {"hash"}, 0, 0, 0}, 0, 0, 0, 32, NULL, {sha256}, NULL},
    {{"sha512", {"hash"}, 0, 0, 0}, 0, 0, 0, 64, NULL, {sha512}, NULL},
    ONESHOT_HMAC_SHA256(hmac_setup, hmac, hmac_cleanup),
    ONESHOT_AES_CBC_ECB_CTR,
    AEAD("aes-128-gcm", 16, gcm),
    AEAD("aes-256-gcm", 32, gcm),
    AEAD("chacha20-poly1305", 32, chapo),
    ONESHOT_HKDF("hkdf-sha256", hkdf),
    AEAD("aes-128-ccm", 16, ccm),
    AEAD("aes-256-ccm", 32, ccm),
    ONESHOT_ECDSA("ecdsa-p256", MBEDTLS_ECP_DP_SECP256R1, p256_keypair),
    ONESHOT_ECDSA("ecdsa-p384", MBEDTLS_ECP_DP_SECP384R1, p384_keypair),
    ONESHOT_ECDSA("ecdsa-secp256k1", MBEDTLS_ECP_DP_SECP256K1, k256_keypair),
    ONESHOT_ECDH("ecdh-p256", MBEDTLS_ECP_DP_SECP256R1, p256_keypair),
    ONESHOT_ECDH("ecdh-p384", MBEDTLS_ECP_DP_SECP384R1, p384_keypair),
    ONESHOT_ECDH("ecdh-secp256k1", MBEDTLS_ECP_DP_SECP256K1, k256_keypair),
    ONESHOT_ECDH("x25519", MBEDTLS_ECP_DP_CURVE25519, x25519_keypair),
    ONESHOT_RSA_ALGS,
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "Mbed TLS"; }
static const char *library_version(void) {
  static char v[18];
  mbedtls_version_get_string(v);
  return v;
}

static const cb_provider table =
    ONESHOT_TABLE("mbedtls", "c:mbedtls", "c", init, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
