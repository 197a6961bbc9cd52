/*
 * Tests of the C pqntor library:
 *   - every vector of the given files (vectors/NAME.json) byte for byte: onionskin, reply, keys
 *     and every intermediate the file lists, on the relay's and on the client's side, with
 *     the draws of section 8 enforced (order and sizes);
 *   - every failure vector: rejected, error class as in the file, no key material, and the
 *     relay draws nothing before its checks 1-4;
 *   - Tor's KDF vectors (ntor.json);
 *   - round trips with system randomness, every single-bit flip of replies, onionskin bit
 *     flips, every wrong message length, invalid arguments, single-use states.
 * Usage: test_pqntor [-q] FILE.json...
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "pqntor.h"
#include "util.h"

static int failures, checks, quiet;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    checks++;                                                                                      \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                         \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

/* A hex field of obj, decoded (malloc), or NULL when absent. */
static uint8_t *jhex(const json_t *obj, const char *key, size_t *len) {
  const char *s = json_string_value(json_object_get(obj, key));
  *len = 0;
  return s == NULL ? NULL : hex_decode(s, len);
}

static int eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static int eq_field(const uint8_t *got, size_t glen, const json_t *obj, const char *key) {
  size_t n;
  uint8_t *want = jhex(obj, key, &n);
  int ok = want != NULL && eq(got, glen, want, n);
  free(want);
  return ok;
}

static int uniform(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v)
      return 0;
  return 1;
}

/* no key material: the buffer is untouched (0xa5) or erased (0x00) */
static int no_keys(const uint8_t *p, size_t n) { return uniform(p, n, 0xa5) || uniform(p, n, 0); }

static void check_suite_header(const pqntor_suite_info *si, const json_t *root, const char *file) {
  const json_t *tags = json_object_get(root, "tags"), *sizes = json_object_get(root, "sizes");
  CHECK(strcmp(json_string_value(json_object_get(root, "protoid")), si->protoid) == 0,
        "%s: protoid", file);
  CHECK(strcmp(json_string_value(json_object_get(tags, "t_mac")), si->t_mac) == 0, "%s t_mac",
        file);
  CHECK(strcmp(json_string_value(json_object_get(tags, "t_key")), si->t_key) == 0, "%s t_key",
        file);
  CHECK(strcmp(json_string_value(json_object_get(tags, "t_verify")), si->t_verify) == 0,
        "%s t_verify", file);
  CHECK(strcmp(json_string_value(json_object_get(tags, "m_expand")), si->m_expand) == 0,
        "%s m_expand", file);
  suite_size want[SUITE_SIZES];
  suite_sizes(si, want);
  for (size_t i = 0; i < SUITE_SIZES; i++)
    CHECK((size_t)json_integer_value(json_object_get(sizes, want[i].name)) == want[i].len,
          "%s: sizes.%s", file, want[i].name);
}

/* ---- seeded / published vectors ---- */

