/* c:gnutls — GnuTLS 3.7's TLS 1.3 (protocol.md, version 7), classical groups only: the
 * tls13-{x25519,p256}-{ecdsa-p256,ed25519,rsa-2048}[-resume] cells with GnuTLS's own client and
 * server in one process over two in-memory pipes (tls_kit_pipe) through its transport push /
 * pull functions, and the interop commands over loopback sockets. Besides them the plugin offers
 * only `noop` (the driver's own: the loop's floor); its primitives are not benchmarked here.
 *
 * Outside the timed region, per cell: both sides' credentials (chain and key; the root, the
 * server name checked with gnutls_session_set_verify_cert) and one priority cache
 * ("NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:-GROUP-ALL:+GROUP-<group>"), and in
 * -resume cells the server's ticket key. -resume: the session data of an untimed full handshake
 * (gnutls_session_get_data2) serves every resumption; the server sends exactly one ticket
 * (GNUTLS_NO_AUTO_SEND_TICKET, then gnutls_session_ticket_send(s, 1, 0) as the last step of its
 * handshake: GnuTLS 3.7 would send two); full cells start the server with GNUTLS_NO_TICKETS. */
#include <gnutls/gnutls.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "../common/tls_plugin.h"

static const struct {
  const char *name;  /* the protocol's */
  const char *prio;  /* the priority string's */
  gnutls_group_t id; /* gnutls_group_get's */
  int code;          /* IANA */
} GROUPS[] = {
    {"x25519", "GROUP-X25519", GNUTLS_GROUP_X25519, 0x001d},
    {"p256", "GROUP-SECP256R1", GNUTLS_GROUP_SECP256R1, 0x0017},
};
#define NGROUPS (sizeof GROUPS / sizeof GROUPS[0])

static const struct {
  gnutls_sign_algorithm_t id;
  int code;
} SIGNS[] = {
    {GNUTLS_SIGN_ECDSA_SECP256R1_SHA256, 0x0403}, {GNUTLS_SIGN_EDDSA_ED25519, 0x0807},
    {GNUTLS_SIGN_RSA_PSS_RSAE_SHA256, 0x0804},    {GNUTLS_SIGN_RSA_PSS_RSAE_SHA384, 0x0805},
    {GNUTLS_SIGN_RSA_PSS_RSAE_SHA512, 0x0806},
};

/* the GROUPS entry of the protocol's group g, or -1 */
static int group_of(size_t g) {
  for (size_t i = 0; i < NGROUPS; i++)
    if (strcmp(GROUPS[i].name, tls_kit_groups[g].name) == 0)
      return (int)i;
  return -1;
}

static int have(size_t g, size_t a) {
  const char *auth = tls_kit_auths[a].name;
  return group_of(g) >= 0 && (strcmp(auth, "ecdsa-p256") == 0 || strcmp(auth, "ed25519") == 0 ||
                              strcmp(auth, "rsa-2048") == 0);
}

static int fail(char *err, size_t errlen, const char *what, int code) {
  cb_kit_err(err, errlen, "tls: %s: %s", what, gnutls_strerror(code));
  return -1;
}

/* ---- reporting ---- */

static int group_code(gnutls_session_t s) {
  gnutls_group_t g = gnutls_group_get(s);
  for (size_t i = 0; i < NGROUPS; i++)
    if (GROUPS[i].id == g)
      return GROUPS[i].code;
  return -1;
}

static int cipher_code(gnutls_session_t s) {
  const char *name = gnutls_ciphersuite_get(s);
  return name != NULL && strcmp(name, "TLS_AES_128_GCM_SHA256") == 0 ? TLS_KIT_SUITE_CODE : -1;
}

/* the server's signature scheme (either side's view), null (-1) in a resumption */
static int sigalg_code(gnutls_session_t s) {
  if (gnutls_session_is_resumed(s))
    return -1;
  int id = gnutls_sign_algorithm_get(s);
  for (size_t i = 0; i < sizeof SIGNS / sizeof SIGNS[0]; i++)
    if ((int)SIGNS[i].id == id)
      return SIGNS[i].code;
  return -1;
}

