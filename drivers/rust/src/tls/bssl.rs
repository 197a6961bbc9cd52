//! `rust:boring`: BoringSSL through the `boring` crate (boring-sys vendors
//! and builds it). A cell's two SSL_CTXs, its connections as the bench
//! cell's endpoints (an SslStream over an in-memory Read + Write), and one
//! interop connection over a TcpStream. A few numbers the crate does not
//! hand out as integers (group ids, ticket count, signature schemes) are
//! read and set through boring-sys.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};

use boring::ssl::{
    ErrorCode, Ssl, SslContext, SslContextBuilder, SslFiletype, SslInfoCallbackMode, SslMethod,
    SslRef, SslSession, SslSessionCacheMode, SslSignatureAlgorithm, SslStream, SslVerifyMode,
    SslVersion,
};
use foreign_types::ForeignTypeRef;

use super::cell::{Endpoint, Library};
use super::{Files, Handshake, Negotiated, Spec, EXPORTER_CONTEXT, EXPORTER_LABEL};

/// The groups BoringSSL has of the cells' (its SSL_GROUP_* ids); no
/// SecP256r1MLKEM768 or SecP384r1MLKEM1024 in it.
const GROUPS: [(&str, u16); 3] = [("x25519", 29), ("p256", 23), ("x25519mlkem768", 0x11ec)];

/// The server keys it signs with and verifies in TLS 1.3. ML-DSA (BoringSSL
/// has SSL_SIGN_ML_DSA_*) is left out: not tried here yet.
const AUTHS: [&str; 3] = ["ecdsa-p256", "ed25519", "rsa-2048"];

/// The schemes the client accepts: BoringSSL's default list (less SHA-1),
/// which has no Ed25519, and Ed25519.
const VERIFY: [u16; 9] = [
    0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601, 0x0807,
];

/// Whether `rust:boring` offers the cell of `group` and `auth`.
pub fn offers(group: &str, auth: &str) -> bool {
    GROUPS.iter().any(|(g, _)| *g == group) && AUTHS.contains(&auth)
}

fn err(what: &str) -> impl Fn(boring::error::ErrorStack) -> String + '_ {
    move |e| format!("tls: {what}: {e}")
}

/// One cell's SSL_CTXs (made once, outside any timing).
pub struct Configs {
    client: SslContext,
    server: Option<SslContext>,
    server_name: String,
    /// The newest session (ticket) the client received, offered next.
    ticket: Arc<Mutex<Option<SslSession>>>,
    /// The scheme the server signed with in its last full handshake,
    /// noted when the handshake is done (BoringSSL keeps it only until then).
    signed: Arc<AtomicU16>,
}

impl Configs {
    /// The client side (`ca`, `server_name`) and, with `server`, the server
    /// side (`chain`, `key`) of `spec`.
    pub fn new(spec: Spec, f: &Files, server: bool) -> Result<Configs, String> {
        let group = GROUPS
            .iter()
            .find(|(g, _)| *g == spec.group)
            .map(|(_, id)| *id)
            .ok_or_else(|| format!("tls: group {} not offered", spec.group))?;
        let signed = Arc::new(AtomicU16::new(0));
        let server = if server {
            Some(server_ctx(spec, f, group, signed.clone())?)
        } else {
            None
        };
        let ticket = Arc::new(Mutex::new(None));
        Ok(Configs {
            client: client_ctx(f, group, ticket.clone())?,
            server,
            server_name: f.server_name.clone(),
            ticket,
            signed,
        })
    }

