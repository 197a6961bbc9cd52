/* TLS 1.3 handshakes of the OpenSSL module (protocol.md, version 7): the tls13-<group>-<auth>
 * [-resume] cells, libssl's own client and server in one process over memory BIOs.
 *
 * Per cell, outside the timed region: the server's and the client's SSL_CTX (certificate chain,
 * key, trust anchor, group, suite) and, in -resume cells, one ticket. The server's tickets are
 * stateless (OpenSSL's default), so the one SSL_SESSION a full handshake made in
 * ops_cell_prepare serves every resumption; it is made again there when older than a minute.
 *
 * One operation: two memory BIOs (one per direction; each side's rbio is the other's wbio, so
 * nothing is copied between the library's writes and reads), SSL_new for both sides, then
 * SSL_do_handshake in turn until both are done, and in -resume cells one SSL_read on the client
 * that processes the server's ticket. Afterwards, off the clock (the untimed-ns mechanism): both
 * exporters, the checks (group, resumption, equal exporters) and SSL_free. `client` / `server`
 * also subtract the other side's calls and the BIOs' creation (read on the clock around each
 * call); writing into a memory BIO happens inside the writing side's call and counts to it.
 */
#define _POSIX_C_SOURCE 200809L
#include "ops_tls.h"
#include <cryptobench/kit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/tls1.h>

#include "tls_iface.h"

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define TLS_ON 1 /* 1.1.1 has TLS 1.3 too, but its reporting API differs: no cell there */
#else
#define TLS_ON 0
#endif

#define TLS_SUITE "TLS_AES_128_GCM_SHA256"
#define TLS_SUITE_CODE 0x1301
#define TICKET_MAX_AGE_NS (60ull * 1000000000ull)
#define MAX_STEPS 8 /* handshake steps per side before the pump gives up */

static const struct {
  const char *name, *ossl;
  int code;
} GROUPS[] = {
    {"x25519", "x25519", 0x001d},
    {"p256", "P-256", 0x0017},
    {"x25519mlkem768", "X25519MLKEM768", 0x11ec},
    {"secp256r1mlkem768", "SecP256r1MLKEM768", 0x11eb},
    {"secp384r1mlkem1024", "SecP384r1MLKEM1024", 0x11ed},
};
#define NGROUPS (sizeof GROUPS / sizeof GROUPS[0])

static const struct {
  const char *name, *key_type; /* key_type: EVP_PKEY_CTX_new_from_name's, the probe */
  int lo, hi;
} AUTHS[] = {
    {"ecdsa-p256", "EC", 0x0403, 0x0403},      {"ed25519", "ED25519", 0x0807, 0x0807},
    {"rsa-2048", "RSA", 0x0804, 0x0806},       {"mldsa-44", "ML-DSA-44", 0x0904, 0x0904},
    {"mldsa-65", "ML-DSA-65", 0x0905, 0x0905},
};
#define NAUTHS (sizeof AUTHS / sizeof AUTHS[0])

#ifdef SSL_get0_signature_name
/* signature scheme names as OpenSSL reports them (SSL_get0_signature_name, 3.5+) */
static const struct {
  const char *name;
  int code;
} SIGALG_NAMES[] = {
    {"ecdsa_secp256r1_sha256", 0x0403},
    {"ed25519", 0x0807},
    {"rsa_pss_rsae_sha256", 0x0804},
    {"rsa_pss_rsae_sha384", 0x0805},
    {"rsa_pss_rsae_sha512", 0x0806},
    {"mldsa44", 0x0904},
    {"mldsa65", 0x0905},
    {"mldsa87", 0x0906},
};
#endif

enum side { SIDE_BOTH, SIDE_CLIENT, SIDE_SERVER, SIDE_TRANSPORT };

struct tls_cell {
  tls_cfg cfg;
  enum side side; /* what the op times: both (handshake), the client's or the server's calls */
  SSL_CTX *cctx, *sctx;
  char server_name[1024];
  SSL_SESSION *ticket; /* -resume: the session a handshake outside the timed region left */
  uint64_t ticket_ns;  /* when it was made */
  uint64_t *untimed_ns;
  uint8_t exporter[32];
  /* the last handshake, as the server saw it */
  int group, cipher, sigalg, resumed, round_trips;
  size_t flights[4]; /* client_hello, server_flight, client_finished, tickets */
  char report[400];
  char err[300];
};

