package dev.cryptobench.driver;

import dev.cryptobench.driver.Provider.Alg;
import dev.cryptobench.driver.Provider.Cell;
import dev.cryptobench.driver.Provider.CellParams;
import dev.cryptobench.driver.Provider.Pieces;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.bouncycastle.crypto.BlockCipher;
import org.bouncycastle.crypto.BufferedBlockCipher;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.DefaultBufferedBlockCipher;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.Mac;
import org.bouncycastle.crypto.SkippingStreamCipher;
import org.bouncycastle.crypto.StreamCipher;
import org.bouncycastle.crypto.digests.AsconHash256;
import org.bouncycastle.crypto.digests.AsconXof128;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA3Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.engines.AsconAEAD128;
import org.bouncycastle.crypto.engines.ChaCha7539Engine;
import org.bouncycastle.crypto.engines.SM4Engine;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.modes.AEADCipher;
import org.bouncycastle.crypto.modes.CBCBlockCipher;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.modes.ChaCha20Poly1305;
import org.bouncycastle.crypto.modes.GCMBlockCipher;
import org.bouncycastle.crypto.modes.SICBlockCipher;
import org.bouncycastle.crypto.modes.XChaCha20Poly1305;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * java:bouncycastle-lw — BouncyCastle's lightweight API (org.bouncycastle.crypto) called directly,
 * as BouncyCastle's own code and many BC users do: Digest, HMac, BufferedBlockCipher over the AES
 * engine, SICBlockCipher (CTR) and ChaCha7539Engine as StreamCiphers, and the AEADCipher modes.
 */
final class BouncyCastleLwOps {
  private BouncyCastleLwOps() {}

