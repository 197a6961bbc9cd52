package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * One small bench request per provider and offered algorithm/operation through the request handler,
 * checked against a one-shot computation by the case executor; streamed cells for every streamable
 * operation; errors; the process itself.
 */
class BenchTest {
  static final long SEED = 2654435769L;
  static final ObjectMapper JSON = new ObjectMapper();

  /** Test-only bound on the JIT warm-up: 3 rounds within 50%, at most 10 rounds or 10 ms. */
  static final Timing.JitPolicy FAST_JIT = new Timing.JitPolicy(3, 0.5, 10, 10_000_000L, 1);

  /** A driver for tests: the bounded JIT warm-up, no System.gc() per cell. */
  static Protocol driver(String id) {
    return new Protocol(Provider.create(id), FAST_JIT, false);
  }

  /** A key and an IV of the right lengths for an algorithm (hex). */
  static String[] keyIv(String alg) {
    int keyLen = 0;
    int ivLen = 0;
    if (alg.startsWith("aes-128-") || alg.startsWith("sm4-") || alg.equals("ascon-aead128")) {
      keyLen = 16;
    } else if (alg.startsWith("aes-256-")
        || alg.contains("chacha20")
        || alg.equals("hmac-sha256")) {
      keyLen = 32;
    }
    if (alg.endsWith("-cbc") || alg.endsWith("-ctr") || alg.equals("ascon-aead128")) {
      ivLen = 16;
    } else if (alg.startsWith("xchacha20")) {
      ivLen = 24;
    } else if (alg.endsWith("-gcm") || alg.endsWith("-ccm") || alg.startsWith("chacha20")) {
      ivLen = 12;
    }
    byte[] k = new byte[keyLen];
    for (int i = 0; i < keyLen; i++) {
      k[i] = (byte) (0x10 + i);
    }
    byte[] v = new byte[ivLen];
    for (int i = 0; i < ivLen; i++) {
      v[i] = (byte) (0xa0 + i);
    }
    return new String[] {Input.hex(k), Input.hex(v)};
  }

  static String benchLine(String alg, String op, String[] kv, long size, int chunk) {
    return String.format(
        "{\"cmd\":\"bench\",\"alg\":\"%s\",\"op\":\"%s\",\"size\":%d,\"chunk\":%d,\"key\":\"%s\","
            + "\"iv\":\"%s\",\"seed\":%d,\"batch\":0,\"target_ns\":100000,\"warmup_ns\":100000,"
            + "\"samples\":3}",
        alg, op, size, chunk, kv[0], kv[1], SEED);
  }

  static JsonNode doBench(Protocol d, String line) throws Exception {
    Protocol.Reply r = d.handleLine(line);
    assertFalse(r.quit(), "bench asked to quit");
    assertFalse(r.line().contains("\n"), "one line");
    return JSON.readTree(r.line());
  }

  /**
   * The checksum of one operation computed without the bench cell: the verify case executor for the
   * forward direction, the plaintext itself for decrypt/open.
   */
  static String expected(Provider.Alg a, String op, String[] kv, byte[] msg) {
    switch (op) {
      case "noop":
        return Input.checksum(new byte[0]);
      case "decrypt":
      case "open":
        return Input.checksum(msg);
      default:
        JsonNode r =
            Protocol.runCase(
                a, new Protocol.RawCase("x", op, kv[0], kv[1], "", Input.hex(msg), null));
        assertNotNull(r.get("out"), "executor: " + r);
        return Input.checksum(Input.unhex("out", r.get("out").asText()));
    }
  }

  static void checkOk(JsonNode r, String want, String what) {
    assertTrue(r.path("ok").asBoolean(), what + ": " + r.path("error").asText());
    assertEquals(3, r.get("samples_ns").size(), what + ": samples");
    for (JsonNode s : r.get("samples_ns")) {
      assertTrue(s.asLong() > 0, what + ": sample " + s);
    }
    assertTrue(r.path("batch").asLong() > 0, what + ": batch");
    assertEquals(want, r.path("checksum").asText(), what + ": checksum vs one-shot computation");
    JsonNode w = r.get("warmup");
    assertTrue(
        r.has("sink")
            && w != null
            && w.path("ops").asLong() >= 1
            && w.path("jit_rounds").asInt() >= 1
            && w.has("jit_stable")
            && w.has("jit_stop")
            && w.has("cell_ops")
            && r.path("peak_rss_kb").asLong() > 0,
        what + ": incomplete response " + r);
  }

