/* Public-key operations of cbdriver-openssl, through EVP_PKEY only (protocol.md, version 2).
 *
 * Compiles against OpenSSL 1.1.1, 3.x and 4.0. The 3.x branch never calls an API deprecated in
 * 3.0: EC keys are built from a scalar with EVP_PKEY_fromdata (the public point computed with
 * EC_POINT_mul), curves are read as the "group" parameter, SM2 is its own key type and gets its
 * identity from EVP_PKEY_CTX_set1_id after each initialisation (OpenSSL 3.0 refuses it as a
 * "distid" initialisation parameter). The 1.1.1 branch uses EC_KEY for the same things and
 * EVP_PKEY_set_alias_type(EVP_PKEY_SM2) with EVP_PKEY_CTX_set1_id. ML-KEM and ML-DSA exist from
 * OpenSSL 3.5 on (EVP_PKEY "ML-KEM-768", EVP_PKEY_encapsulate, seeds as the "seed" parameter);
 * before that they are left out of the catalogue. So are SLH-DSA (EVP_PKEY "SLH-DSA-SHA2-128s"
 * ..., FIPS 205: raw keys, the keygen seed SK.seed || SK.prf || PK.seed as the "seed" parameter,
 * EVP_DigestSign like ML-DSA) and the TLS 1.3 hybrid key shares as KEMs (EVP_PKEY
 * "X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024", providers/implementations/kem/
 * mlx_kem.c: the public key is the client's key share, encapsulation gives the server's share and
 * the concatenated shared secret), both also from 3.5.
 *
 * A key, point or ciphertext the library refuses does not fail the cell: the cell is created
 * "refused" and every operation answers OPS_REJECTED (vector cases come back `rejected`).
 *
 * Signatures: EVP_DigestSign / EVP_DigestVerify, the hash inside the operation. A cell's
 * EVP_MD_CTX is initialised with the key once; each operation re-initialises it (3.x:
 * EVP_DigestSignInit_ex with no key, which reuses the key and the algorithm context, the way
 * `openssl speed` does for EdDSA; 1.1.1: EVP_DigestSignInit on the same EVP_PKEY_CTX) and signs or
 * verifies the message in one EVP_DigestSign / EVP_DigestVerify call.
 */
#include "ops_ossl.h"
#include "ops_pk.h"
#include "pk_family.h"
#include <cryptobench/kit.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define PK_OSSL3 1
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#else
#define PK_OSSL3 0
#endif

/* ML-KEM (FIPS 203) and ML-DSA (FIPS 204) are native from OpenSSL 3.5 */
#if OPENSSL_VERSION_NUMBER >= 0x30500000L
#define PK_ML 1
#else
#define PK_ML 0
#endif

#if PK_OSSL3
#define PK_REINIT_NOTE                                                                             \
  "EVP_DigestSignInit_ex / EVP_DigestVerifyInit_ex without a key, which keeps the key and the "    \
  "provider's signature context"
#define PK_SM2_ID_NOTE "(EVP_PKEY_CTX_set1_id after each initialisation)"
#else
#define PK_REINIT_NOTE "EVP_DigestSignInit / EVP_DigestVerifyInit reusing the cell's EVP_PKEY_CTX"
#define PK_SM2_ID_NOTE "(EVP_PKEY_set_alias_type(EVP_PKEY_SM2) and EVP_PKEY_CTX_set1_id)"
#endif

#if PK_OSSL3
#define PK_POINT_NOTE "the \"encoded-pub-key\" parameter"
#else
#define PK_POINT_NOTE "EC_POINT_point2oct"
#endif

#define SM2_ID "1234567812345678" /* the default identity (GM/T 0009-2012) */
#define SM2_ID_LEN 16
#define KEM_KEY_LEN 32 /* ML-KEM's shared key; the hybrids' is their DEFS len */

enum pkop { P_KEYGEN, P_SIGN, P_VERIFY, P_DERIVE, P_ENCRYPT, P_DECRYPT, P_ENCAPS, P_DECAPS };
static const char *const PKOP_NAMES[] = {"keygen",  "sign",    "verify", "derive",
                                         "encrypt", "decrypt", "encaps", "decaps"};

typedef struct pk_def {
  const char *name; /* protocol name */
  enum pk_fam fam;
  int bits;         /* RSA: modulus bits */
  int id;           /* EC: the curve's NID; Ed/X: the EVP_PKEY type */
  const char *md;   /* the digest of a signature (NULL: the algorithm's own) */
  const char *ossl; /* ML-*, SLH-DSA, hybrids: the key type name */
  size_t len; /* EC: field bytes (scalar width); Ed/X: raw key bytes; ML-*: seed bytes; SLH-DSA:
                 n (seed 3n, public key 2n, private key 4n bytes); hybrids: shared secret bytes */
} pk_def;

