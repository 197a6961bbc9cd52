package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * cbdriver-java: cryptobench's Java driver. Speaks the JSON-lines driver protocol
 * (docs/protocol.md, version 2) on stdin/stdout for one provider, selected by --provider.
 */
public final class Main {
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
  Main(Provider prov, Timing.JitPolicy jit, boolean gcPerCell) {
    this.prov = prov;
    this.jit = jit;
    this.gcPerCell = gcPerCell;
    this.resolutionNs = Timing.probeResolution();
  }

  Main(Provider prov) {
    this(prov, Timing.JitPolicy.fromSystemProperties(), true);
  }

  public static void main(String[] args) {
    // Only protocol lines go to stdout: keep the real stdout for them and point System.out at
    // stderr, so nothing a library prints can corrupt the protocol. (JVM messages are kept off
    // stdout by -XX:+DisplayVMOutputToStderr in the run command.)
    PrintStream protocolOut =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    String id = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--provider") && i + 1 < args.length) {
        id = args[++i];
      } else if (args[i].startsWith("--provider=")) {
        id = args[i].substring("--provider=".length());
      } else {
        fail(2, "unknown argument \"" + args[i] + "\" (usage: --provider <id>)");
      }
    }
    if (id == null) {
      fail(2, "no --provider given (known: " + String.join(", ", Provider.ids()) + ")");
    }
    Provider p;
    try {
      p = Provider.create(id);
    } catch (RuntimeException | LinkageError e) {
      fail(1, "cannot set up provider " + id + ": " + Protocol.describe(e));
      return;
    }
    if (p == null) {
      fail(2, "unknown provider \"" + id + "\" (known: " + String.join(", ", Provider.ids()) + ")");
    }
    try {
      new Main(p).serve(System.in, protocolOut);
    } catch (IOException e) {
      fail(1, Protocol.describe(e));
    }
    protocolOut.flush();
    System.exit(0);
  }

  private static void fail(int code, String message) {
    System.err.println("cbdriver-java: " + Protocol.oneLine(message));
    System.exit(code);
  }

  /** Runs the request loop until bye or end of input (which means bye). */
  void serve(InputStream in, OutputStream out) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 20);
    Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
    String line;
    while ((line = r.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      Reply reply = handleLine(line);
      w.write(reply.line());
      w.write('\n');
      w.flush();
      if (reply.quit()) {
        return;
      }
    }
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
    // driver answers with the highest it implements (version 2 is purely additive: public keys).
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

    Provider.Cell cell =
        a.cells()
            .make(new Provider.CellParams(op, key, iv, (int) seed.longValue(), size, (int) chunk));
    // The checksum of one operation on the fixed input, outside any timing.
    String checksum = cell.checksum();

    if (gcPerCell) {
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
          t.jitWarmup(roundBatch, batch > 0 ? 0 : targetNs, jit, state[0] + warm[0], state[1] != 0);
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
    return r;
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
