/* How the C driver reaches the TLS 1.3 cells of its own OpenSSL module (protocol.md, version 7):
 * the module exports, beside its cb_provider table, the symbol CB_TLS_ENTRY returning this
 * table. It is private to the C driver and its built-in OpenSSL module, not part of the plugin
 * ABI (include/cryptobench/provider.h, docs/plugin-abi.md): a plugin without it offers no TLS
 * cell and the driver answers the interop commands "not offered". The bench request's `tls`
 * object reaches a cell through the ABI's cb_params.ext, under the keys below. */
#ifndef CB_TLS_IFACE_H
#define CB_TLS_IFACE_H

#include <stddef.h>
#include <stdint.h>

#include <cryptobench/provider.h>

#define CB_TLS_ENTRY "cryptobench_c_tls"
#define CB_TLS_IFACE_VERSION 1u

/* cb_params.ext keys of a tls13-* bench cell: the PKI's paths and the name, as text */
#define CB_TLS_EXT_CHAIN "tls_chain"
#define CB_TLS_EXT_KEY "tls_key"
#define CB_TLS_EXT_CA "tls_ca"
#define CB_TLS_EXT_SERVER_NAME "tls_server_name"

typedef struct cb_tls_iface {
  uint32_t version; /* CB_TLS_IFACE_VERSION */
  /* the bench response's "tls" object of cell c's last handshake, as JSON text (valid until the
   * next run or cell_free); NULL for a cell that is not a TLS cell */
  const char *(*report)(cb_cell *c);
  /* tls-serve: listen on 127.0.0.1, port 0, and serve in the background; 0 with *port, or -1
   * with the message in err ("not offered: ..." for a cell the library lacks) */
  int (*serve)(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
               const char *key, int *port, char *err, size_t errlen);
  /* tls-result: wait for the serving to end; a JSON array of handshake objects (free_text), or
   * NULL with the message in err */
  char *(*result)(char *err, size_t errlen);
  /* tls-connect: the same, the client's view */
  char *(*connect)(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                   const char *ca, const char *server_name, char *err, size_t errlen);
  void (*free_text)(char *text);
} cb_tls_iface;

typedef const cb_tls_iface *(*cb_tls_entry)(void);

#endif
