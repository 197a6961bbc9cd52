/* The library-independent half of the C driver family's TLS 1.3 cells (tls_kit.h). */
#define _DEFAULT_SOURCE
#include "tls_kit.h"
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

#include "tls_iface.h"

/* ---- names ---- */

const tls_kit_group tls_kit_groups[] = {
    {"x25519", 0x001d},
    {"p256", 0x0017},
    {"x25519mlkem768", 0x11ec},
    {"secp256r1mlkem768", 0x11eb},
    {"secp384r1mlkem1024", 0x11ed},
};
const size_t tls_kit_ngroups = sizeof tls_kit_groups / sizeof tls_kit_groups[0];

const tls_kit_auth tls_kit_auths[] = {
    {"ecdsa-p256", 0x0403, 0x0403}, {"ed25519", 0x0807, 0x0807},  {"rsa-2048", 0x0804, 0x0806},
    {"mldsa-44", 0x0904, 0x0904},   {"mldsa-65", 0x0905, 0x0905},
};
const size_t tls_kit_nauths = sizeof tls_kit_auths / sizeof tls_kit_auths[0];

void tls_kit_name(char *buf, size_t cap, size_t group, size_t auth, int resume) {
  snprintf(buf, cap, "tls13-%s-%s%s", tls_kit_groups[group].name, tls_kit_auths[auth].name,
           resume ? "-resume" : "");
}

int tls_kit_cfg_of(const char *alg, tls_kit_cfg *cfg, char *err, size_t errlen) {
  char name[96];
  for (size_t g = 0; g < tls_kit_ngroups; g++)
    for (size_t a = 0; a < tls_kit_nauths; a++)
      for (int r = 0; r < 2; r++) {
        tls_kit_name(name, sizeof name, g, a, r);
        if (strcmp(name, alg) == 0) {
          *cfg = (tls_kit_cfg){g, a, tls_kit_groups[g].code, r};
          return 0;
        }
      }
  cb_kit_err(err, errlen, "not offered: algorithm %s", alg);
  return -1;
}

size_t tls_kit_catalogue(cb_alg *out, char (*names)[64], size_t max,
                         int (*have)(void *arg, size_t group, size_t auth), void *arg) {
  size_t n = 0;
  for (size_t g = 0; g < tls_kit_ngroups; g++)
    for (size_t a = 0; a < tls_kit_nauths; a++) {
      if (!have(arg, g, a))
        continue;
      for (int r = 0; r < 2 && n < max; r++, n++) {
        tls_kit_name(names[n], 64, g, a, r);
        memset(&out[n], 0, sizeof out[n]);
        out[n].name = names[n];
        out[n].ops[0] = "handshake";
        out[n].ops[1] = "client";
        out[n].ops[2] = "server";
        out[n].fresh = 1;
      }
    }
  return n;
}

/* ---- inputs ---- */

int tls_kit_pki_of(const cb_params *p, tls_kit_pki *pki, char *err, size_t errlen) {
  const char *keys[4] = {CB_TLS_EXT_CHAIN, CB_TLS_EXT_KEY, CB_TLS_EXT_CA, CB_TLS_EXT_SERVER_NAME};
  char *dst[4] = {pki->chain, pki->key, pki->ca, pki->server_name};
  for (int i = 0; i < 4; i++) {
    size_t len;
    const uint8_t *v = cb_ext_get(p, keys[i], &len);
    if (v == NULL || len == 0 || len >= sizeof pki->chain) {
      cb_kit_err(err, errlen, "tls: no PKI in the request");
      return -1;
    }
    memcpy(dst[i], v, len);
    dst[i][len] = '\0';
  }
  return 0;
}

/* ---- the clock ---- */

uint64_t tls_kit_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

enum tls_kit_side tls_kit_side_of(const char *op) {
  return strcmp(op, "handshake") == 0 ? TLS_SIDE_BOTH
         : strcmp(op, "client") == 0  ? TLS_SIDE_CLIENT
         : strcmp(op, "server") == 0  ? TLS_SIDE_SERVER
                                      : TLS_SIDE_TRANSPORT;
}

void tls_kit_clock_start(tls_kit_clock *k, enum tls_kit_side side) {
  k->side = side;
  k->untimed = 0;
  k->mark = side != TLS_SIDE_BOTH ? tls_kit_now_ns() : 0;
}

/* ---- pipes ---- */

int tls_kit_pipe_write(tls_kit_pipe *p, const void *data, size_t n) {
  if (p->off == p->len)
    p->off = p->len = 0;
  if (p->len + n > p->cap) {
    size_t cap = (p->len + n) * 2 < 4096 ? 4096 : (p->len + n) * 2;
    uint8_t *b = realloc(p->buf, cap);
    if (b == NULL)
      return -1;
    p->buf = b, p->cap = cap;
  }
  memcpy(p->buf + p->len, data, n);
  p->len += n;
  p->written += n;
  return 0;
}

