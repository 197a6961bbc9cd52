package dev.cryptobench.driver;

import dev.cryptobench.driver.Pk.Gen;
import dev.cryptobench.driver.Pk.Pair;
import dev.cryptobench.driver.Provider.Alg;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.EncapsulatedSecretExtractor;
import org.bouncycastle.crypto.EncapsulatedSecretGenerator;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.generators.SLHDSAKeyPairGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.SLHDSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.SLHDSAParameters;
import org.bouncycastle.crypto.params.SLHDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.SLHDSAPublicKeyParameters;
import org.bouncycastle.crypto.prng.FixedSecureRandom;
import org.bouncycastle.crypto.signers.SLHDSASigner;
import org.bouncycastle.pqc.crypto.MessageSigner;
import org.bouncycastle.pqc.crypto.falcon.FalconKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.falcon.FalconKeyPairGenerator;
import org.bouncycastle.pqc.crypto.falcon.FalconParameters;
import org.bouncycastle.pqc.crypto.falcon.FalconPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.falcon.FalconPublicKeyParameters;
import org.bouncycastle.pqc.crypto.falcon.FalconSigner;
import org.bouncycastle.pqc.crypto.hqc.HQCKEMExtractor;
import org.bouncycastle.pqc.crypto.hqc.HQCKEMGenerator;
import org.bouncycastle.pqc.crypto.hqc.HQCKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.hqc.HQCKeyPairGenerator;
import org.bouncycastle.pqc.crypto.hqc.HQCParameters;
import org.bouncycastle.pqc.crypto.hqc.HQCPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.hqc.HQCPublicKeyParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMExtractor;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMGenerator;
import org.bouncycastle.pqc.crypto.xwing.XWingKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingKeyPairGenerator;
import org.bouncycastle.pqc.crypto.xwing.XWingPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingPublicKeyParameters;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusKeyGenerationParameters;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusKeyPairGenerator;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusParameters;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusPrivateKeyParameters;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusPublicKeyParameters;
import org.bouncycastle.pqc.legacy.sphincsplus.SPHINCSPlusSigner;

/**
 * The post-quantum schemes of 2026 through BouncyCastle's lightweight API, beside ML-KEM/ML-DSA in
 * {@link BouncyCastleLwPk}: SLH-DSA (org.bouncycastle.crypto: SLHDSAKeyPairGenerator,
 * SLHDSASigner), Falcon, HQC and X-Wing (org.bouncycastle.pqc.crypto: FalconKeyPairGenerator /
 * FalconSigner, HQCKeyPairGenerator / HQCKEMGenerator / HQCKEMExtractor, XWingKeyPairGenerator /
 * XWingKEMGenerator / XWingKEMExtractor). Built with {@link Pk#sig} and {@link Pk#kem} like every
 * other public-key algorithm of the driver.
 */
final class BouncyCastleLwPq {
  private BouncyCastleLwPq() {}

  /** The 12 SLH-DSA parameter sets: catalogue name suffix and BouncyCastle's parameters. */
  static final Object[][] SLH_DSA = {
    {"sha2-128s", SLHDSAParameters.sha2_128s},
    {"sha2-128f", SLHDSAParameters.sha2_128f},
    {"sha2-192s", SLHDSAParameters.sha2_192s},
    {"sha2-192f", SLHDSAParameters.sha2_192f},
    {"sha2-256s", SLHDSAParameters.sha2_256s},
    {"sha2-256f", SLHDSAParameters.sha2_256f},
    {"shake-128s", SLHDSAParameters.shake_128s},
    {"shake-128f", SLHDSAParameters.shake_128f},
    {"shake-192s", SLHDSAParameters.shake_192s},
    {"shake-192f", SLHDSAParameters.shake_192f},
    {"shake-256s", SLHDSAParameters.shake_256s},
    {"shake-256f", SLHDSAParameters.shake_256f},
  };

