/* c:wolfssl's TLS 1.3 cells (protocol.md, version 7): wolfSSL's own client and server in one
 * process, over two in-memory pipes (tls_kit_pipe) through wolfSSL's I/O callbacks
 * (wolfSSL_CTX_SetIORecv / SetIOSend); the interop commands over loopback sockets
 * (wolfSSL_set_fd). Debian's build (wolfssl/options.h) has TLS 1.3, X25519 and P-256, ECDSA,
 * Ed25519 and RSA-PSS certificates, session tickets and the exporter (HAVE_KEYING_MATERIAL); it
 * has no ML-KEM: the x25519 and p256 cells only. wolfSSL does not report the signature scheme
 * a handshake used (wolfSSL_get_signature_nid gives a hash only): sigalg is null.
 *
 * Outside the timed region, per cell: both WOLFSSL_CTX (TLS 1.3 methods, the one suite, the
 * cell's group, chain and key / root and peer verification). -resume: one ticket from an untimed
 * full handshake serves every resumption (wolfSSL's tickets are stateless and reusable). */
#include <wolfssl/options.h>

#include <wolfssl/ssl.h>
#include <wolfssl/wolfio.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/oneshot.h"
#include "../common/tls_plugin.h"

#define SUITE "TLS13-AES128-GCM-SHA256"

static const struct {
  const char *name;
  word16 id;           /* WOLFSSL_ECC_* (the IANA code point) */
  const char *wolfssl; /* wolfSSL_get_curve_name's word */
} GROUPS[] = {
    {"x25519", WOLFSSL_ECC_X25519, "X25519"},
    {"p256", WOLFSSL_ECC_SECP256R1, "SECP256R1"},
};
#define NGROUPS (sizeof GROUPS / sizeof GROUPS[0])

/* wolfSSL's group for the protocol's group g (tls_kit_groups), or 0 */
static word16 group_id(size_t g) {
  for (size_t i = 0; i < NGROUPS; i++)
    if (strcmp(GROUPS[i].name, tls_kit_groups[g].name) == 0)
      return GROUPS[i].id;
  return 0;
}

static int have(size_t g, size_t a) {
  const char *auth = tls_kit_auths[a].name;
  return group_id(g) != 0 && (strcmp(auth, "ecdsa-p256") == 0 || strcmp(auth, "ed25519") == 0 ||
                              strcmp(auth, "rsa-2048") == 0);
}

/* "tls: <what>: <wolfSSL's words>" */
static int fail(char *err, size_t errlen, const char *what, int code) {
  char buf[120];
  wolfSSL_ERR_error_string_n((unsigned long)code, buf, sizeof buf);
  cb_kit_err(err, errlen, "tls: %s: %s (%d)", what, buf, code);
  return -1;
}

/* a side's handshake call r on s, in the kit's words: 1 done, 0 waits, -1 failed */
static int step_of(WOLFSSL *s, int r, const char *what, char *err, size_t errlen) {
  if (r == WOLFSSL_SUCCESS)
    return 1;
  int e = wolfSSL_get_error(s, r);
  return e == WOLFSSL_ERROR_WANT_READ ? 0 : fail(err, errlen, what, e);
}

/* ---- reporting ---- */

static int group_code(WOLFSSL *s) {
  const char *name = wolfSSL_get_curve_name(s);
  for (size_t i = 0; name != NULL && i < NGROUPS; i++)
    if (strcmp(name, GROUPS[i].wolfssl) == 0)
      return GROUPS[i].id;
  return -1;
}

static int cipher_code(WOLFSSL *s) {
  int c = wolfSSL_get_current_cipher_suite(s);
  return c >= 0 ? c : -1;
}

static int exporter(WOLFSSL *s, uint8_t out[32]) {
  return wolfSSL_export_keying_material(s, out, 32, TLS_KIT_LABEL, sizeof TLS_KIT_LABEL - 1,
                                        (const unsigned char *)TLS_KIT_CONTEXT,
                                        sizeof TLS_KIT_CONTEXT - 1, 1) == WOLFSSL_SUCCESS;
}

/* ---- contexts ---- */

