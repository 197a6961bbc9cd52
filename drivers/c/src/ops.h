/* The interface one library implements (one ops_<library>.c per driver binary).
 *
 * main.c, protocol.c, timing.c and input.c are library-independent; linking them with
 * ops_openssl.c gives cbdriver-openssl, with ops_sodium.c cbdriver-sodium, with ops_botan.cpp
 * (C++, the functions below with C linkage) cbdriver-botan, with ops_botan_ffi.c
 * cbdriver-botan-ffi. A library module provides:
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

#ifdef __cplusplus /* ops_botan.cpp implements this interface in C++ */
extern "C" {
#endif

#define OPS_TAG_LEN 16 /* AEAD tag length, always 16 bytes (protocol.md) */
#define OPS_MAX_OPS 4  /* at most this many operations per algorithm */

/* ops_cell_run() results besides the sink byte 0..255 */
#define OPS_FAIL (-1) /* the library failed; see ops_cell_error() */
/* The library refused the input: an `open` whose tag did not verify, a signature that does not
 * verify, a key, point or ciphertext it does not accept (bad DER, wrong length, not on the
 * curve, ...). A public-key cell whose key material the library refuses at preparation is still
 * created and answers this from ops_cell_run() (ops_cell_error() says why), so that malformed
 * inputs in vector cases come back `rejected`, never as errors. */
#define OPS_REJECTED (-2)

/* An ops_cell_new() error starting with this: the library has no API for this variant of the
 * operation (e.g. deterministic ML-DSA signing); verify answers {"unsupported": <the rest>}. */
#define OPS_UNSUPPORTED "unsupported: "

typedef struct ops_alg {
  const char *name;                 /* protocol name, e.g. "aes-128-gcm" */
  const char *ops[OPS_MAX_OPS + 1]; /* operation names, NULL-terminated */
  int stream;                       /* accepts chunk > 0 */
  int pk;                           /* a public-key algorithm (keys from ops_keypair) */
  int fresh; /* every operation draws fresh randomness (handshakes): outputs differ each time */
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
  /* 0: msg holds the msg_len bytes of the input. p > 0 (streaming cells only, chunk <= p): the
   * message is p-periodic and never materialised; msg holds 2p bytes (the period twice), message
   * byte i is msg[i % p], and a piece of up to p bytes starting at offset off is contiguous at
   * ops_input_at(msg, p, off) (protocol.md, bench, chunk > 0). */
  size_t period;
  /* Public-key operations (protocol.md, version 2), in the protocol's encodings; NULL and 0 when
   * absent. msg is the message (sign, verify, RSA encrypt) or the ciphertext (RSA decrypt,
   * decaps). */
  const uint8_t *pub; /* `public`: SPKI DER (RSA, EC), raw (Ed/X), encapsulation key (ML-KEM) */
  size_t pub_len;
  const uint8_t *priv; /* `private`: PKCS#8 DER (RSA), scalar (EC), raw (Ed/X), seed (ML-*) */
  size_t priv_len;
  const uint8_t *sig; /* verify: the signature */
  size_t sig_len;
  const uint8_t *seed; /* keygen: derive the key pair from this seed (NULL: a random key pair) */
  size_t seed_len;
  const uint8_t *m; /* encaps: the 32-byte m of a deterministic encapsulation (NULL: random) */
  size_t m_len;
  const uint8_t *ctx; /* ML-DSA context string (NULL: empty) */
  size_t ctx_len;
  int deterministic; /* ML-DSA sign with rnd = 0^32 (FIPS 204) */
  /* Key derivation and handshakes (protocol.md, version 3). HKDF: IKM = msg, salt = key,
   * info = iv (bench and case alike: a `derive` case's ikm/salt/info arrive there). */
  size_t out_len; /* HKDF case: `size`; handshake case: `key_len`; 0 in bench (72 bytes) */
  /* the `handshake` case's secrets (docs/pq-ntor.md section 9); NULL when absent */
  const uint8_t *relay_id, *relay_b, *client_x, *relay_y, *mlkem_seed, *mlkem_m;
  size_t relay_id_len, relay_b_len, client_x_len, relay_y_len, mlkem_seed_len, mlkem_m_len;
} ops_params;

/* Where the input piece starting at message offset off is (see ops_params.period). */
static inline const uint8_t *ops_input_at(const uint8_t *msg, size_t period, size_t off) {
  return period > 0 ? msg + off % period : msg + off;
}

/* Streaming cells (chunk > 0) never hold their whole output: each piece's output overwrites the
 * previous one in a piece-sized buffer. While a tap is set on such a cell, ops_cell_run() folds
 * every output byte into it, in order (the whole output stream: ciphertext pieces, final block,
 * tag; for hash/mac the digest or tag). bench uses it for the checksum in the untimed operation
 * and to collect the ciphertext a streamed decrypt/open reads; timed operations run with no tap.
 * One-shot cells (chunk 0) ignore the tap: ops_cell_output() is their whole output. */
typedef struct ops_tap {
  uint64_t fnv;    /* FNV-1a 64 of the stream so far (start: OPS_FNV_INIT) */
  uint64_t len;    /* bytes folded */
  uint8_t *copy;   /* when not NULL, the stream is also copied here ... */
  size_t copy_cap; /* ... up to this many bytes */
  int overflow;    /* set when the stream was longer than copy_cap */
} ops_tap;

#define OPS_FNV_INIT 0xcbf29ce484222325ULL

static inline void ops_tap_fold(ops_tap *t, const uint8_t *b, size_t n) {
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

typedef struct ops_cell ops_cell;

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
