/*
 * Test vectors for a pq-ntor suite from the C implementation, in the format of spec
 * section 9 (the same fields, order and layout as the Go generator's files).
 *
 *   genvectors SUITE              write the file for SUITE to stdout
 *   genvectors -check SUITE FILE  regenerate and compare with FILE (all but comment[0], which
 *                                 names the generator); exit 1 on any difference
 *
 * Every input is DRAW(seed, label, n) (section 9.1); vector n uses seed "<suite>/n" and
 * L = 72, 32, 200. The failure vectors are derived from vector 1 as listed in section 9.3;
 * each is replayed here and must be rejected with the class written to the file.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/opensslv.h>

#include "pqntor.h"
#include "util.h"

static void die(const char *msg) {
  fprintf(stderr, "genvectors: %s\n", msg);
  exit(2);
}

static json_t *jhexv(const uint8_t *p, size_t n) {
  char *h = hex_encode(p, n);
  json_t *j = json_string(h);
  free(h);
  return j;
}

static void set_hex(json_t *obj, const char *key, const uint8_t *p, size_t n) {
  json_object_set_new(obj, key, jhexv(p, n));
}

/* The inputs of one seeded vector. */
typedef struct {
  const pqntor_suite_info *si;
  size_t L;
  uint8_t id[32], b[32], x[32], seed[64], y[32], m[32];
} inputs;

static void draw_inputs(inputs *in, const pqntor_suite_info *si, const char *seed, size_t L) {
  in->si = si;
  in->L = L;
  if (!kat_draw(seed, "relay-id", in->id, si->id_len) ||
      !kat_draw(seed, "relay-onion-key-b", in->b, 32) ||
      !kat_draw(seed, "client-ephemeral-x25519-x", in->x, 32) ||
      !kat_draw(seed, "client-mlkem-seed-d-z", in->seed, 64) ||
      !kat_draw(seed, "relay-ephemeral-x25519-y", in->y, 32) ||
      !kat_draw(seed, "relay-mlkem-encaps-m", in->m, 32))
    die("DRAW failed");
}

/* client_create from (id, B) believed by the client, with the vector's x, d|z. */
static pqntor_client *create(const inputs *in, const uint8_t *id, const uint8_t *B, uint8_t *os,
                             size_t *olen, trace_rec *tr) {
  pqntor_client *st = NULL;
  draw_queue q;
  draw_queue_two(&q, in->x, 32, in->seed, 64);
  pqntor_hooks h = {draw_queue_fn, &q, tr ? trace_rec_fn : NULL, tr};
  *olen = PQNTOR_MAX_ONIONSKIN_LEN;
  if (pqntor_client_create(&st, os, olen, in->si->suite, in->L, id, in->si->id_len, B, &h) !=
          PQNTOR_OK ||
      q.next != 2)
    die("client_create failed");
  return st;
}

/* server_reply with the vector's y, m; returns the pqntor result. */
static int reply(const inputs *in, const pqntor_relay *relay, const uint8_t *os, size_t olen,
                 uint8_t *rep, size_t *rlen, uint8_t *keys, trace_rec *tr) {
  draw_queue q;
  draw_queue_two(&q, in->y, 32, in->m, 32);
  pqntor_hooks h = {draw_queue_fn, &q, tr ? trace_rec_fn : NULL, tr};
  *rlen = PQNTOR_MAX_REPLY_LEN;
  return pqntor_server_reply(relay, in->si->suite, os, olen, rep, rlen, keys, in->L, &h);
}

static const char *intermediate_names[] = {"relay_B",    "client_X",         "client_mlkem_ek",
                                           "relay_Y",    "mlkem_ciphertext", "mlkem_shared_secret",
                                           "exp_X_y",    "exp_X_b",          "secret_input",
                                           "hkdf_salt",  "hkdf_ikm",         "hkdf_info",
                                           "key_seed",   "hmac_verify_key",  "verify",
                                           "auth_input", "hmac_auth_key",    "auth"};

