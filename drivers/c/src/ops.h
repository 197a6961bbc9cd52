/* The interface one library implements (one ops_<library>.c per driver binary).
 *
 * main.c, protocol.c, timing.c and input.c are library-independent; linking them with
 * ops_openssl.c gives cbdriver-openssl, with a future ops_sodium.c a cbdriver-sodium, and so
 * on. A library module provides:
 *
 *  - its identity (provider ids it serves, library name and run-time version, notes);
 *  - the catalogue for `hello`: every algorithm it can time, its operations, whether it takes
 *    `chunk` (streaming);
 *  - cells: a cell is prepared once (key schedule, contexts, output buffer) and then performs
 *    exactly one operation of the measurement contract per ops_cell_run() call. The `verify`
 *    case executor is a cell too (prepared from the case, run once), so the code that is timed
 *    is the code the vectors check.
 */
#ifndef CB_OPS_H
#define CB_OPS_H

#include <stddef.h>
#include <stdint.h>

#define OPS_TAG_LEN 16 /* AEAD tag length, always 16 bytes (protocol.md) */
#define OPS_MAX_OPS 2  /* at most this many operations per algorithm */

/* ops_cell_run() results besides the sink byte 0..255 */
#define OPS_FAIL (-1)     /* the library failed; see ops_cell_error() */
#define OPS_REJECTED (-2) /* `open` whose tag did not verify */

typedef struct ops_alg {
  const char *name;                 /* protocol name, e.g. "aes-128-gcm" */
  const char *ops[OPS_MAX_OPS + 1]; /* operation names, NULL-terminated */
  int stream;                       /* accepts chunk > 0 */
} ops_alg;

/* What a cell is prepared from. Pointers are borrowed: they must stay valid (and unchanged)
 * until ops_cell_free(). */
typedef struct ops_params {
  const char *alg;
  const char *op;
  const uint8_t *key;
  size_t key_len;
  const uint8_t *iv; /* IV / nonce as the protocol gives it (ChaCha20: the 12-byte nonce) */
  size_t iv_len;
  uint32_t counter; /* ChaCha20 initial block counter */
  const uint8_t *aad;
  size_t aad_len;
  const uint8_t *msg; /* never NULL; the input of the operation (open: ciphertext || tag) */
  size_t msg_len;
  size_t chunk; /* 0: one-shot; c > 0: streaming updates of c bytes */
} ops_params;

typedef struct ops_cell ops_cell;

/* Set-up at start-up (probe which algorithms the library has). 0 or -1 with a message. */
int ops_init(char *err, size_t errlen);

/* Whether this module serves provider id `id` (e.g. "c:openssl", "c:openssl-1.1.1"). */
int ops_provider_accepts(const char *id);

const char *ops_library_name(void);    /* e.g. "OpenSSL" */
const char *ops_library_version(void); /* as reported by the library at run time */

/* Free-text notes for `hello`: returns the number of notes, fills notes[0 .. max). */
size_t ops_notes(const char *provider, const char **notes, size_t max);

/* The catalogue, in a stable order. */
size_t ops_alg_count(void);
const ops_alg *ops_alg_at(size_t i);
const ops_alg *ops_alg_find(const char *name); /* NULL when not offered */

/* Prepare a cell; NULL with a one-line message in err when the parameters are unusable
 * (unknown algorithm or operation, wrong key or IV length, chunk on a non-streamable algorithm,
 * size not a multiple of the block, ...). */
ops_cell *ops_cell_new(const ops_params *p, char *err, size_t errlen);

/* Exactly one operation on the prepared input into the prepared output buffer. Returns the
 * first output byte (0 when the output is empty) to fold into the sink, OPS_REJECTED or
 * OPS_FAIL. No allocation of its own. */
int ops_cell_run(ops_cell *c);

/* The output of the last ops_cell_run(). */
const uint8_t *ops_cell_output(const ops_cell *c, size_t *len);

/* A one-line message for the last OPS_FAIL. */
const char *ops_cell_error(const ops_cell *c);

void ops_cell_free(ops_cell *c);

#endif
