/* The TLS 1.3 half of the OpenSSL module (protocol.md, version 7): ops_openssl_tls.c (the
 * tls13-* cells over memory BIOs) and ops_openssl_tls_net.c (the interop commands over loopback
 * TCP), used by ops_openssl.c. Internal to the C driver family; the driver reaches the interop
 * commands and the cells' reports through tls_iface.h, not through the plugin ABI. */
#ifndef CB_OPS_TLS_H
#define CB_OPS_TLS_H

#include <stdio.h>

#include <openssl/ssl.h>

#include "ops.h"
#include "tls_kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tls_catalogue probes what the library has (groups, certificate key types) */
OPS_HALF(tls)

/* A cell's configuration, from its name: tls13-<group>-<auth>[-resume] (tls_kit.h). */
typedef struct tls_cfg {
  tls_kit_cfg kit;   /* group, auth, code point, resume */
  const char *group; /* OpenSSL's name for SSL_CTX_set1_groups_list */
} tls_cfg;

/* The configuration of cell `alg`; 0, or -1 with "not offered: ..." in err. */
int tls_cfg_of(const char *alg, tls_cfg *cfg, char *err, size_t errlen);
/* The server's and the client's SSL_CTX of a cell (TLS 1.3 only, TLS_AES_128_GCM_SHA256 only,
 * the cell's group only; the server: its chain and key, one ticket in -resume cells, none
 * otherwise; the client: the root as its only trust anchor, peer verification on). NULL with
 * "tls: <the library's words>" in err. */
SSL_CTX *tls_server_ctx(const tls_cfg *cfg, const char *chain, const char *key, char *err,
                        size_t errlen);
SSL_CTX *tls_client_ctx(const tls_cfg *cfg, const char *ca, char *err, size_t errlen);
/* A client connection: SNI and host name checked. NULL on failure. */
SSL *tls_client_ssl(SSL_CTX *cctx, const char *server_name);
/* What a side of a finished handshake reports: code points (-1: the library does not say;
 * sigalg: the server's own signature, or with peer = 1 the server's as the client saw it). */
int tls_group_code(SSL *s);
int tls_cipher_code(SSL *s);
int tls_sigalg_code(SSL *s, int peer);
/* The 32-byte exporter of protocol.md (label EXPORTER-cryptobench, context cryptobench tls13). */
int tls_exporter(SSL *s, uint8_t out[32]);
/* "tls: <what>: <first OpenSSL error>" into err, and clear the queue. */
void tls_err(char *err, size_t errlen, const char *what);

/* The ops.h cell functions for a tls13-* algorithm. untimed_ns: the module cell's counter
 * (ops_regen.h), to which a client or server cell adds the other side's time. */
tls_cell *tls_cell_new(const ops_params *p, uint64_t *untimed_ns, char *err, size_t errlen);
int tls_cell_prepare(tls_cell *c, uint64_t n);
/* The bench response's "tls" object of the last handshake, as JSON text. */
const char *tls_cell_report(tls_cell *c);

/* The interop commands (tls_iface.h): tls-serve (a thread serves; one at a time), tls-result,
 * tls-connect. Results are malloc()ed JSON arrays of handshake objects. */
int tls_serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
              const char *key, int *port, char *err, size_t errlen);
char *tls_result(char *err, size_t errlen);
char *tls_connect(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                  const char *ca, const char *server_name, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
