package dev.cryptobench.driver;

import com.sun.management.ThreadMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The clock, warm-up (the requested time, then JIT rounds until the compiled code is stable), batch
 * calibration, sampling and the sink. One Timing serves one bench cell.
 */
final class Timing {
  /**
   * System.nanoTime() is HotSpot's os::javaTimeNanos, which on Linux reads
   * clock_gettime(CLOCK_MONOTONIC) (through the vDSO).
   */
  static final String CLOCK_SOURCE =
      "System.nanoTime() (HotSpot on Linux: clock_gettime(CLOCK_MONOTONIC))";

  /** Calibration doubles the batch from 1 until one batch lasts target_ns or reaches this. */
  static final long MAX_BATCH = 1L << 30;

  /** Every folded sink ends here, so the JIT cannot prove the results unused. */
  static volatile long globalSink;

  /**
   * The JIT warm-up rule. After the requested warm-up time, rounds of one batch each run until the
   * last {@code window} round times are within {@code tolerance} of each other (max/min - 1), no
   * JIT compilation finished during them, and the cell has run at least {@code minOps} operations
   * in this process (HotSpot's tier-4 invocation threshold, so every method called once per
   * operation has had its chance to be compiled by C2: before that, a slower tier can look just as
   * stable); or until {@code maxRounds} rounds or {@code maxNs}. A cell whose warm-up ended stable
   * before in this process (the orchestrator's later rounds of the same cell) runs one window of
   * rounds only; one cut short by the caps goes on where it stopped.
   */
  record JitPolicy(int window, double tolerance, int maxRounds, long maxNs, long minOps) {
    /** The defaults, each overridable by a system property (-Dcbdriver.jit.window=...). */
    static JitPolicy fromSystemProperties() {
      return new JitPolicy(
          Integer.getInteger("cbdriver.jit.window", 5),
          Double.parseDouble(System.getProperty("cbdriver.jit.tolerance", "0.02")),
          Integer.getInteger("cbdriver.jit.maxRounds", 1000),
          Long.getLong("cbdriver.jit.maxMs", 3000) * 1_000_000L,
          Long.getLong("cbdriver.jit.minOps", tier4InvocationThreshold()));
    }

    String describe() {
      return String.format(
          "JIT warm-up: after the requested warmup_ns (doubling rounds, as every driver does),"
              + " rounds of one batch each (a batch lasting about target_ns at the warm-up's"
              + " pace, doubled whenever a round of the faster compiled code lasts less than"
              + " target_ns/2, the window starting again) run until the last %d round times"
              + " are within %.1f%% of each other (max/min), the JVM's total JIT compilation time"
              + " did not grow during them, and the cell has run at least %d operations in this"
              + " process (HotSpot's tier-4 invocation threshold, Tier4InvocationThreshold x"
              + " CompileThresholdScaling: before it, code still in a profiling tier can look just"
              + " as stable); at most %d rounds or %.1f s per request. A cell whose warm-up ended"
              + " stable earlier in this process (the orchestrator's later rounds) runs one window"
              + " of %d rounds; one cut short by those caps goes on in the next request. All of"
              + " it comes before calibration, so the batch is calibrated once, on compiled code,"
              + " as docs/protocol.md's loop says. The bench response's warmup object"
              + " reports ops/ns (the requested warm-up of docs/protocol.md), calibration_ops,"
              + " jit_ops, jit_rounds, jit_ns,"
              + " jit_stable, jit_stop (stable, rounds, time, window), jit_spread (max/min - 1 of"
              + " the last rounds), jit_compile_ms (JIT compilation time during the rounds),"
              + " cell_ops (operations of this cell run in this process so far) and"
              + " alloc_bytes_per_op (heap allocated per operation during the rounds).",
          window, tolerance * 100, minOps, maxRounds, maxNs / 1e9, window);
    }
  }

  /**
   * HotSpot's Tier4InvocationThreshold as in effect: 5000 by default; the JVM scales the flag
   * itself when -XX:CompileThresholdScaling is given (its origin is then ERGONOMIC).
   */
  static long tier4InvocationThreshold() {
    try {
      var hs =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      var t = hs.getVMOption("Tier4InvocationThreshold");
      long v = Long.parseLong(t.getValue());
      double scale = Double.parseDouble(hs.getVMOption("CompileThresholdScaling").getValue());
      if (scale != 1.0 && t.getOrigin() == com.sun.management.VMOption.Origin.DEFAULT) {
        v = Math.round(v * scale); // a JVM that does not scale the flag itself
      }
      return Math.max(1, v);
    } catch (RuntimeException e) {
      return 5000;
    }
  }