size_t tls_kit_pipe_read(tls_kit_pipe *p, void *data, size_t n) {
  size_t k = p->len - p->off < n ? p->len - p->off : n;
  memcpy(data, p->buf + p->off, k);
  p->off += k;
  return k;
}

void tls_kit_pipe_reset(tls_kit_pipe *p) { p->len = p->off = p->written = 0; }

void tls_kit_pipe_free(tls_kit_pipe *p) {
  free(p->buf);
  memset(p, 0, sizeof *p);
}

/* ---- JSON ---- */

static const char *code_json(int code, char buf[12]) {
  if (code < 0)
    return "null";
  snprintf(buf, 12, "%d", code);
  return buf;
}

void tls_kit_report_json(char *buf, size_t cap, const tls_kit_hs *h) {
  char g[12], ci[12], sig[12];
  snprintf(buf, cap,
           "{\"group\":%s,\"cipher\":%s,\"sigalg\":%s,\"resumed\":%s,\"round_trips\":%d,"
           "\"flights\":{\"client_hello\":%zu,\"server_flight\":%zu,\"client_finished\":%zu,"
           "\"tickets\":%zu}}",
           code_json(h->group, g), code_json(h->cipher, ci), code_json(h->sigalg, sig),
           h->resumed ? "true" : "false", h->round_trips, h->flights[0], h->flights[1],
           h->flights[2], h->flights[3]);
}

void tls_kit_hs_json(char *buf, size_t cap, int group, int cipher, int sigalg, int resumed,
                     const uint8_t exporter[32]) {
  char hex[65], g[12], ci[12], sig[12];
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", exporter[i]);
  snprintf(buf, cap,
           "{\"group\":%s,\"cipher\":%s,\"sigalg\":%s,\"resumed\":%s,\"exporter\":\"%s\"}",
           code_json(group, g), code_json(cipher, ci), code_json(sigalg, sig),
           resumed ? "true" : "false", hex);
}

/* ---- the in-memory handshake ---- */

int tls_kit_handshake(const tls_kit_lib *L, void *lib, const tls_kit_cfg *cfg, tls_kit_clock *k,
                      int make_ticket, tls_kit_hs *h, uint8_t exporter[32], char *err,
                      size_t errlen) {
  int rc = -1;
  uint64_t t_end = 0; /* when the timed part ended */
  err[0] = '\0';
  if (L->transport(lib, err, errlen) != 0)
    goto done;
  tls_kit_lap(k, TLS_SIDE_TRANSPORT);
  int cok = L->client_new(lib, cfg->resume && !make_ticket, err, errlen) == 0;
  tls_kit_lap(k, TLS_SIDE_CLIENT);
  if (!cok)
    goto done;
  int sok = L->server_new(lib, err, errlen) == 0;
  tls_kit_lap(k, TLS_SIDE_SERVER);
  if (!sok)
    goto done;
  /* the pump: each side runs until it waits for the other; the flights are what each wrote */
  int cdone = 0, sdone = 0, waits = 0;
  size_t ch = 0, sf = 0;
  for (int step = 0; step < TLS_KIT_MAX_STEPS && !(cdone && sdone); step++) {
    if (!cdone) {
      int r = L->step(lib, 0, err, errlen);
      tls_kit_lap(k, TLS_SIDE_CLIENT);
      if (r < 0)
        goto done;
      cdone = r == 1;
      waits += r == 0;
      if (step == 0)
        ch = L->written(lib, 0);
    }
    if (!sdone) {
      int r = L->step(lib, 1, err, errlen);
      tls_kit_lap(k, TLS_SIDE_SERVER);
      if (r < 0)
        goto done;
      sdone = r == 1;
      if (!cdone)
        sf = L->written(lib, 1);
    }
  }
  if (!(cdone && sdone)) {
    cb_kit_err(err, errlen, "tls: the handshake did not finish in %d steps", TLS_KIT_MAX_STEPS);
    goto done;
  }
  if (cfg->resume) {
    int r = L->read_ticket(lib, err, errlen);
    tls_kit_lap(k, TLS_SIDE_CLIENT);
    if (r != 0)
      goto done;
  }
  /* off the clock from here: what the handshake showed, and the checks */
  t_end = tls_kit_now_ns();
  memset(h, 0, sizeof *h);
  h->flights[0] = ch;
  h->flights[1] = sf;
  h->flights[2] = L->written(lib, 0) - ch;
  h->flights[3] = L->written(lib, 1) - sf;
  h->round_trips = waits;
  int cgroup = -1, cresumed = 0;
  uint8_t sx[32];
  L->inspect(lib, h, &cgroup, &cresumed);
  if (!L->exporter(lib, 0, exporter) || !L->exporter(lib, 1, sx))
    cb_kit_err(err, errlen, "tls: exporter failed");
  else if (memcmp(sx, exporter, 32) != 0)
    cb_kit_err(err, errlen, "tls: client and server exporters differ");
  else if (h->group != cfg->group_code || cgroup != cfg->group_code)
    cb_kit_err(err, errlen, "tls: negotiated group %d (client: %d), not the cell's %d", h->group,
               cgroup, cfg->group_code);
  else if (h->cipher != TLS_KIT_SUITE_CODE)
    cb_kit_err(err, errlen, "tls: negotiated cipher suite 0x%04x", (unsigned)h->cipher);
  else if (!make_ticket && (cfg->resume != h->resumed || cresumed != h->resumed))
    cb_kit_err(err, errlen, "tls: resumption %s (client: %s)",
               h->resumed ? "accepted in a full cell" : "not accepted",
               cresumed ? "resumed" : "not resumed");
  else if (L->pending(lib) != 0)
    cb_kit_err(err, errlen, "tls: bytes left unread after the handshake");
  else if (make_ticket && L->keep_ticket(lib, err, errlen) != 0)
    ;
  else
    rc = exporter[0];
done:
  if (t_end == 0)
    t_end = tls_kit_now_ns();
  L->end(lib, rc >= 0);
  k->untimed += tls_kit_now_ns() - t_end; /* the checks and freeing: off the clock for every op */
  if (rc < 0 && err[0] == '\0')
    cb_kit_err(err, errlen, "tls: the handshake failed");
  return rc;
}

