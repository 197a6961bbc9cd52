#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include <cryptobench/hex.h>

char *hex_encode(const uint8_t *data, size_t len) { return cb_hex_encode(data, len); }

uint8_t *hex_decode(const char *hex, size_t *len) { return cb_hex_decode(hex, len); }

void draw_queue_init(draw_queue *q) { memset(q, 0, sizeof *q); }

void draw_queue_push(draw_queue *q, const uint8_t *buf, size_t len) {
  if (q->count < DRAW_QUEUE_MAX) {
    q->buf[q->count] = buf;
    q->len[q->count] = len;
    q->count++;
  } else {
    q->error = 1;
  }
}

void draw_queue_two(draw_queue *q, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  draw_queue_init(q);
  draw_queue_push(q, a, alen);
  if (b != NULL)
    draw_queue_push(q, b, blen);
}

int draw_queue_fn(void *ctx, uint8_t *out, size_t len) {
  draw_queue *q = ctx;
  if (q->next >= q->count || q->len[q->next] != len) {
    q->error = 1;
    return 0;
  }
  memcpy(out, q->buf[q->next], len);
  q->next++;
  return 1;
}

void trace_rec_fn(void *ctx, const char *name, const uint8_t *data, size_t len) {
  trace_rec *t = ctx;
  size_t i;
  for (i = 0; i < t->count; i++)
    if (strcmp(t->name[i], name) == 0)
      break;
  if (i == TRACE_MAX)
    return;
  if (i == t->count) {
    t->name[i] = strdup(name);
    t->count++;
  } else {
    free(t->data[i]);
  }
  t->data[i] = malloc(len + 1);
  if (t->data[i] != NULL && len != 0)
    memcpy(t->data[i], data, len);
  t->len[i] = len;
}

const uint8_t *trace_rec_get(const trace_rec *t, const char *name, size_t *len) {
  for (size_t i = 0; i < t->count; i++) {
    if (strcmp(t->name[i], name) == 0) {
      *len = t->len[i];
      return t->data[i];
    }
  }
  return NULL;
}

void trace_rec_free(trace_rec *t) {
  for (size_t i = 0; i < t->count; i++) {
    free(t->name[i]);
    free(t->data[i]);
  }
  memset(t, 0, sizeof *t);
}

static int encap(EVP_MD_CTX *c, const char *s) {
  size_t n = strlen(s);
  uint8_t be[8];
  for (int i = 0; i < 8; i++)
    be[i] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
  return EVP_DigestUpdate(c, be, 8) == 1 && EVP_DigestUpdate(c, s, n) == 1;
}

int kat_draw(const char *seed, const char *label, uint8_t *out, size_t n) {
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  int ok = c != NULL && EVP_DigestInit_ex(c, EVP_shake256(), NULL) == 1 &&
           encap(c, "cryptobench/pq-ntor/test-vectors/v1") && encap(c, seed) && encap(c, label) &&
           EVP_DigestFinalXOF(c, out, n) == 1;
  EVP_MD_CTX_free(c);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median(double *v, size_t n) {
  if (n == 0)
    return 0;
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void suite_sizes(const pqntor_suite_info *si, suite_size out[SUITE_SIZES]) {
  const suite_size sz[SUITE_SIZES] = {{"id", si->id_len},
                                      {"x25519", 32},
                                      {"mlkem_ek", si->ek_len},
                                      {"mlkem_ct", si->ct_len},
                                      {"auth", 32},
                                      {"onionskin", si->onionskin_len},
                                      {"reply", si->reply_len},
                                      {"secret_input", si->secret_input_len},
                                      {"auth_input", si->auth_input_len}};
  memcpy(out, sz, sizeof sz);
}
