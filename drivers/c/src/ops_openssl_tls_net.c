/* The TLS interop commands of the OpenSSL module (protocol.md, "Interop: tls-serve, tls-result,
 * tls-connect"): libssl's server and client over loopback TCP with the cells' configurations
 * (ops_openssl_tls.c). tls-serve listens on 127.0.0.1 port 0 and serves its connections one
 * after the other in a thread, so the driver keeps answering; one server at a time. Blocking
 * sockets whose send and receive timeouts are what is left of timeout_ms. */
#define _DEFAULT_SOURCE
#include "ops_tls.h"
#include <cryptobench/kit.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>

#define HS_JSON_MAX 256 /* one handshake object */

#if OPENSSL_VERSION_NUMBER >= 0x30000000L /* as the cells (ops_openssl_tls.c) */

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A growing JSON array of handshake objects. */
typedef struct {
  char *text;
  size_t len, cap;
} hs_list;

static int list_add(hs_list *l, const char *obj) {
  size_t n = strlen(obj);
  if (l->len + n + 3 > l->cap) {
    size_t cap = (l->cap + n + 3) * 2;
    char *t = realloc(l->text, cap);
    if (t == NULL)
      return -1;
    l->text = t, l->cap = cap;
  }
  char sep = l->len == 0 ? '[' : ',';
  l->text[l->len++] = sep;
  memcpy(l->text + l->len, obj, n);
  l->len += n;
  l->text[l->len] = '\0';
  return 0;
}

/* the finished array (freed by the caller), or NULL */
static char *list_close(hs_list *l) {
  if (l->len == 0 && list_add(l, "") != 0)
    return NULL;
  char *t = realloc(l->text, l->len + 2);
  if (t == NULL)
    return NULL;
  t[l->len] = ']', t[l->len + 1] = '\0';
  l->text = NULL;
  return t;
}

/* One side's view of a finished handshake (protocol.md's handshake object). */
static int describe(SSL *s, int peer, char *out, size_t cap) {
  uint8_t ex[32];
  char hex[65], g[12], ci[12], sig[12];
  if (!tls_exporter(s, ex))
    return -1;
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", ex[i]);
  int resumed = SSL_session_reused(s) == 1, sigalg = resumed ? -1 : tls_sigalg_code(s, peer);
  snprintf(out, cap,
           "{\"group\":%s,\"cipher\":%s,\"sigalg\":%s,\"resumed\":%s,\"exporter\":\"%s\"}",
           tls_code_json(tls_group_code(s), g), tls_code_json(tls_cipher_code(s), ci),
           tls_code_json(sigalg, sig), resumed ? "true" : "false", hex);
  return 0;
}

