//! The bench cell of a TLS 1.3 handshake: a fresh rustls client and
//! server connection per operation, pumped through two in-memory buffers
//! (`write_tls` into one Vec, `read_tls` from it) until neither side is
//! handshaking. For the `client` and `server` ops the other side's calls
//! are timed and handed back through `take_untimed_ns` (protocol.md).

use std::time::Instant;

use rustls::{ClientConnection, ConnectionCommon, HandshakeKind, ServerConnection};

use super::{Configs, Flights, Handshake, Report, Spec};
use crate::ops::{Cell, Op};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Client,
    Server,
}

/// Which calls count: all (`handshake`), or one side's (`client`,
/// `server`), the rest timed here and subtracted by the batch.
struct Clock {
    timed: Option<Who>,
    untimed_ns: u64,
}

impl Clock {
    #[inline(always)]
    fn call<R>(&mut self, who: Who, f: impl FnOnce() -> R) -> R {
        match self.timed {
            Some(t) if t != who => {
                let t0 = Instant::now();
                let r = f();
                self.untimed_ns += u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
                r
            }
            _ => f(),
        }
    }
}

pub struct TlsCell {
    spec: Spec,
    cfg: Configs,
    clock: Clock,
    /// The two directions of the in-memory transport, reused.
    c2s: Vec<u8>,
    s2c: Vec<u8>,
    /// Bytes of each flight written, in order (true: the client's).
    writes: Vec<(bool, usize)>,
    exporter: [u8; 32],
    report: Option<Report>,
    err: Option<String>,
}

impl TlsCell {
    pub fn new(op: Op, spec: Spec, cfg: Configs) -> Result<TlsCell, String> {
        let timed = match op {
            Op::Client => Some(Who::Client),
            Op::Server => Some(Who::Server),
            _ => None,
        };
        let mut c = TlsCell {
            spec,
            cfg,
            clock: Clock {
                timed,
                untimed_ns: 0,
            },
            c2s: Vec::with_capacity(1 << 15),
            s2c: Vec::with_capacity(1 << 15),
            writes: Vec::with_capacity(8),
            exporter: [0; 32],
            report: None,
            err: None,
        };
        if spec.resume {
            // the first ticket, from a full handshake outside any timing;
            // each resumption then leaves the next one in the client's store
            c.handshake(false, HandshakeKind::Full)?;
        }
        Ok(c)
    }

    /// What every measured handshake of the cell must be.
    fn kind(&self) -> HandshakeKind {
        if self.spec.resume {
            HandshakeKind::Resumed
        } else {
            HandshakeKind::Full
        }
    }

    /// One handshake of the `want` kind; `check`: also the checks and the
    /// report of protocol.md (the untimed handshake of `checksum`).
    fn handshake(&mut self, check: bool, want: HandshakeKind) -> Result<u64, String> {
        let clock = &mut self.clock;
        let (cc, sc) = (&self.cfg.client, self.cfg.server.as_ref().expect("server"));
        let name = &self.cfg.server_name;
        let mut client = clock
            .call(Who::Client, || {
                ClientConnection::new(cc.clone(), name.clone())
            })
            .map_err(|e| format!("tls: client: {e}"))?;
        let mut server = clock
            .call(Who::Server, || ServerConnection::new(sc.clone()))
            .map_err(|e| format!("tls: server: {e}"))?;
        self.writes.clear();
        // Turns: the client writes, the server reads and writes, the client
        // reads; until a turn moves no byte.
        for _ in 0..8 {
            self.c2s.clear();
            clock.call(Who::Client, || write_all(&mut client, &mut self.c2s))?;
            if !self.c2s.is_empty() {
                self.writes.push((true, self.c2s.len()));
                clock.call(Who::Server, || read_all(&mut server, &self.c2s))?;
            }
            self.s2c.clear();
            clock.call(Who::Server, || write_all(&mut server, &mut self.s2c))?;
            if !self.s2c.is_empty() {
                self.writes.push((false, self.s2c.len()));
                clock.call(Who::Client, || read_all(&mut client, &self.s2c))?;
            }
            if self.c2s.is_empty() && self.s2c.is_empty() {
                break;
            }
        }
        // a few ns of checks, on every handshake (a resumption that fell
        // back to a full handshake must not be timed)
        if client.is_handshaking() || server.is_handshaking() {
            return Err("tls: the handshake did not complete".into());
        }
        if client.handshake_kind() != Some(want) || server.handshake_kind() != Some(want) {
            return Err(format!(
                "tls: handshake kind: client {:?}, server {:?}, expected {want:?}",
                client.handshake_kind(),
                server.handshake_kind()
            ));
        }
        if check {
            self.check(&client, &server)?;
        }
        let sink = self.writes.len() as u64;
        let clock = &mut self.clock;
        clock.call(Who::Client, || drop(client));
        clock.call(Who::Server, || drop(server));
        Ok(sink)
    }

