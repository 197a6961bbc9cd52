package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptobench.driver.Provider.Alg;
import dev.cryptobench.driver.Provider.Cell;
import dev.cryptobench.driver.Provider.CellParams;
import dev.cryptobench.driver.Provider.Pieces;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * java:jca — the JDK's own providers (SUN for digests, SunJCE for MAC and ciphers), and the cells
 * built on the JCA classes (MessageDigest, Mac, Cipher) that {@link BouncyCastleOps} reuses with
 * the "BC" provider. Every getInstance names its provider, so a registered BouncyCastle can never
 * answer for the JDK.
 */
final class JcaOps {
  static final String SUN = "SUN";
  static final String SUNJCE = "SunJCE";
  static final String SUN_RSA_SIGN = "SunRsaSign";
  static final String SUN_EC = "SunEC";

  private JcaOps() {}

  static Provider provider() {
    String gcmOpen =
        "SunJCE's AES/GCM decryption holds the whole ciphertext until doFinal, by design: it"
            + " verifies the tag before it releases any plaintext";
    String polyOpen =
        "SunJCE's ChaCha20-Poly1305 decryption holds the whole ciphertext until doFinal, by"
            + " design: it verifies the tag before it releases any plaintext";
    List<Alg> algs =
        new ArrayList<>(
            List.of(
                Provider.noop(),
                hash("sha256", "SHA-256", SUN),
                hash("sha512", "SHA-512", SUN),
                hash("sha3-256", "SHA3-256", SUN),
                hash("sha3-512", "SHA3-512", SUN),
                hmac("hmac-sha256", "HmacSHA256", SUNJCE),
                cipher(aesEcb("aes-128-ecb", 16, SUNJCE), ALL, ""),
                cipher(aesEcb("aes-256-ecb", 32, SUNJCE), ALL, ""),
                cipher(aesCbc("aes-128-cbc", 16, SUNJCE), ALL, ""),
                cipher(aesCbc("aes-256-cbc", 32, SUNJCE), ALL, ""),
                cipher(aesCtr("aes-128-ctr", 16, SUNJCE), ALL, ""),
                cipher(aesCtr("aes-256-ctr", 32, SUNJCE), ALL, ""),
                cipher(chacha20(SUNJCE, Repeat.REFUSED), ALL, ""),
                buffered(aesGcm("aes-128-gcm", 16, SUNJCE), gcmOpen),
                buffered(aesGcm("aes-256-gcm", 32, SUNJCE), gcmOpen),
                buffered(chacha20Poly1305(SUNJCE, Repeat.REFUSED), polyOpen)));
    algs.addAll(JcaPk.common(new JcaPk.Provs(SUN_RSA_SIGN, SUNJCE, SUN_EC)));
    java.security.Provider sun = Security.getProvider(SUN);
    java.security.Provider jce = Security.getProvider(SUNJCE);
    String version =
        "Java "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vendor")
            + "): "
            + sun.getName()
            + " "
            + sun.getVersionStr()
            + ", "
            + jce.getName()
            + " "
            + jce.getVersionStr()
            + ", "
            + Security.getProvider(SUN_RSA_SIGN).getName()
            + " "
            + Security.getProvider(SUN_RSA_SIGN).getVersionStr()
            + ", "
            + Security.getProvider(SUN_EC).getName()
            + " "
            + Security.getProvider(SUN_EC).getVersionStr();
    List<String> notes = new ArrayList<>();
    notes.add(
        "Providers named in every getInstance: MessageDigest from SUN (SHA-256, SHA-512, SHA3-256,"
            + " SHA3-512), Mac and Cipher from SunJCE, RSA (KeyPairGenerator, KeyFactory,"
            + " Signature) from SunRsaSign, the RSA-OAEP Cipher from SunJCE, EC, EdDSA and XDH from"
            + " SunEC; BouncyCastle is not on the provider list of this process.");
    notes.addAll(jcaNotes("SunJCE"));
    notes.add(
        "ChaCha20 and ChaCha20-Poly1305: SunJCE refuses to initialise a Cipher twice in a row with"
            + " the same key and nonce, in both directions (\"Matching key and nonce from previous"
            + " initialization\"); AES-GCM refuses it for encryption (\"Cannot reuse iv for GCM"
            + " encryption\"). Those cells alternate between the cell's nonce and a second nonce"
            + " (its last byte XOR 0x01): every operation is a Cipher.init with a precomputed"
            + " parameter spec, then doFinal; for decrypt/open the ciphertext for each of the two"
            + " nonces is made beforehand. The work per operation is the same for either nonce;"
            + " the checksum is of an operation with the cell's own nonce.");
    notes.add(
        "Streaming (chunk > 0): Cipher.update per piece into a piece-sized buffer, then doFinal."
            + " AES-GCM and ChaCha20-Poly1305 open are streamed through Cipher.update too, but"
            + " SunJCE's decryption holds the whole ciphertext until doFinal (it verifies the tag"
            + " before releasing plaintext), so its memory grows with the message whatever the"
            + " driver does; doFinal then writes the whole plaintext into a message-sized buffer."
            + " The bench response says so (\"memory\": the bytes the library held back, measured"
            + " on the checksum's operation, and why).");
    notes.add(REGEN_NOTE);
    notes.addAll(JcaPk.notes("SunRsaSign (RSA), SunJCE (OAEP) and SunEC (EC, EdDSA, XDH)"));
    notes.add(
        "Known SunEC results on the shared vectors (the driver reports the library's answers as"
            + " they are): ECDSA P-256/P-384 verification accepts an s encoded without its"
            + " leading zero (Wycheproof MissingZero) and rejects valid signatures whose x(kG) is"
            + " at least n (Wycheproof ecdsa_secp256r1_sha256 #350, #479; secp384r1_sha384 #382,"
            + " #499); Ed25519 verification accepts a signature with a byte appended (ed25519"
            + " #37). So ecdsa-p256, ecdsa-p384 and ed25519 fail verification here and are not"
            + " timed.");
    notes.add(
        "Not offered: BLAKE2b/BLAKE2s, SM3, SM4, AES-CCM and XChaCha20-Poly1305 (the JDK 17"
            + " providers have none of them); secp256k1 ECDSA/ECDH (removed from SunEC in JDK 16);"
            + " ML-KEM and ML-DSA (in the JDK from version 24 only); SM2 (no JDK provider has"
            + " it).");
    return new Provider.Catalogue(
        "java:jca",
        "JDK providers (SUN, SunJCE, SunRsaSign, SunEC) via the JCA",
        version,
        List.copyOf(notes),
        List.copyOf(algs));
  }

