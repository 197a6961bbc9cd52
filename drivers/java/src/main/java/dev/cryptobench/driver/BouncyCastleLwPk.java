package dev.cryptobench.driver;

import dev.cryptobench.driver.Pk.Gen;
import dev.cryptobench.driver.Pk.Pair;
import dev.cryptobench.driver.Pk.Rfc8410;
import dev.cryptobench.driver.Provider.Alg;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.gm.GMObjectIdentifiers;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.crypto.AsymmetricBlockCipher;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.AsymmetricCipherKeyPairGenerator;
import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.KeyGenerationParameters;
import org.bouncycastle.crypto.RawAgreement;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.agreement.X25519Agreement;
import org.bouncycastle.crypto.agreement.X448Agreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA384Digest;
import org.bouncycastle.crypto.encodings.OAEPEncoding;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.generators.Ed448KeyPairGenerator;
import org.bouncycastle.crypto.generators.MLDSAKeyPairGenerator;
import org.bouncycastle.crypto.generators.MLKEMKeyPairGenerator;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.generators.X25519KeyPairGenerator;
import org.bouncycastle.crypto.generators.X448KeyPairGenerator;
import org.bouncycastle.crypto.kems.MLKEMExtractor;
import org.bouncycastle.crypto.kems.MLKEMGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.crypto.params.Ed448KeyGenerationParameters;
import org.bouncycastle.crypto.params.MLDSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.MLKEMKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLKEMParameters;
import org.bouncycastle.crypto.params.MLKEMPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLKEMPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithID;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.params.RSAPrivateCrtKeyParameters;
import org.bouncycastle.crypto.params.X25519KeyGenerationParameters;
import org.bouncycastle.crypto.params.X448KeyGenerationParameters;
import org.bouncycastle.crypto.signers.DSADigestSigner;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.Ed448Signer;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.crypto.signers.PSSSigner;
import org.bouncycastle.crypto.signers.RSADigestSigner;
import org.bouncycastle.crypto.signers.SM2Signer;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;
import org.bouncycastle.jcajce.provider.asymmetric.util.PrimeCertaintyCalculator;
import org.bouncycastle.util.BigIntegers;

/**
 * Public-key algorithms through BouncyCastle's lightweight API (org.bouncycastle.crypto): key-pair
 * generators, Signer implementations (PSSSigner, RSADigestSigner, DSADigestSigner over ECDSASigner,
 * Ed25519Signer, Ed448Signer, SM2Signer, MLDSASigner), OAEPEncoding, ECDHBasicAgreement,
 * X25519Agreement/X448Agreement, MLKEMGenerator/MLKEMExtractor. Keys are encoded with
 * BouncyCastle's own SubjectPublicKeyInfoFactory / PrivateKeyInfoFactory and parsed with
 * PublicKeyFactory / PrivateKeyFactory.
 */
final class BouncyCastleLwPk {
  private BouncyCastleLwPk() {}

  /** The RSA public exponent, 65537. */
  static final BigInteger F4 = BigInteger.valueOf(65537);

  /** BouncyCastle's default SecureRandom, as its own JCA provider uses it. */
  static SecureRandom random() {
    return CryptoServicesRegistrar.getSecureRandom();
  }

