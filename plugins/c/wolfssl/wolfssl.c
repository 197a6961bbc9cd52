/* c:wolfssl — wolfSSL 5.5's wolfCrypt as a cryptobench plugin, through its
 * documented API: wc_Sha256Hash / wc_Sha512Hash / wc_Sha3_*Hash, wc_Hmac (keyed
 * once per cell; wc_HmacFinal leaves it keyed), wc_AesCbc* / wc_AesCtrEncrypt
 * (IV set per message with wc_AesSetIV), wc_AesGcm* and wc_ChaCha20Poly1305_*
 * (which takes the key with every message: that is its API). */
#include <wolfssl/options.h>

#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/asn.h>
#include <wolfssl/wolfcrypt/asn_public.h>
#include <wolfssl/wolfcrypt/blake2.h>
#include <wolfssl/wolfcrypt/chacha20_poly1305.h>
#include <wolfssl/wolfcrypt/curve25519.h>
#include <wolfssl/wolfcrypt/ecc.h>
#include <wolfssl/wolfcrypt/ed25519.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/hmac.h>
#include <wolfssl/wolfcrypt/random.h>
#include <wolfssl/wolfcrypt/rsa.h>
#include <wolfssl/wolfcrypt/sha256.h>
#include <wolfssl/wolfcrypt/sha3.h>
#include <wolfssl/wolfcrypt/sha512.h>

#include "../common/oneshot.h"
#include "../common/tls_plugin.h"

#define CHECK(call) ONESHOT_CHECK(call, #call, int, 0, wc_GetErrorString)

#define N(x) ((word32)(x))

/* SHA-2 and SHA-3: wolfSSL's one-call hashes (message, length, digest) */
#define ONE_CALL_HASH(fn, HASH_FN)                                                                 \
  static int fn(oneshot_cell *c) {                                                                 \
    CHECK(HASH_FN(c->p.msg, N(c->p.msg_len), c->out));                                             \
    return 0;                                                                                      \
  }
ONE_CALL_HASH(sha256, wc_Sha256Hash)
ONE_CALL_HASH(sha512, wc_Sha512Hash)
ONE_CALL_HASH(sha3_256, wc_Sha3_256Hash)
ONE_CALL_HASH(sha3_512, wc_Sha3_512Hash)

/* BLAKE2b and BLAKE2s (wolfSSL's Blake2b / Blake2s, the same calls): a state of SIZE-byte output,
 * the message, the digest */
#define BLAKE2(fn, B, SIZE)                                                                        \
  static int fn(oneshot_cell *c) {                                                                 \
    B b;                                                                                           \
    CHECK(wc_Init##B(&b, SIZE));                                                                   \
    CHECK(wc_##B##Update(&b, c->p.msg, N(c->p.msg_len)));                                          \
    CHECK(wc_##B##Final(&b, c->out, SIZE));                                                        \
    return 0;                                                                                      \
  }
BLAKE2(blake2b_512, Blake2b, 64)
BLAKE2(blake2s_256, Blake2s, 32)

static int hmac_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(Hmac)) != 0)
    return CB_FAIL;
  CHECK(wc_HmacInit(c->ctx, NULL, INVALID_DEVID));
  CHECK(wc_HmacSetKey(c->ctx, WC_SHA256, c->p.key, N(c->p.key_len)));
  return 0;
}
static int hmac(oneshot_cell *c) {
  CHECK(wc_HmacUpdate(c->ctx, c->p.msg, N(c->p.msg_len)));
  CHECK(wc_HmacFinal(c->ctx, c->out));
  return 0;
}
ONESHOT_CLEANUP(hmac_cleanup, wc_HmacFree(c->ctx))

/* ---- AES: an encryption and a decryption key schedule, once per cell; GCM and CCM (arg
 * AES_GCM, AES_CCM) have their own key set-up, into enc ---- */

typedef struct aes_keys {
  Aes enc, dec;
} aes_keys;
enum { AES_BLOCK_MODE, AES_GCM, AES_CCM };

