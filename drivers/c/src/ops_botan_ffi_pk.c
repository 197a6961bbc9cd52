/* Public-key operations of cbdriver-botan-ffi (provider c:botan-ffi): the same Botan 2 and
 * algorithms as ops_botan_pk.cpp, through the C FFI (botan/ffi.h), the way a C user or a language
 * binding reaches them (protocol.md, version 2).
 *
 * botan_pk_op_sign_create / botan_pk_op_verify_create (the same padding strings as the C++ path,
 * BOTAN_PUBKEY_DER_FORMAT_SIGNATURE for ECDSA and SM2), botan_pk_op_key_agreement_create("Raw"),
 * botan_pk_op_encrypt_create / botan_pk_op_decrypt_create("OAEP(SHA-256)"), each once per cell;
 * per operation botan_pk_op_sign_update + _finish, botan_pk_op_verify_update + _finish,
 * botan_pk_op_key_agreement, botan_pk_op_encrypt, botan_pk_op_decrypt. Keys from
 * botan_pubkey_load / botan_privkey_load (DER), botan_privkey_load_ecdsa / _ecdh / _sm2 (scalar),
 * botan_privkey_load_ed25519 / _x25519 (raw); botan_privkey_create for key generation. One
 * botan_rng_t of type "user" (Botan's AutoSeeded_RNG, as the C++ path uses).
 */
#include "ops_pk.h"
#include "pk_family.h"
#include <cryptobench/kit.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <botan/ffi.h>

enum pkop { P_KEYGEN, P_SIGN, P_VERIFY, P_DERIVE, P_ENCRYPT, P_DECRYPT };
static const char *const PKOP_NAMES[] = {"keygen", "sign",    "verify",
                                         "derive", "encrypt", "decrypt"};

