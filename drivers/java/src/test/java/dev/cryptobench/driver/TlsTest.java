package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * java:jsse's TLS 1.3 cells: a bench of each op on a full and a resumed cell with the test PKI the
 * orchestrator makes (cryptobench.verify.tls_pki), the untimed handshake's report, errors, and
 * interop between a serving and a connecting driver over loopback.
 */
class TlsTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String NAME = "server.cryptobench.test";
  static Path pki;

  @BeforeAll
  static void makePki() throws Exception {
    Path repo = Path.of("").toAbsolutePath().getParent().getParent();
    Path venv = repo.resolve(".venv/bin/python");
    String python =
        System.getenv()
            .getOrDefault("CRYPTOBENCH_PYTHON", Files.exists(venv) ? venv.toString() : "python3");
    pki = Files.createTempDirectory("cb-java-tls-");
    Process p =
        new ProcessBuilder(python, "-m", "cryptobench.verify.tls_pki", pki.toString())
            .directory(repo.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), "tls_pki: " + out);
  }

  @AfterAll
  static void removePki() throws Exception {
    try (var files = Files.walk(pki)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  static String pkiJson(String auth, boolean server) {
    Path d = pki.resolve(auth);
    return "{"
        + (server
            ? "\"chain\":\""
                + d.resolve("chain.pem")
                + "\",\"key\":\""
                + d.resolve("leaf.key")
                + "\","
            : "")
        + "\"ca\":\""
        + d.resolve("root.pem")
        + "\",\"server_name\":\""
        + NAME
        + "\"}";
  }

  static JsonNode ask(Protocol d, String line) throws Exception {
    return JSON.readTree(d.handleLine(line).line());
  }

  static String bench(String alg, String op, String auth) {
    return "{\"cmd\":\"bench\",\"alg\":\""
        + alg
        + "\",\"op\":\""
        + op
        + "\",\"size\":0,\"seed\":1,\"batch\":0,\"target_ns\":2000000,\"warmup_ns\":1000000,"
        + "\"samples\":2,\"tls\":"
        + pkiJson(auth, true)
        + "}";
  }

  @Test
  void helloOffersTheClassicalCells() throws Exception {
    Protocol d = BenchTest.driver(JsseTls.ID);
    JsonNode h = ask(d, "{\"cmd\":\"hello\",\"protocol\":7}");
    assertEquals(7, h.path("protocol").asInt());
    assertTrue(h.path("offers").has("tls13-x25519-ecdsa-p256"), h.toString());
    assertTrue(h.path("offers").has("tls13-p256-ed25519-resume"), h.toString());
    assertFalse(h.path("offers").has("tls13-x25519mlkem768-ecdsa-p256"), "no hybrids in Java 17");
    JsonNode other = ask(BenchTest.driver("java:jca"), "{\"cmd\":\"tls-result\"}");
    assertTrue(other.path("error").asText().startsWith("not offered: "), other.toString());
  }

  @Test
  void benchFullAndResumed() throws Exception {
    Protocol d = BenchTest.driver(JsseTls.ID);
    for (String alg : List.of("tls13-x25519-ecdsa-p256", "tls13-p256-rsa-2048-resume")) {
      boolean resume = alg.endsWith("-resume");
      for (String op : List.of("handshake", "client", "server")) {
        JsonNode r = ask(d, bench(alg, op, resume ? "rsa-2048" : "ecdsa-p256"));
        assertTrue(r.path("ok").asBoolean(), alg + " " + op + ": " + r);
        assertNotEquals(r.path("checksum").asText(), r.path("checksum_after").asText());
        JsonNode t = r.path("tls");
        assertEquals(resume ? 0x17 : 0x1d, t.path("group").asInt(), r.toString());
        assertEquals(0x1301, t.path("cipher").asInt());
        assertTrue(t.path("sigalg").isNull());
        assertEquals(resume, t.path("resumed").asBoolean());
        assertEquals(1, t.path("round_trips").asInt());
        JsonNode f = t.path("flights");
        assertTrue(f.path("client_hello").asInt() > 200, f.toString());
        assertTrue(f.path("server_flight").asInt() > (resume ? 150 : 1000), f.toString());
        assertTrue(f.path("client_finished").asInt() > 50, f.toString());
        assertEquals(resume, f.path("tickets").asInt() > 0, f.toString());
        for (JsonNode s : r.path("samples_ns")) {
          assertTrue(s.asLong() > 0, r.toString());
        }
      }
    }
  }

  @Test
  void errors() throws Exception {
    Protocol d = BenchTest.driver(JsseTls.ID);
    JsonNode r =
        ask(
            d,
            "{\"cmd\":\"bench\",\"alg\":\"tls13-x25519-ed25519\",\"op\":\"handshake\",\"size\":0,"
                + "\"seed\":1,\"samples\":1}");
    assertEquals("tls: no PKI in the request", r.path("error").asText());
    JsonNode v =
        ask(
            d,
            "{\"cmd\":\"verify\",\"alg\":\"tls13-x25519-ed25519\",\"cases\":[{\"id\":\"1\","
                + "\"op\":\"handshake\"}]}");
    assertTrue(v.path("results").get(0).has("unsupported"), v.toString());
    String wrongRoot =
        bench("tls13-x25519-ed25519", "server", "ed25519")
            .replace(
                pki.resolve("ed25519/root.pem").toString(),
                pki.resolve("rsa-2048/root.pem").toString());
    r = ask(d, wrongRoot);
    assertFalse(r.path("ok").asBoolean(), "a chain the client cannot verify fails: " + r);
  }

  @Test
  void interopOverLoopback() throws Exception {
    Protocol server = BenchTest.driver(JsseTls.ID);
    Protocol client = BenchTest.driver(JsseTls.ID);
    for (String alg : List.of("tls13-x25519-ed25519", "tls13-x25519-ecdsa-p256-resume")) {
      String auth = alg.contains("ed25519") ? "ed25519" : "ecdsa-p256";
      int n = alg.endsWith("-resume") ? 2 : 1;
      JsonNode s =
          ask(
              server,
              "{\"cmd\":\"tls-serve\",\"alg\":\""
                  + alg
                  + "\",\"connections\":"
                  + n
                  + ",\"timeout_ms\":10000,\"tls\":"
                  + pkiJson(auth, true)
                  + "}");
      assertTrue(s.path("ok").asBoolean(), s.toString());
      JsonNode c =
          ask(
              client,
              "{\"cmd\":\"tls-connect\",\"alg\":\""
                  + alg
                  + "\",\"port\":"
                  + s.path("port").asInt()
                  + ",\"connections\":"
                  + n
                  + ",\"timeout_ms\":10000,\"tls\":"
                  + pkiJson(auth, false)
                  + "}");
      JsonNode r = ask(server, "{\"cmd\":\"tls-result\"}");
      assertTrue(c.path("ok").asBoolean(), c.toString());
      assertTrue(r.path("ok").asBoolean(), r.toString());
      for (int i = 0; i < n; i++) {
        for (JsonNode h : List.of(c.path("handshakes").get(i), r.path("handshakes").get(i))) {
          assertEquals(0x1d, h.path("group").asInt(), h.toString());
          assertEquals(0x1301, h.path("cipher").asInt(), h.toString());
          assertEquals(i > 0, h.path("resumed").asBoolean(), alg + " " + i + ": " + h);
          assertEquals(JsseTls.EXPORTER == null, h.path("exporter").isNull(), "Java 25 has one");
        }
        assertEquals(
            c.path("handshakes").get(i).path("exporter"),
            r.path("handshakes").get(i).path("exporter"));
      }
    }
    // A second tls-serve ends the first (its result is lost) and serves.
    String serve =
        "{\"cmd\":\"tls-serve\",\"alg\":\"tls13-x25519-ed25519\",\"connections\":1,"
            + "\"timeout_ms\":10000,\"tls\":"
            + pkiJson("ed25519", true)
            + "}";
    assertTrue(ask(server, serve).path("ok").asBoolean());
    int port = ask(server, serve).path("port").asInt();
    JsonNode c =
        ask(
            client,
            "{\"cmd\":\"tls-connect\",\"alg\":\"tls13-x25519-ed25519\",\"port\":"
                + port
                + ",\"connections\":1,\"timeout_ms\":10000,\"tls\":"
                + pkiJson("ed25519", false)
                + "}");
    assertTrue(c.path("ok").asBoolean(), c.toString());
    assertTrue(ask(server, "{\"cmd\":\"tls-result\"}").path("ok").asBoolean());
    JsonNode s =
        ask(
            server,
            "{\"cmd\":\"tls-serve\",\"alg\":\"tls13-p256-rsa-2048\",\"connections\":1,"
                + "\"timeout_ms\":200,\"tls\":"
                + pkiJson("rsa-2048", true)
                + "}");
    assertTrue(s.path("ok").asBoolean(), s.toString());
    JsonNode r = ask(server, "{\"cmd\":\"tls-result\"}");
    assertTrue(r.path("error").asText().startsWith("tls: "), r.toString());
  }
}