  static List<Alg> algs() {
    List<Alg> algs = new ArrayList<>();
    for (int bits : new int[] {2048, 3072, 4096}) {
      algs.add(Pk.keygenOnly("rsa-" + bits, new Rsa(bits)));
      algs.add(Pk.sig("rsa-" + bits + "-pss", false, new RsaSig(bits, true)));
      algs.add(Pk.sig("rsa-" + bits + "-pkcs1", false, new RsaSig(bits, false)));
      algs.add(Pk.pke("rsa-" + bits + "-oaep", new RsaOaep(bits)));
    }
    Ec p256 = new Ec("P-256", SECObjectIdentifiers.secp256r1);
    Ec p384 = new Ec("P-384", SECObjectIdentifiers.secp384r1);
    Ec k256 = new Ec("secp256k1", SECObjectIdentifiers.secp256k1);
    Ec sm2 = new Ec("SM2", GMObjectIdentifiers.sm2p256v1);
    algs.add(Pk.sig("ecdsa-p256", true, new Ecdsa(p256, SHA256Digest::newInstance)));
    algs.add(Pk.sig("ecdsa-p384", true, new Ecdsa(p384, SHA384Digest::new)));
    algs.add(Pk.sig("ecdsa-secp256k1", true, new Ecdsa(k256, SHA256Digest::newInstance)));
    algs.add(Pk.kex("ecdh-p256", false, new Ecdh(p256)));
    algs.add(Pk.kex("ecdh-p384", false, new Ecdh(p384)));
    algs.add(Pk.kex("ecdh-secp256k1", false, new Ecdh(k256)));
    algs.add(Pk.sig("ed25519", true, new EdDsa(ED25519, Ed25519Signer::new)));
    algs.add(Pk.sig("ed448", true, new EdDsa(ED448, () -> new Ed448Signer(NO_CONTEXT))));
    algs.add(Pk.kex("x25519", true, new Xdh(X25519, X25519Agreement::new)));
    algs.add(Pk.kex("x448", true, new Xdh(X448, X448Agreement::new)));
    algs.add(Pk.sig("sm2", true, new Sm2(sm2)));
    algs.add(Pk.kem("ml-kem-512", new MlKem(MLKEMParameters.ml_kem_512)));
    algs.add(Pk.kem("ml-kem-768", new MlKem(MLKEMParameters.ml_kem_768)));
    algs.add(Pk.kem("ml-kem-1024", new MlKem(MLKEMParameters.ml_kem_1024)));
    algs.add(Pk.sig("ml-dsa-44", true, new MlDsa(MLDSAParameters.ml_dsa_44)));
    algs.add(Pk.sig("ml-dsa-65", true, new MlDsa(MLDSAParameters.ml_dsa_65)));
    algs.add(Pk.sig("ml-dsa-87", true, new MlDsa(MLDSAParameters.ml_dsa_87)));
    return algs;
  }

