/* What the three public-key halves (ops_openssl_pk.c, ops_botan_pk.cpp, ops_botan_ffi_pk.c)
 * share: the families of public-key algorithm and the operations each family has (the hello's
 * offers and a cell's first check), and the catalogue probe (a signature over "abc" with a fresh
 * key pair that verifies, through the half's own cells). Linked into each of those plugins;
 * nothing here runs in a timed region. Internal to the C driver family. */
#ifndef CB_PK_FAMILY_H
#define CB_PK_FAMILY_H

#include "ops_pk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a module has the families its library has (Botan 2: no ML-KEM, no ML-DSA) */
enum pk_fam {
  F_RSA,    /* keygen */
  F_PSS,    /* sign, verify */
  F_PKCS1,  /* sign, verify */
  F_OAEP,   /* encrypt, decrypt */
  F_ECDSA,  /* keygen, sign, verify */
  F_ECDH,   /* derive */
  F_SM2,    /* keygen, sign, verify */
  F_EDDSA,  /* keygen, sign, verify */
  F_XDH,    /* keygen, derive */
  F_MLKEM,  /* keygen, encaps, decaps */
  F_MLDSA,  /* keygen, sign, verify */
  F_SLHDSA, /* keygen, sign, verify (FIPS 205) */
  F_HYBKEM  /* keygen, encaps, decaps: the TLS 1.3 hybrid key shares as KEMs */
};

/* Whether family f has operation op (a protocol name). */
int pk_fam_allows(enum pk_fam f, const char *op);

/* The catalogue entry of a public-key algorithm `name` of family f: its operations, pk = 1. */
void pk_alg_fill(ops_alg *a, const char *name, enum pk_fam f);

/* Whether the half really has algorithm alg of family f: a key pair from its pk_keypair, and for a
 * family that signs, a signature over "abc" that verifies, through its own cells. 1 or 0. */
int pk_probe_keypair(const char *alg, enum pk_fam f);

#ifdef __cplusplus
}
#endif

#endif