static const pk_def DEFS[] = {
    {"rsa-2048", F_RSA, 2048, 0, NULL, NULL, 0},
    {"rsa-3072", F_RSA, 3072, 0, NULL, NULL, 0},
    {"rsa-4096", F_RSA, 4096, 0, NULL, NULL, 0},
    {"rsa-2048-pss", F_PSS, 2048, 0, "SHA256", NULL, 0},
    {"rsa-3072-pss", F_PSS, 3072, 0, "SHA256", NULL, 0},
    {"rsa-4096-pss", F_PSS, 4096, 0, "SHA256", NULL, 0},
    {"rsa-2048-pkcs1", F_PKCS1, 2048, 0, "SHA256", NULL, 0},
    {"rsa-3072-pkcs1", F_PKCS1, 3072, 0, "SHA256", NULL, 0},
    {"rsa-4096-pkcs1", F_PKCS1, 4096, 0, "SHA256", NULL, 0},
    {"rsa-2048-oaep", F_OAEP, 2048, 0, "SHA256", NULL, 0},
    {"rsa-3072-oaep", F_OAEP, 3072, 0, "SHA256", NULL, 0},
    {"rsa-4096-oaep", F_OAEP, 4096, 0, "SHA256", NULL, 0},
    {"ecdsa-p256", F_ECDSA, 0, NID_X9_62_prime256v1, "SHA256", NULL, 32},
    {"ecdsa-p384", F_ECDSA, 0, NID_secp384r1, "SHA384", NULL, 48},
    {"ecdsa-secp256k1", F_ECDSA, 0, NID_secp256k1, "SHA256", NULL, 32},
    {"ecdh-p256", F_ECDH, 0, NID_X9_62_prime256v1, NULL, NULL, 32},
    {"ecdh-p384", F_ECDH, 0, NID_secp384r1, NULL, NULL, 48},
    {"ecdh-secp256k1", F_ECDH, 0, NID_secp256k1, NULL, NULL, 32},
    {"ed25519", F_EDDSA, 0, EVP_PKEY_ED25519, NULL, NULL, 32},
    {"ed448", F_EDDSA, 0, EVP_PKEY_ED448, NULL, NULL, 57},
    {"x25519", F_XDH, 0, EVP_PKEY_X25519, NULL, NULL, 32},
    {"x448", F_XDH, 0, EVP_PKEY_X448, NULL, NULL, 56},
    {"ml-kem-512", F_MLKEM, 0, 0, NULL, "ML-KEM-512", 64},
    {"ml-kem-768", F_MLKEM, 0, 0, NULL, "ML-KEM-768", 64},
    {"ml-kem-1024", F_MLKEM, 0, 0, NULL, "ML-KEM-1024", 64},
    {"ml-dsa-44", F_MLDSA, 0, 0, NULL, "ML-DSA-44", 32},
    {"ml-dsa-65", F_MLDSA, 0, 0, NULL, "ML-DSA-65", 32},
    {"ml-dsa-87", F_MLDSA, 0, 0, NULL, "ML-DSA-87", 32},
    {"sm2", F_SM2, 0, NID_sm2, "SM3", NULL, 32},
    {"slh-dsa-sha2-128s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-128s", 16},
    {"slh-dsa-sha2-128f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-128f", 16},
    {"slh-dsa-sha2-192s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-192s", 24},
    {"slh-dsa-sha2-192f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-192f", 24},
    {"slh-dsa-sha2-256s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-256s", 32},
    {"slh-dsa-sha2-256f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHA2-256f", 32},
    {"slh-dsa-shake-128s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-128s", 16},
    {"slh-dsa-shake-128f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-128f", 16},
    {"slh-dsa-shake-192s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-192s", 24},
    {"slh-dsa-shake-192f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-192f", 24},
    {"slh-dsa-shake-256s", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-256s", 32},
    {"slh-dsa-shake-256f", F_SLHDSA, 0, 0, NULL, "SLH-DSA-SHAKE-256f", 32},
    {"x25519mlkem768", F_HYBKEM, 0, 0, NULL, "X25519MLKEM768", 64},
    {"secp256r1mlkem768", F_HYBKEM, 0, 0, NULL, "SecP256r1MLKEM768", 64},
    {"secp384r1mlkem1024", F_HYBKEM, 0, 0, NULL, "SecP384r1MLKEM1024", 80},
};
#define NDEFS (sizeof DEFS / sizeof DEFS[0])

PK_FAMILY_OFFERED(fam)

struct pk_cell {
  const pk_def *def;
  enum pkop op;
  EVP_PKEY *key;      /* the cell's own key (private, or public for verify/encrypt/encaps) */
  EVP_PKEY *peer;     /* derive: the peer's public key */
  EVP_PKEY_CTX *pctx; /* keygen, derive, encrypt, decrypt, encaps, decaps; 1.1.1 SM2: signing */
  EVP_MD_CTX *mdctx;  /* sign, verify */
#if PK_OSSL3
  OSSL_PARAM params[6]; /* given to every (re-)initialisation of a signature */
  int saltlen;
  int det;
  uint8_t ctxstr[256]; /* ML-DSA, SLH-DSA context string */
#else
  const EVP_MD *md;
#endif
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *sig;
  size_t sig_len;
  size_t ct_len;           /* encaps: ciphertext bytes before the key */
  uint8_t spki_prefix[64]; /* EC keygen: the SPKI header before the point (see run_keygen) */
  size_t prefix_len;
  uint8_t *out;
  size_t out_cap;
  size_t out_len;
  int refused; /* the library refused the key material: every run answers OPS_REJECTED */
  char err[256];
};

static int is_ec(const pk_def *d) {
  return d->fam == F_ECDSA || d->fam == F_ECDH || d->fam == F_SM2;
}

/* the families OpenSSL has only from 3.5 on, all by key type name (d->ossl) */
static int is_pq(const pk_def *d) {
  return d->fam == F_MLKEM || d->fam == F_MLDSA || d->fam == F_SLHDSA || d->fam == F_HYBKEM;
}

/* the families whose signatures take a context string and a deterministic variant */
static int has_ctx(const pk_def *d) { return d->fam == F_MLDSA || d->fam == F_SLHDSA; }

static int base_id(const EVP_PKEY *k) {
#if PK_OSSL3
  return EVP_PKEY_get_base_id(k);
#else
  return EVP_PKEY_base_id(k);
#endif
}

static int key_bits(const EVP_PKEY *k) {
#if PK_OSSL3
  return EVP_PKEY_get_bits(k);
#else
  return EVP_PKEY_bits(k);
#endif
}

static int key_size(const EVP_PKEY *k) {
#if PK_OSSL3
  return EVP_PKEY_get_size(k);
#else
  return EVP_PKEY_size(k);
#endif
}

/* ---- keys: decoding the protocol's encodings ---- */

/* The NID of an EC key's curve (NID_undef when it has none). */
static int ec_curve(EVP_PKEY *k) {
#if PK_OSSL3
  char name[80];
  size_t n = 0;
  if (!EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &n)) {
    ERR_clear_error();
    return NID_undef;
  }
  int nid = OBJ_sn2nid(name);
  if (nid == NID_undef)
    nid = EC_curve_nist2nid(name);
  if (nid == NID_undef)
    nid = OBJ_ln2nid(name);
  return nid;
#else
  const EC_KEY *ec = EVP_PKEY_get0_EC_KEY(k);
  const EC_GROUP *g = ec != NULL ? EC_KEY_get0_group(ec) : NULL;
  return g != NULL ? EC_GROUP_get_curve_name(g) : NID_undef;
#endif
}

#if PK_OSSL3
/* An EC or SM2 key of curve nid from its parts (scalar and/or encoded point). */
static EVP_PKEY *ec_fromdata(const pk_def *d, const BIGNUM *x, const uint8_t *pt, size_t pt_len) {
  EVP_PKEY *k = NULL;
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, d->fam == F_SM2 ? "SM2" : "EC", NULL);
  if (bld == NULL || ctx == NULL ||
      !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, OBJ_nid2sn(d->id), 0) ||
      (x != NULL && !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x)) ||
      !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pt, pt_len) ||
      (params = OSSL_PARAM_BLD_to_param(bld)) == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
      EVP_PKEY_fromdata(ctx, &k, x != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
    k = NULL;
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  EVP_PKEY_CTX_free(ctx);
  return k;
}
#endif

/* An EC private key from the big-endian scalar, padded to the field size (protocol.md). The
 * public point is computed here (d x G), so the key is complete: SM2 hashes it into Z. */