static void run_vector(const pqntor_suite_info *si, const json_t *v) {
  const char *vid = json_string_value(json_object_get(v, "id"));
  const json_t *in = json_object_get(v, "inputs"), *im = json_object_get(v, "intermediates"),
               *out = json_object_get(v, "outputs");
  size_t L = (size_t)json_integer_value(json_object_get(v, "key_len"));
  size_t id_len, b_len, x_len, seed_len, y_len, m_len;
  uint8_t *id = jhex(in, "relay_id", &id_len), *b = jhex(in, "relay_b_secret", &b_len),
          *x = jhex(in, "client_x_secret", &x_len),
          *seed = jhex(in, "client_mlkem_seed", &seed_len), *y = jhex(in, "relay_y_secret", &y_len),
          *m = jhex(in, "mlkem_encaps_m", &m_len);
  pqntor_relay *relay = NULL;
  pqntor_client *st = NULL;
  trace_rec tc = {0}, tf = {0}, tr = {0};
  uint8_t onionskin[PQNTOR_MAX_ONIONSKIN_LEN], reply[PQNTOR_MAX_REPLY_LEN];
  uint8_t *keys_r = malloc(L), *keys_c = malloc(L);
  size_t olen = sizeof onionskin, rlen = sizeof reply;
  int rc;

  CHECK(id && b && x && y && b_len == 32 && x_len == 32 && y_len == 32 && L >= 1, "%s: inputs",
        vid);
  if (si->ek_len != 0)
    CHECK(seed && m && seed_len == 64 && m_len == 32, "%s: ML-KEM inputs", vid);
  else
    CHECK(seed == NULL && m == NULL, "%s: ntor has no ML-KEM inputs", vid);
  if (!(id && b && x && y && keys_r && keys_c))
    goto done;

  /* 1. relay keys */
  rc = pqntor_relay_new(&relay, id, id_len, b);
  CHECK(rc == PQNTOR_OK, "%s: relay_new %d", vid, rc);
  if (rc != PQNTOR_OK)
    goto done;
  CHECK(eq_field(pqntor_relay_public_key(relay), 32, im, "relay_B"), "%s: relay_B", vid);

  /* 2. client_create with x, d|z */
  draw_queue q;
  draw_queue_two(&q, x, 32, seed, 64);
  pqntor_hooks hc = {draw_queue_fn, &q, trace_rec_fn, &tc};
  rc = pqntor_client_create(&st, onionskin, &olen, si->suite, L, id, id_len,
                            pqntor_relay_public_key(relay), &hc);
  CHECK(rc == PQNTOR_OK && !q.error && q.next == q.count, "%s: client_create %d draws %zu/%zu", vid,
        rc, q.next, q.count);
  if (rc != PQNTOR_OK)
    goto done;
  CHECK(eq_field(onionskin, olen, out, "onionskin"), "%s: onionskin", vid);

  /* 3. server_reply with y, m */
  draw_queue_two(&q, y, 32, m, 32);
  pqntor_hooks hr = {draw_queue_fn, &q, trace_rec_fn, &tr};
  rc = pqntor_server_reply(relay, si->suite, onionskin, olen, reply, &rlen, keys_r, L, &hr);
  CHECK(rc == PQNTOR_OK && !q.error && q.next == q.count, "%s: server_reply %d draws %zu/%zu", vid,
        rc, q.next, q.count);
  if (rc != PQNTOR_OK)
    goto done;
  CHECK(eq_field(reply, rlen, out, "reply"), "%s: reply", vid);
  CHECK(eq_field(keys_r, L, out, "keys"), "%s: relay keys", vid);

  /* 4. client_finish */
  pqntor_hooks hf = {NULL, NULL, trace_rec_fn, &tf};
  rc = pqntor_client_finish(st, reply, rlen, keys_c, L, &hf);
  CHECK(rc == PQNTOR_OK, "%s: client_finish %d", vid, rc);
  CHECK(eq_field(keys_c, L, out, "keys"), "%s: client keys", vid);
  rc = pqntor_client_finish(st, reply, rlen, keys_c, L, NULL);
  CHECK(rc == PQNTOR_ERR_STATE_USED, "%s: second client_finish must fail (%d)", vid, rc);

  /* every intermediate the file lists, on each side that computes it */
  const char *key;
  const json_t *val;
  json_object_foreach((json_t *)im, key, val) {
    int seen = strcmp(key, "relay_B") == 0;
    const trace_rec *sides[] = {&tc, &tr, &tf};
    const char *side_names[] = {"client-create", "server-reply", "client-finish"};
    for (int s = 0; s < 3; s++) {
      size_t n;
      const uint8_t *got = trace_rec_get(sides[s], key, &n);
      if (got != NULL) {
        seen++;
        CHECK(eq_field(got, n, im, key), "%s: intermediate %s (%s)", vid, key, side_names[s]);
      }
    }
    CHECK(seen > 0, "%s: intermediate %s not computed", vid, key);
  }
  if (!quiet)
    printf("  ok %s (L=%zu, %zu intermediates)\n", vid, L, json_object_size(im));

done:
  pqntor_client_free(st);
  pqntor_relay_free(relay);
  trace_rec_free(&tc);
  trace_rec_free(&tr);
  trace_rec_free(&tf);
  free(id), free(b), free(x), free(seed), free(y), free(m), free(keys_r), free(keys_c);
}