/* DER of the named curves' OIDs (the SPKI's AlgorithmIdentifier parameters), id-ecPublicKey */
static const uint8_t OID_P256[] = {0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t OID_P384[] = {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22};
static const uint8_t OID_K256[] = {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a};
static const uint8_t OID_SM2[] = {0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d};
static const uint8_t OID_EC_PUBLIC_KEY[] = {0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};

typedef struct pk_def {
  const char *name;    /* protocol name */
  enum pk_fam f;       /* family */
  size_t bits;         /* RSA: modulus bits */
  const char *group;   /* EC: Botan's name of the curve */
  const char *padding; /* what botan_pk_op_*_create takes */
  size_t len;          /* EC: field bytes; Ed25519 / X25519: raw key bytes */
  const uint8_t *oid;  /* EC: the curve's OID, DER */
  size_t oid_len;
} pk_def;

#define EC(oid) oid, sizeof oid
static const pk_def DEFS[] = {
    {"rsa-2048", F_RSA, 2048, NULL, NULL, 0, NULL, 0},
    {"rsa-3072", F_RSA, 3072, NULL, NULL, 0, NULL, 0},
    {"rsa-4096", F_RSA, 4096, NULL, NULL, 0, NULL, 0},
    {"rsa-2048-pss", F_PSS, 2048, NULL, "EMSA4(SHA-256,MGF1,32)", 0, NULL, 0},
    {"rsa-3072-pss", F_PSS, 3072, NULL, "EMSA4(SHA-256,MGF1,32)", 0, NULL, 0},
    {"rsa-4096-pss", F_PSS, 4096, NULL, "EMSA4(SHA-256,MGF1,32)", 0, NULL, 0},
    {"rsa-2048-pkcs1", F_PKCS1, 2048, NULL, "EMSA3(SHA-256)", 0, NULL, 0},
    {"rsa-3072-pkcs1", F_PKCS1, 3072, NULL, "EMSA3(SHA-256)", 0, NULL, 0},
    {"rsa-4096-pkcs1", F_PKCS1, 4096, NULL, "EMSA3(SHA-256)", 0, NULL, 0},
    {"rsa-2048-oaep", F_OAEP, 2048, NULL, "OAEP(SHA-256)", 0, NULL, 0},
    {"rsa-3072-oaep", F_OAEP, 3072, NULL, "OAEP(SHA-256)", 0, NULL, 0},
    {"rsa-4096-oaep", F_OAEP, 4096, NULL, "OAEP(SHA-256)", 0, NULL, 0},
    {"ecdsa-p256", F_ECDSA, 0, "secp256r1", "EMSA1(SHA-256)", 32, EC(OID_P256)},
    {"ecdsa-p384", F_ECDSA, 0, "secp384r1", "EMSA1(SHA-384)", 48, EC(OID_P384)},
    {"ecdsa-secp256k1", F_ECDSA, 0, "secp256k1", "EMSA1(SHA-256)", 32, EC(OID_K256)},
    {"ecdh-p256", F_ECDH, 0, "secp256r1", "Raw", 32, EC(OID_P256)},
    {"ecdh-p384", F_ECDH, 0, "secp384r1", "Raw", 48, EC(OID_P384)},
    {"ecdh-secp256k1", F_ECDH, 0, "secp256k1", "Raw", 32, EC(OID_K256)},
    {"ed25519", F_EDDSA, 0, NULL, "Pure", 32, NULL, 0},
    {"x25519", F_XDH, 0, NULL, "Raw", 32, NULL, 0},
    /* the identity given explicitly: Botan 2 takes "" (no comma) as an empty identity */
    {"sm2", F_SM2, 0, "sm2p256v1", "1234567812345678,SM3", 32, EC(OID_SM2)},
};
#undef EC
#define NDEFS (sizeof DEFS / sizeof DEFS[0])

PK_FAMILY_OFFERED(f)
static botan_rng_t rng;

struct pk_cell {
  const pk_def *def;
  enum pkop op;
  botan_privkey_t priv;
  botan_pubkey_t pub;
  botan_pk_op_sign_t sign;
  botan_pk_op_verify_t verify;
  botan_pk_op_ka_t ka;
  botan_pk_op_encrypt_t enc;
  botan_pk_op_decrypt_t dec;
  botan_mp_t mpx, mpy;      /* EC keygen: the point's coordinates */
  uint8_t peer[1 + 2 * 66]; /* derive: the peer's public value (EC point, X25519 key) */
  size_t peer_len;
  uint8_t prefix[64]; /* EC keygen: the SPKI header before the point */
  size_t prefix_len;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *sig;
  size_t sig_len;
  uint8_t *out;
  size_t out_cap;
  size_t out_len;
  int refused; /* the key material was refused: runs answer OPS_REJECTED */
  char err[256];
};

static void set_botan_err(char *err, size_t errlen, const char *what, int rc) {
  cb_kit_err(err, errlen, "%s: %s (%d)", what, botan_error_description(rc), rc);
}

/* The end of a set-up step whose Botan calls gave rc: 0, or -1 with `what` and Botan's words. */
static int made(int rc, const char *what, char *err, size_t errlen) {
  if (rc == 0)
    return 0;
  set_botan_err(err, errlen, what, rc);
  return -1;
}

static int is_ec(const pk_def *d) { return d->f == F_ECDSA || d->f == F_ECDH || d->f == F_SM2; }

static uint32_t sig_flags(const pk_def *d) {
  return d->f == F_ECDSA || d->f == F_SM2 ? BOTAN_PUBKEY_DER_FORMAT_SIGNATURE : 0;
}

/* ---- DER: just enough to check the outer structure the FFI does not let us see ---- */

/* One TLV at b[0 .. n): its tag, header length and content length. 0, or -1. */
static int der_tlv(const uint8_t *b, size_t n, uint8_t *tag, size_t *hdr, size_t *len) {
  if (n < 2)
    return -1;
  *tag = b[0];
  if (b[1] < 0x80) {
    *hdr = 2;
    *len = b[1];
  } else {
    size_t k = b[1] & 0x7f;
    if (k == 0 || k > 4 || n < 2 + k || b[2] == 0)
      return -1;
    *len = 0;
    for (size_t i = 0; i < k; i++)
      *len = *len << 8 | b[2 + i];
    if (*len < 0x80)
      return -1; /* not the shortest form */
    *hdr = 2 + k;
  }
  return *hdr + *len <= n ? 0 : -1;
}

/* Whether b[0 .. n) is exactly one DER SEQUENCE (nothing after it). */
static int der_one_sequence(const uint8_t *b, size_t n) {
  uint8_t tag;
  size_t hdr, len;
  return der_tlv(b, n, &tag, &hdr, &len) == 0 && tag == 0x30 && hdr + len == n;
}

/* An EC SubjectPublicKeyInfo: one SEQUENCE whose AlgorithmIdentifier is id-ecPublicKey with the
 * named curve of the algorithm (explicit curve parameters refused, RFC 5480). */
static int spki_ec_named(const pk_def *d, const uint8_t *b, size_t n) {
  uint8_t tag;
  size_t hdr, len, ahdr, alen;
  if (!der_one_sequence(b, n) || der_tlv(b, n, &tag, &hdr, &len) != 0)
    return 0;
  const uint8_t *a = b + hdr;
  if (der_tlv(a, len, &tag, &ahdr, &alen) != 0 || tag != 0x30)
    return 0;
  const uint8_t *oid = a + ahdr;
  size_t want = sizeof OID_EC_PUBLIC_KEY + d->oid_len;
  return alen == want && memcmp(oid, OID_EC_PUBLIC_KEY, sizeof OID_EC_PUBLIC_KEY) == 0 &&
         memcmp(oid + sizeof OID_EC_PUBLIC_KEY, d->oid, d->oid_len) == 0;
}

/* ---- keys ---- */

static void mp_free(botan_mp_t mp) {
  if (mp != NULL)
    botan_mp_destroy(mp);
}

/* mp as exactly len big-endian bytes into out. 0, or -1 when it does not fit. */
static int mp_fixed(botan_mp_t mp, uint8_t *out, size_t len) {
  size_t nb = 0;
  uint8_t tmp[600];
  if (botan_mp_num_bytes(mp, &nb) != 0 || nb > len || nb > sizeof tmp || botan_mp_to_bin(mp, tmp))
    return -1;
  memset(out, 0, len - nb);
  memcpy(out + len - nb, tmp, nb);
  return 0;
}

/* An EC key's point, uncompressed (04 || x || y), from its public_x / public_y fields. */
static int ec_point(const pk_def *d, botan_privkey_t priv, botan_pubkey_t pub, botan_mp_t x,
                    botan_mp_t y, uint8_t *out) {
  int rc = priv != NULL ? botan_privkey_get_field(x, priv, "public_x") |
                              botan_privkey_get_field(y, priv, "public_y")
                        : botan_pubkey_get_field(x, pub, "public_x") |
                              botan_pubkey_get_field(y, pub, "public_y");
  out[0] = 0x04;
  return rc == 0 && mp_fixed(x, out + 1, d->len) == 0 && mp_fixed(y, out + 1 + d->len, d->len) == 0
             ? 0
             : -1;
}

/* The modulus size of an RSA key, in bits (0 when it is none). */
static size_t rsa_bits(botan_privkey_t priv, botan_pubkey_t pub) {
  botan_mp_t n = NULL;
  size_t bits = 0;
  if (botan_mp_init(&n) == 0 && (priv != NULL ? botan_privkey_get_field(n, priv, "n")
                                              : botan_pubkey_get_field(n, pub, "n")) == 0)
    botan_mp_num_bits(n, &bits);
  mp_free(n);
  return bits;
}

static int pub_algo_is(botan_pubkey_t k, const char *name) {
  char buf[32];
  size_t n = sizeof buf;
  return botan_pubkey_algo_name(k, buf, &n) == 0 && strcmp(buf, name) == 0;
}

/* A DER SubjectPublicKeyInfo of the algorithm (RSA of its size; EC on its named curve, loaded
 * as the family's key: ECDSA as is, SM2 through botan_pubkey_load_sm2); NULL when refused. */
static botan_pubkey_t load_spki(const pk_def *d, const uint8_t *b, size_t n) {
  botan_pubkey_t k = NULL;
  if (b == NULL || !(is_ec(d) ? spki_ec_named(d, b, n) : der_one_sequence(b, n)) ||
      botan_pubkey_load(&k, b, n) != 0)
    return NULL;
  if (is_rsa(d)) {
    if (!pub_algo_is(k, "RSA") || rsa_bits(NULL, k) != d->bits) {
      botan_pubkey_destroy(k);
      return NULL;
    }
    return k;
  }
  if (d->f == F_SM2) {
    botan_pubkey_t sm2 = NULL;
    botan_mp_t x = NULL, y = NULL;
    if (botan_mp_init(&x) == 0 && botan_mp_init(&y) == 0 &&
        botan_pubkey_get_field(x, k, "public_x") == 0 &&
        botan_pubkey_get_field(y, k, "public_y") == 0 &&
        botan_pubkey_load_sm2(&sm2, x, y, d->group) != 0)
      sm2 = NULL;
    mp_free(x);
    mp_free(y);
    botan_pubkey_destroy(k);
    return sm2;
  }
  return k;
}

static botan_privkey_t load_private(const pk_def *d, const uint8_t *b, size_t n) {
  botan_privkey_t k = NULL;
  if (b == NULL)
    return NULL;
  if (is_rsa(d)) {
    if (!der_one_sequence(b, n) || botan_privkey_load(&k, rng, b, n, NULL) != 0)
      return NULL;
    if (rsa_bits(k, NULL) != d->bits) {
      botan_privkey_destroy(k);
      return NULL;
    }
    return k;
  }
  if (n != d->len)
    return NULL;
  if (d->f == F_EDDSA)
    return botan_privkey_load_ed25519(&k, b) == 0 ? k : NULL;
  if (d->f == F_XDH)
    return botan_privkey_load_x25519(&k, b) == 0 ? k : NULL;
  /* EC: the scalar; 0 would make Botan draw a random key, so it is refused first */
  botan_mp_t x = NULL, order = NULL;
  int ok = botan_mp_init(&x) == 0 && botan_mp_init(&order) == 0 &&
           botan_mp_from_bin(x, b, n) == 0 && botan_mp_is_zero(x) == 0;
  if (ok) {
    int rc = d->f == F_ECDH  ? botan_privkey_load_ecdh(&k, x, d->group)
             : d->f == F_SM2 ? botan_privkey_load_sm2(&k, x, d->group)
                             : botan_privkey_load_ecdsa(&k, x, d->group);
    int cmp = 1;
    ok = rc == 0 && botan_privkey_get_field(order, k, "order") == 0 &&
         botan_mp_cmp(&cmp, x, order) == 0 && cmp < 0;
  }
  mp_free(x);
  mp_free(order);
  if (!ok) {
    if (k != NULL)
      botan_privkey_destroy(k);
    return NULL;
  }
  return k;
}

static const char *create_algo(const pk_def *d) {
  switch (d->f) {
  case F_ECDSA:
    return "ECDSA";
  case F_ECDH:
    return "ECDH";
  case F_SM2:
    return "SM2";
  case F_EDDSA:
    return "Ed25519";
  case F_XDH:
    return "Curve25519";
  default:
    return "RSA";
  }
}

/* A fresh key pair of the family. */
static int generate(const pk_def *d, botan_privkey_t *k) {
  char bits[16];
  snprintf(bits, sizeof bits, "%zu", d->bits);
  return botan_privkey_create(k, create_algo(d),
                              is_rsa(d)          ? bits
                              : d->group != NULL ? d->group
                                                 : "",
                              rng);
}

/* The SubjectPublicKeyInfo DER of an EC point: id-ecPublicKey on the named curve, whichever key
 * class holds it (an ECDSA public key made from the point). */
static int ec_spki(const pk_def *d, botan_privkey_t k, uint8_t *out, size_t *len) {
  botan_mp_t x = NULL, y = NULL;
  botan_pubkey_t p = NULL;
  int rc = -1;
  if (botan_mp_init(&x) == 0 && botan_mp_init(&y) == 0 &&
      botan_privkey_get_field(x, k, "public_x") == 0 &&
      botan_privkey_get_field(y, k, "public_y") == 0 &&
      botan_pubkey_load_ecdsa(&p, x, y, d->group) == 0 &&
      botan_pubkey_export(p, out, len, BOTAN_PRIVKEY_EXPORT_FLAG_DER) == 0)
    rc = 0;
  if (p != NULL)
    botan_pubkey_destroy(p);
  mp_free(x);
  mp_free(y);
  return rc;
}

int pk_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
               char *err, size_t errlen) {
  const pk_def *d = pk_fam_keypair_def(find_def(alg), alg, pub, priv, err, errlen);
  if (d == NULL)
    return -1;
  botan_privkey_t k = NULL;
  botan_pubkey_t p = NULL;
  botan_mp_t x = NULL;
  int rc = generate(d, &k);
  if (rc != 0) {
    set_botan_err(err, errlen, "botan_privkey_create", rc);
    return -1;
  }
  size_t cap = 4096;
  uint8_t sk[64];
  *pub = malloc(cap);
  *priv = malloc(cap);
  *pub_len = *priv_len = cap;
  rc = *pub == NULL || *priv == NULL ? -1 : 0;
  if (rc == 0 && is_rsa(d)) {
    rc = botan_privkey_export_pubkey(&p, k) ||
         botan_pubkey_export(p, *pub, pub_len, BOTAN_PRIVKEY_EXPORT_FLAG_DER) ||
         botan_privkey_export(k, *priv, priv_len, BOTAN_PRIVKEY_EXPORT_FLAG_DER);
  } else if (rc == 0 && is_ec(d)) {
    rc = ec_spki(d, k, *pub, pub_len) || botan_mp_init(&x) || botan_privkey_get_field(x, k, "x") ||
         mp_fixed(x, *priv, d->len);
    *priv_len = d->len;
  } else if (rc == 0 && d->f == F_EDDSA) {
    rc = botan_privkey_ed25519_get_privkey(k, sk); /* seed || public */
    memcpy(*priv, sk, 32);
    memcpy(*pub, sk + 32, 32);
    *priv_len = *pub_len = 32;
  } else if (rc == 0) {
    rc = botan_privkey_x25519_get_privkey(k, *priv) ||
         botan_pk_op_key_agreement_export_public(k, *pub, pub_len);
    *priv_len = 32;
  }
  if (p != NULL)
    botan_pubkey_destroy(p);
  mp_free(x);
  botan_privkey_destroy(k);
  if (rc != 0) {
    free(*pub);
    free(*priv);
    *pub = *priv = NULL;
    cb_kit_err(err, errlen, "encoding the key pair failed");
    return -1;
  }
  return 0;
}

