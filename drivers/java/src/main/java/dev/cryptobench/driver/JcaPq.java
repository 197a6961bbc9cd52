package dev.cryptobench.driver;

import dev.cryptobench.driver.Pk.Decapsulating;
import dev.cryptobench.driver.Pk.Encapsulating;
import dev.cryptobench.driver.Pk.Gen;
import dev.cryptobench.driver.Pk.Pair;
import dev.cryptobench.driver.Pk.Signing;
import dev.cryptobench.driver.Pk.Verifying;
import dev.cryptobench.driver.Provider.Alg;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.KeyGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.SLHDSAParameters;
import org.bouncycastle.crypto.prng.FixedSecureRandom;
import org.bouncycastle.jcajce.SecretKeyWithEncapsulation;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.KEMExtractSpec;
import org.bouncycastle.jcajce.spec.KEMGenerateSpec;
import org.bouncycastle.jcajce.spec.SLHDSAParameterSpec;
import org.bouncycastle.pqc.crypto.falcon.FalconParameters;
import org.bouncycastle.pqc.crypto.hqc.HQCParameters;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;

/**
 * The post-quantum schemes of 2026 through BouncyCastle's JCA providers (java:bouncycastle):
 * KeyPairGenerator, KeyFactory and Signature "SLH-DSA-SHA2-128S" ... and "FALCON-512" /
 * "FALCON-1024" from "BC"; KeyPairGenerator, KeyFactory and KeyGenerator (KEMGenerateSpec /
 * KEMExtractSpec, as for ML-KEM: Java 17 has no javax.crypto.KEM) "X-WING" from "BC" and
 * "HQC-128/192/256" from "BCPQC" (BouncyCastle's post-quantum provider, the only one with HQC).
 *
 * <p>The protocol's raw key encodings (protocol.md, "Encodings") are the same as the lightweight
 * provider's ({@link BouncyCastleLwPq}): a raw key is turned into BouncyCastle's key parameters by
 * that scheme, then into X.509 / PKCS#8 by BouncyCastle's own SubjectPublicKeyInfoFactory /
 * PrivateKeyInfoFactory, and handed to the JCA KeyFactory; the other way, a JCA key's getEncoded()
 * is read back by PublicKeyFactory / PrivateKeyFactory. All of it outside the timed region.
 */
final class JcaPq {
  private JcaPq() {}

  /** BouncyCastle's post-quantum JCA provider (HQC). */
  static final String BCPQC = BouncyCastlePQCProvider.PROVIDER_NAME;

  static List<Alg> algs(String bc) {
    if (java.security.Security.getProvider(BCPQC) == null) {
      java.security.Security.addProvider(new BouncyCastlePQCProvider());
    }
    List<Alg> algs = new ArrayList<>();
    for (Object[] s : BouncyCastleLwPq.SLH_DSA) {
      SLHDSAParameters p = (SLHDSAParameters) s[1];
      String jca = "SLH-DSA-" + ((String) s[0]).toUpperCase(java.util.Locale.ROOT);
      algs.add(
          Pk.sig(
              "slh-dsa-" + s[0],
              true,
              new Sig(jca, bc, new BouncyCastleLwPq.SlhDsa(p), Codec.CORE, true)));
    }
    algs.add(
        Pk.sig(
            "falcon-512",
            true,
            new Sig(
                "FALCON-512",
                bc,
                new BouncyCastleLwPq.Falcon(FalconParameters.falcon_512),
                Codec.PQC,
                false)));
    algs.add(
        Pk.sig(
            "falcon-1024",
            true,
            new Sig(
                "FALCON-1024",
                bc,
                new BouncyCastleLwPq.Falcon(FalconParameters.falcon_1024),
                Codec.PQC,
                false)));
    algs.add(
        Pk.kem(
            "hqc-1",
            new Kem("HQC-128", BCPQC, new BouncyCastleLwPq.Hqc(HQCParameters.hqc128), Codec.PQC)));
    algs.add(
        Pk.kem(
            "hqc-3",
            new Kem("HQC-192", BCPQC, new BouncyCastleLwPq.Hqc(HQCParameters.hqc192), Codec.PQC)));
    algs.add(
        Pk.kem(
            "hqc-5",
            new Kem("HQC-256", BCPQC, new BouncyCastleLwPq.Hqc(HQCParameters.hqc256), Codec.PQC)));
    algs.add(Pk.kem("x-wing", new Kem("X-WING", bc, new BouncyCastleLwPq.XWing(), Codec.CORE)));
    return algs;
  }