static int aes_setup(oneshot_cell *c) {
  ONESHOT_STATE(aes_keys, k);
  CHECK(wc_AesInit(&k->enc, NULL, INVALID_DEVID));
  CHECK(wc_AesInit(&k->dec, NULL, INVALID_DEVID));
  if (c->def->arg == AES_GCM)
    CHECK(wc_AesGcmSetKey(&k->enc, c->p.key, N(c->p.key_len)));
  else if (c->def->arg == AES_CCM)
    CHECK(wc_AesCcmSetKey(&k->enc, c->p.key, N(c->p.key_len)));
  else {
    CHECK(wc_AesSetKey(&k->enc, c->p.key, N(c->p.key_len), c->p.iv, AES_ENCRYPTION));
    CHECK(wc_AesSetKey(&k->dec, c->p.key, N(c->p.key_len), c->p.iv, AES_DECRYPTION));
  }
  return 0;
}
ONESHOT_CLEANUP_PAIR(aes_cleanup, aes_keys, wc_AesFree, enc, dec)

static int cbc_enc(oneshot_cell *c) {
  aes_keys *k = c->ctx;
  CHECK(wc_AesSetIV(&k->enc, c->p.iv));
  CHECK(wc_AesCbcEncrypt(&k->enc, c->out, c->p.msg, N(c->p.msg_len)));
  return 0;
}
static int cbc_dec(oneshot_cell *c) {
  aes_keys *k = c->ctx;
  CHECK(wc_AesSetIV(&k->dec, c->p.iv));
  CHECK(wc_AesCbcDecrypt(&k->dec, c->out, c->p.msg, N(c->p.msg_len)));
  return 0;
}
static int ecb_enc(oneshot_cell *c) {
  CHECK(wc_AesEcbEncrypt(&((aes_keys *)c->ctx)->enc, c->out, c->p.msg, N(c->p.msg_len)));
  return 0;
}
static int ecb_dec(oneshot_cell *c) {
  CHECK(wc_AesEcbDecrypt(&((aes_keys *)c->ctx)->dec, c->out, c->p.msg, N(c->p.msg_len)));
  return 0;
}

static int ctr(oneshot_cell *c) { /* wc_AesSetIV also drops the previous
                                     message's key stream */
  aes_keys *k = c->ctx;
  CHECK(wc_AesSetIV(&k->enc, c->p.iv));
  CHECK(wc_AesCtrEncrypt(&k->enc, c->out, c->p.msg, N(c->p.msg_len)));
  return 0;
}

/* AES-GCM and AES-CCM seal and open: wolfSSL gives the two modes the same calls' shape, and each
 * its own tag-mismatch code */
#define AES_AEAD(SEAL, OPEN, ENCRYPT, DECRYPT, AUTH_E)                                             \
  static int SEAL(oneshot_cell *c) {                                                               \
    aes_keys *k = c->ctx;                                                                          \
    size_t n = c->p.msg_len;                                                                       \
    CHECK(ENCRYPT(&k->enc, c->out, c->p.msg, N(n), c->p.iv, N(c->p.iv_len), c->out + n,            \
                  CB_TAG_LEN, c->p.aad, N(c->p.aad_len)));                                         \
    return 0;                                                                                      \
  }                                                                                                \
  static int OPEN(oneshot_cell *c) {                                                               \
    aes_keys *k = c->ctx;                                                                          \
    size_t n = c->p.msg_len - CB_TAG_LEN;                                                          \
    int r = DECRYPT(&k->enc, c->out, c->p.msg, N(n), c->p.iv, N(c->p.iv_len), c->p.msg + n,        \
                    CB_TAG_LEN, c->p.aad, N(c->p.aad_len));                                        \
    if (r == AUTH_E)                                                                               \
      return oneshot_fail(c, "tag mismatch"), CB_REJECTED;                                         \
    return r == 0 ? 0 : oneshot_fail(c, #DECRYPT ": %s", wc_GetErrorString(r));                    \
  }
AES_AEAD(gcm_seal, gcm_open, wc_AesGcmEncrypt, wc_AesGcmDecrypt, AES_GCM_AUTH_E)
AES_AEAD(ccm_seal, ccm_open, wc_AesCcmEncrypt, wc_AesCcmDecrypt, AES_CCM_AUTH_E)

static int chapo_seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  CHECK(wc_ChaCha20Poly1305_Encrypt(c->p.key, c->p.iv, c->p.aad, N(c->p.aad_len), c->p.msg, N(n),
                                    c->out, c->out + n));
  return 0;
}
static int chapo_open(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  int r = wc_ChaCha20Poly1305_Decrypt(c->p.key, c->p.iv, c->p.aad, N(c->p.aad_len), c->p.msg, N(n),
                                      c->p.msg + n, c->out);
  if (r == MAC_CMP_FAILED_E)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return r == 0 ? 0 : oneshot_fail(c, "wc_ChaCha20Poly1305_Decrypt: %s", wc_GetErrorString(r));
}