  /** How the lightweight public-key cells are written, for hello.notes. */
  static List<String> notes() {
    return List.of(
        "Public keys: keys, peer keys, signatures and ciphertexts are made once per cell, outside"
            + " the timed region, and so are the lightweight objects: a Signer after init (one"
            + " operation is update(msg) + generateSignature() / verifySignature(sig); the message"
            + " is the size-byte fixed input, hashed inside the operation), an agreement after"
            + " init(private key) (the peer's key parsed once from its encoding), an"
            + " AsymmetricBlockCipher after init, a key-pair generator after init (one keygen is"
            + " generateKeyPair(); encoding the public key is left to the checksum). Randomness is"
            + " CryptoServicesRegistrar.getSecureRandom(), BouncyCastle's default.",
        "RSA: RSAKeyPairGenerator (e = 65537, the prime certainty BouncyCastle's JCA provider"
            + " uses, PrimeCertaintyCalculator); PSS is PSSSigner(RSABlindedEngine, SHA-256, salt"
            + " 32) (MGF1 with the same digest); PKCS#1 v1.5 is RSADigestSigner(SHA-256) (over"
            + " RSABlindedEngine); OAEP is OAEPEncoding(RSABlindedEngine, SHA-256, MGF1-SHA-256,"
            + " empty label). RSABlindedEngine (not the unblinded RSAEngine) is what BouncyCastle"
            + " itself uses for private-key operations; public-key operations are the same modPow"
            + " either way. Keys: SubjectPublicKeyInfoFactory / PrivateKeyInfoFactory (X.509,"
            + " PKCS#8) and PublicKeyFactory / PrivateKeyFactory.",
        Pk.RSA_KEYGEN_NOTE,
        "ECDSA: DSADigestSigner(ECDSASigner(), SHA-256 / SHA-384) with DER signatures and a"
            + " random k (ECDSASigner's default RandomDSAKCalculator, as BouncyCastle's JCA"
            + " provider signs; HMacDSAKCalculator would give RFC 6979 nonces); ECDH:"
            + " ECDHBasicAgreement, the x coordinate as field-size bytes; keys on"
            + " ECNamedDomainParameters.lookup(secp256r1 / secp384r1 / secp256k1 / sm2p256v1), so"
            + " SubjectPublicKeyInfo names the curve; parsed public keys must name the"
            + " curve (explicit parameters are refused: no valid vector uses them) and carry the"
            + " algorithm's domain.",
        "SM2: SM2Signer() (SM3, DER) initialised once per cell with ParametersWithID(id"
            + " 1234567812345678) around ParametersWithRandom: Z_A is computed at init, as for a"
            + " long-lived key; SM3 of Z_A || message inside the operation.",
        "Ed25519Signer, Ed448Signer(empty context) (pure EdDSA); X25519Agreement /"
            + " X448Agreement (calculateAgreement into a fresh array per operation); raw keys are"
            + " the parameters' getEncoded().",
        "ML-KEM (FIPS 203): MLKEMKeyPairGenerator; encaps is MLKEMGenerator.generateEncapsulated"
            + " (one generator per cell); derandomised encaps for the m of encaps cases is"
            + " MLKEMGenerator.internalGenerateEncapsulated(key, m); decaps"
            + " MLKEMExtractor.extractSecret (one extractor per cell). Private keys are the 64-byte"
            + " seed d || z (MLKEMPrivateKeyParameters(params, seed) expands it; getSeed()).",
        "ML-DSA (FIPS 204, pure): MLDSASigner initialised once per cell with"
            + " ParametersWithRandom (hedged, the bench) or the bare key (deterministic, rnd = 0,"
            + " for deterministic cases), wrapped in ParametersWithContext when a case has a"
            + " context; private keys are the 32-byte seed (MLDSAPrivateKeyParameters(params,"
            + " seed), getSeed()).",
        "Cases (verify): a library exception on a case's key or input is reported as rejected;"
            + " sign cases with deterministic: true answer unsupported for randomised schemes"
            + " (ECDSA, PSS, SM2, Falcon); keygen cases (from a seed) exist for ML-KEM, ML-DSA,"
            + " SLH-DSA and X-Wing only.");
  }

  /** A generator initialised once with p: one generateKeyPair() per call. */
  static Gen gen(AsymmetricCipherKeyPairGenerator g, KeyGenerationParameters p) {
    g.init(p);
    return () -> {
      AsymmetricCipherKeyPair kp = g.generateKeyPair();
      return new Pair(kp.getPrivate(), kp.getPublic());
    };
  }

  private static byte[] spki(Object pub) throws Exception {
    return SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo((AsymmetricKeyParameter) pub)
        .getEncoded(ASN1Encoding.DER);
  }

  private static byte[] pkcs8(Object priv) throws Exception {
    return PrivateKeyInfoFactory.createPrivateKeyInfo((AsymmetricKeyParameter) priv)
        .getEncoded(ASN1Encoding.DER);
  }

  /** A key with the library's randomness: for randomised (or hedged) signing, for encryption. */
  static ParametersWithRandom hedged(Object key) {
    return new ParametersWithRandom((CipherParameters) key, random());
  }

  /**
   * A lightweight Signer initialised once with k for signing: one operation is update(msg) and
   * generateSignature().
   */
  private static Pk.Signing signing(Signer s, CipherParameters k) {
    s.init(true, k);
    return msg -> {
      s.update(msg, 0, msg.length);
      return s.generateSignature();
    };
  }

  /** The verifier of {@link #signing}: initialised once with the public key k. */
  private static Pk.Verifying verifying(Signer s, Object k) {
    s.init(false, (CipherParameters) k);
    return (msg, sig) -> {
      s.update(msg, 0, msg.length);
      return s.verifySignature(sig);
    };
  }

  /**
   * The signing key of a scheme with a context string and a deterministic variant (ML-DSA,
   * SLH-DSA): with ParametersWithRandom (hedged) or bare (deterministic), wrapped in
   * ParametersWithContext when there is a context.
   */
  static CipherParameters contextKey(Object priv, byte[] ctx, boolean deterministic) {
    return withContext(deterministic ? (CipherParameters) priv : hedged(priv), ctx);
  }

