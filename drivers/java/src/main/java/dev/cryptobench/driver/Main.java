package dev.cryptobench.driver;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * cbdriver-java: cryptobench's Java driver. Speaks the JSON-lines driver protocol
 * (docs/protocol.md, version 5) on stdin/stdout for one provider, selected by --provider. This
 * class is the stdin loop (docs/drivers.md); {@link Protocol} dispatches and answers each line.
 */
public final class Main {
  private Main() {}

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
      fail(2, "no --provider given (known: " + knownIds() + ")");
    }
    Provider p;
    try {
      p = Provider.create(id);
    } catch (RuntimeException | LinkageError e) {
      fail(1, "cannot set up provider " + id + ": " + Protocol.describe(e));
      return;
    }
    if (p == null) {
      fail(2, "unknown provider \"" + id + "\" (known: " + knownIds() + ")");
    }
    try {
      serve(new Protocol(p), System.in, protocolOut);
    } catch (IOException e) {
      fail(1, Protocol.describe(e));
    }
    protocolOut.flush();
    System.exit(0);
  }

  /** Every provider id this driver serves. */
  private static String knownIds() {
    List<String> all = new ArrayList<>(Provider.ids());
    all.addAll(Provider.tlsIds());
    return String.join(", ", all);
  }

  private static void fail(int code, String message) {
    System.err.println("cbdriver-java: " + Protocol.oneLine(message));
    System.exit(code);
  }

  /** The stdin loop: runs until bye or end of input (which means bye). */
  static void serve(Protocol d, InputStream in, OutputStream out) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 20);
    Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
    String line;
    while ((line = r.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      Protocol.Reply reply = d.handleLine(line);
      w.write(reply.line());
      w.write('\n');
      w.flush();
      if (reply.quit()) {
        return;
      }
    }
  }
}
