// js:node's TLS 1.3 cells (docs/protocol.md § TLS 1.3 handshakes): node:tls
// (the OpenSSL inside the node binary) between a client and a server in one
// process over a pair of in-memory Duplex streams, plus the interop commands
// over loopback TCP.
//
// Node-only (node:tls, node:net, Buffer): loaded by main_node.js for js:node.

import tls from "node:tls";
import net from "node:net";
import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Duplex } from "node:stream";
import { checksum } from "./input.js";
import { NotOffered, Unsupported } from "./ops.js";

const LABEL = "EXPORTER-cryptobench";
const CONTEXT = Buffer.from("cryptobench tls13");
const EXPORTER_LEN = 32;
const CIPHER = "TLS_AES_128_GCM_SHA256";

// The groups Node's OpenSSL 3.0 has (no ML-KEM hybrids before OpenSSL 3.5):
// the cell's name -> ecdhCurve (the only group either side offers).
const GROUPS = { x25519: { curve: "X25519", code: 0x1d }, p256: { curve: "P-256", code: 0x17 } };
const AUTHS = ["ecdsa-p256", "ed25519", "rsa-2048"];

// IANA code points of what the library reports, by its names.
const GROUP_CODES = { X25519: 0x1d, X448: 0x1e, prime256v1: 0x17, secp384r1: 0x18, secp521r1: 0x19 };
const CIPHER_CODES = {
  TLS_AES_128_GCM_SHA256: 0x1301,
  TLS_AES_256_GCM_SHA384: 0x1302,
  TLS_CHACHA20_POLY1305_SHA256: 0x1303,
  TLS_AES_128_CCM_SHA256: 0x1304,
  TLS_AES_128_CCM_8_SHA256: 0x1305,
};

const tlsError = (what) => new Error(`tls: ${what}`);

// ---- configurations --------------------------------------------------------

// parseCell: "tls13-<group>-<auth>[-resume]" -> { curve, resume } for the
// cells offered here, null otherwise.
function parseCell(name) {
  const m = /^tls13-([a-z0-9]+)-(.+?)(-resume)?$/.exec(name);
  if (!m || !Object.hasOwn(GROUPS, m[1]) || !AUTHS.includes(m[2])) return null;
  return { ...GROUPS[m[1]], resume: m[3] !== undefined };
}

function readPem(field, path) {
  if (typeof path !== "string" || path === "") throw tlsError(`no "${field}" in the request's tls`);
  return readFileSync(path);
}

// Tickets: a full cell's server issues none, a -resume cell's exactly one per
// handshake (docs/protocol.md). Node has no SSL_CTX_set_num_tickets,
// SSL_OP_NO_TICKET only switches TLS 1.3 to stateful tickets (two still sent)
// and Node's own ticket keys issue two after a full handshake and none after a
// resumption (its callback never asks for renewal). So the server's tickets go
// through the ticket-key callback, Node's internal SecureContext API
// (enableTicketKeyCallback / onticketkeycallback, what its own ticket keys sit
// on; checked for at load time): to decline (0) makes OpenSSL (3.0.19,
// tls_construct_new_session_ticket) send no NewSessionTicket in TLS 1.3; a
// resumption's ticket is accepted with renewal (2), so it is answered with one
// new ticket. The keys are Node's kind (16-byte name, HMAC-SHA256 and AES-128-CBC
// keys), random per context.
const DECLINE = [0, Buffer.alloc(16), Buffer.alloc(16), Buffer.alloc(16), Buffer.alloc(16)];
const canDeclineTickets = typeof tls.createSecureContext({}).context.enableTicketKeyCallback === "function";

// ticketPolicy installs the callback; its reset() is called as each server
// connection is made (connections of one context are served one at a time).
function ticketPolicy(ctx, resume) {
  const name = randomBytes(16);
  const hmac = randomBytes(16);
  const aes = randomBytes(16);
  let issued = 0;
  ctx.context.enableTicketKeyCallback();
  ctx.context.onticketkeycallback = (got, iv, enc) => {
    if (enc) return resume && issued++ === 0 ? [1, hmac, aes, name, iv] : DECLINE;
    return [name.equals(got) ? 2 : 0, hmac, aes];
  };
  return { reset: () => (issued = 0) };
}

function serverContext(cell, t) {
  const ctx = tls.createSecureContext({
    cert: readPem("chain", t.chain),
    key: readPem("key", t.key),
    minVersion: "TLSv1.3",
    maxVersion: "TLSv1.3",
    ciphers: CIPHER,
    ecdhCurve: cell.curve,
  });
  return { ctx, tickets: ticketPolicy(ctx, cell.resume) };
}

