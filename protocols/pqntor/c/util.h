/* Helpers shared by the pqntor tests, vector generator, CLI and benchmark (not the library). */
#ifndef PQNTOR_UTIL_H
#define PQNTOR_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "pqntor.h"

/* Lower-case hex of data into a fresh string (malloc), or NULL. */
char *hex_encode(const uint8_t *data, size_t len);
/* Hex (either case, even length) into a fresh buffer (malloc, at least 1 byte). */
uint8_t *hex_decode(const char *hex, size_t *len);

/* A draw function serving given byte strings in order; a request of another length, or
 * past the end, fails (and sets error): the order and sizes of section 8 are enforced. */
#define DRAW_QUEUE_MAX 4
typedef struct {
  const uint8_t *buf[DRAW_QUEUE_MAX];
  size_t len[DRAW_QUEUE_MAX];
  size_t count, next;
  int error;
} draw_queue;
void draw_queue_init(draw_queue *q);
void draw_queue_push(draw_queue *q, const uint8_t *buf, size_t len);
int draw_queue_fn(void *ctx, uint8_t *out, size_t len);
/* A fresh queue serving a, then b unless b is NULL (no ML-KEM input: the classical suite). */
void draw_queue_two(draw_queue *q, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* Records the library's trace (name -> copy of the bytes; a repeated name is replaced). */
#define TRACE_MAX 32
typedef struct {
  char *name[TRACE_MAX];
  uint8_t *data[TRACE_MAX];
  size_t len[TRACE_MAX];
  size_t count;
} trace_rec;
void trace_rec_fn(void *ctx, const char *name, const uint8_t *data, size_t len);
const uint8_t *trace_rec_get(const trace_rec *t, const char *name, size_t *len);
void trace_rec_free(trace_rec *t);

/* Spec section 9.1: DRAW(seed, label, n), SHAKE-256 through OpenSSL EVP. Returns 1 on success. */
int kat_draw(const char *seed, const char *label, uint8_t *out, size_t n);

/* The field sizes a vector file's "sizes" object lists for a suite, in order: name, length. */
#define SUITE_SIZES 9
typedef struct {
  const char *name;
  size_t len;
} suite_size;
void suite_sizes(const pqntor_suite_info *si, suite_size out[SUITE_SIZES]);

/* Median of n doubles (sorts the array). */
double median(double *v, size_t n);
double now_us(void);

#endif