static EVP_PKEY *ec_from_scalar(const pk_def *d, const uint8_t *b, size_t n) {
  if (b == NULL || n != d->len)
    return NULL;
  EVP_PKEY *k = NULL;
  BN_CTX *bnctx = BN_CTX_new();
  BIGNUM *x = BN_bin2bn(b, (int)n, NULL);
  EC_GROUP *g = EC_GROUP_new_by_curve_name(d->id);
  EC_POINT *pub = g != NULL ? EC_POINT_new(g) : NULL;
  const BIGNUM *order = g != NULL ? EC_GROUP_get0_order(g) : NULL;
  if (bnctx == NULL || x == NULL || pub == NULL || order == NULL || BN_is_zero(x) ||
      BN_cmp(x, order) >= 0 || !EC_POINT_mul(g, pub, x, NULL, NULL, bnctx))
    goto done;
#if PK_OSSL3
  uint8_t pt[1 + 2 * 66];
  size_t pt_len = EC_POINT_point2oct(g, pub, POINT_CONVERSION_UNCOMPRESSED, pt, sizeof pt, bnctx);
  if (pt_len > 0)
    k = ec_fromdata(d, x, pt, pt_len);
#else
  EC_KEY *ec = EC_KEY_new_by_curve_name(d->id);
  if (ec == NULL || !EC_KEY_set_private_key(ec, x) || !EC_KEY_set_public_key(ec, pub) ||
      (k = EVP_PKEY_new()) == NULL || !EVP_PKEY_assign_EC_KEY(k, ec)) {
    EVP_PKEY_free(k);
    EC_KEY_free(ec);
    k = NULL;
    goto done;
  }
  if (d->fam == F_SM2 && !EVP_PKEY_set_alias_type(k, EVP_PKEY_SM2)) {
    EVP_PKEY_free(k);
    k = NULL;
  }
#endif
done:
  EC_POINT_free(pub);
  EC_GROUP_free(g);
  BN_clear_free(x);
  BN_CTX_free(bnctx);
  return k;
}

/* Whether an EC SubjectPublicKeyInfo names its curve (RFC 5480 namedCurve): explicit curve
 * parameters are refused even when they describe the right curve. */
static int spki_named_curve(const uint8_t *b, size_t n) {
  const unsigned char *p = b;
  X509_PUBKEY *xp = d2i_X509_PUBKEY(NULL, &p, (long)n);
  X509_ALGOR *alg = NULL;
  int ptype = V_ASN1_UNDEF;
  if (xp != NULL && X509_PUBKEY_get0_param(NULL, NULL, NULL, &alg, xp) && alg != NULL)
    X509_ALGOR_get0(NULL, &ptype, NULL, alg);
  X509_PUBKEY_free(xp);
  return ptype == V_ASN1_OBJECT;
}

/* A DER SubjectPublicKeyInfo of the cell's algorithm (RSA of its size; EC on its named curve),
 * nothing after it. */
static EVP_PKEY *load_spki(const pk_def *d, const uint8_t *b, size_t n) {
  if (b == NULL || n == 0 || n > 1 << 20)
    return NULL;
  if (is_ec(d) && !spki_named_curve(b, n))
    return NULL;
  const unsigned char *p = b;
  EVP_PKEY *k = d2i_PUBKEY(NULL, &p, (long)n);
  if (k == NULL)
    return NULL;
  int ok = p == b + n;
  if (ok && is_rsa(d))
    ok = base_id(k) == EVP_PKEY_RSA && key_bits(k) == d->bits;
  if (ok && is_ec(d))
    ok = ec_curve(k) == d->id;
#if PK_OSSL3
  if (ok && d->fam == F_SM2 && !EVP_PKEY_is_a(k, "SM2")) {
    /* an id-ecPublicKey on the SM2 curve decoded as an "EC" key: SM2 signatures need an "SM2"
     * key, so rebuild it from its point */
    uint8_t pt[1 + 2 * 66];
    size_t pt_len = 0;
    EVP_PKEY *sm2 = NULL;
    if (EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, pt, sizeof pt,
                                        &pt_len))
      sm2 = ec_fromdata(d, NULL, pt, pt_len);
    EVP_PKEY_free(k);
    k = sm2;
    ok = k != NULL;
  }
#else
  if (ok && d->fam == F_SM2)
    ok = EVP_PKEY_set_alias_type(k, EVP_PKEY_SM2);
#endif
  if (!ok) {
    EVP_PKEY_free(k);
    return NULL;
  }
  return k;
}

/* A DER PKCS#8 RSA private key of the algorithm's size, nothing after it. */
static EVP_PKEY *load_pkcs8(const pk_def *d, const uint8_t *b, size_t n) {
  if (b == NULL || n == 0 || n > 1 << 20)
    return NULL;
  const unsigned char *p = b;
  PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)n);
  if (p8 == NULL)
    return NULL;
  EVP_PKEY *k = p == b + n ? EVP_PKCS82PKEY(p8) : NULL;
  PKCS8_PRIV_KEY_INFO_free(p8);
  if (k != NULL && (base_id(k) != EVP_PKEY_RSA || key_bits(k) != d->bits)) {
    EVP_PKEY_free(k);
    k = NULL;
  }
  return k;
}

#if PK_ML
/* An ML-KEM / ML-DSA key pair from its seed (d || z, or xi). */
static EVP_PKEY *ml_from_seed(const pk_def *d, const uint8_t *seed, size_t n) {
  if (seed == NULL || n != d->len)
    return NULL;
  EVP_PKEY *k = NULL;
  OSSL_PARAM params[2];
  params[0] = OSSL_PARAM_construct_octet_string(d->fam == F_MLKEM ? OSSL_PKEY_PARAM_ML_KEM_SEED
                                                                  : OSSL_PKEY_PARAM_ML_DSA_SEED,
                                                (void *)seed, n);
  params[1] = OSSL_PARAM_construct_end();
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, d->ossl, NULL);
  if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
      EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_KEYPAIR, params) <= 0)
    k = NULL;
  EVP_PKEY_CTX_free(ctx);
  return k;
}
#endif

#if PK_ML
/* Private keys that never leave OpenSSL. OpenSSL 3.5 to 4.0 can neither export nor import the
 * private key of SecP256r1MLKEM768 / SecP384r1MLKEM1024 (mlx_kmgmt.c reads the EC scalar as an
 * octet string, which EC keys give and take as an integer: openssl/openssl#27413; X25519MLKEM768
 * is unaffected). Their `keypair` therefore answers, as `private`, a reference to the key kept in
 * this driver process: REF_MAGIC and 8 random bytes. The key itself is OpenSSL's own, made by
 * EVP_PKEY_keygen; a cell given the reference decapsulates with it, a reference this process did
 * not make (or one of the REF_KEEP older ones) is refused like any malformed key. The protocol
 * never hands the hybrids' private keys to another provider (docs/protocol.md). */
#define REF_MAGIC "cb-ossl-key-ref:"
#define REF_MAGIC_LEN 16
#define REF_LEN (REF_MAGIC_LEN + 8)
#define REF_KEEP 64

static struct {
  const pk_def *def;
  uint8_t id[8];
  EVP_PKEY *key;
} refs[REF_KEEP];
static size_t ref_next;

/* Keep k (the reference takes its own count); its reference, freshly allocated, or NULL. */
static uint8_t *key_ref_new(const pk_def *d, EVP_PKEY *k, size_t *len) {
  uint8_t *out = malloc(REF_LEN);
  size_t slot = ref_next % REF_KEEP;
  if (out == NULL || RAND_bytes(refs[slot].id, sizeof refs[slot].id) != 1 || !EVP_PKEY_up_ref(k)) {
    free(out);
    return NULL;
  }
  EVP_PKEY_free(refs[slot].key);
  refs[slot].key = k;
  refs[slot].def = d;
  ref_next++;
  memcpy(out, REF_MAGIC, REF_MAGIC_LEN);
  memcpy(out + REF_MAGIC_LEN, refs[slot].id, sizeof refs[slot].id);
  *len = REF_LEN;
  return out;
}

