package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The JNI time-stamp counter (native/tsc.c, loaded by Tsc from -Dcbdriver.tsc, which the pom's
 * surefire argLine sets as cbdriver-java does): it loads on x86-64, its ticks only go up, and a
 * timed batch's ticks are its time at the counter's rate (within a factor of 3: a check that the
 * count brackets the batch, not a timing threshold).
 */
class TscTest {
  private static final boolean X86 =
      System.getProperty("os.arch").equals("amd64")
          || System.getProperty("os.arch").equals("x86_64");

  @Test
  void theHelperLoadsOnX86() {
    if (!X86) {
      assertFalse(Tsc.AVAILABLE);
      assertEquals(0, Tsc.now());
      return;
    }
    assertTrue(Tsc.AVAILABLE, Tsc.STATUS + " (make -C drivers/java builds build/libcbtsc.so)");
    assertTrue(Tsc.STATUS.startsWith("rdtsc through JNI"), Tsc.STATUS);
  }

  @Test
  void ticksIncreaseMonotonically() {
    if (!Tsc.AVAILABLE) {
      return; // theHelperLoadsOnX86 fails where it should have loaded
    }
    long prev = Tsc.now();
    for (int i = 0; i < 100_000; i++) {
      long now = Tsc.now();
      assertTrue(now >= prev, now + " after " + prev);
      prev = now;
    }
  }

  @Test
  void aBatchsTicksAreItsTimeAtTheCountersRate() throws Exception {
    if (!Tsc.AVAILABLE) {
      return;
    }
    long t0 = System.nanoTime();
    long c0 = Tsc.now();
    while (System.nanoTime() - t0 < 20_000_000L) {
      Thread.onSpinWait();
    }
    double rate = (double) (Tsc.now() - c0) / (System.nanoTime() - t0); // ticks per ns
    assertTrue(rate > 0.1 && rate < 20, "rate " + rate + " ticks/ns");
    Provider.Alg sha = Provider.create("java:jca").alg("sha256");
    Provider.Cell cell =
        sha.cells().make(new Provider.CellParams("hash", new byte[0], new byte[0], 1, 4096, 0));
    Timing t = new Timing(cell);
    long[] ns = t.sample(64, 5);
    for (int i = 0; i < ns.length; i++) {
      double r = t.ticks[i] / (ns[i] * rate);
      assertTrue(
          r > 1 / 3.0 && r < 3, "sample " + i + ": " + t.ticks[i] + " ticks, " + ns[i] + " ns");
    }
    // what one call costs, for the record (target/surefire-reports/*-output.txt); not a threshold
    long s = 0;
    long a = System.nanoTime();
    for (int i = 0; i < 1_000_000; i++) {
      s += Tsc.now();
    }
    long b = System.nanoTime();
    for (int i = 0; i < 1_000_000; i++) {
      s += System.nanoTime();
    }
    long c = System.nanoTime();
    System.out.printf(
        "JNI rdtsc: %.1f ns a call; System.nanoTime(): %.1f ns (%d)%n",
        (b - a) / 1e6, (c - b) / 1e6, s & 1);
  }
}
