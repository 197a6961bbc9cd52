/* The compatibility shim for plugins built against ABI version 1 (include/cryptobench/v1/
 * provider.h, docs/plugin-abi.md "Version 1"): their table becomes a version-2 table the loader
 * (ops_plugin.c) checks and calls like any other. Functions whose types did not change are
 * called directly (cell_run, the timed call, gains no indirection); the others pass through
 * here: cell_new (a v1 cb_params with the handshake secrets as fields, message prefixes read as
 * statuses), keypair (malloc()ed buffers: free_buf is free), init, and the two optional
 * functions v1 exported as extra symbols. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* version 1's own names become cb1_ ones, so both headers fit in this file (what they share,
 * cb_tap and cb_cell among it, is <cryptobench/base.h>, included once) */
#define cb_alg cb1_alg
#define cb_params cb1_params
#define cb_provider cb1_provider
#define cb_regenerates_fn cb1_regenerates_fn
#define cb_untimed_fn cb1_untimed_fn
#define cb_provider_entry cb1_provider_entry
#include <cryptobench/v1/provider.h>
static const size_t V1_SIZE = sizeof(cb1_provider), V1_0_SIZE = CB_PROVIDER_SIZE_V1_0;
static const char *const V1_REGENERATES = CB_REGENERATES_ENTRY, *const V1_UNTIMED =
                                                                    CB_UNTIMED_ENTRY;
#undef cb_alg
#undef cb_params
#undef cb_provider
#undef cb_regenerates_fn
#undef cb_untimed_fn
#undef cb_provider_entry
#undef CB_PROVIDER_ABI_VERSION
#undef CB_UNSUPPORTED
#undef CB_REGENERATES_ENTRY
#undef CB_UNTIMED_ENTRY
#undef CB_PROVIDER_SIZE_V1_0

#include "ops_plugin.h"
#include <cryptobench/kit.h>

/* The layout version 1 froze (docs/plugin-abi.md, "Struct sizes"): a change here would break
 * every plugin built against it. */
_Static_assert(sizeof(cb1_alg) == 64 && sizeof(cb1_params) == 312 && sizeof(cb1_provider) == 152,
               "ABI version 1's layout");

static const cb1_provider *V1;
/* v1 algorithms widened to v2's cb_alg (the lengths undeclared: v1 plugins check their own) */
static cb_alg *algs;
static size_t nalgs;

/* A v1 cell may keep the cb_params pointer it was given (v1's "borrowed until cell_free"), so
 * each cell's v1 parameters live beside it until cell_free. */
typedef struct kept {
  struct kept *next;
  cb_cell *cell;
  cb1_params p;
} kept;
static kept *cells_kept;

static cb_status v1_init(char *err, size_t errlen) {
  return V1->init(err, errlen) == 0 ? CB_OK : CB_ERROR;
}

static const cb_alg *v1_alg_at(size_t i) {
  if (algs == NULL) { /* after init: the catalogue may be filled there */
    while (V1->alg_at(nalgs) != NULL)
      nalgs++;
    algs = calloc(nalgs + 1, sizeof *algs);
    if (algs == NULL)
      return NULL;
    for (size_t k = 0; k < nalgs; k++)
      memcpy(&algs[k], V1->alg_at(k), sizeof(cb1_alg));
  }
  return i < nalgs ? &algs[i] : NULL;
}