static json_t *vector(const pqntor_suite_info *si, int n, size_t L, inputs *in_out, uint8_t *os_out,
                      size_t *olen_out, uint8_t *rep_out, size_t *rlen_out,
                      pqntor_relay **relay_out) {
  char seed[64];
  snprintf(seed, sizeof seed, "%s/%d", si->name, n);
  inputs *in = in_out;
  draw_inputs(in, si, seed, L);

  pqntor_relay *relay = NULL;
  if (pqntor_relay_new(&relay, in->id, si->id_len, in->b) != PQNTOR_OK)
    die("relay_new");
  trace_rec tc = {0}, tr = {0}, tf = {0};
  uint8_t *keys = malloc(L), *keys_c = malloc(L);
  pqntor_client *st = create(in, in->id, pqntor_relay_public_key(relay), os_out, olen_out, &tc);
  if (reply(in, relay, os_out, *olen_out, rep_out, rlen_out, keys, &tr) != PQNTOR_OK)
    die("server_reply failed");
  pqntor_hooks hf = {NULL, NULL, trace_rec_fn, &tf};
  if (pqntor_client_finish(st, rep_out, *rlen_out, keys_c, L, &hf) != PQNTOR_OK ||
      memcmp(keys, keys_c, L) != 0)
    die("client_finish failed or keys differ");

  json_t *v = json_object(), *jin = json_object(), *jim = json_object(), *jout = json_object();
  char source[96];
  snprintf(source, sizeof source, "DRAW with seed %s", seed);
  json_object_set_new(v, "id", json_string(seed));
  json_object_set_new(v, "source", json_string(source));
  json_object_set_new(v, "seed", json_string(seed));
  json_object_set_new(v, "key_len", json_integer((json_int_t)L));
  set_hex(jin, "relay_id", in->id, si->id_len);
  set_hex(jin, "relay_b_secret", in->b, 32);
  set_hex(jin, "client_x_secret", in->x, 32);
  set_hex(jin, "client_mlkem_seed", in->seed, 64);
  set_hex(jin, "relay_y_secret", in->y, 32);
  set_hex(jin, "mlkem_encaps_m", in->m, 32);
  for (size_t i = 0; i < sizeof intermediate_names / sizeof intermediate_names[0]; i++) {
    const char *name = intermediate_names[i];
    size_t nr = 0, nc = 0;
    const uint8_t *r, *c;
    if (strcmp(name, "relay_B") == 0) {
      set_hex(jim, name, pqntor_relay_public_key(relay), 32);
      continue;
    }
    if (strncmp(name, "client_", 7) == 0) {
      r = trace_rec_get(&tc, name, &nr);
      c = r, nc = nr;
    } else {
      r = trace_rec_get(&tr, name, &nr);
      c = trace_rec_get(&tf, name, &nc);
      /* values the client recomputes must agree with the relay's */
      if (c == NULL && strcmp(name, "relay_Y") != 0 && strcmp(name, "mlkem_ciphertext") != 0)
        die("client did not compute an intermediate");
      if (c == NULL)
        c = r, nc = nr;
    }
    if (r == NULL || nr != nc || memcmp(r, c, nr) != 0)
      die("intermediate missing or differs between client and relay");
    set_hex(jim, name, r, nr);
  }
  set_hex(jout, "onionskin", os_out, *olen_out);
  set_hex(jout, "reply", rep_out, *rlen_out);
  set_hex(jout, "keys", keys, L);
  json_object_set_new(v, "inputs", jin);
  json_object_set_new(v, "intermediates", jim);
  json_object_set_new(v, "outputs", jout);

  pqntor_client_free(st);
  trace_rec_free(&tc);
  trace_rec_free(&tr);
  trace_rec_free(&tf);
  free(keys);
  free(keys_c);
  *relay_out = relay;
  return v;
}

/* ---- failure vectors (section 9.3), all from vector 1 ---- */

typedef struct {
  const char *id, *description;
} fcase;

/* A field of a failure vector's side: its name and bytes. */
typedef struct {
  const char *key;
  const uint8_t *p;
  size_t n;
} hex_field;

/* A failure vector: its head, the inputs of the side that rejects (side: "client" or "relay"),
 * the message that side is given (msg_key), and the rejection, checked to be the one wanted. */