/* ---- Ed25519 and X25519: raw 32-byte keys, little-endian as RFC 7748 / 8032 write them ---- */

/* the signing key (seed and the public key made from it) imported once per cell */
static int ed_sign_setup(oneshot_cell *c) {
  if (c->p.priv_len != ED25519_KEY_SIZE)
    return 0; /* run() answers rejected */
  if (oneshot_ctx(c, sizeof(ed25519_key)) != 0)
    return CB_FAIL;
  byte pub[ED25519_PUB_KEY_SIZE];
  CHECK(wc_ed25519_init(c->ctx));
  CHECK(wc_ed25519_import_private_only(c->p.priv, ED25519_KEY_SIZE, c->ctx));
  CHECK(wc_ed25519_make_public(c->ctx, pub, sizeof pub));
  CHECK(wc_ed25519_import_private_key(c->p.priv, ED25519_KEY_SIZE, pub, sizeof pub, c->ctx));
  return 0;
}
ONESHOT_CLEANUP(ed_cleanup, wc_ed25519_free(c->ctx))
static int ed_sign(oneshot_cell *c) {
  if (c->ctx == NULL)
    return oneshot_fail(c, "Ed25519 private key of %zu bytes", c->p.priv_len), CB_REJECTED;
  word32 n = ED25519_SIG_SIZE;
  CHECK(wc_ed25519_sign_msg(c->p.msg, N(c->p.msg_len), c->out, &n, c->ctx));
  return 0;
}
/* the public key is imported once per cell; a key wolfSSL refuses makes run() answer rejected */
static int ed_verify_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(ed25519_key) + 1) != 0)
    return CB_FAIL;
  CHECK(wc_ed25519_init(c->ctx));
  ((uint8_t *)c->ctx)[sizeof(ed25519_key)] =
      c->p.pub_len == ED25519_PUB_KEY_SIZE &&
      wc_ed25519_import_public(c->p.pub, ED25519_PUB_KEY_SIZE, c->ctx) == 0;
  return 0;
}
static int ed_setup(oneshot_cell *c) { return c->op == 0 ? ed_sign_setup(c) : ed_verify_setup(c); }
static int ed_verify(oneshot_cell *c) {
  int ok = 0;
  if (!((uint8_t *)c->ctx)[sizeof(ed25519_key)])
    return oneshot_fail(c, "public key refused"), CB_REJECTED;
  int r = wc_ed25519_verify_msg(c->p.sig, N(c->p.sig_len), c->p.msg, N(c->p.msg_len), &ok, c->ctx);
  if (r != 0 || ok != 1)
    return oneshot_fail(c, "signature does not verify (%s)", wc_GetErrorString(r)), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}

/* X25519: both keys imported once per cell; what the import refused is answered per operation */
typedef struct x_state {
  curve25519_key priv, pub;
  int import; /* 0, or wolfSSL's error from importing the keys */
} x_state;