    /// A client SSL: SNI and the name checked, the newest ticket offered.
    fn client_ssl(&self) -> Result<Ssl, String> {
        let mut ssl = Ssl::new(&self.client).map_err(err("client"))?;
        ssl.set_hostname(&self.server_name)
            .map_err(err("server_name"))?;
        ssl.param_mut()
            .set_host(&self.server_name)
            .map_err(err("server_name"))?;
        if let Some(s) = self
            .ticket
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            // safe: the session comes from this very SSL_CTX
            unsafe { ssl.set_session(s) }.map_err(err("set_session"))?;
        }
        Ok(ssl)
    }

    fn server_ssl(&self) -> Result<Ssl, String> {
        let ctx = self.server.as_ref().ok_or("tls: no server configuration")?;
        Ssl::new(ctx).map_err(err("server"))
    }

    /// One interop connection, the server's side.
    pub fn serve(&self, sock: TcpStream) -> Result<Handshake, String> {
        let mut s = SslStream::new(self.server_ssl()?, sock).map_err(err("server"))?;
        self.signed.store(0, Ordering::Relaxed);
        s.accept().map_err(|e| format!("handshake: {e}"))?;
        super::interop::ping_pong(&mut s, true)?;
        let h = view(s.ssl(), self.signed.load(Ordering::Relaxed))?;
        let _ = s.shutdown(); // close_notify, best effort
        Ok(h)
    }

    /// One interop connection, the client's side.
    pub fn connect(&self, sock: TcpStream) -> Result<Handshake, String> {
        let mut s = SslStream::new(self.client_ssl()?, sock).map_err(err("client"))?;
        s.connect().map_err(|e| format!("handshake: {e}"))?;
        super::interop::ping_pong(&mut s, false)?;
        let h = view(s.ssl(), peer_sigalg(s.ssl()))?;
        let _ = s.shutdown();
        Ok(h)
    }
}

/// TLS 1.3 only, the cell's one group.
fn base(group: u16) -> Result<SslContextBuilder, String> {
    let mut b = SslContext::builder(SslMethod::tls()).map_err(err("SSL_CTX"))?;
    b.set_min_proto_version(Some(SslVersion::TLS1_3))
        .and_then(|_| b.set_max_proto_version(Some(SslVersion::TLS1_3)))
        .map_err(err("version"))?;
    // safe: a valid SSL_CTX and a one-element array
    if unsafe { boring_sys::SSL_CTX_set1_group_ids(b.as_ptr(), &group, 1) } != 1 {
        return Err(format!("tls: SSL_CTX_set1_group_ids({group:#06x}) failed"));
    }
    Ok(b)
}

fn server_ctx(
    spec: Spec,
    f: &Files,
    group: u16,
    signed: Arc<AtomicU16>,
) -> Result<SslContext, String> {
    if f.chain.is_empty() || f.key.is_empty() {
        return Err("tls: no PKI in the request".into());
    }
    let mut b = base(group)?;
    b.set_certificate_chain_file(&f.chain)
        .map_err(|e| format!("tls: chain {}: {e}", f.chain))?;
    b.set_private_key_file(&f.key, SslFiletype::PEM)
        .map_err(|e| format!("tls: key {}: {e}", f.key))?;
    b.check_private_key().map_err(err("chain and key"))?;
    // full cells: no ticket; -resume: exactly one per handshake (stateless,
    // BoringSSL's default ticket keys)
    // safe: a valid SSL_CTX
    unsafe { boring_sys::SSL_CTX_set_num_tickets(b.as_ptr(), usize::from(spec.resume)) };
    b.set_info_callback(move |ssl, mode, _| {
        if mode == SslInfoCallbackMode::HANDSHAKE_DONE {
            // safe: a live SSL in its own callback
            let s = unsafe { boring_sys::SSL_get_signature_algorithm_used(ssl.as_ptr()) };
            signed.store(s, Ordering::Relaxed);
        }
    });
    Ok(b.build())
}

fn client_ctx(
    f: &Files,
    group: u16,
    ticket: Arc<Mutex<Option<SslSession>>>,
) -> Result<SslContext, String> {
    if f.ca.is_empty() {
        return Err("tls: no PKI in the request".into());
    }
    let mut b = base(group)?;
    b.set_verify(SslVerifyMode::PEER);
    b.set_verify_algorithm_prefs(&VERIFY.map(SslSignatureAlgorithm::from))
        .map_err(err("verify algorithms"))?;
    b.set_ca_file(&f.ca)
        .map_err(|e| format!("tls: ca {}: {e}", f.ca))?;
    // the client keeps the newest ticket; a full cell's server sends none
    b.set_session_cache_mode(SslSessionCacheMode::CLIENT);
    b.set_new_session_callback(move |_, s| {
        *ticket.lock().unwrap_or_else(|e| e.into_inner()) = Some(s);
    });
    Ok(b.build())
}

fn peer_sigalg(ssl: &SslRef) -> u16 {
    // safe: a live SSL
    unsafe { boring_sys::SSL_get_peer_signature_algorithm(ssl.as_ptr()) }
}