/* v2's handshake extensions back into v1's fields */
static void v1_params(const cb_params *p, cb1_params *q) {
  memset(q, 0, sizeof *q);
  /* every member up to out_len is the same list in both versions, v2 after struct_size */
  memcpy(&q->alg, &p->alg, offsetof(cb1_params, relay_id) - offsetof(cb1_params, alg));
  struct {
    const char *key;
    const uint8_t **v;
    size_t *len;
  } map[] = {{"relay_id", &q->relay_id, &q->relay_id_len},
             {"relay_b_secret", &q->relay_b, &q->relay_b_len},
             {"client_x_secret", &q->client_x, &q->client_x_len},
             {"relay_y_secret", &q->relay_y, &q->relay_y_len},
             {"client_mlkem_seed", &q->mlkem_seed, &q->mlkem_seed_len},
             {"mlkem_encaps_m", &q->mlkem_m, &q->mlkem_m_len}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    *map[i].v = cb_ext_get(p, map[i].key, map[i].len);
}
_Static_assert(offsetof(cb1_params, out_len) - offsetof(cb1_params, alg) ==
                   offsetof(cb_params, out_len) - offsetof(cb_params, alg),
               "the members v1 and v2 share are laid out alike");

static cb_status v1_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {
  kept *k = calloc(1, sizeof *k);
  if (k == NULL)
    return cb_kit_refuse(err, errlen, CB_ERROR, "out of memory");
  v1_params(p, &k->p);
  k->cell = V1->cell_new(&k->p, err, errlen);
  if (k->cell == NULL) {
    free(k);
    return cb_kit_status_of_text(err); /* v1 said it in the message's first words */
  }
  k->next = cells_kept, cells_kept = k;
  *cell = k->cell;
  return CB_OK;
}

static void v1_cell_free(cb_cell *cell) {
  for (kept **k = &cells_kept; *k != NULL; k = &(*k)->next)
    if ((*k)->cell == cell) {
      kept *gone = *k;
      *k = gone->next;
      V1->cell_free(gone->cell);
      free(gone);
      return;
    }
  V1->cell_free(cell);
}

static cb_status v1_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                            size_t *priv_len, char *err, size_t errlen) {
  if (V1->keypair(alg, pub, pub_len, priv, priv_len, err, errlen) == 0)
    return CB_OK;
  return cb_kit_status_of_text(err);
}

/* v1's keypair buffers are malloc()ed (its contract) */
static void v1_free_buf(uint8_t *buf, size_t len) {
  (void)len;
  free(buf);
}

static cb1_regenerates_fn v1_regenerates;
static cb1_untimed_fn v1_untimed;

int plugin_v1_adapt(void *handle, const void *raw, const char *file, cb_provider *t, char *err,
                    size_t errlen) {
  V1 = raw;
  /* version 1's table as first released, or with `runtime` appended */
  if (V1->struct_size != V1_0_SIZE && V1->struct_size != V1_SIZE) {
    snprintf(err, errlen,
             "plugin %s: its cb_provider is %u bytes, ABI version 1's is %zu (or %zu without "
             "runtime; built against a modified header?)",
             file, V1->struct_size, V1_SIZE, V1_0_SIZE);
    return -1;
  }
  memset(t, 0, sizeof *t);
  t->abi_version = 1;
  t->struct_size = (uint32_t)sizeof *t;
  t->name = V1->name;
  t->id = V1->id;
  t->language = V1->language;
  /* `runtime` exists only in a table long enough to hold it */
  t->runtime = V1->struct_size == V1_SIZE ? V1->runtime : NULL;
  t->accepts = V1->accepts;
  t->init = V1->init != NULL ? v1_init : NULL;
  t->library_name = V1->library_name;
  t->library_version = V1->library_version;
  t->notes = V1->notes;
  t->alg_at = V1->alg_at != NULL ? v1_alg_at : NULL;
  t->cell_new = V1->cell_new != NULL ? v1_cell_new : NULL;
  t->cell_run = V1->cell_run; /* the same types in both versions (base.h) */
  t->cell_prepare = V1->cell_prepare;
  t->cell_output = V1->cell_output;
  t->cell_tap = V1->cell_tap;
  t->cell_error = V1->cell_error;
  t->cell_free = V1->cell_free != NULL ? v1_cell_free : NULL;
  if (V1->keypair != NULL)
    t->keypair = v1_keypair, t->free_buf = v1_free_buf;
  /* v1's optional exports: both, or neither */
  *(void **)(&v1_regenerates) = dlsym(handle, V1_REGENERATES);
  *(void **)(&v1_untimed) = dlsym(handle, V1_UNTIMED);
  if (v1_regenerates != NULL && v1_untimed != NULL)
    t->regenerates_ciphertext = v1_regenerates, t->cell_untimed_ns = v1_untimed;
  return 0;
}
