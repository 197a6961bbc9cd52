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

/// The smallest non-zero difference between successive clock reads, in ns
/// (0 if no two reads differed).
pub fn measure_resolution() -> u64 {
    let mut best = u64::MAX;
    let mut prev = Instant::now();
    for _ in 0..20_000 {
        let now = Instant::now();
        let d = u64::try_from(now.duration_since(prev).as_nanos()).unwrap_or(u64::MAX);
        if d > 0 && d < best {
            best = d;
        }
        prev = now;
    }
    if best == u64::MAX {
        0
    } else {
        best
    }
}

/// Times `n` consecutive operations of `c`. The cell is passed through
/// `black_box` so the compiler can neither see through the dynamic call nor
/// drop an operation whose output nobody reads.
pub fn time_batch(c: &mut dyn Cell, n: u64) -> (u64, u64) {
    let c = black_box(c);
    let mut sink = 0u64;
    let t0 = Instant::now();
    for _ in 0..n {
        sink = sink.wrapping_add(c.run());
    }
    let ns = ns_since(t0);
    (ns, black_box(sink))
}

/// Runs `c` for at least `warmup_ns` (and at least one operation), in rounds
/// that double but do not run far past the deadline. Returns (ops, ns, sink).
pub fn warmup(c: &mut dyn Cell, warmup_ns: u64) -> (u64, u64, u64) {
    let c = black_box(c);
    let mut sink = 0u64;
    let mut ops = 0u64;
    let mut n = 1u64;
    let t0 = Instant::now();
    loop {
        for _ in 0..n {
            sink = sink.wrapping_add(c.run());
        }
        ops += n;
        let ns = ns_since(t0);
        if ns >= warmup_ns {
            return (ops, ns, black_box(sink));
        }
        let per_op = (ns / ops).max(1);
        let remaining = (warmup_ns - ns) / per_op + 1;
        n = (2 * n).min(remaining).min(MAX_BATCH);
    }
}

/// Doubles the batch from 1 until one batch takes at least `target_ns`,
/// capped at `MAX_BATCH`. Returns (batch, sink).
pub fn calibrate(c: &mut dyn Cell, target_ns: u64) -> (u64, u64) {
    let mut sink = 0u64;
    let mut batch = 1u64;
    loop {
        let (ns, s) = time_batch(c, batch);
        sink = sink.wrapping_add(s);
        if ns >= target_ns || batch >= MAX_BATCH {
            return (batch, sink);
        }
        batch *= 2;
    }
}

/// Takes `n` samples of `batch` operations each. Returns (samples, sink).
pub fn sample(c: &mut dyn Cell, batch: u64, n: usize) -> (Vec<u64>, u64) {
    let mut samples = Vec::with_capacity(n);
    let mut sink = 0u64;
    for _ in 0..n {
        let (ns, s) = time_batch(c, batch);
        samples.push(ns);
        sink = sink.wrapping_add(s);
    }
    (samples, sink)
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