/* The key a reference names (a new count), or NULL. */
static EVP_PKEY *key_ref_load(const pk_def *d, const uint8_t *b, size_t n) {
  if (b == NULL || n != REF_LEN || memcmp(b, REF_MAGIC, REF_MAGIC_LEN) != 0)
    return NULL;
  for (size_t i = 0; i < REF_KEEP; i++)
    if (refs[i].key != NULL && refs[i].def == d &&
        memcmp(refs[i].id, b + REF_MAGIC_LEN, sizeof refs[i].id) == 0)
      return EVP_PKEY_up_ref(refs[i].key) ? refs[i].key : NULL;
  return NULL;
}
#endif

static EVP_PKEY *load_private(const pk_def *d, const uint8_t *b, size_t n) {
  switch (d->fam) {
  case F_RSA:
  case F_PSS:
  case F_PKCS1:
  case F_OAEP:
    return load_pkcs8(d, b, n);
  case F_ECDSA:
  case F_ECDH:
  case F_SM2:
    return ec_from_scalar(d, b, n);
  case F_EDDSA:
  case F_XDH:
    return b != NULL && n == d->len ? EVP_PKEY_new_raw_private_key(d->id, NULL, b, n) : NULL;
  case F_MLKEM:
  case F_MLDSA:
#if PK_ML
    return ml_from_seed(d, b, n);
#else
    return NULL;
#endif
  case F_SLHDSA: /* SK.seed || SK.prf || PK.seed || PK.root */
#if PK_ML
    return b != NULL && n == 4 * d->len ? EVP_PKEY_new_raw_private_key_ex(NULL, d->ossl, NULL, b, n)
                                        : NULL;
#else
    return NULL;
#endif
  case F_HYBKEM: /* the library's own: the ML-KEM and EC/X25519 private keys in the share's
                    order, or a reference to a key kept here (key_ref_new) */
#if PK_ML
    if (b != NULL && n == REF_LEN && memcmp(b, REF_MAGIC, REF_MAGIC_LEN) == 0)
      return key_ref_load(d, b, n);
    return b != NULL && n > 0 ? EVP_PKEY_new_raw_private_key_ex(NULL, d->ossl, NULL, b, n) : NULL;
#else
    return NULL;
#endif
  }
  return NULL;
}

static EVP_PKEY *load_public(const pk_def *d, const uint8_t *b, size_t n) {
  switch (d->fam) {
  case F_EDDSA:
  case F_XDH:
    return b != NULL && n == d->len ? EVP_PKEY_new_raw_public_key(d->id, NULL, b, n) : NULL;
  case F_MLKEM:
  case F_MLDSA:
  case F_SLHDSA:
  case F_HYBKEM:
#if PK_ML
    if (d->fam == F_SLHDSA && n != 2 * d->len) /* PK.seed || PK.root */
      return NULL;
    return b != NULL && n > 0 ? EVP_PKEY_new_raw_public_key_ex(NULL, d->ossl, NULL, b, n) : NULL;
#else
    return NULL;
#endif
  default:
    return load_spki(d, b, n);
  }
}

/* ---- keys: the protocol's encodings ---- */

/* An EC key's public point, uncompressed, into out[cap]; its length, 0 on failure. */
static size_t ec_point(EVP_PKEY *k, uint8_t *out, size_t cap) {
#if PK_OSSL3
  size_t n = 0;
  return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, cap, &n) ? n
                                                                                              : 0;
#else
  const EC_KEY *ec = EVP_PKEY_get0_EC_KEY(k);
  if (ec == NULL)
    return 0;
  return EC_POINT_point2oct(EC_KEY_get0_group(ec), EC_KEY_get0_public_key(ec),
                            POINT_CONVERSION_UNCOMPRESSED, out, cap, NULL);
#endif
}

/* The encoded public key into out[cap]: SPKI DER (RSA, EC), raw (Ed/X), the encapsulation or
 * verification key (ML-*). 0, or -1. */
static int encode_public(const pk_def *d, EVP_PKEY *k, uint8_t *out, size_t cap, size_t *len) {
  switch (d->fam) {
  case F_EDDSA:
  case F_XDH:
    *len = cap;
    return EVP_PKEY_get_raw_public_key(k, out, len) ? 0 : -1;
  case F_MLKEM:
  case F_MLDSA:
  case F_SLHDSA:
#if PK_ML
    return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, out, cap, len) ? 0 : -1;
#else
    return -1;
#endif
  case F_HYBKEM: /* the key share (mlx_kmgmt.c has it only as the encoded public key) */
#if PK_ML
    return EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, cap, len)
               ? 0
               : -1;
#else
    return -1;
#endif
  default: {
    unsigned char *der = NULL;
    int n = i2d_PUBKEY(k, &der);
    int rc = n > 0 && (size_t)n <= cap ? 0 : -1;
    if (rc == 0) {
      memcpy(out, der, (size_t)n);
      *len = (size_t)n;
    }
    OPENSSL_free(der);
    return rc;
  }
  }
}

/* The encoded private key, freshly allocated: PKCS#8 DER (RSA), the scalar padded to the field
 * size (EC), raw (Ed/X), the seed (ML-*). */
static uint8_t *encode_private(const pk_def *d, EVP_PKEY *k, size_t *len) {
  uint8_t *out = NULL;
  switch (d->fam) {
  case F_RSA:
  case F_PSS:
  case F_PKCS1:
  case F_OAEP: {
    PKCS8_PRIV_KEY_INFO *p8 = EVP_PKEY2PKCS8(k);
    unsigned char *der = NULL;
    int n = p8 != NULL ? i2d_PKCS8_PRIV_KEY_INFO(p8, &der) : -1;
    if (n > 0 && (out = malloc((size_t)n)) != NULL) {
      memcpy(out, der, (size_t)n);
      *len = (size_t)n;
    }
    OPENSSL_clear_free(der, n > 0 ? (size_t)n : 0);
    PKCS8_PRIV_KEY_INFO_free(p8);
    return out;
  }
  case F_ECDSA:
  case F_ECDH:
  case F_SM2: {
#if PK_OSSL3
    BIGNUM *x = NULL;
    if (!EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &x))
      return NULL;
#else
    const EC_KEY *ec = EVP_PKEY_get0_EC_KEY(k);
    const BIGNUM *x = ec != NULL ? EC_KEY_get0_private_key(ec) : NULL;
    if (x == NULL)
      return NULL;
#endif
    if ((out = malloc(d->len)) != NULL && BN_bn2binpad(x, out, (int)d->len) == (int)d->len) {
      *len = d->len;
    } else {
      free(out);
      out = NULL;
    }
#if PK_OSSL3
    BN_clear_free(x);
#endif
    return out;
  }
  case F_EDDSA:
  case F_XDH:
    *len = d->len;
    if ((out = malloc(d->len)) != NULL && !EVP_PKEY_get_raw_private_key(k, out, len)) {
      free(out);
      out = NULL;
    }
    return out;
  case F_MLKEM:
  case F_MLDSA:
#if PK_ML
    if ((out = malloc(d->len)) != NULL &&
        !EVP_PKEY_get_octet_string_param(
            k, d->fam == F_MLKEM ? OSSL_PKEY_PARAM_ML_KEM_SEED : OSSL_PKEY_PARAM_ML_DSA_SEED, out,
            d->len, len)) {
      free(out);
      out = NULL;
    }
#endif
    return out;
  case F_SLHDSA:
  case F_HYBKEM: {
#if PK_ML
    size_t n = 0;
    if (EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0, &n) && n > 0 &&
        (out = malloc(n)) != NULL &&
        !EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PRIV_KEY, out, n, len)) {
      free(out);
      out = NULL;
    }