static json_t *failure_vector(const inputs *in, const char *base, const fcase *c, const char *step,
                              const char *side, const hex_field *fields, size_t nfields,
                              const char *msg_key, const uint8_t *msg, size_t msg_len, int rc,
                              const char *want) {
  char id[128];
  snprintf(id, sizeof id, "%s/%s", base, c->id);
  if (rc == PQNTOR_OK || strcmp(pqntor_error_class(rc), want) != 0) {
    fprintf(stderr, "genvectors: %s: got %s, want %s\n", id, pqntor_error_class(rc), want);
    exit(2);
  }
  json_t *f = json_object(), *o = json_object();
  json_object_set_new(f, "id", json_string(id));
  json_object_set_new(f, "base", json_string(base));
  json_object_set_new(f, "step", json_string(step));
  json_object_set_new(f, "description", json_string(c->description));
  json_object_set_new(f, "key_len", json_integer((json_int_t)in->L));
  for (size_t i = 0; i < nfields; i++)
    set_hex(o, fields[i].key, fields[i].p, fields[i].n);
  json_object_set_new(f, side, o);
  set_hex(f, msg_key, msg, msg_len);
  json_object_set_new(f, "expect", json_string("reject"));
  json_object_set_new(f, "error_class", json_string(pqntor_error_class(rc)));
  return f;
}

/*
 * A client-finish failure: the client believes (id, B), sends an onionskin that may be
 * altered in transit (os_mod), the relay answers it, the reply may be altered (rep_mod).
 */
enum { OS_NONE, OS_REWRITE_ID_B, OS_FLIP_X, OS_FLIP_EK };
enum {
  REP_NONE,
  REP_AUTH_FIRST,
  REP_AUTH_LAST,
  REP_CT_FIRST,
  REP_CT_LAST,
  REP_Y_FIRST,
  REP_Y_HIGH,
};
/* What client and server failures both do to the message they alter (a reply, an onionskin):
 * its length one byte short, one zero byte longer or empty, or its X25519 point (the relay's Y,
 * the client's X) replaced by a low-order one, 0 or 1. Apart from both enums above and below. */
enum { MOD_TRUNC = 64, MOD_EXTEND, MOD_EMPTY, MOD_POINT0, MOD_POINT1 };

/* Applies mod to msg (len bytes; point: its X25519 point) if it is one of the above: 1, else 0. */
static int shared_mod(int mod, uint8_t *msg, size_t *len, uint8_t *point) {
  switch (mod) {
  case MOD_TRUNC:
    (*len)--;
    return 1;
  case MOD_EXTEND:
    msg[(*len)++] = 0;
    return 1;
  case MOD_EMPTY:
    *len = 0;
    return 1;
  case MOD_POINT0:
  case MOD_POINT1:
    memset(point, 0, 32);
    point[0] = mod == MOD_POINT1;
    return 1;
  }
  return 0;
}