/* ---- cells ---- */

/* The library refused the key material: every run answers OPS_REJECTED with why; 0, prepare's
 * answer (a cell that rejects). */
static int refuse(pk_cell *c, const char *why) {
  cb_kit_err(c->err, sizeof c->err, "%s", why);
  c->refused = 1;
  return 0;
}

/* EC keygen: the SPKI header of the curve, from one key (the same for every key). */
static int spki_prefix(pk_cell *c, char *err, size_t errlen) {
  const pk_def *d = c->def;
  botan_privkey_t k = NULL;
  uint8_t spki[256], pt[1 + 2 * 66];
  size_t n = sizeof spki, pl = 1 + 2 * d->len;
  int ok = generate(d, &k) == 0 && ec_spki(d, k, spki, &n) == 0 &&
           ec_point(d, k, NULL, c->mpx, c->mpy, pt) == 0 && n > pl && n - pl <= sizeof c->prefix &&
           memcmp(spki + n - pl, pt, pl) == 0;
  if (k != NULL)
    botan_privkey_destroy(k);
  if (!ok) {
    cb_kit_err(err, errlen, "EC key generation: the SPKI does not end with the point");
    return -1;
  }
  c->prefix_len = n - pl;
  memcpy(c->prefix, spki, c->prefix_len);
  return 0;
}

