/* The driver's side of the TLS 1.3 cells (protocol.md, version 7): the bench request's `tls`
 * object, the response's `tls` report, and the interop commands tls-serve, tls-result and
 * tls-connect, served through the OpenSSL module's private TLS entry (tls_iface.h). */
#ifndef CB_TLS_CMD_H
#define CB_TLS_CMD_H

#include <jansson.h>

#include "ops.h"

/* Whether the plugin offers any tls13-* cell (then hello answers protocol 7). */
int tls_offered(void);

/* A bench request for alg: for a tls13-* cell its `tls` object as cb_params.ext entries in ext
 * (5: four and the end mark; the strings stay req's); ext[0].key is NULL for another cell. 0, or
 * -1 with the error response in *res. */
int tls_bench_ext(json_t *req, const char *alg, cb_ext ext[5], json_t **res);

/* The cell's last handshake as the bench response's "tls" object (NULL for another cell). */
json_t *tls_bench_report(ops_cell *cell);

json_t *tls_handle_serve(json_t *req);
json_t *tls_handle_result(json_t *req);
json_t *tls_handle_connect(json_t *req);

#endif
