/* A built-in library module (ops_openssl.c, ops_sodium.c, ops_botan.cpp, ops_botan_ffi.c,
 * ops_liboqs.c): the functions it defines, internal to it, and OPS_MODULE_EXPORT, the cb_provider
 * table it exports from them (include/cryptobench/provider.h) — the one way a module reaches the
 * driver: build/plugins/libcb_<library>.so is loaded like a user's plugin, and the native tests
 * (tests/test_driver.c) hand the same table to the same loader (plugin_take). The Makefile names
 * the plugin (CB_PLUGIN_NAME), its provider id (CB_PLUGIN_ID) and language (CB_PLUGIN_LANGUAGE). */
#ifndef CB_OPS_MODULE_H
#define CB_OPS_MODULE_H

#include <stdlib.h>

#include "ops.h"
#include <cryptobench/kit.h>

#ifndef CB_PLUGIN_NAME
#error "CB_PLUGIN_NAME, CB_PLUGIN_ID and CB_PLUGIN_LANGUAGE come from the Makefile"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The module's side of the ABI's functions (their contracts: ops.h). Its messages keep the
 * protocol's words ("not offered: ..."); the table reads them as statuses. */
static int mod_init(char *err, size_t errlen);
static int mod_provider_accepts(const char *id);
static const char *mod_library_name(void);
static const char *mod_library_version(void);
static size_t mod_notes(const char *provider, const char **notes, size_t max);
static const ops_alg *mod_alg_at(size_t i);
static ops_cell *mod_cell_new(const ops_params *p, char *err, size_t errlen);
static int mod_cell_run(ops_cell *c);
static int mod_cell_prepare(ops_cell *c, uint64_t n);
static const uint8_t *mod_cell_output(const ops_cell *c, size_t *len);
static void mod_cell_tap(ops_cell *c, ops_tap *tap);
static const char *mod_cell_error(const ops_cell *c);
static void mod_cell_free(ops_cell *c);
static int mod_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                       size_t *priv_len, char *err, size_t errlen);

/* the index of algorithm `name` in the module's own catalogue, (size_t)-1 when not offered */
static inline size_t mod_alg_index(const char *name) {
  const ops_alg *a;
  for (size_t i = 0; (a = mod_alg_at(i)) != NULL; i++)
    if (strcmp(a->name, name) == 0)
      return i;
  return (size_t)-1;
}

/* The same for a cell's algorithm: (size_t)-1 with "algorithm not offered: <name>" in err. */
static inline size_t mod_alg_lookup(const char *name, char *err, size_t errlen) {
  size_t i = mod_alg_index(name);
  if (i == (size_t)-1)
    cb_kit_err(err, errlen, "algorithm not offered: %s", name);
  return i;
}

/* The start of mod_keypair: the index of public-key algorithm `alg` in the catalogue, *pub and
 * *priv NULL; (size_t)-1 with "not a public-key algorithm offered here: <alg>" when it is not one.
 */
static inline size_t mod_keypair_index(const char *alg, uint8_t **pub, uint8_t **priv, char *err,
                                       size_t errlen) {
  size_t idx = mod_alg_index(alg);
  *pub = *priv = NULL;
  if (idx == (size_t)-1 || !mod_alg_at(idx)->pk) {
    cb_kit_err(err, errlen, "not a public-key algorithm offered here: %s", alg);
    return (size_t)-1;
  }
  return idx;
}

/* ---- what the modules' cells share ----
 *
 * A module's cell may hand all its work to a sub-cell of another file: a public-key cell (pk_cell,
 * ops_*_pk), a handshake cell (hs_cell, ops_openssl_hs.c), a TLS cell (tls_cell). Before it uses
 * what follows, the module lists them as X(member, type): its ops_cell's member and the sub-cell's
 * type, whose functions are <type>_run, _output, _error and _free. E.g.
 *   #define OPS_SUBCELLS(X) X(pk, pk_cell)        (a module without any: #define OPS_SUBCELLS(X))
 * and, after its struct ops_cell, OPS_MODULE_SUBCELL_WRAPS(a zeroed ops_cell: calloc, C++ new). */

