//! rustls connections as the bench cell's endpoints: `write_tls` into the
//! transport's buffer, `read_tls` + `process_new_packets` from it.

use std::ops::DerefMut;
use std::sync::atomic::AtomicU16;
use std::sync::Arc;

use rustls::{ClientConnection, ConnectionCommon, HandshakeKind, ServerConnection};

use super::cell::{Endpoint, Library};
use super::{Configs, Handshake};

/// A connection and the scheme its wrapper notes (`Configs::signed` or
/// `verified`).
pub struct Conn<C> {
    conn: C,
    sigalg: Arc<AtomicU16>,
}

impl Library for Configs {
    type Client = Conn<ClientConnection>;
    type Server = Conn<ServerConnection>;
    fn client(&self) -> Result<Self::Client, String> {
        let conn = ClientConnection::new(self.client.clone(), self.server_name.clone())
            .map_err(|e| format!("tls: client: {e}"))?;
        Ok(Conn {
            conn,
            sigalg: self.verified.clone(),
        })
    }
    fn server(&self) -> Result<Self::Server, String> {
        let sc = self.server.clone().ok_or("tls: no server configuration")?;
        let conn = ServerConnection::new(sc).map_err(|e| format!("tls: server: {e}"))?;
        Ok(Conn {
            conn,
            sigalg: self.signed.clone(),
        })
    }
}

impl<C, D> Endpoint for Conn<C>
where
    C: DerefMut<Target = ConnectionCommon<D>>,
{
    #[inline(always)]
    fn write_out(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
        while self.conn.wants_write() {
            self.conn
                .write_tls(out)
                .map_err(|e| format!("tls: write_tls: {e}"))?;
        }
        Ok(())
    }
    /// read_tls takes a bounded amount per call.
    #[inline(always)]
    fn read_in(&mut self, mut data: &[u8]) -> Result<(), String> {
        while !data.is_empty() {
            self.conn
                .read_tls(&mut data)
                .map_err(|e| format!("tls: read_tls: {e}"))?;
            self.conn
                .process_new_packets()
                .map_err(|e| format!("tls: {e}"))?;
        }
        Ok(())
    }
    fn done(&self) -> bool {
        !self.conn.is_handshaking()
    }
    fn resumed(&self) -> bool {
        self.conn.handshake_kind() == Some(HandshakeKind::Resumed)
    }
    fn view(&self) -> Result<Handshake, String> {
        Handshake::of(&self.conn, &self.sigalg)
    }
}