  /** A public key in ParametersWithContext when there is a context. */
  static CipherParameters withContext(Object k, byte[] ctx) {
    CipherParameters p = (CipherParameters) k;
    return ctx == null ? p : new ParametersWithContext(p, ctx);
  }

  // ---- RSA ------------------------------------------------------------------------------------

  /**
   * RSAKeyPairGenerator with e = 65537 and the prime certainty BouncyCastle's JCA provider uses for
   * the size (PrimeCertaintyCalculator); SubjectPublicKeyInfo and PKCS#8.
   */
  static class Rsa implements Pk.Keys {
    final int bits;

    Rsa(int bits) {
      this.bits = bits;
    }

    @Override
    public Gen generator() {
      return gen(
          new RSAKeyPairGenerator(),
          new RSAKeyGenerationParameters(
              F4, random(), bits, PrimeCertaintyCalculator.getDefaultCertainty(bits)));
    }

    @Override
    public byte[] encodePublic(Pair k) throws Exception {
      return spki(k.pub());
    }

    @Override
    public byte[] encodePrivate(Pair k) throws Exception {
      return pkcs8(k.priv());
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      AsymmetricKeyParameter k = PublicKeyFactory.createKey(b);
      if (!(k instanceof RSAKeyParameters) || k.isPrivate()) {
        throw new Provider.Rejected("not an RSA public key");
      }
      return k;
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      AsymmetricKeyParameter k = PrivateKeyFactory.createKey(b);
      if (!(k instanceof RSAPrivateCrtKeyParameters)) {
        throw new Provider.Rejected("not an RSA private key");
      }
      return k;
    }
  }

  /**
   * PSSSigner(RSABlindedEngine, SHA-256, salt 32) (MGF1 with the same digest) or
   * RSADigestSigner(SHA-256) (PKCS#1 v1.5 over RSABlindedEngine): initialised once per cell.
   */
  static final class RsaSig extends Rsa implements Pk.SigScheme {
    private final boolean pss;

    RsaSig(int bits, boolean pss) {
      super(bits);
      this.pss = pss;
    }