/* the first lines of mod_cell_run(), mod_cell_output() and mod_cell_error(): the sub-cell's */
#define OPS_SUB_RUN(m, t)                                                                          \
  if (c->m != NULL)                                                                                \
    return t##_run(c->m);
#define OPS_SUB_OUTPUT(m, t)                                                                       \
  if (c->m != NULL)                                                                                \
    return t##_output(c->m, len);
#define OPS_SUB_ERROR(m, t)                                                                        \
  if (c->m != NULL)                                                                                \
    return t##_error(c->m);
/* in mod_cell_free(): each sub-cell's free (which takes NULL) */
#define OPS_SUB_FREE(m, t) t##_free(c->m);

/* ops_wrap_<member>(sub, err, errlen): a cell that is sub-cell `sub` (NULL: its message is in
 * err already), or NULL with the message ("out of memory": sub is freed) */
#define OPS_SUB_WRAP(m, t)                                                                         \
  static inline ops_cell *ops_wrap_##m(t *sub, char *err, size_t errlen) {                         \
    ops_cell *c = sub != NULL ? mod_cell_alloc() : NULL;                                           \
    if (sub != NULL && c == NULL) {                                                                \
      t##_free(sub);                                                                               \
      cb_kit_err(err, errlen, "out of memory");                                                    \
    }                                                                                              \
    if (c != NULL)                                                                                 \
      c->m = sub;                                                                                  \
    return c;                                                                                      \
  }

/* hello's notes of a module: the non-empty ones of its own text[0..n) (cb_kit_notes), then its
 * half's (e.g. pk_notes); how many. */
static inline size_t ops_notes_and(const char *const *text, size_t n, const char **notes,
                                   size_t max, size_t (*half)(const char **, size_t)) {
  size_t k = cb_kit_notes(text, n, notes, max);
  return k + half(notes + k, max - k);
}

/* A cell's error text: the module's message, or "operation failed" when it has none. */
static inline const char *ops_err_text(const char *err) {
  return err[0] != '\0' ? err : "operation failed";
}

/* mod_alg_at over the module's catalogue[0..catalogue_len) */
#define OPS_MODULE_ALG_AT                                                                          \
  const ops_alg *mod_alg_at(size_t i) { return i < catalogue_len ? &catalogue[i] : NULL; }

/* The cases every module's run switch (mod_cell_run, timed) begins with, over its kinds K_NOOP,
 * K_HASH and K_MAC: noop does nothing, hash and mac are the module's run_hash and run_mac. */
#define OPS_RUN_NOOP_HASH_MAC                                                                      \
  case K_NOOP:                                                                                     \
    c->out_len = 0;                                                                                \
    return 0;                                                                                      \
  case K_HASH:                                                                                     \
    return run_hash(c);                                                                            \
  case K_MAC:                                                                                      \
    return run_mac(c);

/* mod_cell_alloc(), a fresh zeroed cell (ALLOC), and ops_wrap_<m> of each sub-cell */
#define OPS_MODULE_SUBCELL_WRAPS(ALLOC)                                                            \
  static inline ops_cell *mod_cell_alloc(void) { return ALLOC; }                                   \
  OPS_SUBCELLS(OPS_SUB_WRAP)

/* The cell functions every module writes alike, over its ops_cell's members out_len, streaming,
 * tap and err (ERR_TEXT: c->err, C++ c->err.c_str()): mod_cell_output (the sub-cell's, else
 * c->OUT), mod_cell_tap (kept by a streaming cell only) and mod_cell_error. */
#define OPS_MODULE_CELL_FUNCTIONS(OUT, ERR_TEXT)                                                   \
  const uint8_t *mod_cell_output(const ops_cell *c, size_t *len) {                                 \
    OPS_SUBCELLS(OPS_SUB_OUTPUT)                                                                   \
    *len = c->out_len;                                                                             \
    return c->OUT;                                                                                 \
  }                                                                                                \
  void mod_cell_tap(ops_cell *c, ops_tap *tap) { c->tap = c->streaming ? tap : NULL; }             \
  const char *mod_cell_error(const ops_cell *c) {                                                  \
    OPS_SUBCELLS(OPS_SUB_ERROR)                                                                    \
    return ops_err_text(ERR_TEXT);                                                                 \
  }

