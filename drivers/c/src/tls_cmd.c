#define _POSIX_C_SOURCE 200809L
#include "tls_cmd.h"

#include <stdio.h>
#include <string.h>

#include "ops_plugin.h"
#include "protocol.h"
#include "request.h"
#include "tls_iface.h"

#define TLS_PREFIX "tls13-"
#define MAX_CONNECTIONS 1000
#define MAX_TIMEOUT_MS (10u * 60 * 1000)

static int is_tls(const char *alg) { return strncmp(alg, TLS_PREFIX, strlen(TLS_PREFIX)) == 0; }

int tls_offered(void) {
  if (plugin_tls() == NULL)
    return 0;
  for (size_t i = 0; i < ops_alg_count(); i++)
    if (is_tls(ops_alg_at(i)->name))
      return 1;
  return 0;
}

/* The fields of the `tls` object; 0, or -1 with the message in err. */
static int pki_fields(json_t *req, int server, int client, const char **chain, const char **key,
                      const char **ca, const char **name, char *err, size_t errlen) {
  json_t *t = json_object_get(req, "tls");
  if (!json_is_object(t)) {
    snprintf(err, errlen, "tls: no PKI in the request");
    return -1;
  }
  *chain = *key = *ca = *name = NULL;
  if ((server && (req_string(t, "chain", 1, chain, err, errlen) != 0 ||
                  req_string(t, "key", 1, key, err, errlen) != 0)) ||
      (client && (req_string(t, "ca", 1, ca, err, errlen) != 0 ||
                  req_string(t, "server_name", 1, name, err, errlen) != 0)))
    return -1;
  return 0;
}

int tls_bench_ext(json_t *req, const char *alg, cb_ext ext[5], json_t **res) {
  memset(ext, 0, 5 * sizeof *ext);
  if (!is_tls(alg))
    return 0;
  const char *chain, *key, *ca, *name;
  char err[300];
  if (pki_fields(req, 1, 1, &chain, &key, &ca, &name, err, sizeof err) != 0) {
    *res = cb_error("%s", err);
    return -1;
  }
  const char *keys[4] = {CB_TLS_EXT_CHAIN, CB_TLS_EXT_KEY, CB_TLS_EXT_CA, CB_TLS_EXT_SERVER_NAME};
  const char *vals[4] = {chain, key, ca, name};
  for (int i = 0; i < 4; i++)
    ext[i] = (cb_ext){keys[i], (const uint8_t *)vals[i], strlen(vals[i])};
  return 0;
}

json_t *tls_bench_report(ops_cell *cell) {
  const cb_tls_iface *t = plugin_tls();
  const char *text = t != NULL ? t->report((cb_cell *)cell) : NULL;
  return text != NULL ? json_loads(text, 0, NULL) : NULL;
}

/* alg, connections and timeout_ms of an interop request, the cell offered; 0 or -1 (*res) */
static int interop_fields(json_t *req, const char **alg, uint64_t *conns, uint64_t *timeout,
                          json_t **res) {
  char err[300];
  if (req_string(req, "alg", 1, alg, err, sizeof err) != 0 ||
      req_uint(req, "connections", 0, 1, MAX_CONNECTIONS, conns, err, sizeof err) != 0 ||
      req_uint(req, "timeout_ms", 0, 10000, MAX_TIMEOUT_MS, timeout, err, sizeof err) != 0) {
    *res = cb_error("%s", err);
    return -1;
  }
  if (plugin_tls() == NULL || !is_tls(*alg) || ops_alg_find(*alg) == NULL) {
    *res = cb_error("not offered: algorithm %s", *alg);
    return -1;
  }
  return 0;
}

/* {"ok": true, "handshakes": <text>} from the module's JSON array (freed here) */
static json_t *handshakes(char *text, const char *err) {
  const cb_tls_iface *t = plugin_tls();
  if (text == NULL)
    return cb_error("%s", err);
  json_t *list = json_loads(text, 0, NULL);
  t->free_text(text);
  if (!json_is_array(list)) {
    json_decref(list);
    return cb_error("tls: the module's handshakes are not a JSON array");
  }
  return json_pack("{s:b, s:o}", "ok", 1, "handshakes", list);
}

json_t *tls_handle_serve(json_t *req) {
  const char *alg, *chain, *key, *ca, *name;
  uint64_t conns, timeout;
  json_t *res;
  char err[300] = "";
  if (interop_fields(req, &alg, &conns, &timeout, &res) != 0)
    return res;
  if (pki_fields(req, 1, 0, &chain, &key, &ca, &name, err, sizeof err) != 0)
    return cb_error("%s", err);
  int port = 0;
  if (plugin_tls()->serve(alg, (uint32_t)conns, (uint32_t)timeout, chain, key, &port, err,
                          sizeof err) != 0)
    return cb_error("%s", err);
  return json_pack("{s:b, s:i}", "ok", 1, "port", port);
}

json_t *tls_handle_result(json_t *req) {
  (void)req;
  char err[300] = "";
  if (plugin_tls() == NULL)
    return cb_error("not offered: tls-result (this plugin has no TLS cells)");
  return handshakes(plugin_tls()->result(err, sizeof err), err);
}

json_t *tls_handle_connect(json_t *req) {
  const char *alg, *chain, *key, *ca, *name;
  uint64_t conns, timeout, port;
  json_t *res;
  char err[300] = "";
  if (interop_fields(req, &alg, &conns, &timeout, &res) != 0)
    return res;
  if (req_uint(req, "port", 1, 0, 65535, &port, err, sizeof err) != 0 ||
      pki_fields(req, 0, 1, &chain, &key, &ca, &name, err, sizeof err) != 0)
    return cb_error("%s", err);
  return handshakes(plugin_tls()->connect(alg, (int)port, (uint32_t)conns, (uint32_t)timeout, ca,
                                          name, err, sizeof err),
                    err);
}
