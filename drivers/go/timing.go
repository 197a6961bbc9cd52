package main

import "time"

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

// probeReads is the number of successive clock reads of the resolution
// probe (docs/protocol.md, "The measurement loop").
const probeReads = 20000

// probeResolution returns the smallest non-zero difference between
// probeReads successive clock reads, in ns; 0 when no two reads differed.
func probeResolution() int64 {
	best := int64(0)
	prev := time.Now()
	for i := 0; i < probeReads; i++ {
		now := time.Now()
		if d := int64(now.Sub(prev)); d > 0 && (best == 0 || d < best) {
			best = d
		}
		prev = now
	}
	return best
}

// timeBatch times n consecutive operations of c: the only timed region.
// Nothing but the calls to c.Run and the addition of their results is inside
// it; a cell with single-use inputs (preparedCell) makes them just before.
// untimedCell is a cell with work inside Run that is not part of the
// operation (docs/protocol.md, "With chunk > 0"): timeBatch subtracts it.
type untimedCell interface{ takeUntimed() int64 }

// ticks is the time-stamp counter's count over the batch, read beside the
// clock; 0 where there is no counter or the batch had untimed work inside it
// (its ticks would include that work).
func timeBatch(c Cell, n int64) (ns int64, ticks uint64, sink uint64) {
	prepare(c, n)
	u, _ := c.(untimedCell)
	if u != nil {
		u.takeUntimed() // what the warm-up or the checksum left behind
	}
	t0 := time.Now()
	c0 := tscNow()
	for i := int64(0); i < n; i++ {
		sink += c.Run()
	}
	c1 := tscNow()
	ns = int64(time.Since(t0))
	if c1 > c0 {
		ticks = c1 - c0
	}
	if u != nil { // a big streamed decrypt's ciphertext, made again off the clock
		if untimed := u.takeUntimed(); untimed > 0 {
			ns -= untimed
			ticks = 0
		}
	}
	globalSink += sink
	return ns, ticks, sink
}

// warmUp runs c in rounds of 1, 2, 4, ... operations (the last cut to the
// time left) until warmupNs has passed: at least one operation.
func warmUp(c Cell, warmupNs int64) (w warmupInfo, sink uint64) {
	t0 := time.Now()
	n := int64(1)
	for {
		prepare(c, n) // inside the warm-up's clock, which only bounds its length
		for i := int64(0); i < n; i++ {
			sink += c.Run()
		}
		w.Ops += n
		w.Ns = int64(time.Since(t0))
		if w.Ns >= warmupNs || c.Err() != nil {
			break
		}
		perOp := max(w.Ns/w.Ops, 1)
		n = min(2*n, (warmupNs-w.Ns)/perOp+1, maxBatch)
	}
	globalSink += sink
	return w, sink
}

// calibrate doubles the batch from 1 until one batch takes at least
// targetNs, capped at maxBatch: (batch, operations run, sink).
func calibrate(c Cell, targetNs int64) (batch, ops int64, sink uint64) {
	for batch = 1; ; batch *= 2 {
		ns, _, s := timeBatch(c, batch)
		sink += s
		ops += batch
		if ns >= targetNs || batch >= maxBatch || c.Err() != nil {
			return batch, ops, sink
		}
	}
}

// measured is the timing part of a bench response.
type measured struct {
	Batch   int64
	Samples []int64
	Ticks   []uint64 // the counter beside each sample; nil unless every sample has them
	Sink    uint64
	Warmup  warmupInfo
}

// measure is docs/protocol.md's loop: warm-up, calibration when batch is 0,
// then the samples. The caller checks c.Err() afterwards.
func measure(c Cell, batch, targetNs, warmupNs int64, samples int) measured {
	m := measured{Batch: batch, Samples: make([]int64, 0, samples)}
	m.Warmup, m.Sink = warmUp(c, warmupNs)
	if c.Err() != nil {
		return m
	}
	if batch == 0 {
		var ops int64
		var s uint64
		m.Batch, ops, s = calibrate(c, targetNs)
		m.Warmup.CalibrationOps = &ops
		m.Sink += s
	}
	ticksOK := haveTSC
	for i := 0; i < samples && c.Err() == nil; i++ {
		ns, t, s := timeBatch(c, m.Batch)
		m.Samples = append(m.Samples, ns)
		m.Ticks = append(m.Ticks, t)
		ticksOK = ticksOK && t > 0
		m.Sink += s
	}
	if !ticksOK { // a partial tick list would be worse than none
		m.Ticks = nil
	}
	return m
}
