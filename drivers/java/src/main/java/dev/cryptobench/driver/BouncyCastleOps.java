package dev.cryptobench.driver;

import static dev.cryptobench.driver.JcaOps.ALL;
import static dev.cryptobench.driver.JcaOps.GCM;
import static dev.cryptobench.driver.JcaOps.IV;
import static dev.cryptobench.driver.JcaOps.NONE;
import static dev.cryptobench.driver.JcaOps.cipher;

import dev.cryptobench.driver.JcaOps.CipherDef;
import dev.cryptobench.driver.JcaOps.Repeat;
import dev.cryptobench.driver.Provider.Alg;
import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * java:bouncycastle — BouncyCastle (bcprov-jdk18on) through its JCA provider, {@code
 * getInstance(alg, "BC")}: the way most Java code uses BouncyCastle. The cells are JcaOps' (the
 * same MessageDigest/Mac/Cipher code as java:jca), so the two providers differ only in the provider
 * answering.
 */
final class BouncyCastleOps {
  static final String BC = BouncyCastleProvider.PROVIDER_NAME;

  private BouncyCastleOps() {}

  static Provider provider() {
    if (Security.getProvider(BC) == null) {
      Security.addProvider(new BouncyCastleProvider());
    }
    java.security.Provider bc = Security.getProvider(BC);
    String ccmNoStream =
        "BouncyCastle's CCM buffers the whole message until doFinal (CCM must know the length"
            + " before it starts), so it is one-shot only";
    List<Alg> algs =
        new ArrayList<>(
            List.of(
                Provider.noop(),
                JcaOps.hash("sha256", "SHA-256", BC),
                JcaOps.hash("sha512", "SHA-512", BC),
                JcaOps.hash("sha3-256", "SHA3-256", BC),
                JcaOps.hash("sha3-512", "SHA3-512", BC),
                JcaOps.hash("blake2b-512", "BLAKE2B-512", BC),
                JcaOps.hash("blake2s-256", "BLAKE2S-256", BC),
                JcaOps.hash("sm3", "SM3", BC),
                JcaOps.hmac("hmac-sha256", "HmacSHA256", BC),
                cipher(JcaOps.aesEcb("aes-128-ecb", 16, BC), ALL, ""),
                cipher(JcaOps.aesEcb("aes-256-ecb", 32, BC), ALL, ""),
                cipher(JcaOps.aesCbc("aes-128-cbc", 16, BC), ALL, ""),
                cipher(JcaOps.aesCbc("aes-256-cbc", 32, BC), ALL, ""),
                cipher(JcaOps.aesCtr("aes-128-ctr", 16, BC), ALL, ""),
                cipher(JcaOps.aesCtr("aes-256-ctr", 32, BC), ALL, ""),
                cipher(JcaOps.chacha20(BC, Repeat.ALLOWED), ALL, ""),
                cipher(JcaOps.aesGcm("aes-128-gcm", 16, BC), ALL, ""),
                cipher(JcaOps.aesGcm("aes-256-gcm", 32, BC), ALL, ""),
                cipher(aesCcm("aes-128-ccm", 16), NONE, ccmNoStream),
                cipher(aesCcm("aes-256-ccm", 32), NONE, ccmNoStream),
                cipher(JcaOps.chacha20Poly1305(BC, Repeat.ENCRYPT_REFUSED), ALL, ""),
                cipher(
                    new CipherDef(
                        "xchacha20-poly1305",
                        "XChaCha20-Poly1305",
                        "XChaCha20",
                        BC,
                        32,
                        24,
                        IV,
                        16,
                        false,
                        Repeat.ENCRYPT_REFUSED),
                    ALL,
                    ""),
                cipher(JcaOps.sm4("ecb", BC), ALL, ""),
                cipher(JcaOps.sm4("cbc", BC), ALL, ""),
                cipher(JcaOps.sm4("ctr", BC), ALL, ""),
                cipher(JcaOps.sm4("gcm", BC), ALL, ""),
                JcaOps.hash("ascon-hash256", "ASCON-HASH256", BC),
                JcaOps.hash("ascon-xof128", "ASCON-XOF128", BC),
                cipher(
                    new CipherDef(
                        "ascon-aead128",
                        "ASCON-AEAD128",
                        "ASCON-AEAD128",
                        BC,
                        16,
                        16,
                        IV,
                        16,
                        false,
                        Repeat.ALLOWED),
                    ALL,
                    "")));
    algs.addAll(JcaPk.common(new JcaPk.Provs(BC, BC, BC)));
    algs.addAll(JcaPk.bouncyCastleOnly(BC));
    algs.addAll(JcaPq.algs(BC));
    List<String> notes = new ArrayList<>();
    notes.add(
        "BouncyCastle's JCA provider, registered with Security.addProvider(new"
            + " BouncyCastleProvider()) and named in every getInstance(alg, \"BC\"): SHA-256,"
            + " SHA-512, SHA3-256, SHA3-512, BLAKE2B-512, BLAKE2S-256, SM3, HmacSHA256,"
            + " AES/ECB|CBC|CTR|GCM|CCM/NoPadding, SM4/ECB|CBC|CTR|GCM/NoPadding, ChaCha20"
            + " (ChaCha20ParameterSpec), ChaCha20-Poly1305, XChaCha20-Poly1305; for public keys"
            + " KeyPairGenerator, KeyFactory, Signature, KeyAgreement, Cipher and KeyGenerator"
            + " from \"BC\" as well; HQC alone comes from BouncyCastle's post-quantum provider,"
            + " \"BCPQC\" (BouncyCastlePQCProvider, registered the same way).");
    notes.addAll(JcaOps.jcaNotes("BouncyCastle"));
    notes.add(
        "AEAD encryption: BouncyCastle refuses to initialise GCM (AES and SM4), CCM,"
            + " ChaCha20-Poly1305 and XChaCha20-Poly1305 for encryption twice in a row with the same key and nonce"
            + " (\"cannot reuse nonce for ... encryption\"), so seal cells alternate between the"
            + " cell's nonce and a second nonce (its last byte XOR 0x01), each a precomputed"
            + " parameter spec; the checksum is of an operation with the cell's own nonce. Open"
            + " and the plain ciphers re-use the cell's nonce.");
    notes.add(
        "Streaming (chunk > 0): Cipher.update per piece into a piece-sized buffer, then doFinal;"
            + " BouncyCastle's GCM (AES and SM4) and (X)ChaCha20-Poly1305 stream in both directions (decryption"
            + " holds back only the tag). AES-CCM is not streamed: "
            + ccmNoStream
            + ".");
    notes.addAll(JcaPk.notes("BC"));
    notes.addAll(JcaPk.bouncyCastleNotes());
    notes.addAll(JcaPq.notes());
    notes.add(
        "Library jar: bcprov-jdk18on as pinned in drivers/java/pom.xml, merged into the driver's"
            + " jar with its signature files removed (OpenJDK does not require a signed JCE"
            + " provider).");
    return new Provider.Catalogue(
        "java:bouncycastle",
        "BouncyCastle (bcprov-jdk18on) via its JCA provider",
        bc.getInfo(),
        List.copyOf(notes),
        List.copyOf(algs));
  }

  static CipherDef aesCcm(String name, int keyLen) {
    return new CipherDef(
        name, "AES/CCM/NoPadding", "AES", BC, keyLen, 12, GCM, 16, false, Repeat.ENCRYPT_REFUSED);
  }
}