static int exporter(gnutls_session_t s, uint8_t out[32]) {
  return gnutls_prf_rfc5705(s, sizeof TLS_KIT_LABEL - 1, TLS_KIT_LABEL, sizeof TLS_KIT_CONTEXT - 1,
                            TLS_KIT_CONTEXT, 32, (char *)out) == 0;
}

/* ---- configuration (both sides' credentials, the priorities, the ticket key) ---- */

typedef struct gconf {
  tls_kit_cfg cfg;
  gnutls_certificate_credentials_t cred;
  gnutls_priority_t prio;
  gnutls_datum_t ticket_key; /* server, -resume */
  char server_name[1024];    /* client */
  gnutls_datum_t ticket;     /* client, -resume: the session data to resume */
} gconf;

static void conf_free(gconf *c) {
  if (c->cred != NULL)
    gnutls_certificate_free_credentials(c->cred);
  if (c->prio != NULL)
    gnutls_priority_deinit(c->prio);
  gnutls_free(c->ticket_key.data);
  gnutls_free(c->ticket.data);
  memset(c, 0, sizeof *c);
}

/* server: chain and key given; client: ca and server_name */
static int conf_init(gconf *c, const tls_kit_cfg *cfg, const char *chain, const char *key,
                     const char *ca, const char *server_name, char *err, size_t errlen) {
  char prio[160];
  int r;
  c->cfg = *cfg;
  snprintf(prio, sizeof prio,
           "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:-GROUP-ALL:+%s",
           GROUPS[group_of(cfg->group)].prio);
  if ((r = gnutls_priority_init2(&c->prio, prio, NULL, 0)) < 0 ||
      (r = gnutls_certificate_allocate_credentials(&c->cred)) < 0)
    return fail(err, errlen, "configuration", r);
  if (chain != NULL) {
    if ((r = gnutls_certificate_set_x509_key_file2(c->cred, chain, key, GNUTLS_X509_FMT_PEM, NULL,
                                                   0)) < 0)
      return fail(err, errlen, "loading the chain and key", r);
    if (cfg->resume && (r = gnutls_session_ticket_key_generate(&c->ticket_key)) < 0)
      return fail(err, errlen, "the ticket key", r);
  } else {
    if ((r = gnutls_certificate_set_x509_trust_file(c->cred, ca, GNUTLS_X509_FMT_PEM)) < 1)
      return fail(err, errlen, "loading the root certificate", r < 0 ? r : GNUTLS_E_FILE_ERROR);
    snprintf(c->server_name, sizeof c->server_name, "%s", server_name);
  }
  return 0;
}

/* A connection of conf c's side (server: chain loaded); nonblock: over the in-memory pipes. */
static gnutls_session_t session_new(gconf *c, int nonblock, int use_ticket, char *err,
                                    size_t errlen) {
  int server = c->server_name[0] == '\0';
  unsigned flags = (server ? GNUTLS_SERVER : GNUTLS_CLIENT) | (nonblock ? GNUTLS_NONBLOCK : 0);
  if (server) /* -resume: exactly one ticket, sent by send_ticket (GnuTLS would send two) */
    flags |= c->cfg.resume ? GNUTLS_NO_AUTO_SEND_TICKET : GNUTLS_NO_TICKETS;
  gnutls_session_t s = NULL;
  int r = gnutls_init(&s, flags);
  const char *what = server ? "server connection" : "client connection";
  if (r < 0)
    return fail(err, errlen, what, r), NULL;
  if ((r = gnutls_priority_set(s, c->prio)) < 0 ||
      (r = gnutls_credentials_set(s, GNUTLS_CRD_CERTIFICATE, c->cred)) < 0)
    goto fail;
  if (server) {
    if (c->cfg.resume && (r = gnutls_session_ticket_enable_server(s, &c->ticket_key)) < 0)
      goto fail;
  } else {
    if ((r = gnutls_server_name_set(s, GNUTLS_NAME_DNS, c->server_name, strlen(c->server_name))) <
        0)
      goto fail;
    gnutls_session_set_verify_cert(s, c->server_name, 0);
    if (use_ticket && c->ticket.data != NULL &&
        (r = gnutls_session_set_data(s, c->ticket.data, c->ticket.size)) < 0)
      goto fail;
  }
  return s;
fail:
  gnutls_deinit(s);
  fail(err, errlen, what, r);
  return NULL;
}