    private Signer instance() {
      return pss
          ? new PSSSigner(new RSABlindedEngine(), SHA256Digest.newInstance(), 32)
          : new RSADigestSigner(SHA256Digest.newInstance());
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "RSA");
      if (pss) {
        Pk.noDeterministic(deterministic, "RSA-PSS");
      }
      return signing(instance(), hedged(priv));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "RSA");
      return verifying(instance(), pub);
    }
  }

  /** OAEPEncoding(RSABlindedEngine, SHA-256, MGF1-SHA-256, empty label): processBlock. */
  static final class RsaOaep extends Rsa implements Pk.PkeScheme {
    RsaOaep(int bits) {
      super(bits);
    }

    private static AsymmetricBlockCipher oaep() {
      return new OAEPEncoding(
          new RSABlindedEngine(), SHA256Digest.newInstance(), SHA256Digest.newInstance(), null);
    }

    @Override
    public Pk.Encrypting encryptor(Object pub) {
      AsymmetricBlockCipher c = oaep();
      c.init(true, hedged(pub));
      return msg -> c.processBlock(msg, 0, msg.length);
    }

    @Override
    public Pk.Decrypting decryptor(Object priv) {
      AsymmetricBlockCipher c = oaep();
      c.init(false, (CipherParameters) priv);
      return ct -> c.processBlock(ct, 0, ct.length);
    }

    @Override
    public int maxMessage(Object pub) {
      return (((RSAKeyParameters) pub).getModulus().bitLength() + 7) / 8 - 2 * 32 - 2;
    }
  }

  // ---- elliptic curves ------------------------------------------------------------------------

  /** A named curve (ECNamedDomainParameters.lookup), so SubjectPublicKeyInfo names it. */
  record Ec(String name, ECNamedDomainParameters domain, int fieldBytes) {
    Ec(String name, ASN1ObjectIdentifier oid) {
      this(name, ECNamedDomainParameters.lookup(oid), 0);
    }

    Ec {
      if (fieldBytes == 0) {
        fieldBytes = (domain.getCurve().getFieldSize() + 7) / 8;
      }
    }
  }

  /**
   * EC keys: ECKeyPairGenerator on the named domain; SubjectPublicKeyInfo (uncompressed point) and
   * the scalar padded to the field size.
   */
  static class EcKeys implements Pk.Keys {
    final Ec ec;

    EcKeys(Ec ec) {
      this.ec = ec;
    }

    @Override
    public Gen generator() {
      return gen(new ECKeyPairGenerator(), new ECKeyGenerationParameters(ec.domain(), random()));
    }

    @Override
    public byte[] encodePublic(Pair k) throws Exception {
      return spki(k.pub());
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return BigIntegers.asUnsignedByteArray(
          ec.fieldBytes(), ((ECPrivateKeyParameters) k.priv()).getD());
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      if (!Pk.Der.namedCurve(b)) {
        throw new Provider.Rejected("EC public key with explicit curve parameters");
      }
      AsymmetricKeyParameter k = PublicKeyFactory.createKey(b);
      if (!(k instanceof ECPublicKeyParameters p)) {
        throw new Provider.Rejected("not an EC public key");
      }
      ECDomainParameters d = p.getParameters();
      ECDomainParameters want = ec.domain();
      if (!d.getCurve().equals(want.getCurve())
          || !d.getG().equals(want.getG())
          || !d.getN().equals(want.getN())
          || !java.util.Objects.equals(d.getH(), want.getH())) {
        // Explicit parameters naming the same curve with another cofactor are another domain.
        throw new Provider.Rejected("public key on another curve than " + ec.name());
      }
      return k;
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      Pk.checkLen(ec.name() + " private scalar", b, ec.fieldBytes());
      // The constructor checks 0 < d < n.
      return new ECPrivateKeyParameters(new BigInteger(1, b), ec.domain());
    }
  }

  /**
   * ECDSA: DSADigestSigner(ECDSASigner(), SHA-256 / SHA-384) with DER signatures; the nonce k is
   * random (ECDSASigner's default RandomDSAKCalculator, as BouncyCastle's JCA provider does).
   */
  static final class Ecdsa extends EcKeys implements Pk.SigScheme {
    private final Supplier<Digest> digest;

    Ecdsa(Ec ec, Supplier<Digest> digest) {
      super(ec);
      this.digest = digest;
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "ECDSA");
      Pk.noDeterministic(deterministic, "ECDSA");
      return signing(new DSADigestSigner(new ECDSASigner(), digest.get()), hedged(priv));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "ECDSA");
      return verifying(new DSADigestSigner(new ECDSASigner(), digest.get()), pub);
    }
  }

  /**
   * SM2 signatures: SM2Signer() (SM3, DER) initialised once with ParametersWithID(default id
   * 1234567812345678) around ParametersWithRandom: Z_A is computed at init, as for a long-lived
   * key.
   */
  static final class Sm2 extends EcKeys implements Pk.SigScheme {
    Sm2(Ec ec) {
      super(ec);
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "SM2");
      Pk.noDeterministic(deterministic, "SM2");
      return signing(new SM2Signer(), new ParametersWithID(hedged(priv), JcaPk.SM2_ID));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "SM2");
      return verifying(new SM2Signer(), new ParametersWithID((CipherParameters) pub, JcaPk.SM2_ID));
    }
  }

  /**
   * ECDHBasicAgreement initialised once; calculateAgreement(peer) and the x coordinate as
   * field-size bytes (BigIntegers.asUnsignedByteArray) per operation.
   */
  static final class Ecdh extends EcKeys implements Pk.KexScheme {
    Ecdh(Ec ec) {
      super(ec);
    }

    @Override
    public Pk.Deriving agreement(Object priv, Object peerPub) {
      ECDHBasicAgreement a = new ECDHBasicAgreement();
      a.init((CipherParameters) priv);
      int n = a.getFieldSize();
      CipherParameters peer = (CipherParameters) peerPub;
      return () -> BigIntegers.asUnsignedByteArray(n, a.calculateAgreement(peer));
    }
  }

  // ---- Edwards and Montgomery curves ----------------------------------------------------------

  /**
   * A curve with raw keys (RFC 8032 / RFC 7748): BouncyCastle's key-pair generator and its
   * generation parameters; the raw keys travel through the RFC 8410 forms ({@link Pk.Rfc8410}):
   * wrapped into them for PublicKeyFactory / PrivateKeyFactory, unwrapped from what
   * SubjectPublicKeyInfoFactory / PrivateKeyInfoFactory make of the key parameters.
   */
  record Curve(
      Rfc8410 f,
      Supplier<AsymmetricCipherKeyPairGenerator> generator,
      Function<SecureRandom, KeyGenerationParameters> params) {}

  private static final Curve ED25519 =
      new Curve(Rfc8410.ED25519, Ed25519KeyPairGenerator::new, Ed25519KeyGenerationParameters::new);
  private static final Curve ED448 =
      new Curve(Rfc8410.ED448, Ed448KeyPairGenerator::new, Ed448KeyGenerationParameters::new);
  private static final Curve X25519 =
      new Curve(Rfc8410.X25519, X25519KeyPairGenerator::new, X25519KeyGenerationParameters::new);
  private static final Curve X448 =
      new Curve(Rfc8410.X448, X448KeyPairGenerator::new, X448KeyGenerationParameters::new);

  /** Ed448Signer's context for pure Ed448: empty. */
  private static final byte[] NO_CONTEXT = new byte[0];

  /** Raw-key algorithms: one implementation of the keys for the four curves. */
  abstract static class CurveKeys implements Pk.Keys {
    final Curve c;

    CurveKeys(Curve c) {
      this.c = c;
    }

    @Override
    public Gen generator() {
      return gen(c.generator().get(), c.params().apply(random()));
    }

    @Override
    public byte[] encodePublic(Pair k) throws Exception {
      return c.f().rawPublic(spki(k.pub()));
    }

    @Override
    public byte[] encodePrivate(Pair k) throws Exception {
      return c.f().rawPrivate(pkcs8(k.priv()));
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return PublicKeyFactory.createKey(c.f().spki(b));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return PrivateKeyFactory.createKey(c.f().pkcs8(b));
    }
  }

  /** Ed25519Signer, Ed448Signer(empty context) (pure EdDSA), raw 32- / 57-byte keys. */
  static final class EdDsa extends CurveKeys implements Pk.SigScheme {
    private final Supplier<Signer> signer;

    EdDsa(Curve c, Supplier<Signer> signer) {
      super(c);
      this.signer = signer;
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, c.f().name());
      return signing(signer.get(), (CipherParameters) priv);
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, c.f().name());
      return verifying(signer.get(), pub);
    }
  }

  /**
   * X25519Agreement / X448Agreement initialised once; calculateAgreement(peer, out, 0) into a fresh
   * array per operation.
   */
  static final class Xdh extends CurveKeys implements Pk.KexScheme {
    private final Supplier<RawAgreement> agreement;

    Xdh(Curve c, Supplier<RawAgreement> agreement) {
      super(c);
      this.agreement = agreement;
    }

    @Override
    public Pk.Deriving agreement(Object priv, Object peerPub) {
      RawAgreement a = agreement.get();
      a.init((CipherParameters) priv);
      CipherParameters peer = (CipherParameters) peerPub;
      return () -> {
        byte[] out = new byte[a.getAgreementSize()];
        a.calculateAgreement(peer, out, 0);
        return out;
      };
    }
  }

  // ---- ML-KEM and ML-DSA ----------------------------------------------------------------------

  /**
   * ML-KEM and ML-DSA keys: MLKEMKeyPairGenerator / MLDSAKeyPairGenerator; public keys raw
   * (getEncoded()), private keys the seed they expand from (MLKEMPrivateKeyParameters(params, seed)
   * with the 64-byte d || z, MLDSAPrivateKeyParameters(params, seed) with 32 bytes; getSeed()).
   * BouncyCastle gives the two families no common interface: each method asks which one it has.
   */
  abstract static class MlKeys implements Pk.Keys {
    /** MLKEMParameters or MLDSAParameters. */
    final Object params;

    private final String seedName;
    private final int seedLen;

    MlKeys(Object params, String seedName, int seedLen) {
      this.params = params;
      this.seedName = seedName;
      this.seedLen = seedLen;
    }

    @Override
    public Gen generator() {
      return params instanceof MLKEMParameters p
          ? gen(new MLKEMKeyPairGenerator(), new MLKEMKeyGenerationParameters(random(), p))
          : gen(
              new MLDSAKeyPairGenerator(),
              new MLDSAKeyGenerationParameters(random(), (MLDSAParameters) params));
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return k.pub() instanceof MLKEMPublicKeyParameters p
          ? p.getEncoded()
          : ((MLDSAPublicKeyParameters) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return k.priv() instanceof MLKEMPrivateKeyParameters p
          ? p.getSeed()
          : ((MLDSAPrivateKeyParameters) k.priv()).getSeed();
    }

    @Override
    public Object parsePublic(byte[] b) {
      return params instanceof MLKEMParameters p
          ? new MLKEMPublicKeyParameters(p, b)
          : new MLDSAPublicKeyParameters((MLDSAParameters) params, b);
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return fromSeed(b).priv();
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      Pk.checkLen(seedName, seed, seedLen);
      if (params instanceof MLKEMParameters p) {
        MLKEMPrivateKeyParameters k = new MLKEMPrivateKeyParameters(p, seed);
        return new Pair(k, k.getPublicKeyParameters());
      }
      MLDSAPrivateKeyParameters k = new MLDSAPrivateKeyParameters((MLDSAParameters) params, seed);
      return new Pair(k, k.getPublicKeyParameters());
    }
  }

  /**
   * ML-KEM (FIPS 203): encapsulation MLKEMGenerator.generateEncapsulated (one generator per cell),
   * derandomised MLKEMGenerator.internalGenerateEncapsulated(key, m); decapsulation
   * MLKEMExtractor.extractSecret.
   */
  static final class MlKem extends MlKeys implements Pk.KemScheme {
    MlKem(MLKEMParameters params) {
      super(params, "ML-KEM seed d || z", 64);
    }

    @Override
    public Pk.Encapsulating encapsulator(Object pub) {
      MLKEMGenerator g = new MLKEMGenerator(random());
      AsymmetricKeyParameter ek = (AsymmetricKeyParameter) pub;
      return () -> {
        SecretWithEncapsulation s = g.generateEncapsulated(ek);
        return new byte[][] {s.getEncapsulation(), s.getSecret()};
      };
    }

    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      Pk.checkLen("ML-KEM m", m, 32);
      SecretWithEncapsulation s =
          MLKEMGenerator.internalGenerateEncapsulated((MLKEMPublicKeyParameters) pub, m);
      return new byte[][] {s.getEncapsulation(), s.getSecret()};
    }

    @Override
    public Pk.Decapsulating decapsulator(Object priv, byte[] ct) {
      MLKEMExtractor x = new MLKEMExtractor((MLKEMPrivateKeyParameters) priv);
      return () -> x.extractSecret(ct);
    }
  }

  /**
   * Pure ML-DSA (FIPS 204): MLDSASigner initialised once with ParametersWithRandom (hedged) or the
   * bare key (deterministic, rnd = 0), wrapped in ParametersWithContext when the case has a
   * context.
   */
  static final class MlDsa extends MlKeys implements Pk.SigScheme {
    MlDsa(MLDSAParameters params) {
      super(params, "ML-DSA seed", 32);
    }

    @Override
    public Pk.Signing signer(Object priv, byte[] ctx, boolean deterministic) {
      return signing(new MLDSASigner(), contextKey(priv, ctx, deterministic));
    }

    @Override
    public Pk.Verifying verifier(Object pub, byte[] ctx) {
      return verifying(new MLDSASigner(), withContext(pub, ctx));
    }
  }
}