    /// Both completed, both derive the same exporter and report the cell's
    /// group: then the report (the server's view).
    fn check(
        &mut self,
        client: &ClientConnection,
        server: &ServerConnection,
    ) -> Result<(), String> {
        let want = Some(self.spec.group_code());
        let c = Handshake::of(client, &self.cfg.verified)?;
        let s = Handshake::of(server, &self.cfg.signed)?;
        if c.exporter != s.exporter {
            return Err(format!(
                "tls: exporters differ: client {}, server {}",
                c.exporter, s.exporter
            ));
        }
        for (who, h) in [("client", &c), ("server", &s)] {
            if h.group != want {
                return Err(format!(
                    "tls: the {who} reports group {:?}, the cell's is {want:?}",
                    h.group
                ));
            }
        }
        exporter_bytes(client, &mut self.exporter)?;
        self.report = Some(Report {
            group: s.group,
            cipher: s.cipher,
            sigalg: s.sigalg,
            resumed: s.resumed,
            round_trips: self.writes.iter().filter(|w| w.0).count().saturating_sub(1) as u32,
            flights: flights(&self.writes),
        });
        Ok(())
    }
}

fn exporter_bytes<D>(c: &ConnectionCommon<D>, out: &mut [u8; 32]) -> Result<(), String> {
    c.export_keying_material(
        &mut out[..],
        super::EXPORTER_LABEL,
        Some(super::EXPORTER_CONTEXT),
    )
    .map(|_| ())
    .map_err(|e| format!("tls: exporter: {e}"))
}

/// Everything a connection has to send, into `buf`.
#[inline(always)]
fn write_all<D>(c: &mut ConnectionCommon<D>, buf: &mut Vec<u8>) -> Result<(), String> {
    while c.wants_write() {
        c.write_tls(buf)
            .map_err(|e| format!("tls: write_tls: {e}"))?;
    }
    Ok(())
}

/// All of `buf` into a connection, processed (read_tls takes a bounded
/// amount per call).
#[inline(always)]
fn read_all<D>(c: &mut ConnectionCommon<D>, mut buf: &[u8]) -> Result<(), String> {
    while !buf.is_empty() {
        c.read_tls(&mut buf)
            .map_err(|e| format!("tls: read_tls: {e}"))?;
        c.process_new_packets().map_err(|e| format!("tls: {e}"))?;
    }
    Ok(())
}

/// The flights of protocol.md from the writes in order: the client's last
/// write is its Finished; before it, the ClientHello(s) and the server's
/// flight(s); after it, the tickets.
fn flights(writes: &[(bool, usize)]) -> Flights {
    let last = writes.iter().rposition(|w| w.0).unwrap_or(0);
    let sum = |ws: &[(bool, usize)], client: bool| -> usize {
        ws.iter().filter(|w| w.0 == client).map(|w| w.1).sum()
    };
    Flights {
        client_hello: sum(&writes[..last], true),
        server_flight: sum(&writes[..last], false),
        client_finished: writes.get(last).map_or(0, |w| w.1),
        tickets: sum(writes.get(last + 1..).unwrap_or(&[]), false),
    }
}

impl Cell for TlsCell {
    fn run(&mut self) -> u64 {
        match self.handshake(false, self.kind()) {
            Ok(s) => s,
            Err(e) => {
                self.err.get_or_insert(e);
                0
            }
        }
    }
    /// The client's exporter of the last checked handshake.
    fn output(&self) -> &[u8] {
        &self.exporter
    }
    fn err(&self) -> Option<&str> {
        self.err.as_deref()
    }
    fn checksum(&mut self) -> String {
        self.clock.untimed_ns = 0;
        if let Err(e) = self.handshake(true, self.kind()) {
            self.err.get_or_insert(e);
        }
        crate::input::checksum(&self.exporter)
    }
    fn take_untimed_ns(&mut self) -> u64 {
        std::mem::take(&mut self.clock.untimed_ns)
    }
    fn tls_report(&self) -> Option<Report> {
        self.report.clone()
    }
}