/* a server's handshake done: its one ticket in -resume cells */
static int send_ticket(gconf *c, gnutls_session_t s, char *err, size_t errlen) {
  int r = c->cfg.resume ? gnutls_session_ticket_send(s, 1, 0) : 0;
  return r < 0 ? fail(err, errlen, "sending the ticket", r) : 0;
}

/* ---- the in-memory handshake ---- */

typedef struct gstate {
  tls_plugin_pipes io; /* first: tls_plugin_transport, _written, _pending */
  gconf sconf, cconf;
  gnutls_session_t cl, sv;
} gstate;

/* a pipe as a transport: pull reads the recv pointer's pipe, push writes the send pointer's */
static ssize_t pipe_pull(gnutls_transport_ptr_t p, void *buf, size_t n) {
  size_t k = tls_kit_pipe_read(p, buf, n);
  if (k == 0) {
    errno = EAGAIN; /* gnutls reads errno when no errno function is set */
    return -1;
  }
  return (ssize_t)k;
}

static ssize_t pipe_push(gnutls_transport_ptr_t p, const void *buf, size_t n) {
  if (tls_kit_pipe_write(p, buf, n) != 0) {
    errno = ENOMEM;
    return -1;
  }
  return (ssize_t)n;
}

static int pipe_wait(gnutls_transport_ptr_t p, unsigned ms) {
  (void)ms;
  return tls_kit_pipe_pending(p) > 0;
}

static void on_pipes(gnutls_session_t s, tls_kit_pipe *in, tls_kit_pipe *out) {
  gnutls_transport_set_ptr2(s, in, out);
  gnutls_transport_set_pull_function(s, pipe_pull);
  gnutls_transport_set_push_function(s, pipe_push);
  gnutls_transport_set_pull_timeout_function(s, pipe_wait);
}

static int state_init(void *state, const tls_kit_cfg *cfg, const tls_kit_pki *pki, char *err,
                      size_t errlen) {
  gstate *g = state;
  return conf_init(&g->sconf, cfg, pki->chain, pki->key, NULL, NULL, err, errlen) != 0 ||
                 conf_init(&g->cconf, cfg, NULL, NULL, pki->ca, pki->server_name, err, errlen) != 0
             ? -1
             : 0;
}

static void state_free(void *state) {
  gstate *g = state;
  conf_free(&g->sconf);
  conf_free(&g->cconf);
  tls_plugin_pipes_free(&g->io);
}

static int has_ticket(void *state) { return ((gstate *)state)->cconf.ticket.data != NULL; }

static void drop_ticket(void *state) {
  gstate *g = state;
  gnutls_free(g->cconf.ticket.data);
  g->cconf.ticket.data = NULL;
  g->cconf.ticket.size = 0;
}

static int client_new(void *state, int use_ticket, char *err, size_t errlen) {
  gstate *g = state;
  if ((g->cl = session_new(&g->cconf, 1, use_ticket, err, errlen)) == NULL)
    return -1;
  on_pipes(g->cl, &g->io.s2c, &g->io.c2s);
  return 0;
}

static int server_new(void *state, char *err, size_t errlen) {
  gstate *g = state;
  if ((g->sv = session_new(&g->sconf, 1, 0, err, errlen)) == NULL)
    return -1;
  on_pipes(g->sv, &g->io.c2s, &g->io.s2c);
  return 0;
}

