/* The generic driver's plugin loader (ops_plugin.c): after plugin_load(), the ops.h functions
 * call into the loaded plugin. */
#ifndef CB_OPS_PLUGIN_H
#define CB_OPS_PLUGIN_H

#include <stddef.h>

#include "ops.h"
#include "tls_iface.h"

/* dlopen the plugin, find its cryptobench_provider table and check it (ABI version, size,
 * name, required members). 0, or -1 with a one-line message naming the plugin in err. */
int plugin_load(const char *path, char *err, size_t errlen);

/* Take the table a plugin's cryptobench_provider() returned (raw; handle: its dlopen handle, for
 * version 1's optional symbols), check it and serve it. 0, or -1 with the message. */
int plugin_take(const void *raw, void *handle, char *err, size_t errlen);

/* A built-in module's own entry point (ops_module.h), for the native tests that link it. */
CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void);

/* ABI version 1's table raw as a version-2 table in *t (ops_plugin_v1.c). 0, or -1. */
int plugin_v1_adapt(void *handle, const void *raw, const char *file, cb_provider *t, char *err,
                    size_t errlen);

void ops_fini(void); /* the plugin's fini, once, at a normal end */

const char *plugin_id(void);       /* the provider id it serves: its own id, or plugin:<name> */
const char *plugin_language(void); /* its language ("c" unless it says otherwise) */
const char *plugin_runtime(void);  /* its toolchain (cb_provider.runtime), "unknown" unless said */
void plugin_serving(void);         /* start-up is over: crashes from now on are a request's */
/* The algorithms the plugin declares (cb_provider.declare_at, checked at ops_init): how many, and
 * the i-th with its KAT file's path resolved against the plugin's folder (*kat NULL: none). */
size_t ops_declare_count(void);
/* The TLS entry of the C driver's own OpenSSL module (tls_iface.h: private, not the plugin ABI),
 * found by plugin_load; NULL for any other plugin. The native tests set the linked module's. */
const cb_tls_iface *plugin_tls(void);
void plugin_set_tls(const cb_tls_iface *t);
const cb_declare *ops_declare_at(size_t i, const char **kat);
/* The library's own constant-time comparison of two buffers (0: equal), looked up by its name
 * (CRYPTO_memcmp, sodium_memcmp, botan_constant_time_compare, mbedtls_ct_memcmp) among the
 * plugin's libraries by plugin_load, for the leak request's MAC verify and compare (leak.c): not a
 * plugin ABI member. NULL (and *name NULL) when none is found or no plugin was loaded. */
typedef int (*plugin_memcmp_fn)(const void *a, const void *b, size_t n);
plugin_memcmp_fn plugin_compare(const char **name);

#endif