/* ---- failure vectors ---- */

/* One side of a failure vector, as the file gives it: the relay's id, the side's X25519 key (the
 * client's relay_B, the relay's relay_b_secret), its two draws queued for its hooks (x then d|z,
 * y then m; ntor has no second), and the message its step is given (reply, onionskin). */
typedef struct {
  uint8_t *id, *key, *draw1, *draw2, *msg;
  size_t id_len, key_len, msg_len;
  draw_queue q;
  pqntor_hooks h;
} failure_side;

static void side_read(failure_side *s, const json_t *f, const char *side, const char *key,
                      const char *draw1, const char *draw2, const char *msg) {
  const json_t *o = json_object_get(f, side);
  size_t n1, n2;
  s->id = jhex(o, "relay_id", &s->id_len);
  s->key = jhex(o, key, &s->key_len);
  s->draw1 = jhex(o, draw1, &n1);
  s->draw2 = jhex(o, draw2, &n2);
  s->msg = jhex(f, msg, &s->msg_len);
  draw_queue_two(&s->q, s->draw1, n1, s->draw2, n2);
  s->h = (pqntor_hooks){draw_queue_fn, &s->q, NULL, NULL};
}

static void side_free(failure_side *s) {
  free(s->id), free(s->key), free(s->draw1), free(s->draw2), free(s->msg);
}

static void run_failure(const pqntor_suite_info *si, const json_t *f) {
  const char *fid = json_string_value(json_object_get(f, "id"));
  const char *step = json_string_value(json_object_get(f, "step"));
  const char *cls = json_string_value(json_object_get(f, "error_class"));
  const char *expect = json_string_value(json_object_get(f, "expect"));
  size_t L = (size_t)json_integer_value(json_object_get(f, "key_len"));
  uint8_t *keys = malloc(L ? L : 1);
  uint8_t buf[PQNTOR_MAX_REPLY_LEN > PQNTOR_MAX_ONIONSKIN_LEN ? PQNTOR_MAX_REPLY_LEN
                                                              : PQNTOR_MAX_ONIONSKIN_LEN];
  size_t blen = sizeof buf;
  int rc = PQNTOR_OK;

  CHECK(expect && strcmp(expect, "reject") == 0 && cls && keys, "%s: expect/error_class", fid);
  memset(keys, 0xa5, L);
  if (step && strcmp(step, "client-finish") == 0) {
    failure_side c;
    side_read(&c, f, "client", "relay_B", "client_x_secret", "client_mlkem_seed", "reply");
    pqntor_client *st = NULL;
    int crc = pqntor_client_create(&st, buf, &blen, si->suite, L, c.id, c.id_len, c.key, &c.h);
    CHECK(crc == PQNTOR_OK && c.q.next == c.q.count, "%s: client_create %d", fid, crc);
    if (crc == PQNTOR_OK) {
      rc = pqntor_client_finish(st, c.msg, c.msg_len, keys, L, NULL);
      CHECK(pqntor_client_finish(st, c.msg, c.msg_len, keys, L, NULL) == PQNTOR_ERR_STATE_USED,
            "%s: state reused", fid);
    }
    pqntor_client_free(st);
    side_free(&c);
  } else if (step && strcmp(step, "server-reply") == 0) {
    failure_side r;
    side_read(&r, f, "relay", "relay_b_secret", "relay_y_secret", "mlkem_encaps_m", "onionskin");
    pqntor_relay *relay = NULL;
    int nrc = pqntor_relay_new(&relay, r.id, r.id_len, r.key);
    CHECK(nrc == PQNTOR_OK, "%s: relay_new %d", fid, nrc);
    if (nrc == PQNTOR_OK) {
      memset(buf, 0xa5, sizeof buf);
      rc = pqntor_server_reply(relay, si->suite, r.msg, r.msg_len, buf, &blen, keys, L, &r.h);
      CHECK(no_keys(buf, si->reply_len), "%s: reply buffer written on rejection", fid);
      /* section 7.1: y is drawn after checks 1-4, m after the DH checks */
      size_t want_draws = strcmp(cls, "bad-key") == 0 && strstr(fid, "/x-") ? 1 : 0;
      CHECK(r.q.next == want_draws, "%s: %zu draws before rejecting, want %zu", fid, r.q.next,
            want_draws);
    }
    pqntor_relay_free(relay);
    side_free(&r);
  } else {
    CHECK(0, "%s: unknown step", fid);
  }
  CHECK(rc != PQNTOR_OK, "%s: accepted", fid);
  CHECK(cls && strcmp(pqntor_error_class(rc), cls) == 0, "%s: class %s, want %s", fid,
        pqntor_error_class(rc), cls ? cls : "?");
  CHECK(no_keys(keys, L), "%s: key material returned", fid);
  if (!quiet)
    printf("  ok %s -> %s\n", fid, pqntor_error_class(rc));
  free(keys);
}

