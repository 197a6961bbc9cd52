package dev.cryptobench.driver;

import dev.cryptobench.driver.Pk.Decapsulating;
import dev.cryptobench.driver.Pk.Decrypting;
import dev.cryptobench.driver.Pk.Deriving;
import dev.cryptobench.driver.Pk.Encapsulating;
import dev.cryptobench.driver.Pk.Encrypting;
import dev.cryptobench.driver.Pk.Gen;
import dev.cryptobench.driver.Pk.Pair;
import dev.cryptobench.driver.Pk.Rfc8410;
import dev.cryptobench.driver.Pk.Signing;
import dev.cryptobench.driver.Pk.Verifying;
import dev.cryptobench.driver.Provider.Alg;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.KeyGenerator;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLKEMParameters;
import org.bouncycastle.crypto.prng.FixedSecureRandom;
import org.bouncycastle.jcajce.SecretKeyWithEncapsulation;
import org.bouncycastle.jcajce.interfaces.MLDSAPrivateKey;
import org.bouncycastle.jcajce.interfaces.MLKEMPrivateKey;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.KEMExtractSpec;
import org.bouncycastle.jcajce.spec.KEMGenerateSpec;
import org.bouncycastle.jcajce.spec.SM2ParameterSpec;

/**
 * Public-key algorithms through the JCA (KeyPairGenerator, KeyFactory, Signature, KeyAgreement,
 * Cipher, KeyGenerator), with the provider named in every getInstance: java:jca passes the JDK's
 * providers (SunRsaSign, SunJCE, SunEC), java:bouncycastle passes "BC" for all of them. The
 * BouncyCastle-only classes (ML-KEM/ML-DSA/SM2 parameter specs) are loaded only by the algorithms
 * java:bouncycastle offers.
 */
final class JcaPk {
  private JcaPk() {}

  /**
   * The provider names per family.
   *
   * @param rsa RSA KeyPairGenerator, KeyFactory and Signature (SunRsaSign)
   * @param oaep the RSA-OAEP Cipher (SunJCE)
   * @param ec EC, EdDSA and XDH KeyPairGenerator, KeyFactory, Signature, KeyAgreement (SunEC)
   */
  record Provs(String rsa, String oaep, String ec) {}

  /** OAEP with SHA-256 and MGF1-SHA-256 (the JCA's default MGF1 hash is SHA-1), empty label. */
  static final OAEPParameterSpec OAEP =
      new OAEPParameterSpec(
          "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

  /** PSS with SHA-256, MGF1-SHA-256, 32-byte salt, trailer field 1. */
  static final PSSParameterSpec PSS =
      new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1);

