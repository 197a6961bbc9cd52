package main

import (
	"math"
	"time"
)

// The clock is time.Now()/time.Since(): a time.Time from time.Now carries a
// monotonic reading, and time.Since on such a value reads only the runtime's
// monotonic clock (nanotime; CLOCK_MONOTONIC through the vDSO on Linux), so
// wall-clock steps never leak into a sample.
const clockSource = "time.Now()/time.Since() monotonic reading (Go runtime nanotime, CLOCK_MONOTONIC on Linux)"

// maxBatch caps calibration: the batch doubles from 1 until one batch lasts
// at least target_ns or reaches this many operations.
const maxBatch = int64(1) << 30

// globalSink receives every folded sink so the compiler cannot prove the
// results unused.
var globalSink uint64

// measureResolution returns the smallest non-zero difference between
// successive clock reads, in ns.
func measureResolution() int64 {
	best := int64(math.MaxInt64)
	prev := time.Now()
	for i := 0; i < 20000; i++ {
		now := time.Now()
		if d := int64(now.Sub(prev)); d > 0 && d < best {
			best = d
		}
		prev = now
	}
	if best == math.MaxInt64 {
		return 0
	}
	return best
}

// timeBatch times n consecutive operations of c. Nothing but the calls to
// c.Run and the addition of their results is inside the timed region; a
// cell with single-use inputs (preparedCell) makes them just before it.
func timeBatch(c Cell, n int64) (ns int64, sink uint64) {
	prepare(c, n)
	t0 := time.Now()
	for i := int64(0); i < n; i++ {
		sink += c.Run()
	}
	ns = int64(time.Since(t0))
	globalSink += sink
	return ns, sink
}

// warmup runs c for at least warmupNs (and at least one operation), in
// rounds that double in size but do not run far past the deadline.
func warmup(c Cell, warmupNs int64) (ops, ns int64, sink uint64) {
	t0 := time.Now()
	n := int64(1)
	for {
		prepare(c, n) // inside the warm-up's clock, which only bounds its length
		for i := int64(0); i < n; i++ {
			sink += c.Run()
		}
		ops += n
		ns = int64(time.Since(t0))
		if ns >= warmupNs || c.Err() != nil {
			break
		}
		perOp := ns / ops
		if perOp < 1 {
			perOp = 1
		}
		remaining := (warmupNs-ns)/perOp + 1
		n = min(2*n, remaining, maxBatch)
	}
	globalSink += sink
	return ops, ns, sink
}

// calibrate doubles the batch from 1 until one batch takes at least
// targetNs, capped at maxBatch.
func calibrate(c Cell, targetNs int64) (batch int64, sink uint64) {
	for batch = 1; ; batch *= 2 {
		ns, s := timeBatch(c, batch)
		sink += s
		if ns >= targetNs || batch >= maxBatch || c.Err() != nil {
			return batch, sink
		}
	}
}

// sample takes n samples of batch operations each.
func sample(c Cell, batch int64, n int) (samples []int64, sink uint64) {
	samples = make([]int64, n)
	for i := range samples {
		ns, s := timeBatch(c, batch)
		samples[i] = ns
		sink += s
	}
	return samples, sink
}
