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
import org.bouncycastle.crypto.prng.FixedSecureRandom;
import org.bouncycastle.jcajce.SecretKeyWithEncapsulation;
import org.bouncycastle.jcajce.interfaces.MLDSAPrivateKey;
import org.bouncycastle.jcajce.interfaces.MLDSAPublicKey;
import org.bouncycastle.jcajce.interfaces.MLKEMPrivateKey;
import org.bouncycastle.jcajce.interfaces.MLKEMPublicKey;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.KEMExtractSpec;
import org.bouncycastle.jcajce.spec.KEMGenerateSpec;
import org.bouncycastle.jcajce.spec.MLDSAParameterSpec;
import org.bouncycastle.jcajce.spec.MLDSAPrivateKeySpec;
import org.bouncycastle.jcajce.spec.MLDSAPublicKeySpec;
import org.bouncycastle.jcajce.spec.MLKEMParameterSpec;
import org.bouncycastle.jcajce.spec.MLKEMPrivateKeySpec;
import org.bouncycastle.jcajce.spec.MLKEMPublicKeySpec;
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
    algs.add(Pk.kem("ml-kem-512", new MlKem("ML-KEM-512", MLKEMParameterSpec.ml_kem_512, bc)));
    algs.add(Pk.kem("ml-kem-768", new MlKem("ML-KEM-768", MLKEMParameterSpec.ml_kem_768, bc)));
    algs.add(Pk.kem("ml-kem-1024", new MlKem("ML-KEM-1024", MLKEMParameterSpec.ml_kem_1024, bc)));
    algs.add(Pk.sig("ml-dsa-44", true, new MlDsa("ML-DSA-44", MLDSAParameterSpec.ml_dsa_44, bc)));
    algs.add(Pk.sig("ml-dsa-65", true, new MlDsa("ML-DSA-65", MLDSAParameterSpec.ml_dsa_65, bc)));
    algs.add(Pk.sig("ml-dsa-87", true, new MlDsa("ML-DSA-87", MLDSAParameterSpec.ml_dsa_87, bc)));
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
        "RSA key generation (rsa-2048/3072/4096 keygen, one key per sample as the orchestrator"
            + " asks): the warm-up is capped at "
            + Pk.RSA_KEYGEN_WARMUP
            + " keys per request (the first request for the cell in this process runs all "
            + Pk.RSA_KEYGEN_WARMUP
            + ", later ones stop once warmup_ns has passed, after at least one key) and runs no"
            + " JIT rounds: one key takes 50 ms to seconds and its time varies by a factor of"
            + " several (the prime search), so the stability rule cannot apply; the bench"
            + " response's warmup says jit_stop \"capped\".",
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
            + " per operation. Keys: MLKEMPublicKey.getPublicData() (the encapsulation key) and"
            + " MLKEMPrivateKey.getSeed() (d || z), parsed with MLKEMPublicKeySpec /"
            + " MLKEMPrivateKeySpec. Derandomised encapsulation (the m of encaps cases): the"
            + " KeyGenerator initialised with the KEMGenerateSpec and BouncyCastle's"
            + " FixedSecureRandom(m), of which it draws exactly m (checked: used up).",
        "ML-DSA (FIPS 204, pure): Signature \"ML-DSA-44/65/87\"; the bench signs hedged,"
            + " initSign(key, new SecureRandom()); deterministic cases (rnd = 0) are initSign(key)"
            + " without a SecureRandom (BouncyCastle then signs deterministically); the context"
            + " is ContextParameterSpec. Keys: MLDSAPublicKey.getPublicData() and"
            + " MLDSAPrivateKey.getSeed() (the 32-byte seed), parsed with MLDSAPublicKeySpec /"
            + " MLDSAPrivateKeySpec.");
  }

  private static Pair pair(KeyPair kp) {
    return new Pair(kp.getPrivate(), kp.getPublic());
  }

  // ---- RSA ------------------------------------------------------------------------------------

  /** RSA keys: KeyPairGenerator "RSA" with e = 65537; SubjectPublicKeyInfo and PKCS#8. */
  static class Rsa implements Pk.Keys {
    final int bits;
    final Provs p;

    Rsa(int bits, Provs p) {
      this.bits = bits;
      this.p = p;
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", p.rsa());
      g.initialize(new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4));
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((PublicKey) k.pub()).getEncoded();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((PrivateKey) k.priv()).getEncoded();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return KeyFactory.getInstance("RSA", p.rsa()).generatePublic(new X509EncodedKeySpec(b));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return KeyFactory.getInstance("RSA", p.rsa()).generatePrivate(new PKCS8EncodedKeySpec(b));
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
      Signature s = instance();
      s.initSign((PrivateKey) priv);
      return msg -> {
        s.update(msg);
        return s.sign();
      };
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, "RSA");
      Signature s = instance();
      s.initVerify((PublicKey) pub);
      return (msg, sig) -> {
        s.update(msg);
        return s.verify(sig);
      };
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
  static class Ec implements Pk.Keys {
    final String curve;
    final String prov;
    private ECParameterSpec params;

    Ec(String curve, String prov) {
      this.curve = curve;
      this.prov = prov;
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
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC", prov);
      g.initialize(new ECGenParameterSpec(curve));
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((PublicKey) k.pub()).getEncoded();
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
      PublicKey k = KeyFactory.getInstance("EC", prov).generatePublic(new X509EncodedKeySpec(b));
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
      return KeyFactory.getInstance("EC", prov).generatePrivate(new ECPrivateKeySpec(s, params()));
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
      Signature s = instance();
      s.initSign((PrivateKey) priv);
      return msg -> {
        s.update(msg);
        return s.sign();
      };
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, alg);
      Signature s = instance();
      s.initVerify((PublicKey) pub);
      return (msg, sig) -> {
        s.update(msg);
        return s.verify(sig);
      };
    }
  }

  /** ECDH: KeyAgreement "ECDH" initialised once; doPhase(peer, true) and generateSecret(). */
  static final class Ecdh extends Ec implements Pk.KexScheme {
    Ecdh(String curve, String prov) {
      super(curve, prov);
    }

    @Override
    public Deriving agreement(Object priv, Object peerPub) throws Exception {
      KeyAgreement ka = KeyAgreement.getInstance("ECDH", prov);
      ka.init((PrivateKey) priv);
      PublicKey peer = (PublicKey) peerPub;
      return () -> {
        ka.doPhase(peer, true);
        return ka.generateSecret();
      };
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
      Signature s = Signature.getInstance(f.name(), prov);
      s.initSign((PrivateKey) priv);
      return msg -> {
        s.update(msg);
        return s.sign();
      };
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Pk.noContext(ctx, f.name());
      Signature s = Signature.getInstance(f.name(), prov);
      s.initVerify((PublicKey) pub);
      return (msg, sig) -> {
        s.update(msg);
        return s.verify(sig);
      };
    }
  }

  /** X25519 / X448: KeyAgreement "X25519" / "X448" initialised once; doPhase + generateSecret. */
  static final class Xdh extends Rfc8410Keys implements Pk.KexScheme {
    Xdh(Rfc8410 f, String prov) {
      super(f, prov);
    }

    @Override
    public Deriving agreement(Object priv, Object peerPub) throws Exception {
      KeyAgreement ka = KeyAgreement.getInstance(f.name(), prov);
      ka.init((PrivateKey) priv);
      PublicKey peer = (PublicKey) peerPub;
      return () -> {
        ka.doPhase(peer, true);
        return ka.generateSecret();
      };
    }
  }

  // ---- ML-KEM and ML-DSA (BouncyCastle's JCA provider) ----------------------------------------

  /**
   * ML-KEM through BouncyCastle's JCA provider on Java 17 (which has no javax.crypto.KEM):
   * KeyPairGenerator "ML-KEM-768"; keys as MLKEMPublicKey.getPublicData() and
   * MLKEMPrivateKey.getSeed(), parsed with MLKEMPublicKeySpec / MLKEMPrivateKeySpec; encapsulation
   * is a KeyGenerator initialised once with KEMGenerateSpec(public key, 256 bits, no KDF), one
   * generateKey() per operation (a SecretKeyWithEncapsulation); decapsulation a KeyGenerator
   * initialised with KEMExtractSpec(private key, ciphertext, no KDF).
   */
  static final class MlKem implements Pk.KemScheme {
    private final String name;
    private final MLKEMParameterSpec spec;
    private final String prov;

    MlKem(String name, MLKEMParameterSpec spec, String prov) {
      this.name = name;
      this.spec = spec;
      this.prov = prov;
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance(name, prov);
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((MLKEMPublicKey) k.pub()).getPublicData();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((MLKEMPrivateKey) k.priv()).getSeed();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return KeyFactory.getInstance(name, prov).generatePublic(new MLKEMPublicKeySpec(spec, b));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return fromSeed(b).priv();
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      Pk.checkLen("ML-KEM seed d || z", seed, 64);
      MLKEMPrivateKey k =
          (MLKEMPrivateKey)
              KeyFactory.getInstance(name, prov)
                  .generatePrivate(new MLKEMPrivateKeySpec(spec, seed));
      return new Pair(k, k.getPublicKey());
    }

    @Override
    public Encapsulating encapsulator(Object pub) throws Exception {
      KeyGenerator kg = KeyGenerator.getInstance(name, prov);
      kg.init(new KEMGenerateSpec.Builder((PublicKey) pub, "Generic", 256).withNoKdf().build());
      return () -> {
        SecretKeyWithEncapsulation k = (SecretKeyWithEncapsulation) kg.generateKey();
        return new byte[][] {k.getEncapsulation(), k.getEncoded()};
      };
    }

    /**
     * Derandomised encapsulation with FIPS 203's 32-byte m: the KeyGenerator initialised with
     * KEMGenerateSpec and BouncyCastle's FixedSecureRandom(m), of which its MLKEMGenerator draws
     * exactly m (checked: used up).
     */
    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      Pk.checkLen("ML-KEM m", m, 32);
      KeyGenerator kg = KeyGenerator.getInstance(name, prov);
      FixedSecureRandom fixed = new FixedSecureRandom(m);
      kg.init(
          new KEMGenerateSpec.Builder((PublicKey) pub, "Generic", 256).withNoKdf().build(), fixed);
      SecretKeyWithEncapsulation k = (SecretKeyWithEncapsulation) kg.generateKey();
      BouncyCastleLwPq.usedUp(fixed, name + " encapsulation");
      return new byte[][] {k.getEncapsulation(), k.getEncoded()};
    }

    @Override
    public Decapsulating decapsulator(Object priv, byte[] ct) throws Exception {
      KeyGenerator kg = KeyGenerator.getInstance(name, prov);
      kg.init(
          new KEMExtractSpec.Builder((PrivateKey) priv, ct, "Generic", 256).withNoKdf().build());
      return () -> kg.generateKey().getEncoded();
    }
  }

  /**
   * Pure ML-DSA through BouncyCastle's JCA provider: Signature "ML-DSA-65" ...; hedged signing is
   * initSign(key, SecureRandom), deterministic signing (rnd = 0) initSign(key) without one; the
   * context through ContextParameterSpec. Keys as MLDSAPublicKey.getPublicData() and
   * MLDSAPrivateKey.getSeed(), parsed with MLDSAPublicKeySpec / MLDSAPrivateKeySpec.
   */
  static final class MlDsa implements Pk.SigScheme {
    private final String name;
    private final MLDSAParameterSpec spec;
    private final String prov;

    MlDsa(String name, MLDSAParameterSpec spec, String prov) {
      this.name = name;
      this.spec = spec;
      this.prov = prov;
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance(name, prov);
      return () -> pair(g.generateKeyPair());
    }

    @Override
    public byte[] encodePublic(Pair k) {
      return ((MLDSAPublicKey) k.pub()).getPublicData();
    }

    @Override
    public byte[] encodePrivate(Pair k) {
      return ((MLDSAPrivateKey) k.priv()).getSeed();
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return KeyFactory.getInstance(name, prov).generatePublic(new MLDSAPublicKeySpec(spec, b));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return fromSeed(b).priv();
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      Pk.checkLen("ML-DSA seed", seed, 32);
      MLDSAPrivateKey k =
          (MLDSAPrivateKey)
              KeyFactory.getInstance(name, prov)
                  .generatePrivate(new MLDSAPrivateKeySpec(spec, seed));
      return new Pair(k, k.getPublicKey());
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      Signature s = Signature.getInstance(name, prov);
      if (deterministic) {
        s.initSign((PrivateKey) priv);
      } else {
        s.initSign((PrivateKey) priv, new SecureRandom());
      }
      if (ctx != null) {
        s.setParameter(new ContextParameterSpec(ctx));
      }
      return msg -> {
        s.update(msg);
        return s.sign();
      };
    }

    @Override
    public Verifying verifier(Object pub, byte[] ctx) throws Exception {
      Signature s = Signature.getInstance(name, prov);
      s.initVerify((PublicKey) pub);
      if (ctx != null) {
        s.setParameter(new ContextParameterSpec(ctx));
      }
      return (msg, sig) -> {
        s.update(msg);
        return s.verify(sig);
      };
    }
  }
}