  /** SM2's default identity (GB/T 32918). */
  static final byte[] SM2_ID =
      "1234567812345678".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** RSA (every size, PSS, PKCS#1 v1.5, OAEP), ECDSA and ECDH P-256/P-384, EdDSA, XDH. */
  static List<Alg> common(Provs p) {
    List<Alg> algs = new ArrayList<>();
    for (int bits : new int[] {2048, 3072, 4096}) {
      algs.add(Pk.keygenOnly("rsa-" + bits, new Rsa(bits, p)));
      algs.add(Pk.sig("rsa-" + bits + "-pss", false, new RsaSig(bits, p, true)));
      algs.add(Pk.sig("rsa-" + bits + "-pkcs1", false, new RsaSig(bits, p, false)));
      algs.add(Pk.pke("rsa-" + bits + "-oaep", new RsaOaep(bits, p)));
    }
    algs.add(Pk.sig("ecdsa-p256", true, new Ecdsa("secp256r1", p.ec(), "SHA256withECDSA", false)));
    algs.add(Pk.sig("ecdsa-p384", true, new Ecdsa("secp384r1", p.ec(), "SHA384withECDSA", false)));
    algs.add(Pk.kex("ecdh-p256", false, new Ecdh("secp256r1", p.ec())));
    algs.add(Pk.kex("ecdh-p384", false, new Ecdh("secp384r1", p.ec())));
    algs.add(Pk.sig("ed25519", true, new EdDsa(Rfc8410.ED25519, p.ec())));
    algs.add(Pk.sig("ed448", true, new EdDsa(Rfc8410.ED448, p.ec())));
    algs.add(Pk.kex("x25519", true, new Xdh(Rfc8410.X25519, p.ec())));
    algs.add(Pk.kex("x448", true, new Xdh(Rfc8410.X448, p.ec())));
    return algs;
  }

  /** What BouncyCastle's JCA provider adds: secp256k1, SM2, ML-KEM, ML-DSA. */
  static List<Alg> bouncyCastleOnly(String bc) {
    List<Alg> algs = new ArrayList<>();
    algs.add(Pk.sig("ecdsa-secp256k1", true, new Ecdsa("secp256k1", bc, "SHA256withECDSA", false)));
    algs.add(Pk.kex("ecdh-secp256k1", false, new Ecdh("secp256k1", bc)));
    algs.add(Pk.sig("sm2", true, new Ecdsa("sm2p256v1", bc, "SM3withSM2", true)));
    algs.add(Pk.kem("ml-kem-512", new MlKem("ML-KEM-512", MLKEMParameters.ml_kem_512, bc)));
    algs.add(Pk.kem("ml-kem-768", new MlKem("ML-KEM-768", MLKEMParameters.ml_kem_768, bc)));
    algs.add(Pk.kem("ml-kem-1024", new MlKem("ML-KEM-1024", MLKEMParameters.ml_kem_1024, bc)));
    algs.add(Pk.sig("ml-dsa-44", true, new MlDsa("ML-DSA-44", MLDSAParameters.ml_dsa_44, bc)));
    algs.add(Pk.sig("ml-dsa-65", true, new MlDsa("ML-DSA-65", MLDSAParameters.ml_dsa_65, bc)));
    algs.add(Pk.sig("ml-dsa-87", true, new MlDsa("ML-DSA-87", MLDSAParameters.ml_dsa_87, bc)));
    return algs;
  }

  /** How the JCA public-key cells are written, for hello.notes; prov names the providers. */
  static List<String> notes(String prov) {
    return List.of(
        "Public keys ("
            + prov
            + "): keys, peer keys, signatures and ciphertexts are made once per cell, outside the"
            + " timed region, and so are the JCA objects: a Signature after initSign/initVerify (one"
            + " operation is update(msg) + sign() / verify(sig); the message is the size-byte fixed"
            + " input, hashed inside the operation), a KeyAgreement after init(private key) (one"
            + " derive is doPhase(peer, true) + generateSecret(); the peer's key is parsed once from"
            + " its encoding), an OAEP Cipher after init (one operation is doFinal), a"
            + " KeyPairGenerator after initialize (one keygen is generateKeyPair(); encoding the"
            + " public key is left to the checksum).",
        "RSA: KeyPairGenerator \"RSA\" with RSAKeyGenParameterSpec(bits, F4); PSS is Signature"
            + " \"RSASSA-PSS\" with PSSParameterSpec(SHA-256, MGF1, MGF1ParameterSpec.SHA256, salt"
            + " 32, trailer 1); PKCS#1 v1.5 is \"SHA256withRSA\"; OAEP is Cipher"
            + " \"RSA/ECB/OAEPWithSHA-256AndMGF1Padding\" initialised with OAEPParameterSpec(SHA-256,"
            + " MGF1, MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT) (the MGF1 hash is set"
            + " explicitly: the JCA's default for this transformation is MGF1-SHA-1). Keys are"
            + " X.509 SubjectPublicKeyInfo and PKCS#8 through KeyFactory \"RSA\".",
        Pk.RSA_KEYGEN_NOTE,
        "ECDSA: KeyPairGenerator \"EC\" with ECGenParameterSpec(secp256r1 / secp384r1 /"
            + " secp256k1), Signature \"SHA256withECDSA\" / \"SHA384withECDSA\" (DER, random k"
            + " from the provider's SecureRandom); ECDH: KeyAgreement \"ECDH\" (the x coordinate,"
            + " field-size bytes). Public keys are the SubjectPublicKeyInfo getEncoded() gives"
            + " (named curve, uncompressed); parsed ones must name the curve (explicit parameters are"
            + " refused: no valid vector uses them) and carry the algorithm's domain;"
            + " private keys the scalar (ECPrivateKeySpec with the curve's parameters from"
            + " AlgorithmParameters \"EC\").",
        "Ed25519/Ed448: Signature \"Ed25519\" / \"Ed448\" (pure EdDSA); X25519/X448:"
            + " KeyAgreement \"X25519\" / \"X448\". Raw RFC 8032 / RFC 7748 keys are wrapped"
            + " in (and unwrapped from) the fixed RFC 8410 SubjectPublicKeyInfo and PKCS#8"
            + " prefixes for KeyFactory \"Ed25519\" / \"X25519\" ... .",
        "Cases (verify): a library exception on a case's key or input (bad DER, a point off the"
            + " curve, a wrong length, a failed decryption) is reported as rejected; sign cases"
            + " with deterministic: true answer unsupported for randomised schemes (ECDSA, PSS,"
            + " SM2, Falcon), cases with a non-empty ctx for algorithms without contexts too;"
            + " keygen cases (from a seed) exist for ML-KEM, ML-DSA, SLH-DSA and X-Wing only.");
  }

  /** What java:bouncycastle's JCA-only algorithms add to the notes. */
  static List<String> bouncyCastleNotes() {
    return List.of(
        "SM2: KeyPairGenerator \"EC\" with ECGenParameterSpec(sm2p256v1), Signature"
            + " \"SM3withSM2\" with SM2ParameterSpec(\"1234567812345678\") set before init (Z_A is"
            + " computed at init, so once per cell, as for a long-lived key; SM3 of Z_A || message"
            + " inside the operation); public keys SubjectPublicKeyInfo (id-ecPublicKey,"
            + " sm2p256v1), private keys the 32-byte scalar.",
        "ML-KEM (FIPS 203; Java 17 has no javax.crypto.KEM, so BouncyCastle's KeyGenerator"
            + " API): KeyPairGenerator \"ML-KEM-512/768/1024\"; encaps is a KeyGenerator"
            + " initialised once per cell with KEMGenerateSpec.Builder(public key, \"Generic\","
            + " 256).withNoKdf(), one generateKey() (a SecretKeyWithEncapsulation: ciphertext and"
            + " the 32-byte shared key) per operation; decaps a KeyGenerator initialised with"
            + " KEMExtractSpec.Builder(private key, ciphertext, ...).withNoKdf(), one generateKey()"
            + " per operation. Keys: the raw encapsulation key and the seed d || z, made by"
            + " BouncyCastle's lightweight MLKEMPublicKeyParameters / MLKEMPrivateKeyParameters"
            + " (getEncoded(), getSeed()) and carried as X.509 / PKCS#8 to and from KeyFactory"
            + " (the private key from its seed: KeyFactory expands it). Derandomised encapsulation (the m of encaps cases): the"
            + " KeyGenerator initialised with the KEMGenerateSpec and BouncyCastle's"
            + " FixedSecureRandom(m), of which it draws exactly m (checked: used up).",
        "ML-DSA (FIPS 204, pure): Signature \"ML-DSA-44/65/87\"; the bench signs hedged,"
            + " initSign(key, new SecureRandom()); deterministic cases (rnd = 0) are initSign(key)"
            + " without a SecureRandom (BouncyCastle then signs deterministically); the context"
            + " is ContextParameterSpec. Keys: the raw public key and the 32-byte seed, as for"
            + " ML-KEM (MLDSAPublicKeyParameters / MLDSAPrivateKeyParameters, X.509 / PKCS#8).");
  }

  private static Pair pair(KeyPair kp) {
    return new Pair(kp.getPrivate(), kp.getPublic());
  }

  /** One signature per call of a Signature after initSign: update(msg) and sign(). */
  static Signing signing(Signature s) {
    return msg -> {
      s.update(msg);
      return s.sign();
    };
  }

  /** One verification per call of a Signature after initVerify: update(msg) and verify(sig). */
  static Verifying verifying(Signature s) {
    return (msg, sig) -> {
      s.update(msg);
      return s.verify(sig);
    };
  }

  /** A Signature initialised once with initSign(priv): see {@link #signing(Signature)}. */
  static Signing signing(Signature s, Object priv) throws Exception {
    s.initSign((PrivateKey) priv);
    return signing(s);
  }

  /** A Signature initialised once with initVerify(pub): see {@link #verifying(Signature)}. */
  static Verifying verifying(Signature s, Object pub) throws Exception {
    s.initVerify((PublicKey) pub);
    return verifying(s);
  }

  /** A KeyAgreement alg initialised once with priv: doPhase(peer, true) and generateSecret(). */
  static Deriving agreement(String alg, String prov, Object priv, Object peerPub) throws Exception {
    KeyAgreement ka = KeyAgreement.getInstance(alg, prov);
    ka.init((PrivateKey) priv);
    PublicKey peer = (PublicKey) peerPub;
    return () -> {
      ka.doPhase(peer, true);
      return ka.generateSecret();
    };
  }

  /**
   * A Signature with a context string and a deterministic variant (ML-DSA, SLH-DSA): initSign(key,
   * SecureRandom) for hedged signing, initSign(key) for deterministic; the context through
   * ContextParameterSpec.
   */
  static Signing contextSigning(
      String name, String prov, Object priv, byte[] ctx, boolean deterministic) throws Exception {
    Signature s = Signature.getInstance(name, prov);
    PrivateKey k = (PrivateKey) priv;
    if (deterministic) {
      s.initSign(k);
    } else {
      s.initSign(k, new SecureRandom());
    }
    return signing(withContext(s, ctx));
  }

  /** Verification with a context string (ML-DSA, SLH-DSA). */
  static Verifying contextVerifying(String name, String prov, Object pub, byte[] ctx)
      throws Exception {
    Signature s = Signature.getInstance(name, prov);
    s.initVerify((PublicKey) pub);
    return verifying(withContext(s, ctx));
  }

  private static Signature withContext(Signature s, byte[] ctx) throws Exception {
    if (ctx != null) {
      s.setParameter(new ContextParameterSpec(ctx));
    }
    return s;
  }

  /**
   * A KEM's encapsulation through BouncyCastle's KeyGenerator API (Java 17 has no
   * javax.crypto.KEM): the KeyGenerator initialised with KEMGenerateSpec(public key, 256 bits, no
   * KDF) and, for a derandomised encapsulation, the SecureRandom to draw from (null: the
   * provider's).
   */
  static KeyGenerator kemGenerator(String name, String prov, Object pub, SecureRandom r)
      throws Exception {
    KeyGenerator kg = KeyGenerator.getInstance(name, prov);
    KEMGenerateSpec spec =
        new KEMGenerateSpec.Builder((PublicKey) pub, "Generic", 256).withNoKdf().build();
    if (r == null) {
      kg.init(spec);
    } else {
      kg.init(spec, r);
    }
    return kg;
  }

  /** {ciphertext, shared key} of a KeyGenerator's SecretKeyWithEncapsulation. */
  static byte[][] encapsulation(KeyGenerator kg) {
    SecretKeyWithEncapsulation k = (SecretKeyWithEncapsulation) kg.generateKey();
    return new byte[][] {k.getEncapsulation(), k.getEncoded()};
  }

  /** Derandomised encapsulation: the KeyGenerator draws exactly the given bytes (checked). */
  static byte[][] encapsulation(String name, String prov, Object pub, byte[] m) throws Exception {
    FixedSecureRandom fixed = new FixedSecureRandom(m);
    byte[][] r = encapsulation(kemGenerator(name, prov, pub, fixed));
    BouncyCastleLwPq.usedUp(fixed, name + " encapsulation");
    return r;
  }

  /** Decapsulation: a KeyGenerator initialised with KEMExtractSpec(private key, ct, no KDF). */
  static Decapsulating decapsulating(String name, String prov, Object priv, byte[] ct)
      throws Exception {
    KeyGenerator kg = KeyGenerator.getInstance(name, prov);
    kg.init(new KEMExtractSpec.Builder((PrivateKey) priv, ct, "Generic", 256).withNoKdf().build());
    return () -> kg.generateKey().getEncoded();
  }

  /**
   * Keys whose public half is the X.509 SubjectPublicKeyInfo the JCA key encodes itself as (RSA,
   * EC): KeyPairGenerator keyAlg initialised with the generation spec, KeyFactory keyAlg for the
   * encoded keys; each subclass parses (EC checks the curve).
   */
  abstract static class X509Keys implements Pk.Keys {
    final String keyAlg;
    final String prov;
    private final AlgorithmParameterSpec generation;

    X509Keys(String keyAlg, String prov, AlgorithmParameterSpec generation) {
      this.keyAlg = keyAlg;
      this.prov = prov;
      this.generation = generation;
    }

    KeyFactory factory() throws Exception {
      return KeyFactory.getInstance(keyAlg, prov);
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance(keyAlg, prov);
      g.initialize(generation);
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((PublicKey) k.pub()).getEncoded();
    }

    /** The public key of an X.509 SubjectPublicKeyInfo, through the KeyFactory. */
    PublicKey x509(byte[] b) throws Exception {
      return factory().generatePublic(new X509EncodedKeySpec(b));
    }
  }

  // ---- RSA ------------------------------------------------------------------------------------

  /** RSA keys: KeyPairGenerator "RSA" with e = 65537; SubjectPublicKeyInfo and PKCS#8. */
  static class Rsa extends X509Keys {
    final Provs p;

    Rsa(int bits, Provs p) {
      super("RSA", p.rsa(), new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4));
      this.p = p;
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return x509(b);
    }

    /** PKCS#8, as the JCA key encodes itself. */
    @Override
    public byte[] encodePrivate(Pair k) {
      return ((PrivateKey) k.priv()).getEncoded();
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return factory().generatePrivate(new PKCS8EncodedKeySpec(b));
    }
  }

