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
 * The pump, its checks, the clock and the report are tls_kit.c's (shared with the plugins of
 * plugins/c); this file is libssl's side of it (tls_kit_lib).
 */
#define _POSIX_C_SOURCE 200809L
#include "ops_ossl.h"
#include "ops_tls.h"
#include <cryptobench/kit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/tls1.h>

#include "tls_iface.h"
#include "tls_kit.h"

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define TLS_ON 1 /* 1.1.1 has TLS 1.3 too, but its reporting API differs: no cell there */
#else
#define TLS_ON 0
#endif

#define TLS_SUITE "TLS_AES_128_GCM_SHA256"
#define TICKET_MAX_AGE_NS (60ull * 1000000000ull)
#define MAX_CELLS 50 /* 5 groups x 5 auths, full and resumed */

/* the protocol's name of a group or auth and OpenSSL's name of it */
typedef struct {
  const char *name, *ossl;
} ossl_name;

/* OpenSSL's name for `name` in map[0..n), or NULL */
static const char *ossl_name_of(const ossl_name *map, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(map[i].name, name) == 0)
      return map[i].ossl;
  return NULL;
}

/* OpenSSL's names of the protocol's groups (tls_kit_groups) */
static const ossl_name GROUPS[] = {
    {"x25519", "x25519"},
    {"p256", "P-256"},
    {"x25519mlkem768", "X25519MLKEM768"},
    {"secp256r1mlkem768", "SecP256r1MLKEM768"},
    {"secp384r1mlkem1024", "SecP384r1MLKEM1024"},
};
#define NGROUPS (sizeof GROUPS / sizeof GROUPS[0])

static const char *ossl_group(size_t g) {
  return ossl_name_of(GROUPS, NGROUPS, tls_kit_groups[g].name);
}

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

struct tls_cell {
  tls_cfg cfg;
  enum tls_kit_side side; /* what the op times: both (handshake), the client's or the server's */
  SSL_CTX *cctx, *sctx;
  char server_name[1024];
  SSL_SESSION *ticket; /* -resume: the session a handshake outside the timed region left */
  uint64_t ticket_ns;  /* when it was made */
  uint64_t *untimed_ns;
  uint8_t exporter[32];
  tls_kit_hs hs; /* the last handshake, as the server saw it */
  char report[400];
  char err[300];
  /* the handshake under way (tls_kit_lib below): the two memory BIOs, of which the cell holds a
   * reference besides the connections', and the connections */
  BIO *c2s, *s2c;
  SSL *cl, *sv;
};

void tls_err(char *err, size_t errlen, const char *what) {
  char tls_what[200];
  snprintf(tls_what, sizeof tls_what, "tls: %s", what);
  ossl_err(err, errlen, tls_what);
}

/* ---- configuration ---- */

int tls_cfg_of(const char *alg, tls_cfg *cfg, char *err, size_t errlen) {
  if (tls_kit_cfg_of(alg, &cfg->kit, err, errlen) != 0)
    return -1;
  cfg->group = ossl_group(cfg->kit.group);
  return 0;
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
  if (SSL_CTX_set_num_tickets(ctx, cfg->kit.resume ? 1 : 0) != 1)
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
  for (size_t i = 0; name != NULL && i < tls_kit_ngroups; i++)
    if (ossl_group(i) != NULL && strcasecmp(name, ossl_group(i)) == 0)
      return tls_kit_groups[i].code;
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
  return SSL_export_keying_material(s, out, 32, TLS_KIT_LABEL, sizeof TLS_KIT_LABEL - 1,
                                    (const unsigned char *)TLS_KIT_CONTEXT,
                                    sizeof TLS_KIT_CONTEXT - 1, 1) == 1;
}

/* ---- catalogue ---- */

/* the key type of an auth's certificate (EVP_PKEY_CTX_new_from_name's, the probe) */
static const ossl_name AUTHS[] = {
    {"ecdsa-p256", "EC"},      {"ed25519", "ED25519"},    {"rsa-2048", "RSA"},
    {"mldsa-44", "ML-DSA-44"}, {"mldsa-65", "ML-DSA-65"},
};
#define NAUTHS (sizeof AUTHS / sizeof AUTHS[0])