void tls_err(char *err, size_t errlen, const char *what) {
  unsigned long e = ERR_get_error();
  if (e != 0) {
    char buf[200];
    ERR_error_string_n(e, buf, sizeof buf);
    cb_kit_err(err, errlen, "tls: %s: %s", what, buf);
  } else {
    cb_kit_err(err, errlen, "tls: %s failed", what);
  }
  ERR_clear_error();
}

/* ---- configuration ---- */

int tls_cfg_of(const char *alg, tls_cfg *cfg, char *err, size_t errlen) {
  char name[96];
  for (size_t g = 0; g < NGROUPS; g++)
    for (size_t a = 0; a < NAUTHS; a++)
      for (int r = 0; r < 2; r++) {
        snprintf(name, sizeof name, "tls13-%s-%s%s", GROUPS[g].name, AUTHS[a].name,
                 r ? "-resume" : "");
        if (strcmp(name, alg) != 0)
          continue;
        *cfg =
            (tls_cfg){GROUPS[g].ossl, GROUPS[g].code, AUTHS[a].name, AUTHS[a].lo, AUTHS[a].hi, r};
        return 0;
      }
  cb_kit_err(err, errlen, "not offered: algorithm %s", alg);
  return -1;
}

#if TLS_ON
/* TLS 1.3 only, the one suite, the cell's group only */
static int ctx_common(SSL_CTX *ctx, const tls_cfg *cfg) {
  return SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) == 1 &&
         SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) == 1 &&
         SSL_CTX_set_ciphersuites(ctx, TLS_SUITE) == 1 &&
         SSL_CTX_set1_groups_list(ctx, cfg->group) == 1;
}

SSL_CTX *tls_server_ctx(const tls_cfg *cfg, const char *chain, const char *key, char *err,
                        size_t errlen) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  const char *what = "server configuration";
  if (ctx == NULL || !ctx_common(ctx, cfg))
    goto fail;
  what = "loading the certificate chain";
  if (SSL_CTX_use_certificate_chain_file(ctx, chain) != 1)
    goto fail;
  what = "loading the private key";
  if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx) != 1)
    goto fail;
  /* stateless tickets, no server-side cache to grow */
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  what = "setting the number of tickets";
  if (SSL_CTX_set_num_tickets(ctx, cfg->resume ? 1 : 0) != 1)
    goto fail;
  return ctx;
fail:
  tls_err(err, errlen, what);
  SSL_CTX_free(ctx);
  return NULL;
}

SSL_CTX *tls_client_ctx(const tls_cfg *cfg, const char *ca, char *err, size_t errlen) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  const char *what = "client configuration";
  if (ctx == NULL || !ctx_common(ctx, cfg))
    goto fail;
  what = "loading the root certificate";
  if (SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1)
    goto fail;
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  return ctx;
fail:
  tls_err(err, errlen, what);
  SSL_CTX_free(ctx);
  return NULL;
}

/* the name the client checks the leaf against: SSL_set1_dnsname from 4.0 (SSL_set1_host is
 * deprecated there) */
#if OPENSSL_VERSION_NUMBER >= 0x40000000L
#define set_checked_name SSL_set1_dnsname
#else
#define set_checked_name SSL_set1_host
#endif

SSL *tls_client_ssl(SSL_CTX *cctx, const char *server_name) {
  SSL *s = SSL_new(cctx);
  if (s != NULL &&
      (SSL_set_tlsext_host_name(s, server_name) != 1 || set_checked_name(s, server_name) != 1)) {
    SSL_free(s);
    return NULL;
  }
  return s;
}