/* Everything outside the timed region. -1 (err set) for an unusable request; 0 otherwise, with
 * c->refused set when the library refuses the key material. */
static int prepare(pk_cell *c, const ops_params *p, char *err, size_t errlen) {
  const pk_def *d = c->def;
  int rc = 0;
  c->out_cap = 1024;
  if (pk_fam_no_seed_ctx(p, d->name, err, errlen) != 0)
    return -1;
  switch (c->op) {
  case P_KEYGEN:
    c->out_cap = 4096;
    if (is_ec(d)) {
      if (botan_mp_init(&c->mpx) != 0 || botan_mp_init(&c->mpy) != 0) {
        cb_kit_err(err, errlen, "botan_mp_init failed");
        return -1;
      }
      return spki_prefix(c, err, errlen);
    }
    return 0;
  case P_SIGN:
    if ((c->priv = load_private(d, p->priv, p->priv_len)) == NULL)
      return refuse(c, "private key not accepted");
    if ((rc = botan_pk_op_sign_create(&c->sign, c->priv, d->padding, sig_flags(d))) == 0)
      rc = botan_pk_op_sign_output_length(c->sign, &c->out_cap);
    return made(rc, "botan_pk_op_sign_create", err, errlen);
  case P_VERIFY:
    if (d->f == F_EDDSA) {
      if (p->pub == NULL || p->pub_len != 32 || botan_pubkey_load_ed25519(&c->pub, p->pub) != 0)
        c->pub = NULL;
    } else {
      c->pub = load_spki(d, p->pub, p->pub_len);
    }
    if (c->pub == NULL)
      return refuse(c, "public key not accepted");
    c->sig = p->sig != NULL ? p->sig : (const uint8_t *)"";
    c->sig_len = p->sig != NULL ? p->sig_len : 0;
    c->out_cap = 1;
    return made(botan_pk_op_verify_create(&c->verify, c->pub, d->padding, sig_flags(d)),
                "botan_pk_op_verify_create", err, errlen);
  case P_DERIVE:
    c->priv = load_private(d, p->priv, p->priv_len);
    if (d->f == F_XDH) {
      if (p->pub != NULL && p->pub_len == 32) {
        memcpy(c->peer, p->pub, 32);
        c->peer_len = 32;
      }
    } else {
      botan_pubkey_t peer = load_spki(d, p->pub, p->pub_len);
      botan_mp_t x = NULL, y = NULL;
      if (peer != NULL && botan_mp_init(&x) == 0 && botan_mp_init(&y) == 0 &&
          ec_point(d, NULL, peer, x, y, c->peer) == 0)
        c->peer_len = 1 + 2 * d->len;
      mp_free(x);
      mp_free(y);
      if (peer != NULL)
        botan_pubkey_destroy(peer);
    }
    if (c->priv == NULL || c->peer_len == 0)
      return refuse(c,
                    c->priv == NULL ? "private key not accepted" : "peer public key not accepted");
    return made(botan_pk_op_key_agreement_create(&c->ka, c->priv, d->padding, 0),
                "botan_pk_op_key_agreement_create", err, errlen);
  case P_ENCRYPT:
    if ((c->pub = load_spki(d, p->pub, p->pub_len)) == NULL)
      return refuse(c, "public key not accepted");
    if ((rc = botan_pk_op_encrypt_create(&c->enc, c->pub, d->padding, 0)) == 0)
      rc = botan_pk_op_encrypt_output_length(c->enc, c->msg_len, &c->out_cap);
    return made(rc, "botan_pk_op_encrypt_create", err, errlen);
  case P_DECRYPT:
    if ((c->priv = load_private(d, p->priv, p->priv_len)) == NULL)
      return refuse(c, "private key not accepted");
    c->out_cap = d->bits / 8;
    return made(botan_pk_op_decrypt_create(&c->dec, c->priv, d->padding, 0),
                "botan_pk_op_decrypt_create", err, errlen);
  }
  return -1;
}