static int x_setup(oneshot_cell *c) {
  if (c->p.priv_len != 32 || c->p.pub_len != 32)
    return 0; /* run() answers rejected */
  ONESHOT_STATE(x_state, s);
  wc_curve25519_init(&s->priv);
  wc_curve25519_init(&s->pub);
  s->import = wc_curve25519_import_private_ex(c->p.priv, 32, &s->priv, EC25519_LITTLE_ENDIAN);
  if (s->import == 0)
    s->import = wc_curve25519_import_public_ex(c->p.pub, 32, &s->pub, EC25519_LITTLE_ENDIAN);
  return 0;
}
ONESHOT_CLEANUP_PAIR(x_cleanup, x_state, wc_curve25519_free, priv, pub)
static int x_derive(oneshot_cell *c) {
  x_state *s = c->ctx;
  word32 n = 32;
  if (s == NULL)
    return oneshot_fail(c, "X25519 keys of %zu and %zu bytes", c->p.priv_len, c->p.pub_len),
           CB_REJECTED;
  int r = s->import != 0 ? s->import
                         : wc_curve25519_shared_secret_ex(&s->priv, &s->pub, c->out, &n,
                                                          EC25519_LITTLE_ENDIAN);
  return r == 0 ? 0 : (oneshot_fail(c, "X25519: %s", wc_GetErrorString(r)), CB_REJECTED);
}

/* key pairs from wolfSSL's own generator (WC_RNG) */
static int keypair(int ed, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                   char *err, size_t errlen) {
  WC_RNG rng;
  union {
    ed25519_key ed;
    curve25519_key x;
  } k;
  word32 np = 32, nq = 32;
  int r = wc_InitRng(&rng);
  if (r == 0 && oneshot_alloc(pub, pub_len, 32) == 0 && oneshot_alloc(priv, priv_len, 32) == 0) {
    if (ed) {
      wc_ed25519_init(&k.ed);
      r = wc_ed25519_make_key(&rng, ED25519_KEY_SIZE, &k.ed);
      if (r == 0)
        r = wc_ed25519_export_public(&k.ed, *pub, &nq);
      if (r == 0)
        r = wc_ed25519_export_private_only(&k.ed, *priv, &np);
      wc_ed25519_free(&k.ed);
    } else {
      wc_curve25519_init(&k.x);
      r = wc_curve25519_make_key(&rng, 32, &k.x);
      if (r == 0)
        r = wc_curve25519_export_private_raw_ex(&k.x, *priv, &np, EC25519_LITTLE_ENDIAN);
      if (r == 0)
        r = wc_curve25519_export_public_ex(&k.x, *pub, &nq, EC25519_LITTLE_ENDIAN);
      wc_curve25519_free(&k.x);
    }
  }
  wc_FreeRng(&rng);
  if (r != 0)
    snprintf(err, errlen, "wolfSSL keypair: %s", wc_GetErrorString(r));
  return r == 0 && *pub != NULL && *priv != NULL ? 0 : -1;
}
static int ed25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                           char *err, size_t errlen) {
  return keypair(1, pub, pub_len, priv, priv_len, err, errlen);
}
static int x25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                          char *err, size_t errlen) {
  return keypair(0, pub, pub_len, priv, priv_len, err, errlen);
}

/* ---- ECDSA and ECDH on P-256: SubjectPublicKeyInfo (wc_EccPublicKeyDecode), the scalar raw ----
 */

static WC_RNG rng; /* signing, ECDH blinding (ECC_TIMING_RESISTANT) and key pairs */

static cb_status init(char *err, size_t errlen) {
  if (wolfSSL_Init() != WOLFSSL_SUCCESS) { /* the TLS cells (wolfssl_tls.c) */
    snprintf(err, errlen, "wolfSSL_Init failed");
    return CB_ERROR;
  }
  int r = wc_InitRng(&rng);
  if (r != 0)
    snprintf(err, errlen, "wc_InitRng: %s", wc_GetErrorString(r));
  return r == 0 ? CB_OK : CB_ERROR;
}

