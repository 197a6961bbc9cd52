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