  static Provider provider() {
    String ccmNoStream =
        "CCMBlockCipher buffers the whole message until doFinal (CCM must know the length before"
            + " it starts), so it is one-shot only";
    List<Alg> algs =
        new java.util.ArrayList<>(
            List.of(
                Provider.noop(),
                hash("sha256", SHA256Digest::newInstance),
                hash("sha512", SHA512Digest::new),
                hash("sha3-256", () -> new SHA3Digest(256)),
                hash("sha3-512", () -> new SHA3Digest(512)),
                hash("blake2b-512", () -> new Blake2bDigest(512)),
                hash("blake2s-256", () -> new Blake2sDigest(256)),
                hash("sm3", SM3Digest::new),
                hmac("hmac-sha256", () -> new HMac(SHA256Digest.newInstance())),
                block("aes-128-ecb", 16, false),
                block("aes-256-ecb", 32, false),
                block("aes-128-cbc", 16, true),
                block("aes-256-cbc", 32, true),
                stream(
                    "aes-128-ctr",
                    16,
                    16,
                    () -> SICBlockCipher.newInstance(AESEngine.newInstance())),
                stream(
                    "aes-256-ctr",
                    32,
                    16,
                    () -> SICBlockCipher.newInstance(AESEngine.newInstance())),
                stream("chacha20", 32, 12, ChaCha7539Engine::new),
                aead(
                    "aes-128-gcm",
                    16,
                    12,
                    true,
                    true,
                    "",
                    () -> GCMBlockCipher.newInstance(AESEngine.newInstance())),
                aead(
                    "aes-256-gcm",
                    32,
                    12,
                    true,
                    true,
                    "",
                    () -> GCMBlockCipher.newInstance(AESEngine.newInstance())),
                aead(
                    "aes-128-ccm",
                    16,
                    12,
                    true,
                    false,
                    ccmNoStream,
                    () -> CCMBlockCipher.newInstance(AESEngine.newInstance())),
                aead(
                    "aes-256-ccm",
                    32,
                    12,
                    true,
                    false,
                    ccmNoStream,
                    () -> CCMBlockCipher.newInstance(AESEngine.newInstance())),
                aead("chacha20-poly1305", 32, 12, true, true, "", ChaCha20Poly1305::new),
                aead("xchacha20-poly1305", 32, 24, false, true, "", XChaCha20Poly1305::new),
                block("sm4-ecb", 16, false, SM4Engine::new),
                block("sm4-cbc", 16, true, SM4Engine::new),
                stream("sm4-ctr", 16, 16, () -> SICBlockCipher.newInstance(new SM4Engine())),
                aead(
                    "sm4-gcm",
                    16,
                    12,
                    true,
                    true,
                    "",
                    () -> GCMBlockCipher.newInstance(new SM4Engine())),
                hash("ascon-hash256", AsconHash256::new),
                hash("ascon-xof128", AsconXof128::new),
                aead("ascon-aead128", 16, 16, false, false, true, "", AsconAEAD128::new)));
    algs.addAll(BouncyCastleLwPk.algs());
    algs.addAll(BouncyCastleLwPq.algs());
    List<String> notes =
        new java.util.ArrayList<>(
            List.of(
                "BouncyCastle's lightweight API called directly (no JCA): SHA256Digest.newInstance(),"
                    + " SHA512Digest, SHA3Digest(256/512), Blake2bDigest(512), Blake2sDigest(256),"
                    + " SM3Digest, HMac(SHA256Digest), AESEngine.newInstance() under"
                    + " DefaultBufferedBlockCipher (ECB), DefaultBufferedBlockCipher(CBCBlockCipher)"
                    + " (CBC), SICBlockCipher (CTR), ChaCha7539Engine (ChaCha20),"
                    + " GCMBlockCipher.newInstance / CCMBlockCipher.newInstance over AESEngine,"
                    + " ChaCha20Poly1305, XChaCha20Poly1305; SM4Engine in the same modes (ECB, CBC,"
                    + " SICBlockCipher, GCMBlockCipher.newInstance).",
                "Hashes and HMAC: one object per cell (HMac.init(key) once); one operation is"
                    + " update(msg, 0, n) and doFinal(buf, 0) into a preallocated buffer.",
                "Ciphers: the key schedule is done once per cell (init with the KeyParameter); the"
                    + " IV/nonce is set per message with init(mode, new ParametersWithIV(null, iv))"
                    + " (BouncyCastle's way to change the IV and keep the key), prepared once per cell."
                    + " One operation is processBytes(in, 0, n, out, 0) (+ doFinal for the buffered"
                    + " block ciphers) into a preallocated array.",
                "AEADs: init(mode, AEADParameters(null key, 128, nonce)) per message keeps the"
                    + " expanded key (GCM also keeps its hash-key tables); XChaCha20Poly1305 refuses"
                    + " a null key, so its parameters carry the KeyParameter and every init derives the"
                    + " HChaCha20 subkey (which depends on the nonce anyway). One operation is"
                    + " processBytes + doFinal; 16-byte tag, empty AAD; open verifies the tag.",
                "AEAD encryption: GCMBlockCipher, CCMBlockCipher, ChaCha20Poly1305 and"
                    + " XChaCha20Poly1305 refuse to be initialised for encryption twice in a row with the"
                    + " same nonce (\"cannot reuse nonce\"), so seal cells alternate between the cell's"
                    + " nonce and a second nonce (its last byte XOR 0x01), each prepared once; the"
                    + " checksum is of an operation with the cell's own nonce.",
                "Streaming (chunk > 0): processBytes per piece into a piece-sized buffer, then doFinal;"
                    + " GCM and (X)ChaCha20-Poly1305 stream in both directions (decryption holds back"
                    + " only the tag). AES-CCM is not streamed: "
                    + ccmNoStream
                    + ".",
                "Ascon (NIST SP 800-232): AsconHash256, AsconXof128 (a Digest whose doFinal gives"
                    + " its 32-byte default output, the length the catalogue times) and AsconAEAD128"
                    + " (an AEADCipher: 16-byte key and nonce, 16-byte tag, streamed both ways). Ascon"
                    + " has no key schedule and AsconAEAD128 refuses a null key, so every message's"
                    + " AEADParameters carry the KeyParameter; it accepts a repeated nonce, so its"
                    + " seal cells re-use the cell's nonce like the plain ciphers."));
    notes.addAll(BouncyCastleLwPk.notes());
    notes.addAll(BouncyCastleLwPq.notes());
    return new Provider.Catalogue(
        "java:bouncycastle-lw",
        "BouncyCastle (bcprov-jdk18on) lightweight API",
        new BouncyCastleProvider().getInfo() + " (lightweight API)",
        List.copyOf(notes),
        List.copyOf(algs));
  }

  // ---- hashes and HMAC -----------------------------------------------------------------------

  static Alg hash(String name, Supplier<Digest> make) {
    return new Alg(
        name,
        List.of("hash"),
        Set.of("hash"),
        "",
        c -> {
          Digest d = make.get();
          d.update(c.msg(), 0, c.msg().length);
          byte[] out = new byte[d.getDigestSize()];
          d.doFinal(out, 0);
          return out;
        },
        p -> new DigestCell(make.get(), p));
  }

