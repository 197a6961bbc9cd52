/* The TLS half of the OpenSSL module (src/ops_tls.h) for wasm32-wasi: no TLS cells. WASI has no
 * sockets or threads for the interop commands, and the wasm build has no libssl (docs/wasm.md), so
 * the catalogue gets no tls13-* cell and the module never reaches the other functions; they answer
 * "not offered" all the same. Replaces ops_openssl_tls.c, ops_openssl_tls_net.c and tls_kit.c. */
#include <stdio.h>

#include "ops_tls.h"

#define NOT_OFFERED "not offered: TLS cells under WASI (the wasm build has no libssl, no sockets)"

size_t tls_catalogue(ops_alg *out, size_t max) {
  (void)out;
  (void)max;
  return 0;
}

size_t tls_notes(const char **notes, size_t max) {
  if (max == 0)
    return 0;
  notes[0] = "no TLS cells: WASI has no sockets or threads, and this build has no libssl";
  return 1;
}

tls_cell *tls_cell_new(const ops_params *p, uint64_t *untimed_ns, char *err, size_t errlen) {
  (void)p;
  (void)untimed_ns;
  snprintf(err, errlen, "%s", NOT_OFFERED);
  return NULL;
}

int tls_cell_prepare(tls_cell *c, uint64_t n) {
  (void)c;
  (void)n;
  return -1;
}

int tls_cell_run(tls_cell *c) {
  (void)c;
  return -1;
}

const uint8_t *tls_cell_output(const tls_cell *c, size_t *len) {
  (void)c;
  *len = 0;
  return NULL;
}

const char *tls_cell_error(const tls_cell *c) {
  (void)c;
  return NOT_OFFERED;
}

const char *tls_cell_report(tls_cell *c) {
  (void)c;
  return NULL;
}

void tls_cell_free(tls_cell *c) { (void)c; }

int tls_serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
              const char *key, int *port, char *err, size_t errlen) {
  (void)alg, (void)connections, (void)timeout_ms, (void)chain, (void)key, (void)port;
  snprintf(err, errlen, "%s", NOT_OFFERED);
  return -1;
}

char *tls_result(char *err, size_t errlen) {
  snprintf(err, errlen, "%s", NOT_OFFERED);
  return NULL;
}

char *tls_connect(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                  const char *ca, const char *server_name, char *err, size_t errlen) {
  (void)alg, (void)port, (void)connections, (void)timeout_ms, (void)ca, (void)server_name;
  snprintf(err, errlen, "%s", NOT_OFFERED);
  return NULL;
}