function clientContext(cell, t) {
  return tls.createSecureContext({
    ca: readPem("ca", t.ca),
    minVersion: "TLSv1.3",
    maxVersion: "TLSv1.3",
    ciphers: CIPHER,
    ecdhCurve: cell.curve,
  });
}

function serverName(t) {
  if (typeof t.server_name !== "string" || t.server_name === "")
    throw tlsError('no "server_name" in the request\'s tls');
  return t.server_name;
}

// ---- what a connection reports ----------------------------------------------

const exporter = (sock) => sock.exportKeyingMaterial(EXPORTER_LEN, LABEL, CONTEXT);

// sessionGroup: the kex_group field ([19] INTEGER) of OpenSSL's own DER
// encoding of the session (SSL_SESSION_ASN1): Node reports the negotiated
// group only on the client (getEphemeralKeyInfo), so the server's view is read
// from the session the server's library made.
function sessionGroup(der) {
  let i = 0;
  const len = () => {
    let l = der[i++];
    if (l & 0x80) {
      const n = l & 0x7f;
      l = 0;
      for (let k = 0; k < n; k++) l = l * 256 + der[i++];
    }
    return l;
  };
  if (der[i++] !== 0x30) return null;
  const end = len() + i;
  while (i < end) {
    const tag = der[i++];
    const l = len();
    if (tag === 0xb3 && der[i] === 0x02) {
      let v = 0;
      for (let k = 0; k < der[i + 1]; k++) v = v * 256 + der[i + 2 + k];
      return v;
    }
    i += l;
  }
  return null;
}

function cipherCode(sock) {
  const c = sock.getCipher();
  return c && Object.hasOwn(CIPHER_CODES, c.standardName) ? CIPHER_CODES[c.standardName] : null;
}

// report: the handshake-reporting object (docs/protocol.md § Interop). Node
// exposes no signature scheme (sigalg null: the orchestrator judges by the
// certificate).
function report(sock, isServer) {
  let group = null;
  if (isServer) {
    const s = sock.getSession();
    group = s ? sessionGroup(s) : null;
  } else {
    const k = sock.getEphemeralKeyInfo();
    group = k && Object.hasOwn(GROUP_CODES, k.name) ? GROUP_CODES[k.name] : null;
  }
  return {
    group,
    cipher: cipherCode(sock),
    sigalg: null,
    resumed: sock.isSessionReused(),
    exporter: exporter(sock).toString("hex"),
  };
}

// ---- the in-memory transport -------------------------------------------------

// End is one side's stream: what its TLS socket writes is queued here until
// the handshake loop hands it to the peer's End (push), which is where the
// peer's TLS socket reads.
class End extends Duplex {
  constructor() {
    super();
    this.q = [];
  }
  _read() {}
  _write(chunk, _enc, cb) {
    this.q.push(chunk);
    cb();
  }
  take() {
    const q = this.q;
    this.q = [];
    return q.length === 1 ? q[0] : Buffer.concat(q);
  }
}

const now = () => process.hrtime.bigint();
const immediate = () => new Promise((r) => setImmediate(r));

// STALL_TURNS: event-loop turns without traffic before a handshake is given up.
const STALL_TURNS = 100;