  static Alg hmac(String name, Supplier<Mac> make) {
    return new Alg(
        name,
        List.of("mac"),
        Set.of("mac"),
        "",
        c -> {
          Mac m = make.get();
          m.init(new KeyParameter(c.key()));
          m.update(c.msg(), 0, c.msg().length);
          byte[] out = new byte[m.getMacSize()];
          m.doFinal(out, 0);
          return out;
        },
        p -> {
          Mac m = make.get();
          m.init(new KeyParameter(p.key()));
          return new MacCell(m, p);
        });
  }

  /** Digest: update and doFinal into a preallocated buffer; streamed: update per piece. */
  static final class DigestCell extends Provider.MessageCell {
    private final Digest d;

    DigestCell(Digest d, CellParams p) throws Exception {
      super(p, d.getDigestSize());
      this.d = d;
    }

    @Override
    long run() {
      if (msg != null) {
        d.update(msg, 0, msg.length);
      } else {
        Pieces ps = pieces;
        byte[] src = ps.src();
        for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
          d.update(src, ps.at(pos), ps.len(pos));
        }
      }
      d.doFinal(out, 0);
      return out[0] & 0xff;
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

  /** HMac keyed once per cell: update and doFinal; streamed: update per piece. */
  static final class MacCell extends Provider.MessageCell {
    private final Mac m;

    MacCell(Mac m, CellParams p) throws Exception {
      super(p, m.getMacSize());
      this.m = m;
    }

    @Override
    long run() {
      if (msg != null) {
        m.update(msg, 0, msg.length);
      } else {
        Pieces ps = pieces;
        byte[] src = ps.src();
        for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
          m.update(src, ps.at(pos), ps.len(pos));
        }
      }
      m.doFinal(out, 0);
      return out[0] & 0xff;
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

  // ---- ciphers -------------------------------------------------------------------------------

  /**
   * The three ways a lightweight cipher is driven, behind one small interface so that one cell
   * class and one streamed encryption serve them all (this adds an interface call or two per
   * operation, as the JCA's Cipher adds its CipherSpi call).
   */
  interface Engine {
    /** Sets the IV/nonce (prepared parameters) for the next message. */
    void init(CipherParameters perMessage);

    int update(byte[] in, int off, int len, byte[] out, int outOff);

    int finish(byte[] out, int outOff) throws InvalidCipherTextException;
  }

  /** ECB and CBC: DefaultBufferedBlockCipher, processBytes + doFinal. */
  record Buffered(BufferedBlockCipher c, boolean encrypt) implements Engine {
    @Override
    public void init(CipherParameters perMessage) {
      c.init(encrypt, perMessage);
    }

    @Override
    public int update(byte[] in, int off, int len, byte[] out, int outOff) {
      return c.processBytes(in, off, len, out, outOff);
    }

    @Override
    public int finish(byte[] out, int outOff) throws InvalidCipherTextException {
      return c.doFinal(out, outOff);
    }
  }

  /** CTR and ChaCha20: a StreamCipher, processBytes (nothing to finish). */
  record Streaming(StreamCipher c, boolean encrypt) implements Engine {
    @Override
    public void init(CipherParameters perMessage) {
      c.init(encrypt, perMessage);
    }

    @Override
    public int update(byte[] in, int off, int len, byte[] out, int outOff) {
      return c.processBytes(in, off, len, out, outOff);
    }

    @Override
    public int finish(byte[] out, int outOff) {
      return 0;
    }
  }

  /** The AEADs: AEADCipher, processBytes + doFinal (which writes or checks the tag). */
  record Aead(AEADCipher c, boolean encrypt) implements Engine {
    @Override
    public void init(CipherParameters perMessage) {
      c.init(encrypt, perMessage);
    }

    @Override
    public int update(byte[] in, int off, int len, byte[] out, int outOff) {
      return c.processBytes(in, off, len, out, outOff);
    }

    @Override
    public int finish(byte[] out, int outOff) throws InvalidCipherTextException {
      return c.doFinal(out, outOff);
    }
  }

  /**
   * How an algorithm is built: a new engine for a direction, keyed (the key schedule) with the
   * cell's key; and the per-message parameters for a nonce (null for ECB).
   */
  interface Def {
    Engine keyed(boolean encrypt, byte[] key, byte[] firstNonce);

