#define _POSIX_C_SOURCE 200809L
#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

/* Field `name` of obj into *v: 1 when present; absent, 0 when optional, -1 with the message when
 * required. */
static int req_field(json_t *obj, const char *name, int required, json_t **v, char *err,
                     size_t errlen) {
  *v = json_object_get(obj, name);
  if (*v != NULL)
    return 1;
  if (required)
    snprintf(err, errlen, "missing field: %s", name);
  return required ? -1 : 0;
}

int req_string(json_t *obj, const char *name, int required, const char **out, char *err,
               size_t errlen) {
  json_t *v;
  int present = req_field(obj, name, required, &v, err, errlen);
  if (present <= 0) {
    *out = NULL;
    return present;
  }
  if (!json_is_string(v)) {
    snprintf(err, errlen, "field %s must be a string", name);
    return -1;
  }
  *out = json_string_value(v);
  return 0;
}

/* A non-negative integer no larger than max (integral reals are accepted too). */
int req_uint(json_t *obj, const char *name, int required, uint64_t dflt, uint64_t max,
             uint64_t *out, char *err, size_t errlen) {
  json_t *v;
  int present = req_field(obj, name, required, &v, err, errlen);
  if (present <= 0) {
    *out = dflt;
    return present;
  }
  double d;
  if (json_is_integer(v)) {
    json_int_t i = json_integer_value(v);
    if (i < 0 || (uint64_t)i > max) {
      snprintf(err, errlen, "field %s out of range: %lld (0 .. %llu)", name, (long long)i,
               (unsigned long long)max);
      return -1;
    }
    *out = (uint64_t)i;
    return 0;
  }
  if (json_is_real(v) && (d = json_real_value(v)) >= 0 && d <= (double)max &&
      d == (double)(uint64_t)d) {
    *out = (uint64_t)d;
    return 0;
  }
  snprintf(err, errlen, "field %s must be an integer in 0 .. %llu", name, (unsigned long long)max);
  return -1;
}

/* An optional hex field ("" when absent) decoded into a fresh allocation (free()). */
int req_hex(json_t *obj, const char *name, uint8_t **out, size_t *len, char *err, size_t errlen) {
  const char *s;
  if (req_string(obj, name, 0, &s, err, errlen) != 0)
    return -1;
  if (hex_decode(s != NULL ? s : "", out, len) != 0) {
    snprintf(err, errlen, "field %s is not valid hex", name);
    return -1;
  }
  return 0;
}

/* An optional hex field: *out stays NULL (and *len 0) when the field is absent, so presence can be
 * told apart from "" (a fresh 1-byte allocation then). */
int req_hex_opt(json_t *obj, const char *name, uint8_t **out, size_t *len, char *err,
                size_t errlen) {
  *out = NULL;
  *len = 0;
  if (json_object_get(obj, name) == NULL)
    return 0;
  return req_hex(obj, name, out, len, err, errlen);
}

/* An optional boolean field (false when absent). */
int req_bool(json_t *obj, const char *name, int *out, char *err, size_t errlen) {
  json_t *v = json_object_get(obj, name);
  *out = 0;
  if (v == NULL)
    return 0;
  if (!json_is_boolean(v)) {
    snprintf(err, errlen, "field %s must be true or false", name);
    return -1;
  }
  *out = json_is_true(v);
  return 0;
}

/* A case's byte field (hex): where the cell's parameters keep the bytes and their length; an
 * optional one stays NULL when absent (the public-key ones: presence is told from ""). */
typedef struct {
  const char *name;
  const uint8_t **at;
  size_t *len;
  int optional;
} req_bytes_field;

/* Fields f[0..n) of case cs, each into a fresh owned[i] that *f[i].at borrows; 0, or -1 with the
 * first bad field's message. */
static int req_bytes(json_t *cs, const req_bytes_field *f, size_t n, uint8_t **owned, char *err,
                     size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    int r = f[i].optional ? req_hex_opt(cs, f[i].name, &owned[i], f[i].len, err, errlen)
                          : req_hex(cs, f[i].name, &owned[i], f[i].len, err, errlen);
    if (r != 0)
      return -1;
    *f[i].at = owned[i];
  }
  return 0;
}

