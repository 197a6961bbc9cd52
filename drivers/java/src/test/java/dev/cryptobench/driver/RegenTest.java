package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A big streamed decrypt/open makes its ciphertext again per piece, off the clock
 * (docs/protocol.md, "Above 64 MiB"): the threshold is lowered here so a 200 KB cell takes that
 * path. It gives the same plaintext as the cell that holds its ciphertext, the driver holds no more
 * than a piece, the time spent remaking is handed over as untimed, and a library that holds the
 * whole ciphertext (SunJCE's GCM and ChaCha20-Poly1305) is named by the cell with the bytes it
 * held.
 */
class RegenTest {
  private static final int SEED = 12345;
  private static final long SIZE = 100_000; // 24 whole pieces and a short one
  private static final int CHUNK = 4096;

  @AfterEach
  void restore() {
    JcaOps.regenAbove = JcaOps.REGEN_ABOVE;
  }

  private static Provider.Cell cell(Provider.Alg a, String op, long regenAbove) throws Exception {
    JcaOps.regenAbove = regenAbove;
    String[] kv = BenchTest.keyIv(a.name());
    return a.cells()
        .make(
            new Provider.CellParams(
                op, Input.unhex("key", kv[0]), Input.unhex("iv", kv[1]), SEED, SIZE, CHUNK));
  }

  @TestFactory
  Stream<DynamicTest> remadeCiphertextGivesTheSamePlaintext() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String id : List.of("java:jca", "java:bouncycastle", "java:bouncycastle-lw")) {
      Provider p = Provider.create(id);
      for (Provider.Alg a : p.algs()) {
        for (String op : List.of("decrypt", "open")) {
          if (!a.streamOps().contains(op)) {
            continue;
          }
          tests.add(
              DynamicTest.dynamicTest(
                  id + " " + a.name() + " " + op,
                  () -> {
                    String held = cell(a, op, Long.MAX_VALUE).checksum();
                    Provider.Cell c = cell(a, op, 0);
                    String first = c.checksum();
                    assertEquals(held, first, "remade ciphertext, other plaintext");
                    assertTrue(first.startsWith(String.format("%08x:", SIZE)), first);
                    c.takeUntimedNs();
                    long sum = c.loop(3); // three operations, as a timed batch runs them
                    assertTrue(c.takeUntimedNs() > 0, "remaking the ciphertext took no time");
                    assertEquals(0, c.takeUntimedNs(), "untimed time is handed over once");
                    assertTrue(sum >= 0);
                    assertEquals(first, c.checksum(), "state leaked between operations");
                    if (c.memoryReport() == null) {
                      assertTrue(c.maxHeld <= CHUNK + 128, "held back " + c.maxHeld);
                    } else {
                      // the library, not the driver, holds the ciphertext: said, with the figure
                      assertEquals(SIZE, c.memoryReport().get("library_held_bytes").asLong());
                      assertTrue(
                          id.equals("java:jca")
                              && c.memoryReport().get("why").asText().contains("SunJCE"),
                          c.memoryReport().toString());
                    }
                  }));
        }
      }
    }
    assertTrue(tests.size() >= 30, "only " + tests.size() + " streamed decrypt/open cells");
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> encryptionAndSmallCellsHoldTheirUsualWay() {
    Provider p = Provider.create("java:bouncycastle");
    Provider.Alg gcm = p.alg("aes-128-gcm");
    return Stream.of(
        DynamicTest.dynamicTest(
            "seal is never remade, and says nothing of memory",
            () -> {
              Provider.Cell c = cell(gcm, "seal", 0);
              c.checksum();
              c.loop(2);
              assertEquals(0, c.takeUntimedNs());
              assertNull(c.memoryReport());
            }),
        DynamicTest.dynamicTest(
            "jca's GCM open says so below the threshold too",
            () -> {
              Provider.Cell c =
                  cell(Provider.create("java:jca").alg("aes-128-gcm"), "open", 1L << 40);
              c.checksum();
              assertNotNull(c.memoryReport());
              assertEquals(0, c.takeUntimedNs());
            }));
  }
}
