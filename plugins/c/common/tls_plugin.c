/* The tls13-* cells and the private TLS entry of a plugin (tls_plugin.h). */
#include "tls_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../drivers/c/src/tls_iface.h"

#define TICKET_MAX_AGE_NS (60ull * 1000000000ull) /* a -resume cell's ticket is remade after */
#define MAX_TLS 50                                /* 5 groups x 5 auths, full and resumed */

/* A TLS cell. Its first member tells it from the plugin's other cells, whose first member is
 * never &tls_tag (a oneshot_cell's is its catalogue entry). */
static const char tls_tag = 0;
typedef struct tls_pcell {
  const void *tag;
  tls_kit_cfg cfg;
  enum tls_kit_side side;
  uint64_t untimed_ns; /* the other side's time, for cell_untimed_ns */
  uint64_t ticket_ns;  /* when the -resume ticket was made */
  tls_kit_hs hs;       /* the last handshake */
  uint8_t exporter[32];
  char report[400];
  char err[300];
  void *state; /* the library's */
} tls_pcell;

static int is_tls(const cb_cell *c) { return c != NULL && *(const void *const *)c == &tls_tag; }

/* ---- catalogue ---- */

static cb_alg tls_algs[MAX_TLS];
static char tls_names[MAX_TLS][64];
static size_t tls_nalgs, base_nalgs;
static int catalogued;

static int have(void *arg, size_t g, size_t a) {
  (void)arg;
  return tls_plugin_def.have(g, a);
}

static void catalogue(void) {
  if (catalogued)
    return;
  tls_nalgs = tls_kit_catalogue(tls_algs, tls_names, MAX_TLS, have, NULL);
  while (tls_plugin_def.base_alg_at != NULL && tls_plugin_def.base_alg_at(base_nalgs) != NULL)
    base_nalgs++;
  catalogued = 1;
}

const cb_alg *tls_plugin_alg_at(size_t i) {
  catalogue();
  if (i < base_nalgs)
    return tls_plugin_def.base_alg_at(i);
  return i - base_nalgs < tls_nalgs ? &tls_algs[i - base_nalgs] : NULL;
}

size_t tls_plugin_notes(const char *provider, const char **notes, size_t max) {
  (void)provider;
  if (max == 0)
    return 0;
  notes[0] = tls_plugin_def.note;
  return 1;
}

/* ---- cells ---- */

static int offered(const char *alg) {
  catalogue();
  for (size_t i = 0; i < tls_nalgs; i++)
    if (strcmp(tls_algs[i].name, alg) == 0)
      return 1;
  return 0;
}

cb_status tls_plugin_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {
  if (strncmp(p->alg, "tls13-", 6) != 0) {
    if (tls_plugin_def.base_cell_new == NULL)
      return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "algorithm %s", p->alg);
    return tls_plugin_def.base_cell_new(p, cell, err, errlen);
  }
  tls_kit_cfg cfg;
  enum tls_kit_side side = tls_kit_side_of(p->op);
  if (!offered(p->alg) || tls_kit_cfg_of(p->alg, &cfg, err, errlen) != 0)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "algorithm %s", p->alg);
  if (side == TLS_SIDE_TRANSPORT)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "operation %s for %s", p->op, p->alg);
  tls_kit_pki *pki = cb_kit_zalloc(sizeof *pki, err, errlen);
  if (pki == NULL || tls_kit_pki_of(p, pki, err, errlen) != 0) {
    free(pki);
    return CB_ERROR;
  }
  tls_pcell *c = cb_kit_zalloc(sizeof *c, err, errlen);
  if (c != NULL)
    c->state = cb_kit_zalloc(tls_plugin_def.state_size, err, errlen);
  if (c == NULL || c->state == NULL) {
    free(pki);
    free(c);
    return CB_ERROR;
  }
  c->tag = &tls_tag;
  c->cfg = cfg;
  c->side = side;
  int rc = tls_plugin_def.state_init(c->state, &cfg, pki, err, errlen);
  free(pki);
  if (rc != 0) {
    tls_plugin_cell_free((cb_cell *)c);
    return CB_ERROR;
  }
  *cell = (cb_cell *)c;
  return CB_OK;
}

int tls_plugin_cell_prepare(cb_cell *cell, uint64_t n) {
  (void)n;
  tls_pcell *c = (tls_pcell *)cell;
  if (!is_tls(cell) || !c->cfg.resume ||
      (tls_plugin_def.has_ticket(c->state) && tls_kit_now_ns() - c->ticket_ns < TICKET_MAX_AGE_NS))
    return 0;
  tls_plugin_def.drop_ticket(c->state);
  tls_kit_clock k;
  tls_kit_clock_start(&k, TLS_SIDE_BOTH); /* prepare is outside the timed region anyway */
  int rc = tls_kit_handshake(tls_plugin_def.hs, c->state, &c->cfg, &k, 1, &c->hs, c->exporter,
                             c->err, sizeof c->err);
  c->ticket_ns = tls_kit_now_ns();
  return rc >= 0 && tls_plugin_def.has_ticket(c->state) ? 0 : -1;
}

