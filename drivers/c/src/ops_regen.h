/* What a module that regenerates a big streamed decrypt's ciphertext defines (ops.h,
 * "Big streamed decrypt/open with bounded memory"), the same in each: the clock it counts the
 * regeneration time with and the two ops_ functions (the plugin table's two optional members), over
 * its cell's `untimed_ns` field. Included once, by ops_openssl.c, ops_botan.cpp and ops_botan_ffi.c
 * (inside extern "C" there). */
#ifndef CB_OPS_REGEN_H
#define CB_OPS_REGEN_H

#include <stdint.h>
#include <time.h>

#include "ops.h"

/* The driver's clock (timing.c), for the regeneration time it subtracts. */
static inline uint64_t ops_regen_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What OPS_MODULE_EXPORT (ops_module.h) puts in cb_provider.regenerates_ciphertext and
 * .cell_untimed_ns. */
#define OPS_REGEN_DEFINE_EXPORTS                                                                   \
  static int mod_regenerates_ciphertext(void) { return 1; }                                        \
                                                                                                   \
  static uint64_t mod_cell_untimed_ns(ops_cell *c) {                                               \
    uint64_t ns = c->untimed_ns;                                                                   \
    c->untimed_ns = 0;                                                                             \
    return ns;                                                                                     \
  }

#endif
