//! The clock, its measured resolution, warm-up, batch calibration and
//! sampling. Inside a timed batch there is nothing but the calls to
//! `Cell::run` (one dynamic call each) and the wrapping addition of their
//! results into the sink.

use std::hint::black_box;
use std::time::Instant;

use crate::ops::Cell;

/// `std::time::Instant` is the monotonic clock: on Linux
/// `clock_gettime(CLOCK_MONOTONIC)` through the vDSO.
pub const CLOCK_SOURCE: &str =
    "std::time::Instant (clock_gettime(CLOCK_MONOTONIC) via the vDSO on Linux)";

/// Calibration doubles the batch from 1 until one batch lasts at least
/// `target_ns` or reaches this many operations.
pub const MAX_BATCH: u64 = 1 << 30;

fn ns_since(t0: Instant) -> u64 {
    u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// The number of successive clock reads of the resolution probe
/// (docs/protocol.md, "The measurement loop").
pub const PROBE_READS: u32 = 20_000;

/// The smallest non-zero difference between `PROBE_READS` successive clock
/// reads, in ns (0 if no two reads differed).
pub fn probe_resolution() -> u64 {
    let mut best = 0u64;
    let mut prev = Instant::now();
    for _ in 0..PROBE_READS {
        let now = Instant::now();
        let d = u64::try_from(now.duration_since(prev).as_nanos()).unwrap_or(u64::MAX);
        if d > 0 && (best == 0 || d < best) {
            best = d;
        }
        prev = now;
    }
    best
}

/// The time-stamp counter now (x86-64: `rdtsc`), `None` where there is none.
#[inline(always)]
pub fn tsc_now() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc exists on every x86-64 CPU and has no side effects.
        Some(unsafe { core::arch::x86_64::_rdtsc() })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// One timed batch: its time, the counter's ticks read beside the clock
/// (`None`: no counter, or untimed work inside the batch that the ticks
/// would include) and the sink.
pub struct Batch {
    pub ns: u64,
    pub ticks: Option<u64>,
    pub sink: u64,
}

/// The only timed region: `n` consecutive operations of `c`. The cell is
/// passed through `black_box` so the compiler can neither see through the
/// dynamic call nor drop an operation whose output nobody reads.
pub fn time_batch(c: &mut dyn Cell, n: u64) -> Batch {
    let c = black_box(c);
    c.take_untimed_ns(); // what the warm-up or the checksum left behind
    let mut sink = 0u64;
    let t0 = Instant::now();
    let c0 = tsc_now(); // the counter read beside the clock
    for _ in 0..n {
        sink = sink.wrapping_add(c.run());
    }
    let c1 = tsc_now();
    let elapsed = ns_since(t0);
    // a big streamed decrypt's ciphertext, made again off the clock
    let untimed = c.take_untimed_ns();
    let ticks = match (c0, c1) {
        (Some(a), Some(b)) if untimed == 0 && b > a => Some(b - a),
        _ => None,
    };
    Batch {
        ns: elapsed.saturating_sub(untimed),
        ticks,
        sink: black_box(sink),
    }
}

/// The warm-up's part of a bench response.
#[derive(Debug, Default, serde::Serialize)]
pub struct Warmup {
    pub ops: u64,
    pub ns: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibration_ops: Option<u64>,
}

/// Rounds of 1, 2, 4, ... operations (the last cut to the time left) until
/// `warmup_ns` has passed: at least one operation. Returns (warm-up, sink).
pub fn warm_up(c: &mut dyn Cell, warmup_ns: u64) -> (Warmup, u64) {
    let c = black_box(c);
    let mut w = Warmup::default();
    let mut sink = 0u64;
    let mut n = 1u64;
    let t0 = Instant::now();
    loop {
        for _ in 0..n {
            sink = sink.wrapping_add(c.run());
        }
        w.ops += n;
        w.ns = ns_since(t0);
        if w.ns >= warmup_ns {
            return (w, black_box(sink));
        }
        let per_op = (w.ns / w.ops).max(1);
        n = (2 * n).min((warmup_ns - w.ns) / per_op + 1).min(MAX_BATCH);
    }
}

/// Batch 1, 2, 4, ... until one batch takes at least `target_ns`, capped at
/// `MAX_BATCH`. Returns (batch, operations run, sink).
pub fn calibrate(c: &mut dyn Cell, target_ns: u64) -> (u64, u64, u64) {
    let (mut batch, mut ops, mut sink) = (1u64, 0u64, 0u64);
    loop {
        let b = time_batch(c, batch);
        sink = sink.wrapping_add(b.sink);
        ops += batch;
        if b.ns >= target_ns || batch >= MAX_BATCH {
            return (batch, ops, sink);
        }
        batch *= 2;
    }
}

/// The timing part of a bench response.
pub struct Measured {
    pub batch: u64,
    pub samples_ns: Vec<u64>,
    /// The counter's ticks over each sample, when every one has them.
    pub samples_tsc: Option<Vec<u64>>,
    pub sink: u64,
    pub warmup: Warmup,
}

/// docs/protocol.md's loop: warm-up, calibration when `batch` is 0, then
/// `samples` timed batches.
pub fn measure(
    c: &mut dyn Cell,
    batch: u64,
    target_ns: u64,
    warmup_ns: u64,
    samples: usize,
) -> Measured {
    let (mut warmup, mut sink) = warm_up(c, warmup_ns);
    let batch = if batch == 0 {
        let (b, ops, s) = calibrate(c, target_ns);
        warmup.calibration_ops = Some(ops);
        sink = sink.wrapping_add(s);
        b
    } else {
        batch
    };
    let mut samples_ns = Vec::with_capacity(samples);
    let mut samples_tsc = Some(Vec::with_capacity(samples));
    for _ in 0..samples {
        let b = time_batch(c, batch);
        samples_ns.push(b.ns);
        // a partial tick list would be worse than none
        samples_tsc = samples_tsc.zip(b.ticks).map(|(mut v, t)| {
            v.push(t);
            v
        });
        sink = sink.wrapping_add(b.sink);
    }
    Measured {
        batch,
        samples_ns,
        samples_tsc,
        sink,
        warmup,
    }
}

/// Peak resident set of the process in KiB: `VmHWM` from
/// /proc/self/status on Linux, else getrusage `ru_maxrss`; 0 where unknown.
///
/// Not getrusage on Linux: its `ru_maxrss` survives execve, so a driver
/// spawned by a large orchestrator would report the orchestrator's peak
/// (the high-water mark of the address space replaced at exec), while
/// `VmHWM` belongs to this program's own address space.
pub fn peak_rss_kb() -> u64 {
    if let Some(kb) = vm_hwm_kb() {
        return kb;
    }
    // SAFETY: getrusage only writes into the zeroed struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    if rc != 0 {
        return 0;
    }
    let kb = u64::try_from(ru.ru_maxrss).unwrap_or(0);
    if cfg!(target_os = "macos") {
        kb / 1024 // bytes there
    } else {
        kb
    }
}

fn vm_hwm_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
