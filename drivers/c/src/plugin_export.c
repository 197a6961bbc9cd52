/* A built-in library module as a plugin: the module's ops_* functions in the cb_provider table
 * (include/cryptobench/provider.h), exactly as a user's plugin fills it. Linked into every
 * build/plugins/libcb_<library>.so; the Makefile names the plugin (CB_PLUGIN_NAME), its provider
 * id (CB_PLUGIN_ID) and language (CB_PLUGIN_LANGUAGE). */
#include "ops.h"

#ifndef CB_PLUGIN_NAME
#error "CB_PLUGIN_NAME, CB_PLUGIN_ID and CB_PLUGIN_LANGUAGE come from the Makefile"
#endif

static cb_cell *cell_new(const cb_params *p, char *err, size_t errlen) {
  return (cb_cell *)ops_cell_new(p, err, errlen);
}
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
    .init = ops_init,
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
    .keypair = ops_keypair,
    .runtime = CB_COMPILER, /* the compiler of this build, which built the module too */
};

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
