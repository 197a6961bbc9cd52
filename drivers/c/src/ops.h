/* The interface between the generic driver and one library.
 *
 * main.c, protocol.c, timing.c and input.c are library-independent: they are the generic driver
 * (build/cbdriver), and reach the library through these ops_ functions, which ops_plugin.c
 * forwards to the cb_provider table of the plugin it loaded (include/cryptobench/provider.h). Each
 * built-in module (ops_openssl.c, ops_sodium.c, ops_botan.cpp in C++ with C linkage,
 * ops_botan_ffi.c, ops_liboqs.c) defines the same functions under mod_ names, internal to it, and
 * exports them as its table (ops_module.h): build/plugins/libcb_<library>.so, and the native tests
 * that link a module hand its table to the same loader. A module provides:
 *
 *  - its identity (provider ids it serves, library name and run-time version, notes);
 *  - the catalogue for `hello`: every algorithm it can time, its operations, whether it takes
 *    `chunk` (streaming);
 *  - cells: a cell is prepared once (key schedule, contexts, output buffer) and then performs
 *    exactly one operation of the measurement contract per ops_cell_run() call. The `verify`
 *    case executor is a cell too (prepared from the case, run once), so the code that is timed
 *    is the code the vectors check;
 *  - public-key algorithms (protocol version 2, ops_alg.pk) through the same cells: a cell takes
 *    its keys, signature, seed ... in their protocol encodings (ops_params.pub, .priv, .sig, ...)
 *    and parses them once, outside the timed region; ops_keypair() makes a fresh key pair in
 *    those encodings. protocol.c builds every bench cell from these two alone (a key pair for
 *    sign, a sign cell for the signature a verify cell checks, an encaps cell for the ciphertext
 *    of decaps, ...), so a module offers a public-key algorithm by implementing its case ops.
 *  - key derivation and handshakes (protocol version 3; the OpenSSL module only, in
 *    ops_openssl_hs.c): hkdf-sha256 `derive` is a cell like a MAC's; a handshake cell
 *    (ntor, pq-ntor-*: client-create, server-reply, client-finish, full) makes its relay keys
 *    once and draws fresh ephemeral keys every operation (ops_alg.fresh). client-finish consumes
 *    a single-use client state per operation: ops_cell_prepare() makes them outside the timed
 *    region before every run of timed operations.
 */
#ifndef CB_OPS_H
#define CB_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cryptobench/provider.h>

#ifdef __cplusplus /* ops_botan.cpp implements this interface in C++ */
extern "C" {
#endif

/* The types and constants are the public plugin ABI's (include/cryptobench/provider.h), under the
 * ops_ names the modules keep. */
#define OPS_TAG_LEN CB_TAG_LEN
#define OPS_MAX_OPS CB_MAX_OPS
#define OPS_FAIL CB_FAIL
#define OPS_REJECTED CB_REJECTED
/* the protocol's prefix of an unsupported variant (docs/protocol.md; the ABI says CB_UNSUPPORTED)
 */
#define OPS_UNSUPPORTED "unsupported: "
#define OPS_FNV_INIT CB_FNV_INIT

typedef cb_alg ops_alg;
typedef cb_params ops_params;
typedef cb_tap ops_tap;

static inline const uint8_t *ops_input_at(const uint8_t *msg, size_t period, size_t off) {
  return cb_input_at(msg, period, off);
}

static inline void ops_tap_fold(ops_tap *t, const uint8_t *b, size_t n) { cb_tap_fold(t, b, n); }

typedef struct ops_cell ops_cell;

/* What every half H of a module declares, a half that the module's cells hand their work to
 * (ops_pk.h: pk, ops_hs.h: hs, ops_tls.h: tls; ops_module.h's OPS_SUBCELLS): its cell type
 * H_cell; H_catalogue, which probes what the library has and writes up to max catalogue entries
 * into out; H_notes, the hello notes for its algorithms; and H_cell's cell functions H_cell_run,
 * _output, _error and _free, with the contracts of the ops_cell_ functions below. Its
 * H_cell_new (and H_cell_prepare) it declares itself. */
#define OPS_HALF(H)                                                                                \
  typedef struct H##_cell H##_cell;                                                                \
  size_t H##_catalogue(ops_alg *out, size_t max);                                                  \
  size_t H##_notes(const char **notes, size_t max);                                                \
  int H##_cell_run(H##_cell *c);                                                                   \
  const uint8_t *H##_cell_output(const H##_cell *c, size_t *len);                                  \
  const char *H##_cell_error(const H##_cell *c);                                                   \
  void H##_cell_free(H##_cell *c);

/* A half's H_cell_output, its output OUT of LEN bytes, and H_cell_error, its cell's err or
 * DEFAULT when that is empty (both outside the timed region). */
#define OPS_HALF_OUTPUT_ERROR(H, OUT, LEN, DEFAULT)                                                \
  const uint8_t *H##_cell_output(const H##_cell *c, size_t *len) {                                 \
    *len = (LEN);                                                                                  \
    return (OUT);                                                                                  \
  }                                                                                                \
  const char *H##_cell_error(const H##_cell *c) { return c->err[0] ? c->err : (DEFAULT); }

