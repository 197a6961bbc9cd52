//! Interop over loopback TCP (protocol.md, "Interop: tls-serve, tls-result,
//! tls-connect"), for any library: the listener, its background thread (so
//! the driver keeps answering requests), the deadlines; one connection's
//! handshake, ping and pong are the library's (rustls' StreamOwned over a
//! std TcpStream here, BoringSSL's in `bssl.rs`).

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustls::{ClientConnection, ServerConnection, StreamOwned};

use super::{Configs, Handshake};

/// The exchange after an interop handshake: the client writes "ping", the
/// server reads it and answers "pong" (both libraries' connections).
pub(crate) fn ping_pong<S: Read + Write>(s: &mut S, server: bool) -> Result<(), String> {
    if server {
        hear(s, "ping")?;
        say(s, "pong")
    } else {
        say(s, "ping")?;
        hear(s, "pong")
    }
}

fn say(s: &mut impl Write, word: &str) -> Result<(), String> {
    s.write_all(word.as_bytes())
        .and_then(|_| s.flush())
        .map_err(|e| format!("writing {word}: {e}"))
}

fn hear(s: &mut impl Read, word: &str) -> Result<(), String> {
    let mut got = [0u8; 4];
    s.read_exact(&mut got)
        .map_err(|e| format!("reading {word}: {e}"))?;
    if got[..] != *word.as_bytes() {
        return Err(format!("expected {word}, read {got:02x?}"));
    }
    Ok(())
}

/// A background server: what `tls-result` waits for, and the flag that
/// ends it early (a second `tls-serve` replaces it: one server per process).
pub struct Serving {
    handle: JoinHandle<Result<Vec<Handshake>, String>>,
    stop: Arc<AtomicBool>,
}

impl Serving {
    /// Waits until the serving ended (at most its timeout).
    pub fn result(self) -> Result<Vec<Handshake>, String> {
        self.handle
            .join()
            .unwrap_or_else(|_| Err("tls: the server thread panicked".into()))
    }

    /// Stops accepting (a connection under way ends by itself, within the
    /// timeout) and waits for the thread; the result is dropped.
    pub fn end(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.handle.join();
    }
}

/// Binds 127.0.0.1:0 and serves `connections` handshakes one after the
/// other in a thread, each by `one` on a socket bound by the deadline;
/// returns the port at once.
pub fn serve<F>(one: F, connections: u32, timeout: Duration) -> Result<(u16, Serving), String>
where
    F: Fn(TcpStream) -> Result<Handshake, String> + Send + 'static,
{
    let deadline = Instant::now() + timeout;
    let listener =
        TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| format!("tls: listen: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("tls: listen: {e}"))?
        .port();
    // accept polls so that the deadline holds with no client at all
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("tls: listen: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let handle = std::thread::spawn(move || {
        (0..connections)
            .map(|i| {
                let sock = accept(&listener, deadline, &stopped)?;
                bound(&sock, deadline)
                    .and_then(|_| one(sock))
                    .map_err(|e| format!("tls: connection {}: {e}", i + 1))
            })
            .collect()
    });
    Ok((port, Serving { handle, stop }))
}

fn accept(l: &TcpListener, deadline: Instant, stop: &AtomicBool) -> Result<TcpStream, String> {
    loop {
        match l.accept() {
            Ok((s, _)) => return Ok(s),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::Relaxed) {
                    return Err("ended by a later tls-serve".into());
                }
                if Instant::now() >= deadline {
                    return Err("timed out waiting for a connection".into());
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(format!("accept: {e}")),
        }
    }
}

/// The socket's reads and writes give up at the deadline.
fn bound(s: &TcpStream, deadline: Instant) -> Result<(), String> {
    let left = deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or("timed out")?;
    s.set_nonblocking(false)
        .and_then(|_| s.set_read_timeout(Some(left)))
        .and_then(|_| s.set_write_timeout(Some(left)))
        .and_then(|_| s.set_nodelay(true))
        .map_err(|e| format!("socket: {e}"))
}

/// rustls' side of one server connection.
pub fn rustls_serve(cfg: &Configs, sock: TcpStream) -> Result<Handshake, String> {
    let sc = cfg.server.clone().ok_or("no server configuration")?;
    let conn = ServerConnection::new(sc).map_err(|e| e.to_string())?;
    rustls_one(conn, sock, true, &cfg.signed)
}

/// rustls' side of one interop connection: the handshake, ping and pong,
/// the handshake's view (`sigalg`: the scheme its wrapper saw), close.
fn rustls_one<C, D>(
    conn: C,
    sock: TcpStream,
    server: bool,
    sigalg: &AtomicU16,
) -> Result<Handshake, String>
where
    C: std::ops::DerefMut<Target = rustls::ConnectionCommon<D>>,
    D: rustls::SideData + 'static,
{
    sigalg.store(0, Ordering::Relaxed);
    let mut tls = StreamOwned::new(conn, sock);
    while tls.conn.is_handshaking() {
        tls.conn
            .complete_io(&mut tls.sock)
            .map_err(|e| format!("handshake: {e}"))?;
    }
    ping_pong(&mut tls, server)?;
    let h = Handshake::of(&tls.conn, sigalg)?;
    close(tls);
    Ok(h)
}

/// close_notify, best effort: the peer may have closed first.
fn close<C, D>(mut tls: StreamOwned<C, TcpStream>)
where
    C: std::ops::DerefMut<Target = rustls::ConnectionCommon<D>>,
    D: 'static,
{
    tls.conn.send_close_notify();
    let _ = tls.conn.complete_io(&mut tls.sock);
}

/// `connections` handshakes to 127.0.0.1:`port`, one after the other,
/// each by `one` on a socket bound by the deadline: ping, pong (which also
/// brings the ticket), close; the client configuration's store offers a
/// ticket from the previous one.
pub fn connect(
    one: impl Fn(TcpStream) -> Result<Handshake, String>,
    port: u16,
    connections: u32,
    timeout: Duration,
) -> Result<Vec<Handshake>, String> {
    let deadline = Instant::now() + timeout;
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    (0..connections)
        .map(|i| {
            connect_one(&one, addr, deadline).map_err(|e| format!("tls: connection {}: {e}", i + 1))
        })
        .collect()
}

fn connect_one(
    one: impl Fn(TcpStream) -> Result<Handshake, String>,
    addr: SocketAddr,
    deadline: Instant,
) -> Result<Handshake, String> {
    let left = deadline
        .checked_duration_since(Instant::now())
        .ok_or("timed out")?;
    let sock = TcpStream::connect_timeout(&addr, left).map_err(|e| format!("connect: {e}"))?;
    bound(&sock, deadline)?;
    one(sock)
}

/// rustls' side of one client connection.
pub fn rustls_connect(cfg: &Configs, sock: TcpStream) -> Result<Handshake, String> {
    let conn = ClientConnection::new(cfg.client.clone(), cfg.server_name.clone())
        .map_err(|e| e.to_string())?;
    rustls_one(conn, sock, false, &cfg.verified)
}
