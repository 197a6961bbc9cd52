/* TLS 1.3 cells in a plugin of plugins/c (protocol.md, version 7): the cb_provider functions of
 * the tls13-* cells and the C driver's private TLS entry (drivers/c/src/tls_iface.h), around a
 * library's calls. The library-independent parts (names, clock, pump, JSON, the interop server)
 * are drivers/c/src/tls_kit.c; this file adds what a plugin's table needs: cells beside the
 * plugin's other algorithms (e.g. a one-shot catalogue, oneshot.h), the ticket of -resume cells,
 * the untimed nanoseconds of `client` / `server`.
 *
 * A plugin defines `tls_plugin_def` and fills its table with TLS_PLUGIN_TABLE; the driver dlsyms
 * cryptobench_c_tls, which this file exports. */
#ifndef CB_TLS_PLUGIN_H
#define CB_TLS_PLUGIN_H

#include <cryptobench/kit.h>
#include <cryptobench/provider.h>

#include "../../../drivers/c/src/tls_kit.h"

typedef struct tls_plugin {
  /* the plugin's other algorithms (all NULL: none), e.g. oneshot_alg_at ... oneshot_cell_free */
  const cb_alg *(*base_alg_at)(size_t i);
  cb_status (*base_cell_new)(const cb_params *p, cb_cell **cell, char *err, size_t errlen);
  int (*base_cell_run)(cb_cell *c);
  const uint8_t *(*base_cell_output)(const cb_cell *c, size_t *len);
  const char *(*base_cell_error)(const cb_cell *c);
  void (*base_cell_free)(cb_cell *c);

  /* whether the library has the cells of group g and auth a (tls_kit_groups / tls_kit_auths) */
  int (*have)(size_t group, size_t auth);
  const char *note; /* for hello: how a handshake is run */

  /* a cell's library state (state_size bytes, zeroed): the client's and the server's contexts;
   * 0, or -1 with the library's words */
  size_t state_size;
  int (*state_init)(void *state, const tls_kit_cfg *cfg, const tls_kit_pki *pki, char *err,
                    size_t errlen);
  void (*state_free)(void *state);
  int (*has_ticket)(void *state);
  void (*drop_ticket)(void *state);
  const tls_kit_lib *hs; /* the in-memory handshake on a state */

  /* interop: a server's / a client's context for a cell (NULL with err), its connections
   * (tls_kit_conn_fn on that context), and its end */
  void *(*server_ctx)(const tls_kit_cfg *cfg, const char *chain, const char *key, char *err,
                      size_t errlen);
  void *(*client_ctx)(const tls_kit_cfg *cfg, const char *ca, const char *server_name, char *err,
                      size_t errlen);
  tls_kit_conn_fn serve_one, connect_one;
  void (*server_free)(void *ctx);
  void (*client_free)(void *ctx);
} tls_plugin;

extern const tls_plugin tls_plugin_def; /* defined by the plugin */

/* tls_plugin_def's members from state_size on, for a plugin whose state type is STATE and whose
 * functions have the members' names (state_init, state_free, has_ticket, drop_ticket, its
 * tls_kit_lib hs, server_ctx, client_ctx, serve_one, connect_one); SERVER_FREE and CLIENT_FREE
 * free a server's and a client's context. */
#define TLS_PLUGIN_STATE(STATE, SERVER_FREE, CLIENT_FREE)                                          \
  sizeof(STATE), state_init, state_free, has_ticket, drop_ticket, &hs, server_ctx, client_ctx,     \
      serve_one, connect_one, SERVER_FREE, CLIENT_FREE

/* The two in-memory pipes of a cell's handshake (client to server, server to client) as the first
 * member of a plugin's state: tls_plugin_transport, tls_plugin_written and tls_plugin_pending are
 * then its tls_kit_lib's transport, written and pending, and its state_free calls
 * tls_plugin_pipes_free. */
typedef struct tls_plugin_pipes {
  tls_kit_pipe c2s, s2c;
} tls_plugin_pipes;
int tls_plugin_transport(void *state, char *err, size_t errlen);
size_t tls_plugin_written(void *state, int server);
size_t tls_plugin_pending(void *state);
void tls_plugin_pipes_free(tls_plugin_pipes *io);

const cb_alg *tls_plugin_alg_at(size_t i);
cb_status tls_plugin_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen);
int tls_plugin_cell_run(cb_cell *c);
int tls_plugin_cell_prepare(cb_cell *c, uint64_t n);
const uint8_t *tls_plugin_cell_output(const cb_cell *c, size_t *len);
const char *tls_plugin_cell_error(const cb_cell *c);
void tls_plugin_cell_free(cb_cell *c);
size_t tls_plugin_notes(const char *provider, const char **notes, size_t max);
int tls_plugin_regenerates(void);
uint64_t tls_plugin_untimed_ns(cb_cell *c);

/* The table of a plugin with TLS cells: name, id, language, init (or NULL), library_name,
 * library_version, keypair and free_buf (or NULL). */
#define TLS_PLUGIN_TABLE(NAME, ID, LANGUAGE, INIT, LIBRARY_NAME, LIBRARY_VERSION, KEYPAIR,         \
                         FREE_BUF)                                                                 \
  {                                                                                                \
    CB_PROVIDER_ABI_VERSION, sizeof(cb_provider), NAME, ID, LANGUAGE, CB_COMPILER, NULL, INIT,     \
        NULL, LIBRARY_NAME, LIBRARY_VERSION, tls_plugin_notes, tls_plugin_alg_at,                  \
        tls_plugin_cell_new, tls_plugin_cell_run, tls_plugin_cell_prepare, tls_plugin_cell_output, \
        NULL, tls_plugin_cell_error, tls_plugin_cell_free, KEYPAIR, FREE_BUF,                      \
        tls_plugin_regenerates, tls_plugin_untimed_ns                                              \
  }

#endif