/// One side's view of a finished handshake; `sigalg` its scheme (0: none).
fn view(ssl: &SslRef, sigalg: u16) -> Result<Handshake, String> {
    let resumed = ssl.session_reused();
    let mut exporter = [0u8; 32];
    let label = std::str::from_utf8(EXPORTER_LABEL).expect("ASCII");
    ssl.export_keying_material(&mut exporter, label, Some(EXPORTER_CONTEXT))
        .map_err(err("exporter"))?;
    Ok(Handshake {
        negotiated: Negotiated {
            group: ssl.curve(),
            cipher: ssl.current_cipher().map(|c| c.protocol_id()),
            sigalg: (sigalg != 0 && !resumed).then_some(sigalg),
            resumed,
        },
        exporter: crate::input::encode_hex(&exporter),
    })
}

/// The in-memory transport of one connection: what it has yet to read,
/// what it wrote.
#[derive(Default)]
pub struct Mem {
    input: Vec<u8>,
    pos: usize,
    out: Vec<u8>,
}

impl Read for Mem {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = &self.input[self.pos..];
        if left.is_empty() {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let n = left.len().min(buf.len());
        buf[..n].copy_from_slice(&left[..n]);
        self.pos += n;
        Ok(n)
    }
}

impl Write for Mem {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A connection on the in-memory transport.
pub struct Conn {
    s: SslStream<Mem>,
    /// The server's scheme, noted by its info callback.
    signed: Option<Arc<AtomicU16>>,
}

impl Conn {
    /// `signed`: a server (accept state), else a client (connect state).
    fn new(ssl: Ssl, signed: Option<Arc<AtomicU16>>) -> Result<Conn, String> {
        // safe: a valid SSL not yet in use
        unsafe {
            match signed {
                Some(_) => boring_sys::SSL_set_accept_state(ssl.as_ptr()),
                None => boring_sys::SSL_set_connect_state(ssl.as_ptr()),
            }
        }
        let s = SslStream::new(ssl, Mem::default()).map_err(err("stream"))?;
        Ok(Conn { s, signed })
    }

    /// Moves the handshake on as far as the input allows; once it is done,
    /// a read takes the post-handshake messages (the client's ticket).
    #[inline(always)]
    fn drive(&mut self) -> Result<(), String> {
        let r = if self.s.ssl().is_init_finished() {
            self.s.ssl_read(&mut [0u8; 1]).map(|_| {
                // no application data in a handshake
                Err("tls: unexpected application data".to_string())
            })
        } else {
            self.s.do_handshake().map(|_| self.flush_tickets())
        };
        match r {
            Ok(r) => r,
            Err(e) if e.code() == ErrorCode::WANT_READ => Ok(()),
            Err(e) => Err(format!("tls: {e}")),
        }
    }

    /// A server's tickets wait for its first write over TCP-like transports
    /// (tls13_server.cc: "Consumers which don't write data to the client
    /// will need to do a zero-byte write if they wish to flush the
    /// tickets"): that write, once the handshake is done.
    fn flush_tickets(&mut self) -> Result<(), String> {
        if self.signed.is_none() {
            return Ok(());
        }
        // safe: a live SSL; zero bytes from a valid pointer
        let r =
            unsafe { boring_sys::SSL_write(self.s.ssl().as_ptr(), [0u8; 1].as_ptr().cast(), 0) };
        if r < 0 {
            return Err("tls: SSL_write of the tickets failed".into());
        }
        Ok(())
    }
}

impl Library for Configs {
    type Client = Conn;
    type Server = Conn;
    fn client(&self) -> Result<Conn, String> {
        Conn::new(self.client_ssl()?, None)
    }
    fn server(&self) -> Result<Conn, String> {
        Conn::new(self.server_ssl()?, Some(self.signed.clone()))
    }
}

impl Endpoint for Conn {
    #[inline(always)]
    fn write_out(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        self.drive()?;
        let m = self.s.get_mut();
        out.extend_from_slice(&m.out);
        m.out.clear();
        Ok(())
    }
    #[inline(always)]
    fn read_in(&mut self, data: &[u8]) -> Result<(), String> {
        let m = self.s.get_mut();
        m.input.drain(..m.pos);
        m.pos = 0;
        m.input.extend_from_slice(data);
        self.drive()
    }
    fn done(&self) -> bool {
        self.s.ssl().is_init_finished()
    }
    fn resumed(&self) -> bool {
        self.s.ssl().session_reused()
    }
    fn view(&self) -> Result<Handshake, String> {
        let sigalg = match &self.signed {
            Some(s) => s.load(Ordering::Relaxed),
            None => peer_sigalg(self.s.ssl()),
        };
        view(self.s.ssl(), sigalg)
    }
}
