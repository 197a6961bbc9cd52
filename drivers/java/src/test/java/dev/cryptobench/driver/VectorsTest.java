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
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared vectors, exported per algorithm as build/cases/&lt;alg&gt;.jsonl, run through the
 * verify request of every provider and judged by protocol.md's appendix.
 */
class VectorsTest {
  static final String CASES_COMMAND =
      "cd <repo root> && python3 -m cryptobench.vectors.export build/cases";
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

  /** protocol.md's judging rules; null means the case passes. */
  static String judge(JsonNode c, JsonNode r) {
    if (!c.path("id").asText().equals(r.path("id").asText())) {
      return "result id " + r.path("id") + " does not echo the case id";
    }
    if (r.has("error")) {
      return "error: " + r.get("error").asText();
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

  static final List<String> CASE_FIELDS = List.of("id", "op", "key", "iv", "counter", "aad", "msg");

  @TestFactory
  Stream<DynamicTest> everyCaseOfEveryOfferedAlgorithm() {
    Path dir = casesDir();
    List<DynamicTest> tests = new ArrayList<>();
    for (String id : Provider.ids()) {
      Provider p = Provider.create(id);
      Main d = new Main(p, BenchTest.FAST_JIT, false);
      for (Provider.Alg a : p.algs()) {
        if (a.name().equals("noop")) {
          continue; // no vectors for the empty operation
        }
        tests.add(
            DynamicTest.dynamicTest(
                id + " " + a.name(), () -> verifyAll(d, a, dir.resolve(a.name() + ".jsonl"))));
      }
    }
    return tests.stream();
  }

  private static void verifyAll(Main d, Provider.Alg a, Path file) throws IOException {
    List<ObjectNode> cases = loadCases(file);
    assertFalse(cases.isEmpty(), "no cases for " + a.name());
    // Through the verify request, exactly as the orchestrator sends it (no answers).
    ObjectNode req = JSON.createObjectNode();
    req.put("cmd", "verify");
    req.put("alg", a.name());
    ArrayNode raw = req.putArray("cases");
    for (ObjectNode c : cases) {
      ObjectNode stripped = raw.addObject();
      for (String f : CASE_FIELDS) {
        if (c.has(f)) {
          stripped.set(f, c.get(f));
        }
      }
    }
    Main.Reply reply = d.handleLine(JSON.writeValueAsString(req));
    JsonNode resp = JSON.readTree(reply.line());
    assertTrue(resp.path("ok").asBoolean(), "verify failed: " + resp.path("error"));
    JsonNode results = resp.get("results");
    assertEquals(cases.size(), results.size(), "one result per case");
    List<String> failures = new ArrayList<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < cases.size(); i++) {
      String why = judge(cases.get(i), results.get(i));
      if (why != null) {
        failures.add(cases.get(i).path("id").asText() + ": " + why);
      }
      counts.merge(cases.get(i).path("expect").asText(), 1, Integer::sum);
    }
    if (!failures.isEmpty()) {
      fail(
          failures.size()
              + " of "
              + cases.size()
              + " cases failed, first: "
              + String.join("; ", failures.subList(0, Math.min(5, failures.size()))));
    }
    System.err.println(a.name() + ": " + cases.size() + " cases judged " + counts);
  }

  /** A tampered tag comes back as rejected, not as an error or an output. */
  @TestFactory
  Stream<DynamicTest> openRejectsATamperedTag() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String id : Provider.ids()) {
      Provider p = Provider.create(id);
      for (Provider.Alg a : p.algs()) {
        if (!a.offers("open")) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest(id + " " + a.name(), () -> tamper(a)));
      }
    }
    return tests.stream();
  }

  private static void tamper(Provider.Alg a) {
    String[] kv = BenchTest.keyIv(a.name());
    JsonNode seal =
        Main.runCase(a, new Protocol.RawCase("s", "seal", kv[0], kv[1], "", "00112233", null));
    assertNotNull(seal.get("out"), "seal: " + seal);
    char[] ct = seal.get("out").asText().toCharArray();
    ct[ct.length - 1] = ct[ct.length - 1] == '0' ? '1' : '0';
    JsonNode r =
        Main.runCase(a, new Protocol.RawCase("o", "open", kv[0], kv[1], "", new String(ct), null));
    assertTrue(
        r.path("rejected").asBoolean() && !r.has("out") && !r.has("error"),
        "open of a tampered tag: " + r);
    r = Main.runCase(a, new Protocol.RawCase("k", "seal", "00", kv[1], "", "", null));
    assertTrue(r.has("error"), "seal with a 1-byte key: " + r);
    r = Main.runCase(a, new Protocol.RawCase("h", "seal", "zz", kv[1], "", "", null));
    assertTrue(r.has("error") && r.get("error").asText().contains("hex"), "bad hex: " + r);
  }
}