static const char *auth_key_type(size_t a) {
  return ossl_name_of(AUTHS, NAUTHS, tls_kit_auths[a].name);
}

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

/* what this build's library offers: the group accepted by SSL_CTX_set1_groups_list, the key type
 * fetchable (probed once per group and authentication, when the catalogue is made) */
static int have(void *arg, size_t g, size_t a) {
  (void)arg;
  return ossl_group(g) != NULL && group_ok(ossl_group(g)) && auth_key_type(a) != NULL &&
         auth_ok(auth_key_type(a));
}

size_t tls_catalogue(ops_alg *out, size_t max) {
  static char names[MAX_CELLS][64];
  return tls_kit_catalogue(out, names, max < MAX_CELLS ? max : MAX_CELLS, have, NULL);
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
/* ---- libssl's side of the kit's in-memory handshake (tls_kit_lib); lib is the cell ---- */

static int lib_transport(void *lib, char *err, size_t errlen) {
  tls_cell *c = lib;
  c->c2s = BIO_new(BIO_s_mem());
  c->s2c = BIO_new(BIO_s_mem());
  if (c->c2s == NULL || c->s2c == NULL) {
    tls_err(err, errlen, "memory BIOs");
    return -1;
  }
  BIO_set_mem_eof_return(c->c2s, -1); /* empty: "retry", not end of file */
  BIO_set_mem_eof_return(c->s2c, -1);
  return 0;
}

/* s reads from `in` and writes to `out`, each with a reference of its own */
static int attach(SSL *s, BIO *in, BIO *out) {
  if (!BIO_up_ref(in))
    return 0;
  if (!BIO_up_ref(out)) {
    BIO_free(in);
    return 0;
  }
  SSL_set_bio(s, in, out);
  return 1;
}

static int lib_client_new(void *lib, int use_ticket, char *err, size_t errlen) {
  tls_cell *c = lib;
  c->cl = tls_client_ssl(c->cctx, c->server_name);
  if (c->cl == NULL || (use_ticket && SSL_set_session(c->cl, c->ticket) != 1) ||
      !attach(c->cl, c->s2c, c->c2s)) {
    tls_err(err, errlen, "client connection");
    return -1;
  }
  SSL_set_connect_state(c->cl);
  return 0;
}

static int lib_server_new(void *lib, char *err, size_t errlen) {
  tls_cell *c = lib;
  c->sv = SSL_new(c->sctx);
  if (c->sv == NULL || !attach(c->sv, c->c2s, c->s2c)) {
    tls_err(err, errlen, "server connection");
    return -1;
  }
  SSL_set_accept_state(c->sv);
  return 0;
}

static int lib_step(void *lib, int server, char *err, size_t errlen) {
  tls_cell *c = lib;
  SSL *s = server ? c->sv : c->cl;
  int r = SSL_do_handshake(s);
  if (r == 1)
    return 1;
  if (SSL_get_error(s, r) == SSL_ERROR_WANT_READ)
    return 0;
  tls_err(err, errlen, server ? "server handshake" : "client handshake");
  return -1;
}

/* the client reads the ticket (no application data comes) */
static int lib_read_ticket(void *lib, char *err, size_t errlen) {
  tls_cell *c = lib;
  unsigned char b;
  int r = SSL_read(c->cl, &b, 1);
  if (r > 0 || SSL_get_error(c->cl, r) != SSL_ERROR_WANT_READ) {
    tls_err(err, errlen, "client reading the ticket");
    return -1;
  }
  return 0;
}

static size_t lib_written(void *lib, int server) {
  tls_cell *c = lib;
  return BIO_number_written(server ? c->s2c : c->c2s);
}

static size_t lib_pending(void *lib) {
  tls_cell *c = lib;
  return BIO_ctrl_pending(c->c2s) + BIO_ctrl_pending(c->s2c);
}

static void lib_inspect(void *lib, tls_kit_hs *h, int *client_group, int *client_resumed) {
  tls_cell *c = lib;
  h->group = tls_group_code(c->sv);
  h->cipher = tls_cipher_code(c->sv);
  h->resumed = SSL_session_reused(c->sv) == 1;
  h->sigalg = h->resumed ? -1 : tls_sigalg_code(c->sv, 0);
  *client_group = tls_group_code(c->cl);
  *client_resumed = SSL_session_reused(c->cl) == 1;
}

static int lib_exporter(void *lib, int server, uint8_t out[32]) {
  tls_cell *c = lib;
  if (tls_exporter(server ? c->sv : c->cl, out))
    return 1;
  ERR_clear_error(); /* the kit's message says it */
  return 0;
}

static int lib_keep_ticket(void *lib, char *err, size_t errlen) {
  tls_cell *c = lib;
  if ((c->ticket = SSL_get1_session(c->cl)) == NULL) {
    tls_err(err, errlen, "keeping the ticket");
    return -1;
  }
  if (!SSL_SESSION_is_resumable(c->ticket)) {
    cb_kit_err(err, errlen, "tls: the server's ticket is not resumable");
    return -1;
  }
  return 0;
}

static void lib_end(void *lib, int clean) {
  tls_cell *c = lib;
  if (clean && c->cl != NULL) /* SSL_free would otherwise mark the session not resumable */
    SSL_set_shutdown(c->cl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
  SSL_free(c->cl);
  SSL_free(c->sv);
  BIO_free(c->c2s);
  BIO_free(c->s2c);
  c->cl = c->sv = NULL;
  c->c2s = c->s2c = NULL;
}

static const tls_kit_lib LIB = {lib_transport,   lib_client_new,  lib_server_new, lib_step,
                                lib_read_ticket, lib_written,     lib_pending,    lib_inspect,
                                lib_exporter,    lib_keep_ticket, lib_end};

tls_cell *tls_cell_new(const ops_params *p, uint64_t *untimed_ns, char *err, size_t errlen) {
  tls_cfg cfg;
  if (tls_cfg_of(p->alg, &cfg, err, errlen) != 0)
    return NULL;
  enum tls_kit_side side = tls_kit_side_of(p->op);
  if (side == TLS_SIDE_TRANSPORT) {
    cb_kit_err(err, errlen, "not offered: operation %s for %s", p->op, p->alg);
    return NULL;
  }
  tls_kit_pki pki;
  if (tls_kit_pki_of(p, &pki, err, errlen) != 0)
    return NULL;
  tls_cell *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c == NULL)
    return NULL;
  c->cfg = cfg;
  c->side = side;
  c->untimed_ns = untimed_ns;
  snprintf(c->server_name, sizeof c->server_name, "%s", pki.server_name);
  c->sctx = tls_server_ctx(&cfg, pki.chain, pki.key, err, errlen);
  if (c->sctx != NULL)
    c->cctx = tls_client_ctx(&cfg, pki.ca, err, errlen);
  if (c->cctx == NULL) {
    tls_cell_free(c);
    return NULL;
  }
  return c;
}

int tls_cell_prepare(tls_cell *c, uint64_t n) {
  (void)n;
  if (!c->cfg.kit.resume ||
      (c->ticket != NULL && tls_kit_now_ns() - c->ticket_ns < TICKET_MAX_AGE_NS))
    return 0;
  SSL_SESSION_free(c->ticket);
  c->ticket = NULL;
  tls_kit_clock k; /* prepare is outside the timed region anyway */
  tls_kit_clock_start(&k, TLS_SIDE_BOTH);
  int rc =
      tls_kit_handshake(&LIB, c, &c->cfg.kit, &k, 1, &c->hs, c->exporter, c->err, sizeof c->err);
  c->ticket_ns = tls_kit_now_ns();
  return rc >= 0 && c->ticket != NULL ? 0 : -1;
}

int tls_cell_run(tls_cell *c) {
  if (c->cfg.kit.resume && c->ticket == NULL) {
    cb_kit_err(c->err, sizeof c->err, "tls: no ticket prepared");
    return OPS_FAIL;
  }
  tls_kit_clock k;
  tls_kit_clock_start(&k, c->side);
  int rc =
      tls_kit_handshake(&LIB, c, &c->cfg.kit, &k, 0, &c->hs, c->exporter, c->err, sizeof c->err);
  *c->untimed_ns += k.untimed;
  return rc >= 0 ? rc : OPS_FAIL;
}

const char *tls_cell_report(tls_cell *c) {
  tls_kit_report_json(c->report, sizeof c->report, &c->hs);
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

OPS_HALF_OUTPUT_ERROR(tls, c->exporter, sizeof c->exporter, "tls: failed")

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