static int step(void *state, int server, char *err, size_t errlen) {
  gstate *g = state;
  int r = gnutls_handshake(server ? g->sv : g->cl);
  if (r == 0)
    return server && send_ticket(&g->sconf, g->sv, err, errlen) != 0 ? -1 : 1;
  if (r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED)
    return 0;
  return fail(err, errlen, server ? "server handshake" : "client handshake", r);
}

static int read_ticket(void *state, char *err, size_t errlen) {
  gstate *g = state;
  char b;
  ssize_t r = gnutls_record_recv(g->cl, &b, 1);
  if (r != GNUTLS_E_AGAIN)
    return fail(err, errlen, "client reading the ticket", r < 0 ? (int)r : GNUTLS_E_INTERNAL_ERROR);
  return 0;
}

static void inspect(void *state, tls_kit_hs *h, int *client_group, int *client_resumed) {
  gstate *g = state;
  h->group = group_code(g->sv);
  h->cipher = cipher_code(g->sv);
  h->resumed = gnutls_session_is_resumed(g->sv) != 0;
  h->sigalg = sigalg_code(g->sv);
  *client_group = group_code(g->cl);
  *client_resumed = gnutls_session_is_resumed(g->cl) != 0;
}

static int side_exporter(void *state, int server, uint8_t out[32]) {
  gstate *g = state;
  return exporter(server ? g->sv : g->cl, out);
}

static int keep_ticket(void *state, char *err, size_t errlen) {
  gstate *g = state;
  drop_ticket(g);
  int r = gnutls_session_get_data2(g->cl, &g->cconf.ticket);
  return r < 0 ? fail(err, errlen, "keeping the ticket", r) : 0;
}

static void end(void *state, int clean) {
  (void)clean;
  gstate *g = state;
  if (g->cl != NULL)
    gnutls_deinit(g->cl);
  if (g->sv != NULL)
    gnutls_deinit(g->sv);
  g->cl = g->sv = NULL;
}

static const tls_kit_lib hs = {
    tls_plugin_transport, client_new, server_new,    step,        read_ticket, tls_plugin_written,
    tls_plugin_pending,   inspect,    side_exporter, keep_ticket, end};

/* ---- interop over sockets (blocking: a receive timeout fails the connection) ---- */

/* a fresh configuration (a server's: chain and key; a client's: ca and server_name), or NULL */
static gconf *conf_new(const tls_kit_cfg *cfg, const char *chain, const char *key, const char *ca,
                       const char *server_name, char *err, size_t errlen) {
  gconf *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c != NULL && conf_init(c, cfg, chain, key, ca, server_name, err, errlen) != 0) {
    conf_free(c);
    free(c);
    c = NULL;
  }
  return c;
}

static void *server_ctx(const tls_kit_cfg *cfg, const char *chain, const char *key, char *err,
                        size_t errlen) {
  return conf_new(cfg, chain, key, NULL, NULL, err, errlen);
}
static void *client_ctx(const tls_kit_cfg *cfg, const char *ca, const char *server_name, char *err,
                        size_t errlen) {
  return conf_new(cfg, NULL, NULL, ca, server_name, err, errlen);
}

static void ctx_free(void *ctx) {
  conf_free(ctx);
  free(ctx);
}

/* GnuTLS returns GNUTLS_E_AGAIN also right after it processed a post-handshake message (the
 * ticket), blocking socket or not: read again then. A silent peer ends in GNUTLS_E_TIMEDOUT
 * (gnutls_record_set_timeout, set in talk), so "again" is never a timeout here; bounded anyway. */
#define MAX_AGAIN 16

