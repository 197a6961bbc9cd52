/* ABI version 1's shim (src/ops_plugin_v1.c) adapts dlopen'd plugins, which WASI cannot load; the
 * one module of the wasm build is version 2. Linked into the driver (wasm/main_wasm.c) and into
 * its native tests (tests/test_driver.c, wasm.mk's wasm-test). */
#include <stdio.h>

#include "ops_plugin.h"

int plugin_v1_adapt(void *handle, const void *raw, const char *file, cb_provider *t, char *err,
                    size_t errlen) {
  (void)handle, (void)raw, (void)t;
  snprintf(err, errlen, "plugin %s: ABI version 1 plugins are not loaded under WASI", file);
  return -1;
}
