/* The clock, its measured resolution, warm-up, batch calibration and sampling. Every timed
 * operation is one ops_cell_run(); the sink folds each result so none can be dropped. */
#ifndef CB_TIMING_H
#define CB_TIMING_H

#include <stdint.h>

#include "ops.h"

#define TIMING_CLOCK_SOURCE "clock_gettime(CLOCK_MONOTONIC)"
#define TIMING_MAX_BATCH ((uint64_t)1 << 30) /* calibration stops doubling here */

#define TIMING_PROBE_READS 20000 /* successive clock reads of the resolution probe */

/* The cycle counter read beside the clock: the TSC on x86; every other CPU (aarch64, wasm) gets
 * the portable path, time only, and the hello says so in one note (docs/platforms.md). */
#if defined(__x86_64__) || defined(__i386__)
#define TIMING_HAVE_TSC 1
#else
#define TIMING_HAVE_TSC 0
#if defined(__aarch64__)
#define TIMING_ARCH "aarch64"
#elif defined(__wasm__)
#define TIMING_ARCH "wasm"
#else
#define TIMING_ARCH "this CPU"
#endif
#define TIMING_NO_TSC_NOTE "cycle counter: not available on " TIMING_ARCH " (no TSC); time only"
#endif

uint64_t timing_now_ns(void);

/* Smallest non-zero difference between TIMING_PROBE_READS successive clock reads, 0 when none
 * differed (measured once, then cached). */
uint64_t timing_resolution_ns(void);

/* The time-stamp counter's rate in Hz (x86-64), measured against the clock during the resolution
 * probe (no start-up time of its own), 0 where there is no such counter. The orchestrator turns
 * times into TSC reference cycles with it only where the CPU says the counter is invariant. */
double timing_tsc_hz(void);

/* The time-stamp counter now (x86-64), 0 where there is none. */
uint64_t timing_tsc_now(void);

/* Put the vector registers in a clean state (x86-64), so a cell does not inherit a slowdown from
 * the cell before it; called before each cell's warm-up, outside the timed region. */
void timing_clean_vector_state(void);

/* The timing part of a bench response. */
typedef struct timing_result {
  uint64_t batch;
  uint64_t *samples_ns; /* `samples` of them, filled by timing_measure */
  /* The time-stamp counter's ticks over each sample, read beside the clock (may be NULL: not
   * read). Left all 0 where there is no counter or a batch had untimed work inside it (its ticks
   * would include that work): the response then has no samples_tsc. */
  uint64_t *samples_tsc;
  uint64_t sink; /* every result folded, so none can be dropped */
  uint64_t warmup_ops, warmup_ns;
  uint64_t calibration_ops; /* 0 when the batch was given */
} timing_result;

/* docs/protocol.md, "The measurement loop": warm-up in rounds of 1, 2, 4, ... operations until
 * warmup_ns has passed (at least one operation), calibration when batch is 0 (1, 2, 4, ... until
 * one batch lasts target_ns, capped at TIMING_MAX_BATCH), then `samples` timed batches.
 * ops_cell_prepare() runs before every round and every timed batch, outside the timed region (a
 * handshake's client-finish makes its fresh client states there; other cells return at once).
 * 0, or -1 when an operation failed (the cell's error tells why). */
int timing_measure(ops_cell *c, uint64_t batch, uint64_t target_ns, uint64_t warmup_ns,
                   uint64_t samples, timing_result *out);

#endif
