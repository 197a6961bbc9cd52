/* What the three public-key halves (ops_openssl_pk.c, ops_botan_pk.cpp, ops_botan_ffi_pk.c)
 * share: the families of public-key algorithm and the operations each family has (the hello's
 * offers and a cell's first check), and the catalogue probe (a signature over "abc" with a fresh
 * key pair that verifies, through the half's own cells). Linked into each of those plugins;
 * nothing here runs in a timed region. Internal to the C driver family. */
#ifndef CB_PK_FAMILY_H
#define CB_PK_FAMILY_H

#include "ops_pk.h"
#include <cryptobench/kit.h>

#include <stdlib.h>
#include <string.h>

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

/* The list of the half's algorithms its catalogue probe accepted (offered[0..noffered), filled by
 * PK_FAMILY_CATALOGUE), find_def(name) in it (NULL: not offered), and is_rsa(d), over its table
 * DEFS[0..NDEFS) of pk_def, whose family member FAM names. */
#define PK_FAMILY_OFFERED(FAM)                                                                     \
  static const pk_def *offered[NDEFS];                                                             \
  static size_t noffered;                                                                          \
  static const pk_def *find_def(const char *name) {                                                \
    for (size_t i = 0; i < noffered; i++)                                                          \
      if (strcmp(offered[i]->name, name) == 0)                                                     \
        return offered[i];                                                                         \
    return NULL;                                                                                   \
  }                                                                                                \
  static int is_rsa(const pk_def *d) {                                                             \
    return d->FAM == F_RSA || d->FAM == F_PSS || d->FAM == F_PKCS1 || d->FAM == F_OAEP;            \
  }

/* What no Botan half takes: a key from a seed, a context string (ML-DSA's). 0, or -1 with the
 * protocol's "unsupported: ..." in err. */
static inline int pk_fam_no_seed_ctx(const ops_params *p, const char *name, char *err,
                                     size_t errlen) {
  if (p->seed != NULL)
    cb_kit_err(err, errlen, "%sa key from a seed (%s)", OPS_UNSUPPORTED, name);
  else if (p->ctx != NULL)
    cb_kit_err(err, errlen, "%sa context string: only ML-DSA", OPS_UNSUPPORTED);
  else
    return 0;
  return -1;
}

/* pk_keypair's first step in every half: *pub = *priv = NULL, then def (the half's find_def(alg)),
 * or NULL with "algorithm not offered: <alg>" in err when it is NULL. */
static inline const void *pk_fam_keypair_def(const void *def, const char *alg, uint8_t **pub,
                                             uint8_t **priv, char *err, size_t errlen) {
  *pub = *priv = NULL;
  if (def == NULL)
    cb_kit_err(err, errlen, "algorithm not offered: %s", alg);
  return def;
}

/* pk_family_catalogue(out, max), the catalogue of a half, the same in each: of its DEFS[0..NDEFS),
 * every algorithm d (a const pk_def *) for which PROBE holds, kept in offered[0..noffered), the
 * list its find_def looks in (PROBE goes through the cells, which look d up there), and entered
 * in out[0..max); FAM names pk_def's family member. How many. */
#define PK_FAMILY_CATALOGUE(PROBE, FAM)                                                            \
  static size_t pk_family_catalogue(ops_alg *out, size_t max) {                                    \
    size_t n = 0;                                                                                  \
    noffered = 0;                                                                                  \
    for (size_t i = 0; i < NDEFS && n < max; i++) {                                                \
      const pk_def *d = &DEFS[i];                                                                  \
      offered[noffered++] = d;                                                                     \
      if (PROBE)                                                                                   \
        pk_alg_fill(&out[n++], d->name, d->FAM);                                                   \
      else                                                                                         \
        noffered--;                                                                                \
    }                                                                                              \
    return n;                                                                                      \
  }

/* a public-key cell's output buffer of cap bytes (at least 1), or NULL with "out of memory" */
static inline uint8_t *pk_fam_out_buf(size_t cap, char *err, size_t errlen) {
  uint8_t *b = (uint8_t *)malloc(cap > 0 ? cap : 1);
  if (b == NULL)
    cb_kit_err(err, errlen, "out of memory");
  return b;
}

/* pk_cell_new of a C half (ops_openssl_pk.c, ops_botan_ffi_pk.c), the same in each: the kit's
 * checks of the algorithm (the half's find_def) and of the operation (the half's PKOP_NAMES, its
 * family's: FAM names pk_def's family member), a zeroed cell with def, op and the message, the
 * half's prepare(), then the output buffer of out_cap bytes; AFTER runs last (e.g. clearing the
 * library's error queue). */
#define PK_FAMILY_CELL_NEW(FAM, AFTER)                                                             \
  pk_cell *pk_cell_new(const ops_params *p, char *err, size_t errlen) {                            \
    const pk_def *d = find_def(p->alg);                                                            \
    int op = cb_kit_op_index(p->op, PKOP_NAMES, sizeof PKOP_NAMES / sizeof PKOP_NAMES[0]);         \
    if (cb_kit_pk_checks(p, d != NULL ? d->name : NULL,                                            \
                         d != NULL && op >= 0 && pk_fam_allows(d->FAM, p->op), err, errlen) != 0)  \
      return NULL;                                                                                 \
    pk_cell *c = (pk_cell *)cb_kit_zalloc(sizeof *c, err, errlen);                                 \
    if (c == NULL)                                                                                 \
      return NULL;                                                                                 \
    c->def = d;                                                                                    \
    c->op = (enum pkop)op;                                                                         \
    c->msg = p->msg != NULL ? p->msg : (const uint8_t *)"";                                        \
    c->msg_len = p->msg != NULL ? p->msg_len : 0;                                                  \
    if (prepare(c, p, err, errlen) != 0 ||                                                         \
        (c->out = pk_fam_out_buf(c->out_cap, err, errlen)) == NULL) {                              \
      pk_cell_free(c);                                                                             \
      return NULL;                                                                                 \
    }                                                                                              \
    AFTER;                                                                                         \
    return c;                                                                                      \
  }

#ifdef __cplusplus
}
#endif

#endif
