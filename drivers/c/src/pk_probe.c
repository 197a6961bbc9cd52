/* The sign-then-verify probe the public-key halves share (pk_probe.h). */
#include "pk_probe.h"

int pk_probe_signs(const char *alg, const uint8_t *pub, size_t pub_len, const uint8_t *priv,
                   size_t priv_len, char *err, size_t errlen) {
  static const uint8_t msg[3] = {'a', 'b', 'c'};
  ops_params sp = {
      .alg = alg, .op = "sign", .msg = msg, .msg_len = 3, .priv = priv, .priv_len = priv_len};
  pk_cell *s = pk_cell_new(&sp, err, errlen);
  size_t sig_len = 0;
  const uint8_t *sig = NULL;
  int ok = s != NULL && pk_cell_run(s) >= 0 && (sig = pk_cell_output(s, &sig_len)) != NULL &&
           sig_len > 0;
  if (ok) {
    ops_params vp = {.alg = alg,
                     .op = "verify",
                     .msg = msg,
                     .msg_len = 3,
                     .pub = pub,
                     .pub_len = pub_len,
                     .sig = sig,
                     .sig_len = sig_len};
    pk_cell *v = pk_cell_new(&vp, err, errlen);
    ok = v != NULL && pk_cell_run(v) == 1;
    pk_cell_free(v);
  }
  pk_cell_free(s);
  return ok;
}