typedef struct ec_state {
  ecc_key priv, pub;
  int ok; /* wolfSSL accepted the key material */
} ec_state;

/* arg = the curve (ecc_curve_id); its field size in bytes */
static word32 field_len(int curve) { return (word32)wc_ecc_get_curve_size_from_id(curve); }

static int ec_setup(oneshot_cell *c) {
  ONESHOT_STATE(ec_state, s);
  int curve = c->def->arg;
  word32 f = field_len(curve);
  CHECK(wc_ecc_init(&s->priv));
  CHECK(wc_ecc_init(&s->pub));
  int ok = 1;
  if (c->p.priv != NULL)
    ok = c->p.priv_len == f &&
         wc_ecc_import_private_key_ex(c->p.priv, f, NULL, 0, &s->priv, curve) == 0 &&
         wc_ecc_set_rng(&s->priv, &rng) == 0;
  if (ok && c->p.pub != NULL) {
    word32 idx = 0;
    ok = wc_EccPublicKeyDecode(c->p.pub, &idx, &s->pub, N(c->p.pub_len)) == 0 &&
         idx == c->p.pub_len && wc_ecc_get_curve_id(s->pub.idx) == curve &&
         wc_ecc_check_key(&s->pub) == 0;
  }
  s->ok = ok;
  return 0;
}
ONESHOT_CLEANUP_PAIR(ec_cleanup, ec_state, wc_ecc_free, priv, pub)
#define EC_REFUSED(c) (oneshot_fail(c, "key material refused"), CB_REJECTED)

/* the message's hash, inside the operation: SHA-384 for P-384, SHA-256 for the others */
static int ec_hash(oneshot_cell *c, byte hash[48], word32 *len) {
  int p384 = c->def->arg == ECC_SECP384R1;
  *len = p384 ? 48 : 32;
  return p384 ? wc_Sha384Hash(c->p.msg, N(c->p.msg_len), hash)
              : wc_Sha256Hash(c->p.msg, N(c->p.msg_len), hash);
}
static int ecdsa_sign(oneshot_cell *c) {
  ec_state *s = c->ctx;
  byte hash[48];
  word32 hlen, n = (word32)c->def->out_len; /* the buffer's capacity: out_len is the last one's */
  if (!s->ok)
    return EC_REFUSED(c);
  CHECK(ec_hash(c, hash, &hlen));
  CHECK(wc_ecc_sign_hash(hash, hlen, c->out, &n, &rng, &s->priv));
  c->out_len = n; /* DER */
  return 0;
}
static int ecdsa_verify(oneshot_cell *c) {
  ec_state *s = c->ctx;
  byte hash[48];
  word32 hlen;
  int ok = 0;
  if (!s->ok)
    return EC_REFUSED(c);
  CHECK(ec_hash(c, hash, &hlen));
  if (wc_ecc_verify_hash(c->p.sig, N(c->p.sig_len), hash, hlen, &ok, &s->pub) != 0 || ok != 1)
    return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}