static json_t *client_failure(const inputs *in, const pqntor_relay *relay, const char *base,
                              const fcase *c, int flip_id, int flip_B, int os_mod, int rep_mod,
                              const char *want) {
  const pqntor_suite_info *si = in->si;
  uint8_t id[32], B[32], os[PQNTOR_MAX_ONIONSKIN_LEN], rep[PQNTOR_MAX_REPLY_LEN + 1];
  size_t olen, rlen;
  uint8_t *keys = malloc(in->L);
  memcpy(id, in->id, si->id_len);
  memcpy(B, pqntor_relay_public_key(relay), 32);
  id[0] ^= (uint8_t)flip_id;
  B[0] ^= (uint8_t)flip_B;
  pqntor_client *st = create(in, id, B, os, &olen, NULL);
  if (os_mod == OS_REWRITE_ID_B) {
    memcpy(os, in->id, si->id_len);
    memcpy(os + si->id_len, pqntor_relay_public_key(relay), 32);
  } else if (os_mod == OS_FLIP_X) {
    os[si->id_len + 32] ^= 1;
  }
  char desc[256];
  fcase cc = *c;
  if (os_mod == OS_FLIP_EK) {
    /* the first EK byte whose bit-0 flip still passes the modulus check */
    size_t i;
    uint8_t os0[PQNTOR_MAX_ONIONSKIN_LEN];
    memcpy(os0, os, olen);
    for (i = 0; i < si->ek_len; i++) {
      memcpy(os, os0, olen);
      os[si->id_len + 64 + i] ^= 1;
      if (reply(in, relay, os, olen, rep, &rlen, keys, NULL) == PQNTOR_OK)
        break;
    }
    if (i == si->ek_len)
      die("no valid EK bit flip");
    snprintf(desc, sizeof desc,
             "ML-KEM encapsulation key bit 0 of byte %zu flipped in transit (still a valid key); "
             "the relay answered the altered onionskin",
             i);
    cc.description = desc;
  } else if (reply(in, relay, os, olen, rep, &rlen, keys, NULL) != PQNTOR_OK) {
    die("the relay did not answer a client-finish failure's onionskin");
  }
  size_t auth = 32 + si->ct_len;
  if (!shared_mod(rep_mod, rep, &rlen, rep))
    switch (rep_mod) {
    case REP_AUTH_FIRST:
      rep[auth] ^= 0x01;
      break;
    case REP_AUTH_LAST:
      rep[rlen - 1] ^= 0x80;
      break;
    case REP_CT_FIRST:
      rep[32] ^= 0x01;
      break;
    case REP_CT_LAST:
      rep[32 + si->ct_len - 1] ^= 0x80;
      break;
    case REP_Y_FIRST:
      rep[0] ^= 0x01;
      break;
    case REP_Y_HIGH:
      rep[31] ^= 0x80;
      break;
    }
  int rc = pqntor_client_finish(st, rep, rlen, keys, in->L, NULL);
  pqntor_client_free(st);
  free(keys);

  const hex_field cl[] = {{"relay_id", id, si->id_len},
                          {"relay_B", B, 32},
                          {"client_x_secret", in->x, 32},
                          {"client_mlkem_seed", in->seed, 64}};
  return failure_vector(in, base, &cc, "client-finish", "client", cl, sizeof cl / sizeof cl[0],
                        "reply", rep, rlen, rc, want);
}

enum { SOS_ID, SOS_B, SOS_XP, SOS_EK_Q };

static json_t *server_failure(const inputs *in, const pqntor_relay *relay, const char *base,
                              const fcase *c, const uint8_t *os0, size_t olen0, int mod,
                              const char *want) {
  const pqntor_suite_info *si = in->si;
  uint8_t os[PQNTOR_MAX_ONIONSKIN_LEN + 1], rep[PQNTOR_MAX_REPLY_LEN];
  uint8_t *keys = malloc(in->L), *X = os + si->id_len + 32, *ek = os + si->id_len + 64;
  size_t olen = olen0, rlen;
  memcpy(os, os0, olen0);
  if (!shared_mod(mod, os, &olen, X))
    switch (mod) {
    case SOS_ID:
      os[0] ^= 1;
      break;
    case SOS_B:
      os[si->id_len] ^= 1;
      break;
    case SOS_XP: /* 2^255 - 19, little-endian */
      memset(X, 0xff, 32);
      X[0] = 0xed;
      X[31] = 0x7f;
      break;
    case SOS_EK_Q: /* the first 12-bit coefficient (byte 0, low nibble of byte 1) := 3329 */
      ek[0] = 3329 & 0xff;
      ek[1] = (uint8_t)((ek[1] & 0xf0) | (3329 >> 8));
      break;
    }
  int rc = reply(in, relay, os, olen, rep, &rlen, keys, NULL);
  free(keys);

  const hex_field r[] = {{"relay_id", in->id, si->id_len},
                         {"relay_b_secret", in->b, 32},
                         {"relay_y_secret", in->y, 32},
                         {"mlkem_encaps_m", in->m, 32}};
  return failure_vector(in, base, c, "server-reply", "relay", r, sizeof r / sizeof r[0],
                        "onionskin", os, olen, rc, want);
}

