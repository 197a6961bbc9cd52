/* The JSON-lines protocol, version 5 (docs/protocol.md): decode a request, dispatch it to
 * hello / verify / bench / keypair / leak / bye, encode the response. Any error becomes
 * {"ok": false, "error": "<one line>"}; the driver stays usable. */
#ifndef CB_PROTOCOL_H
#define CB_PROTOCOL_H

#include <jansson.h>

#define CB_PROTOCOL_VERSION 5

/* The provider id this process serves (from --provider); reported by hello. */
void cb_set_provider(const char *id);
/* The language hello reports when the provider id's prefix does not say it (plugin:<name>). */
void cb_set_language(const char *language);
void cb_set_runtime(const char *runtime); /* hello's runtime: the plugin's toolchain */

/* Handle one request object; always returns a response object (caller decrefs). *bye is set
 * to 1 for a `bye` request. */
json_t *cb_handle_request(json_t *req, int *bye);

/* Handle one request line of len bytes (without its newline): returns the response as one line of
 * compact JSON, no newline, freshly allocated (free()); NULL only when out of memory. */
char *cb_handle_line(const char *line, size_t len, int *bye);

/* Serve the loaded plugin (ops_plugin.h, after ops_init) as `provider`: hello's runtime from the
 * plugin, one response line on stdout per request line on stdin until `bye` or end of input, then
 * ops_fini(). Returns main's exit status (0). The language (cb_set_language) is the caller's. */
int cb_serve(const char *provider);

/* A command-line option "--name value" or "--name=value" at argv[*i]: its value (advancing *i past
 * a separate value), else NULL. */
const char *cb_option(char **argv, int argc, int *i, const char *name);

/* {"ok": false, "error": <formatted message>} */
json_t *cb_error(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
