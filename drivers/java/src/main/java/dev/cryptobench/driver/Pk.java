package dev.cryptobench.driver;

import dev.cryptobench.driver.Provider.Alg;
import dev.cryptobench.driver.Provider.Case;
import dev.cryptobench.driver.Provider.Cell;
import dev.cryptobench.driver.Provider.CellParams;
import dev.cryptobench.driver.Provider.Prepared;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Public-key and post-quantum algorithms (since protocol version 2), built the same way for every
 * provider: a provider describes a scheme (generate a key pair, the protocol's key encodings, the
 * operation prepared for a key) and {@link #sig}, {@link #kex}, {@link #kem}, {@link #pke} and
 * {@link #keygenOnly} turn it into an {@link Alg} with a case executor, bench cells and a key-pair
 * generator.
 *
 * <p>What one timed operation is (protocol.md): keys, peer keys, signatures and ciphertexts are
 * made once per cell when the cell is built, outside the timed region, and the operation objects (a
 * Signature after initSign, a KeyAgreement after init, a signer after init) are prepared there too;
 * {@link Cell#run} is the library call for one operation. Encoding a generated public key (the
 * output of keygen) is left to {@link Cell#output}, which only the checksum calls. keygen, derive,
 * encaps and decaps take no message: their size (0 by protocol.md) is ignored.
 */
final class Pk {
  private Pk() {}

  /** A generated key pair in the library's own objects. */
  record Pair(Object priv, Object pub) {}

  /** A prepared key-pair generator (a KeyPairGenerator after initialize, ...). */
  @FunctionalInterface
  interface Gen {
    Pair generate() throws Exception;
  }

  /**
   * Key generation and the protocol's key encodings (protocol.md, "Encodings"). The parse methods
   * throw on malformed input; the executor reports that as {@code rejected}.
   */
  interface Keys {
    /** A new prepared generator: made once per keygen cell, once per key elsewhere. */
    Gen generator() throws Exception;

    byte[] encodePublic(Pair k) throws Exception;

    byte[] encodePrivate(Pair k) throws Exception;

    Object parsePublic(byte[] b) throws Exception;

    Object parsePrivate(byte[] b) throws Exception;

    /** The key pair derived from a seed (ML-KEM, ML-DSA, SLH-DSA, X-Wing); others have none. */
    default Pair fromSeed(byte[] seed) throws Exception {
      throw new Provider.Unsupported("no key generation from a seed for this algorithm");
    }
  }

  // ---- scheme interfaces ----------------------------------------------------------------------

  @FunctionalInterface
  interface Signing {
    byte[] sign(byte[] msg) throws Exception;
  }

  @FunctionalInterface
  interface Verifying {
    boolean verify(byte[] msg, byte[] sig) throws Exception;
  }

  interface SigScheme extends Keys {
    /**
     * A signer prepared for the key. ctx: the context string (null: none); deterministic: FIPS 204
     * signing with rnd = 0^32. A scheme without the variant throws {@link Provider.Unsupported}.
     * The bench signs with (null, false): the algorithm's usual (randomised or hedged) signing.
     */
    Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception;

    Verifying verifier(Object pub, byte[] ctx) throws Exception;
  }

  @FunctionalInterface
  interface Deriving {
    byte[] derive() throws Exception;
  }

  interface KexScheme extends Keys {
    /** One shared secret per derive() of priv with the peer's public key, prepared. */
    Deriving agreement(Object priv, Object peerPub) throws Exception;
  }

  @FunctionalInterface
  interface Encapsulating {
    /** {ciphertext, shared key} */
    byte[][] encaps() throws Exception;
  }

  @FunctionalInterface
  interface Decapsulating {
    byte[] decaps() throws Exception;
  }

  interface KemScheme extends Keys {
    Encapsulating encapsulator(Object pub) throws Exception;

    /** Derandomised encapsulation with the 32-byte m ({ciphertext, key}); Unsupported if none. */
    byte[][] encapsulate(Object pub, byte[] m) throws Exception;

    Decapsulating decapsulator(Object priv, byte[] ct) throws Exception;
  }

  @FunctionalInterface
  interface Encrypting {
    byte[] encrypt(byte[] msg) throws Exception;
  }

  @FunctionalInterface
  interface Decrypting {
    byte[] decrypt(byte[] ct) throws Exception;
  }

  interface PkeScheme extends Keys {
    Encrypting encryptor(Object pub) throws Exception;

    Decrypting decryptor(Object priv) throws Exception;

    /** The longest message the key encrypts. */
    int maxMessage(Object pub);
  }

  // ---- helpers --------------------------------------------------------------------------------

  static final byte[] VERIFY_OK = {1};

  /** Any failure of a library call on a case's input: rejected (malformed key, bad length ...). */
  @FunctionalInterface
  interface Call<T> {
    T call() throws Exception;
  }

  static <T> T refusing(Call<T> c) throws Provider.Rejected, Provider.Unsupported {
    try {
      return c.call();
    } catch (Provider.Unsupported | Provider.Rejected e) {
      throw e;
    } catch (Exception e) {
      throw new Provider.Rejected(e);
    }
  }

  /** Algorithms without a context string accept none or an empty one. */
  static void noContext(byte[] ctx, String alg) throws Provider.Unsupported {
    if (ctx != null && ctx.length > 0) {
      throw new Provider.Unsupported(alg + " takes no context string");
    }
  }

  /** The deterministic option is defined for ML-DSA and SLH-DSA only. */
  static void noDeterministic(boolean deterministic, String alg) throws Provider.Unsupported {
    if (deterministic) {
      throw new Provider.Unsupported(alg + ": no deterministic signing option");
    }
  }

  /** A non-negative integer as exactly n big-endian bytes. */
  static byte[] fixed(BigInteger v, int n) {
    byte[] b = v.toByteArray();
    if (b.length == n) {
      return b;
    }
    if (b.length == n + 1 && b[0] == 0) {
      return Arrays.copyOfRange(b, 1, b.length);
    }
    if (b.length > n) {
      throw new IllegalArgumentException("value does not fit " + n + " bytes");
    }
    byte[] out = new byte[n];
    System.arraycopy(b, 0, out, n - b.length, b.length);
    return out;
  }

  static void checkLen(String what, byte[] b, int want) throws Provider.Rejected {
    if (b.length != want) {
      throw new Provider.Rejected(what + " must be " + want + " bytes, got " + b.length);
    }
  }

  static byte[][] keypair(Keys k) throws Exception {
    Pair p = k.generator().generate();
    return new byte[][] {k.encodePublic(p), k.encodePrivate(p)};
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  // ---- algorithm builders ---------------------------------------------------------------------

  private static IllegalArgumentException noCase(String op, String alg) {
    return new IllegalArgumentException("op \"" + op + "\" has no case executor for " + alg);
  }

  /**
   * The warm-up of an RSA key-generation cell: at most this many keys per request (the first
   * request for the cell in the process runs all of them, later ones stop once warmup_ns has
   * passed, after at least one key), and no JIT rounds: one key takes 50 ms to seconds and its time
   * varies by a factor of several by nature (the search for primes), so a "stable" window never
   * comes.
   */
  static final int RSA_KEYGEN_WARMUP = 3;

  /** What hello.notes says about RSA key generation cells (both RSA providers write them so). */
  static final String RSA_KEYGEN_NOTE =
      "RSA key generation (rsa-2048/3072/4096 keygen, one key per sample as the orchestrator"
          + " asks): the warm-up is capped at "
          + RSA_KEYGEN_WARMUP
          + " keys per request (the first request for the cell in this process runs all "
          + RSA_KEYGEN_WARMUP
          + ", later ones stop once warmup_ns has passed, after at least one key) and runs no"
          + " JIT rounds: one key takes 50 ms to seconds and its time varies by a factor of"
          + " several (the prime search), so the stability rule cannot apply; the bench"
          + " response's warmup says jit_stop \"capped\".";

  /** An algorithm whose only operation is key generation (rsa-2048/3072/4096). */
  static Alg keygenOnly(String name, Keys k) {
    return new Alg(
        name,
        List.of("keygen"),
        Set.of(),
        "public-key operations take no stream",
        c -> {
          if (c.op().equals("keygen")) {
            throw new Provider.Unsupported(name + ": no key generation from a seed");
          }
          throw noCase(c.op(), name);
        },
        p -> new KeygenCell(k, RSA_KEYGEN_WARMUP, RSA_KEYGEN_WARMUP),
        () -> keypair(k),
        null); // no private-key operation for the leak request
  }

  /** A signature algorithm; keygen: whether keygen is one of its bench ops. */
  static Alg sig(String name, boolean keygen, SigScheme s) {
    List<String> ops = keygen ? List.of("keygen", "sign", "verify") : List.of("sign", "verify");
    return new Alg(
        name,
        ops,
        Set.of(),
        "public-key operations take no stream",
        c -> execSig(name, s, c),
        p -> sigCell(s, p),
        () -> keypair(s),
        preparer(name, "sign", c -> prepareSign(s, c)));
  }

  /**
   * The leak request's preparer of an algorithm whose private-key operation is op; the case
   * executor runs the same preparation for that op, so the call a leak check times is the call the
   * vectors check.
   */
  private static Provider.Preparer preparer(String name, String op, Provider.Preparer prepare) {
    return c -> {
      if (!c.op().equals(op)) {
        throw noCase(c.op(), name);
      }
      return prepare.prepare(c);
    };
  }

  private static Prepared prepareSign(SigScheme s, Case c) throws Exception {
    Object priv = refusing(() -> s.parsePrivate(c.priv()));
    Signing signer = refusing(() -> s.signer(priv, c.ctx(), c.deterministic()));
    byte[] msg = c.msg();
    return () -> refusing(() -> signer.sign(msg));
  }

  private static Prepared prepareDerive(KexScheme s, Case c) throws Exception {
    Object priv = refusing(() -> s.parsePrivate(c.priv()));
    Object pub = refusing(() -> s.parsePublic(c.pub()));
    Deriving d = refusing(() -> s.agreement(priv, pub));
    return () -> refusing(d::derive);
  }

  private static Prepared prepareDecaps(KemScheme s, Case c) throws Exception {
    Object priv = refusing(() -> s.parsePrivate(c.priv()));
    Decapsulating d = refusing(() -> s.decapsulator(priv, c.msg()));
    return () -> refusing(d::decaps);
  }

  private static Prepared prepareDecrypt(PkeScheme s, Case c) throws Exception {
    Object priv = refusing(() -> s.parsePrivate(c.priv()));
    Decrypting d = refusing(() -> s.decryptor(priv));
    byte[] ct = c.msg();
    return () -> refusing(() -> d.decrypt(ct)); // a refused padding: rejected, inside the call
  }

  private static byte[] execSig(String name, SigScheme s, Case c) throws Exception {
    switch (c.op()) {
      case "sign":
        return prepareSign(s, c).run();
      case "verify":
        {
          Object pub = refusing(() -> s.parsePublic(c.pub()));
          Verifying v = refusing(() -> s.verifier(pub, c.ctx()));
          if (!refusing(() -> v.verify(c.msg(), c.sig()))) {
            throw new Provider.Rejected("the signature does not verify");
          }
          return VERIFY_OK;
        }
      case "keygen":
        {
          Pair p = refusing(() -> s.fromSeed(c.seed()));
          return s.encodePublic(p);
        }
      default:
        throw noCase(c.op(), name);
    }
  }

  private static Cell sigCell(SigScheme s, CellParams p) throws Exception {
    if (p.op().equals("keygen")) {
      return new KeygenCell(s, 0, 1);
    }
    Pair k = s.generator().generate();
    byte[] msg = p.message();
    if (p.op().equals("sign")) {
      return new SignCell(s, k, s.signer(k.priv(), null, false), msg);
    }
    byte[] sig = s.signer(k.priv(), null, false).sign(msg);
    // The public key arrives encoded, as it would from the wire: parsed once, untimed.
    Object pub = s.parsePublic(s.encodePublic(k));
    return new VerifyCell(s, k, s.verifier(pub, null), msg, sig);
  }

  /** A key agreement; keygen: whether keygen is one of its bench ops (x25519/x448). */
  static Alg kex(String name, boolean keygen, KexScheme s) {
    List<String> ops = keygen ? List.of("keygen", "derive") : List.of("derive");
    return new Alg(
        name,
        ops,
        Set.of(),
        "public-key operations take no stream",
        c -> {
          switch (c.op()) {
            case "derive":
              return prepareDerive(s, c).run();
            case "keygen":
              throw new Provider.Unsupported(name + ": no key generation from a seed");
            default:
              throw noCase(c.op(), name);
          }
        },
        p -> {
          if (p.op().equals("keygen")) {
            return new KeygenCell(s, 0, 1);
          }
          Pair k = s.generator().generate();
          Pair peer = s.generator().generate();
          // The peer's key arrives encoded: parsed once, outside the timed region.
          Object peerPub = s.parsePublic(s.encodePublic(peer));
          return new DeriveCell(s, k, peer, s.agreement(k.priv(), peerPub));
        },
        () -> keypair(s),
        preparer(name, "derive", c -> prepareDerive(s, c)));
  }

  /** A KEM (ML-KEM): keygen, encaps, decaps. */
  static Alg kem(String name, KemScheme s) {
    return new Alg(
        name,
        List.of("keygen", "encaps", "decaps"),
        Set.of(),
        "public-key operations take no stream",
        c -> {
          switch (c.op()) {
            case "keygen":
              {
                Pair p = refusing(() -> s.fromSeed(c.seed()));
                return s.encodePublic(p);
              }
            case "encaps":
              {
                Object pub = refusing(() -> s.parsePublic(c.pub()));
                byte[][] r =
                    c.m() != null
                        ? refusing(() -> s.encapsulate(pub, c.m()))
                        : refusing(() -> s.encapsulator(pub).encaps());
                return concat(r[0], r[1]);
              }
            case "decaps":
              return prepareDecaps(s, c).run();
            default:
              throw noCase(c.op(), name);
          }
        },
        p -> {
          if (p.op().equals("keygen")) {
            return new KeygenCell(s, 0, 1);
          }
          Pair k = s.generator().generate();
          // The encapsulation key arrives encoded: parsed once, outside the timed region.
          Object pub = s.parsePublic(s.encodePublic(k));
          if (p.op().equals("encaps")) {
            return new EncapsCell(s, k, s.encapsulator(pub));
          }
          byte[] ct = s.encapsulator(pub).encaps()[0];
          return new DecapsCell(s, k, s.decapsulator(k.priv(), ct), ct);
        },
        () -> keypair(s),
        preparer(name, "decaps", c -> prepareDecaps(s, c)));
  }

  /** Public-key encryption (RSA-OAEP): encrypt, decrypt. */
  static Alg pke(String name, PkeScheme s) {
    return new Alg(
        name,
        List.of("encrypt", "decrypt"),
        Set.of(),
        "public-key operations take no stream",
        c -> {
          switch (c.op()) {
            case "encrypt":
              {
                Object pub = refusing(() -> s.parsePublic(c.pub()));
                Encrypting e = refusing(() -> s.encryptor(pub));
                return refusing(() -> e.encrypt(c.msg()));
              }
            case "decrypt":
              return prepareDecrypt(s, c).run();
            default:
              throw noCase(c.op(), name);
          }
        },
        p -> {
          Pair k = s.generator().generate();
          Object pub = s.parsePublic(s.encodePublic(k));
          int max = s.maxMessage(pub);
          if (p.size() > max) {
            throw new Provider.NotOffered(
                "not offered at this size: "
                    + name
                    + " encrypts at most "
                    + max
                    + " bytes, asked "
                    + p.size());
          }
          byte[] msg = p.message();
          if (p.op().equals("encrypt")) {
            return new EncryptCell(s, k, s.encryptor(pub), msg);
          }
          byte[] ct = s.encryptor(pub).encrypt(msg);
          return new DecryptCell(s, k, s.decryptor(k.priv()), ct);
        },
        () -> keypair(s),
        preparer(name, "decrypt", c -> prepareDecrypt(s, c)));
  }

  // ---- cells ----------------------------------------------------------------------------------

  /**
   * A public-key cell: holds the key pair it was made with (and a derive cell its peer's), so the
   * native tests can check a cell's output independently (a signature verifies under the cell's
   * public key, a ciphertext decapsulates).
   */
  abstract static class PkCell extends Cell {
    final Keys keys;
    Pair pair;

    PkCell(Keys keys, Pair pair) {
      this.keys = keys;
      this.pair = pair;
    }

    /** {public, private} of the cell's key pair, encoded. */
    byte[][] encodedKeys() throws Exception {
      return new byte[][] {keys.encodePublic(pair), keys.encodePrivate(pair)};
    }
  }

  /**
   * One operation is one fresh key pair from a generator prepared once per cell; the output (for
   * the checksum only) is the encoded public key of the last one.
   */
  static final class KeygenCell extends PkCell {
    private final Gen gen;
    private final int cap;
    private final int first;

    KeygenCell(Keys keys, int cap, int first) throws Exception {
      super(keys, null);
      this.gen = keys.generator();
      this.cap = cap;
      this.first = first;
    }

    @Override
    byte[] output() throws Exception {
      return keys.encodePublic(pair);
    }

    @Override
    int warmupCap() {
      return cap;
    }

    @Override
    int firstWarmup() {
      return first;
    }

    @Override
    long run() throws Exception {
      pair = gen.generate();
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

  /**
   * A cell whose operation returns one array: {@link #keep} stores it for the checksum and gives
   * its first byte to the sink. Each subclass still writes its own run() and loop(), so that the
   * call inside its loop has one receiver class ({@link Cell#loop}).
   */
  abstract static class OneShot extends PkCell {
    private byte[] out;

    OneShot(Keys keys, Pair pair) {
      super(keys, pair);
    }

    final long keep(byte[] r) {
      out = r;
      return r[0] & 0xff;
    }

    /** {@link #keep} for an output that may be empty (a decrypted plaintext). */
    final long keepAny(byte[] r) {
      out = r;
      return Provider.first(r);
    }

    @Override
    byte[] output() {
      return out;
    }
  }

  static final class SignCell extends OneShot {
    private final Signing signer;
    private final byte[] msg;

    SignCell(Keys keys, Pair pair, Signing signer, byte[] msg) {
      super(keys, pair);
      this.signer = signer;
      this.msg = msg;
    }

    @Override
    long run() throws Exception {
      return keep(signer.sign(msg));
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

  static final class VerifyCell extends PkCell {
    private final Verifying verifier;
    private final byte[] msg;
    final byte[] sig;

    VerifyCell(Keys keys, Pair pair, Verifying verifier, byte[] msg, byte[] sig) {
      super(keys, pair);
      this.verifier = verifier;
      this.msg = msg;
      this.sig = sig;
    }

    @Override
    byte[] output() {
      return VERIFY_OK;
    }

    @Override
    long run() throws Exception {
      if (!verifier.verify(msg, sig)) {
        throw new IllegalStateException("verify: the signature made for this cell does not verify");
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

  static final class DeriveCell extends OneShot {
    private final Deriving agreement;
    final Pair peer;

    DeriveCell(Keys keys, Pair pair, Pair peer, Deriving agreement) {
      super(keys, pair);
      this.peer = peer;
      this.agreement = agreement;
    }

    @Override
    long run() throws Exception {
      return keep(agreement.derive());
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

  static final class EncapsCell extends PkCell {
    private final Encapsulating enc;
    private byte[][] out;

    EncapsCell(Keys keys, Pair pair, Encapsulating enc) {
      super(keys, pair);
      this.enc = enc;
    }

    @Override
    byte[] output() {
      return concat(out[0], out[1]);
    }

    @Override
    long run() throws Exception {
      byte[][] r = enc.encaps();
      out = r;
      return r[0][0] & 0xff;
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

  static final class DecapsCell extends OneShot {
    private final Decapsulating dec;
    final byte[] ct;

    DecapsCell(Keys keys, Pair pair, Decapsulating dec, byte[] ct) {
      super(keys, pair);
      this.dec = dec;
      this.ct = ct;
    }

    @Override
    long run() throws Exception {
      return keep(dec.decaps());
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

  static final class EncryptCell extends OneShot {
    private final Encrypting enc;
    private final byte[] msg;

    EncryptCell(Keys keys, Pair pair, Encrypting enc, byte[] msg) {
      super(keys, pair);
      this.enc = enc;
      this.msg = msg;
    }

    @Override
    long run() throws Exception {
      return keep(enc.encrypt(msg));
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

  static final class DecryptCell extends OneShot {
    private final Decrypting dec;
    final byte[] ct;

    DecryptCell(Keys keys, Pair pair, Decrypting dec, byte[] ct) {
      super(keys, pair);
      this.dec = dec;
      this.ct = ct;
    }

    @Override
    long run() throws Exception {
      return keepAny(dec.decrypt(ct));
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

  // ---- DER: just enough to unwrap PKCS#8 and SubjectPublicKeyInfo ----------------------------

  /** A minimal DER reader (definite lengths only) for unwrapping key encodings. */
  static final class Der {
    private final byte[] b;
    private int pos;
    private final int end;

    Der(byte[] b) {
      this(b, 0, b.length);
    }

    private Der(byte[] b, int from, int to) {
      this.b = b;
      this.pos = from;
      this.end = to;
    }

    /** Reads one element with the given tag; returns {start of contents, length}. */
    private int[] next(int tag) {
      if (pos + 2 > end || (b[pos] & 0xff) != tag) {
        throw new IllegalArgumentException(
            "DER: expected tag " + Integer.toHexString(tag) + " at " + pos);
      }
      pos++;
      int len = b[pos++] & 0xff;
      if (len >= 0x80) {
        int n = len & 0x7f;
        if (n == 0 || n > 3 || pos + n > end) {
          throw new IllegalArgumentException("DER: bad length at " + pos);
        }
        len = 0;
        for (int i = 0; i < n; i++) {
          len = (len << 8) | (b[pos++] & 0xff);
        }
      }
      if (pos + len > end) {
        throw new IllegalArgumentException("DER: element runs past its end");
      }
      int[] r = {pos, len};
      pos += len;
      return r;
    }

    Der enter(int tag) {
      int[] r = next(tag);
      return new Der(b, r[0], r[0] + r[1]);
    }

    byte[] read(int tag) {
      int[] r = next(tag);
      return Arrays.copyOfRange(b, r[0], r[0] + r[1]);
    }

    void skip(int tag) {
      next(tag);
    }

    /** The tag of the next element, -1 at the end. */
    int peek() {
      return pos < end ? b[pos] & 0xff : -1;
    }

    /**
     * Whether an EC SubjectPublicKeyInfo names its curve (an OID in the AlgorithmIdentifier's
     * parameters) rather than spelling out explicit parameters.
     */
    static boolean namedCurve(byte[] spki) {
      Der alg = new Der(spki).enter(0x30).enter(0x30);
      alg.skip(0x06);
      return alg.peek() == 0x06;
    }

    /**
     * The raw private key of a PKCS#8 PrivateKeyInfo of an RFC 8410 key (Ed25519, Ed448, X25519,
     * X448): SEQUENCE {version, AlgorithmIdentifier, OCTET STRING {OCTET STRING raw}, ...}.
     */
    static byte[] curvePrivate(byte[] pkcs8) {
      Der d = new Der(pkcs8).enter(0x30);
      d.skip(0x02);
      d.skip(0x30);
      return new Der(d.read(0x04)).read(0x04);
    }
  }

  /** RFC 8410 keys: the fixed DER prefixes of their SubjectPublicKeyInfo and PKCS#8 v1 forms. */
  record Rfc8410(String name, int pubLen, int privLen, byte[] spkiPrefix, byte[] pkcs8Prefix) {
    static final Rfc8410 X25519 =
        of("X25519", 32, 32, "302a300506032b656e032100", "302e020100300506032b656e04220420");
    static final Rfc8410 X448 =
        of("X448", 56, 56, "3042300506032b656f033900", "3046020100300506032b656f043a0438");
    static final Rfc8410 ED25519 =
        of("Ed25519", 32, 32, "302a300506032b6570032100", "302e020100300506032b657004220420");
    static final Rfc8410 ED448 =
        of("Ed448", 57, 57, "3043300506032b6571033a00", "3047020100300506032b6571043b0439");

    private static Rfc8410 of(String name, int pub, int priv, String spki, String pkcs8) {
      return new Rfc8410(name, pub, priv, Input.unhex("spki", spki), Input.unhex("pkcs8", pkcs8));
    }

    byte[] spki(byte[] raw) throws Provider.Rejected {
      checkLen(name + " public key", raw, pubLen);
      return concat(spkiPrefix, raw);
    }

    byte[] pkcs8(byte[] raw) throws Provider.Rejected {
      checkLen(name + " private key", raw, privLen);
      return concat(pkcs8Prefix, raw);
    }

    /** The raw public key out of a SubjectPublicKeyInfo. */
    byte[] rawPublic(byte[] spki) {
      if (spki.length != spkiPrefix.length + pubLen
          || !Arrays.equals(spki, 0, spkiPrefix.length, spkiPrefix, 0, spkiPrefix.length)) {
        throw new IllegalArgumentException("not an " + name + " SubjectPublicKeyInfo");
      }
      return Arrays.copyOfRange(spki, spkiPrefix.length, spki.length);
    }

    byte[] rawPrivate(byte[] pkcs8) {
      byte[] raw = Der.curvePrivate(pkcs8);
      if (raw.length != privLen) {
        throw new IllegalArgumentException(name + " private key of " + raw.length + " bytes");
      }
      return raw;
    }
  }
}
