/* The TLS interop commands of the OpenSSL module (protocol.md, "Interop: tls-serve, tls-result,
 * tls-connect"): libssl's server and client over loopback TCP with the cells' configurations
 * (ops_openssl_tls.c). The listening thread, the timeouts, the client's loop and the JSON are
 * tls_kit.c's (shared with the plugins of plugins/c); here is one connection of each side. */
#define _DEFAULT_SOURCE
#include "ops_tls.h"
#include <cryptobench/kit.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "tls_kit.h"

#if OPENSSL_VERSION_NUMBER >= 0x30000000L /* as the cells (ops_openssl_tls.c) */

/* One side's view of a finished handshake (protocol.md's handshake object). */
static int describe(SSL *s, int peer, char *out, size_t cap) {
  uint8_t ex[32];
  if (!tls_exporter(s, ex))
    return -1;
  int resumed = SSL_session_reused(s) == 1;
  tls_kit_hs_json(out, cap, tls_group_code(s), tls_cipher_code(s),
                  resumed ? -1 : tls_sigalg_code(s, peer), resumed, ex);
  return 0;
}

/* the library's words for a failed call on s */
static void ssl_fail(char *err, size_t errlen, const char *what, SSL *s, int r) {
  int e = SSL_get_error(s, r);
  if (ERR_peek_error() != 0)
    tls_err(err, errlen, what);
  else
    cb_kit_err(err, errlen, "tls: %s failed (SSL_get_error %d%s%s)", what, e,
               e == SSL_ERROR_SYSCALL ? ": " : "", e == SSL_ERROR_SYSCALL ? strerror(errno) : "");
}

static int sock_read(void *s, void *buf, size_t n, char *err, size_t errlen) {
  int r = SSL_read(s, buf, (int)n);
  if (r <= 0)
    ssl_fail(err, errlen, "reading the peer's 4 bytes", s, r);
  return r;
}

/* ---- the server: ctx is its SSL_CTX ---- */

static int serve_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  SSL *s = SSL_new(ctx);
  int r = 0, rc = -1;
  if (s == NULL || SSL_set_fd(s, fd) != 1)
    tls_err(err, errlen, "server connection");
  else if ((r = SSL_accept(s)) != 1)
    ssl_fail(err, errlen, "server handshake", s, r);
  else if (tls_kit_read4(sock_read, s, "ping", err, errlen) != 0)
    ;
  else if ((r = SSL_write(s, "pong", 4)) != 4)
    ssl_fail(err, errlen, "writing pong", s, r);
  else if (describe(s, 0, obj, cap) != 0)
    tls_err(err, errlen, "exporter");
  else
    rc = 0;
  if (rc == 0)
    SSL_shutdown(s);
  SSL_free(s);
  ERR_clear_error();
  return rc;
}

static void server_free(void *ctx) { SSL_CTX_free(ctx); }

int tls_serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
              const char *key, int *port, char *err, size_t errlen) {
  tls_cfg cfg;
  SSL_CTX *ctx;
  if (tls_cfg_of(alg, &cfg, err, errlen) != 0 ||
      (ctx = tls_server_ctx(&cfg, chain, key, err, errlen)) == NULL)
    return -1;
  return tls_kit_serve(serve_one, ctx, server_free, connections, timeout_ms, port, err, errlen);
}

char *tls_result(char *err, size_t errlen) { return tls_kit_result(err, errlen); }

/* ---- the client ---- */

typedef struct client {
  tls_cfg cfg;
  SSL_CTX *ctx;
  const char *server_name;
  SSL_SESSION *ticket; /* -resume: what the previous connection received */
} client;

static int connect_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  client *c = ctx;
  SSL *s = NULL;
  int r = 0, rc = -1;
  if ((s = tls_client_ssl(c->ctx, c->server_name)) == NULL || SSL_set_fd(s, fd) != 1 ||
      (c->cfg.kit.resume && c->ticket != NULL && SSL_set_session(s, c->ticket) != 1))
    tls_err(err, errlen, "client connection");
  else if ((r = SSL_connect(s)) != 1)
    ssl_fail(err, errlen, "client handshake", s, r);
  else if ((r = SSL_write(s, "ping", 4)) != 4)
    ssl_fail(err, errlen, "writing ping", s, r);
  else if (tls_kit_read4(sock_read, s, "pong", err, errlen) != 0)
    ;
  else if (describe(s, 1, obj, cap) != 0)
    tls_err(err, errlen, "exporter");
  else
    rc = 0;
  if (rc == 0 && c->cfg.kit.resume) { /* the ticket came before pong */
    SSL_SESSION_free(c->ticket);
    c->ticket = SSL_get1_session(s);
  }
  if (rc == 0)
    SSL_shutdown(s);
  SSL_free(s);
  ERR_clear_error();
  return rc;
}

char *tls_connect(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                  const char *ca, const char *server_name, char *err, size_t errlen) {
  client c = {.server_name = server_name};
  if (tls_cfg_of(alg, &c.cfg, err, errlen) != 0 ||
      (c.ctx = tls_client_ctx(&c.cfg, ca, err, errlen)) == NULL)
    return NULL;
  char *out = tls_kit_connect(connect_one, &c, port, connections, timeout_ms, err, errlen);
  SSL_SESSION_free(c.ticket);
  SSL_CTX_free(c.ctx);
  ERR_clear_error();
  return out;
}
#else
int tls_serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
              const char *key, int *port, char *err, size_t errlen) {
  (void)connections, (void)timeout_ms, (void)chain, (void)key, (void)port;
  cb_kit_err(err, errlen, "not offered: algorithm %s (no TLS cells before OpenSSL 3.0)", alg);
  return -1;
}
char *tls_result(char *err, size_t errlen) {
  cb_kit_err(err, errlen, "tls: no tls-serve to wait for");
  return NULL;
}
char *tls_connect(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                  const char *ca, const char *server_name, char *err, size_t errlen) {
  (void)port, (void)connections, (void)timeout_ms, (void)ca, (void)server_name;
  cb_kit_err(err, errlen, "not offered: algorithm %s (no TLS cells before OpenSSL 3.0)", alg);
  return NULL;
}
#endif
