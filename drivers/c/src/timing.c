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