    CipherParameters perMessage(byte[] key, byte[] nonce, long counter);
  }

  static Alg block(String name, int keyLen, boolean cbc) {
    return block(name, keyLen, cbc, AESEngine::newInstance);
  }

  static Alg block(String name, int keyLen, boolean cbc, Supplier<BlockCipher> engine) {
    Def def =
        new Def() {
          @Override
          public Engine keyed(boolean encrypt, byte[] key, byte[] firstNonce) {
            BufferedBlockCipher c =
                new DefaultBufferedBlockCipher(
                    cbc ? CBCBlockCipher.newInstance(engine.get()) : engine.get());
            KeyParameter k = new KeyParameter(key);
            c.init(encrypt, cbc ? new ParametersWithIV(k, firstNonce) : k);
            return new Buffered(c, encrypt);
          }

          @Override
          public CipherParameters perMessage(byte[] key, byte[] nonce, long counter) {
            return cbc ? new ParametersWithIV(null, nonce) : null;
          }
        };
    return cipherAlg(name, keyLen, cbc ? 16 : 0, 0, true, false, true, "", def);
  }

  static Alg stream(String name, int keyLen, int ivLen, Supplier<StreamCipher> make) {
    Def def =
        new Def() {
          @Override
          public Engine keyed(boolean encrypt, byte[] key, byte[] firstNonce) {
            StreamCipher c = make.get();
            c.init(encrypt, new ParametersWithIV(new KeyParameter(key), firstNonce));
            return new Streaming(c, encrypt);
          }

          @Override
          public CipherParameters perMessage(byte[] key, byte[] nonce, long counter) {
            return new ParametersWithIV(null, nonce);
          }
        };
    return cipherAlg(name, keyLen, ivLen, 0, false, false, true, "", def);
  }

  /**
   * @param nullKey the mode keeps its key when re-initialised with a null key (all but XChaCha)
   */
  static Alg aead(
      String name,
      int keyLen,
      int nonceLen,
      boolean nullKey,
      boolean streamed,
      String noStream,
      Supplier<AEADCipher> make) {
    return aead(name, keyLen, nonceLen, nullKey, true, streamed, noStream, make);
  }

  /**
   * @param nullKey the mode keeps its key when re-initialised with a null key (all but XChaCha and
   *     Ascon)
   * @param sealRefusesRepeat the mode refuses two encryptions in a row with one nonce (GCM, CCM,
   *     the ChaCha20-Poly1305s; not Ascon), so seal cells alternate two nonces
   */
  static Alg aead(
      String name,
      int keyLen,
      int nonceLen,
      boolean nullKey,
      boolean sealRefusesRepeat,
      boolean streamed,
      String noStream,
      Supplier<AEADCipher> make) {
    Def def =
        new Def() {
          @Override
          public Engine keyed(boolean encrypt, byte[] key, byte[] firstNonce) {
            AEADCipher c = make.get();
            c.init(encrypt, new AEADParameters(new KeyParameter(key), 128, firstNonce));
            return new Aead(c, encrypt);
          }

          @Override
          public CipherParameters perMessage(byte[] key, byte[] nonce, long counter) {
            return new AEADParameters(nullKey ? null : new KeyParameter(key), 128, nonce);
          }
        };
    return cipherAlg(name, keyLen, nonceLen, 16, false, sealRefusesRepeat, streamed, noStream, def);
  }

