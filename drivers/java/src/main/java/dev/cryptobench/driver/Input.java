package dev.cryptobench.driver;

import java.util.HexFormat;

/**
 * The fixed input (protocol.md, "The fixed input"): every driver generates the same message bytes
 * from a seed with xorshift32 over a 1 MiB period; FNV-1a 64, the checksum string and hex helpers.
 */
final class Input {
  /** The period of the message bytes: M[i] = P[i mod 1 MiB]. */
  static final int PATTERN_LEN = 1 << 20;

  /** A streamed piece is at most this long (protocol.md: chunk is at most 1 MiB). */
  static final int MAX_CHUNK = PATTERN_LEN;

  static final long FNV_OFFSET = 0xcbf29ce484222325L;
  static final long FNV_PRIME = 0x100000001b3L;

  private static final HexFormat HEX = HexFormat.of();

  private static int cachedSeed;
  private static byte[] cachedPattern2;

  private Input() {}

  /**
   * The first 1 MiB of the xorshift32 byte stream for {@code seed}, kept twice (2 MiB), so that any
   * piece of up to 1 MiB starting anywhere in the period is contiguous. Cached and shared: callers
   * must not modify it.
   */
  static synchronized byte[] pattern2(int seed) {
    if (cachedPattern2 != null && cachedSeed == seed) {
      return cachedPattern2;
    }
    byte[] p = new byte[2 * PATTERN_LEN];
    int x = seed;
    for (int i = 0; i < PATTERN_LEN; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      p[i] = (byte) x;
    }
    System.arraycopy(p, 0, p, PATTERN_LEN, PATTERN_LEN);
    cachedSeed = seed;
    cachedPattern2 = p;
    return p;
  }

  /** A fresh n-byte message M[i] = P[i mod 1 MiB] (the one-shot input, chunk = 0). */
  static byte[] message(int seed, int n) {
    byte[] p = pattern2(seed);
    byte[] m = new byte[n];
    for (int off = 0; off < n; off += PATTERN_LEN) {
      System.arraycopy(p, 0, m, off, Math.min(PATTERN_LEN, n - off));
    }
    return m;
  }

  /** FNV-1a 64 of b[off, off+len). */
  static long fnv1a64(byte[] b, int off, int len) {
    Fnv f = new Fnv();
    f.update(b, off, len);
    return f.hash;
  }

  /** Checksum "<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>" of b[off, off+len). */
  static String checksum(byte[] b, int off, int len) {
    return checksum(len, fnv1a64(b, off, len));
  }

  static String checksum(byte[] b) {
    return checksum(b, 0, b.length);
  }

  static String checksum(long length, long fnv) {
    return String.format("%08x:%016x", length, fnv);
  }

  /**
   * Incremental FNV-1a 64 over an output stream delivered in pieces (the checksum of a streamed
   * operation), with the number of bytes seen.
   */
  static final class Fnv {
    long hash = FNV_OFFSET;
    long length;

    void update(byte[] b, int off, int len) {
      long h = hash;
      for (int i = off, end = off + len; i < end; i++) {
        h ^= b[i] & 0xff;
        h *= FNV_PRIME;
      }
      hash = h;
      length += len;
    }

    String checksum() {
      return Input.checksum(length, hash);
    }
  }

  /** Decodes a hex field of a request, naming the field on error. */
  static byte[] unhex(String field, String s) {
    try {
      return HEX.parseHex(s == null ? "" : s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad hex in \"" + field + "\": " + e.getMessage(), e);
    }
  }

  /** Lowercase hex, as the protocol wants. */
  static String hex(byte[] b) {
    return HEX.formatHex(b);
  }

  static String hex(byte[] b, int off, int len) {
    return HEX.formatHex(b, off, off + len);
  }
}