  /**
   * SPHINCS+ round 3.1, the "simple" sets (BouncyCastle's legacy SPHINCSPlusParameters.sha2_128f
   * ... are the simple ones; the robust ones carry a _robust suffix).
   */
  static final Object[][] SPHINCS_PLUS = {
    {"sha2-128s", SPHINCSPlusParameters.sha2_128s},
    {"sha2-128f", SPHINCSPlusParameters.sha2_128f},
    {"sha2-192s", SPHINCSPlusParameters.sha2_192s},
    {"sha2-192f", SPHINCSPlusParameters.sha2_192f},
    {"sha2-256s", SPHINCSPlusParameters.sha2_256s},
    {"sha2-256f", SPHINCSPlusParameters.sha2_256f},
    {"shake-128s", SPHINCSPlusParameters.shake_128s},
    {"shake-128f", SPHINCSPlusParameters.shake_128f},
    {"shake-192s", SPHINCSPlusParameters.shake_192s},
    {"shake-192f", SPHINCSPlusParameters.shake_192f},
    {"shake-256s", SPHINCSPlusParameters.shake_256s},
    {"shake-256f", SPHINCSPlusParameters.shake_256f},
  };

  static List<Alg> algs() {
    List<Alg> algs = new ArrayList<>();
    for (Object[] s : SLH_DSA) {
      algs.add(Pk.sig("slh-dsa-" + s[0], true, new SlhDsa((SLHDSAParameters) s[1])));
    }
    for (Object[] s : SPHINCS_PLUS) {
      algs.add(
          Pk.sig(
              "sphincs-" + s[0] + "-simple",
              true,
              new SphincsPlus((SPHINCSPlusParameters) s[1], (String) s[0])));
    }
    algs.add(Pk.sig("falcon-512", true, new Falcon(FalconParameters.falcon_512)));
    algs.add(Pk.sig("falcon-1024", true, new Falcon(FalconParameters.falcon_1024)));
    algs.add(Pk.kem("hqc-1", new Hqc(HQCParameters.hqc128)));
    algs.add(Pk.kem("hqc-3", new Hqc(HQCParameters.hqc192)));
    algs.add(Pk.kem("hqc-5", new Hqc(HQCParameters.hqc256)));
    algs.add(Pk.kem("x-wing", new XWing()));
    return algs;
  }