// One in-memory handshake: { ns: {client, server}, flights, round_trips,
// client, server (the sockets; destroyed unless keep), session (the last
// ticket the client got) }.
//
// Per-side time: node:tls processes a side's input synchronously inside the
// push() that delivers it (JSStreamSocket -> TLSWrap -> SSL_read, the chain
// and host name checks, the 'secureConnect'/'secure'/'session' events), but
// writes the records it made only once its previous write has completed,
// which JSStreamSocket signals on setImmediate. So a side's time is the clock
// read around its own calls: creating its socket (the client's writes the
// ClientHello), each push() into it together with the event-loop turn that
// follows (where its output is written), and destroy(). Approximate to a few
// µs: a turn also runs the other side's pending write completion. Neither
// side's: taking the queued bytes, the turn before the first delivery (the
// server's stream starts reading on nextTick), idle turns, and what Node
// defers further (closing the handles): those are in `handshake` only.
async function handshake(cfg, keep = false) {
  const ns = { client: 0, server: 0 };
  const flights = { client_hello: 0, server_flight: 0, client_finished: 0, tickets: 0 };
  let roundTrips = 0;
  const st = { client: false, server: false, ticket: false, session: null, error: null };
  const fail = (e) => {
    st.error ??= e;
  };
  const ce = new End();
  const se = new End();

  let t0 = now();
  cfg.server.tickets.reset();
  const server = new tls.TLSSocket(se, { isServer: true, secureContext: cfg.server.ctx });
  server.on("secure", () => (st.server = true));
  server.on("error", fail);
  let t1 = now();
  ns.server += Number(t1 - t0);
  const client = tls.connect({ socket: ce, secureContext: cfg.client, servername: cfg.name, session: cfg.ticket });
  client.on("secureConnect", () => (st.client = true));
  client.on("session", (s) => {
    st.ticket = true;
    st.session = s;
  });
  client.on("error", fail);
  t0 = now();
  ns.client += Number(t0 - t1);

  // Untimed: the server's stream starts reading (on nextTick) and the
  // ClientHello's write completes.
  await immediate();
  const done = () => st.client && st.server && (!cfg.resume || st.ticket);
  for (let idle = 0; !done() && st.error === null;) {
    let b = null;
    let into = null;
    let side = "";
    if (ce.q.length > 0) {
      b = ce.take();
      if (st.client) flights.client_finished += b.length;
      else flights.client_hello += b.length;
      [into, side] = [se, "server"];
    } else if (se.q.length > 0) {
      b = se.take();
      if (st.server) flights.tickets += b.length;
      else {
        flights.server_flight += b.length;
        if (!st.client) roundTrips++;
      }
      [into, side] = [ce, "client"];
    }
    if (into !== null) {
      idle = 0;
      t0 = now();
      into.push(b);
      // What the side made of its input is written once its previous write
      // has completed (JSStreamSocket completes writes on setImmediate): that
      // turn is the side's too, unless the handshake is over.
      if (!done()) await immediate();
      ns[side] += Number(now() - t0);
    } else if (++idle > STALL_TURNS) {
      fail(
        tlsError(
          `handshake stalled (client ${st.client ? "done" : "waiting"}, server ${st.server ? "done" : "waiting"})`,
        ),
      );
    } else {
      await immediate();
    }
  }
  if (!keep || st.error !== null) {
    t0 = now();
    client.destroy();
    t1 = now();
    server.destroy();
    ns.client += Number(t1 - t0);
    ns.server += Number(now() - t1);
  }
  if (st.error !== null) throw st.error.message?.startsWith("tls: ") ? st.error : tlsError(st.error.message);
  return { ns, flights, round_trips: roundTrips, client, server, session: st.session };
}

// ---- bench cells --------------------------------------------------------------

// A cell: one handshake per run(). For op client/server, takeUntimedNs()
// hands the timing loop everything of the run that was not that side's
// calls (docs/protocol.md § bench, untimed_ns).
class HandshakeCell {
  constructor(cfg, op) {
    this.async = true;
    this.cfg = cfg;
    this.side = op === "handshake" ? null : op;
    this.untimed = 0;
    this.out = null;
    this.tlsReport = null;
    if (this.side !== null) this.takeUntimedNs = () => this.takeUntimed();
  }

  takeUntimed() {
    const u = this.untimed;
    this.untimed = 0;
    return u;
  }

  async run() {
    const t0 = now();
    const h = await handshake(this.cfg);
    if (this.side !== null) this.untimed += Number(now() - t0) - h.ns[this.side];
    return h.flights.server_flight & 0xff;
  }

  // checksum: one untimed handshake, checked (both completed, equal
  // exporters, the cell's group on both sides, resumption as the cell says),
  // its client's exporter summed; the first one's report goes in the response.
  async checksum() {
    const h = await handshake(this.cfg, true);
    try {
      const c = report(h.client, false);
      const s = report(h.server, true);
      if (c.exporter !== s.exporter) throw tlsError(`exporters differ: client ${c.exporter}, server ${s.exporter}`);
      for (const [side, r] of [
        ["client", c],
        ["server", s],
      ]) {
        if (r.group !== this.cfg.group)
          throw tlsError(`${side} negotiated group ${r.group}, the cell's is ${this.cfg.group}`);
        if (r.resumed !== this.cfg.resume) throw tlsError(`${side} ${r.resumed ? "resumed" : "did not resume"}`);
      }
      this.tlsReport ??= {
        group: s.group,
        cipher: s.cipher,
        sigalg: null,
        resumed: s.resumed,
        round_trips: h.round_trips,
        flights: h.flights,
      };
      return checksum(Buffer.from(c.exporter, "hex"));
    } finally {
      h.client.destroy();
      h.server.destroy();
    }
  }

  report() {
    return this.tlsReport;
  }
}