int tls_group_code(SSL *s) {
  int g = (int)SSL_get_negotiated_group(s);
  if (g > 0 && (g & TLSEXT_nid_unknown)) /* a group without a NID (the hybrids): its code point */
    return g & 0xffff;
  switch (g) {
  case NID_X25519:
    return 0x001d;
  case NID_X9_62_prime256v1:
    return 0x0017;
  case NID_secp384r1:
    return 0x0018;
  case NID_X448:
    return 0x001e;
  }
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
  const char *name = SSL_get0_group_name(s);
  for (size_t i = 0; name != NULL && i < NGROUPS; i++)
    if (strcasecmp(name, GROUPS[i].ossl) == 0)
      return GROUPS[i].code;
#endif
  return -1;
}

int tls_cipher_code(SSL *s) {
  const SSL_CIPHER *c = SSL_get_current_cipher(s);
  return c != NULL ? (int)SSL_CIPHER_get_protocol_id(c) : -1;
}

int tls_sigalg_code(SSL *s, int peer) {
#ifdef SSL_get0_signature_name
  const char *name = NULL;
  if ((peer ? SSL_get0_peer_signature_name(s, &name) : SSL_get0_signature_name(s, &name)) == 1 &&
      name != NULL) {
    for (size_t i = 0; i < sizeof SIGALG_NAMES / sizeof SIGALG_NAMES[0]; i++)
      if (strcasecmp(name, SIGALG_NAMES[i].name) == 0)
        return SIGALG_NAMES[i].code;
    return -1;
  }
#endif
  int type = 0, md = 0;
  if ((peer ? SSL_get_peer_signature_type_nid(s, &type) : SSL_get_signature_type_nid(s, &type)) !=
      1)
    return -1;
  if (type == EVP_PKEY_ED25519)
    return 0x0807;
  if ((peer ? SSL_get_peer_signature_nid(s, &md) : SSL_get_signature_nid(s, &md)) != 1)
    return -1;
  if (type == EVP_PKEY_EC && md == NID_sha256)
    return 0x0403;
  if (type == EVP_PKEY_RSA_PSS) /* our leaf is rsaEncryption: the rsae schemes */
    return md == NID_sha256 ? 0x0804 : md == NID_sha384 ? 0x0805 : md == NID_sha512 ? 0x0806 : -1;
  return -1;
}

int tls_exporter(SSL *s, uint8_t out[32]) {
  static const char label[] = "EXPORTER-cryptobench", context[] = "cryptobench tls13";
  return SSL_export_keying_material(s, out, 32, label, sizeof label - 1,
                                    (const unsigned char *)context, sizeof context - 1, 1) == 1;
}

/* ---- catalogue ---- */

static int group_ok(const char *ossl) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_method());
  int ok = ctx != NULL && SSL_CTX_set1_groups_list(ctx, ossl) == 1;
  SSL_CTX_free(ctx);
  ERR_clear_error();
  return ok;
}

static int auth_ok(const char *key_type) {
  EVP_PKEY_CTX *k = EVP_PKEY_CTX_new_from_name(NULL, key_type, NULL);
  EVP_PKEY_CTX_free(k);
  ERR_clear_error();
  return k != NULL;
}

size_t tls_catalogue(ops_alg *out, size_t max) {
  static char names[NGROUPS * NAUTHS * 2][64];
  size_t n = 0;
  for (size_t g = 0; g < NGROUPS; g++) {
    if (!group_ok(GROUPS[g].ossl))
      continue;
    for (size_t a = 0; a < NAUTHS; a++) {
      if (!auth_ok(AUTHS[a].key_type))
        continue;
      for (int r = 0; r < 2 && n < max; r++, n++) {
        snprintf(names[n], sizeof names[n], "tls13-%s-%s%s", GROUPS[g].name, AUTHS[a].name,
                 r ? "-resume" : "");
        memset(&out[n], 0, sizeof out[n]);
        out[n].name = names[n];
        out[n].ops[0] = "handshake";
        out[n].ops[1] = "client";
        out[n].ops[2] = "server";
        out[n].fresh = 1;
      }
    }
  }
  return n;
}
#else
size_t tls_catalogue(ops_alg *out, size_t max) {
  (void)out, (void)max;
  return 0;
}
#endif

