package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * java:jsse's interop commands (docs/protocol.md § Interop): tls-serve (a background thread
 * accepting the connections one after the other), tls-result and tls-connect, over loopback TCP,
 * each connection an SSLEngine over the socket's streams (the engine the bench cells time, and the
 * wire bytes from which the ServerHello is read).
 */
final class JsseInterop {
  private JsseInterop() {}

  private static Thread serving;
  private static long servingTimeoutMs;
  private static volatile ObjectNode served;
  // What a new tls-serve closes to end the one before (one server per process at a time).
  private static volatile ServerSocket listening;
  private static volatile Socket accepted;

  static synchronized ObjectNode command(JsonNode req) throws Exception {
    String cmd = req.get("cmd").asText();
    if (cmd.equals("tls-result")) {
      return result();
    }
    JsseTls.Cell cell = JsseTls.parse(Protocol.text(req, "alg"));
    int n = (int) Protocol.integer(req, "connections", 1);
    long timeoutMs = Protocol.integer(req, "timeout_ms", 10_000);
    if (n < 1 || n > 1000 || timeoutMs < 1) {
      throw new Protocol.BadRequest("tls: connections or timeout_ms out of range");
    }
    if (cmd.equals("tls-serve")) {
      return serve(cell, JsseTls.Pki.of(req.get("tls"), true), n, timeoutMs);
    }
    long port = Protocol.integer(req, "port", 0);
    if (port < 1 || port > 65535) {
      throw new Protocol.BadRequest("tls: \"port\" " + port + " is not a TCP port");
    }
    return connect(cell, JsseTls.Pki.of(req.get("tls"), false), (int) port, n, timeoutMs);
  }

  // ---- server -------------------------------------------------------------------------------

  static ObjectNode serve(JsseTls.Cell cell, JsseTls.Pki pki, int n, long timeoutMs)
      throws Exception {
    if (serving != null) {
      stop(); // a new tls-serve ends the one before; its result is lost
    }
    SSLContext ctx = JsseTls.serverContext(pki, cell.resume());
    ServerSocket ss = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    listening = ss;
    long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
    served = null;
    servingTimeoutMs = timeoutMs;
    serving =
        new Thread(
            () -> {
              ObjectNode r = Protocol.ok();
              ArrayNode hs = r.putArray("handshakes");
              try (ss) {
                for (int i = 0; i < n; i++) {
                  ss.setSoTimeout(remainingMs(deadline));
                  try (Socket s = ss.accept()) {
                    accepted = s;
                    SSLEngine e = JsseTls.engine(ctx, cell, false, pki.serverName(), 0);
                    hs.add(connection(e, s, false, deadline));
                  }
                }
              } catch (Exception e) {
                r = failure(e);
              }
              served = r;
            },
            "tls-serve");
    serving.setDaemon(true);
    serving.start();
    ObjectNode r = Protocol.ok();
    r.put("port", ss.getLocalPort());
    return r;
  }

