/* cryptobench provider plugin ABI, version 2 (docs/plugin-abi.md; version 1, which the driver
 * still loads, is frozen in <cryptobench/v1/provider.h>).
 *
 * A plugin is a shared object (C, C++ or a Rust cdylib) that implements the
 * operations of one cryptography library and nothing else: the generic C driver
 * (drivers/c/build/cbdriver) loads it with dlopen, and does the protocol, the
 * input pattern, warm-up, calibration, timing, the checksum tap, the vectors
 * and the cross-checks itself. A plugin never contains a timing loop.
 *
 * The plugin exports one symbol, `cryptobench_provider` (CB_PROVIDER_ENTRY), a
 * function returning a pointer to a static cb_provider table. The driver checks
 * abi_version before it reads anything else (1 and 2 load, anything else is refused in one line)
 * and takes struct_size as a minimum: members added at the end of a struct later are read only
 * when the plugin's struct_size (cb_params: the driver's) covers them, so they need no new
 * version.
 *
 *   #include <cryptobench/provider.h>
 *   static const cb_provider table = { CB_PROVIDER_ABI_VERSION,
 * sizeof(cb_provider), "mylib", ... }; CB_PROVIDER_EXPORT const cb_provider
 * *cryptobench_provider(void) { return &table; }
 *
 * Everything here is plain C with fixed-width types, so the table can be filled
 * from C++ (extern "C") or Rust (#[repr(C)]).
 */
#ifndef CRYPTOBENCH_PROVIDER_H
#define CRYPTOBENCH_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cryptobench/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI. It changes when a member moves or a function's meaning changes, never
 * for a member added at the end of cb_provider or cb_params (struct_size says who has it). */
#define CB_PROVIDER_ABI_VERSION 2u

/* What init, cell_new and keypair return (version 1 encoded these as message prefixes). The
 * message in err says why, in one line, without a prefix. */
typedef int32_t cb_status;
enum {
  CB_OK = 0,
  CB_ERROR = 1,       /* unusable parameters or a library failure */
  CB_NOT_OFFERED = 2, /* the library cannot do this cell at all: the run records "not offered" */
  CB_NOT_OFFERED_AT_SIZE = 3, /* ... not at this message size */
  CB_UNSUPPORTED = 4,         /* no API for this variant (e.g. deterministic ML-DSA signing):
                                 verify answers {"unsupported": <the message>} */
};

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
  /* Lengths the driver checks before cell_new is called (version 2; 0: not declared, the plugin
   * checks what it needs): a request that differs is refused in one line, so the plugin never
   * sees it. */
  uint32_t key_len; /* the key, exactly */
  uint32_t iv_len;  /* the IV or nonce, exactly */
  uint32_t tag_len; /* AEAD: the tag seal appends and open's input ends with */
  uint32_t out_len; /* hash / mac: the output (the driver checks verify's outputs against it) */
  uint32_t block;   /* encrypt / decrypt: the message is a multiple of this (ECB, CBC: 16) */
} cb_alg;

/* An algorithm the catalogue lacks, declared by the plugin (version 2, optional: cb_provider's
 * declare_at; docs/plugins.md, "Declaring an algorithm of your own"). The plugin also lists it in
 * alg_at with the operations it offers. Names and kinds are a-z 0-9 -; every length is in bytes, 0
 * where the kind has none or it is not fixed. */
typedef struct cb_declare {
  const char *name; /* not a catalogue name, unless with the catalogue's very parameters */
  const char *kind; /* "hash", "xof", "mac", "aead", "cipher", "kem", "sig" or "kex" */
  /* the operations the algorithm has, NULL-ended; all NULL: the kind's (hash: hash; mac: mac;
   * cipher: encrypt, decrypt; aead: seal, open; kem: keygen, encaps, decaps; sig: keygen, sign,
   * verify; kex: keygen, derive) */
  const char *ops[CB_MAX_OPS + 1];
  /* the known-answer file (docs/plugins.md): a path, relative to the plugin file's folder unless
   * absolute; NULL: none (the algorithm is then unverified unless another provider agrees) */
  const char *kat;
  const char *standard; /* optional: the document that defines it, as reports name it */
  uint32_t out_len;     /* hash, xof (its output as timed), mac: required */
  uint32_t key_len;     /* mac, cipher, aead: required */
  uint32_t iv_len;      /* cipher, aead: the IV or nonce */
  uint32_t tag_len;     /* aead: 16 (the protocol's tag), or 0 for 16 */
  uint32_t block;       /* cipher: messages are a multiple of this */
  uint32_t public_key, secret_key, ciphertext, signature, shared_secret; /* kem, sig, kex */
} cb_declare;

/* One protocol-specific input of a cell (version 2), by name, like OpenSSL's OSSL_PARAM:
 * cb_params.ext is an array of them ended by one with key NULL. The handshake case's secrets
 * (docs/pq-ntor.md section 9) are "relay_id", "relay_b", "client_x", "relay_y", "mlkem_seed",
 * "mlkem_m"; a plugin ignores keys it does not know. */
typedef struct cb_ext {
  const char *key;
  const uint8_t *data;
  size_t len;
} cb_ext;

/* What a cell is prepared from. Pointers are borrowed: they stay valid and
 * unchanged until cell_free(). Absent inputs are NULL with length 0. */
