#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <time.h>

uint64_t timing_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t timing_resolution_ns(void) {
  static uint64_t cached;
  if (cached == 0) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; i++) {
      uint64_t a = timing_now_ns(), b;
      do {
        b = timing_now_ns();
      } while (b == a);
      if (b - a < best)
        best = b - a;
    }
    cached = best;
  }
  return cached;
}

#if defined(__x86_64__)
/* Zero zmm16-31 with 128-bit EVEX writes (which clear the upper bits), then vzeroupper for
 * zmm0-15. Separate, never inlined, and compiled for AVX-512 so the clobbers are legal. */
__attribute__((target("avx512f"), noinline)) static void clean_avx512(void) {
  __asm__ volatile("vpxord %%xmm16, %%xmm16, %%xmm16\n\tvpxord %%xmm17, %%xmm17, %%xmm17\n\t"
                   "vpxord %%xmm18, %%xmm18, %%xmm18\n\tvpxord %%xmm19, %%xmm19, %%xmm19\n\t"
                   "vpxord %%xmm20, %%xmm20, %%xmm20\n\tvpxord %%xmm21, %%xmm21, %%xmm21\n\t"
                   "vpxord %%xmm22, %%xmm22, %%xmm22\n\tvpxord %%xmm23, %%xmm23, %%xmm23\n\t"
                   "vpxord %%xmm24, %%xmm24, %%xmm24\n\tvpxord %%xmm25, %%xmm25, %%xmm25\n\t"
                   "vpxord %%xmm26, %%xmm26, %%xmm26\n\tvpxord %%xmm27, %%xmm27, %%xmm27\n\t"
                   "vpxord %%xmm28, %%xmm28, %%xmm28\n\tvpxord %%xmm29, %%xmm29, %%xmm29\n\t"
                   "vpxord %%xmm30, %%xmm30, %%xmm30\n\tvpxord %%xmm31, %%xmm31, %%xmm31\n\t"
                   "vzeroupper" ::
                       : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
                         "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
}

__attribute__((target("avx"), noinline)) static void clean_avx(void) {
  __asm__ volatile("vzeroupper");
}
#endif

void timing_clean_vector_state(void) {
#if defined(__x86_64__)
  /* Code that leaves zmm16-31 dirty (OpenSSL 3.0's AVX-512 ChaCha20-Poly1305) makes legacy-SSE
   * code run afterwards slower: SHA-NI sha256 measured 18% slower on this project's AMD EPYC
   * after a chacha20-poly1305 cell in the same process. vzeroupper alone does not clean zmm16-31.
   * Cleaning before each cell gives every cell the same state whatever cell ran before it. */
  if (__builtin_cpu_supports("avx512f"))
    clean_avx512();
  else if (__builtin_cpu_supports("avx"))
    clean_avx();
#endif
}

int timing_warmup(ops_cell *c, uint64_t warmup_ns, uint64_t *ops, uint64_t *ns, uint64_t *sink) {
  uint64_t n = 0, s = *sink, t0 = timing_now_ns(), t;
  do {
    /* a handshake's client-finish makes its single-use input here (no-op for other cells) */
    if (ops_cell_prepare(c, 1) != 0)
      return -1;
    int r = ops_cell_run(c);
    if (r < 0)
      return -1;
    s += (uint64_t)r;
    n++;
    t = timing_now_ns();
  } while (t - t0 < warmup_ns);
  *ops = n;
  *ns = t - t0;
  *sink = s;
  return 0;
}

int timing_sample(ops_cell *c, uint64_t batch, uint64_t *ns, uint64_t *sink) {
  uint64_t s = 0;
  /* outside the timed region: the batch's single-use inputs (handshake client-finish); returns
   * at once for every other cell */
  if (ops_cell_prepare(c, batch) != 0)
    return -1;
  uint64_t t0 = timing_now_ns();
  for (uint64_t i = 0; i < batch; i++) {
    int r = ops_cell_run(c);
    if (r < 0)
      return -1;
    s += (uint64_t)r;
  }
  uint64_t t1 = timing_now_ns();
  *ns = t1 - t0;
  *sink += s;
  return 0;
}

int timing_calibrate(ops_cell *c, uint64_t target_ns, uint64_t *batch, uint64_t *sink) {
  uint64_t b = 1, ns = 0;
  for (;;) {
    if (timing_sample(c, b, &ns, sink) != 0)
      return -1;
    if (ns >= target_ns || b >= TIMING_MAX_BATCH)
      break;
    b *= 2;
  }
  *batch = b;
  return 0;
}