/* Set-up at start-up (probe which algorithms the library has). 0 or -1 with a message. */
int ops_init(char *err, size_t errlen);

/* Whether this module serves provider id `id` (e.g. "c:openssl", "c:openssl-1.1.1"). */
int ops_provider_accepts(const char *id);

const char *ops_library_name(void);    /* e.g. "OpenSSL" */
const char *ops_library_version(void); /* as reported by the library at run time */

/* Free-text notes for `hello`: returns the number of notes, fills notes[0 .. max). */
size_t ops_notes(const char *provider, const char **notes, size_t max);

/* The catalogue, in a stable order. Each library module answers ops_alg_at() (NULL past the
 * end); catalogue.c answers the rest the same way for all of them. */
const ops_alg *ops_alg_at(size_t i);
size_t ops_alg_count(void);
size_t ops_alg_index(const char *name);        /* (size_t)-1 when not offered */
const ops_alg *ops_alg_find(const char *name); /* NULL when not offered */

/* Prepare a cell; NULL with a one-line message in err when the parameters are unusable
 * (unknown algorithm or operation, wrong key or IV length, chunk on a non-streamable algorithm,
 * size not a multiple of the block, ...). A message starting with "not offered:" or "not offered
 * at this size:" marks a cell the library's API cannot do (protocol.md): bench passes it on
 * unchanged and the orchestrator records the cell as not offered rather than failed. */
ops_cell *ops_cell_new(const ops_params *p, char *err, size_t errlen);

/* Exactly one operation on the prepared input into the prepared output buffer. Returns the
 * first output byte (0 when the output is empty) to fold into the sink, OPS_REJECTED or
 * OPS_FAIL. No allocation of its own, except what the library's own API allocates for one
 * public-key operation (a generated key, a context it copies). Public-key outputs: keygen the
 * encoded public key, sign the signature, verify one byte 01 (OPS_REJECTED when it does not
 * verify), derive the shared secret, encrypt/decrypt the ciphertext/plaintext, encaps the
 * ciphertext followed by the 32-byte key, decaps the key. */
int ops_cell_run(ops_cell *c);

/* Called outside the timed region before every run of n operations: each sample and each
 * calibration step (n = the batch), each warm-up operation and the untimed checksum operation
 * (n = 1); never for a verify case (a case is its own input, so a handshake step sent as a case
 * fails: only `handshake` is a case). A cell whose operations consume single-use inputs
 * (handshake client-finish: a fresh client state and its reply per operation) makes n of them
 * here; a cell that keeps what its operations made (client-create's client states, freed outside
 * the timed region) releases it here. Every other cell returns 0 at once. 0, or -1 (see
 * ops_cell_error()); running more operations than were prepared is an OPS_FAIL. */
int ops_cell_prepare(ops_cell *c, uint64_t n);

/* The output of the last ops_cell_run(); for a streaming cell the output of its last piece (the
 * last update's output, then the final output and tag). */
const uint8_t *ops_cell_output(const ops_cell *c, size_t *len);

/* Set (or with NULL, remove) the output tap of a streaming cell. The tap must stay valid while set.
 */
void ops_cell_tap(ops_cell *c, ops_tap *tap);

/* Big streamed decrypt/open with bounded memory (docs/protocol.md, "With chunk > 0"): a library
 * that regenerates each ciphertext piece just before it is consumed, outside the clock, defines
 * ops_regenerates_ciphertext() to return 1. Its decrypt/open cell is then given the plaintext
 * pattern (ops_params.period > 0) instead of a whole ciphertext, keeps an encrypting context
 * beside the decrypting one, and reports the nanoseconds it spent regenerating through
 * ops_cell_take_untimed_ns() (since the last call), which the timed batch subtracts. A plugin
 * offers this through two optional exported functions (include/cryptobench/provider.h,
 * CB_REGENERATES_ENTRY); without them: 0 and 0, and the whole ciphertext is kept. */
int ops_regenerates_ciphertext(void);
uint64_t ops_cell_take_untimed_ns(ops_cell *c);

/* A one-line message for the last OPS_FAIL. */
const char *ops_cell_error(const ops_cell *c);

void ops_cell_free(ops_cell *c);

/* A fresh key pair of public-key algorithm `alg` from the library's own generator, in the
 * protocol's encodings (keypair command); both freshly allocated (free()). 0, or -1 with a
 * one-line message in err. */
int ops_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