/* TLS 1.3 only (the methods), the one suite, the cell's group only */
static WOLFSSL_CTX *ctx_new(const tls_kit_cfg *cfg, int server, char *err, size_t errlen) {
  WOLFSSL_CTX *ctx =
      wolfSSL_CTX_new(server ? wolfTLSv1_3_server_method() : wolfTLSv1_3_client_method());
  int group = group_id(cfg->group);
  if (ctx == NULL || wolfSSL_CTX_set_cipher_list(ctx, SUITE) != WOLFSSL_SUCCESS ||
      wolfSSL_CTX_set_groups(ctx, &group, 1) != WOLFSSL_SUCCESS) {
    cb_kit_err(err, errlen, "tls: %s configuration failed", server ? "server" : "client");
    wolfSSL_CTX_free(ctx);
    return NULL;
  }
  return ctx;
}

static void *server_ctx(const tls_kit_cfg *cfg, const char *chain, const char *key, char *err,
                        size_t errlen) {
  WOLFSSL_CTX *ctx = ctx_new(cfg, 1, err, errlen);
  int r;
  if (ctx == NULL)
    return NULL;
  if ((r = wolfSSL_CTX_use_certificate_chain_file(ctx, chain)) != WOLFSSL_SUCCESS)
    fail(err, errlen, "loading the certificate chain", r);
  else if ((r = wolfSSL_CTX_use_PrivateKey_file(ctx, key, WOLFSSL_FILETYPE_PEM)) != WOLFSSL_SUCCESS)
    fail(err, errlen, "loading the private key", r);
  else if (!cfg->resume && (r = wolfSSL_CTX_no_ticket_TLSv13(ctx)) != 0) /* 0: done */
    fail(err, errlen, "turning tickets off", r);
  else if (cfg->resume && (r = wolfSSL_CTX_set_num_tickets(ctx, 1)) != WOLFSSL_SUCCESS)
    fail(err, errlen, "setting one ticket", r);
  else
    return ctx;
  wolfSSL_CTX_free(ctx);
  return NULL;
}

static WOLFSSL_CTX *client_ctx_new(const tls_kit_cfg *cfg, const char *ca, char *err,
                                   size_t errlen) {
  WOLFSSL_CTX *ctx = ctx_new(cfg, 0, err, errlen);
  int r;
  if (ctx == NULL)
    return NULL;
  if ((r = wolfSSL_CTX_load_verify_locations(ctx, ca, NULL)) != WOLFSSL_SUCCESS) {
    fail(err, errlen, "loading the root certificate", r);
    wolfSSL_CTX_free(ctx);
    return NULL;
  }
  wolfSSL_CTX_set_verify(ctx, WOLFSSL_VERIFY_PEER, NULL);
  wolfSSL_CTX_set_session_cache_mode(ctx, WOLFSSL_SESS_CACHE_OFF);
  return ctx;
}

/* A client connection: its one key share in the cell's group, SNI, the name checked. */
static WOLFSSL *client_ssl(WOLFSSL_CTX *ctx, const tls_kit_cfg *cfg, const char *name,
                           WOLFSSL_SESSION *ticket, char *err, size_t errlen) {
  WOLFSSL *s = wolfSSL_new(ctx);
  int r = 0;
  const char *what = "client connection";
  if (s == NULL)
    return fail(err, errlen, what, 0), NULL;
  if ((r = wolfSSL_UseKeyShare(s, group_id(cfg->group))) != WOLFSSL_SUCCESS)
    what = "the key share";
  else if ((r = wolfSSL_UseSNI(s, WOLFSSL_SNI_HOST_NAME, name, (word16)strlen(name))) !=
           WOLFSSL_SUCCESS)
    what = "SNI";
  else if ((r = wolfSSL_check_domain_name(s, name)) != WOLFSSL_SUCCESS)
    what = "the checked name";
  else if (ticket != NULL && (r = wolfSSL_set_session(s, ticket)) != WOLFSSL_SUCCESS)
    what = "the ticket";
  else
    return s;
  fail(err, errlen, what, r);
  wolfSSL_free(s);
  return NULL;
}

/* ---- the in-memory handshake ---- */

typedef struct wstate {
  tls_plugin_pipes io; /* first: tls_plugin_transport, _written, _pending */
  tls_kit_cfg cfg;
  WOLFSSL_CTX *cctx, *sctx;
  WOLFSSL *cl, *sv;
  WOLFSSL_SESSION *ticket;
  char server_name[1024];
} wstate;

/* the I/O callbacks: ctx is the pipe the connection reads or writes */
static int pipe_recv(WOLFSSL *s, char *buf, int sz, void *ctx) {
  (void)s;
  size_t n = tls_kit_pipe_read(ctx, buf, (size_t)sz);
  return n > 0 ? (int)n : WOLFSSL_CBIO_ERR_WANT_READ;
}

