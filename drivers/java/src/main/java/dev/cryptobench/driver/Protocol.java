package dev.cryptobench.driver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Protocol version 7 (docs/protocol.md): decoding requests, the dispatch of one request line to its
 * handler (hello, verify, keypair, bench, leak, tls-serve, tls-result, tls-connect, bye), the
 * handlers, encoding responses, and turning any error into {"ok":false,"error":...}. One instance
 * serves one provider; the stdin loop is {@link Main}'s.
 */
final class Protocol {
  /** The highest version this driver implements (hello answers with it). */
  static final int VERSION = 7;

  /** verify requests carry several MB of hex in one string: no length limit on strings. */
  private static final ObjectMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** A request the driver cannot serve as asked; the message becomes the error response. */
  static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
      super(message);
    }
  }

  /**
   * A verify case as it arrives (hex strings), decoded per case so one bad case stays one. The
   * public-key fields (since version 2): pub, priv, sig, seed ("" when absent), m and ctx (null
   * when absent), deterministic.
   */
  record RawCase(
      String id,
      String op,
      String key,
      String iv,
      String aad,
      String msg,
      Long counter,
      String pub,
      String priv,
      String sig,
      String seed,
      String m,
      String ctx,
      boolean deterministic) {
    /** A symmetric case. */
    RawCase(String id, String op, String key, String iv, String aad, String msg, Long counter) {
      this(id, op, key, iv, aad, msg, counter, "", "", "", "", null, null, false);
    }

    Provider.Case decode() {
      if (counter != null && (counter < 0 || counter > 0xffffffffL)) {
        throw new IllegalArgumentException("counter " + counter + " does not fit 32 bits");
      }
      return new Provider.Case(
          id,
          op,
          Input.unhex("key", key),
          Input.unhex("iv", iv),
          Input.unhex("aad", aad),
          Input.unhex("msg", msg),
          counter == null ? 0 : counter,
          Input.unhex("public", pub),
          Input.unhex("private", priv),
          Input.unhex("sig", sig),
          Input.unhex("seed", seed),
          m == null ? null : Input.unhex("m", m),
          ctx == null ? null : Input.unhex("ctx", ctx),
          deterministic);
    }
  }

  /** Parses one request line: a JSON object with a string "cmd". */
  static ObjectNode parse(String line) throws BadRequest {
    JsonNode n;
    try {
      n = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new BadRequest("cannot parse request: " + e.getOriginalMessage());
    }
    if (!(n instanceof ObjectNode o)) {
      throw new BadRequest("cannot parse request: not a JSON object");
    }
    JsonNode cmd = o.get("cmd");
    if (cmd == null || cmd.isNull() || (cmd.isTextual() && cmd.asText().isEmpty())) {
      throw new BadRequest("request has no \"cmd\"");
    }
    if (!cmd.isTextual()) {
      throw new BadRequest("\"cmd\" must be a string");
    }
    return o;
  }

  /** A string field; "" when absent or null. */
  static String text(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return "";
    }
    if (!v.isTextual()) {
      throw new BadRequest("\"" + field + "\" must be a string");
    }
    return v.asText();
  }

  /** An integer field; null when absent or null. */
  static Long integer(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new BadRequest("\"" + field + "\" must be an integer");
    }
    return v.asLong();
  }

  /** A string field that may be absent (null) as opposed to empty. */
  static String optionalText(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    return v == null || v.isNull() ? null : text(req, field);
  }

  /** A boolean field; false when absent or null. */
  static boolean bool(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw new BadRequest("\"" + field + "\" must be true or false");
    }
    return v.asBoolean();
  }

  static long integer(JsonNode req, String field, long absent) throws BadRequest {
    Long v = integer(req, field);
    return v == null ? absent : v;
  }

  /** The "cases" of a verify request. */
  static List<RawCase> cases(JsonNode req) throws BadRequest {
    return cases(req, "cases");
  }

  /** The case objects of array field {@code field} ("cases" of verify, "inputs" of leak). */
  static List<RawCase> cases(JsonNode req, String field) throws BadRequest {
    JsonNode cs = req.get(field);
    if (cs == null || cs.isNull()) {
      return List.of();
    }
    if (!cs.isArray()) {
      throw new BadRequest("\"" + field + "\" must be an array");
    }
    List<RawCase> out = new ArrayList<>(cs.size());
    for (JsonNode c : cs) {
      if (!c.isObject()) {
        throw new BadRequest("every case must be a JSON object");
      }
      out.add(
          new RawCase(
              text(c, "id"),
              text(c, "op"),
              text(c, "key"),
              text(c, "iv"),
              text(c, "aad"),
              text(c, "msg"),
              integer(c, "counter"),
              text(c, "public"),
              text(c, "private"),
              text(c, "sig"),
              text(c, "seed"),
              optionalText(c, "m"),
              optionalText(c, "ctx"),
              bool(c, "deterministic")));
    }
    return out;
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  static ArrayNode array() {
    return JSON.createArrayNode();
  }

  static ObjectNode ok() {
    ObjectNode n = object();
    n.put("ok", true);
    return n;
  }

  /** One response line (without the newline). */
  static String encode(ObjectNode resp) {
    try {
      return JSON.writeValueAsString(resp);
    } catch (JsonProcessingException e) {
      return error("cannot encode response: " + e.getOriginalMessage());
    }
  }

  static String error(String message) {
    ObjectNode n = object();
    n.put("ok", false);
    n.put("error", oneLine(message));
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      return "{\"ok\":false,\"error\":\"cannot encode error\"}";
    }
  }

  /** An exception as one line: our own messages as they are, a library's with its class name. */
  static String describe(Throwable e) {
    String m = e.getMessage();
    if (e instanceof BadRequest
        || e instanceof Provider.NotOffered
        || e instanceof Provider.Unsupported
        || e.getClass() == IllegalArgumentException.class) {
      return m == null ? e.getClass().getSimpleName() : m;
    }
    return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
  }

  /** Squeezes a message onto one line. */
  static String oneLine(String s) {
    String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
    return t.isEmpty() ? "error" : t;
  }

  // ---- the driver: state, dispatch and the request handlers ----------------------------------

  private final Provider prov;
  private final long resolutionNs;

  /** The calibration target when a bench request has none (protocol.md). */
  static final long DEFAULT_TARGET_NS = 5_000_000;

  private final Timing.JitPolicy jit;

  /**
   * Per cell (alg, op, size, chunk): operations run in this process so far, and whether its JIT
   * warm-up has ended stable (a warm-up cut short by its caps goes on in the next request). The
   * orchestrator asks for the same cell several times in a row; compiled code outlives the request.
   */
  private final java.util.Map<String, long[]> warmed = new java.util.HashMap<>();

  /** System.gc() once per cell before its warm-up (off only in tests, to keep them short). */
  private final boolean gcPerCell;

  /** Measures the clock resolution once, at start-up. */
  Protocol(Provider prov, Timing.JitPolicy jit, boolean gcPerCell) {
    this.prov = prov;
    this.jit = jit;
    this.gcPerCell = gcPerCell;
    this.resolutionNs = Timing.probeResolution();
  }

  Protocol(Provider prov) {
    this(prov, Timing.JitPolicy.fromSystemProperties(), true);
  }

  /** One response line (without the newline); quit after bye. */
  record Reply(String line, boolean quit) {}

  /** Answers one request line with one response line. Never throws. */
  Reply handleLine(String line) {
    try {
      ObjectNode req = Protocol.parse(line);
      String cmd = req.get("cmd").asText();
      return switch (cmd) {
        case "hello" -> new Reply(Protocol.encode(hello(req)), false);
        case "verify" -> new Reply(Protocol.encode(verify(req)), false);
        case "keypair" -> new Reply(Protocol.encode(keypair(req)), false);
        case "bench" -> new Reply(Protocol.encode(bench(req)), false);
        case "leak" -> new Reply(Protocol.encode(Leak.leak(lookup(req), req)), false);
        case "tls-serve", "tls-result", "tls-connect" ->
            new Reply(Protocol.encode(tls(req)), false);
        case "bye" -> new Reply(Protocol.encode(Protocol.ok()), true);
        default -> throw new Protocol.BadRequest("unknown cmd \"" + cmd + "\"");
      };
    } catch (OutOfMemoryError e) {
      return new Reply(
          Protocol.error(
              "out of memory (max heap "
                  + (Runtime.getRuntime().maxMemory() >> 20)
                  + " MiB): "
                  + e.getMessage()),
          false);
    } catch (Exception | Error e) {
      return new Reply(Protocol.error(Protocol.describe(e)), false);
    }
  }

  // ---- hello ---------------------------------------------------------------------------------

  ObjectNode hello(JsonNode req) throws Protocol.BadRequest {
    // The orchestrator names the highest version it speaks; any version >= 1 is accepted and the
    // driver answers with the highest it implements (every version since 1 only adds).
    Long version = Protocol.integer(req, "protocol");
    if (version != null && version < 1) {
      throw new Protocol.BadRequest(
          "protocol "
              + version
              + " not supported (this driver speaks 1 to "
              + Protocol.VERSION
              + ")");
    }
    ObjectNode r = Protocol.ok();
    r.put("protocol", Protocol.VERSION);
    r.put("provider", prov.id());
    r.put("language", prov.language());
    r.put("library", prov.library());
    r.put("library_version", prov.libraryVersion());
    r.put("runtime", runtime());
    ObjectNode clock = r.putObject("clock");
    clock.put("source", Timing.CLOCK_SOURCE);
    clock.put("resolution_ns", resolutionNs);
    clock.put("probe_reads", Timing.PROBE_READS);
    clock.put("counter", Tsc.STATUS); // samples_tsc's source, or why there is none
    ObjectNode offers = r.putObject("offers");
    List<String> stream = new ArrayList<>();
    for (Provider.Alg a : prov.algs()) {
      ArrayNode ops = offers.putArray(a.name());
      a.ops().forEach(ops::add);
      if (a.stream()) {
        stream.add(a.name());
      }
    }
    stream.sort(null);
    ArrayNode s = r.putArray("stream");
    stream.forEach(s::add);
    ArrayNode notes = r.putArray("notes");
    prov.notes().forEach(notes::add);
    driverNotes().forEach(notes::add);
    return r;
  }

  /** The JVM: name, version, vendor, and the flags it runs with. */
  static String runtime() {
    RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
    return rt.getVmName()
        + " "
        + rt.getVmVersion()
        + " ("
        + rt.getVmVendor()
        + "), flags: "
        + (rt.getInputArguments().isEmpty() ? "(none)" : String.join(" ", rt.getInputArguments()));
  }

  private List<String> driverNotes() {
    RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
    List<String> gcs = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs.add(gc.getName());
    }
    var compiler = ManagementFactory.getCompilationMXBean();
    List<String> notes = new ArrayList<>();
    notes.add(
        "JVM: "
            + rt.getVmName()
            + " "
            + rt.getVmVersion()
            + " ("
            + rt.getVmVendor()
            + "), java.version "
            + System.getProperty("java.version")
            + ", JIT "
            + (compiler == null ? "none" : compiler.getName())
            + ", GC "
            + String.join(" + ", gcs)
            + ", max heap "
            + (Runtime.getRuntime().maxMemory() >> 20)
            + " MiB, "
            + Runtime.getRuntime().availableProcessors()
            + " processors; flags: "
            + (rt.getInputArguments().isEmpty()
                ? "(none)"
                : String.join(" ", rt.getInputArguments()))
            + ".");
    notes.add("HotSpot intrinsics in effect: " + intrinsics() + ".");
    notes.add(jit.describe());
    notes.add(
        "Timing loop: every cell class has its own copy of the loop that calls run() once per"
            + " operation and adds its result (the output's first byte) to the sink, so run() is"
            + " inlined into it (as in JMH's generated loops) whichever cells ran before; the noop"
            + " cell's run() reads a volatile field so the loop cannot be deleted. System.gc()"
            + " once per cell after preparation, before the warm-up; the GC stays on during"
            + " samples. One process serves every cell of a run, so the JIT's profiles carry"
            + " over from earlier cells (JMH forks a JVM per benchmark to avoid that).");
    return notes;
  }

  /** The HotSpot flags that decide which crypto code the JIT uses. */
  private static String intrinsics() {
    List<String> out = new ArrayList<>();
    try {
      HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      for (String flag :
          List.of(
              "UseAES",
              "UseAESIntrinsics",
              "UseAESCTRIntrinsics",
              "UseGHASHIntrinsics",
              "UseSHA",
              "UseSHA256Intrinsics",
              "UseSHA512Intrinsics",
              "UseSHA3Intrinsics",
              "UseChaCha20Intrinsics",
              "UsePoly1305Intrinsics",
              // BigInteger (RSA; the JDK's EC code has its own field arithmetic)
              "UseMultiplyToLenIntrinsic",
              "UseSquareToLenIntrinsic",
              "UseMulAddIntrinsic",
              "UseMontgomeryMultiplyIntrinsic",
              "UseMontgomerySquareIntrinsic",
              "UseAVX")) {
        try {
          VMOption o = hs.getVMOption(flag);
          out.add(flag + "=" + o.getValue());
        } catch (IllegalArgumentException absent) {
          // not a flag of this JVM
        }
      }
    } catch (RuntimeException e) {
      return "unknown (" + Protocol.describe(e) + ")";
    }
    return out.isEmpty() ? "unknown" : String.join(", ", out);
  }

  // ---- verify --------------------------------------------------------------------------------

  private Provider.Alg lookup(JsonNode req) throws Protocol.BadRequest {
    String name = Protocol.text(req, "alg");
    if (name.isEmpty()) {
      throw new Protocol.BadRequest("request has no \"alg\"");
    }
    Provider.Alg a = prov.alg(name);
    if (a == null) {
      throw new Protocol.BadRequest("not offered: alg \"" + name + "\" by " + prov.id());
    }
    return a;
  }

  ObjectNode verify(JsonNode req) throws Protocol.BadRequest {
    Provider.Alg a = lookup(req);
    List<Protocol.RawCase> cases = Protocol.cases(req);
    ObjectNode r = Protocol.ok();
    ArrayNode results = r.putArray("results");
    for (Protocol.RawCase c : cases) {
      results.add(runCase(a, c));
    }
    return r;
  }

  /** The case executor the verify request and the native vector test share. */
  static ObjectNode runCase(Provider.Alg a, Protocol.RawCase rc) {
    ObjectNode res = Protocol.object();
    res.put("id", rc.id());
    try {
      Provider.Case c = rc.decode();
      if (a.name().startsWith("tls13-")) {
        // TLS cells are verified by interop (protocol 7); a case is answered unsupported.
        throw new Provider.Unsupported(a.name() + " has no verify cases (verified by interop)");
      }
      if (!a.publicKey() && !a.offers(c.op())) {
        throw new IllegalArgumentException("not offered: op \"" + c.op() + "\" for " + a.name());
      }
      res.put("out", Input.hex(a.exec().run(c)));
    } catch (Provider.Rejected e) {
      res.put("rejected", true);
    } catch (Provider.Unsupported e) {
      res.put("unsupported", Protocol.oneLine(e.getMessage()));
    } catch (Exception | Error e) {
      res.put("error", Protocol.oneLine(Protocol.describe(e)));
    }
    return res;
  }

  // ---- keypair -------------------------------------------------------------------------------

  /** A fresh key pair from the provider's own generator, in protocol.md's encodings. */
  ObjectNode keypair(JsonNode req) throws Exception {
    Provider.Alg a = lookup(req);
    if (!a.publicKey()) {
      throw new Protocol.BadRequest(
          "not offered: keypair for "
              + a.name()
              + " by "
              + prov.id()
              + " (not a public-key algorithm)");
    }
    byte[][] kp = a.keypair().generate();
    ObjectNode r = Protocol.ok();
    r.put("public", Input.hex(kp[0]));
    r.put("private", Input.hex(kp[1]));
    return r;
  }

  // ---- bench ---------------------------------------------------------------------------------

  /** The largest streamed message accepted (1 TiB). */
  static final long MAX_STREAM_SIZE = 1L << 40;

  ObjectNode bench(JsonNode req) throws Exception {
    Provider.Alg a = lookup(req);
    String op = Protocol.text(req, "op");
    if (op.isEmpty()) {
      throw new Protocol.BadRequest("request has no \"op\"");
    }
    if (!a.offers(op)) {
      throw new Protocol.BadRequest(
          "not offered: op \"" + op + "\" for " + a.name() + " by " + prov.id());
    }
    Long size = Protocol.integer(req, "size");
    Long seed = Protocol.integer(req, "seed");
    Long samples = Protocol.integer(req, "samples");
    long chunk = Protocol.integer(req, "chunk", 0);
    long batch = Protocol.integer(req, "batch", 0);
    long targetNs = Protocol.integer(req, "target_ns", DEFAULT_TARGET_NS);
    long warmupNs = Protocol.integer(req, "warmup_ns", 0);
    if (size == null) {
      throw new Protocol.BadRequest("request has no \"size\"");
    }
    if (size < 0 || size > MAX_STREAM_SIZE) {
      throw new Protocol.BadRequest("size " + size + " out of range");
    }
    if (seed == null) {
      throw new Protocol.BadRequest("request has no \"seed\"");
    }
    if (seed == 0 || seed < 0 || seed > 0xffffffffL) {
      throw new Protocol.BadRequest("seed " + seed + " must be a non-zero 32-bit integer");
    }
    if (samples == null || samples < 1 || samples > 1_000_000) {
      throw new Protocol.BadRequest("\"samples\" must be between 1 and 1000000");
    }
    if (chunk < 0 || batch < 0 || targetNs < 0 || warmupNs < 0) {
      throw new Protocol.BadRequest("chunk, batch, target_ns and warmup_ns must not be negative");
    }
    if (chunk > Input.MAX_CHUNK) {
      throw new Protocol.BadRequest("chunk " + chunk + " is larger than 1 MiB");
    }
    if (batch > Timing.MAX_BATCH) {
      throw new Protocol.BadRequest("batch " + batch + " is larger than 2^30");
    }
    if (chunk > 0 && !a.streamOps().contains(op)) {
      throw new Provider.NotOffered(
          "not offered: chunk "
              + chunk
              + ": "
              + (a.stream()
                  ? a.noStream()
                  : a.name() + " has no streaming API in " + prov.id() + ": " + a.noStream()));
    }
    if (chunk == 0) {
      Provider.arrayLength(size, "a one-shot message");
    }
    byte[] key = Input.unhex("key", Protocol.text(req, "key"));
    byte[] iv = Input.unhex("iv", Protocol.text(req, "iv"));

    // A TLS cell (protocol 7) is made from the request's PKI.
    Provider.Cell cell =
        prov.tls() != null && a.name().startsWith("tls13-")
            ? prov.tls().cell(a.name(), op, req.get("tls"))
            : a.cells()
                .make(
                    new Provider.CellParams(
                        op, key, iv, (int) seed.longValue(), size, (int) chunk));
    // The checksum of one operation on the fixed input, outside any timing.
    String checksum = cell.checksum();

    // A request that only asks one operation's checksum (cross-checks, differential inputs:
    // hundreds
    // of sizes, each a cell of its own here) times nothing worth a full collection or JIT rounds
    // (docs/protocol.md, "The measurement loop").
    boolean checksumOnly = batch == 1 && samples == 1 && targetNs == 0 && warmupNs == 0;
    if (gcPerCell && !checksumOnly) {
      System.gc(); // preparation garbage should not be collected inside a sample
    }

    Timing t = new Timing(cell);
    String cellKey = a.name() + "|" + op + "|" + size + "|" + chunk;
    long[] state = warmed.computeIfAbsent(cellKey, k -> new long[2]); // {ops so far, warmed}
    long[] warm;
    Timing.JitResult jr;
    if (cell.warmupCap() > 0) {
      // Slow operations of variable time (RSA key generation): a few operations, no JIT rounds.
      int least = state[0] == 0 ? cell.firstWarmup() : 1;
      warm = t.cappedWarmup(warmupNs, least, cell.warmupCap());
      jr = Timing.JitResult.none(batch);
    } else {
      // docs/protocol.md's warm-up, then this driver's addition: JIT rounds until compiled code is
      // stable (see Timing.JitPolicy), all before calibration, so the batch is calibrated once on
      // compiled code, as the pseudo-code says.
      warm = t.warmUp(warmupNs);
      long roundBatch = batch > 0 ? batch : Timing.roundBatch(warm, targetNs);
      jr =
          checksumOnly
              ? Timing.JitResult.none(batch)
              : t.jitWarmup(
                  roundBatch, batch > 0 ? 0 : targetNs, jit, state[0] + warm[0], state[1] != 0);
    }
    state[0] += warm[0] + jr.ops();
    if (jr.stop().equals("stable")) {
      state[1] = 1; // later requests for this cell run one window; until then, the full rule
    }
    long b = batch;
    long calibrationOps = 0;
    if (batch == 0) {
      long[] c = t.calibrate(targetNs);
      b = c[0];
      calibrationOps = c[1];
    }
    long[] ns = t.sample(b, (int) samples.longValue());
    // One more operation, untimed: state leaking between operations shows here.
    String after = cell.checksum();

    ObjectNode r = Protocol.ok();
    r.put("batch", b);
    ArrayNode sa = r.putArray("samples_ns");
    for (long s : ns) {
      sa.add(s);
    }
    // the counter's ticks beside each sample, only where every sample has them (a partial list
    // would be worse than none)
    if (Arrays.stream(t.ticks).allMatch(x -> x > 0)) {
      ArrayNode ta = r.putArray("samples_tsc");
      for (long x : t.ticks) {
        ta.add(x);
      }
    }
    r.put("checksum", checksum);
    r.put("checksum_after", after);
    r.put("sink", t.sink);
    ObjectNode w = r.putObject("warmup");
    w.put("ops", warm[0]); // the protocol's warm-up; the JIT rounds after it are reported apart
    w.put("ns", warm[1]);
    w.put("jit_ops", jr.ops());
    w.put("jit_rounds", jr.rounds());
    w.put("jit_ns", jr.ns());
    w.put("jit_stable", jr.stable());
    w.put("jit_stop", jr.stop());
    if (Double.isFinite(jr.spread())) {
      w.put("jit_spread", Math.round(jr.spread() * 1e4) / 1e4);
    } else {
      w.putNull("jit_spread");
    }
    w.put("jit_compile_ms", jr.compileMs());
    w.put("cell_ops", state[0]);
    w.put("alloc_bytes_per_op", Math.round(jr.allocBytesPerOp() * 10) / 10.0);
    if (batch == 0) {
      w.put("calibration_ops", calibrationOps);
    }
    r.put("peak_rss_kb", peakRssKb());
    if (cell.tlsReport() != null) {
      r.set("tls", cell.tlsReport());
    }
    if (cell.memoryReport() != null) {
      r.set("memory", cell.memoryReport());
    }
    return r;
  }

  /** The interop commands (protocol 7), served by the provider's TLS part where it has one. */
  ObjectNode tls(JsonNode req) throws Exception {
    if (prov.tls() == null) {
      throw new Provider.NotOffered(
          "not offered: " + req.get("cmd").asText() + ": " + prov.id() + " has no TLS cells");
    }
    return prov.tls().command(req);
  }

  /** VmHWM from /proc/self/status (peak resident set), 0 where unknown. */
  static long peakRssKb() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (l.startsWith("VmHWM:")) {
          return Long.parseLong(l.substring(6).replace("kB", "").strip());
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