  static List<String> notes() {
    return List.of(
        "SLH-DSA (FIPS 205, pure): KeyPairGenerator / KeyFactory / Signature"
            + " \"SLH-DSA-SHA2-128S\" ... \"SLH-DSA-SHAKE-256F\" from BC; the bench signs hedged,"
            + " initSign(key, new SecureRandom()); deterministic cases (opt_rand = PK.seed) are"
            + " initSign(key) without a SecureRandom; a context is ContextParameterSpec. Keygen cases"
            + " (SK.seed || SK.prf || PK.seed) initialise the KeyPairGenerator with"
            + " SLHDSAParameterSpec and BouncyCastle's FixedSecureRandom(seed), from which it"
            + " draws exactly those 3n bytes in that order (checked: the seed must be used up).",
        "Falcon: KeyPairGenerator / KeyFactory / Signature \"FALCON-512\", \"FALCON-1024\" from"
            + " BC (compressed, variable-length signatures); HQC: KeyPairGenerator / KeyFactory /"
            + " KeyGenerator \"HQC-128/192/256\" from BCPQC (BouncyCastlePQCProvider, registered"
            + " beside BC), the 2025 HQC specification; X-Wing: KeyPairGenerator / KeyFactory /"
            + " KeyGenerator \"X-WING\" from BC. The KEMs as ML-KEM: a KeyGenerator initialised"
            + " once per cell with KEMGenerateSpec.Builder(public key, \"Generic\", 256).withNoKdf()"
            + " (one generateKey(), a SecretKeyWithEncapsulation, per encaps) or"
            + " KEMExtractSpec.Builder(private key, ciphertext, ...).withNoKdf() (one generateKey()"
            + " per decaps). X-Wing's private key is its 32-byte seed, whose PKCS#8 form KeyFactory"
            + " expands, so keygen cases work; its encaps cases with the 64-byte eseed initialise"
            + " the KeyGenerator with FixedSecureRandom(eseed) as well (drawn exactly: checked). HQC"
            + " has neither (unsupported).",
        "Post-quantum key encodings (the protocol's raw forms, the same bytes as"
            + " java:bouncycastle-lw): raw keys become BouncyCastle's key parameters, then X.509 /"
            + " PKCS#8 through BouncyCastle's SubjectPublicKeyInfoFactory / PrivateKeyInfoFactory,"
            + " then KeyFactory keys; generated keys' getEncoded() is read back with"
            + " PublicKeyFactory / PrivateKeyFactory (all outside the timed region).",
        "Ascon: MessageDigest \"ASCON-HASH256\", \"ASCON-XOF128\" (its 32-byte digest length) and"
            + " Cipher \"ASCON-AEAD128\" (IvParameterSpec with the 16-byte nonce, 16-byte tag"
            + " appended) from BC; BouncyCastle accepts re-initialising it for encryption with the"
            + " same nonce, so its seal cells re-use the cell's nonce.");
  }

  /** Which of BouncyCastle's two sets of key-encoding factories knows the scheme. */
  enum Codec {
    /** org.bouncycastle.crypto.util (SLH-DSA, X-Wing). */
    CORE,
    /** org.bouncycastle.pqc.crypto.util (Falcon, HQC). */
    PQC;

    byte[] spki(Object pub) throws Exception {
      AsymmetricKeyParameter k = (AsymmetricKeyParameter) pub;
      return this == CORE
          ? org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(k)
              .getEncoded()
          : org.bouncycastle.pqc.crypto.util.SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(
                  k)
              .getEncoded();
    }

    byte[] pkcs8(Object priv) throws Exception {
      AsymmetricKeyParameter k = (AsymmetricKeyParameter) priv;
      return this == CORE
          ? org.bouncycastle.crypto.util.PrivateKeyInfoFactory.createPrivateKeyInfo(k).getEncoded()
          : org.bouncycastle.pqc.crypto.util.PrivateKeyInfoFactory.createPrivateKeyInfo(k)
              .getEncoded();
    }

    Object publicParams(PublicKey k) throws Exception {
      return this == CORE
          ? org.bouncycastle.crypto.util.PublicKeyFactory.createKey(k.getEncoded())
          : org.bouncycastle.pqc.crypto.util.PublicKeyFactory.createKey(k.getEncoded());
    }

    Object privateParams(PrivateKey k) throws Exception {
      return this == CORE
          ? org.bouncycastle.crypto.util.PrivateKeyFactory.createKey(k.getEncoded())
          : org.bouncycastle.pqc.crypto.util.PrivateKeyFactory.createKey(k.getEncoded());
    }
  }

  /** JCA keys with the protocol's raw encodings, through the lightweight scheme's codec. */
  abstract static class Keys implements Pk.Keys {
    final String name;
    final String prov;
    final Pk.Keys raw;
    final Codec codec;

    Keys(String name, String prov, Pk.Keys raw, Codec codec) {
      this.name = name;
      this.prov = prov;
      this.raw = raw;
      this.codec = codec;
    }