int req_case_parse(const char *alg, const char *op, json_t *cs, req_case *out, char *err,
                   size_t errlen) {
  memset(out, 0, sizeof *out);
  if (!json_is_object(cs)) {
    snprintf(err, errlen, "case is not an object");
    return -1;
  }
  /* version 3: HKDF's ikm/salt/info (they become msg/key/iv, as in a bench cell) and the
   * handshake case's secrets, all optional hex */
  static const char *const v3_names[] = {"ikm",
                                         "salt",
                                         "info",
                                         "relay_id",
                                         "relay_b_secret",
                                         "client_x_secret",
                                         "relay_y_secret",
                                         "client_mlkem_seed",
                                         "mlkem_encaps_m"};
  enum { V3_N = sizeof v3_names / sizeof v3_names[0] };
  ops_params *p = &out->p;
  /* in the order they are read: the first bad field is the one named */
  const req_bytes_field symmetric[] = {{"key", &p->key, &p->key_len, 0},
                                       {"iv", &p->iv, &p->iv_len, 0},
                                       {"aad", &p->aad, &p->aad_len, 0},
                                       {"msg", &p->msg, &p->msg_len, 0}};
  const req_bytes_field public_key[] = {
      {"public", &p->pub, &p->pub_len, 1}, {"private", &p->priv, &p->priv_len, 1},
      {"sig", &p->sig, &p->sig_len, 1},    {"seed", &p->seed, &p->seed_len, 1},
      {"m", &p->m, &p->m_len, 1},          {"ctx", &p->ctx, &p->ctx_len, 1}};
  enum { N_SYM = sizeof symmetric / sizeof symmetric[0] };
  enum { N_BYTES = N_SYM + sizeof public_key / sizeof public_key[0] };
  uint8_t **v3 = out->owned + N_BYTES; /* owned[0..N_BYTES): the fields above, in order */
  size_t v3_len[V3_N] = {0};
  uint64_t counter = 0, out_len = 0, hs_key_len = 0;
  int deterministic = 0;
  for (size_t i = 0; i < V3_N; i++)
    if (req_hex_opt(cs, v3_names[i], &v3[i], &v3_len[i], err, errlen) != 0)
      goto fail;
  if ((op == NULL && req_string(cs, "op", 1, &op, err, errlen) != 0) ||
      req_uint(cs, "size", 0, 0, SIZE_MAX / 2, &out_len, err, errlen) != 0 ||
      req_uint(cs, "key_len", 0, 0, SIZE_MAX / 2, &hs_key_len, err, errlen) != 0 ||
      req_bytes(cs, symmetric, N_SYM, out->owned, err, errlen) != 0 ||
      req_uint(cs, "counter", 0, 0, UINT32_MAX, &counter, err, errlen) != 0 ||
      req_bytes(cs, public_key, N_BYTES - N_SYM, out->owned + N_SYM, err, errlen) != 0 ||
      req_bool(cs, "deterministic", &deterministic, err, errlen) != 0)
    goto fail;
  out->p.struct_size = sizeof(ops_params);
  out->p.alg = alg;
  out->p.op = op;
  out->p.counter = (uint32_t)counter;
  out->p.deterministic = deterministic;
  out->p.out_len = (size_t)(hs_key_len != 0 ? hs_key_len : out_len);
  out->p.ext = out->ext;
  /* the handshake case's secrets travel as extensions, under their protocol names */
  size_t n_ext = 0;
  for (size_t i = 3; i < V3_N; i++)
    if (v3[i] != NULL)
      out->ext[n_ext++] = (cb_ext){v3_names[i], v3[i], v3_len[i]};
  if (v3[0] != NULL) /* HKDF: IKM = msg, salt = key, info = iv */
    out->p.msg = v3[0], out->p.msg_len = v3_len[0];
  if (v3[1] != NULL)
    out->p.key = v3[1], out->p.key_len = v3_len[1];
  if (v3[2] != NULL)
    out->p.iv = v3[2], out->p.iv_len = v3_len[2];
  return 0;
fail:
  req_case_free(out);
  memset(&out->p, 0, sizeof out->p); /* nothing borrowed from the freed buffers */
  return -1;
}

void req_case_free(req_case *c) {
  for (size_t i = 0; i < REQ_CASE_BUFFERS; i++) {
    free(c->owned[i]);
    c->owned[i] = NULL;
  }
}
