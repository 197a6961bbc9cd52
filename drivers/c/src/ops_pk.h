/* The public-key half of a library module: ops_openssl_pk.c (used by ops_openssl.c),
 * ops_botan_pk.cpp (ops_botan.cpp), ops_botan_ffi_pk.c (ops_botan_ffi.c). The module's ops.h
 * functions hand the public-key algorithms of their catalogue to these, so each half stays
 * readable; every binary links exactly one implementation. Internal to the C driver family. */
#ifndef CB_OPS_PK_H
#define CB_OPS_PK_H

#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pk_cell pk_cell;

/* Probe what the library has; write up to max catalogue entries (pk = 1) into out. */
size_t pk_catalogue(ops_alg *out, size_t max);

/* hello notes for the public-key algorithms. */
size_t pk_notes(const char **notes, size_t max);

/* The ops.h cell functions and ops_keypair() for a public-key algorithm of the catalogue. */
pk_cell *pk_cell_new(const ops_params *p, char *err, size_t errlen);
OPS_SUBCELL_FUNCTIONS(pk_cell)
int pk_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
               char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