  private static Alg cipherAlg(
      String name,
      int keyLen,
      int ivLen,
      int tagLen,
      boolean blocks,
      boolean sealRefusesRepeat,
      boolean streamed,
      String noStream,
      Def def) {
    List<String> ops = tagLen > 0 ? List.of("seal", "open") : List.of("encrypt", "decrypt");
    return new Alg(
        name,
        ops,
        streamed ? Set.copyOf(ops) : Set.of(),
        noStream,
        c -> {
          check(name, keyLen, ivLen, blocks, c.key(), c.iv(), c.msg().length);
          boolean enc = c.op().equals("encrypt") || c.op().equals("seal");
          AEADCipher aeadCipher = null;
          Engine e;
          if (tagLen > 0) {
            // Verify: a fresh, keyed AEAD per case, with the case's AAD.
            Aead a = (Aead) def.keyed(enc, c.key(), c.iv());
            aeadCipher = a.c();
            e = a;
          } else {
            e = def.keyed(enc, c.key(), ivLen == 0 ? null : c.iv());
          }
          if (c.counter() != 0) {
            // ChaCha20 cases with an initial block counter: skip that many 64-byte blocks.
            if (!(e instanceof Streaming s && s.c() instanceof SkippingStreamCipher skip)) {
              throw new IllegalArgumentException(name + " takes no block counter");
            }
            skip.seekTo(64L * c.counter());
          }
          if (aeadCipher != null && c.aad().length > 0) {
            aeadCipher.processAADBytes(c.aad(), 0, c.aad().length);
          }
          byte[] out = new byte[c.msg().length + (enc ? tagLen : 0)];
          try {
            int w = e.update(c.msg(), 0, c.msg().length, out, 0);
            w += e.finish(out, w);
            return w == out.length ? out : java.util.Arrays.copyOf(out, w);
          } catch (InvalidCipherTextException ex) {
            if (tagLen > 0 && !enc) {
              throw new Provider.Rejected(ex);
            }
            throw ex;
          }
        },
        p -> {
          check(name, keyLen, ivLen, blocks, p.key(), p.iv(), p.size());
          boolean alternate = sealRefusesRepeat && p.encrypting();
          return new CipherCell(def, ivLen > 0, tagLen, alternate, p);
        });
  }

  private static void check(
      String name, int keyLen, int ivLen, boolean blocks, byte[] key, byte[] iv, long size) {
    Provider.checkLen("key", key, keyLen);
    if (ivLen > 0) {
      Provider.checkLen("iv", iv, ivLen);
    }
    if (blocks) {
      Provider.checkBlocks(size, name);
    }
  }

  /**
   * Any lightweight cipher: the engine is keyed once per cell; per message init with prepared
   * parameters (none for ECB), then update + finish into a preallocated array; streamed: update per
   * piece into a piece-sized buffer, then finish.
   */
  static final class CipherCell extends Cell {
    private final Engine engine;
    private final CipherParameters[] params; // null: ECB, no per-message init
    private final byte[][] in;
    private final Pieces[] pieces;
    private final byte[] out;
    // big streamed decrypt/open (JcaOps.REGEN_ABOVE): the encrypting engine that remakes each
    // piece, its buffer, and the parameters of the other nonce it is initialised with first (GCM
    // refuses to encrypt twice in a row with one nonce)
    private final Engine regen;
    private final byte[] ct;
    private final CipherParameters[] regenFirst;
    private long untimedNs;
    private int next;
    private int outLen;