/* mod_cell_prepare of a module none of whose cells consumes single-use inputs */
#define OPS_MODULE_NOTHING_TO_PREPARE                                                              \
  int mod_cell_prepare(ops_cell *c, uint64_t n) {                                                  \
    (void)c;                                                                                       \
    (void)n;                                                                                       \
    return 0;                                                                                      \
  }

/* mod_keypair of a module whose public-key cells are ops_*_pk's (ops_pk.h) */
#define OPS_MODULE_PK_KEYPAIR                                                                      \
  int mod_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,                 \
                  size_t *priv_len, char *err, size_t errlen) {                                    \
    return pk_keypair(alg, pub, pub_len, priv, priv_len, err, errlen);                             \
  }

/* A symmetric cell's first checks, the same in every module: `stream`, whether the algorithm
 * streams (chunk > 0), else "not offered: <name> <why>" (e.g. "has no streaming API here");
 * a periodic input needs 0 < chunk <= period. 0, or -1 with the message in err. */
static inline int ops_sym_checks(const ops_params *p, const char *name, int stream, const char *why,
                                 char *err, size_t errlen) {
  if (p->chunk > 0 && !stream)
    cb_kit_err(err, errlen, "not offered: %s %s (chunk must be 0)", name, why);
  else if (p->period > 0 && (p->chunk == 0 || p->chunk > p->period))
    cb_kit_err(err, errlen, "a periodic input needs 0 < chunk <= period");
  else
    return 0;
  return -1;
}

/* A keyed cipher's key of key_len bytes and input (in_len bytes) a multiple of block. 0, or -1
 * with the message in err. */
static inline int ops_key_block_checks(const ops_params *p, const char *name, size_t key_len,
                                       size_t block, size_t in_len, char *err, size_t errlen) {
  if (p->key == NULL || p->key_len != key_len)
    cb_kit_err(err, errlen, "wrong key length: %zu bytes, %s needs %zu", p->key_len, name, key_len);
  else if (in_len % block != 0)
    cb_kit_err(err, errlen, "size %zu is not a multiple of %zu for %s", in_len, block, name);
  else
    return 0;
  return -1;
}

/* The IV (an AEAD's nonce) of iv_len bytes (0: any length up to max). 0, or -1 with the message. */
static inline int ops_iv_checks(const ops_params *p, const char *name, size_t iv_len, int aead,
                                size_t max, char *err, size_t errlen) {
  if (p->iv != NULL && (iv_len == 0 || p->iv_len == iv_len) && p->iv_len <= max)
    return 0;
  cb_kit_err(err, errlen, "wrong %s length: %zu bytes, %s needs %zu", aead ? "nonce" : "IV",
             p->iv_len, name, iv_len);
  return -1;
}

/* a's catalogue entry: algorithm `name` of kind k, streaming or not, the rest zero */
static inline ops_alg *ops_alg_entry(ops_alg *a, const char *name, enum cb_kit_kind k, int stream) {
  memset(a, 0, sizeof *a);
  a->name = name;
  cb_kit_ops_of(k, a);
  a->stream = stream;
  return a;
}

/* The module's own catalogue from its table DEFS[0..NDEFS) of alg_def: every d (a const alg_def *)
 * for which ACCEPT holds, an entry of kind KIT_KIND[d->kind] that streams when d->stream, into
 * catalogue[] and catalogue_def[] from catalogue_len on. */
#define OPS_CATALOGUE_FROM_DEFS(ACCEPT)                                                            \
  for (size_t i = 0; i < NDEFS; i++) {                                                             \
    const alg_def *d = &DEFS[i];                                                                   \
    if (ACCEPT) {                                                                                  \
      ops_alg_entry(&catalogue[catalogue_len], d->name, KIT_KIND[d->kind], d->stream);             \
      catalogue_def[catalogue_len++] = d;                                                          \
    }                                                                                              \
  }