static int pipe_send(WOLFSSL *s, char *buf, int sz, void *ctx) {
  (void)s;
  return tls_kit_pipe_write(ctx, buf, (size_t)sz) == 0 ? sz : WOLFSSL_CBIO_ERR_GENERAL;
}

static int state_init(void *state, const tls_kit_cfg *cfg, const tls_kit_pki *pki, char *err,
                      size_t errlen) {
  wstate *w = state;
  w->cfg = *cfg;
  snprintf(w->server_name, sizeof w->server_name, "%s", pki->server_name);
  if ((w->sctx = server_ctx(cfg, pki->chain, pki->key, err, errlen)) == NULL ||
      (w->cctx = client_ctx_new(cfg, pki->ca, err, errlen)) == NULL)
    return -1;
  wolfSSL_CTX_SetIORecv(w->sctx, pipe_recv);
  wolfSSL_CTX_SetIOSend(w->sctx, pipe_send);
  wolfSSL_CTX_SetIORecv(w->cctx, pipe_recv);
  wolfSSL_CTX_SetIOSend(w->cctx, pipe_send);
  return 0;
}

static void state_free(void *state) {
  wstate *w = state;
  wolfSSL_SESSION_free(w->ticket);
  wolfSSL_CTX_free(w->cctx);
  wolfSSL_CTX_free(w->sctx);
  tls_plugin_pipes_free(&w->io);
}

static int has_ticket(void *state) { return ((wstate *)state)->ticket != NULL; }

static void drop_ticket(void *state) {
  wstate *w = state;
  wolfSSL_SESSION_free(w->ticket);
  w->ticket = NULL;
}

static int client_new(void *state, int use_ticket, char *err, size_t errlen) {
  wstate *w = state;
  w->cl = client_ssl(w->cctx, &w->cfg, w->server_name, use_ticket ? w->ticket : NULL, err, errlen);
  if (w->cl == NULL)
    return -1;
  wolfSSL_SetIOReadCtx(w->cl, &w->io.s2c);
  wolfSSL_SetIOWriteCtx(w->cl, &w->io.c2s);
  return 0;
}

static int server_new(void *state, char *err, size_t errlen) {
  wstate *w = state;
  if ((w->sv = wolfSSL_new(w->sctx)) == NULL)
    return fail(err, errlen, "server connection", 0);
  wolfSSL_SetIOReadCtx(w->sv, &w->io.c2s);
  wolfSSL_SetIOWriteCtx(w->sv, &w->io.s2c);
  return 0;
}

static int step(void *state, int server, char *err, size_t errlen) {
  wstate *w = state;
  return server ? step_of(w->sv, wolfSSL_accept(w->sv), "server handshake", err, errlen)
                : step_of(w->cl, wolfSSL_connect(w->cl), "client handshake", err, errlen);
}

static int read_ticket(void *state, char *err, size_t errlen) {
  wstate *w = state;
  char b;
  int r = wolfSSL_read(w->cl, &b, 1);
  if (r > 0 || wolfSSL_get_error(w->cl, r) != WOLFSSL_ERROR_WANT_READ)
    return fail(err, errlen, "client reading the ticket", wolfSSL_get_error(w->cl, r));
  return 0;
}

static void inspect(void *state, tls_kit_hs *h, int *client_group, int *client_resumed) {
  wstate *w = state;
  h->group = group_code(w->sv);
  h->cipher = cipher_code(w->sv);
  h->resumed = wolfSSL_session_reused(w->sv) == 1;
  h->sigalg = -1;
  *client_group = group_code(w->cl);
  *client_resumed = wolfSSL_session_reused(w->cl) == 1;
}

static int side_exporter(void *state, int server, uint8_t out[32]) {
  wstate *w = state;
  return exporter(server ? w->sv : w->cl, out);
}

static int keep_ticket(void *state, char *err, size_t errlen) {
  wstate *w = state;
  if ((w->ticket = wolfSSL_get1_session(w->cl)) == NULL)
    return fail(err, errlen, "keeping the ticket", 0);
  return 0;
}

static void end(void *state, int clean) {
  (void)clean;
  wstate *w = state;
  wolfSSL_free(w->cl);
  wolfSSL_free(w->sv);
  w->cl = w->sv = NULL;
}

static const tls_kit_lib hs = {
    tls_plugin_transport, client_new, server_new,    step,        read_ticket, tls_plugin_written,
    tls_plugin_pending,   inspect,    side_exporter, keep_ticket, end};

/* ---- interop over sockets ---- */