size_t tls_notes(const char **notes, size_t max) {
  if (max == 0 || !TLS_ON)
    return 0;
  notes[0] = "tls13-*: libssl's client and server in one process over two memory BIOs (each "
             "side's read BIO is the other's write BIO); connection contexts once per cell; "
             "exporters, checks and SSL_free off the clock; client/server subtract the other "
             "side's calls. -resume: one stateless ticket from an untimed full handshake serves "
             "every resumption (remade after 60 s); every handshake still issues one ticket";
  return 1;
}

/* ---- cells ---- */

#if TLS_ON
static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cell_fail(tls_cell *c, const char *what) {
  tls_err(c->err, sizeof c->err, what);
  return OPS_FAIL;
}

/* One handshake (protocol.md's `handshake`), timed as c->side says through c->untimed_ns.
 * make_ticket: the untimed full handshake that leaves c->ticket (no checks of resumption). */
static int handshake(tls_cell *c, int make_ticket) {
  const enum side side = make_ticket ? SIDE_BOTH : c->side;
  uint64_t mark = side != SIDE_BOTH ? now_ns() : 0, untimed = 0;
/* the time since the last mark belongs to `owner`: subtracted unless it is the timed side */
#define LAP(owner)                                                                                 \
  do {                                                                                             \
    if (side != SIDE_BOTH) {                                                                       \
      uint64_t t_ = now_ns();                                                                      \
      if ((owner) != side)                                                                         \
        untimed += t_ - mark;                                                                      \
      mark = t_;                                                                                   \
    }                                                                                              \
  } while (0)
  int rc = OPS_FAIL;
  uint64_t t_end = 0; /* when the timed part ended */
  SSL *cl = NULL, *sv = NULL;
  BIO *c2s = BIO_new(BIO_s_mem()), *s2c = BIO_new(BIO_s_mem());
  if (c2s == NULL || s2c == NULL) {
    BIO_free(c2s), BIO_free(s2c);
    return cell_fail(c, "memory BIOs");
  }
  BIO_set_mem_eof_return(c2s, -1); /* empty: "retry", not end of file */
  BIO_set_mem_eof_return(s2c, -1);
  LAP(SIDE_TRANSPORT);
  cl = tls_client_ssl(c->cctx, c->server_name);
  if (cl == NULL || (c->cfg.resume && !make_ticket && SSL_set_session(cl, c->ticket) != 1)) {
    BIO_free(c2s), BIO_free(s2c);
    rc = cell_fail(c, "client connection");
    goto done;
  }
  SSL_set_bio(cl, s2c, c2s); /* the client owns one reference of each, the server the other */
  SSL_set_connect_state(cl);
  LAP(SIDE_CLIENT);
  sv = SSL_new(c->sctx);
  if (sv == NULL || !BIO_up_ref(c2s)) {
    rc = cell_fail(c, "server connection");
    goto done;
  }
  if (!BIO_up_ref(s2c)) {
    BIO_free(c2s);
    rc = cell_fail(c, "server connection");
    goto done;
  }
  SSL_set_bio(sv, c2s, s2c);
  SSL_set_accept_state(sv);
  LAP(SIDE_SERVER);
  /* the pump: each side runs until it waits for the other; the flights are what each wrote */
  int cdone = 0, sdone = 0, waits = 0;
  size_t ch = 0, sf = 0;
  for (int step = 0; step < MAX_STEPS && !(cdone && sdone); step++) {
    if (!cdone) {
      int r = SSL_do_handshake(cl);
      LAP(SIDE_CLIENT);
      if (r == 1)
        cdone = 1;
      else if (SSL_get_error(cl, r) == SSL_ERROR_WANT_READ)
        waits++;
      else {
        rc = cell_fail(c, "client handshake");
        goto done;
      }
      if (step == 0)
        ch = BIO_number_written(c2s);
    }
    if (!sdone) {
      int r = SSL_do_handshake(sv);
      LAP(SIDE_SERVER);
      if (r == 1)
        sdone = 1;
      else if (SSL_get_error(sv, r) != SSL_ERROR_WANT_READ) {
        rc = cell_fail(c, "server handshake");
        goto done;
      }
      if (!cdone)
        sf = BIO_number_written(s2c);
    }
  }
  if (!(cdone && sdone)) {
    cb_kit_err(c->err, sizeof c->err, "tls: the handshake did not finish in %d steps", MAX_STEPS);
    goto done;
  }
  if (c->cfg.resume) { /* the client reads the ticket (no application data comes) */
    unsigned char b;
    int r = SSL_read(cl, &b, 1);
    LAP(SIDE_CLIENT);
    if (r > 0 || SSL_get_error(cl, r) != SSL_ERROR_WANT_READ) {
      rc = cell_fail(c, "client reading the ticket");
      goto done;
    }
  }
  /* off the clock from here: what the handshake showed, and the checks */
  t_end = now_ns();
  c->flights[0] = ch;
  c->flights[1] = sf;
  c->flights[2] = BIO_number_written(c2s) - ch;
  c->flights[3] = BIO_number_written(s2c) - sf;
  c->round_trips = waits;
  c->group = tls_group_code(sv);
  c->cipher = tls_cipher_code(sv);
  c->resumed = SSL_session_reused(sv) == 1;
  c->sigalg = c->resumed ? -1 : tls_sigalg_code(sv, 0);
  uint8_t sx[32];
  if (!tls_exporter(cl, c->exporter) || !tls_exporter(sv, sx)) {
    rc = cell_fail(c, "exporter");
  } else if (memcmp(sx, c->exporter, 32) != 0) {
    cb_kit_err(c->err, sizeof c->err, "tls: client and server exporters differ");
  } else if (c->group != c->cfg.group_code || tls_group_code(cl) != c->cfg.group_code) {
    cb_kit_err(c->err, sizeof c->err, "tls: negotiated group %d (client: %d), not the cell's %d",
               c->group, tls_group_code(cl), c->cfg.group_code);
  } else if (c->cipher != TLS_SUITE_CODE) {
    cb_kit_err(c->err, sizeof c->err, "tls: negotiated cipher suite 0x%04x", c->cipher);
  } else if (!make_ticket &&
             (c->cfg.resume != c->resumed || (SSL_session_reused(cl) == 1) != c->resumed)) {
    cb_kit_err(c->err, sizeof c->err, "tls: resumption %s (client: %s)",
               c->resumed ? "accepted in a full cell" : "not accepted",
               SSL_session_reused(cl) == 1 ? "resumed" : "not resumed");
  } else if (BIO_ctrl_pending(c2s) != 0 || BIO_ctrl_pending(s2c) != 0) {
    cb_kit_err(c->err, sizeof c->err, "tls: bytes left unread after the handshake");
  } else if (make_ticket && (c->ticket = SSL_get1_session(cl)) == NULL) {
    rc = cell_fail(c, "keeping the ticket");
  } else if (make_ticket && !SSL_SESSION_is_resumable(c->ticket)) {
    cb_kit_err(c->err, sizeof c->err, "tls: the server's ticket is not resumable");
  } else {
    rc = c->exporter[0];
  }
done:
  if (rc >= 0) /* a clean end: SSL_free would otherwise mark the session not resumable */
    SSL_set_shutdown(cl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
  SSL_free(cl);
  SSL_free(sv);
  if (t_end != 0)
    untimed += now_ns() - t_end;
  *c->untimed_ns += untimed;
  return rc;
#undef LAP
}

tls_cell *tls_cell_new(const ops_params *p, uint64_t *untimed_ns, char *err, size_t errlen) {
  tls_cfg cfg;
  if (tls_cfg_of(p->alg, &cfg, err, errlen) != 0)
    return NULL;
  enum side side = strcmp(p->op, "handshake") == 0 ? SIDE_BOTH
                   : strcmp(p->op, "client") == 0  ? SIDE_CLIENT
                   : strcmp(p->op, "server") == 0  ? SIDE_SERVER
                                                   : SIDE_TRANSPORT;
  if (side == SIDE_TRANSPORT) {
    cb_kit_err(err, errlen, "not offered: operation %s for %s", p->op, p->alg);
    return NULL;
  }
  size_t len[4];
  const uint8_t *v[4] = {
      cb_ext_get(p, CB_TLS_EXT_CHAIN, &len[0]), cb_ext_get(p, CB_TLS_EXT_KEY, &len[1]),
      cb_ext_get(p, CB_TLS_EXT_CA, &len[2]), cb_ext_get(p, CB_TLS_EXT_SERVER_NAME, &len[3])};
  char text[4][1024];
  for (int i = 0; i < 4; i++) {
    if (v[i] == NULL || len[i] == 0 || len[i] >= sizeof text[i]) {
      cb_kit_err(err, errlen, "tls: no PKI in the request");
      return NULL;
    }
    memcpy(text[i], v[i], len[i]);
    text[i][len[i]] = '\0';
  }
  tls_cell *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c == NULL)
    return NULL;
  c->cfg = cfg;
  c->side = side;
  c->untimed_ns = untimed_ns;
  snprintf(c->server_name, sizeof c->server_name, "%s", text[3]);
  c->sctx = tls_server_ctx(&cfg, text[0], text[1], err, errlen);
  if (c->sctx != NULL)
    c->cctx = tls_client_ctx(&cfg, text[2], err, errlen);
  if (c->cctx == NULL) {
    tls_cell_free(c);
    return NULL;
  }
  return c;
}

