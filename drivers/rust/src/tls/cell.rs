//! The bench cell of a TLS 1.3 handshake, for any library: a fresh client
//! and server connection per operation (`Library`), pumped through two
//! in-memory buffers (`Endpoint`) until a turn moves no byte. For the
//! `client` and `server` ops the other side's calls are timed and handed
//! back through `take_untimed_ns` (protocol.md).

use std::time::Instant;

use super::{Flights, Handshake, Report, Spec};
use crate::ops::{Cell, Op};

/// One side of a handshake on the in-memory transport.
pub trait Endpoint {
    /// Everything it has to send now, appended to `out`.
    fn write_out(&mut self, out: &mut Vec<u8>) -> Result<(), String>;
    /// All of `data` taken in and processed.
    fn read_in(&mut self, data: &[u8]) -> Result<(), String>;
    /// The handshake completed.
    fn done(&self) -> bool;
    /// It was a resumption.
    fn resumed(&self) -> bool;
    /// What this side reports of the finished handshake.
    fn view(&self) -> Result<Handshake, String>;
}

/// A library's configurations of one cell (made once, untimed): the two
/// connections of each handshake.
pub trait Library {
    type Client: Endpoint;
    type Server: Endpoint;
    fn client(&self) -> Result<Self::Client, String>;
    fn server(&self) -> Result<Self::Server, String>;
}

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

pub struct TlsCell<L: Library> {
    spec: Spec,
    lib: L,
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

impl<L: Library> TlsCell<L> {
    pub fn new(op: Op, spec: Spec, lib: L) -> Result<TlsCell<L>, String> {
        let timed = match op {
            Op::Client => Some(Who::Client),
            Op::Server => Some(Who::Server),
            _ => None,
        };
        let mut c = TlsCell {
            spec,
            lib,
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
            c.handshake(false, false)?;
        }
        Ok(c)
    }

    /// One handshake, a resumption or not (`resumed`); `check`: also the
    /// checks and the report of protocol.md (the untimed handshake of
    /// `checksum`).
    fn handshake(&mut self, check: bool, resumed: bool) -> Result<u64, String> {
        let clock = &mut self.clock;
        let lib = &self.lib;
        let mut client = clock.call(Who::Client, || lib.client())?;
        let mut server = clock.call(Who::Server, || lib.server())?;
        self.writes.clear();
        // Turns: the client writes, the server reads and writes, the client
        // reads; until a turn moves no byte.
        for _ in 0..8 {
            self.c2s.clear();
            clock.call(Who::Client, || client.write_out(&mut self.c2s))?;
            if !self.c2s.is_empty() {
                self.writes.push((true, self.c2s.len()));
                clock.call(Who::Server, || server.read_in(&self.c2s))?;
            }
            self.s2c.clear();
            clock.call(Who::Server, || server.write_out(&mut self.s2c))?;
            if !self.s2c.is_empty() {
                self.writes.push((false, self.s2c.len()));
                clock.call(Who::Client, || client.read_in(&self.s2c))?;
            }
            if self.c2s.is_empty() && self.s2c.is_empty() {
                break;
            }
        }
        // a few ns of checks, on every handshake (a resumption that fell
        // back to a full handshake must not be timed)
        if !client.done() || !server.done() {
            return Err("tls: the handshake did not complete".into());
        }
        if client.resumed() != resumed || server.resumed() != resumed {
            return Err(format!(
                "tls: resumed: client {}, server {}, expected {resumed}",
                client.resumed(),
                server.resumed()
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
    fn check(&mut self, client: &L::Client, server: &L::Server) -> Result<(), String> {
        let want = Some(self.spec.group_code());
        let c = client.view()?;
        let s = server.view()?;
        if c.exporter != s.exporter {
            return Err(format!(
                "tls: exporters differ: client {}, server {}",
                c.exporter, s.exporter
            ));
        }
        for (who, h) in [("client", &c), ("server", &s)] {
            if h.negotiated.group != want {
                return Err(format!(
                    "tls: the {who} reports group {:?}, the cell's is {want:?}",
                    h.negotiated.group
                ));
            }
        }
        let e = crate::input::decode_hex("exporter", &c.exporter)?;
        self.exporter = e
            .try_into()
            .map_err(|_| "tls: the exporter is not 32 bytes")?;
        self.report = Some(Report {
            negotiated: s.negotiated,
            round_trips: self.writes.iter().filter(|w| w.0).count().saturating_sub(1) as u32,
            flights: flights(&self.writes),
        });
        Ok(())
    }
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

impl<L: Library> Cell for TlsCell<L> {
    fn run(&mut self) -> u64 {
        match self.handshake(false, self.spec.resume) {
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
        if let Err(e) = self.handshake(true, self.spec.resume) {
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