  /** The notes every JCA-based provider carries, for the given provider name. */
  static List<String> jcaNotes(String prov) {
    return List.of(
        "Hashes: MessageDigest made once per cell; one operation is update(msg) and digest(buf, 0,"
            + " len) into a preallocated buffer (digest resets the object). Streamed: update per"
            + " piece.",
        "HMAC: Mac.init(key) once per cell; one operation is update(msg) and doFinal(buf, 0).",
        "Ciphers and AEADs: Cipher.getInstance and a SecretKeySpec once per cell; ECB is"
            + " initialised once per cell (no IV) and one operation is doFinal(in, 0, n, out, 0)"
            + " into a preallocated array. CBC, CTR, ChaCha20 and the AEADs set the IV/nonce per"
            + " message the only way the JCA offers: Cipher.init(mode, key, spec) with a"
            + " precomputed IvParameterSpec / ChaCha20ParameterSpec(nonce, 0) /"
            + " GCMParameterSpec(128, nonce), then doFinal. "
            + prov
            + " decides what init costs for an unchanged key (the JCA has no IV-only re-init).",
        "AEADs: 16-byte tag, empty AAD (updateAAD is not called); open verifies the tag (a failure"
            + " is an error).");
  }

  // ---- catalogue building blocks -------------------------------------------------------------

  static final Set<String> ALL = Set.of("hash", "mac", "encrypt", "decrypt", "seal", "open");

  /**
   * Above this size a streamed decrypt/open makes its ciphertext again piece by piece, off the
   * clock, instead of holding it (docs/protocol.md, bench).
   */
  static final long REGEN_ABOVE = 64L << 20;

  /** {@link #REGEN_ABOVE}, lowered by tests so that small cells take the same path. */
  static long regenAbove = REGEN_ABOVE;