void pk_cell_free(pk_cell *c) {
  if (c == NULL)
    return;
  if (c->sign != NULL)
    botan_pk_op_sign_destroy(c->sign);
  if (c->verify != NULL)
    botan_pk_op_verify_destroy(c->verify);
  if (c->ka != NULL)
    botan_pk_op_key_agreement_destroy(c->ka);
  if (c->enc != NULL)
    botan_pk_op_encrypt_destroy(c->enc);
  if (c->dec != NULL)
    botan_pk_op_decrypt_destroy(c->dec);
  if (c->priv != NULL)
    botan_privkey_destroy(c->priv);
  if (c->pub != NULL)
    botan_pubkey_destroy(c->pub);
  mp_free(c->mpx);
  mp_free(c->mpy);
  free(c->out);
  free(c);
}

PK_FAMILY_CELL_NEW(f, (void)0)

static int fail(pk_cell *c, const char *what, int rc) {
  set_botan_err(c->err, sizeof c->err, what, rc);
  return OPS_FAIL;
}

static int rejected(pk_cell *c, const char *what, int rc) {
  set_botan_err(c->err, sizeof c->err, what, rc);
  return OPS_REJECTED;
}

/* One key pair and its encoded public key: RSA botan_pubkey_export (DER); EC the point (the
 * public_x / public_y fields) after the cell's SPKI header; Ed25519 the public half of
 * botan_privkey_ed25519_get_privkey; X25519 botan_pk_op_key_agreement_export_public. */
