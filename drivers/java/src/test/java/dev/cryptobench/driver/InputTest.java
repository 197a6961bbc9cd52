package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.MessageDigest;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The check values of protocol.md, "The fixed input". */
class InputTest {
  static final int CHECK_SEED = (int) 2654435769L;

  @Test
  void patternFirstBytes() {
    assertEquals("193e3ab51f37d0bf39b8eeb4d33cb85f", Input.hex(Input.pattern2(CHECK_SEED), 0, 16));
  }

  @Test
  void patternFnv() {
    byte[] p = Input.pattern2(CHECK_SEED);
    assertEquals(2 << 20, p.length, "the pattern is kept twice");
    assertEquals("7ef541935f3b9cc9", String.format("%016x", Input.fnv1a64(p, 0, 1024)));
    assertEquals("1846d3257d44728c", String.format("%016x", Input.fnv1a64(p, 0, 1 << 20)));
    assertArrayEquals(
        Arrays.copyOfRange(p, 0, 1 << 20),
        Arrays.copyOfRange(p, 1 << 20, 2 << 20),
        "second MiB repeats the first");
  }

  @Test
  void patternSha256() throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256", "SUN").digest(Input.message(CHECK_SEED, 1024));
    assertEquals("8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01", Input.hex(d));
    assertEquals("00000020:fb4898be6151a393", Input.checksum(d));
  }

  @Test
  void checksumEmpty() {
    assertEquals("00000000:cbf29ce484222325", Input.checksum(new byte[0]));
    assertEquals("00000000:cbf29ce484222325", new Input.Fnv().checksum());
  }

  @Test
  void fnvIncrementalMatchesOneShot() {
    byte[] p = Input.pattern2(7);
    Input.Fnv f = new Input.Fnv();
    for (int off = 0; off < 100_000; off += 777) {
      f.update(p, off, Math.min(777, 100_000 - off));
    }
    assertEquals(Input.checksum(p, 0, 100_000), f.checksum());
  }

  @Test
  void messageWraps() {
    int n = (1 << 20) + 100;
    byte[] m = Input.message(7, n);
    byte[] p = Input.pattern2(7);
    for (int i = 0; i < n; i += 4099) {
      assertEquals(p[i % (1 << 20)], m[i], "M[" + i + "] != P[i mod 1 MiB]");
    }
    assertEquals(p[99], m[n - 1], "last byte does not wrap");
  }

  @Test
  void pieceAcrossThePeriodIsContiguous() {
    byte[] p = Input.pattern2(7);
    Provider.Pieces ps = new Provider.Pieces(p, true, 3L << 20, 1 << 20);
    long pos = (1 << 20) + 12345; // a piece starting past the first period
    assertEquals(12345, ps.at(pos));
    byte[] m = Input.message(7, (int) pos + (1 << 20));
    assertArrayEquals(
        Arrays.copyOfRange(m, (int) pos, (int) pos + (1 << 20)),
        Arrays.copyOfRange(p, ps.at(pos), ps.at(pos) + ps.len(pos)));
  }

  @Test
  void hex() {
    assertArrayEquals(new byte[] {0, (byte) 0xff}, Input.unhex("key", "00ff"));
    assertEquals(0, Input.unhex("key", "").length);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Input.unhex("key", "0g"));
    assertEquals(true, e.getMessage().contains("\"key\""), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Input.unhex("iv", "abc"));
    assertEquals("ab01", Input.hex(new byte[] {(byte) 0xab, 1}));
  }
}