  static final String REGEN_NOTE =
      "Big streamed decrypt/open (above 64 MiB): the ciphertext is not kept; a second Cipher of"
          + " the same transformation, initialised for encryption with the same key and nonce"
          + " (after an init with the other nonce where the library refuses the same one twice in a"
          + " row), makes each piece again from the pattern just before it is decrypted, and for an"
          + " AEAD the tag after the last piece; that work is timed with System.nanoTime() and"
          + " subtracted from the batch (docs/protocol.md). AES-GCM's ciphertext is remade by"
          + " SunJCE's AES/CTR from counter block nonce || 2 (SP 800-38D), its tag made once when"
          + " the cell is prepared. The driver holds two piece-sized buffers.";
  static final Set<String> NONE = Set.of();

  /** How a library treats a second init with the same key and nonce. */
  enum Repeat {
    ALLOWED,
    /** refused when encrypting (GCM and friends guarding against nonce re-use) */
    ENCRYPT_REFUSED,
    /** refused in both directions */
    REFUSED;

    boolean alternate(boolean encrypting) {
      return this == REFUSED || (this == ENCRYPT_REFUSED && encrypting);
    }
  }

  /** How a nonce (and, for ChaCha20, the initial block counter) becomes a parameter spec. */
  @FunctionalInterface
  interface Spec {
    AlgorithmParameterSpec of(byte[] iv, long counter);
  }

  static final Spec IV = (iv, counter) -> new IvParameterSpec(iv);
  static final Spec GCM = (iv, counter) -> new GCMParameterSpec(128, iv);
  static final Spec CHACHA20 = (iv, counter) -> new ChaCha20ParameterSpec(iv, (int) counter);

  /**
   * A Cipher-based algorithm.
   *
   * @param spec null for ECB (no IV)
   * @param tagLen 16 for AEADs (ops seal/open), 0 for ciphers (encrypt/decrypt)
   * @param blocks messages must be whole 16-byte blocks
   */
  record CipherDef(
      String name,
      String transformation,
      String keyAlg,
      String prov,
      int keyLen,
      int ivLen,
      Spec spec,
      int tagLen,
      boolean blocks,
      Repeat repeat) {}

  static CipherDef aesEcb(String name, int keyLen, String prov) {
    return new CipherDef(
        name, "AES/ECB/NoPadding", "AES", prov, keyLen, 0, null, 0, true, Repeat.ALLOWED);
  }

  static CipherDef aesCbc(String name, int keyLen, String prov) {
    return new CipherDef(
        name, "AES/CBC/NoPadding", "AES", prov, keyLen, 16, IV, 0, true, Repeat.ALLOWED);
  }

  static CipherDef aesCtr(String name, int keyLen, String prov) {
    return new CipherDef(
        name, "AES/CTR/NoPadding", "AES", prov, keyLen, 16, IV, 0, false, Repeat.ALLOWED);
  }

  static CipherDef chacha20(String prov, Repeat repeat) {
    return new CipherDef(
        "chacha20", "ChaCha20", "ChaCha20", prov, 32, 12, CHACHA20, 0, false, repeat);
  }

  static CipherDef aesGcm(String name, int keyLen, String prov) {
    return new CipherDef(
        name, "AES/GCM/NoPadding", "AES", prov, keyLen, 12, GCM, 16, false, Repeat.ENCRYPT_REFUSED);
  }

  static CipherDef sm4(String mode, String prov) {
    return switch (mode) {
      case "ecb" ->
          new CipherDef(
              "sm4-ecb", "SM4/ECB/NoPadding", "SM4", prov, 16, 0, null, 0, true, Repeat.ALLOWED);
      case "cbc" ->
          new CipherDef(
              "sm4-cbc", "SM4/CBC/NoPadding", "SM4", prov, 16, 16, IV, 0, true, Repeat.ALLOWED);
      case "ctr" ->
          new CipherDef(
              "sm4-ctr", "SM4/CTR/NoPadding", "SM4", prov, 16, 16, IV, 0, false, Repeat.ALLOWED);
      default ->
          new CipherDef(
              "sm4-gcm",
              "SM4/GCM/NoPadding",
              "SM4",
              prov,
              16,
              12,
              GCM,
              16,
              false,
              Repeat.ENCRYPT_REFUSED);
    };
  }

  static CipherDef chacha20Poly1305(String prov, Repeat repeat) {
    return new CipherDef(
        "chacha20-poly1305", "ChaCha20-Poly1305", "ChaCha20", prov, 32, 12, IV, 16, false, repeat);
  }