static int sock_read(void *s, void *buf, size_t n, char *err, size_t errlen) {
  int r = wolfSSL_read(s, buf, (int)n);
  return r > 0 ? r : fail(err, errlen, "reading the peer's 4 bytes", wolfSSL_get_error(s, r));
}

/* the connection's handshake object (client: the peer's view of sigalg, null here anyway) */
static int describe(WOLFSSL *s, char *obj, size_t cap, char *err, size_t errlen) {
  uint8_t ex[32];
  if (!exporter(s, ex)) {
    cb_kit_err(err, errlen, "tls: exporter failed");
    return -1;
  }
  tls_kit_hs_json(obj, cap, group_code(s), cipher_code(s), -1, wolfSSL_session_reused(s) == 1, ex);
  return 0;
}

static int serve_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  WOLFSSL *s = wolfSSL_new(ctx);
  int r = -1, rc = -1;
  if (s == NULL || wolfSSL_set_fd(s, fd) != WOLFSSL_SUCCESS)
    fail(err, errlen, "server connection", 0);
  else if ((r = wolfSSL_accept(s)) != WOLFSSL_SUCCESS)
    fail(err, errlen, "server handshake", wolfSSL_get_error(s, r));
  else if (tls_kit_read4(sock_read, s, "ping", err, errlen) != 0)
    ;
  else if ((r = wolfSSL_write(s, "pong", 4)) != 4)
    fail(err, errlen, "writing pong", wolfSSL_get_error(s, r));
  else
    rc = describe(s, obj, cap, err, errlen);
  if (rc == 0)
    wolfSSL_shutdown(s);
  wolfSSL_free(s);
  return rc;
}

typedef struct wclient {
  tls_kit_cfg cfg;
  WOLFSSL_CTX *ctx;
  WOLFSSL_SESSION *ticket; /* -resume: what the previous connection received */
  char server_name[1024];
} wclient;

static void *client_ctx(const tls_kit_cfg *cfg, const char *ca, const char *server_name, char *err,
                        size_t errlen) {
  wclient *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c == NULL)
    return NULL;
  c->cfg = *cfg;
  snprintf(c->server_name, sizeof c->server_name, "%s", server_name);
  if ((c->ctx = client_ctx_new(cfg, ca, err, errlen)) == NULL) {
    free(c);
    return NULL;
  }
  return c;
}

static int connect_one(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen) {
  wclient *c = ctx;
  WOLFSSL *s =
      client_ssl(c->ctx, &c->cfg, c->server_name, c->cfg.resume ? c->ticket : NULL, err, errlen);
  int r = -1, rc = -1;
  if (s == NULL)
    return -1;
  if (wolfSSL_set_fd(s, fd) != WOLFSSL_SUCCESS)
    fail(err, errlen, "client connection", 0);
  else if ((r = wolfSSL_connect(s)) != WOLFSSL_SUCCESS)
    fail(err, errlen, "client handshake", wolfSSL_get_error(s, r));
  else if ((r = wolfSSL_write(s, "ping", 4)) != 4)
    fail(err, errlen, "writing ping", wolfSSL_get_error(s, r));
  else if (tls_kit_read4(sock_read, s, "pong", err, errlen) != 0)
    ;
  else
    rc = describe(s, obj, cap, err, errlen);
  if (rc == 0 && c->cfg.resume) { /* the ticket came before pong */
    wolfSSL_SESSION_free(c->ticket);
    c->ticket = wolfSSL_get1_session(s);
  }
  if (rc == 0)
    wolfSSL_shutdown(s);
  wolfSSL_free(s);
  return rc;
}

static void server_free(void *ctx) { wolfSSL_CTX_free(ctx); }
static void client_free(void *ctx) {
  wclient *c = ctx;
  wolfSSL_SESSION_free(c->ticket);
  wolfSSL_CTX_free(c->ctx);
  free(c);
}

const tls_plugin tls_plugin_def = {
    oneshot_alg_at,
    oneshot_cell_new,
    oneshot_cell_run,
    oneshot_cell_output,
    oneshot_cell_error,
    oneshot_cell_free,
    have,
    "tls13-*: wolfSSL's client and server in one process over two in-memory pipes (its I/O "
    "callbacks); contexts once per cell; exporters, checks and wolfSSL_free off the clock; "
    "client/server subtract the other side's calls. -resume: one ticket from an untimed full "
    "handshake serves every resumption (remade after 60 s). sigalg: not reported by wolfSSL",
    TLS_PLUGIN_STATE(wstate, server_free, client_free),
};
