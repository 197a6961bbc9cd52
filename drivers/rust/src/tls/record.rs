//! Thin wrappers that note which signature scheme a handshake used:
//! rustls does not expose it on a connection. They delegate everything to
//! the library's own signing key and webpki verifier.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, SubjectPublicKeyInfoDer, UnixTime};
use rustls::sign::{Signer, SigningKey};
use rustls::{DigitallySignedStruct, Error, SignatureAlgorithm, SignatureScheme};

/// The server's key: records the scheme of each CertificateVerify it signs.
#[derive(Debug)]
pub struct Signing {
    inner: Arc<dyn SigningKey>,
    last: Arc<AtomicU16>,
}

impl Signing {
    pub fn new(inner: Arc<dyn SigningKey>, last: Arc<AtomicU16>) -> Signing {
        Signing { inner, last }
    }
}

impl SigningKey for Signing {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let inner = self.inner.choose_scheme(offered)?;
        Some(Box::new(Signed {
            inner,
            last: self.last.clone(),
        }))
    }
    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        self.inner.public_key()
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        self.inner.algorithm()
    }
}

#[derive(Debug)]
struct Signed {
    inner: Box<dyn Signer>,
    last: Arc<AtomicU16>,
}

impl Signer for Signed {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let sig = self.inner.sign(message)?;
        self.last
            .store(u16::from(self.inner.scheme()), Ordering::Relaxed);
        Ok(sig)
    }
    fn scheme(&self) -> SignatureScheme {
        self.inner.scheme()
    }
}

/// The client's webpki verifier: records the scheme of each
/// CertificateVerify it accepts.
#[derive(Debug)]
pub struct Verifying {
    inner: Arc<WebPkiServerVerifier>,
    last: Arc<AtomicU16>,
}

impl Verifying {
    pub fn new(inner: Arc<WebPkiServerVerifier>, last: Arc<AtomicU16>) -> Verifying {
        Verifying { inner, last }
    }
}

impl ServerCertVerifier for Verifying {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        let ok = self.inner.verify_tls13_signature(message, cert, dss)?;
        self.last.store(u16::from(dss.scheme), Ordering::Relaxed);
        Ok(ok)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}