static int sock_read(void *s, void *buf, size_t n, char *err, size_t errlen) {
  ssize_t r;
  int again = 0;
  while ((r = gnutls_record_recv(s, buf, n)) == GNUTLS_E_INTERRUPTED ||
         (r == GNUTLS_E_AGAIN && again++ < MAX_AGAIN))
    ;
  if (r > 0)
    return (int)r;
  return fail(err, errlen, "reading the peer's 4 bytes",
              r < 0 ? (int)r : GNUTLS_E_PREMATURE_TERMINATION);
}

/* handshake, then the 4 bytes each way (client: ping then pong), then the handshake object */
static int talk(gconf *c, int fd, int server, char *obj, size_t cap, char *err, size_t errlen) {
  gnutls_session_t s = session_new(c, 0, c->cfg.resume, err, errlen);
  if (s == NULL)
    return -1;
  int r, rc = -1;
  uint8_t ex[32];
  gnutls_transport_set_int(s, fd);
  /* what is left of timeout_ms (tls_kit set it as the socket's receive timeout) bounds a read */
  struct timeval tv = {0, 0};
  socklen_t tvlen = sizeof tv;
  if (getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &tvlen) == 0)
    gnutls_record_set_timeout(s, (unsigned)(tv.tv_sec * 1000 + tv.tv_usec / 1000) + 1);
  while ((r = gnutls_handshake(s)) == GNUTLS_E_INTERRUPTED)
    ;
  if (r < 0)
    fail(err, errlen, server ? "server handshake" : "client handshake", r);
  else if (server && send_ticket(c, s, err, errlen) != 0)
    ;
  else if (server && tls_kit_read4(sock_read, s, "ping", err, errlen) != 0)
    ;
  else if ((r = (int)gnutls_record_send(s, server ? "pong" : "ping", 4)) != 4)
    fail(err, errlen, server ? "writing pong" : "writing ping",
         r < 0 ? r : GNUTLS_E_INTERNAL_ERROR);
  else if (!server && tls_kit_read4(sock_read, s, "pong", err, errlen) != 0)
    ;
  else if (!exporter(s, ex))
    cb_kit_err(err, errlen, "tls: exporter failed");
  else {
    tls_kit_hs_json(obj, cap, group_code(s), cipher_code(s), sigalg_code(s),
                    gnutls_session_is_resumed(s) != 0, ex);
    rc = 0;
  }
  if (rc == 0 && !server && c->cfg.resume) { /* the ticket came before pong */
    gnutls_free(c->ticket.data);
    c->ticket.data = NULL;
    if ((r = gnutls_session_get_data2(s, &c->ticket)) < 0)
      rc = fail(err, errlen, "keeping the ticket", r);
  }
  if (rc == 0)
    gnutls_bye(s, GNUTLS_SHUT_WR);
  gnutls_deinit(s);
  return rc;
}

static int serve_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  return talk(ctx, fd, 1, obj, cap, err, errlen);
}

static int connect_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  return talk(ctx, fd, 0, obj, cap, err, errlen);
}

const tls_plugin tls_plugin_def = {
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    have,
    "tls13-*: GnuTLS's client and server in one process over two in-memory pipes (its transport "
    "push / pull functions); credentials and priorities once per cell; exporters, checks and "
    "gnutls_deinit off the clock; client/server subtract the other side's calls. -resume: the "
    "session data of an untimed full handshake serves every resumption (remade after 60 s)",
    TLS_PLUGIN_STATE(gstate, ctx_free, ctx_free),
};

/* ---- the table ---- */

static cb_status init(char *err, size_t errlen) {
  int r = gnutls_global_init();
  if (r < 0)
    cb_kit_err(err, errlen, "gnutls_global_init: %s", gnutls_strerror(r));
  return r < 0 ? CB_ERROR : CB_OK;
}

static const char *library_name(void) { return "GnuTLS"; }
static const char *library_version(void) { return gnutls_check_version(NULL); }

static const cb_provider table =
    TLS_PLUGIN_TABLE("gnutls", "c:gnutls", "c", init, library_name, library_version, NULL, NULL);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