  /** How the cells are written, for hello.notes. */
  static List<String> notes() {
    return List.of(
        "SLH-DSA (FIPS 205, pure, the 12 parameter sets SLHDSAParameters.sha2_128s ..."
            + " shake_256f): SLHDSAKeyPairGenerator; SLHDSASigner (a MessageSigner: one sign is"
            + " generateSignature(msg), one verify verifySignature(msg, sig)) initialised once per"
            + " cell with ParametersWithRandom (hedged: a fresh opt_rand per signature, the bench)"
            + " or the bare key (deterministic cases: BouncyCastle then uses opt_rand = PK.seed,"
            + " FIPS 205), in ParametersWithContext when a case has a context. Keys: the public"
            + " key PK.seed || PK.root and the private key SK.seed || SK.prf || PK.seed || PK.root"
            + " (the parameters' getEncoded()); keygen cases from SK.seed || SK.prf || PK.seed are"
            + " SLHDSAKeyPairGenerator.internalGenerateKeyPair(skSeed, skPrf, pkSeed).",
        "SPHINCS+ round 3.1, the 12 \"simple\" sets (sphincs-*-simple, the pre-standard of"
            + " SLH-DSA, whose signatures differ from it): BouncyCastle's legacy"
            + " SPHINCSPlusKeyPairGenerator and SPHINCSPlusSigner (org.bouncycastle.pqc.legacy."
            + "sphincsplus, SPHINCSPlusParameters.sha2_128f ... = the simple sets), randomised"
            + " signing (ParametersWithRandom), keys PK.seed || PK.root and SK.seed || SK.prf ||"
            + " PK.seed || PK.root; no context, no deterministic option, no keygen from a seed.",
        "Falcon (round 3, the basis of FN-DSA): FalconKeyPairGenerator, FalconSigner (a"
            + " MessageSigner, initialised once per cell with ParametersWithRandom; signatures are"
            + " the submission's compressed form, header 0x30+logn || 40-byte nonce || s2, of"
            + " variable length). Keys in the submission's encoding: public 0x00+logn || h"
            + " (897 / 1793 bytes, the header BouncyCastle's own SubjectPublicKeyInfoFactory"
            + " writes before getH()), private 0x50+logn || f || g || F (1281 / 2305 bytes:"
            + " BouncyCastle's getEncoded() is f || g || F); no key generation from a seed, no"
            + " deterministic signing, no context.",
        "HQC: HQCKeyPairGenerator, HQCKEMGenerator.generateEncapsulated (one generator per"
            + " cell), HQCKEMExtractor.extractSecret (one per cell); BouncyCastle 1.87 implements"
            + " the 2025 HQC specification (hqc-1/3/5 = HQCParameters.hqc128/192/256: public key"
            + " 2241 / 4514 / 7237 bytes, private key the 32-byte seed, ciphertext 4433 / 8978 /"
            + " 14421 bytes, 32-byte shared secret); the 2023 round-4 HQC (hqc-128/192/256, liboqs)"
            + " BouncyCastle does not have."
            + " No derandomised encapsulation, no key generation from a seed.",
        "X-Wing (draft-connolly-cfrg-xwing-kem): XWingKeyPairGenerator, XWingKEMGenerator"
            + " (one per cell), XWingKEMExtractor (one per cell); public key the 1216 bytes of"
            + " getEncoded() (ML-KEM-768 ek || X25519), private key the 32-byte seed"
            + " (XWingPrivateKeyParameters(seed) expands it, so keygen cases from a seed work);"
            + " encaps cases with the draft's 64-byte eseed give XWingKEMGenerator BouncyCastle's"
            + " FixedSecureRandom(eseed), of which it draws exactly ML-KEM's 32-byte m and then"
            + " the 32-byte ephemeral X25519 key (checked: used up).",
        "Not offered: the TLS 1.3 hybrid key shares (x25519mlkem768, secp256r1mlkem768,"
            + " secp384r1mlkem1024): bcprov has no KEM for them (BouncyCastle's TLS code, bctls,"
            + " composes them inside its key exchange; bcprov's MLKEM768-X25519-SHA3-256 is the"
            + " LAMPS composite KEM with a SHA3 combiner, another scheme).");
  }

  /**
   * A MessageSigner initialised once with k for signing: one operation is generateSignature(msg).
   */
  private static Pk.Signing signing(MessageSigner s, CipherParameters k) {
    s.init(true, k);
    return s::generateSignature;
  }

  /** The verifier of {@link #signing}: initialised once with the public key k. */
  private static Pk.Verifying verifying(MessageSigner s, Object k) {
    s.init(false, (CipherParameters) k);
    return s::verifySignature;
  }

  // ---- SLH-DSA --------------------------------------------------------------------------------

  /**
   * Pure SLH-DSA (FIPS 205): SLHDSAKeyPairGenerator; SLHDSASigner with ParametersWithRandom
   * (hedged) or the bare key (deterministic: opt_rand = PK.seed), ParametersWithContext for a
   * context; keys as the parameters' getEncoded(), keygen from a seed with internalGenerateKeyPair.
   */
  static final class SlhDsa implements Pk.SigScheme {
    private final SLHDSAParameters params;
    private final int n;

    SlhDsa(SLHDSAParameters params) {
      this.params = params;
      this.n = params.getN();
    }

    /** The security parameter n in bytes (16, 24, 32). */
    int n() {
      return n;
    }

