#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <time.h>

uint64_t timing_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if TIMING_HAVE_TSC
#include <x86intrin.h>
static uint64_t tsc_now(void) { return __rdtsc(); }
#else
static uint64_t tsc_now(void) { return 0; } /* no time-stamp counter: no rate */
#endif

uint64_t timing_tsc_now(void) { return tsc_now(); }

static double tsc_hz; /* measured by the resolution probe, 0 where there is no counter */

uint64_t timing_resolution_ns(void) {
  static int probed;
  static uint64_t cached;
  if (!probed) {
    (void)timing_now_ns(); /* the first read can be slow (a cold vDSO page): not in the span */
    uint64_t c0 = tsc_now(), best = 0, prev = timing_now_ns(), t0 = prev;
    for (int i = 0; i < TIMING_PROBE_READS; i++) {
      uint64_t now = timing_now_ns();
      if (now > prev && (best == 0 || now - prev < best))
        best = now - prev;
      prev = now;
    }
    uint64_t c1 = tsc_now();
    cached = best;
    /* the counter's ticks over the probe's span of the clock (about 20000 reads, a few 100 µs) */
    tsc_hz = prev > t0 && c1 > c0 ? (double)(c1 - c0) * 1e9 / (double)(prev - t0) : 0;
    probed = 1;
  }
  return cached;
}

double timing_tsc_hz(void) {
  (void)timing_resolution_ns();
  return tsc_hz;
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

/* Defaults for a module linked without them (a library that keeps a big streamed decrypt's whole
 * ciphertext, in its native tests; the driver binary takes them from ops_plugin.c). */
__attribute__((weak)) int ops_regenerates_ciphertext(void) { return 0; }
__attribute__((weak)) uint64_t ops_cell_take_untimed_ns(ops_cell *c) {
  (void)c;
  return 0;
}

/* The only timed region: n consecutive operations, less the untimed work inside them (a big
 * streamed decrypt's ciphertext regenerated piece by piece, clock reads included; ops.h). */
static int time_batch(ops_cell *c, uint64_t n, uint64_t *ns, uint64_t *ticks, uint64_t *sink) {
  uint64_t s = 0;
  if (ops_cell_prepare(c, n) != 0) /* single-use inputs, outside the clock */
    return -1;
  (void)ops_cell_take_untimed_ns(c);             /* what the warm-up or the checksum left behind */
  uint64_t t0 = timing_now_ns(), c0 = tsc_now(); /* the counter read beside the clock */
  for (uint64_t i = 0; i < n; i++) {
    int r = ops_cell_run(c);
    if (r < 0)
      return -1;
    s += (uint64_t)r;
  }
  uint64_t c1 = tsc_now(), t1 = timing_now_ns();
  uint64_t untimed = ops_cell_take_untimed_ns(c);
  *ns = t1 - t0 - untimed;
  *ticks = untimed == 0 ? c1 - c0 : 0; /* no honest tick count for a batch with untimed work */
  *sink += s;
  return 0;
}

static int warm_up(ops_cell *c, uint64_t warmup_ns, timing_result *out) {
  uint64_t n = 1, t0 = timing_now_ns();
  for (;;) {
    if (ops_cell_prepare(c, n) != 0)
      return -1;
    for (uint64_t i = 0; i < n; i++) {
      int r = ops_cell_run(c);
      if (r < 0)
        return -1;
      out->sink += (uint64_t)r;
    }
    out->warmup_ops += n;
    out->warmup_ns = timing_now_ns() - t0;
    if (out->warmup_ns >= warmup_ns)
      return 0;
    uint64_t per_op = out->warmup_ns / out->warmup_ops;
    uint64_t left = (warmup_ns - out->warmup_ns) / (per_op > 0 ? per_op : 1) + 1;
    n = 2 * n < left ? 2 * n : left;
    if (n > TIMING_MAX_BATCH)
      n = TIMING_MAX_BATCH;
  }
}

static int calibrate(ops_cell *c, uint64_t target_ns, timing_result *out) {
  uint64_t b = 1, ns = 0, ticks = 0;
  for (;;) {
    if (time_batch(c, b, &ns, &ticks, &out->sink) != 0)
      return -1;
    out->calibration_ops += b;
    if (ns >= target_ns || b >= TIMING_MAX_BATCH)
      break;
    b *= 2;
  }
  out->batch = b;
  return 0;
}

int timing_measure(ops_cell *c, uint64_t batch, uint64_t target_ns, uint64_t warmup_ns,
                   uint64_t samples, timing_result *out) {
  out->batch = batch;
  if (warm_up(c, warmup_ns, out) != 0)
    return -1;
  if (batch == 0 && calibrate(c, target_ns, out) != 0)
    return -1;
  for (uint64_t i = 0; i < samples; i++) {
    uint64_t ticks = 0;
    if (time_batch(c, out->batch, &out->samples_ns[i], &ticks, &out->sink) != 0)
      return -1;
    if (out->samples_tsc != NULL)
      out->samples_tsc[i] = ticks;
  }
  return 0;
}
