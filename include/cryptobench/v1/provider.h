/* cryptobench provider plugin ABI, version 1, frozen (docs/plugin-abi.md, "Version 1"): the header
 * as it was when version 2 replaced it, kept so that a plugin built against it can still be built
 * and tested; the driver loads such a plugin through its compatibility shim (ops_plugin_v1.c).
 * Only the include guard differs. New plugins include <cryptobench/provider.h> (version 2).
 *
 * A plugin is a shared object (C, C++ or a Rust cdylib) that implements the
 * operations of one cryptography library and nothing else: the generic C driver
 * (drivers/c/build/cbdriver) loads it with dlopen, and does the protocol, the
 * input pattern, warm-up, calibration, timing, the checksum tap, the vectors
 * and the cross-checks itself. A plugin never contains a timing loop.
 *
 * The plugin exports one symbol, `cryptobench_provider` (CB_PROVIDER_ENTRY), a
 * function returning a pointer to a static cb_provider table. The driver checks
 * abi_version before it reads anything else: a plugin built against another
 * version of this header is refused in one line.
 *
 *   #include <cryptobench/provider.h>
 *   static const cb_provider table = { CB_PROVIDER_ABI_VERSION,
 * sizeof(cb_provider), "mylib", ... }; CB_PROVIDER_EXPORT const cb_provider
 * *cryptobench_provider(void) { return &table; }
 *
 * Everything here is plain C with fixed-width types, so the table can be filled
 * from C++ (extern "C") or Rust (#[repr(C)]).
 */
#ifndef CRYPTOBENCH_PROVIDER_V1_H
#define CRYPTOBENCH_PROVIDER_V1_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI. It changes whenever a struct below changes layout or
 * a function's meaning changes; the driver refuses a plugin built against
 * another version. */
#define CB_PROVIDER_ABI_VERSION 1u
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

/* A cell_new() error starting with this: the library has no API for this
 * variant of the operation (e.g. deterministic ML-DSA signing); verify answers
 * {"unsupported": <the rest>}. Errors starting "not offered:" or "not offered
 * at this size:" mark a cell the library cannot do at all: the run records it
 * as not offered rather than failed. */
#define CB_UNSUPPORTED "unsupported: "

/* One algorithm of the catalogue. Names are the protocol's (docs/protocol.md,
 * `cryptobench list algorithms`): "sha256", "aes-128-gcm", "ed25519", ...; algorithm and
 * operation names are 1 to 64 of a-z 0-9 -, or the driver refuses the plugin at load. */
typedef struct cb_alg {
  const char *name;
  const char *ops[CB_MAX_OPS + 1]; /* operation names ("hash", "seal", "open",
                                      ...), NULL-ended */
  int stream;                      /* accepts chunk > 0 (streaming updates) */
  int pk;                          /* a public-key algorithm (keys from keypair) */
  int fresh;                       /* every operation draws fresh randomness (handshakes): outputs
                                      differ each time */
} cb_alg;

/* What a cell is prepared from. Pointers are borrowed: they stay valid and
 * unchanged until cell_free(). Absent inputs are NULL with length 0. */
typedef struct cb_params {
  const char *alg;
  const char *op;
  const uint8_t *key;
  size_t key_len;
  const uint8_t *iv; /* IV / nonce (ChaCha20: the 12-byte nonce) */
  size_t iv_len;
  uint32_t counter; /* ChaCha20 initial block counter */
  const uint8_t *aad;
  size_t aad_len;
  const uint8_t *msg; /* never NULL; the operation's input (open: ciphertext || tag) */
  size_t msg_len;
  size_t chunk; /* 0: one-shot; c > 0: streaming updates of c bytes */
  /* 0: msg holds the msg_len bytes of the input. p > 0 (streaming cells only,
   * chunk <= p): the message is p-periodic and never materialised; msg holds 2p
   * bytes, and the piece of up to p bytes at message offset off is contiguous
   * at cb_input_at(msg, p, off). */
  size_t period;
  /* public-key operations, in the protocol's encodings */
  const uint8_t *pub; /* SPKI DER (RSA, EC), raw (Ed/X), encapsulation key (ML-KEM) */
  size_t pub_len;
  const uint8_t *priv; /* PKCS#8 DER (RSA), scalar (EC), raw (Ed/X), seed (ML-*) */
  size_t priv_len;
  const uint8_t *sig; /* verify: the signature */
  size_t sig_len;
  const uint8_t *seed; /* keygen: derive the key pair from this seed (NULL: random) */
  size_t seed_len;
  const uint8_t *m; /* encaps: the 32-byte m of a deterministic encapsulation
                       (NULL: random) */
  size_t m_len;
  const uint8_t *ctx; /* ML-DSA context string (NULL: empty) */
  size_t ctx_len;
  int deterministic; /* ML-DSA sign with rnd = 0^32 (FIPS 204) */
  /* key derivation: HKDF IKM = msg, salt = key, info = iv */
  size_t out_len; /* HKDF case: `size`; handshake case: `key_len`; 0 in bench
                     (72 bytes) */
  /* the `handshake` case's secrets (docs/pq-ntor.md section 9) */
  const uint8_t *relay_id, *relay_b, *client_x, *relay_y, *mlkem_seed, *mlkem_m;
  size_t relay_id_len, relay_b_len, client_x_len, relay_y_len, mlkem_seed_len, mlkem_m_len;
} cb_params;

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