/* mod_cell_def(p, &idx, &op, err, errlen), the first step of mod_cell_new in a module with a table
 * of alg_def (catalogue_def[], each d of kind KIT_KIND[d->KIND], operations OP_NAMES): the cell's
 * alg_def, *idx its catalogue index and *op its operation's index in OP_NAMES, or NULL with the
 * message in err ("algorithm not offered: <name>", or the operation's). Set-up, never timed. */
#define OPS_MODULE_CELL_DEF(KIND)                                                                  \
  static const alg_def *mod_cell_def(const ops_params *p, size_t *idx, int *op, char *err,         \
                                     size_t errlen) {                                              \
    *idx = mod_alg_lookup(p->alg, err, errlen);                                                    \
    if (*idx == (size_t)-1)                                                                        \
      return NULL;                                                                                 \
    const alg_def *d = catalogue_def[*idx];                                                        \
    *op = cb_kit_op_of_kind(p->op, KIT_KIND[d->KIND], OP_NAMES,                                    \
                            sizeof OP_NAMES / sizeof *OP_NAMES, d->name, err, errlen);             \
    return *op < 0 ? NULL : d;                                                                     \
  }

/* mod_cell_of(d, op, err, errlen), the first step of such a module's cell_new: a fresh zeroed
 * cell of algorithm d and operation op (its ops_cell's members def and op, an enum op), or NULL
 * with "out of memory" in err. The module writes this after its struct ops_cell. */
#define OPS_MODULE_CELL_OF                                                                         \
  static ops_cell *mod_cell_of(const alg_def *d, int op, char *err, size_t errlen) {               \
    ops_cell *c = (ops_cell *)cb_kit_zalloc(sizeof *c, err, errlen);                               \
    if (c != NULL) {                                                                               \
      c->def = d;                                                                                  \
      c->op = (enum op)op;                                                                         \
    }                                                                                              \
    return c;                                                                                      \
  }

/* mod_cell_new of such a module: FIRST (nothing, or OPS_PK_SUBCELL_FIRST), then its own
 *   static ops_cell *cell_new(const alg_def *d, size_t idx, int op, const ops_params *p,
 *                             char *err, size_t errlen)
 * for the cell of the algorithm and operation mod_cell_def found. */
#define OPS_MODULE_CELL_NEW(KIND, FIRST)                                                           \
  OPS_MODULE_CELL_DEF(KIND)                                                                        \
  ops_cell *mod_cell_new(const ops_params *p, char *err, size_t errlen) {                          \
    FIRST                                                                                          \
    size_t idx;                                                                                    \
    int opi;                                                                                       \
    const alg_def *d = mod_cell_def(p, &idx, &opi, err, errlen);                                   \
    return d == NULL ? NULL : cell_new(d, idx, opi, p, err, errlen);                               \
  }

/* OPS_MODULE_CELL_NEW's FIRST in a module whose public-key algorithms are a pk_cell's (ops_pk.h) */
#define OPS_PK_SUBCELL_FIRST                                                                       \
  size_t pki = mod_alg_index(p->alg);                                                              \
  if (pki != (size_t)-1 && catalogue[pki].pk)                                                      \
    return ops_wrap_pk(pk_cell_new(p, err, errlen), err, errlen);

/* A symmetric cell's input fields from p: in, in_len (the message), period, streaming (chunk > 0)
 * and regen: DECRYPTS (a decryption or open) of a periodic input in stream regenerates its
 * ciphertext (ops_regen.h). */
#define OPS_CELL_INPUT(c, p, DECRYPTS)                                                             \
  do {                                                                                             \
    (c)->in = (p)->msg;                                                                            \
    (c)->in_len = (p)->msg_len;                                                                    \
    (c)->period = (p)->period;                                                                     \
    (c)->streaming = (p)->chunk > 0;                                                               \
    (c)->regen = (DECRYPTS) && (p)->period > 0 && (c)->streaming;                                  \
  } while (0)