static json_t *generate(const pqntor_suite_info *si) {
  static const size_t lens[3] = {72, 32, 200};
  json_t *root = json_object(), *comment = json_array(), *tags = json_object(),
         *sizes = json_object(), *vectors = json_array(), *failures = json_array();
  char line[512];
  snprintf(line, sizeof line,
           "cryptobench %s test vectors; specification: docs/pq-ntor.md. Generated by "
           "protocols/pqntor/c/genvectors (the C implementation, OpenSSL %s); checked "
           "independently by protocols/pqntor/xcheck/xcheck.py, not by Go; do not edit.",
           si->name, OPENSSL_VERSION_STR);
  json_array_append_new(comment, json_string(line));
  json_array_append_new(
      comment,
      json_string("All byte strings are hex. Each seeded vector's inputs are DRAW(seed, label, n) "
                  "(see 'draw'); labels: relay_id=relay-id, relay_b_secret=relay-onion-key-b, "
                  "client_x_secret=client-ephemeral-x25519-x, "
                  "client_mlkem_seed=client-mlkem-seed-d-z, "
                  "relay_y_secret=relay-ephemeral-x25519-y, mlkem_encaps_m=relay-mlkem-encaps-m."));
  json_array_append_new(
      comment,
      json_string("Replay a vector: relay keys (relay_id, relay_b_secret); ClientCreate(relay_id, "
                  "relay_B) with randomness client_x_secret | client_mlkem_seed; "
                  "ServerReply(onionskin) with randomness relay_y_secret | mlkem_encaps_m; "
                  "ClientFinish(reply). Compare onionskin, reply and keys, and every "
                  "intermediate."));
  json_array_append_new(
      comment,
      json_string("Failures: step client-finish = recreate the client from 'client' (same "
                  "randomness rule) and finish with 'reply'; step server-reply = relay from "
                  "'relay' answering 'onionskin'. Each must be rejected and return no key "
                  "material; error_class is the reason this implementation reports."));
  json_object_set_new(root, "comment", comment);
  json_object_set_new(root, "suite", json_string(si->name));
  json_object_set_new(root, "protoid", json_string(si->protoid));
  json_object_set_new(tags, "t_mac", json_string(si->t_mac));
  json_object_set_new(tags, "t_key", json_string(si->t_key));
  json_object_set_new(tags, "t_verify", json_string(si->t_verify));
  json_object_set_new(tags, "m_expand", json_string(si->m_expand));
  json_object_set_new(root, "tags", tags);
  suite_size sz[SUITE_SIZES];
  suite_sizes(si, sz);
  for (size_t i = 0; i < SUITE_SIZES; i++)
    json_object_set_new(sizes, sz[i].name, json_integer((json_int_t)sz[i].len));
  json_object_set_new(root, "sizes", sizes);
  json_object_set_new(root, "draw",
                      json_string("DRAW(seed, label, n) = first n bytes of "
                                  "SHAKE-256(ENCAP(\"cryptobench/pq-ntor/test-vectors/v1\") | "
                                  "ENCAP(seed) | ENCAP(label)), ENCAP(s) = 8-byte big-endian "
                                  "len(s) | s"));

  inputs in1;
  uint8_t os1[PQNTOR_MAX_ONIONSKIN_LEN];
  size_t olen1 = 0;
  pqntor_relay *relay1 = NULL;
  for (int n = 1; n <= 3; n++) {
    inputs in;
    uint8_t os[PQNTOR_MAX_ONIONSKIN_LEN], rep[PQNTOR_MAX_REPLY_LEN];
    size_t olen, rlen;
    pqntor_relay *relay = NULL;
    json_array_append_new(vectors, vector(si, n, lens[n - 1], &in, os, &olen, rep, &rlen, &relay));
    if (n == 1) {
      in1 = in, relay1 = relay, olen1 = olen;
      memcpy(os1, os, olen);
    } else {
      pqntor_relay_free(relay);
    }
  }
  json_object_set_new(root, "vectors", vectors);

  char base[64];
  snprintf(base, sizeof base, "%s/1", si->name);
  static const struct {
    fcase c;
    int flip_id, flip_B, os_mod, rep_mod;
    const char *cls;
  } cf[] = {
      {{"auth-first-bit", "AUTH with bit 0 of its first byte flipped"},
       0,
       0,
       OS_NONE,
       REP_AUTH_FIRST,
       "handshake-failed"},
      {{"auth-last-bit", "AUTH with bit 7 of its last byte flipped"},
       0,
       0,
       OS_NONE,
       REP_AUTH_LAST,
       "handshake-failed"},
      {{"ct-first-bit", "ML-KEM ciphertext with bit 0 of its first byte flipped (implicit "
                        "rejection, then AUTH mismatch)"},
       0,
       0,
       OS_NONE,
       REP_CT_FIRST,
       "handshake-failed"},
      {{"ct-last-bit", "ML-KEM ciphertext with bit 7 of its last byte flipped"},
       0,
       0,
       OS_NONE,
       REP_CT_LAST,
       "handshake-failed"},
      {{"y-first-bit", "Y with bit 0 of its first byte flipped"},
       0,
       0,
       OS_NONE,
       REP_Y_FIRST,
       "handshake-failed"},
      {{"y-high-bit",
        "Y with bit 255 flipped: X25519 ignores that bit (RFC 7748), so EXP(Y,x) is unchanged, "
        "but Y enters secret_input and auth_input as received, so AUTH fails"},
       0,
       0,
       OS_NONE,
       REP_Y_HIGH,
       "handshake-failed"},
      {{"y-zero", "Y = 0 (low order): EXP(Y,x) is all-zero"},
       0,
       0,
       OS_NONE,
       MOD_POINT0,
       "handshake-failed"},
      {{"y-one", "Y = 1 (low order): EXP(Y,x) is all-zero"},
       0,
       0,
       OS_NONE,
       MOD_POINT1,
       "handshake-failed"},
      {{"reply-truncated", "reply one byte short"}, 0, 0, OS_NONE, MOD_TRUNC, "malformed"},
      {{"reply-extended", "reply with one extra zero byte"},
       0,
       0,
       OS_NONE,
       MOD_EXTEND,
       "malformed"},
      {{"reply-empty", "empty reply"}, 0, 0, OS_NONE, MOD_EMPTY, "malformed"},
      {{"id-tampered",
        "client believes relay ID with bit 0 of byte 0 flipped; in transit the ID was rewritten "
        "to the relay's, which replied; the client's ID differs from the relay's"},
       1,
       0,
       OS_REWRITE_ID_B,
       REP_NONE,
       "handshake-failed"},
      {{"b-tampered", "client believes onion key B with bit 0 of byte 0 flipped; in transit B "
                      "was rewritten to the relay's, which replied"},
       0,
       1,
       OS_REWRITE_ID_B,
       REP_NONE,
       "handshake-failed"},
      {{"x-tampered", "X (bit 0 of its first byte) flipped in transit; the relay answered the "
                      "altered onionskin"},
       0,
       0,
       OS_FLIP_X,
       REP_NONE,
       "handshake-failed"},
      {{"ek-tampered", "(set from the EK byte used)"},
       0,
       0,
       OS_FLIP_EK,
       REP_NONE,
       "handshake-failed"},
  };
  static const struct {
    fcase c;
    int mod;
    const char *cls;
  } sf[] = {
      {{"onionskin-truncated", "onionskin one byte short"}, MOD_TRUNC, "malformed"},
      {{"onionskin-extended", "onionskin with one extra zero byte"}, MOD_EXTEND, "malformed"},
      {{"onionskin-empty", "empty onionskin"}, MOD_EMPTY, "malformed"},
      {{"id-first-bit", "relay ID with bit 0 of its first byte flipped"}, SOS_ID, "unknown-relay"},
      {{"b-first-bit", "onion key B with bit 0 of its first byte flipped"}, SOS_B, "unknown-relay"},
      {{"x-zero", "X = 0 (low order): EXP(X,y) is all-zero"}, MOD_POINT0, "bad-key"},
      {{"x-one", "X = 1 (low order): EXP(X,y) is all-zero"}, MOD_POINT1, "bad-key"},
      {{"x-p", "X = 2^255-19, a non-canonical encoding of 0: EXP(X,y) is all-zero"},
       SOS_XP,
       "bad-key"},
      {{"ek-modulus", "ML-KEM encapsulation key whose first coefficient is q = 3329: fails the "
                      "FIPS 203 section 7.2 modulus check"},
       SOS_EK_Q,
       "bad-key"},
  };
  for (size_t i = 0; i < sizeof cf / sizeof cf[0]; i++)
    json_array_append_new(failures,
                          client_failure(&in1, relay1, base, &cf[i].c, cf[i].flip_id, cf[i].flip_B,
                                         cf[i].os_mod, cf[i].rep_mod, cf[i].cls));
  for (size_t i = 0; i < sizeof sf / sizeof sf[0]; i++)
    json_array_append_new(
        failures, server_failure(&in1, relay1, base, &sf[i].c, os1, olen1, sf[i].mod, sf[i].cls));
  json_object_set_new(root, "failures", failures);
  pqntor_relay_free(relay1);
  return root;
}

