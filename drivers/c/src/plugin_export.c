/* A built-in library module as a plugin: the module's ops_* functions in the cb_provider table
 * (include/cryptobench/provider.h), exactly as a user's plugin fills it. Linked into every
 * build/plugins/libcb_<library>.so; the Makefile names the plugin (CB_PLUGIN_NAME), its provider
 * id (CB_PLUGIN_ID) and language (CB_PLUGIN_LANGUAGE). */
#include <stdlib.h>

#include "ops.h"
#include <cryptobench/kit.h>

#ifndef CB_PLUGIN_NAME
#error "CB_PLUGIN_NAME, CB_PLUGIN_ID and CB_PLUGIN_LANGUAGE come from the Makefile"
#endif

/* the modules say "not offered: ..." in their messages (the protocol's words): a status here */
static cb_status cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {
  *cell = (cb_cell *)ops_cell_new(p, err, errlen);
  return *cell != NULL ? CB_OK : cb_kit_status_of_text(err);
}
static cb_status init(char *err, size_t errlen) {
  return ops_init(err, errlen) == 0 ? CB_OK : CB_ERROR;
}
static cb_status keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                         size_t *priv_len, char *err, size_t errlen) {
  if (ops_keypair(alg, pub, pub_len, priv, priv_len, err, errlen) == 0)
    return CB_OK;
  return cb_kit_status_of_text(err);
}
/* the modules' key pairs are malloc()ed */
static void free_buf(uint8_t *buf, size_t len) {
  (void)len;
  free(buf);
}
/* only the modules that regenerate a big decrypt's ciphertext define these (ops_regen.h) */
extern int ops_regenerates_ciphertext(void) __attribute__((weak));
extern uint64_t ops_cell_take_untimed_ns(ops_cell *c) __attribute__((weak));
static uint64_t cell_untimed_ns(cb_cell *c) { return ops_cell_take_untimed_ns((ops_cell *)c); }
static int cell_run(cb_cell *c) { return ops_cell_run((ops_cell *)c); }
static int cell_prepare(cb_cell *c, uint64_t n) { return ops_cell_prepare((ops_cell *)c, n); }
static const uint8_t *cell_output(const cb_cell *c, size_t *len) {
  return ops_cell_output((const ops_cell *)c, len);
}
static void cell_tap(cb_cell *c, cb_tap *tap) { ops_cell_tap((ops_cell *)c, tap); }
static const char *cell_error(const cb_cell *c) { return ops_cell_error((const ops_cell *)c); }
static void cell_free(cb_cell *c) { ops_cell_free((ops_cell *)c); }

static const cb_provider table = {
    .abi_version = CB_PROVIDER_ABI_VERSION,
    .struct_size = sizeof(cb_provider),
    .name = CB_PLUGIN_NAME,
    .id = CB_PLUGIN_ID,
    .language = CB_PLUGIN_LANGUAGE,
    .accepts = ops_provider_accepts,
    .init = init,
    .library_name = ops_library_name,
    .library_version = ops_library_version,
    .notes = ops_notes,
    .alg_at = ops_alg_at,
    .cell_new = cell_new,
    .cell_run = cell_run,
    .cell_prepare = cell_prepare,
    .cell_output = cell_output,
    .cell_tap = cell_tap,
    .cell_error = cell_error,
    .cell_free = cell_free,
    .keypair = keypair,
    .free_buf = free_buf,
    .regenerates_ciphertext = ops_regenerates_ciphertext,
    .cell_untimed_ns = cell_untimed_ns,
    .runtime = CB_COMPILER, /* the compiler of this build, which built the module too */
};

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