static int run_keygen(pk_cell *c) {
  const pk_def *d = c->def;
  botan_privkey_t k = NULL;
  botan_pubkey_t p = NULL;
  uint8_t sk[64];
  int rc = generate(d, &k);
  if (rc != 0)
    return fail(c, "botan_privkey_create", rc);
  size_t n = c->out_cap;
  if (is_rsa(d)) {
    rc = botan_privkey_export_pubkey(&p, k);
    if (rc == 0)
      rc = botan_pubkey_export(p, c->out, &n, BOTAN_PRIVKEY_EXPORT_FLAG_DER);
  } else if (is_ec(d)) {
    memcpy(c->out, c->prefix, c->prefix_len);
    rc = ec_point(d, k, NULL, c->mpx, c->mpy, c->out + c->prefix_len);
    n = c->prefix_len + 1 + 2 * d->len;
  } else if (d->f == F_EDDSA) {
    rc = botan_privkey_ed25519_get_privkey(k, sk);
    memcpy(c->out, sk + 32, 32);
    n = 32;
  } else {
    rc = botan_pk_op_key_agreement_export_public(k, c->out, &n);
  }
  if (p != NULL)
    botan_pubkey_destroy(p);
  botan_privkey_destroy(k);
  if (rc != 0)
    return fail(c, "encoding the public key", rc);
  c->out_len = n;
  return c->out[0];
}