  static Alg hash(String name, String jcaName, String prov) {
    return new Alg(
        name,
        List.of("hash"),
        Set.of("hash"),
        "",
        c -> MessageDigest.getInstance(jcaName, prov).digest(c.msg()),
        p -> new DigestCell(MessageDigest.getInstance(jcaName, prov), p));
  }

  static Alg hmac(String name, String jcaName, String prov) {
    return new Alg(
        name,
        List.of("mac"),
        Set.of("mac"),
        "",
        c -> {
          Mac m = Mac.getInstance(jcaName, prov);
          m.init(new SecretKeySpec(c.key(), jcaName));
          return m.doFinal(c.msg());
        },
        p -> {
          Mac m = Mac.getInstance(jcaName, prov);
          m.init(new SecretKeySpec(p.key(), jcaName));
          return new MacCell(m, p);
        });
  }

  /**
   * A cipher or AEAD; streamOps are the ops streamed with bounded memory, noStream says why not.
   */
  static Alg cipher(CipherDef d, Set<String> streamOps, String noStream) {
    List<String> ops = d.tagLen() > 0 ? List.of("seal", "open") : List.of("encrypt", "decrypt");
    Set<String> streamed = Set.copyOf(ops.stream().filter(streamOps::contains).toList());
    return new Alg(
        d.name(), ops, streamed, noStream, c -> execCipher(d, c), p -> newCipherCell(d, p, ""));
  }

  /**
   * An AEAD streamed both ways whose library holds the whole ciphertext when decrypting (why): the
   * open cell says so in its bench response and its doFinal writes into a message-sized buffer.
   */
  static Alg buffered(CipherDef d, String why) {
    List<String> ops = List.of("seal", "open");
    return new Alg(
        d.name(),
        ops,
        Set.copyOf(ops),
        "",
        c -> execCipher(d, c),
        p -> newCipherCell(d, p, p.encrypting() ? "" : why));
  }

  private static void check(CipherDef d, byte[] key, byte[] iv) {
    Provider.checkLen("key", key, d.keyLen());
    if (d.spec() != null) {
      Provider.checkLen("iv", iv, d.ivLen());
    }
  }

  private static byte[] execCipher(CipherDef d, Provider.Case c) throws Exception {
    check(d, c.key(), c.iv());
    if (d.blocks()) {
      Provider.checkBlocks(c.msg().length, d.name());
    }
    boolean enc = c.op().equals("encrypt") || c.op().equals("seal");
    Cipher cipher = Cipher.getInstance(d.transformation(), d.prov());
    SecretKeySpec key = new SecretKeySpec(c.key(), d.keyAlg());
    int mode = enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
    if (d.spec() == null) {
      cipher.init(mode, key);
    } else {
      cipher.init(mode, key, d.spec().of(c.iv(), c.counter()));
    }
    if (c.aad().length > 0) {
      cipher.updateAAD(c.aad());
    }
    try {
      return cipher.doFinal(c.msg());
    } catch (AEADBadTagException e) {
      throw new Provider.Rejected(e);
    }
  }

  private static Cell newCipherCell(CipherDef d, CellParams p, String buffers) throws Exception {
    check(d, p.key(), p.iv());
    if (d.blocks()) {
      Provider.checkBlocks(p.size(), d.name());
    }
    return new CipherCell(d, p, buffers);
  }

  // ---- cells ---------------------------------------------------------------------------------

  /**
   * MessageDigest: update(msg) and digest into a preallocated buffer; streamed: update per piece.
   */
  static final class DigestCell extends Provider.MessageCell {
    private final MessageDigest md;

    DigestCell(MessageDigest md, CellParams p) throws Exception {
      super(p, md.getDigestLength());
      this.md = md;
    }

    @Override
    long run() throws GeneralSecurityException {
      if (msg != null) {
        md.update(msg, 0, msg.length);
      } else {
        Pieces ps = pieces;
        byte[] src = ps.src();
        for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
          md.update(src, ps.at(pos), ps.len(pos));
        }
      }
      md.digest(out, 0, out.length);
      return out[0] & 0xff;
    }

    @Override
    long loop(long n) throws GeneralSecurityException {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }

  /** Mac initialised once per cell: update(msg) and doFinal(buf, 0); streamed: update per piece. */
  static final class MacCell extends Provider.MessageCell {
    private final Mac mac;

    MacCell(Mac mac, CellParams p) throws Exception {
      super(p, mac.getMacLength());
      this.mac = mac;
    }