  /** What the JIT warm-up did; batch is the batch of its last round. */
  record JitResult(
      int rounds,
      long ns,
      long ops,
      boolean stable,
      String stop,
      double spread,
      long batch,
      long lastRoundNs,
      long compileMs,
      double allocBytesPerOp) {
    /** No JIT rounds (a cell with a warm-up cap): stop "capped". */
    static JitResult none(long batch) {
      return new JitResult(0, 0, 0, false, "capped", Double.NaN, batch, 0, 0, -1);
    }
  }

  private static final CompilationMXBean COMPILER = ManagementFactory.getCompilationMXBean();
  private static final java.lang.management.ThreadMXBean THREADS =
      ManagementFactory.getThreadMXBean();

  private final Provider.Cell cell;

  /** The sum of every timed (and warm-up) operation's folded output. */
  long sink;

  Timing(Provider.Cell cell) {
    this.cell = cell;
  }

  /** Successive clock reads of the resolution probe (docs/protocol.md, the measurement loop). */
  static final int PROBE_READS = 20_000;

  /** The smallest non-zero difference between PROBE_READS successive clock reads; 0 if none. */
  static long probeResolution() {
    long best = 0;
    long prev = System.nanoTime();
    for (int i = 0; i < PROBE_READS; i++) {
      long now = System.nanoTime();
      long d = now - prev;
      if (d > 0 && (best == 0 || d < best)) {
        best = d;
      }
      prev = now;
    }
    return best;
  }

  /**
   * Times n consecutive operations. Nothing but the cell's loop of run() calls and the addition of
   * their results is inside the timed region, less what the cell says is not the operation
   * (untimed_ns: a TLS cell timing one side of a handshake).
   */
  long timeBatch(long n) throws Exception {
    cell.takeUntimedNs(); // what the checksum or an earlier run left behind
    long t0 = System.nanoTime();
    long c0 = Tsc.now();
    long s = cell.loop(n);
    long c1 = Tsc.now();
    long t1 = System.nanoTime();
    long untimed = cell.takeUntimedNs();
    // the counter's ticks, read just inside the clock reads; none when untimed work was subtracted
    lastTicks = untimed == 0 ? c1 - c0 : 0;
    sink += s;
    globalSink += s;
    return t1 - t0 - untimed;
  }

  /** The time-stamp counter's ticks over the latest batch (0: no counter, or untimed work). */
  long lastTicks;

  /** The ticks of each sample of the latest {@link #sample} call. */
  long[] ticks = new long[0];

  /**
   * The requested warm-up: rounds of 1, 2, 4, ... operations (the last cut to the time left) until
   * warmupNs has passed; at least one operation. Returns {ops, ns}.
   */
  long[] warmUp(long warmupNs) throws Exception {
    long t0 = System.nanoTime();
    long ops = 0;
    long ns;
    long n = 1;
    while (true) {
      timeBatch(n);
      ops += n;
      ns = System.nanoTime() - t0;
      if (ns >= warmupNs) {
        break;
      }
      long perOp = Math.max(1, ns / ops);
      long remaining = (warmupNs - ns) / perOp + 1;
      n = Math.min(Math.min(2 * n, remaining), MAX_BATCH);
    }
    return new long[] {ops, ns};
  }

  /**
   * The warm-up of a cell with a cap (RSA key generation): one operation at a time until warmupNs
   * has passed and at least {@code least} operations ran, but never more than {@code cap}.
   */
  long[] cappedWarmup(long warmupNs, int least, int cap) throws Exception {
    long t0 = System.nanoTime();
    long ops = 0;
    long ns = 0;
    while (ops < cap && (ops < least || ns < warmupNs)) {
      timeBatch(1);
      ops++;
      ns = System.nanoTime() - t0;
    }
    return new long[] {ops, ns};
  }