int pk_cell_run(pk_cell *c) {
  size_t n = c->out_cap;
  int rc;
  c->out_len = 0;
  if (c->refused)
    return OPS_REJECTED;
  switch (c->op) {
  case P_KEYGEN:
    return run_keygen(c);
  case P_SIGN:
    if ((rc = botan_pk_op_sign_update(c->sign, c->msg, c->msg_len)) != 0 ||
        (rc = botan_pk_op_sign_finish(c->sign, rng, c->out, &n)) != 0)
      return fail(c, "botan_pk_op_sign", rc);
    break;
  case P_VERIFY:
    if ((rc = botan_pk_op_verify_update(c->verify, c->msg, c->msg_len)) != 0 ||
        (rc = botan_pk_op_verify_finish(c->verify, c->sig, c->sig_len)) != 0)
      return rejected(c, "the signature does not verify", rc);
    c->out[0] = 1;
    n = 1;
    break;
  case P_DERIVE:
    if ((rc = botan_pk_op_key_agreement(c->ka, c->out, &n, c->peer, c->peer_len, NULL, 0)) != 0)
      return rejected(c, "botan_pk_op_key_agreement", rc);
    break;
  case P_ENCRYPT:
    if ((rc = botan_pk_op_encrypt(c->enc, rng, c->out, &n, c->msg, c->msg_len)) != 0)
      return fail(c, "botan_pk_op_encrypt", rc);
    break;
  case P_DECRYPT:
    if ((rc = botan_pk_op_decrypt(c->dec, c->out, &n, c->msg, c->msg_len)) != 0)
      return rejected(c, "botan_pk_op_decrypt", rc);
    break;
  }
  c->out_len = n;
  return n > 0 ? c->out[0] : 0;
}