/* The table a plugin returns. Members marked "optional" may be NULL. */
typedef struct cb_provider {
  uint32_t abi_version; /* CB_PROVIDER_ABI_VERSION of the header the plugin was
                           built with */
  uint32_t struct_size; /* sizeof(cb_provider) */
  /* Short name ([a-z0-9._-]+): the provider id is "plugin:<name>" unless `id`
   * is set. */
  const char *name;
  const char *id;       /* optional: the provider id, e.g. "c:mylib" (printable ASCII) */
  const char *language; /* optional: "c", "cpp", "rust", ... (default "c"; a-z 0-9 + # . _ -) */
  /* optional: whether the plugin serves provider id `id` besides its own (e.g.
   * one OpenSSL plugin answering c:openssl and c:openssl-3.6.3) */
  int (*accepts)(const char *id);
  /* optional: set-up once at start-up (probe which algorithms the library has);
   * 0, or -1 with a one-line message in err */
  int (*init)(char *err, size_t errlen);
  /* The library's name ("mbed TLS") and version as it reports it at run time: printable text,
   * never NULL (the driver reads both once, after init, and refuses the plugin otherwise). */
  const char *(*library_name)(void);
  const char *(*library_version)(void);
  /* optional: free-text notes for `hello`; returns how many, filling notes[0 ..
   * max) */
  size_t (*notes)(const char *provider, const char **notes, size_t max);
  /* the catalogue in a stable order: the i-th algorithm, NULL past the end */
  const cb_alg *(*alg_at)(size_t i);
  /* Prepare a cell: key schedule, contexts, output buffer, parsed keys, all
   * outside the timed region. NULL with a one-line message in err when the
   * parameters are unusable. */
  cb_cell *(*cell_new)(const cb_params *p, char *err, size_t errlen);
  /* Exactly one operation of the measurement contract (docs/protocol.md) on the
   * prepared input into the prepared output buffer; for a streaming cell the
   * whole message in chunk-byte updates. Returns the first output byte (0 when
   * the output is empty), CB_REJECTED or CB_FAIL. No allocation of its own
   * beyond what the library's API allocates for one public-key operation.
   * Outputs: keygen the public key, sign the signature, verify one byte 01,
   * derive the shared secret, encaps the ciphertext then the 32-byte key,
   * decaps the key. */
  int (*cell_run)(cb_cell *c);
  /* optional: called outside the timed region before every run of n operations
   * (single-use inputs are made here); 0 or -1 */
  int (*cell_prepare)(cb_cell *c, uint64_t n);
  /* the output of the last cell_run() (a streaming cell: of its last piece) */
  const uint8_t *(*cell_output)(const cb_cell *c, size_t *len);
  /* optional (required when an algorithm has stream = 1): set or, with NULL,
   * remove the tap */
  void (*cell_tap)(cb_cell *c, cb_tap *tap);
  /* a one-line message for the last CB_FAIL or CB_REJECTED */
  const char *(*cell_error)(const cb_cell *c);
  void (*cell_free)(cb_cell *c);
  /* optional (required when an algorithm has pk = 1): a fresh key pair from the
   * library's own generator, in the protocol's encodings, both malloc()ed; 0,
   * or -1 with a message in err */
  int (*keypair)(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                 char *err, size_t errlen);
  /* Optional, added to ABI version 1 after its first release: the toolchain that built the
   * plugin, for `hello` ("gcc 12.2.0", "rustc 1.95.0 (...)"; CB_COMPILER below for C and C++).
   * The driver reads it only when struct_size covers it (CB_PROVIDER_SIZE_V1_0 is the table
   * without it); when it is absent or NULL, the runtime is reported "unknown". */
  const char *runtime;
} cb_provider;

/* sizeof(cb_provider) as ABI version 1 was first released, without `runtime`: a plugin built
 * then reports this struct_size, and the driver takes it. */
#define CB_PROVIDER_SIZE_V1_0 offsetof(cb_provider, runtime)

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

/* Optional, and additive to ABI version 1 (a plugin without them works as before): big streamed
 * decrypt/open with bounded memory. A plugin exporting both (with CB_PROVIDER_EXPORT) gets, for a
 * streamed decrypt/open of more than 64 MiB, the plaintext pattern (cb_params.period > 0, open:
 * no tag) instead of a whole ciphertext. Its cell then makes each ciphertext piece (and for open
 * the tag) again from the pattern with an encrypting context, just before the piece is decrypted,
 * and adds the nanoseconds that took (clock reads included) to a counter that
 * cryptobench_cell_untimed_ns returns and resets; the driver subtracts it from the timed batch.
 * docs/plugin-abi.md, "Optional functions". */
#define CB_REGENERATES_ENTRY "cryptobench_regenerates_ciphertext"
#define CB_UNTIMED_ENTRY "cryptobench_cell_untimed_ns"
typedef int (*cb_regenerates_fn)(void);
typedef uint64_t (*cb_untimed_fn)(cb_cell *c);

/* The entry point every plugin defines (with CB_PROVIDER_EXPORT). */
typedef const cb_provider *(*cb_provider_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
