/* The clock, its measured resolution, warm-up, batch calibration and sampling. Every timed
 * operation is one ops_cell_run(); the sink folds each result so none can be dropped. */
#ifndef CB_TIMING_H
#define CB_TIMING_H

#include <stdint.h>

#include "ops.h"

#define TIMING_CLOCK_SOURCE "clock_gettime(CLOCK_MONOTONIC)"
#define TIMING_MAX_BATCH ((uint64_t)1 << 30) /* calibration stops doubling here */

uint64_t timing_now_ns(void);

/* Smallest non-zero difference between successive clock reads (measured once, then cached). */
uint64_t timing_resolution_ns(void);

/* All return 0, or -1 when an operation failed (the cell's error tells why). `sink`
 * accumulates every result. ops_cell_prepare() runs before every timed batch and every warm-up
 * operation, outside the timed region (a handshake's client-finish makes its fresh client states
 * there; every other cell returns at once). */

/* Put the vector registers in a clean state (x86-64), so a cell does not inherit a slowdown from
 * the cell before it; called before each cell's warm-up, outside the timed region. */
void timing_clean_vector_state(void);

/* Run the operation for at least warmup_ns (at least once); report how many ops and how long. */
int timing_warmup(ops_cell *c, uint64_t warmup_ns, uint64_t *ops, uint64_t *ns, uint64_t *sink);

/* Double the batch from 1 until one batch takes at least target_ns (or TIMING_MAX_BATCH). */
int timing_calibrate(ops_cell *c, uint64_t target_ns, uint64_t *batch, uint64_t *sink);

/* Time `batch` consecutive operations; elapsed nanoseconds into *ns. */
int timing_sample(ops_cell *c, uint64_t batch, uint64_t *ns, uint64_t *sink);

#endif
