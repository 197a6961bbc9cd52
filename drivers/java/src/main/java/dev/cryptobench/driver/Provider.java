package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * The provider interface: a catalogue of algorithms, each with a case executor (for {@code verify})
 * and a cell factory (for {@code bench}).
 *
 * <p>A provider is one class with a static {@code provider()} method, listed in {@link #create}:
 * {@link JcaOps} (java:jca), {@link BouncyCastleOps} (java:bouncycastle, BouncyCastle through its
 * JCA provider) and {@link BouncyCastleLwOps} (java:bouncycastle-lw, BouncyCastle's lightweight
 * API). The cells built on the JCA classes (MessageDigest, Mac, Cipher) live in JcaOps and serve
 * both JCA providers.
 */
interface Provider {
  String id();

  default String language() {
    return "java";
  }

  String library();

  /** The library's version as it reports itself at run time. */
  String libraryVersion();

  List<String> notes();

  List<Alg> algs();

  default Alg alg(String name) {
    for (Alg a : algs()) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    return null;
  }

  /** The ids of the providers of cryptographic primitives this driver serves, sorted. */
  static List<String> ids() {
    return List.of("java:bouncycastle", "java:bouncycastle-lw", "java:jca");
  }

  /** The TLS providers (protocol 7): TLS 1.3 cells only, no primitives. */
  static List<String> tlsIds() {
    return List.of(JsseTls.ID);
  }

  /** The provider for an id, or null when unknown. */
  static Provider create(String id) {
    return switch (id) {
      case "java:jca" -> JcaOps.provider();
      case "java:bouncycastle" -> BouncyCastleOps.provider();
      case "java:bouncycastle-lw" -> BouncyCastleLwOps.provider();
      case JsseTls.ID -> JsseTls.provider();
      default -> null;
    };
  }

  /** A provider's TLS 1.3 cells and interop commands (protocol 7); null where it has none. */
  default TlsSupport tls() {
    return null;
  }

  /** TLS 1.3 cells (docs/protocol.md § TLS 1.3 handshakes). */
  interface TlsSupport {
    /** A bench cell of a TLS alg; tls is the request's PKI object (null when absent). */
    Cell cell(String alg, String op, JsonNode tls) throws Exception;

    /** tls-serve, tls-result or tls-connect. */
    ObjectNode command(JsonNode req) throws Exception;
  }

  /** A provider made of fixed values. */
  record Catalogue(
      String id, String library, String libraryVersion, List<String> notes, List<Alg> algs)
      implements Provider {}

  /**
   * One algorithm of a provider.
   *
   * @param ops the operations offered (protocol.md, bench table)
   * @param streamOps the operations that accept chunk > 0 (the streaming API with memory bounded by
   *     the chunk); the algorithm is listed in {@code stream} when this is not empty
   * @param noStream why an operation outside streamOps is not streamed (the error of such a
   *     request, after "not offered: ")
   */
  record Alg(
      String name,
      List<String> ops,
      Set<String> streamOps,
      String noStream,
      Executor exec,
      CellFactory cells,
      KeypairGen keypair,
      Preparer prepare) {
    /** A symmetric algorithm (no key pairs). */
    Alg(
        String name,
        List<String> ops,
        Set<String> streamOps,
        String noStream,
        Executor exec,
        CellFactory cells) {
      this(name, ops, streamOps, noStream, exec, cells, null, null);
    }

    boolean offers(String op) {
      return ops.contains(op);
    }

    boolean stream() {
      return !streamOps.isEmpty();
    }

    /**
     * A public-key algorithm (since protocol version 2): it answers keypair, and its case executor
     * dispatches the case ops itself (they are not the bench ops: an ecdsa-p256 case may be a sign
     * or verify, an ml-kem-768 case a keygen from a seed).
     */
    boolean publicKey() {
      return keypair != null;
    }
  }

  /**
   * A fresh key pair from the provider's own generator: {public, private} in protocol.md's
   * encodings.
   */
  @FunctionalInterface
  interface KeypairGen {
    byte[][] generate() throws Exception;
  }

  /**
   * The leak request's preparation of one public-key case (its private-key operation: sign, derive,
   * decaps, decrypt): the keys parsed and imported, the operation object initialised, all outside
   * the timed call, as a bench cell is.
   */
  @FunctionalInterface
  interface Preparer {
    Prepared prepare(Case c) throws Exception;
  }

  /** One prepared operation: run() is the library call alone; throws {@link Rejected} likewise. */
  @FunctionalInterface
  interface Prepared {
    byte[] run() throws Exception;
  }

  /** Runs one verify case; throws {@link Rejected} when the library refused the input. */
  @FunctionalInterface
  interface Executor {
    byte[] run(Case c) throws Exception;
  }

  /** Prepares one bench cell; op is already checked against ops and chunk against streamOps. */
  @FunctionalInterface
  interface CellFactory {
    Cell make(CellParams p) throws Exception;
  }

  /**
   * One decoded verify case. The public-key fields (since version 2) are empty when absent, except
   * {@code m} and {@code ctx}, which are null when absent (an empty context differs from none only
   * in whether an algorithm without contexts must refuse it: it need not).
   */
  record Case(
      String id,
      String op,
      byte[] key,
      byte[] iv,
      byte[] aad,
      byte[] msg,
      long counter,
      byte[] pub,
      byte[] priv,
      byte[] sig,
      byte[] seed,
      byte[] m,
      byte[] ctx,
      boolean deterministic) {
    /** A symmetric case. */
    Case(String id, String op, byte[] key, byte[] iv, byte[] aad, byte[] msg, long counter) {
      this(
          id,
          op,
          key,
          iv,
          aad,
          msg,
          counter,
          new byte[0],
          new byte[0],
          new byte[0],
          new byte[0],
          null,
          null,
          false);
    }
  }

  /**
   * What a cell is prepared from: the message is {@code size} bytes of the fixed input for {@code
   * seed}; chunk 0 is one-shot, chunk > 0 feeds pieces of chunk bytes.
   */
  record CellParams(String op, byte[] key, byte[] iv, int seed, long size, int chunk) {
    boolean encrypting() {
      return op.equals("encrypt") || op.equals("seal");
    }

    /** The whole message (one-shot cells only). */
    byte[] message() throws NotOffered {
      return Input.message(seed, arrayLength(size, "the message"));
    }

    /** The message read in pieces straight from the doubled pattern (streamed cells). */
    Pieces pieces() {
      return new Pieces(Input.pattern2(seed), true, size, chunk);
    }
  }

  /** Java arrays hold at most about 2^31 bytes. */
  long MAX_ARRAY = Integer.MAX_VALUE - 16;

  static int arrayLength(long n, String what) throws NotOffered {
    if (n > MAX_ARRAY) {
      throw new NotOffered(
          "not offered at this size: "
              + what
              + " ("
              + n
              + " bytes) does not fit one Java byte array");
    }
    return (int) n;
  }

  /**
   * A streamed input: the message read from the doubled 1 MiB pattern (periodic) or, for
   * decrypt/open, the ciphertext kept whole; {@code length} bytes in pieces of {@code chunk}.
   */
  record Pieces(byte[] src, boolean periodic, long length, int chunk) {
    /** Where the piece starting at stream position pos begins in src. */
    int at(long pos) {
      return periodic ? (int) (pos & (Input.PATTERN_LEN - 1)) : (int) pos;
    }

    /** The length of the piece starting at pos. */
    int len(long pos) {
      return (int) Math.min(chunk, length - pos);
    }
  }

  /**
   * One prepared bench cell: everything (keys, contexts, buffers, for open/decrypt the ciphertext)
   * is made by the factory; {@link #run} performs exactly one operation of the measurement
   * contract.
   */
  abstract class Cell {
    /**
     * For streamed ciphers, measured by {@link #checksum}: the largest number of input bytes the
     * library held back (consumed but not yet output) at any point of the operation; -1 where not
     * measured.
     */
    long maxHeld = -1;

    /** Performs exactly one operation; returns its output's first byte (0 when empty). */
    abstract long run() throws Exception;

    /**
     * The timed loop: n calls of run(), returning the sum of their results. Every concrete cell
     * class overrides it with the same three lines, so that the call to run() in it has a single
     * receiver class and is inlined (as in JMH's generated loops); a loop shared by all cells would
     * see many classes and make run() a virtual call or not, depending on which cells ran before.
     */
    abstract long loop(long n) throws Exception;

    /** The output of the most recent one-shot run. */
    abstract byte[] output() throws Exception;

    /**
     * Time inside the latest loop()s that is not the operation's (a TLS cell timing one side of a
     * handshake: the other side's calls), handed over and reset; the batch subtracts it.
     */
    long takeUntimedNs() {
      return 0;
    }

    /**
     * A streamed cell whose library held back more input than a piece (a decryption that holds the
     * whole ciphertext until doFinal): the bench response's optional "memory" object, {@code
     * library_held_bytes} (measured on the checksum's operation) and {@code why}; null otherwise.
     */
    ObjectNode memoryReport() {
      return null;
    }

    /**
     * A TLS cell's report of its untimed handshake (the bench response's "tls"); null otherwise.
     */
    ObjectNode tlsReport() {
      return null;
    }

    /**
     * The most operations the warm-up may run in one request, 0 for no cap; a capped cell runs no
     * JIT rounds (see {@link Timing#cappedWarmup}). RSA key generation: single operations of 50 ms
     * to seconds whose times vary by nature, so "stable" is never reached.
     */
    int warmupCap() {
      return 0;
    }

    /** With a warm-up cap: the operations the first request for this cell in the process runs. */
    int firstWarmup() {
      return 1;
    }

    /**
     * Runs one operation outside any timing and returns its checksum. Streamed cells override this
     * to fold every piece of the output stream into the checksum.
     */
    String checksum() throws Exception {
      run();
      return Input.checksum(output());
    }
  }

  /**
   * A hash or MAC cell's input and output: the message whole (one-shot) or read in pieces straight
   * from the pattern (streamed), and an output buffer of the digest's length. Each library's final
   * subclass writes its own run() (its update calls, then its final call into {@link #out}) and
   * loop() ({@link Cell#loop}).
   */
  abstract class MessageCell extends Cell {
    /** The whole message (one-shot), or null. */
    final byte[] msg;

    /** The message in pieces (streamed), or null. */
    final Pieces pieces;

    final byte[] out;

    MessageCell(CellParams p, int outLen) throws NotOffered {
      this.out = new byte[outLen];
      this.msg = p.chunk() == 0 ? p.message() : null;
      this.pieces = p.chunk() == 0 ? null : p.pieces();
    }

    @Override
    byte[] output() {
      return out;
    }
  }

  /**
   * The library has no API for this variant of the operation (deterministic ML-KEM encapsulation
   * through the JCA, a context string for Ed25519): the case result is {@code unsupported}.
   */
  final class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    Unsupported(String message) {
      super(message);
    }
  }

  /** The library refused the input (an open whose tag does not verify). */
  final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;

    Rejected(Throwable cause) {
      super("rejected", cause);
    }

    Rejected(String why) {
      super(why);
    }
  }

  /** A request this provider cannot serve; the message starts with "not offered". */
  final class NotOffered extends Exception {
    private static final long serialVersionUID = 1L;

    NotOffered(String message) {
      super(message);
    }
  }

  // ---- helpers shared by the catalogues ------------------------------------------------------

  static long first(byte[] b) {
    return b.length == 0 ? 0 : b[0] & 0xff;
  }

  static void checkLen(String what, byte[] b, int want) {
    if (b.length != want) {
      throw new IllegalArgumentException(what + " must be " + want + " bytes, got " + b.length);
    }
  }

  static void checkBlocks(long size, String alg) {
    if (size % 16 != 0) {
      throw new IllegalArgumentException(
          "size " + size + " is not a multiple of 16 (" + alg + " takes whole blocks, no padding)");
    }
  }

  /**
   * The nonces a cell cycles through: the cell's own, and when the library refuses to be
   * initialised twice in a row with the same key and nonce, a second one (the last byte XOR 1).
   */
  static byte[][] nonces(byte[] iv, boolean alternate) {
    if (!alternate) {
      return new byte[][] {iv};
    }
    byte[] other = iv.clone();
    other[other.length - 1] ^= 1;
    return new byte[][] {iv, other};
  }

  // ---- noop ---------------------------------------------------------------------------------

  /** The empty operation through the same loop: the driver's per-call floor. */
  static Alg noop() {
    return new Alg(
        "noop",
        List.of("noop"),
        Set.of(),
        "noop has no input",
        c -> new byte[0],
        p -> new NoopCell());
  }

  /**
   * Reads a volatile field (0) and returns it: the JIT can neither hoist the read nor delete the
   * loop, so the floor is one loop iteration, one volatile load and one addition.
   */
  final class NoopCell extends Cell {
    private static final byte[] EMPTY = new byte[0];
    private volatile long value;

    @Override
    byte[] output() {
      return EMPTY;
    }

    @Override
    long run() {
      return value;
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
}