int tls_cell_prepare(tls_cell *c, uint64_t n) {
  (void)n;
  if (!c->cfg.resume || (c->ticket != NULL && now_ns() - c->ticket_ns < TICKET_MAX_AGE_NS))
    return 0;
  SSL_SESSION_free(c->ticket);
  c->ticket = NULL;
  uint64_t keep = *c->untimed_ns;
  int rc = handshake(c, 1);
  *c->untimed_ns = keep; /* prepare is outside the timed region anyway */
  c->ticket_ns = now_ns();
  return rc >= 0 && c->ticket != NULL ? 0 : -1;
}

int tls_cell_run(tls_cell *c) {
  if (c->cfg.resume && c->ticket == NULL) {
    cb_kit_err(c->err, sizeof c->err, "tls: no ticket prepared");
    return OPS_FAIL;
  }
  return handshake(c, 0);
}

const char *tls_cell_report(tls_cell *c) {
  char g[12], ci[12], sig[12];
  snprintf(c->report, sizeof c->report,
           "{\"group\":%s,\"cipher\":%s,\"sigalg\":%s,\"resumed\":%s,\"round_trips\":%d,"
           "\"flights\":{\"client_hello\":%zu,\"server_flight\":%zu,\"client_finished\":%zu,"
           "\"tickets\":%zu}}",
           tls_code_json(c->group, g), tls_code_json(c->cipher, ci), tls_code_json(c->sigalg, sig),
           c->resumed ? "true" : "false", c->round_trips, c->flights[0], c->flights[1],
           c->flights[2], c->flights[3]);
  return c->report;
}
#else
tls_cell *tls_cell_new(const ops_params *p, uint64_t *untimed_ns, char *err, size_t errlen) {
  (void)untimed_ns;
  cb_kit_err(err, errlen, "not offered: algorithm %s (no TLS cells before OpenSSL 3.0)", p->alg);
  return NULL;
}
int tls_cell_prepare(tls_cell *c, uint64_t n) {
  (void)c, (void)n;
  return -1;
}
int tls_cell_run(tls_cell *c) {
  (void)c;
  return OPS_FAIL;
}
const char *tls_cell_report(tls_cell *c) {
  (void)c;
  return "{}";
}
#endif

const uint8_t *tls_cell_output(const tls_cell *c, size_t *len) {
  *len = sizeof c->exporter;
  return c->exporter;
}

const char *tls_cell_error(const tls_cell *c) { return c->err[0] ? c->err : "tls: failed"; }

void tls_cell_free(tls_cell *c) {
  if (c == NULL)
    return;
#if TLS_ON
  SSL_SESSION_free(c->ticket);
  SSL_CTX_free(c->cctx);
  SSL_CTX_free(c->sctx);
#endif
  free(c);
}
