/* The public-key bench set-up (docs/protocol.md, version 2): what a public-key bench cell needs
 * besides the message, made outside the timed region once per cell from the plugin's own
 * keypair and cells; protocol.c's bench calls pk_prepare. */
#include "pk_bench.h"

#include <stdlib.h>
#include <string.h>

#include "protocol.h"

void pk_material_free(pk_material *m) {
  free(m->pub);
  free(m->priv);
  free(m->peer_pub);
  free(m->peer_priv);
  free(m->made);
}

/* One operation of a helper cell; its output copied into m->made. 0, or -1 with *res set. */
static int pk_make(const ops_params *hp, pk_material *m, json_t **res) {
  char err[300] = "";
  ops_cell *c = ops_cell_new(hp, err, sizeof err);
  if (c == NULL) {
    *res = cb_error("preparing the cell with a %s operation: %s", hp->op, err);
    return -1;
  }
  int r = ops_cell_run(c), rc = -1;
  if (r < 0) {
    *res = cb_error("preparing the cell with a %s operation: %s%s", hp->op,
                    r == OPS_REJECTED ? "rejected: " : "", ops_cell_error(c));
  } else {
    size_t n;
    const uint8_t *out = ops_cell_output(c, &n);
    m->made = malloc(n > 0 ? n : 1);
    if (m->made == NULL) {
      *res = cb_error("out of memory");
    } else {
      memcpy(m->made, out, n);
      m->made_len = n;
      rc = 0;
    }
  }
  ops_cell_free(c);
  return rc;
}

/* The bytes of a KEM's shared key, which encaps puts after the ciphertext (docs/protocol.md;
 * algorithms.py's "shared secret"): 32 but for the TLS hybrids (the two secrets concatenated) and
 * HQC (64 in liboqs and the 2025 specification). */
static size_t kem_key_len(const char *alg) {
  if (strcmp(alg, "secp384r1mlkem1024") == 0)
    return 80;
  if (strcmp(alg, "x25519mlkem768") == 0 || strcmp(alg, "secp256r1mlkem768") == 0 ||
      strncmp(alg, "hqc-", 4) == 0)
    return 64;
  return 32;
}

/* Fill the key fields of a public-key bench cell's parameters (protocol.md, version 2: keys,
 * peer keys, signatures and ciphertexts are made once per cell, outside the timed region).
 * 0, or -1 with *res set. */
int pk_prepare(ops_params *p, pk_material *m, json_t **res) {
  char err[300] = "";
  const char *op = p->op;
  if (strcmp(op, "keygen") == 0)
    return 0; /* a fresh random key pair each operation */
  int known = strcmp(op, "sign") == 0 || strcmp(op, "verify") == 0 || strcmp(op, "derive") == 0 ||
              strcmp(op, "encrypt") == 0 || strcmp(op, "decrypt") == 0 ||
              strcmp(op, "encaps") == 0 || strcmp(op, "decaps") == 0;
  if (!known)
    return 0; /* ops_cell_new() answers the unknown operation */
  if (ops_keypair(p->alg, &m->pub, &m->pub_len, &m->priv, &m->priv_len, err, sizeof err) != 0) {
    *res = cb_error("preparing a key pair: %s", err);
    return -1;
  }
  ops_params hp = {
      .struct_size = sizeof(ops_params), .alg = p->alg, .msg = p->msg, .msg_len = p->msg_len};
  if (strcmp(op, "sign") == 0) {
    p->priv = m->priv, p->priv_len = m->priv_len;
  } else if (strcmp(op, "verify") == 0) {
    hp.op = "sign", hp.priv = m->priv, hp.priv_len = m->priv_len;
    if (pk_make(&hp, m, res) != 0)
      return -1;
    p->pub = m->pub, p->pub_len = m->pub_len, p->sig = m->made, p->sig_len = m->made_len;
  } else if (strcmp(op, "derive") == 0) {
    if (ops_keypair(p->alg, &m->peer_pub, &m->peer_pub_len, &m->peer_priv, &m->peer_priv_len, err,
                    sizeof err) != 0) {
      *res = cb_error("preparing the peer's key pair: %s", err);
      return -1;
    }
    p->priv = m->priv, p->priv_len = m->priv_len;
    p->pub = m->peer_pub, p->pub_len = m->peer_pub_len;
  } else if (strcmp(op, "encrypt") == 0 || strcmp(op, "encaps") == 0) {
    p->pub = m->pub, p->pub_len = m->pub_len;
  } else { /* decrypt, decaps: the ciphertext of an encrypt / encaps of this module */
    int kem = strcmp(op, "decaps") == 0;
    hp.op = kem ? "encaps" : "encrypt", hp.pub = m->pub, hp.pub_len = m->pub_len;
    if (kem)
      hp.msg_len = 0;
    if (pk_make(&hp, m, res) != 0)
      return -1;
    size_t kl = kem ? kem_key_len(p->alg) : 0;
    if (kem && m->made_len <= kl) {
      *res = cb_error("preparing the cell: encaps gave %zu bytes", m->made_len);
      return -1;
    }
    p->priv = m->priv, p->priv_len = m->priv_len;
    p->msg = m->made, p->msg_len = m->made_len - kl;
  }
  return 0;
}
