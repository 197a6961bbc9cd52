/* The families' operations and the sign-then-verify probe the public-key halves share
 * (pk_family.h). */
#include "pk_family.h"

#include <stdlib.h>
#include <string.h>

/* each family's operations, in the protocol's order (the hello lists them so) */
static const char *const FAM_OPS[][CB_MAX_OPS + 1] = {
    [F_RSA] = {"keygen"},
    [F_PSS] = {"sign", "verify"},
    [F_PKCS1] = {"sign", "verify"},
    [F_OAEP] = {"encrypt", "decrypt"},
    [F_ECDSA] = {"keygen", "sign", "verify"},
    [F_ECDH] = {"derive"},
    [F_SM2] = {"keygen", "sign", "verify"},
    [F_EDDSA] = {"keygen", "sign", "verify"},
    [F_XDH] = {"keygen", "derive"},
    [F_MLKEM] = {"keygen", "encaps", "decaps"},
    [F_MLDSA] = {"keygen", "sign", "verify"},
    [F_SLHDSA] = {"keygen", "sign", "verify"},
    [F_HYBKEM] = {"keygen", "encaps", "decaps"},
};

int pk_fam_allows(enum pk_fam f, const char *op) {
  for (const char *const *o = FAM_OPS[f]; *o != NULL; o++)
    if (strcmp(op, *o) == 0)
      return 1;
  return 0;
}

void pk_alg_fill(ops_alg *a, const char *name, enum pk_fam f) {
  memset(a, 0, sizeof *a);
  a->name = name;
  a->pk = 1;
  for (size_t i = 0; FAM_OPS[f][i] != NULL; i++)
    a->ops[i] = FAM_OPS[f][i];
}

static int probe_signs(const char *alg, const uint8_t *pub, size_t pub_len, const uint8_t *priv,
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

int pk_probe_keypair(const char *alg, enum pk_fam f) {
  uint8_t *pub = NULL, *priv = NULL;
  size_t pub_len = 0, priv_len = 0;
  char err[256] = "";
  int ok = pk_keypair(alg, &pub, &pub_len, &priv, &priv_len, err, sizeof err) == 0;
  if (ok && pk_fam_allows(f, "sign"))
    ok = probe_signs(alg, pub, pub_len, priv, priv_len, err, sizeof err);
  free(pub);
  free(priv);
  return ok;
}
