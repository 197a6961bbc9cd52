/* What every version of the cryptobench plugin ABI shares (docs/plugin-abi.md): the entry point's
 * name, the result codes of cell_run, the input pattern's addressing, the checksum tap and the
 * compiler's name. Included by <cryptobench/provider.h> (version 2) and
 * <cryptobench/v1/provider.h>; a plugin includes one of those, not this. */
#ifndef CRYPTOBENCH_BASE_H
#define CRYPTOBENCH_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one symbol a plugin exports. */
#define CB_PROVIDER_ENTRY "cryptobench_provider"

#if defined(__GNUC__)
#define CB_PROVIDER_EXPORT __attribute__((visibility("default")))
#else
#define CB_PROVIDER_EXPORT
#endif

#define CB_TAG_LEN                                                                                 \
  16                 /* AEAD tag length, always 16 bytes (docs/protocol.md)                        \
                      */
#define CB_MAX_OPS 4 /* at most this many operations per algorithm */

/* cell_run() results besides the sink byte 0..255 */
#define CB_FAIL (-1) /* the library failed; cell_error() says why */
/* The library refused the input: an `open` whose tag did not verify, a
 * signature that does not verify, a key, point or ciphertext it does not
 * accept. A public-key cell whose key material the library refuses at
 * preparation is still created and answers this from cell_run() (cell_error()
 * says why), so that malformed inputs in vector cases come back `rejected`,
 * never as errors. */
#define CB_REJECTED (-2)

/* Where the input piece starting at message offset off is (see
 * cb_params.period). */
static inline const uint8_t *cb_input_at(const uint8_t *msg, size_t period, size_t off) {
  return period > 0 ? msg + off % period : msg + off;
}

/* The output tap of a streaming cell (chunk > 0). Such a cell never holds its
 * whole output; while a tap is set, cell_run() passes every output byte, in
 * order, to cb_tap_fold() (ciphertext pieces, final block, tag; for hash/mac
 * the digest). The driver uses it for the checksum of the untimed operation;
 * timed operations run with no tap. One-shot cells ignore the tap. */
typedef struct cb_tap {
  uint64_t fnv;    /* FNV-1a 64 of the stream so far (start: CB_FNV_INIT) */
  uint64_t len;    /* bytes folded */
  uint8_t *copy;   /* when not NULL, the stream is also copied here ... */
  size_t copy_cap; /* ... up to this many bytes */
  int overflow;    /* set when the stream was longer than copy_cap */
} cb_tap;

#define CB_FNV_INIT 0xcbf29ce484222325ULL

static inline void cb_tap_fold(cb_tap *t, const uint8_t *b, size_t n) {
  uint64_t h = t->fnv;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ULL;
  }
  t->fnv = h;
  if (t->copy != NULL) {
    if (t->len + n <= t->copy_cap)
      memcpy(t->copy + t->len, b, n);
    else
      t->overflow = 1;
  }
  t->len += n;
}

/* A prepared operation; the plugin defines struct cb_cell. */
typedef struct cb_cell cb_cell;

/* The compiler building this file, for cb_provider.runtime. */
#if defined(__clang__)
#define CB_COMPILER "clang " __clang_version__
#elif defined(__GNUC__) && defined(__cplusplus)
#define CB_COMPILER "g++ " __VERSION__
#elif defined(__GNUC__)
#define CB_COMPILER "gcc " __VERSION__
#else
#define CB_COMPILER NULL
#endif

#ifdef __cplusplus
}
#endif

#endif
