/* What the three public-key halves (ops_openssl_pk.c, ops_botan_pk.cpp, ops_botan_ffi_pk.c) did
 * alike when probing their catalogue: a signature over "abc" with a fresh key pair that verifies,
 * through the half's own cells. Linked into each of those plugins; outside any timed region.
 * Internal to the C driver family. */
#ifndef CB_PK_PROBE_H
#define CB_PK_PROBE_H

#include "ops_pk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when a sign cell with priv signs "abc" and a verify cell with pub accepts that signature,
 * else 0; err (errlen bytes) holds the first cell's message when a cell could not be made. */
int pk_probe_signs(const char *alg, const uint8_t *pub, size_t pub_len, const uint8_t *priv,
                   size_t priv_len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
