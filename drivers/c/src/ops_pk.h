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

/* pk_catalogue's entries have pk = 1; then the notes, the ops.h cell functions and ops_keypair()
 * for a public-key algorithm of it. */
OPS_HALF(pk)
pk_cell *pk_cell_new(const ops_params *p, char *err, size_t errlen);
int pk_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
               char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