/* send and receive timeouts: what is left until deadline (at least 1 ms) */
static void set_timeouts(int fd, uint64_t deadline) {
  uint64_t now = now_ms(), left = deadline > now ? deadline - now : 1;
  struct timeval tv = {(time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
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

/* exactly 4 bytes, compared with want */
static int read4(SSL *s, const char *want, char *err, size_t errlen) {
  char b[4];
  size_t got = 0;
  while (got < 4) {
    int r = SSL_read(s, b + got, (int)(4 - got));
    if (r <= 0) {
      ssl_fail(err, errlen, "reading the peer's 4 bytes", s, r);
      return -1;
    }
    got += (size_t)r;
  }
  if (memcmp(b, want, 4) != 0) {
    cb_kit_err(err, errlen, "tls: the peer sent other bytes than %s", want);
    return -1;
  }
  return 0;
}

static void no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); } /* a peer that closed early */

/* ---- the server ---- */

static struct {
  int active; /* a thread to join */
  pthread_t thread;
  int fd;
  /* a new tls-serve ends a serving still going (its client may be gone): stop, and the
   * connection being served is shut down to wake the thread (under lock) */
  pthread_mutex_t lock;
  int stop, conn;
  SSL_CTX *ctx;
  uint32_t connections;
  uint64_t deadline;
  hs_list list;
  char err[300];
} srv = {.fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER, .conn = -1};

/* the connection being served (-1: none), unless stopping: then -1 and fd is closed */
static int set_conn(int fd) {
  pthread_mutex_lock(&srv.lock);
  if (srv.stop && fd >= 0) {
    close(fd);
    fd = -1;
  }
  srv.conn = fd;
  pthread_mutex_unlock(&srv.lock);
  return fd;
}

static void *serve_thread(void *arg) {
  (void)arg;
  for (uint32_t i = 0; i < srv.connections && srv.err[0] == '\0'; i++) {
    uint64_t now = now_ms();
    struct pollfd pfd = {srv.fd, POLLIN, 0};
    if (now >= srv.deadline || poll(&pfd, 1, (int)(srv.deadline - now)) <= 0) {
      cb_kit_err(srv.err, sizeof srv.err, "tls: timed out waiting for connection %u of %u", i + 1,
                 srv.connections);
      break;
    }
    int fd = set_conn(accept(srv.fd, NULL, NULL));
    if (srv.stop) {
      cb_kit_err(srv.err, sizeof srv.err, "tls: ended by a new tls-serve");
      break;
    }
    if (fd < 0) {
      cb_kit_err(srv.err, sizeof srv.err, "tls: accept: %s", strerror(errno));
      break;
    }
    set_timeouts(fd, srv.deadline);
    SSL *s = SSL_new(srv.ctx);
    char obj[HS_JSON_MAX];
    int r = 0;
    if (s == NULL || SSL_set_fd(s, fd) != 1)
      tls_err(srv.err, sizeof srv.err, "server connection");
    else if ((r = SSL_accept(s)) != 1)
      ssl_fail(srv.err, sizeof srv.err, "server handshake", s, r);
    else if (read4(s, "ping", srv.err, sizeof srv.err) != 0)
      ;
    else if ((r = SSL_write(s, "pong", 4)) != 4)
      ssl_fail(srv.err, sizeof srv.err, "writing pong", s, r);
    else if (describe(s, 0, obj, sizeof obj) != 0)
      tls_err(srv.err, sizeof srv.err, "exporter");
    else if (list_add(&srv.list, obj) != 0)
      cb_kit_err(srv.err, sizeof srv.err, "tls: out of memory");
    if (s != NULL && srv.err[0] == '\0')
      SSL_shutdown(s);
    SSL_free(s);
    set_conn(-1);
    close(fd);
  }
  ERR_clear_error();
  return NULL;
}

/* the serving ended (stopped when still going, joined, its resources freed) */
static void serve_end(int stop) {
  if (srv.active && stop) {
    pthread_mutex_lock(&srv.lock);
    srv.stop = 1;
    shutdown(srv.fd, SHUT_RDWR); /* wakes poll and accept */
    if (srv.conn >= 0)
      shutdown(srv.conn, SHUT_RDWR);
    pthread_mutex_unlock(&srv.lock);
  }
  if (srv.active)
    pthread_join(srv.thread, NULL);
  srv.active = 0;
  srv.stop = 0;
  if (srv.fd >= 0)
    close(srv.fd);
  srv.fd = -1;
  SSL_CTX_free(srv.ctx);
  srv.ctx = NULL;
  free(srv.list.text);
  memset(&srv.list, 0, sizeof srv.list);
}

int tls_serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
              const char *key, int *port, char *err, size_t errlen) {
  tls_cfg cfg;
  no_sigpipe();
  serve_end(1);
  srv.err[0] = '\0';
  srv.connections = connections;
  srv.deadline = now_ms() + timeout_ms;
  if (tls_cfg_of(alg, &cfg, err, errlen) != 0 ||
      (srv.ctx = tls_server_ctx(&cfg, chain, key, err, errlen)) == NULL)
    return -1;
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof a;
  srv.fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (srv.fd < 0 || bind(srv.fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(srv.fd, 8) != 0 ||
      getsockname(srv.fd, (struct sockaddr *)&a, &alen) != 0) {
    cb_kit_err(err, errlen, "tls: listening on 127.0.0.1: %s", strerror(errno));
    serve_end(0);
    return -1;
  }
  if (pthread_create(&srv.thread, NULL, serve_thread, NULL) != 0) {
    cb_kit_err(err, errlen, "tls: cannot start the server thread");
    serve_end(0);
    return -1;
  }
  srv.active = 1;
  *port = ntohs(a.sin_port);
  return 0;
}

char *tls_result(char *err, size_t errlen) {
  if (!srv.active) {
    cb_kit_err(err, errlen, "tls: no tls-serve to wait for");
    return NULL;
  }
  pthread_join(srv.thread, NULL);
  srv.active = 0;
  char *out = NULL;
  if (srv.err[0] != '\0')
    cb_kit_err(err, errlen, "%s", srv.err);
  else if ((out = list_close(&srv.list)) == NULL)
    cb_kit_err(err, errlen, "tls: out of memory");
  serve_end(0);
  return out;
}

/* ---- the client ---- */

char *tls_connect(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                  const char *ca, const char *server_name, char *err, size_t errlen) {
  tls_cfg cfg;
  no_sigpipe();
  if (tls_cfg_of(alg, &cfg, err, errlen) != 0)
    return NULL;
  SSL_CTX *ctx = tls_client_ctx(&cfg, ca, err, errlen);
  if (ctx == NULL)
    return NULL;
  uint64_t deadline = now_ms() + timeout_ms;
  SSL_SESSION *ticket = NULL; /* -resume: what the previous connection received */
  hs_list list = {0};
  char *out = NULL;
  err[0] = '\0';
  for (uint32_t i = 0; i < connections && err[0] == '\0'; i++) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      cb_kit_err(err, errlen, "tls: socket: %s", strerror(errno));
      break;
    }
    set_timeouts(fd, deadline);
    SSL *s = NULL;
    char obj[HS_JSON_MAX];
    int r = 0;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
      cb_kit_err(err, errlen, "tls: connecting to 127.0.0.1:%d: %s", port, strerror(errno));
    else if ((s = tls_client_ssl(ctx, server_name)) == NULL || SSL_set_fd(s, fd) != 1 ||
             (cfg.resume && ticket != NULL && SSL_set_session(s, ticket) != 1))
      tls_err(err, errlen, "client connection");
    else if ((r = SSL_connect(s)) != 1)
      ssl_fail(err, errlen, "client handshake", s, r);
    else if ((r = SSL_write(s, "ping", 4)) != 4)
      ssl_fail(err, errlen, "writing ping", s, r);
    else if (read4(s, "pong", err, errlen) != 0)
      ;
    else if (describe(s, 1, obj, sizeof obj) != 0)
      tls_err(err, errlen, "exporter");
    else if (list_add(&list, obj) != 0)
      cb_kit_err(err, errlen, "tls: out of memory");
    if (err[0] == '\0' && cfg.resume) { /* the ticket came before pong */
      SSL_SESSION_free(ticket);
      ticket = SSL_get1_session(s);
    }
    if (s != NULL && err[0] == '\0')
      SSL_shutdown(s);
    SSL_free(s);
    close(fd);
  }
  if (err[0] == '\0' && (out = list_close(&list)) == NULL)
    cb_kit_err(err, errlen, "tls: out of memory");
  free(list.text);
  SSL_SESSION_free(ticket);
  SSL_CTX_free(ctx);
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