    @Override
    public Gen generator() throws Exception {
      KeyPairGenerator g = KeyPairGenerator.getInstance(name, prov);
      return () -> {
        KeyPair kp = g.generateKeyPair();
        return new Pair(kp.getPrivate(), kp.getPublic());
      };
    }

    @Override
    public byte[] encodePublic(Pair k) throws Exception {
      return raw.encodePublic(new Pair(null, codec.publicParams((PublicKey) k.pub())));
    }

    @Override
    public byte[] encodePrivate(Pair k) throws Exception {
      return raw.encodePrivate(new Pair(codec.privateParams((PrivateKey) k.priv()), null));
    }

    @Override
    public Object parsePublic(byte[] b) throws Exception {
      return KeyFactory.getInstance(name, prov)
          .generatePublic(new X509EncodedKeySpec(codec.spki(raw.parsePublic(b))));
    }

    @Override
    public Object parsePrivate(byte[] b) throws Exception {
      return KeyFactory.getInstance(name, prov)
          .generatePrivate(new PKCS8EncodedKeySpec(codec.pkcs8(raw.parsePrivate(b))));
    }
  }

  /**
   * A JCA Signature: hedged in the bench (initSign with a SecureRandom), deterministic cases
   * without one (where the scheme has them), the context through ContextParameterSpec.
   */
  static final class Sig extends Keys implements Pk.SigScheme {
    private final boolean slhDsa;

    Sig(String name, String prov, Pk.Keys raw, Codec codec, boolean slhDsa) {
      super(name, prov, raw, codec);
      this.slhDsa = slhDsa;
    }

    @Override
    public Signing signer(Object priv, byte[] ctx, boolean deterministic) throws Exception {
      if (!slhDsa) {
        Pk.noContext(ctx, name);
        Pk.noDeterministic(deterministic, name);
      }
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
      if (!slhDsa) {
        Pk.noContext(ctx, name);
      }
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

    /**
     * SLH-DSA key generation from SK.seed || SK.prf || PK.seed: the JCA KeyPairGenerator
     * initialised with the parameter set and a SecureRandom that yields exactly those 3n bytes
     * (BouncyCastle's FixedSecureRandom; the generator draws SK.seed, SK.prf, PK.seed in FIPS 205's
     * order, n bytes each, and nothing else: checked, and the ACVP keygen cases check the result).
     */
    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      if (!slhDsa) {
        throw new Provider.Unsupported(name + ": no key generation from a seed");
      }
      BouncyCastleLwPq.SlhDsa s = (BouncyCastleLwPq.SlhDsa) raw;
      Pk.checkLen("SLH-DSA seed SK.seed || SK.prf || PK.seed", seed, 3 * s.n());
      KeyPairGenerator g = KeyPairGenerator.getInstance(name, prov);
      FixedSecureRandom fixed = new FixedSecureRandom(seed);
      g.initialize(SLHDSAParameterSpec.fromName(name.toLowerCase(java.util.Locale.ROOT)), fixed);
      KeyPair kp = g.generateKeyPair();
      if (!fixed.isExhausted()) {
        throw new IllegalStateException(name + ": key generation did not draw the whole seed");
      }
      return new Pair(kp.getPrivate(), kp.getPublic());
    }
  }

  /**
   * A KEM through BouncyCastle's KeyGenerator API, as {@link JcaPk.MlKem}: KEMGenerateSpec for
   * encapsulation, KEMExtractSpec for decapsulation, no KDF, a 256-bit key.
   */
  static final class Kem extends Keys implements Pk.KemScheme {
    Kem(String name, String prov, Pk.Keys raw, Codec codec) {
      super(name, prov, raw, codec);
    }

    @Override
    public Pair fromSeed(byte[] seed) throws Exception {
      if (!(raw instanceof BouncyCastleLwPq.XWing)) {
        throw new Provider.Unsupported(name + ": no key generation from a seed");
      }
      // X-Wing's private key is its seed: KeyFactory expands its PKCS#8 form.
      PrivateKey k = (PrivateKey) parsePrivate(seed);
      return new Pair(k, ((org.bouncycastle.jcajce.interfaces.XWingPrivateKey) k).getPublicKey());
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
     * X-Wing's derandomised encapsulation (the 64-byte eseed): the KeyGenerator initialised with
     * KEMGenerateSpec and BouncyCastle's FixedSecureRandom(eseed), which its XWingKEMGenerator
     * draws exactly (checked: used up). HQC's KEMGenerateSpec has no such variant in the protocol.
     */
    @Override
    public byte[][] encapsulate(Object pub, byte[] m) throws Exception {
      if (!(raw instanceof BouncyCastleLwPq.XWing)) {
        throw new Provider.Unsupported(name + ": no derandomised encapsulation");
      }
      Pk.checkLen("X-Wing eseed", m, 64);
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
}