/* open's input is ciphertext || tag: 0, or -1 with the message when it is shorter than the tag */
static inline int ops_open_fits(const ops_params *p, char *err, size_t errlen) {
  if (p->msg_len >= OPS_TAG_LEN)
    return 0;
  cb_kit_err(err, errlen, "open: input shorter than the %d-byte tag", OPS_TAG_LEN);
  return -1;
}

/* bytes per update call: the chunk, or the whole input */
static inline size_t ops_step(const ops_params *p, size_t in_len) {
  return p->chunk > 0 && p->chunk < in_len ? p->chunk : in_len;
}

/* a cell's output buffer of cap bytes (at least 1), or NULL with the message in err */
static inline uint8_t *ops_out_buf(size_t cap, char *err, size_t errlen) {
  uint8_t *b = (uint8_t *)malloc(cap > 0 ? cap : 1);
  if (b == NULL)
    cb_kit_err(err, errlen, "out of memory (%zu bytes of output)", cap);
  return b;
}

/* The end of a module's cell_new: c when ok, else NULL with c freed (the message is in err). */
static inline ops_cell *mod_cell_done(ops_cell *c, int ok) {
  if (ok)
    return c;
  mod_cell_free(c);
  return NULL;
}

/* The table, at the end of the module (inside extern "C" for C++). REGENERATES and UNTIMED: the
 * module's bounded-memory decryption functions (ops_regen.h), or NULL. Its key pairs are
 * malloc()ed: free_buf is free. The cell functions go in as they are, cast to the ABI's opaque
 * cell (cell_run is called directly, nothing in between). */
#define OPS_MODULE_EXPORT(REGENERATES, UNTIMED)                                                    \
  static cb_status table_init(char *err, size_t errlen) {                                          \
    return mod_init(err, errlen) == 0 ? CB_OK : CB_ERROR;                                          \
  }                                                                                                \
  static cb_status table_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {  \
    *cell = (cb_cell *)mod_cell_new(p, err, errlen);                                               \
    return *cell != NULL ? CB_OK : cb_kit_status_of_text(err);                                     \
  }                                                                                                \
  static cb_status table_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,  \
                                 size_t *priv_len, char *err, size_t errlen) {                     \
    if (mod_keypair(alg, pub, pub_len, priv, priv_len, err, errlen) == 0)                          \
      return CB_OK;                                                                                \
    return cb_kit_status_of_text(err);                                                             \
  }                                                                                                \
  static void table_free_buf(uint8_t *buf, size_t len) {                                           \
    (void)len;                                                                                     \
    free(buf);                                                                                     \
  }                                                                                                \
  static const cb_provider table = {                                                               \
      CB_PROVIDER_ABI_VERSION,                                                                     \
      sizeof(cb_provider),                                                                         \
      CB_PLUGIN_NAME,                                                                              \
      CB_PLUGIN_ID,                                                                                \
      CB_PLUGIN_LANGUAGE,                                                                          \
      CB_COMPILER, /* the compiler of this build, which built the module too */                    \
      mod_provider_accepts,                                                                        \
      table_init,                                                                                  \
      NULL,                                                                                        \
      mod_library_name,                                                                            \
      mod_library_version,                                                                         \
      mod_notes,                                                                                   \
      mod_alg_at,                                                                                  \
      table_cell_new,                                                                              \
      (int (*)(cb_cell *))mod_cell_run,                                                            \
      (int (*)(cb_cell *, uint64_t))mod_cell_prepare,                                              \
      (const uint8_t *(*)(const cb_cell *, size_t *))mod_cell_output,                              \
      (void (*)(cb_cell *, cb_tap *))mod_cell_tap,                                                 \
      (const char *(*)(const cb_cell *))mod_cell_error,                                            \
      (void (*)(cb_cell *))mod_cell_free,                                                          \
      table_keypair,                                                                               \
      table_free_buf,                                                                              \
      REGENERATES,                                                                                 \
      (uint64_t(*)(cb_cell *))UNTIMED,                                                             \
      NULL, /* declare_at: a built-in module declares no algorithm of its own */                   \
  };                                                                                               \
  CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }

#ifdef __cplusplus
}
#endif

#endif