#endif
    return out;
  }
  }
  return NULL;
}

/* A key generation context: RSA of the size (e = 65537, the default), EC on the curve, Ed/X,
 * ML-* (from seed when given). NULL with err set. */
static EVP_PKEY_CTX *keygen_ctx(const pk_def *d, const uint8_t *seed, size_t seed_len, char *err,
                                size_t errlen) {
  EVP_PKEY_CTX *ctx = NULL;
  int ok = 0;
  (void)seed_len;
  switch (d->fam) {
  case F_RSA:
  case F_PSS:
  case F_PKCS1:
  case F_OAEP:
    ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0 &&
         EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, d->bits) > 0;
    break;
  case F_ECDSA:
  case F_ECDH:
  case F_SM2:
#if PK_OSSL3
    ctx = EVP_PKEY_CTX_new_from_name(NULL, d->fam == F_SM2 ? "SM2" : "EC", NULL);
#else
    ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, NULL); /* SM2: an EC key on its curve, aliased */
#endif
    ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0 &&
         EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, d->id) > 0;
    break;
  case F_EDDSA:
  case F_XDH:
    ctx = EVP_PKEY_CTX_new_id(d->id, NULL);
    ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0;
    break;
  case F_MLKEM:
  case F_MLDSA:
#if PK_ML
    ctx = EVP_PKEY_CTX_new_from_name(NULL, d->ossl, NULL);
    ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0;
    if (ok && seed != NULL) {
      if (seed_len != d->len) {
        EVP_PKEY_CTX_free(ctx);
        cb_kit_err(err, errlen, "seed of %zu bytes, %s needs %zu", seed_len, d->name, d->len);
        return NULL;
      }
      OSSL_PARAM params[2];
      params[0] = OSSL_PARAM_construct_octet_string(d->fam == F_MLKEM ? OSSL_PKEY_PARAM_ML_KEM_SEED
                                                                      : OSSL_PKEY_PARAM_ML_DSA_SEED,
                                                    (void *)seed, seed_len);
      params[1] = OSSL_PARAM_construct_end();
      ok = EVP_PKEY_CTX_set_params(ctx, params) > 0;
    }
#endif
    break;
  case F_SLHDSA:
  case F_HYBKEM:
#if PK_ML
    ctx = EVP_PKEY_CTX_new_from_name(NULL, d->ossl, NULL);
    ok = ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0;
    if (ok && seed != NULL && d->fam == F_SLHDSA) {
      if (seed_len != 3 * d->len) { /* SK.seed || SK.prf || PK.seed */
        EVP_PKEY_CTX_free(ctx);
        cb_kit_err(err, errlen, "seed of %zu bytes, %s needs %zu", seed_len, d->name, 3 * d->len);
        return NULL;
      }
      OSSL_PARAM params[2];
      params[0] =
          OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_SLH_DSA_SEED, (void *)seed, seed_len);
      params[1] = OSSL_PARAM_construct_end();
      ok = EVP_PKEY_CTX_set_params(ctx, params) > 0;
    }
#endif
    break;
  }
  if (!ok) {
    EVP_PKEY_CTX_free(ctx);
    ossl_err(err, errlen, "key generation set-up");
    return NULL;
  }
  if (seed != NULL && d->fam != F_MLKEM && d->fam != F_MLDSA && d->fam != F_SLHDSA) {
    EVP_PKEY_CTX_free(ctx);
    cb_kit_err(err, errlen, "%sa key from a seed: only ML-KEM, ML-DSA and SLH-DSA (%s)",
               OPS_UNSUPPORTED, d->name);
    return NULL;
  }
  return ctx;
}

/* One key pair from a generation context (1.1.1 SM2: aliased to the SM2 type). */
static EVP_PKEY *generate(const pk_def *d, EVP_PKEY_CTX *ctx) {
  EVP_PKEY *k = NULL;
  if (EVP_PKEY_keygen(ctx, &k) <= 0)
    return NULL;
#if !PK_OSSL3
  if (d->fam == F_SM2 && !EVP_PKEY_set_alias_type(k, EVP_PKEY_SM2)) {
    EVP_PKEY_free(k);
    return NULL;
  }
#else
  (void)d;
#endif
  return k;
}

int pk_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
               char *err, size_t errlen) {
  const pk_def *d = pk_fam_keypair_def(find_def(alg), alg, pub, priv, err, errlen);
  if (d == NULL)
    return -1;
  EVP_PKEY_CTX *ctx = keygen_ctx(d, NULL, 0, err, errlen);
  if (ctx == NULL)
    return -1;
  EVP_PKEY *k = generate(d, ctx);
  EVP_PKEY_CTX_free(ctx);
  if (k == NULL) {
    ossl_err(err, errlen, "EVP_PKEY_keygen");
    return -1;
  }
  size_t cap = 8192;
  *pub = malloc(cap);
  if (*pub != NULL && encode_public(d, k, *pub, cap, pub_len) == 0) {
    *priv = encode_private(d, k, priv_len);
#if PK_ML
    if (*priv == NULL && d->fam == F_HYBKEM) { /* the EC hybrids: see key_ref_new */
      ERR_clear_error();
      *priv = key_ref_new(d, k, priv_len);
    }
#endif
  }
  if (*pub == NULL || *priv == NULL) {
    ossl_err(err, errlen, "encoding the key pair");
    free(*pub);
    *pub = NULL;
    EVP_PKEY_free(k);
    return -1;
  }
  EVP_PKEY_free(k);
  return 0;
}

/* ---- cells ---- */

/* Mark the cell as refusing its input: the reason, and the runs answer OPS_REJECTED. */
static void refuse(pk_cell *c, const char *what) {
  ossl_err(c->err, sizeof c->err, what);
  c->refused = 1;
}

#if PK_OSSL3
/* SM2: the identity, after each (re-)initialisation (3.0 refuses it among the initialisation's
 * parameters; from 3.x on the "distid" parameter, set before the first update). */
static int sm2_id(pk_cell *c) {
  if (c->def->fam != F_SM2)
    return 1;
  return EVP_PKEY_CTX_set1_id(EVP_MD_CTX_get_pkey_ctx(c->mdctx), SM2_ID, SM2_ID_LEN);
}
#endif