    CipherCell(Def def, boolean hasIv, int tagLen, boolean alternate, CellParams p)
        throws Exception {
      boolean enc = p.encrypting();
      byte[][] nonces = hasIv ? Provider.nonces(p.iv(), alternate) : new byte[][] {null};
      int n = nonces.length;
      // Keyed with the last nonce of the cycle, so that the first operation (with the cell's
      // own nonce) never repeats the nonce of the init before it.
      this.engine = def.keyed(enc, p.key(), nonces[n - 1]);
      if (hasIv) {
        this.params = new CipherParameters[n];
        for (int i = 0; i < n; i++) {
          params[i] = def.perMessage(p.key(), nonces[i], 0);
        }
      } else {
        this.params = null;
      }
      boolean remake = !enc && p.chunk() > 0 && p.size() > JcaOps.regenAbove;
      if (p.chunk() == 0) {
        byte[] msg = p.message();
        this.pieces = null;
        this.in = new byte[n][];
        for (int i = 0; i < n; i++) {
          in[i] = enc ? msg : encrypt(def, p, nonces[i], tagLen, msg);
        }
        this.out = new byte[Provider.arrayLength(p.size() + (enc ? tagLen : 0), "the output")];
      } else {
        this.in = null;
        this.pieces = new Pieces[n];
        for (int i = 0; i < n; i++) {
          pieces[i] =
              enc || remake
                  ? p.pieces()
                  : new Pieces(
                      encrypt(def, p, nonces[i], tagLen, null),
                      false,
                      p.size() + tagLen,
                      p.chunk());
        }
        // a piece, what the cipher held back (a 64-byte block in ChaCha20-Poly1305) and the tag
        // doFinal appends after it
        this.out = new byte[p.chunk() + 64 + tagLen];
      }
      if (remake) {
        byte[][] both = hasIv ? Provider.nonces(p.iv(), true) : new byte[][] {null, null};
        // keyed with the cell's nonce: each operation's first init is with the other one
        this.regen = def.keyed(true, p.key(), both[0]);
        this.ct = new byte[p.chunk() + 64 + tagLen];
        if (hasIv) {
          this.regenFirst = new CipherParameters[n];
          for (int i = 0; i < n; i++) {
            byte[] other = both[java.util.Arrays.equals(nonces[i], both[0]) ? 1 : 0];
            regenFirst[i] = def.perMessage(p.key(), other, 0);
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

    /**
     * The ciphertext (and tag) under nonce, by a separate engine: one-shot from msg, or (msg null)
     * streamed from the pattern in the cell's pieces, kept whole.
     */
    private static byte[] encrypt(Def def, CellParams p, byte[] nonce, int tagLen, byte[] msg)
        throws Exception {
      Engine e = def.keyed(true, p.key(), nonce);
      byte[] ct = new byte[Provider.arrayLength(p.size() + tagLen, "the ciphertext")];
      int w = 0;
      if (msg != null) {
        w = e.update(msg, 0, msg.length, ct, 0);
      } else {
        Pieces ps = p.pieces();
        for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
          w += e.update(ps.src(), ps.at(pos), ps.len(pos), ct, w);
        }
      }
      w += e.finish(ct, w);
      if (w != ct.length) {
        throw new IllegalStateException("encryption gave " + w + " bytes, not " + ct.length);
      }
      return ct;
    }

    /**
     * A streamed decrypt/open whose ciphertext is made again piece by piece (nonce i) just before
     * the piece is decrypted; the time spent making it goes to untimedNs (as JcaOps.CipherCell).
     */
    private long remade(int i, Input.Fnv fold) throws InvalidCipherTextException {
      long t0 = System.nanoTime();
      if (params != null) {
        regen.init(regenFirst[i]);
        regen.init(params[i]);
      } // ECB: keyed once, finish resets it
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
        int w = engine.update(c, 0, m, buf, 0);
        fed += m;
        if (fold != null) {
          fold.update(buf, 0, w);
          maxHeld = Math.max(maxHeld, fed - fold.length);
        }
      }
      long a = System.nanoTime();
      int m = regen.finish(c, 0); // the rest, and an AEAD's tag
      u += System.nanoTime() - a;
      int w = engine.update(c, 0, m, buf, 0);
      w += engine.finish(buf, w);
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

    private long stream(Pieces ps, Input.Fnv fold) throws InvalidCipherTextException {
      byte[] src = ps.src();
      byte[] buf = out;
      for (long pos = 0; pos < ps.length(); pos += ps.chunk()) {
        int n = ps.len(pos);
        int w = engine.update(src, ps.at(pos), n, buf, 0);
        if (fold != null) {
          fold.update(buf, 0, w);
          maxHeld = Math.max(maxHeld, pos + n - fold.length);
        }
      }
      int w = engine.finish(buf, 0);
      if (fold != null) {
        fold.update(buf, 0, w);
      }
      return buf[0] & 0xff;
    }

    @Override
    String checksum() throws Exception {
      if (next != 0) {
        run(); // as JcaOps.CipherCell: never re-use the nonce the last operation used
      }
      next = 0;
      if (in != null) {
        return super.checksum();
      }
      if (params != null) {
        engine.init(params[0]);
        next = params.length > 1 ? 1 : 0;
      }
      Input.Fnv fold = new Input.Fnv();
      maxHeld = 0;
      if (regen != null) {
        remade(0, fold);
      } else {
        stream(pieces[0], fold);
      }
      return fold.checksum();
    }

    @Override
    byte[] output() {
      return outLen == out.length ? out : java.util.Arrays.copyOf(out, outLen);
    }

    @Override
    long run() throws InvalidCipherTextException {
      int i = next;
      if (params != null) {
        engine.init(params[i]);
        next = i + 1 == params.length ? 0 : i + 1;
      }
      if (in != null) {
        byte[] src = in[i];
        int w = engine.update(src, 0, src.length, out, 0);
        outLen = w + engine.finish(out, w);
        return out.length == 0 ? 0 : out[0] & 0xff;
      }
      return regen != null ? remade(i, null) : stream(pieces[i], null);
    }

    @Override
    long loop(long n) throws InvalidCipherTextException {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }
}
