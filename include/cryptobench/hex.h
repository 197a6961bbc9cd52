/* Hex text <-> bytes, header-only: one copy for the C driver (drivers/c/src/input.c), the
 * pq-ntor library's tools (protocols/pqntor/c/util.c) and any plugin. Not part of the ABI. */
#ifndef CRYPTOBENCH_HEX_H
#define CRYPTOBENCH_HEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Lower-case hex of b[0 .. n) into a fresh string (malloc), or NULL when out of memory. */
static inline char *cb_hex_encode(const uint8_t *b, size_t n) {
  static const char digits[] = "0123456789abcdef";
  char *s = (char *)malloc(2 * n + 1);
  if (s == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[b[i] >> 4];
    s[2 * i + 1] = digits[b[i] & 15];
  }
  s[2 * n] = '\0';
  return s;
}

/* The value of one hex digit (either case), or -1. */
static inline int cb_hex_nibble(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Hex (either case, even length) into a fresh buffer (malloc, at least 1 byte, so never NULL on
 * success, even for ""), its length in *n; NULL for bad hex or when out of memory. */
static inline uint8_t *cb_hex_decode(const char *s, size_t *n) {
  size_t len = strlen(s);
  if (len % 2 != 0)
    return NULL;
  uint8_t *b = (uint8_t *)malloc(len / 2 + 1);
  for (size_t i = 0; b != NULL && i < len / 2; i++) {
    int hi = cb_hex_nibble(s[2 * i]), lo = cb_hex_nibble(s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(b);
      return NULL;
    }
    b[i] = (uint8_t)(hi << 4 | lo);
  }
  if (b != NULL)
    *n = len / 2;
  return b;
}

#ifdef __cplusplus
}
#endif

#endif