static void run_kdf_vectors(const pqntor_suite_info *si, const json_t *kv) {
  size_t i;
  const json_t *k;
  json_array_foreach(kv, i, k) {
    const char *ikm = json_string_value(json_object_get(k, "ikm_ascii"));
    const char *salt = json_string_value(json_object_get(k, "salt_ascii"));
    const char *info = json_string_value(json_object_get(k, "info_ascii"));
    size_t L = (size_t)json_integer_value(json_object_get(k, "length"));
    uint8_t out[PQNTOR_MAX_KEY_LEN];
    CHECK(salt && strcmp(salt, si->t_key) == 0 && info && strcmp(info, si->m_expand) == 0,
          "kdf %zu: salt/info", i);
    int rc = pqntor_kdf(si->suite, (const uint8_t *)ikm, strlen(ikm), out, L);
    CHECK(rc == PQNTOR_OK && eq_field(out, L, k, "okm"), "kdf vector %zu (ikm \"%s\")", i, ikm);
  }
  if (!quiet)
    printf("  ok %zu KDF vectors\n", json_array_size(kv));
}

static void run_file(const char *path) {
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err);
  CHECK(root != NULL, "%s: %s (line %d)", path, err.text, err.line);
  if (root == NULL)
    return;
  pqntor_suite suite;
  const char *name = json_string_value(json_object_get(root, "suite"));
  CHECK(pqntor_suite_by_name(name ? name : "", &suite) == PQNTOR_OK, "%s: suite", path);
  const pqntor_suite_info *si = pqntor_suite_get(suite);
  printf("%s (%s)\n", path, si->name);
  check_suite_header(si, root, path);
  size_t i;
  const json_t *v;
  json_array_foreach(json_object_get(root, "vectors"), i, v) run_vector(si, v);
  if (json_object_get(root, "kdf_vectors"))
    run_kdf_vectors(si, json_object_get(root, "kdf_vectors"));
  json_array_foreach(json_object_get(root, "failures"), i, v) run_failure(si, v);
  printf("  %zu vectors, %zu failure vectors\n", json_array_size(json_object_get(root, "vectors")),
         json_array_size(json_object_get(root, "failures")));
  json_decref(root);
}

/* ---- with system randomness ---- */

typedef struct {
  pqntor_relay *relay;
  uint8_t state[PQNTOR_CLIENT_STATE_MAX_LEN];
  size_t state_len;
  uint8_t onionskin[PQNTOR_MAX_ONIONSKIN_LEN];
  size_t olen;
  uint8_t reply[PQNTOR_MAX_REPLY_LEN];
  size_t rlen;
  uint8_t keys[PQNTOR_MAX_KEY_LEN];
} session;