  /** One algorithm of a provider, and the protocol handler of that provider (one per provider). */
  record Offer(String id, Protocol d, Provider.Alg a) {}

  /** Every algorithm of every provider of primitives this driver serves. */
  static List<Offer> everyAlg() {
    List<Offer> all = new ArrayList<>();
    for (String id : Provider.ids()) {
      Provider p = Provider.create(id);
      Protocol d = new Protocol(p, FAST_JIT, false);
      for (Provider.Alg a : p.algs()) {
        all.add(new Offer(id, d, a));
      }
    }
    return all;
  }

  @TestFactory
  Stream<DynamicTest> everyOffer() {
    List<DynamicTest> tests = new ArrayList<>();
    byte[] msg = Input.message((int) SEED, 1024);
    for (Offer o : everyAlg()) {
      Provider.Alg a = o.a();
      Protocol d = o.d();
      if (a.publicKey()) {
        continue; // PkTest
      }
      for (String op : a.ops()) {
        tests.add(
            DynamicTest.dynamicTest(
                o.id() + " " + a.name() + " " + op,
                () -> {
                  String[] kv = keyIv(a.name());
                  String want = expected(a, op, kv, msg);
                  List<Integer> chunks = new ArrayList<>(List.of(0));
                  if (a.streamOps().contains(op)) {
                    chunks.addAll(List.of(48, 1000, 4096));
                  }
                  for (int chunk : chunks) {
                    checkOk(
                        doBench(d, benchLine(a.name(), op, kv, 1024, chunk)),
                        want,
                        "chunk " + chunk);
                  }
                  if (!a.streamOps().contains(op)) {
                    JsonNode r = doBench(d, benchLine(a.name(), op, kv, 1024, 64));
                    assertFalse(r.path("ok").asBoolean(), "chunk on a one-shot op: " + r);
                    assertTrue(
                        r.path("error").asText().startsWith("not offered: "),
                        "chunk on a one-shot op: " + r);
                  }
                }));
      }
    }
    return tests.stream();
  }

  @Test
  void knownChecksums() throws Exception {
    for (String id : Provider.ids()) {
      Protocol d = driver(id);
      JsonNode r = doBench(d, benchLine("sha256", "hash", new String[] {"", ""}, 1024, 0));
      assertEquals("00000020:fb4898be6151a393", r.path("checksum").asText(), id + ": " + r);
      r =
          doBench(
              d,
              "{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,\"seed\":1,"
                  + "\"batch\":7,\"samples\":2}");
      assertTrue(r.path("ok").asBoolean(), id + ": " + r);
      assertEquals(7, r.path("batch").asLong(), "a given batch is kept");
      assertEquals("00000000:cbf29ce484222325", r.path("checksum").asText());
    }
  }