/* The signature context: initialised with the key once here, re-initialised per operation. */
static int sig_setup(pk_cell *c, const ops_params *p, int verify) {
  const pk_def *d = c->def;
  c->mdctx = EVP_MD_CTX_new();
  if (c->mdctx == NULL)
    return -1;
  if (p->ctx != NULL && !has_ctx(d)) {
    cb_kit_err(c->err, sizeof c->err, "%sa context string: only ML-DSA and SLH-DSA",
               OPS_UNSUPPORTED);
    return -1;
  }
#if PK_OSSL3
  size_t np = 0;
  switch (d->fam) {
  case F_PSS:
    c->saltlen = 32;
    c->params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE,
                                                       (char *)OSSL_PKEY_RSA_PAD_MODE_PSS, 0);
    c->params[np++] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_PSS_SALTLEN, &c->saltlen);
    c->params[np++] =
        OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_MGF1_DIGEST, (char *)d->md, 0);
    break;
  case F_PKCS1:
    c->params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_PAD_MODE,
                                                       (char *)OSSL_PKEY_RSA_PAD_MODE_PKCSV15, 0);
    break;
  case F_MLDSA:
  case F_SLHDSA:
#if PK_ML
    if (p->ctx != NULL) {
      if (p->ctx_len > sizeof c->ctxstr) {
        cb_kit_err(c->err, sizeof c->err, "context string of %zu bytes (at most 255)", p->ctx_len);
        c->refused = 1;
        return 0;
      }
      memcpy(c->ctxstr, p->ctx, p->ctx_len);
      c->params[np++] = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING,
                                                          c->ctxstr, p->ctx_len);
    }
    c->det = p->deterministic;
    if (c->det)
      c->params[np++] = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_DETERMINISTIC, &c->det);
#endif
    break;
  default:
    break;
  }
  c->params[np] = OSSL_PARAM_construct_end();
  int ok = verify ? EVP_DigestVerifyInit_ex(c->mdctx, NULL, d->md, NULL, NULL, c->key, c->params)
                  : EVP_DigestSignInit_ex(c->mdctx, NULL, d->md, NULL, NULL, c->key, c->params);
  if (ok <= 0 || sm2_id(c) <= 0)
    refuse(c, verify ? "EVP_DigestVerifyInit_ex" : "EVP_DigestSignInit_ex");
#else
  EVP_PKEY_CTX *pctx = NULL;
  c->md = d->md != NULL ? EVP_get_digestbyname(d->md) : NULL;
  if (d->md != NULL && c->md == NULL) {
    ossl_err(c->err, sizeof c->err, "digest");
    return -1;
  }
  if (d->fam == F_SM2) { /* the identity lives in an EVP_PKEY_CTX the EVP_MD_CTX borrows */
    c->pctx = EVP_PKEY_CTX_new(c->key, NULL);
    if (c->pctx == NULL || EVP_PKEY_CTX_set1_id(c->pctx, SM2_ID, SM2_ID_LEN) <= 0) {
      refuse(c, "SM2 identity");
      return 0;
    }
    EVP_MD_CTX_set_pkey_ctx(c->mdctx, c->pctx);
  }
  int ok = verify ? EVP_DigestVerifyInit(c->mdctx, &pctx, c->md, NULL, c->key)
                  : EVP_DigestSignInit(c->mdctx, &pctx, c->md, NULL, c->key);
  if (ok > 0 && d->fam == F_PSS)
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) > 0 &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 32) > 0 &&
         EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, c->md) > 0;
  else if (ok > 0 && d->fam == F_PKCS1)
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) > 0;
  if (ok <= 0)
    refuse(c, verify ? "EVP_DigestVerifyInit" : "EVP_DigestSignInit");
  (void)p;
#endif
  return 0;
}

static int rsa_oaep_setup(pk_cell *c, int decrypt) {
  c->pctx = EVP_PKEY_CTX_new(c->key, NULL);
  if (c->pctx == NULL)
    return -1;
#if PK_OSSL3
  EVP_MD *md = EVP_MD_fetch(NULL, c->def->md, NULL);
#else
  const EVP_MD *md = EVP_get_digestbyname(c->def->md);
#endif
  int ok = md != NULL &&
           (decrypt ? EVP_PKEY_decrypt_init(c->pctx) : EVP_PKEY_encrypt_init(c->pctx)) > 0 &&
           EVP_PKEY_CTX_set_rsa_padding(c->pctx, RSA_PKCS1_OAEP_PADDING) > 0 &&
           EVP_PKEY_CTX_set_rsa_oaep_md(c->pctx, md) > 0 &&
           EVP_PKEY_CTX_set_rsa_mgf1_md(c->pctx, md) > 0;
#if PK_OSSL3
  EVP_MD_free(md);
#endif
  if (!ok)
    refuse(c, "RSA-OAEP set-up");
  return 0;
}

/* EC keygen: the SubjectPublicKeyInfo header before the point, from one key's i2d_PUBKEY (a
 * named curve's header is the same for every key). The timed keygen writes the point after it
 * rather than calling i2d_PUBKEY, whose encoder costs several times the key generation itself in
 * OpenSSL 3.0 (about 50 us against 9 us for P-256 here); the bytes are the same. */
static int spki_prefix(pk_cell *c, char *err, size_t errlen) {
  EVP_PKEY *k = generate(c->def, c->pctx);
  unsigned char *der = NULL;
  uint8_t pt[1 + 2 * 66];
  int n = k != NULL ? i2d_PUBKEY(k, &der) : -1;
  size_t pl = k != NULL ? ec_point(k, pt, sizeof pt) : 0;
  int ok = n > 0 && pl > 0 && (size_t)n > pl && (size_t)n - pl <= sizeof c->spki_prefix &&
           memcmp(der + (size_t)n - pl, pt, pl) == 0;
  if (ok) {
    c->prefix_len = (size_t)n - pl;
    memcpy(c->spki_prefix, der, c->prefix_len);
  } else {
    ossl_err(err, errlen, "EC key generation: the SPKI does not end with the point");
  }
  OPENSSL_free(der);
  EVP_PKEY_free(k);
  return ok ? 0 : -1;
}

/* Everything outside the timed region. -1 (err set) for an unusable request; 0 otherwise, with
 * c->refused set when the library refuses the key material. */