/* A relay, a client state (serialized) and the relay's reply. */
static int make_session(session *s, const pqntor_suite_info *si, size_t L) {
  uint8_t id[32];
  pqntor_client *st = NULL;
  memset(s, 0, sizeof *s);
  s->olen = sizeof s->onionskin;
  s->rlen = sizeof s->reply;
  s->state_len = sizeof s->state;
  int ok = RAND_bytes(id, sizeof id) == 1 &&
           pqntor_relay_generate(&s->relay, id, si->id_len, NULL) == PQNTOR_OK &&
           pqntor_client_create(&st, s->onionskin, &s->olen, si->suite, L, id, si->id_len,
                                pqntor_relay_public_key(s->relay), NULL) == PQNTOR_OK &&
           pqntor_client_serialize(st, s->state, &s->state_len) == PQNTOR_OK &&
           pqntor_server_reply(s->relay, si->suite, s->onionskin, s->olen, s->reply, &s->rlen,
                               s->keys, L, NULL) == PQNTOR_OK;
  pqntor_client_free(st);
  return ok;
}

/* client_finish on a fresh copy of the session's state */
static int finish_copy(const session *s, const uint8_t *reply, size_t rlen, uint8_t *keys,
                       size_t L) {
  pqntor_client *st = NULL;
  int rc = pqntor_client_deserialize(&st, s->state, s->state_len);
  if (rc == PQNTOR_OK)
    rc = pqntor_client_finish(st, reply, rlen, keys, L, NULL);
  pqntor_client_free(st);
  return rc;
}

static void round_trips(const pqntor_suite_info *si, int n) {
  static const size_t lens[] = {72, 1, 31, 32, 33, 200, PQNTOR_MAX_KEY_LEN};
  int ok = 0;
  for (int i = 0; i < n; i++) {
    size_t L = lens[i % (sizeof lens / sizeof lens[0])];
    uint8_t id[32], onionskin[PQNTOR_MAX_ONIONSKIN_LEN], reply[PQNTOR_MAX_REPLY_LEN];
    uint8_t keys_r[PQNTOR_MAX_KEY_LEN], keys_c[PQNTOR_MAX_KEY_LEN];
    size_t olen = sizeof onionskin, rlen = sizeof reply;
    pqntor_relay *relay = NULL;
    pqntor_client *st = NULL;
    RAND_bytes(id, sizeof id);
    int rc = pqntor_relay_generate(&relay, id, si->id_len, NULL);
    if (rc == PQNTOR_OK)
      rc = pqntor_client_create(&st, onionskin, &olen, si->suite, L, id, si->id_len,
                                pqntor_relay_public_key(relay), NULL);
    if (rc == PQNTOR_OK && i % 4 == 1) { /* through the serialized state, as the CLI does */
      uint8_t ser[PQNTOR_CLIENT_STATE_MAX_LEN];
      size_t sl = sizeof ser;
      rc = pqntor_client_serialize(st, ser, &sl);
      pqntor_client_free(st);
      st = NULL;
      if (rc == PQNTOR_OK)
        rc = pqntor_client_deserialize(&st, ser, sl);
    }
    if (rc == PQNTOR_OK)
      rc = pqntor_server_reply(relay, si->suite, onionskin, olen, reply, &rlen, keys_r, L, NULL);
    if (rc == PQNTOR_OK)
      rc = pqntor_client_finish(st, reply, rlen, keys_c, L, NULL);
    CHECK(rc == PQNTOR_OK && olen == si->onionskin_len && rlen == si->reply_len &&
              memcmp(keys_r, keys_c, L) == 0 && memcmp(onionskin, id, si->id_len) == 0,
          "%s: round trip %d (L=%zu): %s", si->name, i, L, pqntor_error_class(rc));
    ok += rc == PQNTOR_OK && memcmp(keys_r, keys_c, L) == 0;
    pqntor_client_free(st);
    pqntor_relay_free(relay);
  }
  printf("  %s: %d/%d round trips with system randomness, same keys\n", si->name, ok, n);
}