static int ecdh_derive(oneshot_cell *c) {
  ec_state *s = c->ctx;
  word32 n = field_len(c->def->arg);
  if (!s->ok)
    return EC_REFUSED(c);
  int r = wc_ecc_shared_secret(&s->priv, &s->pub, c->out, &n);
  c->out_len = n;
  return r == 0 ? 0
                : (oneshot_fail(c, "wc_ecc_shared_secret: %s", wc_GetErrorString(r)), CB_REJECTED);
}
static int ec_keypair(int curve, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                      char *err, size_t errlen) {
  ecc_key k;
  byte der[200];
  word32 f = field_len(curve), np = f;
  int n = 0, r = wc_ecc_init(&k);
  if (r == 0)
    r = wc_ecc_make_key_ex(&rng, (int)f, &k, curve);
  if (r == 0 && (n = wc_EccPublicKeyToDer(&k, der, sizeof der, 1)) < 0)
    r = n;
  if (r == 0 && (oneshot_alloc(pub, pub_len, (size_t)n) != 0 || oneshot_alloc(priv, priv_len, f)))
    r = MEMORY_E;
  if (r == 0) {
    memcpy(*pub, der, (size_t)n);
    r = wc_ecc_export_private_only(&k, *priv, &np);
  }
  wc_ecc_free(&k);
  if (r != 0)
    snprintf(err, errlen, "wolfSSL EC key pair: %s", wc_GetErrorString(r));
  return r == 0 ? 0 : -1;
}
ONESHOT_KEYPAIR(p256_keypair, ec_keypair, ECC_SECP256R1)
ONESHOT_KEYPAIR(p384_keypair, ec_keypair, ECC_SECP384R1)
ONESHOT_KEYPAIR(k256_keypair, ec_keypair, ECC_SECP256K1)

/* ---- RSA: PSS (SHA-256, MGF1-SHA-256, salt 32), PKCS#1 v1.5 with SHA-256 (wc_Signature*),
 * OAEP (SHA-256, MGF1-SHA-256, no label). SubjectPublicKeyInfo through wc_RsaPublicKeyDecode;
 * PKCS#8 through wc_GetPkcs8TraditionalOffset and wc_RsaPrivateKeyDecode. arg = modulus bits,
 * arg2 = the scheme ---- */

typedef struct rsa_state {
  RsaKey key;
  int ok;
} rsa_state;

static int rsa_setup(oneshot_cell *c) {
  ONESHOT_STATE(rsa_state, s);
  CHECK(wc_InitRsaKey(&s->key, NULL));
  word32 idx = 0;
  int r;
  if (c->p.priv != NULL) {
    byte *der = malloc(c->p.priv_len ? c->p.priv_len : 1); /* the offset call wants it writable */
    if (der == NULL)
      return oneshot_fail(c, "out of memory");
    memcpy(der, c->p.priv, c->p.priv_len);
    r = wc_GetPkcs8TraditionalOffset(der, &idx, N(c->p.priv_len));
    if (r >= 0)
      r = wc_RsaPrivateKeyDecode(der, &idx, &s->key, N(c->p.priv_len));
    free(der);
    if (r == 0)
      r = wc_RsaSetRNG(&s->key, &rng); /* blinding (WC_RSA_BLINDING) */
  } else {
    r = wc_RsaPublicKeyDecode(c->p.pub, &idx, &s->key, N(c->p.pub_len));
  }
  s->ok = r == 0 && idx == (c->p.priv != NULL ? c->p.priv_len : c->p.pub_len) &&
          wc_RsaEncryptSize(&s->key) * 8 == c->def->arg;
  return 0;
}
ONESHOT_CLEANUP(rsa_cleanup, wc_FreeRsaKey(&((rsa_state *)c->ctx)->key))
#define RSA_REFUSED(c, what) (oneshot_fail(c, "%s refused", what), CB_REJECTED)