    private SLHDSAKeyGenerationParameters keyGeneration() {
      return new SLHDSAKeyGenerationParameters(BouncyCastleLwPk.random(), params);
    }

    @Override
    public Gen generator() {
      return BouncyCastleLwPk.gen(new SLHDSAKeyPairGenerator(), keyGeneration());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((SLHDSAPublicKeyParameters) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((SLHDSAPrivateKeyParameters) k.priv()).getEncoded();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      Pk.checkLen(params.getName() + " public key", b, 2 * n);
      return new SLHDSAPublicKeyParameters(params, b);
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      Pk.checkLen(params.getName() + " private key", b, 4 * n);
      return new SLHDSAPrivateKeyParameters(params, b);
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      Pk.checkLen("SLH-DSA seed SK.seed || SK.prf || PK.seed", seed, 3 * n);
      SLHDSAKeyPairGenerator g = new SLHDSAKeyPairGenerator();
      g.init(keyGeneration());
      AsymmetricCipherKeyPair kp =
          g.internalGenerateKeyPair(
              Arrays.copyOfRange(seed, 0, n),
              Arrays.copyOfRange(seed, n, 2 * n),
              Arrays.copyOfRange(seed, 2 * n, 3 * n));
      return new Pair(kp.getPrivate(), kp.getPublic());
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) {
      return signing(new SLHDSASigner(), BouncyCastleLwPk.contextKey(priv, ctx, deterministic));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) {
      return verifying(new SLHDSASigner(), BouncyCastleLwPk.withContext(pub, ctx));
    }
  }

  // ---- SPHINCS+ (round 3.1, pre-standard) -----------------------------------------------------

  /**
   * SPHINCS+ round 3.1 "simple" (org.bouncycastle.pqc.legacy.sphincsplus):
   * SPHINCSPlusKeyPairGenerator, SPHINCSPlusSigner with ParametersWithRandom (randomised signing);
   * keys PK.seed || PK.root and SK.seed || SK.prf || PK.seed || PK.root (getEncoded(), the
   * submission's and liboqs' layout). Not SLH-DSA: its signatures differ.
   */
  static final class SphincsPlus implements Pk.SigScheme {
    private final SPHINCSPlusParameters params;
    private final int n;

    SphincsPlus(SPHINCSPlusParameters params, String set) {
      this.params = params;
      this.n = Integer.parseInt(set.split("-")[1].replaceAll("\\D", "")) / 8;
    }

    @Override
    public Gen generator() {
      return BouncyCastleLwPk.gen(
          new SPHINCSPlusKeyPairGenerator(),
          new SPHINCSPlusKeyGenerationParameters(BouncyCastleLwPk.random(), params));
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((SPHINCSPlusPublicKeyParameters) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((SPHINCSPlusPrivateKeyParameters) k.priv()).getEncoded();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      Pk.checkLen("SPHINCS+ " + params.getName() + " public key", b, 2 * n);
      return new SPHINCSPlusPublicKeyParameters(params, b);
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      Pk.checkLen("SPHINCS+ " + params.getName() + " private key", b, 4 * n);
      return new SPHINCSPlusPrivateKeyParameters(params, b);
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "SPHINCS+");
      Pk.noDeterministic(deterministic, "SPHINCS+");
      return signing(new SPHINCSPlusSigner(), BouncyCastleLwPk.hedged(priv));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "SPHINCS+");
      return verifying(new SPHINCSPlusSigner(), pub);
    }
  }

  // ---- Falcon ---------------------------------------------------------------------------------

  /**
   * Falcon (round 3): FalconKeyPairGenerator, FalconSigner with ParametersWithRandom. Keys in the
   * submission's encoding: the public key 0x00+logn || h, the private key 0x50+logn || f || g || F;
   * BouncyCastle's parameters hold them without the header byte.
   */
  static final class Falcon implements Pk.SigScheme {
    private final FalconParameters params;
    private final int logn;
    private final int pubLen;
    private final int privLen;

