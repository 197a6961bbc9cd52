#include "input.h"

#include <cryptobench/hex.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes [from, to) of the pattern; x: the generator's state before byte `from` (the seed at 0). */
static uint32_t pattern_fill(uint32_t x, uint8_t *p, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = (uint8_t)(x & 0xff);
  }
  return x;
}

void input_pattern(uint32_t seed, uint8_t *p) { pattern_fill(seed, p, 0, INPUT_PERIOD); }

/* The pattern of the last seed asked for, made once and only as far as a request reads it: all
 * 1 MiB takes about 2 ms, which every bench request paid before (a paired round's one-batch
 * requests of 1 ms most of all), and verification's differential inputs (a new seed each, most
 * under 2 KiB) paid it for every input: 72% of `plugin check`'s CPU. The driver answers one
 * request at a time, so one cache needs no lock. NULL when out of memory. */
static const uint8_t *pattern_of(uint32_t seed, size_t need) {
  static uint8_t *cache;
  static uint32_t cached_seed, state; /* seed 0: none yet (a seed is never 0) */
  static size_t made;                 /* bytes of cached_seed's pattern in cache */
  if (cache == NULL && (cache = malloc(INPUT_PERIOD)) == NULL)
    return NULL;
  if (cached_seed != seed) {
    cached_seed = state = seed;
    made = 0;
  }
  need = need < INPUT_PERIOD ? need : INPUT_PERIOD;
  if (made < need) {
    state = pattern_fill(state, cache, made, need);
    made = need;
  }
  return cache;
}

uint8_t *input_message(uint32_t seed, size_t n) {
  const uint8_t *p = pattern_of(seed, n);
  uint8_t *m = p == NULL ? NULL : malloc(n > 0 ? n : 1);
  if (m == NULL)
    return NULL;
  for (size_t off = 0; off < n; off += INPUT_PERIOD)
    memcpy(m + off, p, n - off < INPUT_PERIOD ? n - off : INPUT_PERIOD);
  return m;
}

uint8_t *input_pattern_twice(uint32_t seed, size_t n) {
  const uint8_t *pat = pattern_of(seed, n);
  uint8_t *p = pat == NULL ? NULL : calloc(2, INPUT_PERIOD); /* zeros past n, never stale bytes */
  if (p == NULL)
    return NULL;
  if (n < INPUT_PERIOD) { /* a message within one period reads only its own n bytes */
    memcpy(p, pat, n);
    return p;
  }
  memcpy(p, pat, INPUT_PERIOD);
  memcpy(p + INPUT_PERIOD, pat, INPUT_PERIOD);
  return p;
}

uint64_t input_fnv1a64(const uint8_t *b, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

void input_checksum_of(uint64_t len, uint64_t fnv, char *out) {
  snprintf(out, INPUT_CHECKSUM_LEN, "%08llx:%016llx", (unsigned long long)len,
           (unsigned long long)fnv);
}

void input_checksum(const uint8_t *b, size_t n, char *out) {
  input_checksum_of(n, input_fnv1a64(b, n), out);
}

char *hex_encode(const uint8_t *b, size_t n) { return cb_hex_encode(b, n); }

int hex_decode(const char *s, uint8_t **out, size_t *n) {
  *out = cb_hex_decode(s, n);
  return *out != NULL ? 0 : -1;
}