    @Override
    long run() throws GeneralSecurityException {
      if (msg != null) {
        mac.update(msg, 0, msg.length);
      } else {
        Pieces ps = pieces;
        byte[] src = ps.src();
        for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
          mac.update(src, ps.at(pos), ps.len(pos));
        }
      }
      mac.doFinal(out, 0);
      return out[0] & 0xff;
    }

    @Override
    long loop(long n) throws GeneralSecurityException {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }

  /**
   * Any Cipher: per message init(mode, key, spec) (except ECB, initialised once) and doFinal(in, 0,
   * n, out, 0) into a preallocated array; streamed: update per piece into a piece-sized buffer,
   * then doFinal. Cycles through one or two nonces (see {@link Repeat}). A streamed decrypt/open
   * above {@link #REGEN_ABOVE} makes its ciphertext again per piece with a second, encrypting
   * Cipher, off the clock ({@link #takeUntimedNs}), instead of holding it.
   */
  static final class CipherCell extends Cell {
    private final Cipher cipher;
    private final int mode;
    private final SecretKeySpec key;
    private final AlgorithmParameterSpec[] specs; // null: ECB, initialised once
    private final byte[][] in; // one-shot input per nonce
    private final Pieces[] pieces; // streamed input per nonce (the plaintext pattern when regen)
    private final byte[] out;
    private final String buffers; // why the library holds the whole input ("" when it does not)
    private final int chunk;
    private final long size;
    private final int bound; // the most input a streaming library may hold back without a note
    // big streamed decrypt/open: the encrypting Cipher that remakes each piece, its buffer, and the
    // spec of the other nonce it is initialised with first where a repeated init is refused
    private final Cipher regen;
    private final byte[] ct;
    private final AlgorithmParameterSpec[] regenFirst;
    // AES-GCM: its ciphertext is AES-CTR from counter block nonce || 2 (NIST SP 800-38D), so the
    // regenerating Cipher is SunJCE's AES/CTR (fast, re-initialisable with one IV) and the tag,
    // the same every time, is made once when the cell is prepared (as js:node does)
    private final AlgorithmParameterSpec[] ctrSpecs;
    private final byte[][] tags;
    private long untimedNs;
    private int next;
    private int outLen;

    CipherCell(CipherDef d, CellParams p, String buffers) throws Exception {
      boolean enc = p.encrypting();
      this.cipher = Cipher.getInstance(d.transformation(), d.prov());
      this.mode = enc ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
      this.key = new SecretKeySpec(p.key(), d.keyAlg());
      this.buffers = buffers;
      this.chunk = p.chunk();
      this.size = p.size();
      this.bound = p.chunk() + 64 + d.tagLen();
      byte[][] nonces =
          d.spec() == null
              ? new byte[][] {null}
              : Provider.nonces(p.iv(), d.repeat().alternate(enc));
      if (d.spec() == null) {
        this.specs = null;
        cipher.init(mode, key);
      } else {
        this.specs = new AlgorithmParameterSpec[nonces.length];
        for (int i = 0; i < nonces.length; i++) {
          specs[i] = d.spec().of(nonces[i], 0);
        }
      }
      int n = nonces.length;
      boolean remake = !enc && p.chunk() > 0 && p.size() > regenAbove;
      if (p.chunk() == 0) {
        byte[] msg = p.message();
        this.pieces = null;
        this.in = new byte[n][];
        for (int i = 0; i < n; i++) {
          in[i] = enc ? msg : encryptOnce(d, p, nonces[i], msg);
        }
        this.out = new byte[Provider.arrayLength(p.size() + (enc ? d.tagLen() : 0), "the output")];
      } else {
        this.in = null;
        this.pieces = new Pieces[n];
        for (int i = 0; i < n; i++) {
          pieces[i] =
              enc || remake
                  ? p.pieces()
                  : new Pieces(
                      encryptStreamed(d, p, nonces[i]), false, p.size() + d.tagLen(), p.chunk());
        }
        // a piece, what the cipher held back (a 64-byte block in ChaCha20-Poly1305) and the tag
        // doFinal appends after it; a library that holds the whole ciphertext writes the whole
        // plaintext at doFinal
        this.out =
            new byte
                [buffers.isEmpty()
                    ? bound
                    : Provider.arrayLength(p.size() + 64, "the plaintext doFinal writes")];
      }
      boolean gcm = d.transformation().startsWith("AES/GCM/") && d.ivLen() == 12;
      if (remake && gcm) {
        this.ctrSpecs = new AlgorithmParameterSpec[n];
        this.tags = new byte[n][];
        for (int i = 0; i < n; i++) {
          byte[] block = Arrays.copyOf(nonces[i], 16);
          block[15] = 2;
          ctrSpecs[i] = new IvParameterSpec(block);
          tags[i] = streamedTag(d, p, nonces[i]);
        }
      } else {
        this.ctrSpecs = null;
        this.tags = null;
      }
      if (remake) {
        this.regen =
            gcm
                ? Cipher.getInstance("AES/CTR/NoPadding", SUNJCE)
                : Cipher.getInstance(d.transformation(), d.prov());
        this.ct = new byte[bound];
        // where the decrypting cell alternates nonces, so do the regenerating inits; with one
        // nonce, an init with the other goes first where encrypting twice with one is refused
        boolean refused = !gcm && d.spec() != null && d.repeat().alternate(true) && n == 1;
        if (refused) {
          byte[][] other = Provider.nonces(p.iv(), true);
          this.regenFirst = new AlgorithmParameterSpec[n];
          for (int i = 0; i < n; i++) {
            regenFirst[i] = d.spec().of(other[Arrays.equals(nonces[i], other[0]) ? 1 : 0], 0);
          }
        } else {
          this.regenFirst = null;
        }
      } else {
        this.regen = null;
        this.ct = null;
        this.regenFirst = null;
      }
    }

