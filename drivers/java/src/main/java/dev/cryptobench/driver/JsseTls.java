package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmConstraints;
import java.security.AlgorithmParameters;
import java.security.CryptoPrimitive;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * java:jsse: TLS 1.3 cells (docs/protocol.md § TLS 1.3 handshakes) with the JDK's SunJSSE, a client
 * and a server SSLEngine in one process over in-memory ByteBuffers; the interop commands are {@link
 * JsseInterop}'s.
 */
final class JsseTls implements Provider, Provider.TlsSupport {
  static final String ID = "java:jsse";
  static final String CIPHER = "TLS_AES_128_GCM_SHA256";
  static final int CIPHER_CODE = 0x1301;
  static final String EXPORTER_LABEL = "EXPORTER-cryptobench";
  static final byte[] EXPORTER_CONTEXT =
      "cryptobench tls13".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * ExtendedSSLSession.exportKeyingMaterialData(label, context, length), Java 25's TLS exporter;
   * null on Java 17, which has none (the driver is compiled for 17, so it is looked up).
   */
  static final java.lang.reflect.Method EXPORTER = exporterMethod();

  private static java.lang.reflect.Method exporterMethod() {
    try {
      return javax.net.ssl.ExtendedSSLSession.class.getMethod(
          "exportKeyingMaterialData", String.class, byte[].class, int.class);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** The 32-byte exporter of a session (docs/protocol.md), null where the JDK has no exporter. */
  static byte[] exporter(SSLEngine e) throws Exception {
    if (EXPORTER == null) {
      return null;
    }
    try {
      return (byte[]) EXPORTER.invoke(e.getSession(), EXPORTER_LABEL, EXPORTER_CONTEXT, 32);
    } catch (java.lang.reflect.InvocationTargetException x) {
      throw x.getCause() instanceof Exception c ? c : x;
    }
  }

  /** A cell's group: its name in a cell, the JDK's name and the IANA code point. */
  record Group(String cell, String jdk, int code) {}

  static final List<Group> GROUPS =
      List.of(new Group("x25519", "x25519", 0x1d), new Group("p256", "secp256r1", 0x17));

  static final List<String> AUTHS = List.of("ecdsa-p256", "ed25519", "rsa-2048");

  /** The named groups SunJSSE 17 knows: every one but the cell's is refused (see only()). */
  static final Set<String> JDK_GROUPS =
      Set.of(
          "x25519",
          "x448",
          "secp256r1",
          "secp384r1",
          "secp521r1",
          "ffdhe2048",
          "ffdhe3072",
          "ffdhe4096",
          "ffdhe6144",
          "ffdhe8192");

  /** One cell: "tls13-<group>-<auth>[-resume]". */
  record Cell(String name, Group group, String auth, boolean resume) {}

  static Cell parse(String name) throws Provider.NotOffered {
    for (Group g : GROUPS) {
      for (String a : AUTHS) {
        String base = "tls13-" + g.cell() + "-" + a;
        if (name.equals(base) || name.equals(base + "-resume")) {
          return new Cell(name, g, a, name.endsWith("-resume"));
        }
      }
    }
    throw new Provider.NotOffered("not offered: alg \"" + name + "\" by " + ID);
  }

  // ---- the provider ------------------------------------------------------------------------

  private final List<Alg> algs = new ArrayList<>();

  JsseTls() {
    algs.add(Provider.noop()); // the loop's floor (every driver offers it)
    for (Group g : GROUPS) {
      for (String a : AUTHS) {
        for (String r : List.of("", "-resume")) {
          String name = "tls13-" + g.cell() + "-" + a + r;
          algs.add(
              new Alg(
                  name,
                  List.of("handshake", "client", "server"),
                  Set.of(),
                  "a handshake has no streamed input",
                  c -> {
                    throw new Provider.NotOffered(
                        "not offered: " + name + " is verified by interop, not verify cases");
                  },
                  p -> {
                    throw new Provider.NotOffered("tls: no PKI in the request");
                  }));
        }
      }
    }
  }

  static Provider provider() {
    return new JsseTls();
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String library() {
    return "SunJSSE (the JDK's TLS)";
  }

  @Override
  public String libraryVersion() {
    return "SunJSSE of Java " + System.getProperty("java.version");
  }

  @Override
  public List<Alg> algs() {
    return algs;
  }

  @Override
  public Provider.TlsSupport tls() {
    return this;
  }

  @Override
  public List<String> notes() {
    return List.of(
        "TLS 1.3 (protocol 7): SunJSSE SSLEngines, client and server in one process over"
            + " in-memory ByteBuffers (the client's wrap() writes where the server's unwrap()"
            + " reads, and back), delegated tasks run inline; SSLContexts (key manager from the"
            + " PKI's PKCS#8 key and chain, PKIX trust manager with the root alone) made once per"
            + " cell. TLSv1.3 and TLS_AES_128_GCM_SHA256 only; the client checks the chain and the"
            + " host name (endpoint identification HTTPS, SNI sent). Groups x25519 and secp256r1:"
            + " SunJSSE 17 has no ML-KEM hybrids and no SSLParameters.setNamedGroups (Java 20), so"
            + " each engine gets AlgorithmConstraints that refuse key agreement in every other"
            + " group; SunJSSE ties ecdsa_secp256r1_sha256 to the group secp256r1, so an"
            + " ecdsa-p256 cell keeps secp256r1 permitted beside x25519 (the client lists both in"
            + " supported_groups but sends one key share, its first: x25519). No ML-DSA.",
        "TLS client/server split: a side's time is the clock read around its own engine calls"
            + " (creating its SSLEngine and setting its parameters, beginHandshake, wrap, unwrap,"
            + " its delegated tasks); subtracted (untimed_ns): the other side's calls and the"
            + " driver's loop between them. There is no transport copy: the buffers are shared.",
        "TLS tickets: SunJSSE 17 sends one NewSessionTicket after a handshake and has no switch"
            + " for none; a full cell's server session context has a timeout of 604,801 s, just"
            + " over the 7-day ticket lifetime limit, which makes SunJSSE send no ticket. A -resume"
            + " cell resumes from the client context's session cache (keyed by the server name):"
            + " every resumption is answered with a new ticket, which the next resumption offers;"
            + " the first comes from a full handshake when the cell is set up.",
        "TLS reports: SunJSSE 17 exposes neither the negotiated group nor the signature scheme"
            + " nor whether a session was resumed, and has no exporter (RFC 8446 § 7.5; Java 25"
            + " adds one). So group and resumption are read from the ServerHello the server wrote"
            + " (its key_share and pre_shared_key extensions), sigalg is null, the cipher is"
            + " SSLSession.getCipherSuite(). Exporter: "
            + (EXPORTER == null
                ? "none in this JDK, so interop reports \"exporter\": null (each side proves it"
                    + " has the other's keys by the ping/pong application data only) and a"
                    + " bench's checksum is over the ServerHello's random (fresh per handshake)"
                : "ExtendedSSLSession.exportKeyingMaterialData (Java 25+), in interop and as a"
                    + " bench's checksum")
            + "; a bench's untimed handshake is also checked by the client sending 32 bytes the"
            + " server must decrypt.");
  }

  @Override
  public ObjectNode command(JsonNode req) throws Exception {
    return JsseInterop.command(req);
  }

  // ---- configurations -------------------------------------------------------------------------

  /** The PKI files of a request's "tls". */
  record Pki(String chain, String key, String ca, String serverName) {
    static Pki of(JsonNode t, boolean server) throws Protocol.BadRequest {
      if (t == null || t.isNull()) {
        throw new Protocol.BadRequest("tls: no PKI in the request");
      }
      Pki p =
          new Pki(
              Protocol.text(t, "chain"),
              Protocol.text(t, "key"),
              Protocol.text(t, "ca"),
              Protocol.text(t, "server_name"));
      if (p.serverName.isEmpty() || (server && (p.chain.isEmpty() || p.key.isEmpty()))) {
        throw new Protocol.BadRequest("tls: the request's tls lacks chain, key or server_name");
      }
      return p;
    }
  }

  /** A PKCS#8 PEM private key, of whichever of the auths' key types it is. */
  static PrivateKey privateKey(Path pem) throws Exception {
    String b64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64));
    Exception last = null;
    for (String alg : List.of("EC", "RSA", "Ed25519", "RSASSA-PSS")) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (java.security.spec.InvalidKeySpecException e) {
        last = e;
      }
    }
    throw new Exception("tls: " + pem + " is no EC, RSA or Ed25519 PKCS#8 key", last);
  }