// ticketFor: a ticket for the -resume cells from one full handshake outside
// any timing (OpenSSL's tickets are stateless, so every resumption can
// offer the same one).
async function ticketFor(cfg) {
  const h = await handshake({ ...cfg, ticket: undefined, resume: true });
  if (!h.session) throw tlsError("the full handshake left no session ticket");
  return h.session;
}

function tlsAlg(name, cell) {
  return {
    name,
    tls: true,
    ops: ["handshake", "client", "server"],
    stream: false,
    exec: () => {
      throw new Unsupported(`${name} is verified by interop (tls-serve / tls-connect), not verify cases`);
    },
    cell: async (p) => {
      const t = p.tls;
      const cfg = {
        name: serverName(t),
        server: serverContext(cell, t),
        client: clientContext(cell, t),
        group: cell.code,
        resume: cell.resume,
        ticket: undefined,
      };
      if (cell.resume) cfg.ticket = await ticketFor(cfg);
      return new HandshakeCell(cfg, p.op);
    },
  };
}

// ---- interop over loopback TCP -------------------------------------------------

function interopCell(req) {
  const cell = parseCell(req.alg);
  if (cell === null) throw new NotOffered(`alg ${JSON.stringify(req.alg)} is not a TLS cell of js:node`);
  const t = req.tls;
  if (t === null || typeof t !== "object") throw tlsError("no PKI in the request");
  const n = req.connections ?? 1;
  const timeoutMs = req.timeout_ms ?? 10000;
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw tlsError(`"connections" ${n} out of range [1, 1000]`);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw tlsError(`"timeout_ms" ${timeoutMs} is not a positive integer`);
  return { cell, t, n, timeoutMs };
}

// withTimeout: the promise, or a tls error after ms.
function withTimeout(p, ms, what, onTimeout) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(tlsError(`${what} timed out after ${ms} ms`));
    }, ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

// serveOne: the handshake on an accepted socket, then ping/pong.
function serveOne(sock, server) {
  return new Promise((resolve, reject) => {
    server.tickets.reset();
    const s = new tls.TLSSocket(sock, { isServer: true, secureContext: server.ctx });
    let rep = null;
    let got = Buffer.alloc(0);
    const fail = (e) => {
      s.destroy();
      reject(e);
    };
    s.on("error", fail);
    s.on("secure", () => {
      try {
        rep = report(s, true);
      } catch (e) {
        fail(e);
      }
    });
    s.on("data", (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 4) {
        if (got.subarray(0, 4).toString() !== "ping")
          return fail(tlsError(`read ${JSON.stringify(got.toString())}, not ping`));
        s.end("pong", () => resolve(rep));
      }
    });
    s.on("close", () =>
      rep === null || got.length < 4 ? reject(tlsError("connection closed before ping")) : resolve(rep),
    );
  });
}

// The interop commands' state: one serving at a time per process; a new
// tls-serve ends the one before (its result is lost).
let serving = null;

export async function tlsServe(req) {
  const { cell, t, n, timeoutMs } = interopCell(req);
  if (serving !== null) serving.stop();
  serving = null;
  const server = serverContext(cell, t);
  const srv = net.createServer();
  const sockets = new Set();
  const stop = () => {
    srv.close();
    for (const s of sockets) s.destroy();
  };
  const handshakes = [];
  const work = new Promise((resolve, reject) => {
    let chain = Promise.resolve();
    srv.on("connection", (sock) => {
      if (sockets.size >= n) return sock.destroy();
      sockets.add(sock);
      chain = chain.then(() => serveOne(sock, server).then((r) => handshakes.push(r)));
      chain.then(() => handshakes.length === n && resolve(), reject);
    });
    srv.on("error", reject);
  });
  await new Promise((resolve, reject) => {
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", resolve);
  });
  const port = srv.address().port;
  const result = withTimeout(work, timeoutMs, "serving", () => {})
    .then(() => ({ ok: true, handshakes }))
    .catch((e) => ({ ok: false, error: e.message?.startsWith("tls: ") ? e.message : `tls: ${e.message}` }))
    .finally(stop);
  serving = { result, stop };
  return { ok: true, port };
}

export async function tlsResult() {
  if (serving === null) throw tlsError("not serving (no tls-serve before)");
  const r = await serving.result;
  serving = null;
  return r;
}