    Falcon(FalconParameters params) {
      this.params = params;
      this.logn = params.getLogN();
      int n = 1 << logn;
      // The submission's sizes (its api.h): 1 + 14n/8 and 1 + 2 * bits(f,g) * n/8 + n.
      this.pubLen = 1 + 14 * n / 8;
      this.privLen = 1 + 2 * (logn == 10 ? 5 : 6) * n / 8 + n;
    }

    @Override
    public Gen generator() {
      return BouncyCastleLwPk.gen(
          new FalconKeyPairGenerator(),
          new FalconKeyGenerationParameters(BouncyCastleLwPk.random(), params));
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return Pk.concat(new byte[] {(byte) logn}, ((FalconPublicKeyParameters) k.pub()).getH());
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return Pk.concat(
          new byte[] {(byte) (0x50 + logn)}, ((FalconPrivateKeyParameters) k.priv()).getEncoded());
    }

    private byte[] body(String what, byte[] b, int len, int header) throws Provider.Rejected {
      Pk.checkLen(params.getName() + " " + what, b, len);
      if ((b[0] & 0xff) != header) {
        throw new Provider.Rejected(
            params.getName() + " " + what + ": header byte " + (b[0] & 0xff) + ", not " + header);
      }
      return Arrays.copyOfRange(b, 1, b.length);
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return new FalconPublicKeyParameters(params, body("public key", b, pubLen, logn));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      byte[] fgF = body("private key", b, privLen, 0x50 + logn);
      int n = 1 << logn;
      int fg = (privLen - 1 - n) / 2;
      // The public key is not part of the private encoding; signing does not use it.
      return new FalconPrivateKeyParameters(
          params,
          Arrays.copyOfRange(fgF, 0, fg),
          Arrays.copyOfRange(fgF, fg, 2 * fg),
          Arrays.copyOfRange(fgF, 2 * fg, fgF.length),
          new byte[0]);
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "Falcon");
      Pk.noDeterministic(deterministic, "Falcon");
      return signing(new FalconSigner(), BouncyCastleLwPk.hedged(priv));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "Falcon");
      return verifying(new FalconSigner(), pub);
    }
  }

  // ---- KEMs: HQC and X-Wing -------------------------------------------------------------------

  /** A derandomised call must have drawn exactly the given bytes: no more (an error), no fewer. */
  static void usedUp(FixedSecureRandom fixed, String what) {
    if (!fixed.isExhausted()) {
      throw new IllegalStateException(what + " did not draw all of the given randomness");
    }
  }

  /** Encapsulation with a generator made once per cell. */
  private static Pk.Encapsulating encapsulating(EncapsulatedSecretGenerator g, Object pub) {
    AsymmetricKeyParameter ek = (AsymmetricKeyParameter) pub;
    return () -> {
      SecretWithEncapsulation s = g.generateEncapsulated(ek);
      return new byte[][] {s.getEncapsulation(), s.getSecret()};
    };
  }

  private static Pk.Decapsulating decapsulating(
      EncapsulatedSecretExtractor x, String name, byte[] ct) throws Provider.Rejected {
    Pk.checkLen(name + " ciphertext", ct, x.getEncapsulationLength());
    return () -> x.extractSecret(ct);
  }

  /**
   * HQC as BouncyCastle 1.87 implements it (the 2025 specification): HQCKeyPairGenerator,
   * HQCKEMGenerator, HQCKEMExtractor; keys as the parameters' getEncoded() (the private key is the
   * 32-byte seed BouncyCastle stores; HQCPrivateKeyParameters(params, seed) expands it).
   */
  static final class Hqc implements Pk.KemScheme {
    private final HQCParameters params;

    Hqc(HQCParameters params) {
      this.params = params;
    }

    @Override
    public Gen generator() {
      return BouncyCastleLwPk.gen(
          new HQCKeyPairGenerator(),
          new HQCKeyGenerationParameters(BouncyCastleLwPk.random(), params));
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((HQCPublicKeyParameters) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((HQCPrivateKeyParameters) k.priv()).getEncoded();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      Pk.checkLen(params.getName() + " public key", b, params.getPublicKeyBytes());
      return new HQCPublicKeyParameters(params, b);
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      if (b.length == referenceSecretKeyLength()) {
        // The reference's encoded sk (the KAT files', vectors/pqc-kat) ends in seed_KEM, the
        // 32-byte seed BouncyCastle keeps as its private key (its keygen draws it first, as the
        // reference's does): BouncyCastle expands it itself.
        b = Arrays.copyOfRange(b, b.length - 32, b.length);
      }
      Pk.checkLen(params.getName() + " private key", b, params.getSecretKeyBytes());
      return new HQCPrivateKeyParameters(params, b);
    }

    /** The reference's encoded sk: ek ‖ seed_PKE (32) ‖ sigma (16, 24, 32) ‖ seed_KEM (32). */
    private int referenceSecretKeyLength() {
      int sigma = params == HQCParameters.hqc128 ? 16 : params == HQCParameters.hqc192 ? 24 : 32;
      return params.getPublicKeyBytes() + 32 + sigma + 32;
    }

    @Override
    public Pk.Encapsulating encapsulator(Object pub) {
      return encapsulating(new HQCKEMGenerator(BouncyCastleLwPk.random()), pub);
    }

    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      throw new Provider.Unsupported("BouncyCastle's HQCKEMGenerator has no derandomised API");
    }

    @Override
    public Pk.Decapsulating decapsulator(Object priv, byte[] ct) throws Exception {
      return decapsulating(
          new HQCKEMExtractor((HQCPrivateKeyParameters) priv), params.getName(), ct);
    }
  }

  /**
   * X-Wing: XWingKeyPairGenerator, XWingKEMGenerator, XWingKEMExtractor; the public key's
   * getEncoded() (1216 bytes), the private key the 32-byte seed (getSeed(); the seed constructor
   * expands it, which also serves keygen cases).
   */
  static final class XWing implements Pk.KemScheme {
    @Override
    public Gen generator() {
      return BouncyCastleLwPk.gen(
          new XWingKeyPairGenerator(), new XWingKeyGenerationParameters(BouncyCastleLwPk.random()));
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((XWingPublicKeyParameters) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((XWingPrivateKeyParameters) k.priv()).getSeed();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      Pk.checkLen("X-Wing public key", b, 1216);
      return new XWingPublicKeyParameters(b);
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return fromSeed(b).priv();
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      Pk.checkLen("X-Wing seed", seed, 32);
      XWingPrivateKeyParameters k = new XWingPrivateKeyParameters(seed);
      return new Pair(k, k.getPublicKeyParameters());
    }

    @Override
    public Pk.Encapsulating encapsulator(Object pub) {
      return encapsulating(new XWingKEMGenerator(BouncyCastleLwPk.random()), pub);
    }

    /**
     * Derandomised encapsulation with the draft's 64-byte eseed: XWingKEMGenerator draws exactly
     * that from its SecureRandom — 32 bytes for ML-KEM-768's m, then 32 for the ephemeral X25519
     * key — so it is given BouncyCastle's FixedSecureRandom(eseed) (checked: used up).
     */
    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      Pk.checkLen("X-Wing eseed", m, 64);
      FixedSecureRandom fixed = new FixedSecureRandom(m);
      SecretWithEncapsulation s =
          new XWingKEMGenerator(fixed).generateEncapsulated((AsymmetricKeyParameter) pub);
      usedUp(fixed, "X-Wing encapsulation");
      return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    @Override
    public Pk.Decapsulating decapsulator(Object priv, byte[] ct) throws Exception {
      return decapsulating(new XWingKEMExtractor((XWingPrivateKeyParameters) priv), "X-Wing", ct);
    }
  }
}
