package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The clock, calibration and the JIT warm-up rule, on a cell whose cost is known. */
class TimingTest {
  /** Spins for about spinNs per operation; counts its runs. */
  static final class SpinCell extends Provider.Cell {
    final long spinNs;
    long runs;

    SpinCell(long spinNs) {
      this.spinNs = spinNs;
    }

    @Override
    byte[] output() {
      return new byte[0];
    }

    @Override
    long run() {
      runs++;
      long end = System.nanoTime() + spinNs;
      while (System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      return 1;
    }

    @Override
    long loop(long n) throws Exception {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }

  @Test
  void resolutionIsMeasured() {
    long r = Timing.probeResolution();
    assertTrue(r > 0 && r < 1_000_000, "resolution " + r + " ns");
  }

  @Test
  void calibrationDoublesUntilTheTarget() throws Exception {
    SpinCell c = new SpinCell(10_000);
    Timing t = new Timing(c);
    long[] cal = t.calibrate(200_000);
    long batch = cal[0];
    assertEquals(Long.bitCount(batch), 1, "a power of two");
    assertEquals(2 * batch - 1, cal[1], "batch 1, 2, 4, ... ran 2*batch-1 operations");
    assertTrue(batch >= 16 && batch <= 32, "batch " + batch + " for 200 us of 10 us ops");
    assertEquals(t.sink, c.runs, "every run is folded into the sink");
  }

  @Test
  void warmupRunsAtLeastTheRequestedTime() throws Exception {
    Timing t = new Timing(new SpinCell(1_000));
    long[] w = t.warmUp(5_000_000);
    assertTrue(w[1] >= 5_000_000 && w[0] >= 1, "ops " + w[0] + ", ns " + w[1]);
    // no runaway, counted in operations: a wall-time bound fails whenever the machine is busy
    assertTrue(w[0] < 50_000, "no runaway: " + w[0] + " operations of 1 us for 5 ms");
  }

  @Test
  void warmUpOfZeroRunsOneOperation() throws Exception {
    SpinCell c = new SpinCell(1_000);
    long[] w = new Timing(c).warmUp(0);
    assertEquals(1, w[0], "one round of one operation");
    assertEquals(1, c.runs);
  }

  /** The JIT warm-up of a fresh cell of spinNs per operation, from the given batch. */
  private static Timing.JitResult jitWarmup(
      long spinNs, int batch, Timing.JitPolicy p, boolean warm) throws Exception {
    return new Timing(new SpinCell(spinNs)).jitWarmup(batch, 0, p, 0, warm);
  }

  @Test
  void jitWarmupStopsWhenStableAndEnoughOpsRan() throws Exception {
    Timing.JitResult r =
        jitWarmup(20_000, 10, new Timing.JitPolicy(3, 0.5, 100, 1_000_000_000L, 50), false);
    assertTrue(r.stable(), r.toString());
    assertEquals("stable", r.stop());
    assertTrue(r.ops() >= 50, "at least minOps: " + r);
  }

  @Test
  void jitWarmupDoesNotCallAPlateauStableBeforeMinOps() throws Exception {
    Timing t = new Timing(new SpinCell(10_000));
    Timing.JitPolicy p = new Timing.JitPolicy(3, 0.5, 8, 1_000_000_000L, 1_000_000);
    Timing.JitResult r = t.jitWarmup(4, 0, p, 0, false);
    assertFalse(r.stable(), r.toString());
    assertEquals("rounds", r.stop());
    assertEquals(8, r.rounds());
    r = t.jitWarmup(4, 0, new Timing.JitPolicy(3, 0.5, 1000, 5_000_000L, 1_000_000), 0, false);
    assertEquals("time", r.stop(), r.toString());
  }

  @Test
  void aCellWarmedBeforeRunsOneWindow() throws Exception {
    Timing.JitResult r =
        jitWarmup(10_000, 2, new Timing.JitPolicy(4, 0.5, 1000, 1_000_000_000L, 1_000_000), true);
    assertEquals(4, r.rounds());
    assertEquals("window", r.stop());
  }

  @Test
  void jitRoundsGrowACalibratedBatchThatGotShort() throws Exception {
    Timing t = new Timing(new SpinCell(10_000));
    Timing.JitPolicy p = new Timing.JitPolicy(3, 0.5, 100, 1_000_000_000L, 1);
    // Batch 1 (10 us) against a 200 us target: doubled to 16 or 32 (160-320 us rounds).
    Timing.JitResult r = t.jitWarmup(1, 200_000, p, 0, false);
    assertTrue(r.batch() >= 16 && r.batch() <= 32, r.toString());
    assertTrue(r.rounds() >= 3 + 4, "the window restarted after each doubling: " + r);
    assertEquals("stable", r.stop());
    // A batch given by the request is kept.
    assertEquals(1, t.jitWarmup(1, 0, p, 0, false).batch());
  }

  @Test
  void samplesTimeWholeBatches() throws Exception {
    Timing t = new Timing(new SpinCell(50_000));
    long[] s = t.sample(4, 3);
    assertEquals(3, s.length);
    for (long x : s) {
      assertTrue(x >= 200_000, "4 ops of 50 us took " + x + " ns");
    }
  }
}