  /** RSASSA-PSS ("RSASSA-PSS" with {@link #PSS}) or PKCS#1 v1.5 ("SHA256withRSA"). */
  static final class RsaSig extends Rsa implements Pk.SigScheme {
    private final boolean pss;

    RsaSig(int bits, Provs p, boolean pss) {
      super(bits, p);
      this.pss = pss;
    }

    private Signature instance() throws Exception {
      Signature s = Signature.getInstance(pss ? "RSASSA-PSS" : "SHA256withRSA", p.rsa());
      if (pss) {
        s.setParameter(PSS);
      }
      return s;
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, "RSA");
      if (pss) {
        Pk.noDeterministic(deterministic, "RSA-PSS");
      }
      return signing(instance(), priv);
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "RSA");
      return verifying(instance(), pub);
    }
  }

  /** RSAES-OAEP: "RSA/ECB/OAEPWithSHA-256AndMGF1Padding" initialised with {@link #OAEP}. */
  static final class RsaOaep extends Rsa implements Pk.PkeScheme {
    RsaOaep(int bits, Provs p) {
      super(bits, p);
    }

    private Cipher init(int mode, java.security.Key key) throws Exception {
      Cipher c = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding", p.oaep());
      c.init(mode, key, OAEP);
      return c;
    }

    @Override
    public Encrypting encryptor(Object pub) throws Exception {
      Cipher c = init(Cipher.ENCRYPT_MODE, (PublicKey) pub);
      return c::doFinal;
    }

    @Override
    public Decrypting decryptor(Object priv) throws Exception {
      Cipher c = init(Cipher.DECRYPT_MODE, (PrivateKey) priv);
      return c::doFinal;
    }

    @Override
    public int maxMessage(Object pub) {
      return (((RSAPublicKey) pub).getModulus().bitLength() + 7) / 8 - 2 * 32 - 2;
    }
  }

  // ---- elliptic curves ------------------------------------------------------------------------

  /**
   * EC keys on a named curve: KeyPairGenerator "EC" with ECGenParameterSpec; public keys are the
   * SubjectPublicKeyInfo getEncoded() gives (named curve, uncompressed point), private keys the
   * scalar padded to the field size (ECPrivateKeySpec with the curve's parameters).
   */
  static class Ec extends X509Keys {
    final String curve;
    private ECParameterSpec params;

    Ec(String curve, String prov) {
      super("EC", prov, new ECGenParameterSpec(curve));
      this.curve = curve;
    }

    /** The curve's parameters from the provider (looked up on first use). */
    ECParameterSpec params() throws Exception {
      if (params == null) {
        AlgorithmParameters ap = AlgorithmParameters.getInstance("EC", prov);
        ap.init(new ECGenParameterSpec(curve));
        params = ap.getParameterSpec(ECParameterSpec.class);
      }
      return params;
    }

    int fieldBytes() throws Exception {
      return (params().getCurve().getField().getFieldSize() + 7) / 8;
    }

    @Override
    public byte[] encodePrivate(Pair k) throws Exception {
      return Pk.fixed(((ECPrivateKey) k.priv()).getS(), fieldBytes());
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      if (!Pk.Der.namedCurve(b)) {
        throw new Provider.Rejected("EC public key with explicit curve parameters");
      }
      PublicKey k = x509(b);
      ECParameterSpec got = ((ECPublicKey) k).getParams();
      ECParameterSpec want = params();
      if (!got.getCurve().equals(want.getCurve())
          || !got.getGenerator().equals(want.getGenerator())
          || !got.getOrder().equals(want.getOrder())
          || got.getCofactor() != want.getCofactor()) {
        // Explicit parameters naming the same curve with another cofactor are another domain.
        throw new Provider.Rejected("public key on another curve than " + curve);
      }
      return k;
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      Pk.checkLen(curve + " private scalar", b, fieldBytes());
      BigInteger s = new BigInteger(1, b);
      if (s.signum() == 0 || s.compareTo(params().getOrder()) >= 0) {
        throw new Provider.Rejected("private scalar out of range");
      }
      return factory().generatePrivate(new ECPrivateKeySpec(s, params()));
    }
  }

  /**
   * ECDSA ("SHA256withECDSA", "SHA384withECDSA", DER signatures) and SM2 ("SM3withSM2" with
   * SM2ParameterSpec(1234567812345678), BouncyCastle only): a Signature initialised once, then
   * update(msg) and sign() / verify(sig) per operation.
   */
  static final class Ecdsa extends Ec implements Pk.SigScheme {
    private final String alg;
    private final boolean sm2;

    Ecdsa(String curve, String prov, String alg, boolean sm2) {
      super(curve, prov);
      this.alg = alg;
      this.sm2 = sm2;
    }

    private Signature instance() throws Exception {
      Signature s = Signature.getInstance(alg, prov);
      if (sm2) {
        s.setParameter(new SM2ParameterSpec(SM2_ID));
      }
      return s;
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, alg);
      Pk.noDeterministic(deterministic, alg);
      return signing(instance(), priv);
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, alg);
      return verifying(instance(), pub);
    }
  }

  /** ECDH: KeyAgreement "ECDH" initialised once; doPhase(peer, true) and generateSecret(). */
  static final class Ecdh extends Ec implements Pk.KexScheme {
    Ecdh(String curve, String prov) {
      super(curve, prov);
    }

    @Override
    public Deriving agreement(Object priv, Object peerPub) throws Exception {
      return JcaPk.agreement("ECDH", prov, priv, peerPub);
    }
  }

  /**
   * RFC 8410 keys (EdDSA, XDH): raw keys wrapped in / unwrapped from the fixed SubjectPublicKeyInfo
   * and PKCS#8 prefixes, through KeyFactory "Ed25519" / "X25519" ... .
   */
  static class Rfc8410Keys implements Pk.Keys {
    final Rfc8410 f;
    final String prov;

    Rfc8410Keys(Rfc8410 f, String prov) {
      this.f = f;
      this.prov = prov;
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance(f.name(), prov);
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return f.rawPublic(((PublicKey) k.pub()).getEncoded());
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return f.rawPrivate(((PrivateKey) k.priv()).getEncoded());
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return KeyFactory.getInstance(f.name(), prov)
          .generatePublic(new X509EncodedKeySpec(f.spki(b)));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return KeyFactory.getInstance(f.name(), prov)
          .generatePrivate(new PKCS8EncodedKeySpec(f.pkcs8(b)));
    }
  }

  /** Pure EdDSA: Signature "Ed25519" / "Ed448" (deterministic by definition). */
  static final class EdDsa extends Rfc8410Keys implements Pk.SigScheme {
    EdDsa(Rfc8410 f, String prov) {
      super(f, prov);
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Pk.noContext(ctx, f.name());
      return signing(Signature.getInstance(f.name(), prov), priv);
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, f.name());
      return verifying(Signature.getInstance(f.name(), prov), pub);
    }
  }

  /** X25519 / X448: KeyAgreement "X25519" / "X448" initialised once; doPhase + generateSecret. */
  static final class Xdh extends Rfc8410Keys implements Pk.KexScheme {
    Xdh(Rfc8410 f, String prov) {
      super(f, prov);
    }

    @Override
    public Deriving agreement(Object priv, Object peerPub) throws Exception {
      return JcaPk.agreement(f.name(), prov, priv, peerPub);
    }
  }

  // ---- ML-KEM and ML-DSA (BouncyCastle's JCA provider) ----------------------------------------

  /**
   * ML-KEM and ML-DSA keys through BouncyCastle's JCA provider, with the protocol's raw encodings
   * made by the lightweight scheme ({@link BouncyCastleLwPk.MlKem}, {@link BouncyCastleLwPk.MlDsa}:
   * the public key raw, the private key its seed) and carried to and from the JCA keys as X.509 /
   * PKCS#8, as {@link JcaPq.Keys} does for the other post-quantum schemes. A key pair from a seed
   * is the private key parsed from it (KeyFactory expands the seed) and the public key it carries.
   */
  abstract static class MlKeys extends JcaPq.Keys {
    MlKeys(String name, String prov, Pk.Keys raw) {
      super(name, prov, raw, JcaPq.Codec.CORE);
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      PrivateKey k = (PrivateKey) parsePrivate(seed);
      PublicKey pub =
          k instanceof MLKEMPrivateKey m ? m.getPublicKey() : ((MLDSAPrivateKey) k).getPublicKey();
      return new Pair(k, pub);
    }
  }

  /**
   * ML-KEM through BouncyCastle's JCA provider on Java 17 (which has no javax.crypto.KEM):
   * encapsulation is a KeyGenerator initialised once with KEMGenerateSpec(public key, 256 bits, no
   * KDF), one generateKey() per operation (a SecretKeyWithEncapsulation); decapsulation a
   * KeyGenerator initialised with KEMExtractSpec(private key, ciphertext, no KDF).
   */
  static final class MlKem extends MlKeys implements Pk.KemScheme {
    MlKem(String name, MLKEMParameters params, String prov) {
      super(name, prov, new BouncyCastleLwPk.MlKem(params));
    }

    @Override
    public Encapsulating encapsulator(Object pub) throws Exception {
      KeyGenerator kg = kemGenerator(name, prov, pub, null);
      return () -> encapsulation(kg);
    }

    /**
     * Derandomised encapsulation with FIPS 203's 32-byte m: the KeyGenerator initialised with
     * KEMGenerateSpec and BouncyCastle's FixedSecureRandom(m), of which its MLKEMGenerator draws
     * exactly m (checked: used up).
     */
    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      Pk.checkLen("ML-KEM m", m, 32);
      return encapsulation(name, prov, pub, m);
    }

    @Override
    public Decapsulating decapsulator(Object priv, byte[] ct) throws Exception {
      return decapsulating(name, prov, priv, ct);
    }
  }

  /**
   * Pure ML-DSA through BouncyCastle's JCA provider: Signature "ML-DSA-65" ...; hedged signing is
   * initSign(key, SecureRandom), deterministic signing (rnd = 0) initSign(key) without one; the
   * context through ContextParameterSpec.
   */
  static final class MlDsa extends MlKeys implements Pk.SigScheme {
    MlDsa(String name, MLDSAParameters params, String prov) {
      super(name, prov, new BouncyCastleLwPk.MlDsa(params));
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      return contextSigning(name, prov, priv, ctx, deterministic);
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      return contextVerifying(name, prov, pub, ctx);
    }
  }
}