static void bit_flips(const pqntor_suite_info *si, int full) {
  session s;
  uint8_t keys[72], reply[PQNTOR_MAX_REPLY_LEN];
  int n = 0, rejected = 0;
  CHECK(make_session(&s, si, 72), "%s: session", si->name);
  CHECK(finish_copy(&s, s.reply, s.rlen, keys, 72) == PQNTOR_OK && !memcmp(keys, s.keys, 72),
        "%s: unflipped reply", si->name);
  for (size_t bit = 0; bit < 8 * s.rlen; bit++) {
    size_t byte = bit / 8;
    int in_ct = byte >= 32 && byte < 32 + si->ct_len;
    /* pq-ntor without "full": Y, AUTH, the first and last 64 bits of CT, every 37th other */
    if (!full && in_ct && bit >= 8 * 32 + 64 && bit < 8 * (32 + si->ct_len) - 64 && bit % 37)
      continue;
    memcpy(reply, s.reply, s.rlen);
    reply[byte] ^= (uint8_t)(1u << (bit % 8));
    memset(keys, 0xa5, sizeof keys);
    int rc = finish_copy(&s, reply, s.rlen, keys, 72);
    n++;
    rejected += rc == PQNTOR_ERR_HANDSHAKE_FAILED && no_keys(keys, sizeof keys);
    CHECK(rc == PQNTOR_ERR_HANDSHAKE_FAILED && no_keys(keys, sizeof keys),
          "%s: reply bit %zu flipped: %s", si->name, bit, pqntor_error_class(rc));
  }
  /* onionskin flips: ID/B -> unknown-relay; X/EK -> relay may answer, client must reject */
  int os_n = 0, os_ok = 0;
  for (size_t bit = 0; bit < 8 * s.olen; bit += (full ? 1 : 13)) {
    uint8_t os[PQNTOR_MAX_ONIONSKIN_LEN], r2[PQNTOR_MAX_REPLY_LEN], k2[72];
    size_t r2len = sizeof r2;
    memcpy(os, s.onionskin, s.olen);
    os[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    int rc = pqntor_server_reply(s.relay, si->suite, os, s.olen, r2, &r2len, k2, 72, NULL);
    int good;
    if (bit / 8 < si->id_len + 32)
      good = rc == PQNTOR_ERR_UNKNOWN_RELAY;
    else if (rc == PQNTOR_OK)
      good = finish_copy(&s, r2, r2len, keys, 72) == PQNTOR_ERR_HANDSHAKE_FAILED;
    else
      good = rc == PQNTOR_ERR_BAD_KEY;
    os_n++;
    os_ok += good;
    CHECK(good, "%s: onionskin bit %zu flipped: %s", si->name, bit, pqntor_error_class(rc));
  }
  printf("  %s: %d/%d single-bit reply flips rejected, %d/%d onionskin flips handled\n", si->name,
         rejected, n, os_ok, os_n);
  pqntor_relay_free(s.relay);
}

static void wrong_lengths(const pqntor_suite_info *si) {
  session s;
  uint8_t junk[PQNTOR_MAX_ONIONSKIN_LEN + 16], out[PQNTOR_MAX_REPLY_LEN], keys[72];
  int n = 0;
  CHECK(make_session(&s, si, 72), "%s: session", si->name);
  RAND_bytes(junk, sizeof junk);
  for (size_t len = 0; len <= sizeof junk; len++) {
    /* a prefix of a valid onionskin followed by junk, and pure junk */
    uint8_t os[sizeof junk];
    memcpy(os, junk, len);
    memcpy(os, s.onionskin, len < s.olen ? len : s.olen);
    for (int pass = 0; pass < 2; pass++) {
      size_t olen = sizeof out;
      int rc = pqntor_server_reply(s.relay, si->suite, pass ? junk : os, len, out, &olen, keys, 72,
                                   NULL);
      int want = len != si->onionskin_len ? PQNTOR_ERR_MALFORMED
                 : pass                   ? PQNTOR_ERR_UNKNOWN_RELAY
                                          : PQNTOR_OK;
      CHECK(rc == want, "%s: onionskin length %zu (pass %d): %s", si->name, len, pass,
            pqntor_error_class(rc));
      n++;
    }
  }
  for (size_t len = 0; len <= si->reply_len + 16; len++) {
    uint8_t r[PQNTOR_MAX_REPLY_LEN + 16];
    memcpy(r, junk, len);
    memcpy(r, s.reply, len < s.rlen ? len : s.rlen);
    memset(keys, 0xa5, sizeof keys);
    int rc = finish_copy(&s, r, len, keys, 72);
    int want = len != si->reply_len ? PQNTOR_ERR_MALFORMED : PQNTOR_OK;
    CHECK(rc == want && (rc == PQNTOR_OK || no_keys(keys, 72)), "%s: reply length %zu: %s",
          si->name, len, pqntor_error_class(rc));
    n++;
  }
  printf("  %s: %d messages of every length 0..max+16: malformed unless exact\n", si->name, n);
  pqntor_relay_free(s.relay);
}

static void invalid_arguments(void) {
  uint8_t id[32] = {1}, b[32] = {2}, os[PQNTOR_MAX_ONIONSKIN_LEN], r[PQNTOR_MAX_REPLY_LEN],
          keys[PQNTOR_MAX_KEY_LEN + 1];
  size_t olen = sizeof os, rlen = sizeof r;
  pqntor_relay *relay20 = NULL, *relay32 = NULL;
  pqntor_client *st = NULL;
  pqntor_suite su;
  pqntor_relay *bad = NULL;
  CHECK(pqntor_relay_new(&relay20, id, 20, b) == PQNTOR_OK, "relay20");
  CHECK(pqntor_relay_new(&relay32, id, 32, b) == PQNTOR_OK, "relay32");
  CHECK(pqntor_relay_new(&bad, id, 31, b) == PQNTOR_ERR_INVALID_ARGUMENT && !bad, "id_len 31");
  CHECK(pqntor_relay_generate(&bad, id, 0, NULL) == PQNTOR_ERR_INVALID_ARGUMENT && !bad,
        "id_len 0");
  const uint8_t *B = pqntor_relay_public_key(relay32);
  CHECK(pqntor_suite_by_name("pq-ntor-mlkem2048", &su) == PQNTOR_ERR_INVALID_ARGUMENT, "name");
  CHECK(pqntor_suite_get((pqntor_suite)7) == NULL, "suite 7");
  CHECK(!pqntor_suite_supported((pqntor_suite)7) && !pqntor_suite_supported((pqntor_suite)-1),
        "suite 7 and -1 unsupported");
  for (int i = 0; i < PQNTOR_NUM_SUITES; i++) /* this build has ML-KEM: every suite runs */
    CHECK(pqntor_suite_supported((pqntor_suite)i), "suite %d supported", i);
  CHECK(strcmp(pqntor_error_class(PQNTOR_ERR_UNSUPPORTED), "unsupported") == 0,
        "error class unsupported");
  const struct {
    pqntor_suite suite;
    size_t key_len, id_len;
    const char *what;
  } bad_create[] = {
      {(pqntor_suite)7, 72, 32, "bad suite"},
      {PQNTOR_SUITE_MLKEM768, 0, 32, "L = 0"},
      {PQNTOR_SUITE_MLKEM768, 8161, 32, "L = 8161"},
      {PQNTOR_SUITE_MLKEM768, 72, 20, "20-byte ID for pq-ntor"},
      {PQNTOR_SUITE_NTOR, 72, 32, "32-byte ID for ntor"},
  };
  for (size_t i = 0; i < sizeof bad_create / sizeof bad_create[0]; i++)
    CHECK(pqntor_client_create(&st, os, &olen, bad_create[i].suite, bad_create[i].key_len, id,
                               bad_create[i].id_len, B, NULL) == PQNTOR_ERR_INVALID_ARGUMENT,
          "create: %s", bad_create[i].what);
  olen = 100;
  CHECK(pqntor_client_create(&st, os, &olen, PQNTOR_SUITE_MLKEM768, 72, id, 32, B, NULL) ==
            PQNTOR_ERR_INVALID_ARGUMENT,
        "create: small buffer");
  olen = sizeof os;
  const struct {
    const pqntor_relay *relay;
    const uint8_t *onionskin;
    size_t onionskin_len, key_len;
    int want;
    const char *what;
  } bad_reply[] = {
      {relay20, os, 1280, 72, PQNTOR_ERR_INVALID_ARGUMENT, "relay with a 20-byte ID in pq-ntor"},
      {relay32, NULL, 5, 72, PQNTOR_ERR_INVALID_ARGUMENT, "NULL onionskin"},
      {relay32, NULL, 0, 72, PQNTOR_ERR_MALFORMED, "empty onionskin"},
      {relay32, os, 1280, 0, PQNTOR_ERR_INVALID_ARGUMENT, "L = 0"},
  };
  for (size_t i = 0; i < sizeof bad_reply / sizeof bad_reply[0]; i++)
    CHECK(pqntor_server_reply(bad_reply[i].relay, PQNTOR_SUITE_MLKEM768, bad_reply[i].onionskin,
                              bad_reply[i].onionskin_len, r, &rlen, keys, bad_reply[i].key_len,
                              NULL) == bad_reply[i].want,
          "reply: %s", bad_reply[i].what);
  CHECK(pqntor_client_create(&st, os, &olen, PQNTOR_SUITE_MLKEM768, 72, id, 32, B, NULL) ==
            PQNTOR_OK,
        "create");
  CHECK(pqntor_client_finish(st, r, 1152, keys, 71, NULL) == PQNTOR_ERR_INVALID_ARGUMENT,
        "finish: wrong L");
  CHECK(pqntor_client_finish(st, r, 1152, keys, 72, NULL) == PQNTOR_ERR_STATE_USED,
        "finish: state consumed by a failed call");
  uint8_t ser[PQNTOR_CLIENT_STATE_MAX_LEN];
  size_t sl = sizeof ser;
  CHECK(pqntor_client_serialize(st, ser, &sl) == PQNTOR_ERR_STATE_USED, "serialize used state");
  pqntor_client_free(st);
  st = NULL;
  CHECK(pqntor_client_deserialize(&st, ser, 3) == PQNTOR_ERR_INVALID_ARGUMENT && !st,
        "deserialize junk");
  CHECK(pqntor_client_finish(NULL, r, 1152, keys, 72, NULL) == PQNTOR_ERR_INVALID_ARGUMENT,
        "finish NULL");
  pqntor_relay_free(relay20);
  pqntor_relay_free(relay32);
  printf("invalid arguments: checked\n");
}

int main(int argc, char **argv) {
  int first = 1, rounds = 100;
  const char *env = getenv("PQNTOR_TEST_ROUNDS");
  if (env != NULL)
    rounds = atoi(env);
  if (argc > 1 && strcmp(argv[1], "-q") == 0) {
    quiet = 1;
    first = 2;
  }
  for (int i = first; i < argc; i++)
    run_file(argv[i]);
  printf("system randomness, malformed messages, bit flips:\n");
  for (int s = 0; s < PQNTOR_NUM_SUITES; s++) {
    const pqntor_suite_info *si = pqntor_suite_get((pqntor_suite)s);
    /* the layout sizes of section 3 follow from the field sizes */
    size_t ss = si->ek_len ? 32 : 0, pl = strlen(si->protoid);
    CHECK(si->onionskin_len == si->id_len + 64 + si->ek_len && si->reply_len == 64 + si->ct_len &&
              si->secret_input_len == 64 + ss + si->id_len + 96 + si->ek_len + si->ct_len + pl &&
              si->auth_input_len == 32 + si->id_len + 96 + si->ct_len + si->ek_len + pl + 6,
          "%s: sizes", si->name);
    round_trips(si, s == 0 ? 3 * rounds : rounds);
    bit_flips(si, s == 0 || getenv("PQNTOR_TEST_FULL") != NULL);
    wrong_lengths(si);
  }
  invalid_arguments();
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