int tls_plugin_cell_run(cb_cell *cell) {
  if (!is_tls(cell))
    return tls_plugin_def.base_cell_run(cell);
  tls_pcell *c = (tls_pcell *)cell;
  if (c->cfg.resume && !tls_plugin_def.has_ticket(c->state)) {
    cb_kit_err(c->err, sizeof c->err, "tls: no ticket prepared");
    return CB_FAIL;
  }
  tls_kit_clock k;
  tls_kit_clock_start(&k, c->side);
  int rc = tls_kit_handshake(tls_plugin_def.hs, c->state, &c->cfg, &k, 0, &c->hs, c->exporter,
                             c->err, sizeof c->err);
  c->untimed_ns += k.untimed;
  return rc >= 0 ? rc : CB_FAIL;
}

const uint8_t *tls_plugin_cell_output(const cb_cell *cell, size_t *len) {
  if (!is_tls(cell))
    return tls_plugin_def.base_cell_output(cell, len);
  const tls_pcell *c = (const tls_pcell *)cell;
  *len = sizeof c->exporter;
  return c->exporter;
}

const char *tls_plugin_cell_error(const cb_cell *cell) {
  if (!is_tls(cell))
    return tls_plugin_def.base_cell_error(cell);
  const tls_pcell *c = (const tls_pcell *)cell;
  return c->err[0] ? c->err : "tls: failed";
}

void tls_plugin_cell_free(cb_cell *cell) {
  if (cell == NULL)
    return;
  if (!is_tls(cell)) {
    tls_plugin_def.base_cell_free(cell);
    return;
  }
  tls_pcell *c = (tls_pcell *)cell;
  if (c->state != NULL)
    tls_plugin_def.state_free(c->state);
  free(c->state);
  free(c);
}

int tls_plugin_regenerates(void) { return 0; }

uint64_t tls_plugin_untimed_ns(cb_cell *cell) {
  if (!is_tls(cell))
    return 0;
  tls_pcell *c = (tls_pcell *)cell;
  uint64_t t = c->untimed_ns;
  c->untimed_ns = 0;
  return t;
}

/* ---- the driver's private TLS entry ---- */

static const char *report(cb_cell *cell) {
  if (!is_tls(cell))
    return NULL;
  tls_pcell *c = (tls_pcell *)cell;
  tls_kit_report_json(c->report, sizeof c->report, &c->hs);
  return c->report;
}

static int cfg_offered(const char *alg, tls_kit_cfg *cfg, char *err, size_t errlen) {
  if (!offered(alg)) {
    cb_kit_err(err, errlen, "not offered: algorithm %s", alg);
    return -1;
  }
  return tls_kit_cfg_of(alg, cfg, err, errlen);
}

static int serve(const char *alg, uint32_t connections, uint32_t timeout_ms, const char *chain,
                 const char *key, int *port, char *err, size_t errlen) {
  tls_kit_cfg cfg;
  void *ctx;
  if (cfg_offered(alg, &cfg, err, errlen) != 0 ||
      (ctx = tls_plugin_def.server_ctx(&cfg, chain, key, err, errlen)) == NULL)
    return -1;
  return tls_kit_serve(tls_plugin_def.serve_one, ctx, tls_plugin_def.server_free, connections,
                       timeout_ms, port, err, errlen);
}

static char *connect_(const char *alg, int port, uint32_t connections, uint32_t timeout_ms,
                      const char *ca, const char *server_name, char *err, size_t errlen) {
  tls_kit_cfg cfg;
  void *ctx;
  if (cfg_offered(alg, &cfg, err, errlen) != 0 ||
      (ctx = tls_plugin_def.client_ctx(&cfg, ca, server_name, err, errlen)) == NULL)
    return NULL;
  char *out =
      tls_kit_connect(tls_plugin_def.connect_one, ctx, port, connections, timeout_ms, err, errlen);
  tls_plugin_def.client_free(ctx);
  return out;
}

static void free_text(char *text) { free(text); }

static const cb_tls_iface iface = {CB_TLS_IFACE_VERSION, report,   serve,
                                   tls_kit_result,       connect_, free_text};

CB_PROVIDER_EXPORT const cb_tls_iface *cryptobench_c_tls(void) { return &iface; }

int tls_plugin_transport(void *state, char *err, size_t errlen) {
  (void)err, (void)errlen;
  tls_plugin_pipes *io = state;
  tls_kit_pipe_reset(&io->c2s);
  tls_kit_pipe_reset(&io->s2c);
  return 0;
}

size_t tls_plugin_written(void *state, int server) {
  const tls_plugin_pipes *io = state;
  return server ? io->s2c.written : io->c2s.written;
}

size_t tls_plugin_pending(void *state) {
  tls_plugin_pipes *io = state;
  return tls_kit_pipe_pending(&io->c2s) + tls_kit_pipe_pending(&io->s2c);
}

void tls_plugin_pipes_free(tls_plugin_pipes *io) {
  tls_kit_pipe_free(&io->c2s);
  tls_kit_pipe_free(&io->s2c);
}