static int rsa_sign(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  word32 n = (word32)c->def->out_len;
  byte hash[32];
  if (!s->ok)
    return RSA_REFUSED(c, "private key");
  CHECK(wc_Sha256Hash(c->p.msg, N(c->p.msg_len), hash));
  int r;
  if (c->def->arg2 == ONESHOT_RSA_PKCS1) { /* the DigestInfo, then PKCS#1 v1.5 type 1 padding */
    byte info[MAX_ENCODED_SIG_SZ];
    word32 ni = wc_EncodeSignature(info, hash, 32, SHA256h);
    r = wc_RsaSSL_Sign(info, ni, c->out, n, &s->key, &rng);
  } else {
    r = wc_RsaPSS_Sign_ex(hash, 32, c->out, n, WC_HASH_TYPE_SHA256, WC_MGF1SHA256, 32, &s->key,
                          &rng);
  }
  if (r < 0)
    return oneshot_fail(c, "RSA sign: %s", wc_GetErrorString(r));
  n = (word32)r;
  c->out_len = n;
  return 0;
}
static int rsa_verify(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  byte hash[32], sig[512], out[512];
  if (!s->ok || c->p.sig_len != (size_t)wc_RsaEncryptSize(&s->key))
    return RSA_REFUSED(c, "key or signature length");
  int r;
  CHECK(wc_Sha256Hash(c->p.msg, N(c->p.msg_len), hash));
  if (c->def->arg2 ==
      ONESHOT_RSA_PKCS1) { /* the recovered DigestInfo must be exactly the expected one */
    byte info[MAX_ENCODED_SIG_SZ];
    word32 ni = wc_EncodeSignature(info, hash, 32, SHA256h);
    r = wc_RsaSSL_Verify(c->p.sig, N(c->p.sig_len), out, sizeof out, &s->key);
    if (r >= 0 && ((word32)r != ni || memcmp(out, info, ni) != 0))
      r = SIG_VERIFY_E;
  } else {
    memcpy(sig, c->p.sig, c->p.sig_len); /* wc_RsaPSS_VerifyCheck wants it writable */
    r = wc_RsaPSS_VerifyCheck(sig, N(c->p.sig_len), out, sizeof out, hash, 32, WC_HASH_TYPE_SHA256,
                              WC_MGF1SHA256, &s->key);
  }
  if (r < 0)
    return oneshot_fail(c, "signature does not verify: %s", wc_GetErrorString(r)), CB_REJECTED;
  c->out[0] = 1;
  return 0;
}
static int oaep_encrypt(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  if (!s->ok)
    return RSA_REFUSED(c, "public key");
  int r =
      wc_RsaPublicEncrypt_ex(c->p.msg, N(c->p.msg_len), c->out, (word32)c->def->out_len, &s->key,
                             &rng, WC_RSA_OAEP_PAD, WC_HASH_TYPE_SHA256, WC_MGF1SHA256, NULL, 0);
  if (r < 0)
    return oneshot_fail(c, "wc_RsaPublicEncrypt_ex: %s", wc_GetErrorString(r)), CB_REJECTED;
  c->out_len = (size_t)r;
  return 0;
}
static int oaep_decrypt(oneshot_cell *c) {
  rsa_state *s = c->ctx;
  if (!s->ok || c->p.msg_len != (size_t)wc_RsaEncryptSize(&s->key))
    return RSA_REFUSED(c, "key or ciphertext length");
  int r =
      wc_RsaPrivateDecrypt_ex(c->p.msg, N(c->p.msg_len), c->out, (word32)c->def->out_len, &s->key,
                              WC_RSA_OAEP_PAD, WC_HASH_TYPE_SHA256, WC_MGF1SHA256, NULL, 0);
  if (r < 0)
    return oneshot_fail(c, "wc_RsaPrivateDecrypt_ex: %s", wc_GetErrorString(r)), CB_REJECTED;
  c->out_len = (size_t)r;
  return 0;
}

/* a key pair from wc_MakeRsaKey: SubjectPublicKeyInfo, and PKCS#1 wrapped by wc_CreatePKCS8Key */
static int rsa_keypair(int bits, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                       char *err, size_t errlen) {
  RsaKey key;
  byte der[4096], p8[4200];
  word32 n8 = sizeof p8;
  int n = 0, r = wc_InitRsaKey(&key, NULL);
  if (r == 0)
    r = wc_MakeRsaKey(&key, bits, WC_RSA_EXPONENT, &rng);
  if (r == 0 && (n = wc_RsaKeyToDer(&key, der, sizeof der)) < 0)
    r = n;
  if (r == 0 && (r = wc_CreatePKCS8Key(p8, &n8, der, (word32)n, RSAk, NULL, 0)) > 0)
    r = 0;
  if (r == 0 && (oneshot_alloc(priv, priv_len, n8) != 0))
    r = MEMORY_E;
  if (r == 0) {
    memcpy(*priv, p8, n8);
    if ((n = wc_RsaKeyToPublicDer(&key, der, sizeof der)) < 0)
      r = n;
  }
  if (r == 0 && oneshot_alloc(pub, pub_len, (size_t)n) != 0)
    r = MEMORY_E;
  if (r == 0)
    memcpy(*pub, der, (size_t)n);
  wc_FreeRsaKey(&key);
  if (r != 0)
    snprintf(err, errlen, "wolfSSL RSA key pair: %s", wc_GetErrorString(r));
  return r == 0 ? 0 : -1;
}
ONESHOT_RSA_KEYPAIRS

