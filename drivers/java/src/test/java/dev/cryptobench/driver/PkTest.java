package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Public-key algorithms (since protocol version 2): a small bench per provider, algorithm and
 * operation (through the request handler, and the cell's output checked independently: a signature
 * verifies, a ciphertext decapsulates), a self-cross-check per algorithm through keypair and verify
 * cases as cryptobench/verify/cross_checks.py does, a cross-provider subset inside Java, and the
 * edge cases (unsupported variants, malformed inputs rejected, RSA keygen's capped warm-up).
 *
 * <p>RSA 3072/4096 keys take seconds each in BouncyCastle, so those sizes are covered by a few
 * cells only ({@link #SLOW_RSA_COVERED}); every operation runs at 2048.
 */
class PkTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final long SEED = BenchTest.SEED;
  static final String MSG = Input.hex(Input.message((int) SEED, 32));

  /** The 3072/4096 cells the tests run (each makes one key). */
  static final Set<String> SLOW_RSA_COVERED = Set.of("rsa-3072-pss sign", "rsa-4096-oaep decrypt");

  static boolean slowRsa(String alg) {
    return alg.startsWith("rsa-3072") || alg.startsWith("rsa-4096");
  }

  /**
   * SLH-DSA signs in tens of milliseconds (the 128f sets) to about a second (the s sets) in
   * BouncyCastle: every operation runs on slh-dsa-sha2-128f and slh-dsa-shake-128f, the other ten
   * sets only in {@link #SLOW_PQ_COVERED} (their ACVP cases in VectorsTest, and all of them in
   * `cryptobench verify`); of SPHINCS+ (the same costs) sphincs-sha2-128f-simple.
   */
  static boolean slowPq(String alg) {
    return (alg.startsWith("slh-dsa-") && !alg.endsWith("-128f"))
        || (alg.startsWith("sphincs-") && !alg.equals("sphincs-sha2-128f-simple"));
  }

  static final Set<String> SLOW_PQ_COVERED = Set.of("slh-dsa-sha2-256f verify");

  /**
   * The fixed output lengths of cryptobench/core/algorithms.py (_PK_OUTPUT_LEN); null: variable.
   */
  static Integer outputLen(String alg, String op, int size) {
    Map<String, Integer> m = new HashMap<>();
    int[][] kem = {{512, 768, 800}, {768, 1088, 1184}, {1024, 1568, 1568}};
    for (int[] k : kem) {
      m.put("ml-kem-" + k[0] + " encaps", k[1] + 32);
      m.put("ml-kem-" + k[0] + " decaps", 32);
      m.put("ml-kem-" + k[0] + " keygen", k[2]);
    }
    int[][] dsa = {{44, 2420, 1312}, {65, 3309, 1952}, {87, 4627, 2592}};
    for (int[] k : dsa) {
      m.put("ml-dsa-" + k[0] + " sign", k[1]);
      m.put("ml-dsa-" + k[0] + " keygen", k[2]);
    }
    // FIPS 205 (n, signature) per parameter set: public key 2n.
    int[][] slh = {{128, 16, 7856, 17088}, {192, 24, 16224, 35664}, {256, 32, 29792, 49856}};
    for (String h : new String[] {"sha2", "shake"}) {
      for (int[] k : slh) {
        m.put("slh-dsa-" + h + "-" + k[0] + "s sign", k[2]);
        m.put("slh-dsa-" + h + "-" + k[0] + "f sign", k[3]);
        m.put("slh-dsa-" + h + "-" + k[0] + "s keygen", 2 * k[1]);
        m.put("slh-dsa-" + h + "-" + k[0] + "f keygen", 2 * k[1]);
        // SPHINCS+ round 3.1 simple: the same sizes.
        m.put("sphincs-" + h + "-" + k[0] + "s-simple sign", k[2]);
        m.put("sphincs-" + h + "-" + k[0] + "f-simple sign", k[3]);
        m.put("sphincs-" + h + "-" + k[0] + "s-simple keygen", 2 * k[1]);
        m.put("sphincs-" + h + "-" + k[0] + "f-simple keygen", 2 * k[1]);
      }
    }
    m.put("falcon-512 keygen", 897);
    m.put("falcon-1024 keygen", 1793);
    // HQC as BouncyCastle 1.87 has it (the 2025 specification): public key, ciphertext.
    int[][] hqc = {{1, 2241, 4433}, {3, 4514, 8978}, {5, 7237, 14421}};
    for (int[] k : hqc) {
      m.put("hqc-" + k[0] + " keygen", k[1]);
      m.put("hqc-" + k[0] + " encaps", k[2] + 32);
      m.put("hqc-" + k[0] + " decaps", 32);
    }
    m.put("x-wing keygen", 1216);
    m.put("x-wing encaps", 1120 + 32);
    m.put("x-wing decaps", 32);
    // RFC 8032 / 7748 curves: {public key, signature or shared secret}
    m.put("ed25519 sign", 64);
    m.put("ed448 sign", 114);
    String[] curves = {"ed25519", "ed448", "x25519", "x448"};
    int[] raw = {32, 57, 32, 56};
    for (int i = 0; i < curves.length; i++) {
      m.put(curves[i] + " keygen", raw[i]);
      if (curves[i].startsWith("x")) {
        m.put(curves[i] + " derive", raw[i]);
      }
    }
    // ECDH: the x coordinate, field-size bytes
    for (String c : new String[] {"ecdh-p256", "ecdh-secp256k1"}) {
      m.put(c + " derive", 32);
    }
    m.put("ecdh-p384 derive", 48);
    for (int n : new int[] {2048, 3072, 4096}) {
      m.put("rsa-" + n + "-pss sign", n / 8);
      m.put("rsa-" + n + "-pkcs1 sign", n / 8);
      m.put("rsa-" + n + "-oaep encrypt", n / 8);
    }
    if (op.equals("verify")) {
      return 1;
    }
    if (op.equals("decrypt")) {
      return size;
    }
    return m.get(alg + " " + op);
  }

  static boolean takesMessage(String op) {
    return Set.of("sign", "verify", "encrypt", "decrypt").contains(op);
  }

  // ---- request helpers ------------------------------------------------------------------------

  static JsonNode request(Protocol d, ObjectNode req) throws Exception {
    Protocol.Reply r = d.handleLine(JSON.writeValueAsString(req));
    assertFalse(r.line().contains("\n"), "one line");
    return JSON.readTree(r.line());
  }

  /** The result of one deterministic sign case of MSG (with context {@code ctx} unless null). */
  static JsonNode deterministicSign(Protocol d, String alg, String priv, String ctx)
      throws Exception {
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "verify");
    req.put("alg", alg);
    ObjectNode c = req.putArray("cases").addObject();
    c.put("id", "d#1");
    c.put("op", "sign");
    c.put("private", priv);
    c.put("msg", MSG);
    if (ctx != null) {
      c.put("ctx", ctx);
    }
    c.put("deterministic", true);
    return request(d, req).path("results").get(0);
  }

  static JsonNode keypair(Protocol d, String alg) throws Exception {
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "keypair");
    req.put("alg", alg);
    JsonNode r = request(d, req);
    assertTrue(r.path("ok").asBoolean(), "keypair " + alg + ": " + r);
    assertFalse(r.path("public").asText().isEmpty(), "keypair " + alg + ": " + r);
    assertFalse(r.path("private").asText().isEmpty(), "keypair " + alg + ": " + r);
    return r;
  }

  /** One verify case through the verify request; returns its result. */
  static JsonNode oneCase(Protocol d, String alg, String op, String... fields) throws Exception {
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "verify");
    req.put("alg", alg);
    ObjectNode c = req.putArray("cases").addObject();
    c.put("id", "x#1");
    c.put("op", op);
    for (int i = 0; i < fields.length; i += 2) {
      c.put(fields[i], fields[i + 1]);
    }
    JsonNode r = request(d, req);
    assertTrue(r.path("ok").asBoolean(), "verify " + alg + " " + op + ": " + r);
    JsonNode res = r.path("results").get(0);
    assertEquals("x#1", res.path("id").asText());
    return res;
  }

  /** The shared secret of {@code mine}'s private key with {@code theirs}' public key. */
  static String derive(Protocol d, String alg, JsonNode mine, JsonNode theirs) throws Exception {
    return out(
        oneCase(
            d,
            alg,
            "derive",
            "private",
            mine.get("private").asText(),
            "public",
            theirs.get("public").asText()),
        alg);
  }

  /** The provider's verify case accepts signature {@code sig} (hex) over {@code msg} (hex). */
  static void assertVerifies(
      Protocol d, String alg, String pub, String msg, String sig, String what) throws Exception {
    assertEquals(
        "01",
        out(oneCase(d, alg, "verify", "public", pub, "msg", msg, "sig", sig), what + " verifies"));
  }

  static String out(JsonNode res, String what) {
    assertTrue(res.has("out"), what + ": " + res);
    return res.get("out").asText();
  }

  /** Flips one bit in the middle, as crosscheck.py does. */
  static String flip(String hex) {
    byte[] b = Input.unhex("x", hex);
    b[b.length / 2] ^= 1;
    return Input.hex(b);
  }

  static String kind(Provider.Alg a) {
    if (a.offers("sign")) {
      return "sig";
    }
    if (a.offers("derive")) {
      return "kex";
    }
    if (a.offers("encaps")) {
      return "kem";
    }
    if (a.offers("encrypt")) {
      return "pke";
    }
    return "keygen";
  }

  // ---- bench ----------------------------------------------------------------------------------

  static ObjectNode benchRequest(String alg, String op, int size) {
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "bench");
    req.put("alg", alg);
    req.put("op", op);
    req.put("size", size);
    req.put("chunk", 0);
    req.put("seed", SEED);
    boolean rsaKeygen = alg.matches("rsa-\\d+") && op.equals("keygen");
    req.put("batch", rsaKeygen ? 1 : 0);
    req.put("target_ns", 200_000);
    req.put("warmup_ns", 200_000);
    req.put("samples", rsaKeygen ? 1 : 3);
    return req;
  }

  @TestFactory
  Stream<DynamicTest> benchEveryPublicKeyOffer() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String id : Provider.ids()) {
      Provider p = Provider.create(id);
      Protocol d = new Protocol(p, BenchTest.FAST_JIT, false);
      for (Provider.Alg a : p.algs()) {
        if (!a.publicKey()) {
          continue;
        }
        for (String op : a.ops()) {
          if (slowRsa(a.name()) && !SLOW_RSA_COVERED.contains(a.name() + " " + op)) {
            continue;
          }
          if (slowPq(a.name()) && !SLOW_PQ_COVERED.contains(a.name() + " " + op)) {
            continue;
          }
          tests.add(
              DynamicTest.dynamicTest(
                  id + " " + a.name() + " " + op, () -> benchAndCheck(d, a, op)));
        }
      }
    }
    return tests.stream();
  }

  private static void benchAndCheck(Protocol d, Provider.Alg a, String op) throws Exception {
    int size = takesMessage(op) ? 32 : 0;
    ObjectNode req = benchRequest(a.name(), op, size);
    JsonNode r = request(d, req);
    String what = a.name() + " " + op;
    assertTrue(r.path("ok").asBoolean(), what + ": " + r.path("error").asText());
    long batch = req.get("batch").asLong();
    if (batch > 0) {
      assertEquals(batch, r.path("batch").asLong(), what + ": the given batch is kept");
    }
    assertEquals(req.get("samples").asInt(), r.get("samples_ns").size(), what + ": samples");
    for (JsonNode s : r.get("samples_ns")) {
      assertTrue(s.asLong() > 0, what + ": sample " + s);
    }
    String checksum = r.path("checksum").asText();
    assertTrue(checksum.matches("[0-9a-f]{8}:[0-9a-f]{16}"), what + ": checksum " + checksum);
    Integer want = outputLen(a.name(), op, size);
    if (want != null) {
      assertEquals(want.intValue(), Integer.parseInt(checksum.substring(0, 8), 16), what);
    }
    if (op.equals("verify")) {
      assertEquals(Input.checksum(Pk.VERIFY_OK), checksum, what);
    }
    if (op.equals("decrypt")) {
      assertEquals(Input.checksum(Input.message((int) SEED, size)), checksum, what + ": plaintext");
    }
    JsonNode w = r.get("warmup");
    assertTrue(w != null && w.path("ops").asLong() >= 1 && w.has("jit_stop"), what + ": " + r);
    if (a.name().matches("rsa-\\d+")) {
      assertEquals("capped", w.path("jit_stop").asText(), what + ": " + w);
      assertTrue(w.path("ops").asLong() <= Pk.RSA_KEYGEN_WARMUP, what + ": " + w);
    }
    if (op.equals("decrypt") && slowRsa(a.name())) {
      // The plaintext is checked above: a second cell would make a second RSA-4096 key for it.
      return;
    }
    // The cell's output checked independently of the cell.
    Provider.Cell cell =
        a.cells().make(new Provider.CellParams(op, new byte[0], new byte[0], (int) SEED, size, 0));
    String sum = cell.checksum();
    byte[] output = cell.output();
    assertEquals(Input.checksum(output), sum);
    if (want != null) {
      assertEquals(want.intValue(), output.length, what + ": output length");
    }
    checkOutput(d, a, op, (Pk.PkCell) cell, output, Input.message((int) SEED, size));
  }

  /** A cell's output is right: a signature verifies, a ciphertext decapsulates/decrypts ... */
  private static void checkOutput(
      Protocol d, Provider.Alg a, String op, Pk.PkCell cell, byte[] output, byte[] msg)
      throws Exception {
    String alg = a.name();
    String what = alg + " " + op;
    byte[][] keys = cell.encodedKeys();
    String pub = Input.hex(keys[0]);
    String priv = Input.hex(keys[1]);
    switch (op) {
      case "keygen":
        {
          assertEquals(pub, Input.hex(output), what + ": output is the public key");
          if (a.name().matches("rsa-\\d+")) {
            // As crosscheck.py does: the pair signs and verifies with PKCS#1 v1.5.
            String sigAlg = alg + "-pkcs1";
            String sig = out(oneCase(d, sigAlg, "sign", "private", priv, "msg", MSG), what);
            assertEquals(
                "01",
                out(oneCase(d, sigAlg, "verify", "public", pub, "msg", MSG, "sig", sig), what));
          } else if (a.offers("sign")) {
            String sig = out(oneCase(d, alg, "sign", "private", priv, "msg", MSG), what);
            assertEquals(
                "01", out(oneCase(d, alg, "verify", "public", pub, "msg", MSG, "sig", sig), what));
          } else if (a.offers("derive")) {
            JsonNode other = keypair(d, alg);
            String ab =
                out(
                    oneCase(
                        d, alg, "derive", "private", priv, "public", other.get("public").asText()),
                    what);
            String ba =
                out(
                    oneCase(
                        d, alg, "derive", "private", other.get("private").asText(), "public", pub),
                    what);
            assertEquals(ab, ba, what + ": the generated pair agrees");
          }
          if (a.offers("encaps")) {
            String ctk = out(oneCase(d, alg, "encaps", "public", pub), what);
            String ct = ctk.substring(0, ctk.length() - 64);
            assertEquals(
                ctk.substring(ctk.length() - 64),
                out(oneCase(d, alg, "decaps", "private", priv, "msg", ct), what));
          }
          break;
        }
      case "sign":
        assertVerifies(
            d, alg, pub, Input.hex(msg), Input.hex(output), what + ": the cell's signature");
        break;
      case "verify":
        {
          Pk.VerifyCell v = (Pk.VerifyCell) cell;
          assertVerifies(d, alg, pub, Input.hex(msg), Input.hex(v.sig), what);
          break;
        }
      case "derive":
        {
          Pk.DeriveCell dc = (Pk.DeriveCell) cell;
          String peerPriv = Input.hex(cell.keys.encodePrivate(dc.peer));
          assertEquals(
              Input.hex(output),
              out(oneCase(d, alg, "derive", "private", peerPriv, "public", pub), what),
              what + ": the peer derives the same secret");
          break;
        }
      case "encaps":
        {
          String ctk = Input.hex(output);
          String ct = ctk.substring(0, ctk.length() - 64);
          assertEquals(
              ctk.substring(ctk.length() - 64),
              out(oneCase(d, alg, "decaps", "private", priv, "msg", ct), what),
              what + ": the ciphertext decapsulates to the key");
          break;
        }
      case "decaps":
        {
          Pk.DecapsCell dc = (Pk.DecapsCell) cell;
          assertEquals(
              Input.hex(output),
              out(oneCase(d, alg, "decaps", "private", priv, "msg", Input.hex(dc.ct)), what));
          break;
        }
      case "encrypt":
        assertEquals(
            Input.hex(msg),
            out(oneCase(d, alg, "decrypt", "private", priv, "msg", Input.hex(output)), what),
            what + ": the ciphertext decrypts");
        break;
      case "decrypt":
        assertArrayEquals(msg, output, what);
        break;
      default:
        throw new AssertionError("unexpected op " + op);
    }
  }

  // ---- self- and cross-checks -----------------------------------------------------------------

  /** Every public-key algorithm of every provider checked against itself, as crosscheck.py. */
  @TestFactory
  Stream<DynamicTest> selfCrossCheck() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String id : Provider.ids()) {
      Protocol d = BenchTest.driver(id);
      for (Provider.Alg a : Provider.create(id).algs()) {
        if (!a.publicKey() || slowRsa(a.name()) || slowPq(a.name())) {
          continue;
        }
        tests.add(
            DynamicTest.dynamicTest(id + " " + a.name(), () -> exchange(a.name(), kind(a), d, d)));
      }
    }
    return tests.stream();
  }

  /**
   * What cryptobench/verify/cross_checks.py does for one ordered pair: producer makes (keys, a
   * signature, a ciphertext), consumer accepts it, and refuses a corrupted one.
   */
  static void exchange(String alg, String kind, Protocol producer, Protocol consumer)
      throws Exception {
    switch (kind) {
      case "sig":
        {
          JsonNode kp = keypair(producer, alg);
          String pub = kp.get("public").asText();
          String sig =
              out(
                  oneCase(producer, alg, "sign", "private", kp.get("private").asText(), "msg", MSG),
                  alg);
          assertEquals(
              "01",
              out(oneCase(consumer, alg, "verify", "public", pub, "msg", MSG, "sig", sig), alg),
              alg + ": the signature verifies");
          JsonNode bad =
              oneCase(consumer, alg, "verify", "public", pub, "msg", MSG, "sig", flip(sig));
          assertTrue(bad.path("rejected").asBoolean(), alg + ": a corrupted signature: " + bad);
          break;
        }
      case "kex":
        {
          JsonNode a = keypair(producer, alg);
          JsonNode b = keypair(consumer, alg);
          assertEquals(
              derive(producer, alg, a, b),
              derive(consumer, alg, b, a),
              alg + ": shared secrets agree");
          break;
        }
      case "kem":
        {
          JsonNode k = keypair(consumer, alg);
          JsonNode other = keypair(producer, alg);
          String ctk =
              out(oneCase(producer, alg, "encaps", "public", k.get("public").asText()), alg);
          String ct = ctk.substring(0, ctk.length() - 64);
          String key = ctk.substring(ctk.length() - 64);
          assertEquals(
              key,
              out(
                  oneCase(consumer, alg, "decaps", "private", k.get("private").asText(), "msg", ct),
                  alg),
              alg + ": decapsulates to the same key");
          JsonNode wrong =
              oneCase(consumer, alg, "decaps", "private", other.get("private").asText(), "msg", ct);
          assertTrue(
              wrong.path("rejected").asBoolean()
                  || (wrong.has("out") && !wrong.get("out").asText().equals(key)),
              alg + ": a wrong key gives another key: " + wrong);
          break;
        }
      case "pke":
        {
          JsonNode k = keypair(consumer, alg);
          String ct =
              out(
                  oneCase(producer, alg, "encrypt", "public", k.get("public").asText(), "msg", MSG),
                  alg);
          assertEquals(
              MSG,
              out(
                  oneCase(
                      consumer, alg, "decrypt", "private", k.get("private").asText(), "msg", ct),
                  alg),
              alg + ": the ciphertext decrypts");
          JsonNode bad =
              oneCase(
                  consumer, alg, "decrypt", "private", k.get("private").asText(), "msg", flip(ct));
          assertTrue(bad.path("rejected").asBoolean(), alg + ": a corrupted ciphertext: " + bad);
          break;
        }
      case "keygen":
        {
          // rsa-N: the producer's key pair signs and verifies under the consumer.
          JsonNode kp = keypair(producer, alg);
          String sigAlg = alg + "-pkcs1";
          String sig =
              out(
                  oneCase(
                      consumer, sigAlg, "sign", "private", kp.get("private").asText(), "msg", MSG),
                  alg);
          assertVerifies(consumer, sigAlg, kp.get("public").asText(), MSG, sig, alg);
          break;
        }
      default:
        throw new AssertionError(kind);
    }
  }

  /**
   * A cross-provider subset inside Java, both directions: what one provider makes, another accepts
   * (keys, signatures, ciphertexts, shared secrets).
   */
  @TestFactory
  Stream<DynamicTest> crossProvider() {
    String jca = "java:jca";
    String bc = "java:bouncycastle";
    String lw = "java:bouncycastle-lw";
    String[][] pairs = {
      {"ecdsa-p256", jca, bc},
      {"ecdsa-p384", jca, lw},
      {"ecdsa-secp256k1", bc, lw},
      {"ecdh-p256", jca, lw},
      {"ecdh-secp256k1", bc, lw},
      {"ed25519", jca, lw},
      {"ed448", bc, jca},
      {"x25519", jca, bc},
      {"x448", lw, jca},
      {"sm2", bc, lw},
      {"ml-kem-768", bc, lw},
      {"ml-kem-512", lw, bc},
      {"ml-dsa-65", bc, lw},
      {"ml-dsa-44", lw, bc},
      {"slh-dsa-sha2-128f", bc, lw},
      {"slh-dsa-shake-128f", lw, bc},
      {"falcon-512", lw, bc},
      {"hqc-1", bc, lw},
      {"x-wing", lw, bc},
      {"rsa-2048-pss", jca, lw},
      {"rsa-2048-pkcs1", bc, jca},
      {"rsa-2048-oaep", jca, bc},
      {"rsa-2048-oaep", lw, jca},
      {"rsa-2048", jca, lw},
    };
    Map<String, Protocol> drivers = new HashMap<>();
    for (String id : Provider.ids()) {
      drivers.put(id, BenchTest.driver(id));
    }
    List<DynamicTest> tests = new ArrayList<>();
    for (String[] p : pairs) {
      Provider.Alg a = Provider.create(p[1]).alg(p[0]);
      assertNotNull(a, p[1] + " offers " + p[0]);
      String kind = kind(a);
      for (String[] dir : new String[][] {{p[1], p[2]}, {p[2], p[1]}}) {
        tests.add(
            DynamicTest.dynamicTest(
                p[0] + " " + dir[0] + " -> " + dir[1],
                () -> exchange(p[0], kind, drivers.get(dir[0]), drivers.get(dir[1]))));
      }
    }
    return tests.stream();
  }

  // ---- edge cases -----------------------------------------------------------------------------

  @Test
  void unsupportedVariants() throws Exception {
    Protocol bc = BenchTest.driver("java:bouncycastle");
    Protocol lw = BenchTest.driver("java:bouncycastle-lw");
    Protocol jca = BenchTest.driver("java:jca");
    String m = "00".repeat(32);
    // Derandomised ML-KEM encapsulation: the lightweight API's internalGenerateEncapsulated and
    // the JCA KeyGenerator with FixedSecureRandom(m) agree.
    JsonNode kp = keypair(bc, "ml-kem-768");
    String det =
        out(oneCase(lw, "ml-kem-768", "encaps", "public", kp.get("public").asText(), "m", m), "lw");
    assertEquals(
        det,
        out(oneCase(lw, "ml-kem-768", "encaps", "public", kp.get("public").asText(), "m", m), "lw"),
        "derandomised encapsulation is deterministic");
    assertEquals(
        det,
        out(oneCase(bc, "ml-kem-768", "encaps", "public", kp.get("public").asText(), "m", m), "bc"),
        "derandomised encapsulation: JCA and lightweight agree");
    assertEquals(1088 * 2 + 64, det.length());
    JsonNode r;
    // A context for an algorithm without one; deterministic ECDSA; keygen from a seed for RSA.
    JsonNode ed = keypair(jca, "ed25519");
    r =
        oneCase(
            jca, "ed25519", "sign", "private", ed.get("private").asText(), "msg", MSG, "ctx", "01");
    assertTrue(r.has("unsupported"), r.toString());
    r =
        deterministicSign(
            lw, "ecdsa-p256", keypair(lw, "ecdsa-p256").get("private").asText(), null);
    assertTrue(r.has("unsupported"), r.toString());
    r = oneCase(jca, "rsa-2048", "keygen", "seed", m);
    assertTrue(r.has("unsupported"), r.toString());
    // Deterministic ML-DSA signing is deterministic in both BouncyCastle APIs, and they agree.
    JsonNode dsa = keypair(lw, "ml-dsa-44");
    String[] sigs = new String[2];
    int i = 0;
    for (Protocol d : new Protocol[] {lw, bc}) {
      JsonNode res = deterministicSign(d, "ml-dsa-44", dsa.get("private").asText(), "0102");
      sigs[i++] = out(res, "deterministic ML-DSA");
    }
    assertEquals(sigs[0], sigs[1], "deterministic ML-DSA: lightweight and JCA agree");
    // Hedged signing differs from one signature to the next.
    String h1 =
        out(
            oneCase(lw, "ml-dsa-44", "sign", "private", dsa.get("private").asText(), "msg", MSG),
            "");
    String h2 =
        out(
            oneCase(lw, "ml-dsa-44", "sign", "private", dsa.get("private").asText(), "msg", MSG),
            "");
    assertNotEquals(h1, h2, "hedged ML-DSA signatures differ");
  }

  /**
   * The 2026 post-quantum variants in both BouncyCastle APIs: deterministic SLH-DSA (opt_rand =
   * PK.seed) is deterministic and the same in both, hedged signatures differ, SLH-DSA and X-Wing
   * keys come back from their seeds, X-Wing encapsulates derandomised, and the variants the library
   * lacks answer unsupported.
   */
  @Test
  void postQuantumVariants() throws Exception {
    Protocol bc = BenchTest.driver("java:bouncycastle");
    Protocol lw = BenchTest.driver("java:bouncycastle-lw");
    String alg = "slh-dsa-sha2-128f";
    JsonNode slh = keypair(lw, alg);
    String priv = slh.get("private").asText();
    String[] sigs = new String[3];
    int i = 0;
    for (Protocol d : new Protocol[] {lw, bc, lw}) {
      sigs[i++] = out(deterministicSign(d, alg, priv, "0102"), "deterministic SLH-DSA");
    }
    assertEquals(sigs[0], sigs[1], "deterministic SLH-DSA: lightweight and JCA agree");
    assertEquals(sigs[0], sigs[2], "deterministic SLH-DSA is deterministic");
    assertVerifiesWithContext(bc, alg, slh.get("public").asText(), sigs[0], "0102");
    String h1 = out(oneCase(bc, alg, "sign", "private", priv, "msg", MSG), "hedged");
    String h2 = out(oneCase(bc, alg, "sign", "private", priv, "msg", MSG), "hedged");
    assertNotEquals(h1, h2, "hedged SLH-DSA signatures differ");
    // SK.seed || SK.prf || PK.seed (the first 3n of the 4n private key) gives the public key.
    String seed = priv.substring(0, 3 * 16 * 2);
    for (Protocol d : new Protocol[] {lw, bc}) {
      assertEquals(
          slh.get("public").asText(), out(oneCase(d, alg, "keygen", "seed", seed), "SLH keygen"));
    }
    // X-Wing's private key is its seed; derandomised encapsulation with the 64-byte eseed is
    // deterministic, the same in both APIs, and decapsulates to its key.
    JsonNode xw = keypair(bc, "x-wing");
    String eseed = Input.hex(Input.message(7, 64));
    String[] encs = new String[3];
    i = 0;
    for (Protocol d : new Protocol[] {lw, bc, lw}) {
      assertEquals(
          xw.get("public").asText(),
          out(oneCase(d, "x-wing", "keygen", "seed", xw.get("private").asText()), "X-Wing keygen"));
      encs[i++] =
          out(
              oneCase(d, "x-wing", "encaps", "public", xw.get("public").asText(), "m", eseed),
              "X-Wing derandomised encaps");
    }
    assertEquals(encs[0], encs[1], "derandomised X-Wing: lightweight and JCA agree");
    assertEquals(encs[0], encs[2], "derandomised X-Wing is deterministic");
    assertEquals((1120 + 32) * 2, encs[0].length());
    assertEquals(
        encs[0].substring(1120 * 2),
        out(
            oneCase(
                bc,
                "x-wing",
                "decaps",
                "private",
                xw.get("private").asText(),
                "msg",
                encs[0].substring(0, 1120 * 2)),
            "X-Wing decaps"));
    for (Protocol d : new Protocol[] {lw, bc}) {
      String hqcPub = keypair(d, "hqc-1").get("public").asText();
      JsonNode r = oneCase(d, "hqc-1", "encaps", "public", hqcPub, "m", eseed);
      assertTrue(r.has("unsupported"), "HQC derandomised encaps: " + r);
      r = oneCase(d, "hqc-1", "keygen", "seed", "00".repeat(32));
      assertTrue(r.has("unsupported"), "HQC keygen from a seed: " + r);
      JsonNode f = keypair(d, "falcon-512");
      r = deterministicSign(d, "falcon-512", f.get("private").asText(), null);
      assertTrue(r.has("unsupported"), "deterministic Falcon: " + r);
      r = oneCase(d, "falcon-512", "keygen", "seed", "00".repeat(48));
      assertTrue(r.has("unsupported"), "Falcon keygen from a seed: " + r);
    }
  }

  /**
   * X-Wing's first test vector of draft-connolly-cfrg-xwing-kem-06 (the one drivers/rust checks, as
   * the x-wing crate ships it), in both BouncyCastle APIs: the public key from the 32-byte seed,
   * the ciphertext and shared secret of the encapsulation with the eseed, the decapsulation. The
   * 1216-byte key and 1120-byte ciphertext are compared by their SHA-256.
   */
  @Test
  void xWingDraftVector() throws Exception {
    String sk = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
    String eseed =
        "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e2"
            + "35b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2";
    String ss = "d2df0522128f09dd8e2c92b1e905c793d8f57a54c3da25861f10bf4ca613e384";
    for (String id : List.of("java:bouncycastle", "java:bouncycastle-lw")) {
      Protocol d = BenchTest.driver(id);
      String pk = out(oneCase(d, "x-wing", "keygen", "seed", sk), id + " keygen");
      assertEquals(
          "2e816deebcd76c5c80d0cd2d174478871658e8e2ff42bc9d4a6e486372e856bb", sha256(pk), id);
      String e = out(oneCase(d, "x-wing", "encaps", "public", pk, "m", eseed), id + " encaps");
      String ct = e.substring(0, 2 * 1120);
      assertEquals(
          "17cd532d657e44c897ca6583e548a5424fc70bf54f99515a4d2bcf99e3469f33", sha256(ct), id);
      assertEquals(ss, e.substring(2 * 1120), id + ": the encapsulated key");
      assertEquals(
          ss, out(oneCase(d, "x-wing", "decaps", "private", sk, "msg", ct), id + " decaps"));
    }
  }

  private static String sha256(String hex) throws Exception {
    return Input.hex(
        java.security.MessageDigest.getInstance("SHA-256").digest(Input.unhex("x", hex)));
  }

  private static void assertVerifiesWithContext(
      Protocol d, String alg, String pub, String sig, String ctx) throws Exception {
    assertEquals(
        "01",
        out(
            oneCase(d, alg, "verify", "public", pub, "msg", MSG, "sig", sig, "ctx", ctx),
            alg + " with context"));
    JsonNode r = oneCase(d, alg, "verify", "public", pub, "msg", MSG, "sig", sig);
    assertTrue(r.path("rejected").asBoolean(), alg + ": another context must not verify: " + r);
  }

  @Test
  void malformedInputsAreRejectedNotErrors() throws Exception {
    for (String id : Provider.ids()) {
      Protocol d = BenchTest.driver(id);
      List<JsonNode> results = new ArrayList<>();
      results.add(oneCase(d, "ecdsa-p256", "verify", "public", "3000", "msg", MSG, "sig", "3000"));
      results.add(
          oneCase(d, "x25519", "derive", "private", "11".repeat(32), "public", "22".repeat(31)));
      results.add(oneCase(d, "ecdh-p256", "derive", "private", "00".repeat(32), "public", "30"));
      results.add(oneCase(d, "rsa-2048-oaep", "decrypt", "private", "3000", "msg", "00"));
      results.add(oneCase(d, "ed25519", "verify", "public", "00", "msg", MSG, "sig", "00"));
      if (!id.equals("java:jca")) {
        results.add(oneCase(d, "ml-kem-512", "decaps", "private", "00".repeat(64), "msg", "0102"));
        results.add(oneCase(d, "ml-kem-512", "keygen", "seed", "00".repeat(63)));
        results.add(
            oneCase(d, "ml-dsa-44", "verify", "public", "00".repeat(10), "msg", MSG, "sig", "00"));
        results.add(oneCase(d, "sm2", "sign", "private", "00".repeat(31), "msg", MSG));
        results.add(
            oneCase(
                d,
                "slh-dsa-sha2-128f",
                "verify",
                "public",
                "00".repeat(31),
                "msg",
                MSG,
                "sig",
                "00"));
        results.add(oneCase(d, "slh-dsa-sha2-128f", "keygen", "seed", "00".repeat(47)));
        // A Falcon-512 public key with a Falcon-1024 header byte.
        results.add(
            oneCase(
                d,
                "falcon-512",
                "verify",
                "public",
                "0a" + "00".repeat(896),
                "msg",
                MSG,
                "sig",
                "39" + "00".repeat(60)));
        results.add(oneCase(d, "hqc-1", "decaps", "private", "00".repeat(32), "msg", "0102"));
        results.add(oneCase(d, "x-wing", "keygen", "seed", "00".repeat(31)));
        results.add(oneCase(d, "x-wing", "encaps", "public", "00".repeat(1215)));
      }
      for (JsonNode r : results) {
        assertTrue(r.path("rejected").asBoolean() && !r.has("error"), id + ": " + r);
      }
    }
  }

  @Test
  void keypairOfASymmetricAlgorithmIsAnError() throws Exception {
    Protocol d = BenchTest.driver("java:bouncycastle");
    for (String alg : new String[] {"sha256", "aes-128-gcm", "md5"}) {
      ObjectNode req = JSON.createObjectNode();
      req.put("cmd", "keypair");
      req.put("alg", alg);
      JsonNode r = request(d, req);
      assertFalse(r.path("ok").asBoolean(), r.toString());
      assertFalse(r.path("error").asText().isEmpty(), r.toString());
    }
  }

  @Test
  void rsaKeygenWarmupIsCapped() throws Exception {
    Protocol d = BenchTest.driver("java:jca");
    ObjectNode req = benchRequest("rsa-2048", "keygen", 0);
    req.put("warmup_ns", 0);
    JsonNode first = request(d, req);
    assertTrue(first.path("ok").asBoolean(), first.toString());
    assertEquals(1, first.path("batch").asLong());
    assertEquals(Pk.RSA_KEYGEN_WARMUP, first.path("warmup").path("ops").asInt(), first.toString());
    JsonNode again = request(d, req);
    assertEquals(1, again.path("warmup").path("ops").asInt(), "later requests: " + again);
    assertEquals("capped", again.path("warmup").path("jit_stop").asText());
    // A long warmup_ns still stops at the cap.
    req.put("warmup_ns", 60_000_000_000L);
    JsonNode capped = request(d, req);
    assertEquals(
        Pk.RSA_KEYGEN_WARMUP, capped.path("warmup").path("ops").asInt(), capped.toString());
  }

  @Test
  void oaepMessageTooLongIsNotOfferedAtThisSize() throws Exception {
    Protocol d = BenchTest.driver("java:bouncycastle-lw");
    JsonNode r = request(d, benchRequest("rsa-2048-oaep", "encrypt", 191));
    assertTrue(r.path("error").asText().startsWith("not offered at this size"), r.toString());
    r = request(d, benchRequest("ed25519", "sign", 32).put("chunk", 16));
    assertTrue(r.path("error").asText().startsWith("not offered"), r.toString());
  }

  @Test
  void helloOffersPublicKeys() throws Exception {
    Map<String, List<String>> want =
        Map.of(
            "java:jca",
            List.of("rsa-2048", "rsa-4096-pss", "ecdsa-p384", "ecdh-p256", "ed448", "x448"),
            "java:bouncycastle",
            List.of(
                "ecdsa-secp256k1",
                "sm2",
                "ml-kem-1024",
                "ml-dsa-87",
                "sm4-gcm",
                "x25519",
                "slh-dsa-shake-256s",
                "falcon-1024",
                "hqc-5",
                "x-wing",
                "ascon-aead128",
                "ascon-xof128"),
            "java:bouncycastle-lw",
            List.of(
                "ecdh-secp256k1",
                "sm2",
                "ml-kem-512",
                "ml-dsa-44",
                "sm4-ctr",
                "rsa-3072-oaep",
                "slh-dsa-sha2-192s",
                "falcon-512",
                "hqc-3",
                "x-wing",
                "ascon-hash256",
                "sphincs-shake-256s-simple"));
    for (Map.Entry<String, List<String>> e : want.entrySet()) {
      JsonNode h =
          JSON.readTree(
              BenchTest.driver(e.getKey()).handleLine("{\"cmd\":\"hello\",\"protocol\":2}").line());
      assertEquals(Protocol.VERSION, h.path("protocol").asInt());
      for (String alg : e.getValue()) {
        assertTrue(h.path("offers").has(alg), e.getKey() + " lacks " + alg);
      }
      // The operations of cryptobench/core/algorithms.py.
      Map<String, List<String>> ops =
          Map.of(
              "rsa-2048", List.of("keygen"),
              "rsa-2048-pss", List.of("sign", "verify"),
              "rsa-2048-oaep", List.of("encrypt", "decrypt"),
              "ecdsa-p256", List.of("keygen", "sign", "verify"),
              "ecdh-p256", List.of("derive"),
              "x25519", List.of("keygen", "derive"),
              "ed25519", List.of("keygen", "sign", "verify"));
      for (Map.Entry<String, List<String>> o : ops.entrySet()) {
        assertEquals(
            o.getValue(),
            JSON.convertValue(h.path("offers").path(o.getKey()), List.class),
            e.getKey() + " " + o.getKey());
      }
      if (!e.getKey().equals("java:jca")) {
        assertEquals(
            List.of("keygen", "encaps", "decaps"),
            JSON.convertValue(h.path("offers").path("ml-kem-768"), List.class));
        assertEquals(
            List.of("keygen", "sign", "verify"),
            JSON.convertValue(h.path("offers").path("ml-dsa-65"), List.class));
        for (String pq : List.of("slh-dsa-sha2-128s", "falcon-512")) {
          assertEquals(
              List.of("keygen", "sign", "verify"),
              JSON.convertValue(h.path("offers").path(pq), List.class));
        }
        for (String pq : List.of("hqc-1", "x-wing")) {
          assertEquals(
              List.of("keygen", "encaps", "decaps"),
              JSON.convertValue(h.path("offers").path(pq), List.class));
        }
        // bcprov has no KEM for the TLS 1.3 hybrid key shares.
        assertFalse(h.path("offers").has("x25519mlkem768"), e.getKey());
      }
      assertFalse(h.path("stream").toString().contains("rsa"), "public keys are never streamed");
    }
  }
}