OPS_HALF_OUTPUT_ERROR(pk, c->out, c->out_len, "operation failed")

/* ---- catalogue ---- */

/* Whether the library really has the algorithm: a key pair (not for RSA, always there and slow to
 * generate), and for signatures one that verifies, through the cells. */
static int probe(const pk_def *d) { return is_rsa(d) || pk_probe_keypair(d->name, d->f); }

PK_FAMILY_CATALOGUE(probe(d), f)

size_t pk_catalogue(ops_alg *out, size_t max) {
  noffered = 0;
  if (rng == NULL && botan_rng_init(&rng, "user") != 0)
    return 0;
  return pk_family_catalogue(out, max);
}

size_t pk_notes(const char **notes, size_t max) {
  static const char *const text[] = {
      "public-key: botan_pk_op_sign_create / _verify_create / _key_agreement_create(\"Raw\") / "
      "_encrypt_create / _decrypt_create once per cell with the cell's key (keys, peer keys, "
      "signatures and ciphertexts made outside the timed region); per operation "
      "botan_pk_op_sign_update + _finish, botan_pk_op_verify_update + _finish, "
      "botan_pk_op_key_agreement, botan_pk_op_encrypt, botan_pk_op_decrypt, with one "
      "botan_rng_t of type \"user\"; the same padding strings as cpp:botan",
      "keygen: botan_privkey_create, then the public key in the protocol's encoding: RSA "
      "botan_privkey_export_pubkey + botan_pubkey_export (DER); EC the point from the public_x / "
      "public_y fields (botan_privkey_get_field, botan_mp_to_bin) after the SPKI header made once "
      "per cell; Ed25519 the public half of botan_privkey_ed25519_get_privkey; X25519 "
      "botan_pk_op_key_agreement_export_public",
      "keys: SPKI and PKCS#8 through botan_pubkey_load / botan_privkey_load (the outer DER "
      "structure and, for EC, the named curve checked here first: the FFI shows neither), EC "
      "scalars through botan_privkey_load_ecdsa / _ecdh / _sm2, SM2 public keys through "
      "botan_pubkey_load_sm2 from the SPKI's point",
      "not in Botan 2, so not offered: Ed448, X448, ML-KEM, ML-DSA (Botan 2 has only the "
      "round-3 Kyber and Dilithium, not FIPS 203/204)",
  };
  return cb_kit_notes(text, sizeof text / sizeof text[0], notes, max);
}