// connectOne: one client connection; resolves with its report and the
// last session (ticket) it received.
function connectOne(port, ctx, name, session) {
  return new Promise((resolve, reject) => {
    let rep = null;
    let ticket = null;
    let got = Buffer.alloc(0);
    const c = tls.connect({ host: "127.0.0.1", port, secureContext: ctx, servername: name, session });
    const fail = (e) => {
      c.destroy();
      reject(e);
    };
    c.on("error", fail);
    c.on("session", (s) => (ticket = s));
    c.on("secureConnect", () => {
      try {
        rep = report(c, false);
        c.write("ping");
      } catch (e) {
        fail(e);
      }
    });
    c.on("data", (d) => {
      got = Buffer.concat([got, d]);
    });
    c.on("end", () => c.end());
    c.on("close", () => {
      if (rep === null) return reject(tlsError("connection closed before the handshake completed"));
      if (got.toString() !== "pong") return reject(tlsError(`read ${JSON.stringify(got.toString())}, not pong`));
      resolve({ rep, ticket });
    });
  });
}

export async function tlsConnect(req) {
  const { cell, t, n, timeoutMs } = interopCell(req);
  const port = req.port;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw tlsError(`"port" ${port} is not a TCP port`);
  const ctx = clientContext(cell, t);
  const name = serverName(t);
  const work = (async () => {
    const handshakes = [];
    let ticket;
    for (let i = 0; i < n; i++) {
      const r = await connectOne(port, ctx, name, cell.resume ? ticket : undefined);
      handshakes.push(r.rep);
      ticket = r.ticket ?? ticket;
    }
    return handshakes;
  })();
  try {
    return { ok: true, handshakes: await withTimeout(work, timeoutMs, "connecting", () => {}) };
  } catch (e) {
    return { ok: false, error: e.message?.startsWith("tls: ") ? e.message : `tls: ${e.message}` };
  }
}

// ---- the provider's part ----------------------------------------------------------

export function tlsNotes() {
  return [
    `TLS 1.3 (protocol 7): node:tls with Node's OpenSSL ${process.versions.openssl}, client and server in one process over a pair of in-memory Duplex streams (the bytes each side's TLSSocket writes are queued and pushed into the other's stream by the handshake loop). Groups x25519 and p256 (ecdhCurve, the only group either side offers); OpenSSL 3.0 has no ML-KEM hybrids. Cipher suite TLS_AES_128_GCM_SHA256 only; client and server SecureContexts made once per cell; the client checks the chain against the root and the host name (Node's default checkServerIdentity).`,
    "TLS client/server split: node:tls processes a side's input synchronously inside the push() that delivers it, but writes the records it made only after its previous write completed, which Node's JSStreamSocket signals on setImmediate. A side's time is the clock read around its own calls: creating its TLSSocket (the client's writes the ClientHello), each push() into it with the event-loop turn after it (where its output is written; none after the last), destroy(). Approximate to a few µs (a turn also runs the other side's pending write completion). In neither side, only in `handshake`: taking the queued bytes, one turn before the first delivery (the server's stream starts reading on nextTick), what Node defers further (closing the handles). The client's time includes Node's host name check, which first turns the peer's whole chain into JS objects (getPeerCertificate(true)): about a fifth of the process's CPU in a profile of a full handshake.",
    "TLS tickets: Node has no SSL_CTX_set_num_tickets, SSL_OP_NO_TICKET still sends two (stateful) tickets in TLS 1.3, and Node's own ticket keys send two after a full handshake and none after a resumption. So the server's tickets go through the ticket-key callback (Node's internal SecureContext.enableTicketKeyCallback, keys of Node's kind: HMAC-SHA256 and AES-128-CBC, random per cell): a full cell declines both of OpenSSL's would-be tickets (OpenSSL serialises the session and calls the callback, then sends no NewSessionTicket); a -resume cell issues the first and declines the second, and accepts an offered ticket with renewal, so a resumption is answered with one new ticket. That is one or two JS calls per handshake inside the server's time. Every timed resumption offers the same ticket, from one full handshake made when the cell is set up.",
    "TLS reports: Node exposes no signature scheme (sigalg null); the server's group is the kex_group of the session its OpenSSL encoded (getSession()), the client's is getEphemeralKeyInfo(); cipher from getCipher().standardName.",
  ];
}

// addTls gives the js:node provider its TLS cells and the interop commands.
export function addTls(p) {
  if (!canDeclineTickets) return;
  for (const g of Object.keys(GROUPS)) {
    for (const a of AUTHS) {
      for (const r of ["", "-resume"]) {
        const name = `tls13-${g}-${a}${r}`;
        p.algs.push(tlsAlg(name, parseCell(name)));
      }
    }
  }
  p.notes.push(...tlsNotes());
  p.tls = { serve: tlsServe, result: tlsResult, connect: tlsConnect };
}