  /** Ends the serving thread: its listening and accepted sockets are closed. */
  static void stop() throws InterruptedException {
    for (java.io.Closeable c : new java.io.Closeable[] {listening, accepted}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        // closing is all we want
      }
    }
    serving.join(5_000);
    serving = null;
  }

  static ObjectNode result() throws Exception {
    if (serving == null) {
      throw new Protocol.BadRequest("tls: not serving (no tls-serve before)");
    }
    serving.join(servingTimeoutMs + 5_000);
    ObjectNode r = served;
    serving = null;
    return r != null ? r : failure(new SSLException("tls: serving did not end"));
  }

  // ---- client -------------------------------------------------------------------------------

  static ObjectNode connect(JsseTls.Cell cell, JsseTls.Pki pki, int port, int n, long timeoutMs) {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
    ObjectNode r = Protocol.ok();
    ArrayNode hs = r.putArray("handshakes");
    try {
      SSLContext ctx = JsseTls.clientContext(pki); // its session cache carries the ticket
      for (int i = 0; i < n; i++) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
          SSLEngine e = JsseTls.engine(ctx, cell, true, pki.serverName(), port);
          hs.add(connection(e, s, true, deadline));
        }
      }
    } catch (Exception e) {
      return failure(e);
    }
    return r;
  }

  // ---- one connection -----------------------------------------------------------------------

  /** The handshake, then ping from the client and pong from the server; the side's report. */
  static ObjectNode connection(SSLEngine e, Socket s, boolean client, long deadline)
      throws Exception {
    InputStream in = s.getInputStream();
    OutputStream out = s.getOutputStream();
    ByteBuffer netIn = ByteBuffer.allocate(1 << 17);
    ByteBuffer netOut = ByteBuffer.allocate(1 << 17);
    ByteBuffer app = ByteBuffer.allocate(1 << 17);
    JsseTls.Hello hello = null;
    e.beginHandshake();
    while (true) {
      if (client && hello == null) {
        hello = JsseTls.Hello.parse(netIn, 0); // the server's first record, before unwrap
      }
      JsseTls.step(e, netIn, netOut, app);
      if (!client && hello == null) {
        hello = JsseTls.Hello.parse(netOut, 0);
      }
      flush(netOut, out);
      if (e.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
        break;
      }
      read(in, netIn, s, deadline);
    }
    byte[] x = JsseTls.exporter(e); // null: SunJSSE 17 has no exporter
    if (client) {
      send(e, "ping", netOut, out);
      expect(e, "pong", in, netIn, app, s, deadline); // the ticket comes before it
    } else {
      expect(e, "ping", in, netIn, app, s, deadline);
      send(e, "pong", netOut, out);
    }
    e.closeOutbound();
    JsseTls.step(e, netIn, netOut, app);
    flush(netOut, out);
    if (hello == null) {
      throw new SSLException("tls: no ServerHello seen");
    }
    ObjectNode h = Protocol.object();
    h.put("group", hello.group());
    String suite = e.getSession().getCipherSuite();
    if (suite.equals(JsseTls.CIPHER)) {
      h.put("cipher", JsseTls.CIPHER_CODE);
    } else {
      h.putNull("cipher");
    }
    h.putNull("sigalg");
    h.put("resumed", hello.psk());
    if (x == null) {
      h.putNull("exporter");
    } else {
      h.put("exporter", Input.hex(x));
    }
    return h;
  }

  static void send(SSLEngine e, String text, ByteBuffer netOut, OutputStream out)
      throws IOException {
    e.wrap(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), netOut);
    flush(netOut, out);
  }

  /** Reads and unwraps until the application data holds text (post-handshake messages too). */
  static void expect(
      SSLEngine e,
      String text,
      InputStream in,
      ByteBuffer netIn,
      ByteBuffer app,
      Socket s,
      long deadline)
      throws IOException {
    while (app.position() < text.length()) {
      if (netIn.position() > 0) {
        netIn.flip();
        var r = e.unwrap(netIn, app);
        netIn.compact();
        if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
          Runnable t;
          while ((t = e.getDelegatedTask()) != null) {
            t.run();
          }
        }
        if (r.bytesConsumed() > 0) {
          continue;
        }
      }
      read(in, netIn, s, deadline);
    }
    String got = new String(app.array(), 0, app.position(), StandardCharsets.US_ASCII);
    if (!got.equals(text)) {
      throw new SSLException("tls: read \"" + got + "\", not " + text);
    }
  }

  static void flush(ByteBuffer netOut, OutputStream out) throws IOException {
    if (netOut.position() > 0) {
      out.write(netOut.array(), 0, netOut.position());
      out.flush();
      netOut.clear();
    }
  }

  static void read(InputStream in, ByteBuffer netIn, Socket s, long deadline) throws IOException {
    s.setSoTimeout(remainingMs(deadline));
    int k = in.read(netIn.array(), netIn.position(), netIn.remaining());
    if (k < 0) {
      throw new SSLException("tls: the peer closed the connection");
    }
    netIn.position(netIn.position() + k);
  }

  static int remainingMs(long deadline) throws SocketTimeoutException {
    long ms = (deadline - System.nanoTime()) / 1_000_000L;
    if (ms <= 0) {
      throw new SocketTimeoutException("tls: timed out");
    }
    return (int) Math.min(ms, Integer.MAX_VALUE);
  }

  static ObjectNode failure(Exception e) {
    String m = e.getMessage();
    ObjectNode r = Protocol.object();
    r.put("ok", false);
    r.put(
        "error",
        Protocol.oneLine(m != null && m.startsWith("tls: ") ? m : "tls: " + Protocol.describe(e)));
    return r;
  }
}
