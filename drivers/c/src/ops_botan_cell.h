/* What the two Botan modules (ops_botan.cpp, its C++ API; ops_botan_ffi.c, its C FFI) check alike
 * before a symmetric cell: Botan's limits, not the access path's. C and C++. Internal to the C
 * driver family. */
#ifndef CB_OPS_BOTAN_CELL_H
#define CB_OPS_BOTAN_CELL_H

#include <string.h>

#include "ops_module.h" /* after the module's own OPS_SUBCELLS */
#include <cryptobench/kit.h>

/* ops_sym_checks (why: the module's reason a non-streaming algorithm is not streamed), then
 * Botan's CBC decryption (botan: Botan's name of the algorithm; decrypt: the operation is a
 * decryption), which refuses an empty ciphertext. 0, or -1 with the message in err. */
static inline int botan_sym_checks(const ops_params *p, const char *name, int stream,
                                   const char *botan, int decrypt, const char *why, char *err,
                                   size_t errlen) {
  if (ops_sym_checks(p, name, stream, why, err, errlen) != 0)
    return -1;
  if (decrypt && p->msg_len == 0 && strstr(botan, "/CBC/") != NULL) {
    cb_kit_err(err, errlen,
               "not offered at this size: Botan's CBC decryption refuses an empty "
               "ciphertext (finish() wants at least one block)");
    return -1;
  }
  return 0;
}

/* Botan's CCM with a 12-byte nonce (ccm: the cell's algorithm is one) leaves L = 3 length bytes:
 * a message of in_len >= 2^24 bytes is refused. 0, or -1 with the message in err. */
static inline int botan_ccm_fits(int ccm, const char *name, size_t in_len, char *err,
                                 size_t errlen) {
  if (!ccm || (in_len >> 24) == 0)
    return 0;
  cb_kit_err(err, errlen,
             "not offered at this size: %s with a 12-byte nonce (L = 3) takes messages below 2^24 "
             "bytes",
             name);
  return -1;
}

#endif
