/* The public-key bench set-up (pk_bench.c). Internal to the generic C driver. */
#ifndef CB_PK_BENCH_H
#define CB_PK_BENCH_H

#include <jansson.h>

#include "ops.h"

/* What a public-key bench cell needs besides the message, made outside the timed region once per
 * cell: key pairs from ops_keypair, and for verify / decrypt / decaps the signature / ciphertext
 * made by a sign / encrypt / encaps cell of the same module. */
typedef struct pk_material {
  uint8_t *pub, *priv, *peer_pub, *peer_priv, *made;
  size_t pub_len, priv_len, peer_pub_len, peer_priv_len, made_len;
} pk_material;

void pk_material_free(pk_material *m);

/* Fill the key fields of a public-key bench cell's parameters (keys, peer keys, signatures and
 * ciphertexts, made once per cell); their buffers go into m (pk_material_free). 0, or -1 with
 * *res set to the error response. */
int pk_prepare(ops_params *p, pk_material *m, json_t **res);

#endif
