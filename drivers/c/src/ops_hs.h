/* The key-derivation and handshake half of the OpenSSL module (protocol.md, version 3):
 * ops_openssl_hs.c, used by ops_openssl.c. hkdf-sha256 `derive`, and the handshakes of
 * docs/pq-ntor.md (ntor, pq-ntor-512/768/1024) through the C library protocols/pqntor/c, which
 * the Makefile compiles into every OpenSSL binary (ntor wherever OpenSSL has X25519 and HKDF,
 * pq-ntor only with ML-KEM, OpenSSL >= 3.5). Internal to the C driver family. */
#ifndef CB_OPS_HS_H
#define CB_OPS_HS_H

#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hs_catalogue probes what the library has (one handshake per suite); then the notes and the
 * ops.h cell functions for an algorithm of it. */
OPS_HALF(hs)
hs_cell *hs_cell_new(const ops_params *p, char *err, size_t errlen);
int hs_cell_prepare(hs_cell *c, uint64_t n);

/* Tests only (tests/test_driver.c): the ops_cell's handshake half, NULL for another cell; and
 * flip one bit of every prepared reply not yet used, so the following client-finish operations
 * fail (a failed finish must be an error, never a silent zero). */
hs_cell *ops_openssl_hs_of(ops_cell *c);
void hs_cell_test_corrupt_replies(hs_cell *c);

#ifdef __cplusplus
}
#endif

#endif
