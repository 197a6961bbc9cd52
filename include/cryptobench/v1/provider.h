/* cryptobench provider plugin ABI, version 1, frozen (docs/plugin-abi.md, "Version 1"): the header
 * a plugin of version 1 is built with, kept when version 2 replaced it so that such a plugin can
 * still be built and tested; the driver loads such a plugin through its compatibility shim (ops_plugin_v1.c).
 * What both versions share is in <cryptobench/base.h>, included here; the rest is version 1's
 * layout, member for member, with its contracts in docs/plugin-abi.md (git history has the text).
 * New plugins include <cryptobench/provider.h> (version 2).
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

#include <cryptobench/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI. It changes whenever a struct below changes layout or
 * a function's meaning changes; the driver refuses a plugin built against
 * another version. */
#define CB_PROVIDER_ABI_VERSION 1u

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

/* What a cell is prepared from: version 2's cb_params without struct_size and ext, then the
 * `handshake` case's secrets as fields (docs/plugin-abi.md, "What changed from version 1 to 2";
 * each member's meaning: <cryptobench/provider.h>). Layout frozen: 312 bytes on LP64. */
typedef struct cb_params {
  const char *alg, *op;
  const uint8_t *key; size_t key_len; const uint8_t *iv; size_t iv_len; uint32_t counter;
  const uint8_t *aad; size_t aad_len; const uint8_t *msg; size_t msg_len;
  size_t chunk, period;
  const uint8_t *pub; size_t pub_len; const uint8_t *priv; size_t priv_len;
  const uint8_t *sig; size_t sig_len; const uint8_t *seed; size_t seed_len;
  const uint8_t *m; size_t m_len; const uint8_t *ctx; size_t ctx_len;
  int deterministic;
  size_t out_len;
  const uint8_t *relay_id, *relay_b, *client_x, *relay_y, *mlkem_seed, *mlkem_m;
  size_t relay_id_len, relay_b_len, client_x_len, relay_y_len, mlkem_seed_len, mlkem_m_len;
} cb_params;

/* The table a plugin returns (docs/plugin-abi.md: version 2's table lists each member's contract;
 * here init returns 0 or -1, cell_new a cell or NULL with a message whose first words say "not
 * offered:", "not offered at this size:" or CB_UNSUPPORTED, and keypair 0 or -1 with both keys
 * malloc()ed, which the driver free()s). runtime came after the first release: the driver reads
 * it only when struct_size covers it. Layout frozen: 152 bytes on LP64. */
typedef struct cb_provider {
  uint32_t abi_version, struct_size;
  const char *name, *id, *language;
  int (*accepts)(const char *id);
  int (*init)(char *err, size_t errlen);
  const char *(*library_name)(void);
  const char *(*library_version)(void);
  size_t (*notes)(const char *provider, const char **notes, size_t max);
  const cb_alg *(*alg_at)(size_t i);
  cb_cell *(*cell_new)(const cb_params *p, char *err, size_t errlen);
  int (*cell_run)(cb_cell *c);
  int (*cell_prepare)(cb_cell *c, uint64_t n);
  const uint8_t *(*cell_output)(const cb_cell *c, size_t *len);
  void (*cell_tap)(cb_cell *c, cb_tap *tap);
  const char *(*cell_error)(const cb_cell *c);
  void (*cell_free)(cb_cell *c);
  int (*keypair)(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                 char *err, size_t errlen);
  const char *runtime;
} cb_provider;

/* sizeof(cb_provider) as ABI version 1 was first released, without `runtime`: a plugin built
 * then reports this struct_size, and the driver takes it. */
#define CB_PROVIDER_SIZE_V1_0 offsetof(cb_provider, runtime)

/* Optional exported functions, both or neither: version 2's regenerates_ciphertext and
 * cell_untimed_ns (docs/plugin-abi.md, "Bounded-memory decryption"). */
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
