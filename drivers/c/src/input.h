/* The fixed input every driver generates (protocol.md, "The fixed input"), FNV-1a 64, the
 * checksum string and hex helpers. Library-independent. */
#ifndef CB_INPUT_H
#define CB_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define INPUT_PERIOD ((size_t)1 << 20) /* the pattern's length: 1 MiB */
#define INPUT_CHECKSUM_LEN 40          /* buffer size for input_checksum() */

/* Fill p[0 .. INPUT_PERIOD) with the xorshift32 pattern for seed (seed != 0). */
void input_pattern(uint32_t seed, uint8_t *p);

/* A freshly allocated message of n bytes, M[i] = P[i mod 1 MiB]; never NULL for n = 0 (a
 * 1-byte allocation). NULL when out of memory. Free with free(). */
uint8_t *input_message(uint32_t seed, size_t n);

/* The pattern twice (2 MiB), for streamed cells of an n-byte message: a piece of up to 1 MiB
 * starting anywhere in the period is contiguous (protocol.md, bench, chunk > 0). Under 1 MiB only
 * the message's own n bytes are filled (zeros after). NULL when out of memory. */
uint8_t *input_pattern_twice(uint32_t seed, size_t n);

uint64_t input_fnv1a64(const uint8_t *b, size_t n);

/* "<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>" into out[INPUT_CHECKSUM_LEN]. */
void input_checksum(const uint8_t *b, size_t n, char *out);

/* The same string from a length and an FNV-1a 64 computed incrementally. */
void input_checksum_of(uint64_t len, uint64_t fnv, char *out);

/* Lowercase hex of b[0 .. n); freshly allocated, NULL when out of memory. */
char *hex_encode(const uint8_t *b, size_t n);

/* Decode hex (either case, even length) into a fresh allocation (at least 1 byte, so never
 * NULL on success, even for ""). Returns 0, or -1 for bad hex / out of memory. */
int hex_decode(const char *s, uint8_t **out, size_t *n);

#endif