  /** Batch 1, 2, 4, ... until one batch takes at least targetNs (or MAX_BATCH): {batch, ops}. */
  long[] calibrate(long targetNs) throws Exception {
    long ops = 0;
    for (long batch = 1; ; batch *= 2) {
      long ns = timeBatch(batch);
      ops += batch;
      if (ns >= targetNs || batch >= MAX_BATCH) {
        return new long[] {batch, ops};
      }
    }
  }

  /**
   * The batch of a JIT round: a power of two lasting about targetNs at the warm-up's pace (the
   * rounds double it while the compiled code gets faster).
   */
  static long roundBatch(long[] warm, long targetNs) {
    long perOp = Math.max(1, warm[1] / Math.max(1, warm[0]));
    long want = Math.max(1, Math.min(MAX_BATCH, targetNs / perOp));
    return Long.highestOneBit(want);
  }

  /**
   * Rounds of one batch each until the compiled code is stable (see {@link JitPolicy}); priorOps
   * operations of this cell ran in this process before, warmedBefore when an earlier request for
   * the same cell already ended its JIT warm-up stable. With targetNs > 0 (a batch the driver
   * calibrated) the batch doubles whenever a round of the faster compiled code lasts less than half
   * of targetNs, and the window starts again, so that rounds stay about one sample long.
   */
  JitResult jitWarmup(long batch, long targetNs, JitPolicy p, long priorOps, boolean warmedBefore)
      throws Exception {
    int w = p.window();
    long[] last = new long[w];
    long[] compiled = new long[w];
    long compile0 = compileMs();
    long alloc0 = allocatedBytes();
    long t0 = System.nanoTime();
    int rounds = 0;
    int inWindow = 0; // rounds with the current batch, up to w
    long ops = 0;
    boolean stable = false;
    String stop;
    double spread = Double.NaN;
    long roundNs;
    while (true) {
      long before = compileMs();
      roundNs = timeBatch(batch);
      last[inWindow % w] = roundNs;
      compiled[inWindow % w] = before;
      rounds++;
      inWindow++;
      ops += batch;
      long ns = System.nanoTime() - t0;
      if (inWindow >= w) {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long x : last) {
          min = Math.min(min, x);
          max = Math.max(max, x);
        }
        spread = min > 0 ? (double) max / min - 1 : Double.POSITIVE_INFINITY;
        // JIT compilation time at the start of the oldest round of the window, and now.
        boolean quiet = compiled[inWindow % w] == compileMs();
        boolean flat = spread <= p.tolerance() && quiet;
        if (warmedBefore) {
          stable = flat;
          stop = "window";
          break;
        }
        if (flat && priorOps + ops >= p.minOps()) {
          stable = true;
          stop = "stable";
          break;
        }
      }
      if (rounds >= p.maxRounds()) {
        stop = "rounds";
        break;
      }
      if (ns >= p.maxNs()) {
        stop = "time";
        break;
      }
      if (targetNs > 0 && roundNs < targetNs / 2 && batch < MAX_BATCH && !warmedBefore) {
        batch *= 2;
        inWindow = 0;
      }
    }
    long ns = System.nanoTime() - t0;
    long alloc = allocatedBytes();
    double allocPerOp = alloc0 < 0 || alloc < 0 ? -1 : (double) (alloc - alloc0) / ops;
    return new JitResult(
        rounds, ns, ops, stable, stop, spread, batch, roundNs, compileMs() - compile0, allocPerOp);
  }

  /** n samples of batch operations each. */
  long[] sample(long batch, int n) throws Exception {
    long[] samples = new long[n];
    ticks = new long[n];
    for (int i = 0; i < n; i++) {
      samples[i] = timeBatch(batch);
      ticks[i] = lastTicks;
    }
    return samples;
  }

  /** Total JIT compilation time of the JVM so far, in ms (-1 where unsupported). */
  static long compileMs() {
    return COMPILER != null && COMPILER.isCompilationTimeMonitoringSupported()
        ? COMPILER.getTotalCompilationTime()
        : -1;
  }

  /** Bytes allocated by this thread so far (-1 where unsupported). */
  static long allocatedBytes() {
    if (THREADS instanceof ThreadMXBean t && t.isThreadAllocatedMemorySupported()) {
      return t.getCurrentThreadAllocatedBytes();
    }
    return -1;
  }
}