static int prepare(pk_cell *c, const ops_params *p, char *err, size_t errlen) {
  const pk_def *d = c->def;
  c->out_cap = 256;
  switch (c->op) {
  case P_KEYGEN:
    c->pctx = keygen_ctx(d, p->seed, p->seed_len, err, errlen);
    if (c->pctx == NULL)
      return -1;
    c->out_cap = 8192;
    return is_ec(d) ? spki_prefix(c, err, errlen) : 0;
  case P_SIGN:
  case P_VERIFY:
    c->key = c->op == P_SIGN ? load_private(d, p->priv, p->priv_len)
                             : load_public(d, p->pub, p->pub_len);
    if (c->key == NULL) {
      refuse(c, c->op == P_SIGN ? "private key not accepted" : "public key not accepted");
      return 0;
    }
    c->sig = p->sig != NULL ? p->sig : (const uint8_t *)"";
    c->sig_len = p->sig != NULL ? p->sig_len : 0;
    c->out_cap = (size_t)key_size(c->key) + 16;
    if (sig_setup(c, p, c->op == P_VERIFY) != 0) {
      cb_kit_err(err, errlen, "%s", c->err[0] ? c->err : "signature set-up failed");
      return -1;
    }
    return 0;
  case P_DERIVE:
    c->key = load_private(d, p->priv, p->priv_len);
    c->peer = load_public(d, p->pub, p->pub_len);
    if (c->key == NULL || c->peer == NULL) {
      refuse(c, c->key == NULL ? "private key not accepted" : "peer public key not accepted");
      return 0;
    }
    c->pctx = EVP_PKEY_CTX_new(c->key, NULL);
    if (c->pctx == NULL || EVP_PKEY_derive_init(c->pctx) <= 0 ||
        EVP_PKEY_derive_set_peer(c->pctx, c->peer) <= 0)
      refuse(c, "EVP_PKEY_derive_set_peer");
    return 0;
  case P_ENCRYPT:
  case P_DECRYPT:
    c->key = c->op == P_DECRYPT ? load_private(d, p->priv, p->priv_len)
                                : load_public(d, p->pub, p->pub_len);
    if (c->key == NULL) {
      refuse(c, c->op == P_DECRYPT ? "private key not accepted" : "public key not accepted");
      return 0;
    }
    c->out_cap = (size_t)key_size(c->key) + 16;
    if (rsa_oaep_setup(c, c->op == P_DECRYPT) != 0) {
      cb_kit_err(err, errlen, "RSA-OAEP set-up failed");
      return -1;
    }
    return 0;
  case P_ENCAPS:
  case P_DECAPS: {
#if PK_ML
    c->key = c->op == P_DECAPS ? load_private(d, p->priv, p->priv_len)
                               : load_public(d, p->pub, p->pub_len);
    if (c->key == NULL) {
      refuse(c, c->op == P_DECAPS ? "private key not accepted" : "public key not accepted");
      return 0;
    }
    if (p->m != NULL && d->fam == F_HYBKEM) { /* mlx_kem.c takes no ikme: fresh randomness */
      cb_kit_err(err, errlen, "%sa deterministic encapsulation: OpenSSL's %s takes no m",
                 OPS_UNSUPPORTED, d->ossl);
      return -1;
    }
    if (p->m != NULL && p->m_len != 32) {
      cb_kit_err(c->err, sizeof c->err, "m of %zu bytes (32 needed)", p->m_len);
      c->refused = 1;
      return 0;
    }
    OSSL_PARAM params[2];
    params[0] = p->m != NULL
                    ? OSSL_PARAM_construct_octet_string(OSSL_KEM_PARAM_IKME, (void *)p->m, p->m_len)
                    : OSSL_PARAM_construct_end();
    params[1] = OSSL_PARAM_construct_end();
    c->pctx = EVP_PKEY_CTX_new_from_pkey(NULL, c->key, NULL);
    size_t kl = 0;
    if (c->pctx == NULL ||
        (c->op == P_ENCAPS ? EVP_PKEY_encapsulate_init(c->pctx, params)
                           : EVP_PKEY_decapsulate_init(c->pctx, NULL)) <= 0 ||
        (c->op == P_ENCAPS && EVP_PKEY_encapsulate(c->pctx, NULL, &c->ct_len, NULL, &kl) <= 0)) {
      refuse(c, d->fam == F_HYBKEM ? "hybrid KEM set-up" : "ML-KEM set-up");
      return 0;
    }
    if (c->op == P_ENCAPS) /* decaps keeps the 256 bytes above: the hybrids' keys are 64, 80 */
      c->out_cap = c->ct_len + (kl > KEM_KEY_LEN ? kl : KEM_KEY_LEN) + 16;
    return 0;
#else
    cb_kit_err(err, errlen, "%s: no ML-KEM in this OpenSSL", d->name);
    return -1;
#endif
  }
  }
  return -1;
}

PK_FAMILY_CELL_NEW(fam, ERR_clear_error())

static int fail(pk_cell *c, const char *what) {
  ossl_err(c->err, sizeof c->err, what);
  return OPS_FAIL;
}

static int rejected(pk_cell *c, const char *what) {
  ossl_err(c->err, sizeof c->err, what);
  return OPS_REJECTED;
}

/* One key pair and its encoded public key (EC: the point after the cell's SPKI header). */
static int run_keygen(pk_cell *c) {
  EVP_PKEY *k = generate(c->def, c->pctx);
  if (k == NULL)
    return fail(c, "EVP_PKEY_keygen");
  int rc = 0;
  if (c->prefix_len > 0) {
    size_t pl = ec_point(k, c->out + c->prefix_len, c->out_cap - c->prefix_len);
    memcpy(c->out, c->spki_prefix, c->prefix_len);
    c->out_len = c->prefix_len + pl;
    rc = pl > 0 ? 0 : -1;
  } else {
    rc = encode_public(c->def, k, c->out, c->out_cap, &c->out_len);
  }
  EVP_PKEY_free(k);
  if (rc != 0)
    return fail(c, "encoding the public key");
  return c->out[0];
}

static int run_sign(pk_cell *c) {
#if PK_OSSL3
  if (EVP_DigestSignInit_ex(c->mdctx, NULL, NULL, NULL, NULL, NULL, c->params) <= 0 ||
      sm2_id(c) <= 0)
    return fail(c, "EVP_DigestSignInit_ex (per operation)");
#else
  if (EVP_DigestSignInit(c->mdctx, NULL, c->md, NULL, c->key) <= 0)
    return fail(c, "EVP_DigestSignInit");
#endif
  size_t n = c->out_cap;
  if (EVP_DigestSign(c->mdctx, c->out, &n, c->msg, c->msg_len) <= 0)
    return fail(c, "EVP_DigestSign");
  c->out_len = n;
  return c->out[0];
}

static int run_verify(pk_cell *c) {
  c->out_len = 0;
#if PK_OSSL3
  if (EVP_DigestVerifyInit_ex(c->mdctx, NULL, NULL, NULL, NULL, NULL, c->params) <= 0 ||
      sm2_id(c) <= 0)
    return fail(c, "EVP_DigestVerifyInit_ex (per operation)");
#else
  if (EVP_DigestVerifyInit(c->mdctx, NULL, c->md, NULL, c->key) <= 0)
    return fail(c, "EVP_DigestVerifyInit");
#endif
  if (EVP_DigestVerify(c->mdctx, c->sig, c->sig_len, c->msg, c->msg_len) != 1)
    return rejected(c, "the signature does not verify");
  c->out[0] = 1;
  c->out_len = 1;
  return 1;
}