#define HASH(name, fn, size)                                                                       \
  { {name, {"hash"}, 0, 0, 0}, 0, 0, 0, size, NULL, {fn}, NULL }
#define AEAD(name, key, seal, open, mode)                                                          \
  { {name, {"seal", "open"}, 0, 0, 0}, key, 12, 0, 0, aes_setup, {seal, open}, aes_cleanup, mode }

/* HKDF-SHA256: IKM = msg, salt = key, info = iv */
static int hkdf(oneshot_cell *c) {
  if (c->out_len > ONESHOT_HKDF_MAX)
    return oneshot_fail(c, "HKDF output of %zu bytes (at most 8160)", c->out_len), CB_REJECTED;
  int r = wc_HKDF(WC_SHA256, c->p.msg, N(c->p.msg_len), c->p.key, N(c->p.key_len), c->p.iv,
                  N(c->p.iv_len), c->out, N(c->out_len));
  return r == 0 ? 0 : (oneshot_fail(c, "wc_HKDF: %s", wc_GetErrorString(r)), CB_REJECTED);
}

const oneshot_alg oneshot_algs[] = {
    ONESHOT_HASHES(HASH, sha256, sha512, sha3_256, sha3_512, blake2b_512, blake2s_256),
    ONESHOT_HKDF("hkdf-sha256", hkdf),
    ONESHOT_HMAC_SHA256(hmac_setup, hmac, hmac_cleanup),
    ONESHOT_AES_CBC_ECB_CTR,
    AEAD("aes-128-gcm", 16, gcm_seal, gcm_open, AES_GCM),
    AEAD("aes-256-gcm", 32, gcm_seal, gcm_open, AES_GCM),
    AEAD("aes-128-ccm", 16, ccm_seal, ccm_open, AES_CCM),
    AEAD("aes-256-ccm", 32, ccm_seal, ccm_open, AES_CCM),
    {{"chacha20-poly1305", {"seal", "open"}, 0, 0, 0},
     32,
     12,
     0,
     0,
     NULL,
     {chapo_seal, chapo_open},
     NULL},
    ONESHOT_ED25519(ed_setup, ed_cleanup, 0, ed25519_keypair),
    ONESHOT_X25519(x_setup, x_cleanup, 0, x25519_keypair),
    ONESHOT_ECDSA("ecdsa-p256", ECC_SECP256R1, p256_keypair),
    ONESHOT_ECDSA("ecdsa-p384", ECC_SECP384R1, p384_keypair),
    ONESHOT_ECDSA("ecdsa-secp256k1", ECC_SECP256K1, k256_keypair),
    ONESHOT_ECDH("ecdh-p256", ECC_SECP256R1, p256_keypair),
    ONESHOT_ECDH("ecdh-p384", ECC_SECP384R1, p384_keypair),
    ONESHOT_ECDH("ecdh-secp256k1", ECC_SECP256K1, k256_keypair),
    ONESHOT_RSA_ALGS,
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "wolfSSL"; }
static const char *library_version(void) { return wolfSSL_lib_version(); }

/* the one-shot catalogue, then the TLS 1.3 cells (wolfssl_tls.c) */
static const cb_provider table =
    TLS_PLUGIN_TABLE("wolfssl", "c:wolfssl", "c", init, library_name, library_version,
                     oneshot_keypair, oneshot_free_buf);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
