//! The TLS 1.3 cells of `rust:rustls`, `rust:rustls-ring` and `rust:boring`
//! through the request handler: bench responses (checks, report, flight
//! bytes), the errors, and interop between the providers over loopback TCP. The
//! test PKI is made once by the repository's own maker
//! (`cryptobench.verify.tls_pki`, about a second).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::{call, driver};
use crate::Driver;

/// The PKI folder (one per test process), made on first use.
fn pki() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let venv = repo.join(".venv/bin/python");
        let python = if venv.exists() {
            venv
        } else {
            PathBuf::from("python3")
        };
        let dir = std::env::temp_dir().join(format!("cbdriver-rust-tls-{}", std::process::id()));
        let out = Command::new(python)
            .args(["-m", "cryptobench.verify.tls_pki"])
            .arg(&dir)
            .current_dir(&repo)
            .output()
            .expect("run cryptobench.verify.tls_pki");
        assert!(
            out.status.success(),
            "tls_pki: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

fn files(auth: &str) -> Value {
    let d = pki().join(auth);
    let p = |f: &str| d.join(f).to_string_lossy().into_owned();
    json!({"chain": p("chain.pem"), "key": p("leaf.key"), "ca": p("root.pem"),
           "server_name": "server.cryptobench.test"})
}

fn bench(d: &Driver, alg: &str, op: &str) -> Value {
    let auth = ["ecdsa-p256", "ed25519", "rsa-2048", "mldsa-44", "mldsa-65"]
        .into_iter()
        .find(|a| alg.contains(a))
        .expect("auth");
    let line = json!({"cmd": "bench", "alg": alg, "op": op, "size": 0, "chunk": 0, "seed": 1,
        "batch": 0, "target_ns": 1_000_000, "warmup_ns": 0, "samples": 2, "tls": files(auth)});
    let r = call(d, &line.to_string());
    assert_eq!(r["ok"], true, "{alg} {op}: {r}");
    r
}

fn flight(r: &Value, f: &str) -> i64 {
    r["tls"]["flights"][f].as_i64().expect(f)
}

#[test]
fn hello_offers_the_cells() {
    let r = call(&driver("rust:rustls"), r#"{"cmd":"hello","protocol":7}"#);
    assert_eq!(r["protocol"], 7);
    let offers = r["offers"].as_object().unwrap();
    for a in [
        "tls13-x25519-ecdsa-p256",
        "tls13-x25519mlkem768-ecdsa-p256-resume",
        "tls13-secp256r1mlkem768-mldsa-65",
    ] {
        assert_eq!(offers[a], json!(["handshake", "client", "server"]), "{a}");
    }
    assert!(!offers.contains_key("tls13-secp384r1mlkem1024-ecdsa-p256"));
    let r = call(&driver("rust:rustls-ring"), r#"{"cmd":"hello"}"#);
    let offers = r["offers"].as_object().unwrap();
    assert!(offers.contains_key("tls13-p256-rsa-2048-resume"));
    assert!(!offers
        .keys()
        .any(|k| k.contains("mlkem") || k.contains("mldsa")));
}

/// BoringSSL (the `boring` feature): X25519MLKEM768 but no SecP256r1MLKEM768
#[cfg(feature = "boring")]
#[test]
fn boring_hello_offers_its_cells() {
    let r = call(&driver("rust:boring"), r#"{"cmd":"hello"}"#);
    let offers = r["offers"].as_object().unwrap();
    let tls = offers.keys().filter(|k| k.starts_with("tls13-")).count();
    assert_eq!(tls, 3 * 3 * 2, "{offers:?}");
    assert!(offers.contains_key("tls13-x25519mlkem768-rsa-2048-resume"));
    assert!(!offers.keys().any(|k| k.contains("secp256r1mlkem768")));
}

/// The hybrid X25519MLKEM768 handshake `h` over the X25519 one `x` (both
/// Ed25519, whose signatures have one length): the ML-KEM-768 share (1184
/// bytes) in the ClientHello, its ciphertext (1088 bytes) in the server's flight.
fn assert_mlkem768_flights(h: &Value, x: &Value) {
    assert_eq!(flight(h, "client_hello") - flight(x, "client_hello"), 1184);
    assert_eq!(
        flight(h, "server_flight") - flight(x, "server_flight"),
        1088
    );
}

/// Every step of a full X25519 handshake with TLS_AES_128_GCM_SHA256 reports
/// its group, suite and signature scheme, one round trip, no ticket, and a
/// fresh exporter every handshake.
fn full_x25519_handshakes(d: &Driver, suite: &str, sigalg: i64) {
    for op in ["handshake", "client", "server"] {
        let r = bench(d, suite, op);
        let t = &r["tls"];
        assert_eq!(
            (&t["group"], &t["cipher"], &t["sigalg"], &t["resumed"]),
            (&json!(29), &json!(0x1301), &json!(sigalg), &json!(false)),
            "{r}"
        );
        assert_eq!(
            (t["round_trips"].as_i64(), flight(&r, "tickets")),
            (Some(1), 0)
        );
        assert_ne!(r["checksum"], r["checksum_after"]);
    }
}

/// BoringSSL's cells report what rustls' do: group, suite, scheme, one
/// round trip, the ML-KEM share and ciphertext in the hybrid flights, and
/// one ticket per resumption.
#[cfg(feature = "boring")]
#[test]
fn boring_bench_reports_the_handshake() {
    let d = driver("rust:boring");
    full_x25519_handshakes(&d, "tls13-x25519-ed25519", 0x0807);
    let h = bench(&d, "tls13-x25519mlkem768-ed25519", "handshake");
    let x = bench(&d, "tls13-x25519-ed25519", "handshake");
    assert_mlkem768_flights(&h, &x);
    let r = bench(&d, "tls13-p256-rsa-2048-resume", "client");
    let t = &r["tls"];
    assert_eq!(
        (&t["group"], &t["sigalg"], &t["resumed"]),
        (&json!(23), &Value::Null, &json!(true)),
        "{r}"
    );
    assert!(flight(&r, "tickets") > 0, "{r}");
    let r = bench(&d, "tls13-x25519-ecdsa-p256", "server");
    assert_eq!(r["tls"]["sigalg"], 0x0403, "{r}");
}

#[test]
fn bench_reports_what_the_handshake_showed() {
    let d = driver("rust:rustls");
    full_x25519_handshakes(&d, "tls13-x25519-ecdsa-p256", 0x0403);
    let r = bench(&d, "tls13-x25519mlkem768-ecdsa-p256-resume", "server");
    let t = &r["tls"];
    assert_eq!(
        (&t["group"], &t["sigalg"], &t["resumed"]),
        (&json!(0x11ec), &Value::Null, &json!(true))
    );
    assert!(flight(&r, "tickets") > 0, "{r}");
}

#[test]
fn hybrid_adds_the_ml_kem_share_and_ciphertext() {
    // Ed25519 signatures have one length, so the flights differ by the KEM alone
    let d = driver("rust:rustls");
    let x = bench(&d, "tls13-x25519-ed25519", "handshake");
    let h = bench(&d, "tls13-x25519mlkem768-ed25519", "handshake");
    assert_mlkem768_flights(&h, &x);
    assert_eq!(flight(&h, "client_finished"), flight(&x, "client_finished"));
    let r = bench(&d, "tls13-secp256r1mlkem768-mldsa-65", "handshake");
    assert_eq!(
        (&r["tls"]["group"], &r["tls"]["sigalg"]),
        (&json!(0x11eb), &json!(0x0905))
    );
    let r = bench(&driver("rust:rustls-ring"), "tls13-p256-rsa-2048", "client");
    let s = r["tls"]["sigalg"].as_i64().unwrap();
    assert!((0x0804..=0x0806).contains(&s), "{r}");
}

#[test]
fn errors() {
    let d = driver("rust:rustls");
    let r = call(
        &d,
        r#"{"cmd":"bench","alg":"tls13-x25519-ecdsa-p256","op":"handshake","size":0,"seed":1,"samples":1}"#,
    );
    assert_eq!(r["error"], "tls: no PKI in the request", "{r}");
    let r = call(&d, r#"{"cmd":"tls-result"}"#);
    assert_eq!(r["ok"], false);
    // a second tls-serve ends the first at once: one server per process
    let serve = json!({"cmd": "tls-serve", "alg": "tls13-x25519-ed25519", "connections": 1,
        "timeout_ms": 60000, "tls": files("ed25519")})
    .to_string();
    let t0 = std::time::Instant::now();
    assert_eq!(call(&d, &serve)["ok"], true);
    assert_eq!(call(&d, &serve)["ok"], true);
    let short = serve.replace("60000", "50");
    assert_eq!(call(&d, &short)["ok"], true);
    let r = call(&d, r#"{"cmd":"tls-result"}"#);
    assert!(r["error"].as_str().unwrap().contains("timed out"), "{r}");
    assert!(t0.elapsed().as_secs() < 5);
    // ring has no ML-KEM: the hybrid cell is absent, not failed
    let r = call(
        &driver("rust:rustls-ring"),
        &json!({"cmd": "bench", "alg": "tls13-x25519mlkem768-ecdsa-p256", "op": "handshake",
            "size": 0, "seed": 1, "samples": 1, "tls": files("ecdsa-p256")})
        .to_string(),
    );
    assert!(
        r["error"].as_str().unwrap().starts_with("not offered"),
        "{r}"
    );
}

/// `rust:rustls-ring` serves, `rust:rustls` connects (and the reverse;
/// and rustls against BoringSSL, there with X25519MLKEM768 too): both
/// complete, report the group, and derive the same exporters; the second
/// connection of a -resume cell resumes on both sides.
#[test]
fn interop_between_the_providers() {
    let (x, h) = (
        ("tls13-x25519-ecdsa-p256-resume", 29),
        ("tls13-x25519mlkem768-ecdsa-p256-resume", 0x11ec),
    );
    let mut pairs = vec![
        ("rust:rustls-ring", "rust:rustls", x),
        ("rust:rustls", "rust:rustls-ring", x),
        ("rust:rustls", "rust:rustls", h),
    ];
    if cfg!(feature = "boring") {
        pairs.extend([
            ("rust:boring", "rust:rustls", h),
            ("rust:rustls", "rust:boring", h),
            ("rust:boring", "rust:boring", x),
        ]);
    }
    for (srv, cli, (alg, group)) in pairs {
        let (s, c) = (driver(srv), driver(cli));
        let serve = json!({"cmd": "tls-serve", "alg": alg, "connections": 2, "timeout_ms": 10000,
            "tls": files("ecdsa-p256")});
        let r = call(&s, &serve.to_string());
        assert_eq!(r["ok"], true, "{r}");
        let connect = json!({"cmd": "tls-connect", "alg": alg, "port": r["port"],
            "connections": 2, "timeout_ms": 10000, "tls": files("ecdsa-p256")});
        let cr = call(&c, &connect.to_string());
        let sr = call(&s, r#"{"cmd":"tls-result"}"#);
        assert_eq!(
            (&cr["ok"], &sr["ok"]),
            (&json!(true), &json!(true)),
            "{cr} {sr}"
        );
        for i in 0..2 {
            let (ch, sh) = (&cr["handshakes"][i], &sr["handshakes"][i]);
            assert_eq!(ch["exporter"], sh["exporter"], "{srv} {cli} {i}");
            assert_eq!((&ch["group"], &sh["group"]), (&json!(group), &json!(group)));
            assert_eq!(
                (&ch["cipher"], &sh["cipher"]),
                (&json!(0x1301), &json!(0x1301))
            );
            assert_eq!(
                (&ch["resumed"], &sh["resumed"]),
                (&json!(i == 1), &json!(i == 1))
            );
            let sig = if i == 0 { json!(0x0403) } else { Value::Null };
            assert_eq!((&ch["sigalg"], &sh["sigalg"]), (&sig, &sig));
        }
    }
}
