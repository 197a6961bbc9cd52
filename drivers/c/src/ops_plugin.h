/* The generic driver's plugin loader (ops_plugin.c): after plugin_load(), the ops.h functions
 * call into the loaded plugin. */
#ifndef CB_OPS_PLUGIN_H
#define CB_OPS_PLUGIN_H

#include <stddef.h>

#include "ops.h"

/* dlopen the plugin, find its cryptobench_provider table and check it (ABI version, size,
 * name, required members). 0, or -1 with a one-line message naming the plugin in err. */
int plugin_load(const char *path, char *err, size_t errlen);

const char *plugin_id(void);       /* the provider id it serves: its own id, or plugin:<name> */
const char *plugin_language(void); /* its language ("c" unless it says otherwise) */
const char *plugin_runtime(void);  /* its toolchain (cb_provider.runtime), "unknown" unless said */
void plugin_serving(void);         /* start-up is over: crashes from now on are a request's */

#endif