int pk_cell_run(pk_cell *c) {
  size_t n = c->out_cap;
  c->out_len = 0;
  if (c->refused)
    return OPS_REJECTED;
  switch (c->op) {
  case P_KEYGEN:
    return run_keygen(c);
  case P_SIGN:
    return run_sign(c);
  case P_VERIFY:
    return run_verify(c);
  case P_DERIVE:
    /* fails for an all-zero X25519/X448 result (a low-order peer point), as OpenSSL does */
    if (EVP_PKEY_derive(c->pctx, c->out, &n) <= 0)
      return rejected(c, "EVP_PKEY_derive");
    break;
  case P_ENCRYPT:
    if (EVP_PKEY_encrypt(c->pctx, c->out, &n, c->msg, c->msg_len) <= 0)
      return fail(c, "EVP_PKEY_encrypt");
    break;
  case P_DECRYPT:
    if (EVP_PKEY_decrypt(c->pctx, c->out, &n, c->msg, c->msg_len) <= 0)
      return rejected(c, "EVP_PKEY_decrypt");
    break;
#if PK_ML
  case P_ENCAPS: {
    size_t ctl = c->ct_len, kl = c->out_cap - c->ct_len;
    if (EVP_PKEY_encapsulate(c->pctx, c->out, &ctl, c->out + c->ct_len, &kl) <= 0 ||
        ctl != c->ct_len)
      return fail(c, "EVP_PKEY_encapsulate");
    n = ctl + kl;
    break;
  }
  case P_DECAPS:
    if (EVP_PKEY_decapsulate(c->pctx, c->out, &n, c->msg, c->msg_len) <= 0)
      return rejected(c, "EVP_PKEY_decapsulate");
    break;
#else
  case P_ENCAPS:
  case P_DECAPS:
    return OPS_FAIL;
#endif
  }
  c->out_len = n;
  return n > 0 ? c->out[0] : 0;
}

OPS_HALF_OUTPUT_ERROR(pk, c->out, c->out_len, "operation failed")

void pk_cell_free(pk_cell *c) {
  if (c == NULL)
    return;
  EVP_MD_CTX_free(c->mdctx);
  EVP_PKEY_CTX_free(c->pctx);
  EVP_PKEY_free(c->key);
  EVP_PKEY_free(c->peer);
  free(c->out);
  free(c);
}

/* ---- catalogue ---- */

/* Whether this libcrypto really has the algorithm: a key pair (not for RSA, always there and slow
 * to generate), and for signatures one signature that verifies, through the cells above. */
static int probe(const pk_def *d) {
  if (is_pq(d) && !PK_ML)
    return 0;
#if PK_ML
  if (d->fam == F_SLHDSA) {
    /* the key type and the signature algorithm are there: a key pair and a signature would cost
     * up to a second per "s" parameter set at every start of the driver (the native tests and
     * the vectors sign with each) */
    EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(NULL, d->ossl, NULL);
    EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(NULL, d->ossl, NULL);
    int ok = km != NULL && sig != NULL;
    EVP_SIGNATURE_free(sig);
    EVP_KEYMGMT_free(km);
    ERR_clear_error();
    return ok;
  }
#endif
  if (is_rsa(d)) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    EVP_PKEY_CTX_free(ctx);
    return ctx != NULL;
  }
  int ok = pk_probe_keypair(d->name, d->fam);
  ERR_clear_error();
  return ok;
}

PK_FAMILY_CATALOGUE(probe(d), fam)

size_t pk_catalogue(ops_alg *out, size_t max) { return pk_family_catalogue(out, max); }

size_t pk_notes(const char **notes, size_t max) {
  static char absent[1024];
  size_t used = 0;
  for (size_t i = 0; i < NDEFS; i++)
    if (find_def(DEFS[i].name) == NULL && used < sizeof absent)
      used += (size_t)snprintf(absent + used, sizeof absent - used, "%s%s",
                               used ? ", "
                                    : "public-key algorithms not offered (this libcrypto "
                                      "does not have them): ",
                               DEFS[i].name);
  const char *text[] = {
      "public-key algorithms through EVP_PKEY only; keys, peer keys, signatures and ciphertexts of "
      "a cell are made once, outside the timed region",
      "sign/verify: EVP_DigestSign/EVP_DigestVerify over the message (the hash is inside the "
      "operation): the EVP_MD_CTX is initialised with the key once per cell and re-initialised "
      "per operation (" PK_REINIT_NOTE "), then one EVP_DigestSign/EVP_DigestVerify call; "
      "RSA-PSS: SHA-256, MGF1-SHA-256, salt 32; PKCS#1 v1.5: SHA-256; ECDSA: SHA-256 (P-256, "
      "secp256k1) or SHA-384 (P-384), DER signatures; SM2: SM3 with the identity "
      "1234567812345678 " PK_SM2_ID_NOTE,
      "keygen: one EVP_PKEY_keygen on a context prepared per cell, then the public key in the "
      "protocol's encoding, then EVP_PKEY_free, all inside the timed region: RSA (e = 65537) "
      "i2d_PUBKEY; Ed/X EVP_PKEY_get_raw_public_key; ML-* and SLH-DSA the \"pub\" parameter; "
      "the TLS hybrids the \"encoded-pub-key\" parameter (the key share); EC and SM2 the "
      "uncompressed point (" PK_POINT_NOTE ") written after the SubjectPublicKeyInfo header "
      "i2d_PUBKEY gave once per cell: the same bytes, without i2d_PUBKEY's encoder, which costs "
      "several times the key generation itself in OpenSSL 3.0 (about 50 us against 9 us for "
      "P-256)",
      "derive: EVP_PKEY_derive with the peer set once per cell (EVP_PKEY_derive_set_peer); "
      "RSA-OAEP: EVP_PKEY_encrypt/decrypt, SHA-256 and MGF1-SHA-256, empty label; ML-KEM and the "
      "TLS hybrids: EVP_PKEY_encapsulate/decapsulate on a context initialised once per cell",
      /* one note for the families of 3.5 on (the hello has room for 16 notes in all) */
      PK_ML ? "ML-KEM and ML-DSA: native EVP_PKEY types; keys from seeds via the \"seed\" "
              "parameter; ML-DSA pure, empty context, hedged (deterministic only in vector cases "
              "that ask for it). SLH-DSA (FIPS 205): EVP_PKEY \"SLH-DSA-SHA2-128s\" ...; raw "
              "keys (public PK.seed || PK.root, private SK.seed || SK.prf || PK.seed || PK.root); "
              "keygen from a seed case through the \"seed\" parameter (SK.seed || SK.prf || "
              "PK.seed); pure, empty context, hedged (opt_rand from the library's DRBG), "
              "deterministic (opt_rand = PK.seed) only in vector cases that ask for it; the 's' "
              "sets sign in tenths of a second, so their cells calibrate to batch 1. "
              "x25519mlkem768, secp256r1mlkem768, secp384r1mlkem1024: OpenSSL's TLS 1.3 hybrid "
              "groups as KEMs (EVP_PKEY \"X25519MLKEM768\", \"SecP256r1MLKEM768\", "
              "\"SecP384r1MLKEM1024\"): keygen = the client's key share; encaps = an ephemeral "
              "EC/X25519 key and an ML-KEM encapsulation (the server's share) and the shared "
              "secret (64, 64, 80 bytes); decaps the client's side; no deterministic "
              "encapsulation (a case with m answers unsupported); private keys are OpenSSL's own "
              "(the expanded ML-KEM key and the EC/X25519 scalar, in the share's order)"
            : "ML-KEM, ML-DSA, SLH-DSA and the TLS hybrid KEMs: not offered (native in OpenSSL "
              "only from 3.5)",
      absent,
  };
  size_t n = 0;
  n += cb_kit_notes(text, sizeof text / sizeof text[0], notes + n, max - n);
  return n;
}