  /**
   * Sizes with odd tails, one-shot and streamed; streamed also across the 1 MiB period (pieces of
   * 1000 bytes straddle it; the one-shot message's wrap is InputTest's).
   */
  @TestFactory
  Stream<DynamicTest> oddSizes() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Offer o : everyAlg()) {
      Provider.Alg a = o.a();
      Protocol d = o.d();
      String n = a.name();
      if (n.endsWith("-ecb") || n.endsWith("-cbc") || n.equals("noop") || a.publicKey()) {
        continue;
      }
      tests.add(
          DynamicTest.dynamicTest(
              o.id() + " " + n,
              () -> {
                for (long size : new long[] {0, 1, 4099, (1 << 20) + 3}) {
                  byte[] msg = Input.message((int) SEED, (int) size);
                  for (String op : a.ops()) {
                    String[] kv = keyIv(n);
                    String want = expected(a, op, kv, msg);
                    if (size < 1 << 20) {
                      checkOk(doBench(d, benchLine(n, op, kv, size, 0)), want, op + " " + size);
                    }
                    if (a.streamOps().contains(op)) {
                      checkOk(
                          doBench(d, benchLine(n, op, kv, size, 1000)),
                          want,
                          op + " " + size + " chunk 1000");
                    }
                  }
                }
              }));
    }
    return tests.stream();
  }

  /**
   * Streamed ciphers keep memory bounded: at no point does the library hold back more than a few
   * blocks of input. And the operations left out of streamOps really do buffer the whole message.
   */
  @TestFactory
  Stream<DynamicTest> streamingHoldsBackLittle() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Offer o : everyAlg()) {
      String id = o.id();
      Provider.Alg a = o.a();
      for (String op : a.ops()) {
        if (op.equals("hash") || op.equals("mac") || op.equals("noop") || a.publicKey()) {
          continue; // a digest's state is fixed-size
        }
        boolean streamed = a.streamOps().contains(op);
        tests.add(
            DynamicTest.dynamicTest(
                id + " " + a.name() + " " + op,
                () -> {
                  String[] kv = keyIv(a.name());
                  long size = 64 * 1024;
                  Provider.Cell c =
                      a.cells()
                          .make(
                              new Provider.CellParams(
                                  op,
                                  Input.unhex("key", kv[0]),
                                  Input.unhex("iv", kv[1]),
                                  (int) SEED,
                                  size,
                                  1000));
                  try {
                    c.checksum();
                  } catch (java.security.GeneralSecurityException
                      | org.bouncycastle.crypto.DataLengthException e) {
                    // A buffering library emits the whole output at doFinal, which does not
                    // fit the piece-sized buffer: that too says it held everything back.
                    assertFalse(streamed, "streamed op failed: " + e);
                  }
                  if (streamed && c.memoryReport() != null) {
                    // streamed, but the library holds the input (SunJCE's GCM and
                    // ChaCha20-Poly1305 decryption): the cell says so, with the measured figure
                    assertTrue(
                        c.maxHeld >= size / 2
                            && c.memoryReport().get("library_held_bytes").asLong() == c.maxHeld,
                        "said it buffers but held back " + c.maxHeld + " bytes");
                  } else if (streamed) {
                    assertTrue(
                        c.maxHeld >= 0 && c.maxHeld <= 128, "held back " + c.maxHeld + " bytes");
                  } else {
                    assertTrue(
                        c.maxHeld >= size / 2,
                        "left out of stream but held back only " + c.maxHeld + " bytes");
                  }
                }));
      }
    }
    return tests.stream();
  }

  @Test
  void errorsKeepTheDriverAlive() throws Exception {
    String k16 = "00".repeat(16);
    String k32 = "00".repeat(32);
    String iv16 = "00".repeat(16);
    String iv12 = "00".repeat(12);
    Map<String, String> common = new LinkedHashMap<>();
    common.put("unparseable", "{\"cmd\":");
    common.put("not an object", "[1,2]");
    common.put("no cmd", "{\"alg\":\"sha256\"}");
    common.put("cmd not a string", "{\"cmd\":7}");
    common.put("unknown cmd", "{\"cmd\":\"dance\"}");
    common.put("trailing data", "{\"cmd\":\"hello\"} {}");
    common.put("unknown alg", benchLine("md5", "hash", new String[] {"", ""}, 16, 0));
    common.put("unknown op", benchLine("sha256", "encrypt", new String[] {"", ""}, 16, 0));
    common.put("ecb size", benchLine("aes-128-ecb", "encrypt", new String[] {k16, ""}, 17, 0));
    common.put("cbc size", benchLine("aes-128-cbc", "decrypt", new String[] {k16, iv16}, 1000, 0));
    common.put("bad hex key", benchLine("aes-128-gcm", "seal", new String[] {"xyz", iv12}, 16, 0));
    common.put("bad key length", benchLine("aes-128-gcm", "seal", new String[] {k32, iv12}, 16, 0));
    common.put(
        "bad nonce length",
        benchLine("chacha20-poly1305", "seal", new String[] {k32, iv16}, 16, 0));
    common.put(
        "bad iv length", benchLine("aes-256-ctr", "encrypt", new String[] {k32, iv12}, 16, 0));
    common.put(
        "chunk too big", benchLine("sha256", "hash", new String[] {"", ""}, 16, (1 << 20) + 1));
    common.put(
        "size not an integer",
        "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":1.5,\"seed\":1,"
            + "\"samples\":1}");
    common.put(
        "zero seed",
        "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"seed\":0,"
            + "\"samples\":1}");
    common.put(
        "no samples",
        "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":16,\"seed\":1}");
    common.put(
        "negative size",
        "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":-1,\"seed\":1,"
            + "\"samples\":1}");
    common.put(
        "huge one-shot",
        "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":4294967296,\"seed\":1,"
            + "\"samples\":1}");
    common.put("verify unknown", "{\"cmd\":\"verify\",\"alg\":\"md5\",\"cases\":[]}");
    common.put("cases not an array", "{\"cmd\":\"verify\",\"alg\":\"sha256\",\"cases\":{}}");
    common.put("protocol too old", "{\"cmd\":\"hello\",\"protocol\":0}");

    Map<String, Map<String, String>> perProvider = new LinkedHashMap<>();
    perProvider.put(
        "java:jca",
        Map.of(
            "ccm not offered", benchLine("aes-128-ccm", "seal", new String[] {k16, iv12}, 16, 0)));
    perProvider.put(
        "java:bouncycastle",
        Map.of(
            "streamed ccm", benchLine("aes-128-ccm", "seal", new String[] {k16, iv12}, 1024, 64)));
    perProvider.put(
        "java:bouncycastle-lw",
        Map.of(
            "streamed ccm", benchLine("aes-128-ccm", "open", new String[] {k16, iv12}, 1024, 64)));

    for (String id : Provider.ids()) {
      Protocol d = driver(id);
      Map<String, String> bad = new LinkedHashMap<>(common);
      bad.putAll(perProvider.get(id));
      for (Map.Entry<String, String> e : bad.entrySet()) {
        Protocol.Reply r = d.handleLine(e.getValue());
        assertFalse(r.quit(), e.getKey());
        JsonNode j = JSON.readTree(r.line());
        assertTrue(
            j.has("ok") && !j.get("ok").asBoolean() && !j.path("error").asText().isEmpty(),
            e.getKey() + ": want an error, got " + r.line());
        assertFalse(r.line().contains("\n"), e.getKey());
        System.err.println(id + " " + e.getKey() + ": " + j.get("error").asText());
      }
      String hello = d.handleLine("{\"cmd\":\"hello\",\"protocol\":1}").line();
      assertTrue(
          hello.startsWith(
              "{\"ok\":true,\"protocol\":" + Protocol.VERSION + ",\"provider\":\"" + id + "\""),
          hello);
      Protocol.Reply bye = d.handleLine("{\"cmd\":\"bye\"}");
      assertEquals("{\"ok\":true}", bye.line());
      assertTrue(bye.quit());
    }
  }

  @Test
  void notOfferedErrorsSayNotOffered() throws Exception {
    Protocol d = driver("java:jca");
    JsonNode r =
        doBench(
            d,
            benchLine(
                "aes-128-ccm", "seal", new String[] {"00".repeat(16), "00".repeat(12)}, 1024, 0));
    assertTrue(r.path("error").asText().startsWith("not offered: "), r.toString());
    // a streamed open SunJCE holds whole is served, and the response says so: the ciphertext and
    // tag (1024 + 16 bytes) held until doFinal
    r =
        doBench(
            d,
            benchLine(
                "aes-128-gcm", "open", new String[] {"00".repeat(16), "00".repeat(12)}, 1024, 64));
    assertTrue(r.path("ok").asBoolean(), r.toString());
    assertEquals(1040, r.path("memory").path("library_held_bytes").asLong(), r.toString());
    assertTrue(r.path("memory").path("why").asText().contains("doFinal"), r.toString());
    r =
        doBench(
            d,
            "{\"cmd\":\"bench\",\"alg\":\"sha256\",\"op\":\"hash\",\"size\":4294967296,\"seed\":1,"
                + "\"samples\":1}");
    assertTrue(r.path("error").asText().startsWith("not offered at this size: "), r.toString());
  }

  @Test
  void helloDescribesTheProvider() throws Exception {
    for (String id : Provider.ids()) {
      Protocol d = driver(id);
      JsonNode h = JSON.readTree(d.handleLine("{\"cmd\":\"hello\",\"protocol\":1}").line());
      assertEquals(id, h.path("provider").asText());
      assertEquals("java", h.path("language").asText());
      assertTrue(h.path("clock").path("resolution_ns").asLong() > 0, h.toString());
      assertTrue(h.path("runtime").asText().contains("flags"), h.toString());
      assertTrue(h.path("offers").has("noop") && h.path("offers").has("sha256"), h.toString());
      for (JsonNode s : h.get("stream")) {
        assertTrue(h.path("offers").has(s.asText()), "streamed but not offered: " + s);
      }
      String notes = h.get("notes").toString();
      assertTrue(notes.contains("JIT warm-up"), notes);
    }
    // Any version >= 1 gets this driver's highest version back (every version since 1 only adds).
    for (int asked : new int[] {1, 2, 3}) {
      JsonNode v =
          JSON.readTree(
              driver("java:jca")
                  .handleLine("{\"cmd\":\"hello\",\"protocol\":" + asked + "}")
                  .line());
      assertTrue(v.path("ok").asBoolean(), v.toString());
      assertEquals(Protocol.VERSION, v.path("protocol").asInt());
    }
    JsonNode jca = JSON.readTree(driver("java:jca").handleLine("{\"cmd\":\"hello\"}").line());
    for (String absent :
        List.of(
            "blake2b-512",
            "sm3",
            "sm4-gcm",
            "aes-128-ccm",
            "xchacha20-poly1305",
            "ecdsa-secp256k1",
            "ecdh-secp256k1",
            "sm2",
            "ml-kem-768",
            "ml-dsa-65")) {
      assertFalse(jca.path("offers").has(absent), "java:jca offers " + absent);
    }
    for (String present : List.of("rsa-2048", "ecdsa-p256", "ed448", "x448", "rsa-4096-oaep")) {
      assertTrue(jca.path("offers").has(present), "java:jca lacks " + present);
    }
  }

  @Test
  void serveLongLinesAndEndOfInput() throws Exception {
    Protocol d = driver("java:jca");
    String msg = "ab".repeat(3 << 20); // a 6 MB line
    String in =
        "{\"cmd\":\"verify\",\"alg\":\"sha256\",\"cases\":[{\"id\":\"big\",\"op\":\"hash\","
            + "\"msg\":\""
            + msg
            + "\"}]}\n\n"
            + "{\"cmd\":\"hello\",\"protocol\":1}"; // no final newline, then EOF
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Main.serve(d, new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out);
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(2, lines.length, out.toString(StandardCharsets.UTF_8));
    assertTrue(lines[0].contains("\"id\":\"big\",\"out\":\""), lines[0]);
    assertTrue(lines[1].contains("\"provider\":\"java:jca\""), lines[1]);
  }

  // ---- the process ---------------------------------------------------------------------------

  static Process start(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:+DisplayVMOutputToStderr");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).start();
  }

  @Test
  void unknownProviderExitsWithCode2() throws Exception {
    Process p = start("--provider", "java:nope");
    p.getOutputStream().close();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue());
    assertEquals(0, p.getInputStream().readAllBytes().length, "nothing on stdout");
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, err.strip().lines().count(), err);
    assertTrue(err.contains("java:nope") && err.contains("java:jca"), err);
  }

  @Test
  void stdoutCarriesOnlyProtocolLines() throws Exception {
    for (String id : Provider.ids()) {
      Process p = start("--provider", id);
      p.getOutputStream()
          .write(
              ("{\"cmd\":\"hello\",\"protocol\":1}\n"
                      + "{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,\"seed\":1,"
                      + "\"batch\":5,\"samples\":1}\n"
                      + "{\"cmd\":\"bye\"}\n")
                  .getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().flush();
      byte[] out = p.getInputStream().readAllBytes();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes()));
      String[] lines = new String(out, StandardCharsets.UTF_8).split("\n", -1);
      assertEquals(4, lines.length, "three lines and the final newline: " + List.of(lines));
      assertEquals("", lines[3]);
      for (int i = 0; i < 3; i++) {
        assertTrue(JSON.readTree(lines[i]).path("ok").asBoolean(), lines[i]);
      }
    }
  }

  @Test
  void casesDirectoryMissingIsAFailureNamingTheCommand() {
    // The vector test's loader names the export command when the directory is absent.
    Path missing = Path.of("does-not-exist-" + System.nanoTime());
    assertFalse(Files.exists(missing));
    try {
      VectorsTest.loadCases(missing.resolve("sha256.jsonl"));
      fail("loading a missing file did not fail");
    } catch (AssertionError e) {
      assertTrue(e.getMessage().contains("cryptobench.verify.vectors.export"), e.getMessage());
    } catch (Exception e) {
      fail(e);
    }
  }

  /** The check values of docs/protocol.md ("The measurement loop") every driver reproduces. */
  @Test
  void measurementLoopCheckValues() throws Exception {
    for (String id : Provider.ids()) {
      Protocol d = driver(id);
      String noop =
          "{\"cmd\":\"bench\",\"alg\":\"noop\",\"op\":\"noop\",\"size\":0,\"seed\":2654435769,";
      JsonNode r =
          JSON.readTree(
              d.handleLine(noop + "\"batch\":0,\"target_ns\":0,\"warmup_ns\":0,\"samples\":3}")
                  .line());
      assertEquals(1, r.path("batch").asLong(), id + " " + r);
      assertEquals(1, r.path("warmup").path("ops").asLong(), id + ": one warm-up operation");
      assertEquals(1, r.path("warmup").path("calibration_ops").asLong(), id);
      assertEquals(3, r.path("samples_ns").size(), id);
      assertEquals("00000000:cbf29ce484222325", r.path("checksum").asText(), id);
      assertEquals(r.path("checksum").asText(), r.path("checksum_after").asText(), id);
      r =
          JSON.readTree(
              d.handleLine(noop + "\"batch\":0,\"target_ns\":1000000,\"samples\":1}").line());
      long b = r.path("batch").asLong();
      assertEquals(1, Long.bitCount(b), id + ": batch " + b);
      assertEquals(2 * b - 1, r.path("warmup").path("calibration_ops").asLong(), id);
      r = JSON.readTree(d.handleLine(noop + "\"batch\":7,\"samples\":5}").line());
      assertEquals(7, r.path("batch").asLong(), id);
      assertEquals(5, r.path("samples_ns").size(), id);
      assertFalse(r.path("warmup").has("calibration_ops"), id);
      for (String line :
          List.of(
              "{\"cmd\":\"bench\",\"alg\":\"no-such-alg\",\"op\":\"hash\",\"size\":64,\"seed\":1,\"samples\":1}",
              noop + "\"op\":\"no-such-op\",\"samples\":1}")) {
        r = JSON.readTree(d.handleLine(line).line());
        assertTrue(
            r.path("error").asText().startsWith("not offered:"), id + ": " + line + " -> " + r);
      }
    }
  }

  /**
   * The leak request (since protocol 5): one time per order entry; a forged tag comes back
   * rejected.
   */
  @Test
  void leakTimesEachCallAndSaysWhichInputsWereRefused() throws Exception {
    Protocol d = driver("java:jca");
    String key = "00".repeat(16);
    String iv = "11".repeat(12);
    String sealed =
        Protocol.runCase(
                Provider.create("java:jca").alg("aes-128-gcm"),
                new Protocol.RawCase("s", "seal", key, iv, "", "22".repeat(32), null))
            .path("out")
            .asText();
    String forged =
        sealed.substring(0, sealed.length() - 2) + (sealed.endsWith("00") ? "01" : "00");
    String line =
        String.format(
            "{\"cmd\":\"leak\",\"alg\":\"aes-128-gcm\",\"op\":\"open\",\"order\":[1,0,1],"
                + "\"inputs\":[{\"key\":\"%s\",\"iv\":\"%s\",\"msg\":\"%s\"},"
                + "{\"key\":\"%s\",\"iv\":\"%s\",\"msg\":\"%s\"}]}",
            key, iv, sealed, key, iv, forged);
    JsonNode r = doBench(d, line);
    assertTrue(r.path("ok").asBoolean(), r.toString());
    assertEquals(3, r.path("times").size());
    assertEquals("[\"ok\",\"rejected\"]", r.path("outcomes").toString());
    JsonNode bad = doBench(d, line.replace("[1,0,1]", "[2]"));
    assertTrue(bad.path("error").asText().contains("order[0]"), bad.toString());
    JsonNode pk =
        doBench(
            d,
            "{\"cmd\":\"leak\",\"alg\":\"x25519\",\"op\":\"derive\",\"order\":[0],\"inputs\":[{}]}");
    // a public-key input is prepared before the first measurement (LeakTest): an empty key is
    // refused
    assertTrue(pk.path("error").asText().startsWith("input 0: "), pk.toString());
  }
}