    /** The one-shot ciphertext (and tag) of msg under nonce, made by a separate Cipher. */
    private static byte[] encryptOnce(CipherDef d, CellParams p, byte[] nonce, byte[] msg)
        throws GeneralSecurityException {
      Cipher c = Cipher.getInstance(d.transformation(), d.prov());
      init(c, Cipher.ENCRYPT_MODE, new SecretKeySpec(p.key(), d.keyAlg()), d, nonce);
      return c.doFinal(msg);
    }

    /** The tag of the streaming encryption of the message under nonce; only a piece is held. */
    private static byte[] streamedTag(CipherDef d, CellParams p, byte[] nonce) throws Exception {
      Cipher c = Cipher.getInstance(d.transformation(), d.prov());
      init(c, Cipher.ENCRYPT_MODE, new SecretKeySpec(p.key(), d.keyAlg()), d, nonce);
      byte[] scratch = new byte[p.chunk() + 64 + d.tagLen()];
      Pieces ps = p.pieces();
      for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
        c.update(ps.src(), ps.at(pos), ps.len(pos), scratch, 0);
      }
      int w = c.doFinal(scratch, 0);
      return Arrays.copyOfRange(scratch, w - d.tagLen(), w);
    }

    /** The ciphertext (and tag) made by the streaming encryption of the message, kept whole. */
    private static byte[] encryptStreamed(CipherDef d, CellParams p, byte[] nonce)
        throws Exception {
      byte[] ct = new byte[Provider.arrayLength(p.size() + d.tagLen(), "the ciphertext")];
      Cipher c = Cipher.getInstance(d.transformation(), d.prov());
      init(c, Cipher.ENCRYPT_MODE, new SecretKeySpec(p.key(), d.keyAlg()), d, nonce);
      Pieces ps = p.pieces();
      int w = 0;
      for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
        w += c.update(ps.src(), ps.at(pos), ps.len(pos), ct, w);
      }
      w += c.doFinal(ct, w);
      if (w != ct.length) {
        throw new IllegalStateException(
            "streamed encryption gave " + w + " bytes, not " + ct.length);
      }
      return ct;
    }

    private static void init(Cipher c, int mode, SecretKeySpec key, CipherDef d, byte[] nonce)
        throws GeneralSecurityException {
      if (d.spec() == null) {
        c.init(mode, key);
      } else {
        c.init(mode, key, d.spec().of(nonce, 0));
      }
    }

    private long stream(Pieces ps, Input.Fnv fold) throws GeneralSecurityException {
      byte[] src = ps.src();
      byte[] buf = out;
      for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
        int n = ps.len(pos);
        int w = cipher.update(src, ps.at(pos), n, buf, 0);
        if (fold != null) {
          fold.update(buf, 0, w);
          maxHeld = Math.max(maxHeld, pos + n - fold.length);
        }
      }
      int w = cipher.doFinal(buf, 0);
      if (fold != null) {
        fold.update(buf, 0, w);
      }
      return buf[0] & 0xff;
    }

    /**
     * A streamed decrypt/open whose ciphertext is made again piece by piece (nonce i) just before
     * the piece is decrypted; the time spent making it goes to untimedNs.
     */
    private long remade(int i, Input.Fnv fold) throws GeneralSecurityException {
      long t0 = System.nanoTime();
      if (ctrSpecs != null) {
        regen.init(Cipher.ENCRYPT_MODE, key, ctrSpecs[i]);
      } else if (specs == null) {
        regen.init(Cipher.ENCRYPT_MODE, key);
      } else {
        if (regenFirst != null) {
          regen.init(Cipher.ENCRYPT_MODE, key, regenFirst[i]);
        }
        regen.init(Cipher.ENCRYPT_MODE, key, specs[i]);
      }
      long u = System.nanoTime() - t0;
      Pieces ps = pieces[i];
      byte[] src = ps.src();
      byte[] buf = out;
      byte[] c = ct;
      long fed = 0;
      for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
        long a = System.nanoTime();
        int m = regen.update(src, ps.at(pos), ps.len(pos), c, 0);
        u += System.nanoTime() - a;
        int w = cipher.update(c, 0, m, buf, 0);
        fed += m;
        if (fold != null) {
          fold.update(buf, 0, w);
          maxHeld = Math.max(maxHeld, fed - fold.length);
        }
      }
      long a = System.nanoTime();
      int m = regen.doFinal(c, 0); // the rest, and an AEAD's tag
      if (tags != null) {
        System.arraycopy(tags[i], 0, c, m, tags[i].length);
        m += tags[i].length;
      }
      u += System.nanoTime() - a;
      int w = cipher.doFinal(c, 0, m, buf, 0);
      if (fold != null) {
        fold.update(buf, 0, w);
      }
      untimedNs += u;
      return buf[0] & 0xff;
    }

    @Override
    long takeUntimedNs() {
      long ns = untimedNs;
      untimedNs = 0;
      return ns;
    }

    @Override
    ObjectNode memoryReport() {
      if (chunk == 0 || maxHeld <= bound) {
        return null; // a one-shot cell holds its message by definition; a stream held a piece
      }
      ObjectNode m = JsonNodeFactory.instance.objectNode();
      m.put("library_held_bytes", maxHeld);
      m.put(
          "why",
          buffers.isEmpty()
              ? "the library held back this much input before it released output"
              : buffers);
      return m;
    }

    @Override
    String checksum() throws Exception {
      if (next != 0) {
        // The last operation used the cell's own nonce: one with the second nonce first, so the
        // checksum's operation does not re-use it (GCM refuses; this is the checksum after the
        // samples).
        run();
      }
      next = 0;
      if (in != null) {
        return super.checksum();
      }
      if (specs != null) {
        cipher.init(mode, key, specs[0]);
        next = specs.length > 1 ? 1 : 0;
      }
      Input.Fnv fold = new Input.Fnv();
      maxHeld = 0;
      try {
        if (regen != null) {
          remade(0, fold);
        } else {
          stream(pieces[0], fold);
        }
      } catch (OutOfMemoryError e) {
        if (buffers.isEmpty()) {
          throw e;
        }
        // the library's buffer (its growth, and the copy doFinal makes) outgrew the heap: the
        // cell cannot run at this size, which is the library's doing, not the driver's
        throw new Provider.NotOffered(
            "not offered at this size: "
                + buffers
                + "; here the JVM's "
                + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB heap ran out with "
                + maxHeld
                + " of the "
                + size
                + " bytes held (measured)");
      }
      return fold.checksum();
    }

    @Override
    byte[] output() {
      return outLen == out.length ? out : java.util.Arrays.copyOf(out, outLen);
    }

    @Override
    long run() throws GeneralSecurityException {
      int i = next;
      if (specs != null) {
        cipher.init(mode, key, specs[i]);
        next = i + 1 == specs.length ? 0 : i + 1;
      }
      if (in != null) {
        byte[] src = in[i];
        outLen = cipher.doFinal(src, 0, src.length, out, 0);
        return out.length == 0 ? 0 : out[0] & 0xff;
      }
      return regen != null ? remade(i, null) : stream(pieces[i], null);
    }

    @Override
    long loop(long n) throws GeneralSecurityException {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }
}