static char *dump(const json_t *root) {
  char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  if (s == NULL)
    die("json_dumps");
  return s;
}

static int check(const pqntor_suite_info *si, const char *path) {
  json_error_t err;
  json_t *file = json_load_file(path, JSON_PRESERVE_ORDER, &err);
  if (file == NULL) {
    fprintf(stderr, "genvectors: %s: %s\n", path, err.text);
    return 1;
  }
  json_t *gen = generate(si);
  /* comment[0] names the generator */
  json_array_set(json_object_get(gen, "comment"), 0,
                 json_array_get(json_object_get(file, "comment"), 0));
  int diffs = 0;
  const char *key;
  json_t *val;
  json_object_foreach(gen, key, val) {
    json_t *fv = json_object_get(file, key);
    if (json_is_array(val) && json_is_array(fv) && strcmp(key, "comment") != 0) {
      for (size_t i = 0; i < json_array_size(val) || i < json_array_size(fv); i++) {
        json_t *a = json_array_get(val, i), *b = json_array_get(fv, i);
        if (!json_equal(a, b)) {
          const char *id = json_string_value(json_object_get(a ? a : b, "id"));
          fprintf(stderr, "genvectors: %s: %s[%zu] (%s) differs\n", path, key, i, id ? id : "?");
          diffs++;
        }
      }
    } else if (!json_equal(val, fv)) {
      fprintf(stderr, "genvectors: %s: field %s differs\n", path, key);
      diffs++;
    }
  }
  if (json_object_size(gen) != json_object_size(file)) {
    fprintf(stderr, "genvectors: %s: different set of fields\n", path);
    diffs++;
  }
  /* the layout, byte for byte */
  if (diffs == 0) {
    char *text = dump(gen);
    FILE *fp = fopen(path, "rb");
    size_t n = strlen(text), got = 0;
    char *buf = malloc(n + 2);
    if (fp != NULL && buf != NULL)
      got = fread(buf, 1, n + 2, fp);
    if (fp == NULL || got != n + 1 || memcmp(buf, text, n) != 0 || buf[n] != '\n') {
      fprintf(stderr, "genvectors: %s: same content, different layout\n", path);
      diffs++;
    }
    if (fp != NULL)
      fclose(fp);
    free(buf);
    free(text);
  }
  printf("genvectors -check %s: %s%s\n", path, diffs ? "DIFFERENT" : "identical",
         diffs ? "" : " (apart from comment[0], the generator's name)");
  json_decref(gen);
  json_decref(file);
  return diffs != 0;
}

int main(int argc, char **argv) {
  pqntor_suite suite;
  int checking = argc == 4 && strcmp(argv[1], "-check") == 0;
  if (!(argc == 2 || checking) || pqntor_suite_by_name(argv[checking ? 2 : 1], &suite) != 0 ||
      suite == PQNTOR_SUITE_NTOR) {
    fprintf(stderr, "usage: genvectors [-check] pq-ntor-mlkem512|768|1024 [FILE]\n");
    return 2;
  }
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  if (checking)
    return check(si, argv[3]);
  json_t *root = generate(si);
  char *text = dump(root);
  printf("%s\n", text);
  free(text);
  json_decref(root);
  return 0;
}