/* ---- interop ---- */

static uint64_t now_ms(void) { return tls_kit_now_ns() / 1000000u; }

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

/* send and receive timeouts: what is left until deadline (at least 1 ms) */
static void set_timeouts(int fd, uint64_t deadline) {
  uint64_t now = now_ms(), left = deadline > now ? deadline - now : 1;
  struct timeval tv = {(time_t)(left / 1000), (suseconds_t)(left % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static void no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); } /* a peer that closed early */

int tls_kit_read4(tls_kit_read_fn read, void *s, const char *want, char *err, size_t errlen) {
  char b[4];
  size_t got = 0;
  while (got < 4) {
    int r = read(s, b + got, 4 - got, err, errlen);
    if (r <= 0)
      return -1;
    got += (size_t)r;
  }
  if (memcmp(b, want, 4) != 0) {
    cb_kit_err(err, errlen, "tls: the peer sent other bytes than %s", want);
    return -1;
  }
  return 0;
}

static struct {
  int active; /* a thread to join */
  pthread_t thread;
  int fd;
  /* a new tls-serve ends a serving still going (its client may be gone): stop, and the
   * connection being served is shut down to wake the thread (under lock) */
  pthread_mutex_t lock;
  int stop, conn;
  tls_kit_conn_fn serve_one;
  void *ctx;
  void (*ctx_free)(void *);
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
    char obj[TLS_KIT_HS_JSON];
    if (srv.serve_one(srv.ctx, fd, obj, sizeof obj, srv.err, sizeof srv.err) == 0 &&
        list_add(&srv.list, obj) != 0)
      cb_kit_err(srv.err, sizeof srv.err, "tls: out of memory");
    set_conn(-1);
    close(fd);
  }
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
  if (srv.ctx_free != NULL && srv.ctx != NULL)
    srv.ctx_free(srv.ctx);
  srv.ctx = NULL;
  free(srv.list.text);
  memset(&srv.list, 0, sizeof srv.list);
}

int tls_kit_serve(tls_kit_conn_fn serve_one, void *ctx, void (*ctx_free)(void *),
                  uint32_t connections, uint32_t timeout_ms, int *port, char *err, size_t errlen) {
  no_sigpipe();
  serve_end(1);
  srv.err[0] = '\0';
  srv.serve_one = serve_one;
  srv.ctx = ctx;
  srv.ctx_free = ctx_free;
  srv.connections = connections;
  srv.deadline = now_ms() + timeout_ms;
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

char *tls_kit_result(char *err, size_t errlen) {
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

char *tls_kit_connect(tls_kit_conn_fn connect_one, void *ctx, int port, uint32_t connections,
                      uint32_t timeout_ms, char *err, size_t errlen) {
  no_sigpipe();
  uint64_t deadline = now_ms() + timeout_ms;
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
    char obj[TLS_KIT_HS_JSON];
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
      cb_kit_err(err, errlen, "tls: connecting to 127.0.0.1:%d: %s", port, strerror(errno));
    else if (connect_one(ctx, fd, obj, sizeof obj, err, errlen) == 0 && list_add(&list, obj) != 0)
      cb_kit_err(err, errlen, "tls: out of memory");
    close(fd);
  }
  if (err[0] == '\0' && (out = list_close(&list)) == NULL)
    cb_kit_err(err, errlen, "tls: out of memory");
  free(list.text);
  return out;
}
