#define _POSIX_C_SOURCE 200809L
#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

int req_string(json_t *obj, const char *name, int required, const char **out, char *err,
               size_t errlen) {
  json_t *v = json_object_get(obj, name);
  if (v == NULL) {
    if (!required) {
      *out = NULL;
      return 0;
    }
    snprintf(err, errlen, "missing field: %s", name);
    return -1;
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
  json_t *v = json_object_get(obj, name);
  if (v == NULL) {
    if (!required) {
      *out = dflt;
      return 0;
    }
    snprintf(err, errlen, "missing field: %s", name);
    return -1;
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
  uint8_t **v3 = out->owned + 10; /* owned[0..9]: key iv aad msg public private sig seed m ctx */
  size_t v3_len[V3_N] = {0};
  uint8_t **key = &out->owned[0], **iv = &out->owned[1], **aad = &out->owned[2],
          **msg = &out->owned[3], **pub = &out->owned[4], **priv = &out->owned[5],
          **sig = &out->owned[6], **seed = &out->owned[7], **m = &out->owned[8],
          **ctx = &out->owned[9];
  size_t key_len = 0, iv_len = 0, aad_len = 0, msg_len = 0;
  size_t pub_len = 0, priv_len = 0, sig_len = 0, seed_len = 0, m_len = 0, ctx_len = 0;
  uint64_t counter = 0, out_len = 0, hs_key_len = 0;
  int deterministic = 0;
  for (size_t i = 0; i < V3_N; i++)
    if (req_hex_opt(cs, v3_names[i], &v3[i], &v3_len[i], err, errlen) != 0)
      goto fail;
  if ((op == NULL && req_string(cs, "op", 1, &op, err, errlen) != 0) ||
      req_uint(cs, "size", 0, 0, SIZE_MAX / 2, &out_len, err, errlen) != 0 ||
      req_uint(cs, "key_len", 0, 0, SIZE_MAX / 2, &hs_key_len, err, errlen) != 0 ||
      req_hex(cs, "key", key, &key_len, err, errlen) != 0 ||
      req_hex(cs, "iv", iv, &iv_len, err, errlen) != 0 ||
      req_hex(cs, "aad", aad, &aad_len, err, errlen) != 0 ||
      req_hex(cs, "msg", msg, &msg_len, err, errlen) != 0 ||
      req_uint(cs, "counter", 0, 0, UINT32_MAX, &counter, err, errlen) != 0 ||
      req_hex_opt(cs, "public", pub, &pub_len, err, errlen) != 0 ||
      req_hex_opt(cs, "private", priv, &priv_len, err, errlen) != 0 ||
      req_hex_opt(cs, "sig", sig, &sig_len, err, errlen) != 0 ||
      req_hex_opt(cs, "seed", seed, &seed_len, err, errlen) != 0 ||
      req_hex_opt(cs, "m", m, &m_len, err, errlen) != 0 ||
      req_hex_opt(cs, "ctx", ctx, &ctx_len, err, errlen) != 0 ||
      req_bool(cs, "deterministic", &deterministic, err, errlen) != 0)
    goto fail;
  out->p = (ops_params){.struct_size = sizeof(ops_params),
                        .alg = alg,
                        .op = op,
                        .key = *key,
                        .key_len = key_len,
                        .iv = *iv,
                        .iv_len = iv_len,
                        .counter = (uint32_t)counter,
                        .aad = *aad,
                        .aad_len = aad_len,
                        .msg = *msg,
                        .msg_len = msg_len,
                        .pub = *pub,
                        .pub_len = pub_len,
                        .priv = *priv,
                        .priv_len = priv_len,
                        .sig = *sig,
                        .sig_len = sig_len,
                        .seed = *seed,
                        .seed_len = seed_len,
                        .m = *m,
                        .m_len = m_len,
                        .ctx = *ctx,
                        .ctx_len = ctx_len,
                        .deterministic = deterministic,
                        .out_len = (size_t)(hs_key_len != 0 ? hs_key_len : out_len),
                        .ext = out->ext};
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
  return -1;
}

void req_case_free(req_case *c) {
  for (size_t i = 0; i < REQ_CASE_BUFFERS; i++) {
    free(c->owned[i]);
    c->owned[i] = NULL;
  }
}