typedef struct cb_params {
  /* sizeof(cb_params) as the driver knows it: a member added later lies past it when the
   * driver is older than the plugin (CB_PARAMS_HAS) */
  uint32_t struct_size;
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
  size_t out_len;    /* HKDF case: `size`; handshake case: `key_len`; 0 in bench
                        (72 bytes) */
  const cb_ext *ext; /* protocol-specific inputs (cb_ext), or NULL when there are none */
} cb_params;

/* Whether the driver's cb_params has `member` (members added after version 2's first release). */
#define CB_PARAMS_HAS(p, member)                                                                   \
  ((p)->struct_size >= offsetof(cb_params, member) + sizeof((p)->member))

/* The extension `key` of p (its bytes, *len set), or NULL with *len 0 when absent. */
static inline const uint8_t *cb_ext_get(const cb_params *p, const char *key, size_t *len) {
  for (const cb_ext *e = p->ext; e != NULL && e->key != NULL; e++)
    if (strcmp(e->key, key) == 0) {
      *len = e->len;
      return e->data;
    }
  *len = 0;
  return NULL;
}

/* The table a plugin returns. Members marked "optional" may be NULL. Version 2 reads every member
 * below when struct_size is at least CB_PROVIDER_SIZE_V2 and ignores what lies past the members
 * it knows (a newer plugin's additions); members appended later are read only when struct_size
 * covers them. */
typedef struct cb_provider {
  uint32_t abi_version; /* CB_PROVIDER_ABI_VERSION of the header the plugin was built with */
  uint32_t struct_size; /* sizeof(cb_provider) of that header: at least CB_PROVIDER_SIZE_V2 */
  /* Short name ([a-z0-9._-]+): the provider id is "plugin:<name>" unless `id` is set. */
  const char *name;
  const char *id;       /* optional: the provider id, e.g. "c:mylib" (printable ASCII) */
  const char *language; /* optional: "c", "cpp", "rust", ... (default "c"; a-z 0-9 + # . _ -) */
  /* optional: the toolchain that built the plugin, for `hello` ("gcc 12.2.0", "rustc 1.95.0
   * (...)"; CB_COMPILER below for C and C++); NULL: "unknown" */
  const char *runtime;
  /* optional: whether the plugin serves provider id `id` besides its own (e.g.
   * one OpenSSL plugin answering c:openssl and c:openssl-3.6.3) */
  int (*accepts)(const char *id);
  /* optional: set-up once at start-up (probe which algorithms the library has) */
  cb_status (*init)(char *err, size_t errlen);
  /* optional: called once when the driver ends normally, after every cell is freed */
  void (*fini)(void);
  /* The library's name ("mbed TLS") and version as it reports it at run time: printable text,
   * never NULL (the driver reads both once, after init, and refuses the plugin otherwise). */
  const char *(*library_name)(void);
  const char *(*library_version)(void);
  /* optional: free-text notes for `hello`; returns how many, filling notes[0 ..
   * max) */
  size_t (*notes)(const char *provider, const char **notes, size_t max);
  /* the catalogue in a stable order: the i-th algorithm, NULL past the end */
  const cb_alg *(*alg_at)(size_t i);
  /* Prepare a cell into *cell: key schedule, contexts, output buffer, parsed keys, all outside
   * the timed region. CB_OK, or a status and a one-line message in err (*cell untouched). The
   * driver has checked the lengths the catalogue declares (cb_alg.key_len ...) beforehand. */
  cb_status (*cell_new)(const cb_params *p, cb_cell **cell, char *err, size_t errlen);
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
  /* optional (required when an algorithm has pk = 1): a fresh key pair from the library's own
   * generator, in the protocol's encodings, in buffers the plugin allocated; the driver gives
   * each back through free_buf. */
  cb_status (*keypair)(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                       size_t *priv_len, char *err, size_t errlen);
  /* required with keypair: frees a buffer keypair made (with the plugin's own allocator) */
  void (*free_buf)(uint8_t *buf, size_t len);
  /* Optional, both or neither: big streamed decrypt/open with bounded memory (version 1's
   * exported cryptobench_regenerates_ciphertext / cryptobench_cell_untimed_ns). When
   * regenerates_ciphertext() returns 1, a streamed decrypt/open of more than 64 MiB gets the
   * plaintext pattern (cb_params.period > 0, open: no tag) instead of a whole ciphertext; its
   * cell makes each ciphertext piece (and for open the tag) again from the pattern with an
   * encrypting context just before the piece is decrypted, and adds the nanoseconds that took
   * (clock reads included) to a count cell_untimed_ns returns and resets; the driver subtracts
   * it from the timed batch. docs/plugin-abi.md, "Bounded-memory decryption". */
  int (*regenerates_ciphertext)(void);
  uint64_t (*cell_untimed_ns)(cb_cell *c);
  /* Appended to version 2 (read when struct_size covers it; protocol 6), optional: the i-th
   * algorithm the plugin declares (cb_declare), NULL past the end. */
  const cb_declare *(*declare_at)(size_t i);
} cb_provider;

/* The smallest table version 2 loads: every member above, as version 2 was first released (a
 * member appended later does not change it). 184 bytes on LP64. */
#define CB_PROVIDER_SIZE_V2                                                                        \
  (offsetof(cb_provider, cell_untimed_ns) + sizeof(((cb_provider *)0)->cell_untimed_ns))

/* The entry point every plugin defines (with CB_PROVIDER_EXPORT). */
typedef const cb_provider *(*cb_provider_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
