package dev.cryptobench.driver;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The time-stamp counter, read beside the clock in every timed batch (docs/protocol.md, bench:
 * samples_tsc). Java cannot execute rdtsc, so a one-function JNI helper does (native/tsc.c, built
 * by the driver's Makefile into build/libcbtsc.so on x86-64); cbdriver-java names it with
 * -Dcbdriver.tsc. Where it cannot be loaded, {@link #now} is 0, no ticks are sent, and {@link
 * #STATUS} (in hello's clock, and one line on stderr) says why.
 */
final class Tsc {
  /** Whether the helper is loaded; a constant, so the JIT drops the calls where it is not. */
  static final boolean AVAILABLE;

  /** What counts the ticks, or why nothing does. */
  static final String STATUS;

  static {
    String lib = System.getProperty("cbdriver.tsc", "");
    String arch = System.getProperty("os.arch", "");
    boolean ok = false;
    String status;
    if (!arch.equals("amd64") && !arch.equals("x86_64")) {
      status = "none: no time-stamp counter on " + arch;
    } else if (lib.isEmpty()) {
      status = "none: -Dcbdriver.tsc (the JNI helper's path) is not set";
    } else if (!Files.exists(Path.of(lib))) {
      status = "none: " + lib + " is missing (make -C drivers/java builds it)";
    } else {
      try {
        System.load(lib);
        rdtsc(); // a helper without the function fails here, not in a timed batch
        ok = true;
        status = "rdtsc through JNI (" + lib + ")";
      } catch (UnsatisfiedLinkError | SecurityException e) {
        status = "none: " + lib + " did not load: " + e.getMessage();
      }
    }
    AVAILABLE = ok;
    STATUS = status;
    if (!ok && !arch.isEmpty() && (arch.equals("amd64") || arch.equals("x86_64"))) {
      System.err.println("cbdriver-java: no cycle counter (" + status + "): cycles are converted");
    }
  }

  private Tsc() {}

  static native long rdtsc();

  /** The counter, or 0 without the helper. */
  static long now() {
    return AVAILABLE ? rdtsc() : 0;
  }
}