  static SSLContext serverContext(Pki p, boolean tickets) throws Exception {
    CertificateFactory cf = CertificateFactory.getInstance("X.509");
    List<Certificate> chain = new ArrayList<>();
    try (var in = Files.newInputStream(Path.of(p.chain))) {
      chain.addAll(cf.generateCertificates(in));
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setKeyEntry(
        "leaf", privateKey(Path.of(p.key)), new char[0], chain.toArray(new Certificate[0]));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
    kmf.init(ks, new char[0]);
    SSLContext c = SSLContext.getInstance("TLSv1.3", "SunJSSE");
    c.init(kmf.getKeyManagers(), null, null);
    if (!tickets) {
      // SunJSSE makes no ticket when the session timeout exceeds the 7-day ticket lifetime.
      c.getServerSessionContext().setSessionTimeout(7 * 24 * 3600 + 1);
    }
    return c;
  }

  static SSLContext clientContext(Pki p) throws Exception {
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    try (var in = Files.newInputStream(Path.of(p.ca))) {
      ts.setCertificateEntry(
          "root", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
    tmf.init(ts);
    SSLContext c = SSLContext.getInstance("TLSv1.3", "SunJSSE");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  /**
   * Refuses key agreement in every named group but the cell's (and secp256r1 for an ecdsa-p256
   * cell, whose signature scheme SunJSSE ties to that group). Only the named-group check asks with
   * KEY_AGREEMENT alone and no key; certificate and signature checks are left to SunJSSE's own
   * constraints, which apply beside these.
   */
  static AlgorithmConstraints only(Cell cell) {
    return new AlgorithmConstraints() {
      @Override
      public boolean permits(
          Set<CryptoPrimitive> primitives, String algorithm, AlgorithmParameters parameters) {
        if (algorithm == null
            || !primitives.equals(EnumSet.of(CryptoPrimitive.KEY_AGREEMENT))
            || !JDK_GROUPS.contains(algorithm.toLowerCase(Locale.ROOT))) {
          return true;
        }
        return algorithm.equalsIgnoreCase(cell.group.jdk())
            || (cell.auth.equals("ecdsa-p256") && algorithm.equalsIgnoreCase("secp256r1"));
      }

      @Override
      public boolean permits(Set<CryptoPrimitive> primitives, Key key) {
        return true;
      }

      @Override
      public boolean permits(
          Set<CryptoPrimitive> primitives,
          String algorithm,
          Key key,
          AlgorithmParameters parameters) {
        return true;
      }
    };
  }

  /** One engine of the cell: TLSv1.3, the suite, the group constraint; a client checks the name. */
  static SSLEngine engine(SSLContext ctx, Cell cell, boolean client, String serverName, int port) {
    SSLEngine e = client ? ctx.createSSLEngine(serverName, port) : ctx.createSSLEngine();
    e.setUseClientMode(client);
    SSLParameters p = e.getSSLParameters();
    p.setProtocols(new String[] {"TLSv1.3"});
    p.setCipherSuites(new String[] {CIPHER});
    p.setAlgorithmConstraints(only(cell));
    if (client) {
      p.setServerNames(List.of(new SNIHostName(serverName)));
      p.setEndpointIdentificationAlgorithm("HTTPS");
    }
    e.setSSLParameters(p);
    return e;
  }

  // ---- driving an engine --------------------------------------------------------------------

  static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  /**
   * Runs one engine until it waits for its peer: its delegated tasks, wrap() into out, unwrap()
   * from in (in and out in write mode). Returns the bytes it wrote.
   */
  static int step(SSLEngine e, ByteBuffer in, ByteBuffer out, ByteBuffer app) throws SSLException {
    int written = 0;
    for (; ; ) {
      HandshakeStatus hs = e.getHandshakeStatus();
      if (hs == HandshakeStatus.NEED_TASK) {
        Runnable r;
        while ((r = e.getDelegatedTask()) != null) {
          r.run();
        }
      } else if (hs == HandshakeStatus.NEED_WRAP) {
        int p = out.position();
        SSLEngineResult r = e.wrap(EMPTY, out);
        written += out.position() - p;
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
          return written; // the close_notify after closeOutbound()
        }
        if (r.getStatus() != SSLEngineResult.Status.OK) {
          throw new SSLException("tls: wrap: " + r.getStatus());
        }
      } else if (in.position() == 0) {
        return written;
      } else {
        in.flip();
        SSLEngineResult r = e.unwrap(in, app);
        in.compact();
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
          throw new SSLException("tls: the peer closed the connection");
        }
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW || r.bytesConsumed() == 0) {
          return written;
        }
      }
    }
  }

  /** What a ServerHello says: its random, the key share's group, whether a PSK was accepted. */
  record Hello(byte[] random, int group, boolean psk) {
    /**
     * Parses the record at {@code from} of a buffer in write mode (a ServerHello); null if it is
     * not one or not whole yet.
     */
    static Hello parse(ByteBuffer flight, int from) {
      try {
        ByteBuffer b = flight.duplicate();
        b.limit(b.position());
        b.position(from);
        if (b.remaining() < 5 || b.get() != 22) {
          return null;
        }
        b.position(b.position() + 2); // version
        if (b.remaining() < (b.getShort() & 0xffff)) {
          return null;
        }
        if (b.get() != 2) {
          return null;
        }
        b.position(b.position() + 3 + 2); // length, legacy_version
        byte[] random = new byte[32];
        b.get(random);
        int sid = b.get() & 0xff;
        b.position(b.position() + sid + 2 + 1); // session id, cipher suite, compression
        int end = (b.getShort() & 0xffff) + b.position();
        int group = -1;
        boolean psk = false;
        while (b.position() < end) {
          int type = b.getShort() & 0xffff;
          int len = b.getShort() & 0xffff;
          if (type == 0x33) {
            group = b.getShort(b.position()) & 0xffff;
          } else if (type == 0x29) {
            psk = true;
          }
          b.position(b.position() + len);
        }
        return new Hello(random, group, psk);
      } catch (RuntimeException e) {
        return null;
      }
    }
  }

  // ---- the bench cell -------------------------------------------------------------------------

  @Override
  public Provider.Cell cell(String alg, String op, JsonNode tls) throws Exception {
    Cell cell = parse(alg);
    Pki p = Pki.of(tls, true);
    return new HandshakeCell(
        cell, op, serverContext(p, cell.resume), clientContext(p), p.serverName);
  }

  /**
   * One in-memory handshake per run(). For op client/server, the other side's engine calls and the
   * loop between them are handed to the timing loop as untimed (takeUntimedNs).
   */
  static final class HandshakeCell extends Provider.Cell {
    static final int PORT = 443; // the client session cache's key (no socket is used)
    static final int MAX_STEPS = 64;

    private final Cell cell;
    private final int side; // 0 handshake, 1 client, 2 server
    private final SSLContext server;
    private final SSLContext client;
    private final String serverName;
    private final ByteBuffer c2s = ByteBuffer.allocate(1 << 17);
    private final ByteBuffer s2c = ByteBuffer.allocate(1 << 17);
    private final ByteBuffer capp = ByteBuffer.allocate(1 << 17);
    private final ByteBuffer sapp = ByteBuffer.allocate(1 << 17);
    private long untimed;
    private ObjectNode report;

    // What the latest handshake showed (read by check()).
    private final int[] flights =
        new int[4]; // client_hello, server_flight, client_finished, tickets
    private int roundTrips;
    private Hello hello;
    private SSLEngine lastClient;
    private SSLEngine lastServer;

    HandshakeCell(Cell cell, String op, SSLContext server, SSLContext client, String serverName)
        throws Exception {
      this.cell = cell;
      this.side = op.equals("client") ? 1 : op.equals("server") ? 2 : 0;
      this.server = server;
      this.client = client;
      this.serverName = serverName;
      if (cell.resume) {
        handshake(); // leaves a ticket in the client context's cache
      }
    }

    /** One handshake; returns {client ns, server ns}. */
    long[] handshake() throws Exception {
      long cns = 0;
      long sns = 0;
      c2s.clear();
      s2c.clear();
      capp.clear();
      sapp.clear();
      java.util.Arrays.fill(flights, 0);
      roundTrips = 0;
      hello = null;
      long t0 = System.nanoTime();
      SSLEngine s = engine(server, cell, false, serverName, PORT);
      s.beginHandshake();
      long t1 = System.nanoTime();
      SSLEngine c = engine(client, cell, true, serverName, PORT);
      c.beginHandshake();
      long t2 = System.nanoTime();
      sns += t1 - t0;
      cns += t2 - t1;
      boolean clientHeard = false;
      for (int i = 0; ; i++) {
        t0 = System.nanoTime();
        int cw = step(c, s2c, c2s, capp);
        t1 = System.nanoTime();
        int sFrom = s2c.position();
        int sw = step(s, c2s, s2c, sapp);
        t2 = System.nanoTime();
        cns += t1 - t0;
        sns += t2 - t1;
        flights[clientHeard ? 2 : 0] += cw;
        if (sw > 0) {
          if (hello == null) {
            hello = Hello.parse(s2c, sFrom);
          }
          // After the client's second flight, what the server writes is tickets.
          boolean finished = flights[2] > 0;
          flights[finished ? 3 : 1] += sw;
          if (!finished) {
            roundTrips++;
          }
          clientHeard = true;
        }
        boolean serverDone = s.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
        boolean clientDone = c.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
        if (clientDone && serverDone && c2s.position() == 0 && s2c.position() == 0) {
          break;
        }
        if (i > MAX_STEPS) {
          throw new SSLException("tls: handshake stalled");
        }
      }
      lastClient = c;
      lastServer = s;
      return new long[] {cns, sns};
    }

    @Override
    long takeUntimedNs() {
      long u = untimed;
      untimed = 0;
      return u;
    }

    @Override
    byte[] output() {
      return hello == null ? new byte[0] : hello.random;
    }

    /**
     * One untimed handshake, checked: both completed, the cell's group in the ServerHello,
     * resumption as the cell says, and 32 bytes sent by the client decrypted by the server.
     */
    @Override
    String checksum() throws Exception {
      handshake();
      if (hello == null) {
        throw new SSLException("tls: the server's first record is no ServerHello");
      }
      if (hello.group != cell.group.code()) {
        throw new SSLException(
            "tls: the ServerHello's group is " + hello.group + ", the cell's " + cell.group.code());
      }
      if (hello.psk != cell.resume) {
        throw new SSLException("tls: the server " + (hello.psk ? "resumed" : "did not resume"));
      }
      for (SSLEngine e : new SSLEngine[] {lastClient, lastServer}) {
        if (!e.getSession().getCipherSuite().equals(CIPHER)) {
          throw new SSLException("tls: cipher suite " + e.getSession().getCipherSuite());
        }
      }
      byte[] probe = hello.random.clone();
      c2s.clear();
      lastClient.wrap(ByteBuffer.wrap(probe), c2s);
      c2s.flip();
      sapp.clear();
      lastServer.unwrap(c2s, sapp);
      sapp.flip();
      byte[] got = new byte[sapp.remaining()];
      sapp.get(got);
      if (!java.util.Arrays.equals(got, probe)) {
        throw new SSLException("tls: the server did not read what the client sent");
      }
      byte[] cx = exporter(lastClient);
      byte[] sx = exporter(lastServer);
      if (!java.util.Arrays.equals(cx, sx)) {
        throw new SSLException("tls: the exporters differ");
      }
      if (report == null) {
        report = Protocol.object();
        report.put("group", hello.group);
        report.put("cipher", CIPHER_CODE);
        report.putNull("sigalg");
        report.put("resumed", hello.psk);
        report.put("round_trips", roundTrips);
        ObjectNode f = report.putObject("flights");
        f.put("client_hello", flights[0]);
        f.put("server_flight", flights[1]);
        f.put("client_finished", flights[2]);
        f.put("tickets", flights[3]);
      }
      return Input.checksum(cx != null ? cx : hello.random);
    }

    @Override
    ObjectNode tlsReport() {
      return report;
    }

    @Override
    long run() throws Exception {
      long t0 = System.nanoTime();
      long[] ns = handshake();
      if (side != 0) {
        untimed += System.nanoTime() - t0 - ns[side - 1];
      }
      return flights[1] & 0xff;
    }

    @Override
    long loop(long n) throws Exception {
      long s = 0;
      for (long i = 0; i < n; i++) {
        s += run();
      }
      return s;
    }
  }
}
