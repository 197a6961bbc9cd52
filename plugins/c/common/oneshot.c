/* One-shot cells (oneshot.h): length checks, the output buffer, and the table's functions.
 * `noop` is the generic driver's own (drivers/c/src/ops_plugin.c), not a plugin's. */
#include "oneshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const oneshot_alg *def_named(const char *name) {
  for (size_t i = 0; i < oneshot_nalgs; i++)
    if (strcmp(oneshot_algs[i].alg.name, name) == 0)
      return &oneshot_algs[i];
  return NULL;
}

/* The catalogue with the lengths each entry requires declared (cb_alg.key_len ...): the driver
 * checks them before a cell is made, so cell_new does not. Made at the first call, after init. */
const cb_alg *oneshot_alg_at(size_t i) {
  static cb_alg *algs;
  if (algs == NULL && (algs = calloc(oneshot_nalgs + 1, sizeof *algs)) != NULL)
    for (size_t k = 0; k < oneshot_nalgs; k++) {
      const oneshot_alg *d = &oneshot_algs[k];
      cb_alg *a = &algs[k];
      *a = d->alg;
      a->key_len = (uint32_t)d->key_len;
      a->iv_len = (uint32_t)d->iv_len;
      a->block = (uint32_t)d->block;
      a->tag_len = strcmp(a->ops[0], "seal") == 0 ? CB_TAG_LEN : 0;
      a->out_len = strcmp(a->ops[0], "hash") == 0 || strcmp(a->ops[0], "mac") == 0
                       ? (uint32_t)d->out_len
                       : 0;
    }
  return algs != NULL && i < oneshot_nalgs ? &algs[i] : NULL;
}

int oneshot_fail(oneshot_cell *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cb_kit_verr(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return CB_FAIL;
}

int oneshot_ctx(oneshot_cell *c, size_t size) {
  c->ctx = calloc(1, size);
  return c->ctx != NULL ? 0 : oneshot_fail(c, "out of memory");
}

void oneshot_free_ctx(oneshot_cell *c) { free(c->ctx); }

cb_status oneshot_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {
  const oneshot_alg *d = def_named(p->alg);
  if (d == NULL)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "%s", p->alg);
  size_t op = 0;
  while (d->alg.ops[op] != NULL && strcmp(d->alg.ops[op], p->op) != 0)
    op++;
  if (d->alg.ops[op] == NULL)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "%s %s", p->alg, p->op);
  if (p->chunk > 0)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "streaming (chunk %zu) of %s", p->chunk,
                         p->alg);
  /* key, IV, block and an open shorter than its tag: the driver has refused those already */
  int open = strcmp(p->op, "open") == 0, seal = strcmp(p->op, "seal") == 0;
  int kdf = !d->alg.pk && strcmp(p->op, "derive") == 0; /* HKDF: the case's size, else 72 */
  size_t out_len = kdf                                         ? (p->out_len ? p->out_len : 72)
                   : d->alg.pk && strcmp(p->op, "verify") == 0 ? 1
                   : d->out_len                                ? d->out_len
                   : seal                                      ? p->msg_len + CB_TAG_LEN
                   : open                                      ? p->msg_len - CB_TAG_LEN
                                                               : p->msg_len;
  oneshot_cell *c = calloc(1, sizeof *c);
  if (c == NULL || (c->out = malloc(out_len ? out_len : 1)) == NULL) {
    free(c);
    return cb_kit_refuse(err, errlen, CB_ERROR, "out of memory");
  }
  c->def = d;
  c->op = op;
  c->p = *p;
  c->out_len = out_len;
  if (d->setup != NULL && d->setup(c) != 0) {
    cb_kit_err(err, errlen, "%s", c->err[0] ? c->err : "key set-up failed");
    oneshot_cell_free((cb_cell *)c);
    return CB_ERROR;
  }
  *cell = (cb_cell *)c;
  return CB_OK;
}

int oneshot_cell_run(cb_cell *cell) {
  oneshot_cell *c = (oneshot_cell *)cell;
  int r = c->def->run[c->op](c);
  if (r != 0)
    return r < 0 ? r : CB_FAIL;
  return c->out_len ? c->out[0] : 0;
}

const uint8_t *oneshot_cell_output(const cb_cell *cell, size_t *len) {
  const oneshot_cell *c = (const oneshot_cell *)cell;
  *len = c->out_len;
  return c->out;
}

const char *oneshot_cell_error(const cb_cell *cell) { return ((const oneshot_cell *)cell)->err; }

int oneshot_alloc(uint8_t **buf, size_t *len, size_t n) {
  *buf = malloc(n);
  *len = n;
  return *buf != NULL ? 0 : -1;
}

cb_status oneshot_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                          size_t *priv_len, char *err, size_t errlen) {
  const oneshot_alg *d = def_named(alg);
  if (d == NULL || d->keypair == NULL)
    return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, "keypair %s", alg);
  *pub = *priv = NULL;
  if (d->keypair(pub, pub_len, priv, priv_len, err, errlen) == 0)
    return CB_OK;
  free(*pub);
  free(*priv);
  *pub = *priv = NULL;
  return CB_ERROR;
}

void oneshot_free_buf(uint8_t *buf, size_t len) {
  (void)len;
  free(buf);
}

void oneshot_cell_free(cb_cell *cell) {
  oneshot_cell *c = (oneshot_cell *)cell;
  if (c == NULL)
    return;
  if (c->def != NULL && c->def->cleanup != NULL)
    c->def->cleanup(c);
  free(c->out);
  free(c);
}
