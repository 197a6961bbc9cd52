package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared vectors, exported per algorithm as build/cases/&lt;alg&gt;.jsonl, run through the
 * verify request of every provider and judged by protocol.md's appendix.
 */
class VectorsTest {
  static final String CASES_COMMAND =
      "cd <repo root> && python3 -m cryptobench.verify.vectors.export build/cases";
  static final ObjectMapper JSON = new ObjectMapper();

  static Path casesDir() {
    String env = System.getenv("CRYPTOBENCH_CASES");
    Path dir = Path.of(env == null || env.isEmpty() ? "../../build/cases" : env);
    if (!Files.isDirectory(dir)) {
      fail(
          "cases directory "
              + dir.toAbsolutePath().normalize()
              + " not found: create it with `"
              + CASES_COMMAND
              + "` (or point CRYPTOBENCH_CASES at it)");
    }
    return dir;
  }

  static List<ObjectNode> loadCases(Path path) throws IOException {
    if (!Files.exists(path)) {
      fail(path + " not found (re-create the cases with `" + CASES_COMMAND + "`)");
    }
    List<ObjectNode> cases = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(path)) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode c = JSON.readTree(line);
      if (!(c instanceof ObjectNode o)) {
        fail(path + ":" + n + ": not a JSON object");
        return cases;
      }
      cases.add(o);
    }
    return cases;
  }

  /** protocol.md's judging rules; null means the case passes (or was skipped as unsupported). */
  static String judge(JsonNode c, JsonNode r) {
    if (!c.path("id").asText().equals(r.path("id").asText())) {
      return "result id " + r.path("id") + " does not echo the case id";
    }
    if (r.has("error")) {
      return "error: " + r.get("error").asText();
    }
    if (r.has("unsupported")) {
      return null; // skipped, as the orchestrator counts it; at least one case must pass
    }
    boolean rejected = r.path("rejected").asBoolean(false);
    String out = r.has("out") ? r.get("out").asText() : null;
    String want = c.has("out") && !c.get("out").isNull() ? c.get("out").asText() : null;
    boolean matches =
        out != null
            && want != null
            && ("prefix".equals(c.path("cmp").asText()) ? out.startsWith(want) : out.equals(want));
    switch (c.path("expect").asText()) {
      case "valid":
        if (rejected) {
          return "rejected a valid case";
        }
        if (!matches) {
          return "out " + (out == null ? "<none>" : out) + " does not match the expected one";
        }
        return null;
      case "invalid":
        return !rejected && matches ? "accepted an invalid case" : null;
      case "acceptable":
        return null;
      default:
        return "unknown expect " + c.path("expect");
    }
  }

  /**
   * The answers an exported case carries beside its request (cryptobench/verify/vectors/case.py,
   * Case.to_export): the orchestrator sends a case without them.
   */
  static final List<String> ANSWER_FIELDS = List.of("expect", "cmp", "out");

  /**
   * Vectors the library itself gets wrong, pinned so that a JDK which fixes them makes this test
   * fail (then delete the entry): the driver reports the library's answer as it is, and the
   * orchestrator marks these provider/algorithm pairs failed and does not time them. SunEC of JDK
   * 17 accepts an ECDSA s encoded without its leading zero (Wycheproof "MissingZero", which names
   * the JDK), rejects valid ECDSA signatures whose x(kG) is at least n (x mod n is not taken), and
   * accepts an Ed25519 signature with a byte appended ("SignatureWithGarbage"). BouncyCastle 1.87's
   * HQC is an earlier 2025 revision than the reference v5.0.0 KATs (vectors/pqc-kat): from the same
   * seed_KEM it derives another key, so every decapsulation case differs (docs/pq-2026.md).
   */
  static final Map<String, Set<String>> KNOWN_LIBRARY_FAILURES =
      Map.of(
          "java:bouncycastle hqc-1",
          katDecaps("PQCkemKAT_2321.rsp"),
          "java:bouncycastle-lw hqc-1",
          katDecaps("PQCkemKAT_2321.rsp"),
          "java:bouncycastle hqc-3",
          katDecaps("PQCkemKAT_4602.rsp"),
          "java:bouncycastle-lw hqc-3",
          katDecaps("PQCkemKAT_4602.rsp"),
          "java:jca ecdsa-p256",
          Set.of(
              "wycheproof/ecdsa_secp256r1_sha256_test.json#6",
              "wycheproof/ecdsa_secp256r1_sha256_test.json#350",
              "wycheproof/ecdsa_secp256r1_sha256_test.json#479"),
          "java:jca ecdsa-p384",
          Set.of(
              "wycheproof/ecdsa_secp384r1_sha384_test.json#6",
              "wycheproof/ecdsa_secp384r1_sha384_test.json#382",
              "wycheproof/ecdsa_secp384r1_sha384_test.json#499"),
          "java:jca ed25519",
          Set.of("wycheproof/ed25519_test.json#37"));

  /** The 25 decapsulation cases of one vendored HQC KAT file. */
  private static Set<String> katDecaps(String file) {
    Set<String> ids = new TreeSet<>();
    for (int i = 0; i < 25; i++) {
      ids.add("pqc-kat/" + file + "#" + i + "/decaps");
    }
    return ids;
  }

  @TestFactory
  Stream<DynamicTest> everyCaseOfEveryOfferedAlgorithm() {
    Path dir = casesDir();
    List<DynamicTest> tests = new ArrayList<>();
    for (BenchTest.Offer o : BenchTest.everyAlg()) {
      String id = o.id();
      Provider.Alg a = o.a();
      Protocol d = o.d();
      if (a.name().equals("noop")) {
        continue; // no vectors for the empty operation
      }
      Path file = dir.resolve(a.name() + ".jsonl");
      if ((a.publicKey() || a.name().startsWith("ascon-")) && !Files.exists(file)) {
        // No shared vectors (ed448, x448, sm2, RSA 3072/4096 ...): PkTest's self- and
        // cross-checks cover them, as the orchestrator's cross-verification does. Ascon's
        // known answers (issue 32) are run when the exported cases have them.
        System.err.println(id + " " + a.name() + ": no vectors");
        continue;
      }
      Set<String> known = KNOWN_LIBRARY_FAILURES.getOrDefault(id + " " + a.name(), Set.of());
      tests.add(DynamicTest.dynamicTest(id + " " + a.name(), () -> verifyAll(d, a, file, known)));
    }
    return tests.stream();
  }

  private static void verifyAll(Protocol d, Provider.Alg a, Path file, Set<String> known)
      throws IOException {
    List<ObjectNode> cases = new ArrayList<>();
    for (ObjectNode c : loadCases(file)) {
      // As the orchestrator does: only cases of an operation the provider offers.
      if (a.offers(c.path("op").asText()) && !slow(a.name(), c)) {
        cases.add(c);
      }
    }
    assertFalse(cases.isEmpty(), "no cases for " + a.name());
    // Through the verify request, exactly as the orchestrator sends it (no answers).
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "verify");
    req.put("alg", a.name());
    ArrayNode raw = req.putArray("cases");
    for (ObjectNode c : cases) {
      raw.add(c.deepCopy().remove(ANSWER_FIELDS));
    }
    Protocol.Reply reply = d.handleLine(JSON.writeValueAsString(req));
    JsonNode resp = JSON.readTree(reply.line());
    assertTrue(resp.path("ok").asBoolean(), "verify failed: " + resp.path("error"));
    JsonNode results = resp.get("results");
    assertEquals(cases.size(), results.size(), "one result per case");
    List<String> failures = new ArrayList<>();
    Set<String> knownFailed = new TreeSet<>();
    Map<String, Integer> counts = new TreeMap<>();
    int passed = 0;
    for (int i = 0; i < cases.size(); i++) {
      String why = judge(cases.get(i), results.get(i));
      String caseId = cases.get(i).path("id").asText();
      if (why != null && known.contains(caseId)) {
        knownFailed.add(caseId);
      } else if (why != null) {
        failures.add(caseId + ": " + why);
      }
      String kind =
          results.get(i).has("unsupported")
              ? "unsupported " + cases.get(i).path("op").asText()
              : cases.get(i).path("op").asText() + " " + cases.get(i).path("expect").asText();
      counts.merge(kind, 1, Integer::sum);
      if (why == null && !results.get(i).has("unsupported")) {
        passed++;
      }
    }
    if (!failures.isEmpty()) {
      fail(
          failures.size()
              + " of "
              + cases.size()
              + " cases failed, first: "
              + String.join("; ", failures.subList(0, Math.min(5, failures.size()))));
    }
    assertEquals(
        new TreeSet<>(known),
        knownFailed,
        "the library's known failures changed: update KNOWN_LIBRARY_FAILURES");
    // every case a known library failure (BouncyCastle's HQC) still ran: only all-unsupported is
    // empty
    assertTrue(passed > 0 || !knownFailed.isEmpty(), "no case passed (all unsupported): " + counts);
    System.err.println(
        a.name()
            + ": "
            + cases.size()
            + " cases judged "
            + counts
            + (knownFailed.isEmpty() ? "" : ", known library failures " + knownFailed));
  }

  /**
   * SLH-DSA's "s" parameter sets sign in about a second and make a key in a tenth of one in
   * BouncyCastle: here only their verify cases run (keygen and sign cases of the six s sets would
   * cost most of this suite's time); `cryptobench verify` runs all of them before timing.
   */
  static boolean slow(String alg, JsonNode c) {
    String op = c.path("op").asText();
    return alg.matches("slh-dsa-.*-\\d+s") && (op.equals("sign") || op.equals("keygen"));
  }

  /** A tampered tag comes back as rejected, not as an error or an output. */
  @TestFactory
  Stream<DynamicTest> openRejectsATamperedTag() {
    List<DynamicTest> tests = new ArrayList<>();
    for (BenchTest.Offer o : BenchTest.everyAlg()) {
      Provider.Alg a = o.a();
      if (a.offers("open")) {
        tests.add(DynamicTest.dynamicTest(o.id() + " " + a.name(), () -> tamper(a)));
      }
    }
    return tests.stream();
  }

  private static void tamper(Provider.Alg a) {
    String[] kv = BenchTest.keyIv(a.name());
    JsonNode seal =
        Protocol.runCase(a, new Protocol.RawCase("s", "seal", kv[0], kv[1], "", "00112233", null));
    assertNotNull(seal.get("out"), "seal: " + seal);
    char[] ct = seal.get("out").asText().toCharArray();
    ct[ct.length - 1] = ct[ct.length - 1] == '0' ? '1' : '0';
    JsonNode r =
        Protocol.runCase(
            a, new Protocol.RawCase("o", "open", kv[0], kv[1], "", new String(ct), null));
    assertTrue(
        r.path("rejected").asBoolean() && !r.has("out") && !r.has("error"),
        "open of a tampered tag: " + r);
    r = Protocol.runCase(a, new Protocol.RawCase("k", "seal", "00", kv[1], "", "", null));
    assertTrue(r.has("error"), "seal with a 1-byte key: " + r);
    r = Protocol.runCase(a, new Protocol.RawCase("h", "seal", "zz", kv[1], "", "", null));
    assertTrue(r.has("error") && r.get("error").asText().contains("hex"), "bad hex: " + r);
  }
}
