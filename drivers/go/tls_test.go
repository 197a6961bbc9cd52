package main

// The TLS cells (tls.go) and interop commands (tls_interop.go) through the
// driver's own request handling, with a test PKI made here by crypto/x509
// in the shape of cryptobench/verify/tls_pki.py's (root -> intermediate ->
// leaf for server.cryptobench.test; chain.pem = leaf then intermediate,
// leaf.key PKCS#8). About a second in all; -short runs four cells of the
// bench, all thirty otherwise.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const testServerName = "server.cryptobench.test"

var (
	testPKIOnce sync.Once
	testPKIDir  string
	testPKIErr  error
)

// testPKI makes DIR/<auth>/{chain.pem,leaf.key,root.pem} once per test run.
func testPKI(t *testing.T) string {
	testPKIOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cbdriver-go-tls")
		if err == nil {
			for _, a := range tlsAuths {
				if err = makeTestPKI(filepath.Join(dir, a.name), a.name); err != nil {
					break
				}
			}
		}
		testPKIDir, testPKIErr = dir, err
	})
	if testPKIErr != nil {
		t.Fatal(testPKIErr)
	}
	return testPKIDir
}

func testKey(auth string) (crypto.Signer, error) {
	switch auth {
	case "ed25519":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, err
	case "rsa-2048":
		return rsa.GenerateKey(rand.Reader, 2048)
	default:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
}

func makeTestPKI(dir, auth string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	now := time.Now()
	tmpl := func(cn string, serial int64, ca bool) *x509.Certificate {
		c := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), BasicConstraintsValid: true, IsCA: ca}
		if ca {
			c.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
		} else {
			c.KeyUsage = x509.KeyUsageDigitalSignature
			c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			c.DNSNames = []string{testServerName}
		}
		return c
	}
	var keys [3]crypto.Signer // root, intermediate, leaf: all of the auth's kind
	for i := range keys {
		k, err := testKey(auth)
		if err != nil {
			return err
		}
		keys[i] = k
	}
	rootT, interT, leafT := tmpl("cryptobench test root", 1, true), tmpl("cryptobench test intermediate", 2, true), tmpl(testServerName, 3, false)
	root, err := x509.CreateCertificate(rand.Reader, rootT, rootT, keys[0].Public(), keys[0])
	if err != nil {
		return err
	}
	inter, err := x509.CreateCertificate(rand.Reader, interT, rootT, keys[1].Public(), keys[0])
	if err != nil {
		return err
	}
	leaf, err := x509.CreateCertificate(rand.Reader, leafT, interT, keys[2].Public(), keys[1])
	if err != nil {
		return err
	}
	p8, err := x509.MarshalPKCS8PrivateKey(keys[2])
	if err != nil {
		return err
	}
	pemOf := func(typ string, ders ...[]byte) []byte {
		var out []byte
		for _, d := range ders {
			out = append(out, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: d})...)
		}
		return out
	}
	for name, b := range map[string][]byte{
		"root.pem":  pemOf("CERTIFICATE", root),
		"chain.pem": pemOf("CERTIFICATE", leaf, inter),
		"leaf.key":  pemOf("PRIVATE KEY", p8),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func pkiOf(dir, auth string) *tlsPKI {
	d := filepath.Join(dir, auth)
	return &tlsPKI{Chain: filepath.Join(d, "chain.pem"), Key: filepath.Join(d, "leaf.key"), CA: filepath.Join(d, "root.pem"), ServerName: testServerName}
}

type tlsBenchResult struct {
	OK        bool       `json:"ok"`
	Error     string     `json:"error"`
	Batch     int64      `json:"batch"`
	SamplesNs []int64    `json:"samples_ns"`
	Checksum  string     `json:"checksum"`
	After     string     `json:"checksum_after"`
	TLS       *tlsReport `json:"tls"`
}

func tlsBench(t *testing.T, d *Driver, alg, op string, pki *tlsPKI) tlsBenchResult {
	t.Helper()
	req := map[string]any{"cmd": "bench", "alg": alg, "op": op, "size": 0, "seed": 1, "batch": 3, "samples": 2}
	if pki != nil {
		req["tls"] = pki
	}
	line, _ := json.Marshal(req)
	out, _ := d.HandleLine(line)
	var r tlsBenchResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	return r
}

func codeOf(name string) tls.CurveID {
	for _, g := range tlsGroups {
		if g.name == name {
			return g.v
		}
	}
	return 0
}

var wantSigalg = map[string]int{"ecdsa-p256": 0x0403, "ed25519": 0x0807, "rsa-2048": 0x0804}

func TestTLSBenchCells(t *testing.T) {
	dir := testPKI(t)
	d := NewDriver(providers["go:stdlib"])
	specs := tlsSpecs()
	if testing.Short() {
		specs = nil
		for _, n := range []string{"tls13-x25519-ecdsa-p256", "tls13-x25519mlkem768-ecdsa-p256", "tls13-x25519-ecdsa-p256-resume", "tls13-x25519mlkem768-ecdsa-p256-resume"} {
			s, _ := tlsSpecOf(n)
			specs = append(specs, s)
		}
	}
	procs := runtime.GOMAXPROCS(0)
	for _, s := range specs {
		for _, op := range []string{"handshake", "client", "server"} {
			r := tlsBench(t, d, s.name, op, pkiOf(dir, s.auth))
			if n := runtime.GOMAXPROCS(0); n != procs {
				t.Fatalf("GOMAXPROCS %d after a TLS cell, %d before", n, procs)
			}
			if !r.OK {
				t.Fatalf("%s %s: %s", s.name, op, r.Error)
			}
			rep := r.TLS
			switch {
			case rep == nil:
				t.Fatalf("%s %s: no tls report", s.name, op)
			case rep.Group != int(s.group) || rep.Resumed != s.resume || rep.RoundTrips != 1:
				t.Errorf("%s %s: report %+v", s.name, op, rep)
			case rep.Cipher < 0x1301 || rep.Cipher > 0x1303:
				t.Errorf("%s %s: cipher 0x%04x is not a TLS 1.3 suite", s.name, op, rep.Cipher)
			case s.resume && rep.Sigalg != nil, !s.resume && (rep.Sigalg == nil || *rep.Sigalg != wantSigalg[s.auth]):
				t.Errorf("%s %s: sigalg %v", s.name, op, rep.Sigalg)
			case rep.Flights.ClientFinished != 64: // CCS (6) + Finished (5 + 4 + 32 + 1 + 16)
				t.Errorf("%s %s: client_finished %d", s.name, op, rep.Flights.ClientFinished)
			case s.resume != (rep.Flights.Tickets > 0):
				t.Errorf("%s %s: tickets %d", s.name, op, rep.Flights.Tickets)
			}
			if len(r.SamplesNs) != 2 || r.SamplesNs[0] <= 0 || len(r.Checksum) != 25 || r.Checksum == r.After {
				t.Errorf("%s %s: %+v", s.name, op, r)
			}
		}
	}
}

// The hybrid's bytes over its classical twin's are exactly the ML-KEM
// share and ciphertext (Ed25519: fixed-size signatures).
func TestTLSHybridBytes(t *testing.T) {
	dir := testPKI(t)
	d := NewDriver(providers["go:stdlib"])
	pki := pkiOf(dir, "ed25519")
	for _, c := range []struct {
		hybrid, classical string
		ch, sf            int
	}{{"x25519mlkem768", "x25519", 1184, 1088}, {"secp256r1mlkem768", "p256", 1184, 1088}} {
		h := tlsBench(t, d, "tls13-"+c.hybrid+"-ed25519", "handshake", pki)
		k := tlsBench(t, d, "tls13-"+c.classical+"-ed25519", "handshake", pki)
		if !h.OK || !k.OK {
			t.Fatalf("%s: %s %s", c.hybrid, h.Error, k.Error)
		}
		if dch, dsf := h.TLS.Flights.ClientHello-k.TLS.Flights.ClientHello, h.TLS.Flights.ServerFlight-k.TLS.Flights.ServerFlight; dch != c.ch || dsf != c.sf {
			t.Errorf("%s over %s: client_hello +%d, server_flight +%d; want +%d, +%d", c.hybrid, c.classical, dch, dsf, c.ch, c.sf)
		}
	}
}

// Each side's time is part of the handshake's, and both are there (on one
// P, as bench runs the cells: with two the sides may overlap).
func TestTLSSidesSplitTheHandshake(t *testing.T) {
	dir := testPKI(t)
	defer oneP()()
	for _, name := range []string{"tls13-x25519-ecdsa-p256", "tls13-x25519-ecdsa-p256-resume"} {
		s, _ := tlsSpecOf(name)
		cell, err := newTLSCell(s, &CellParams{Op: "handshake", TLS: pkiOf(dir, s.auth)})
		if err != nil {
			t.Fatal(err)
		}
		c := cell.(*tlsCell)
		c.observe = false
		for i := 0; i < 5; i++ {
			r := c.handshake(c.srv, false)
			if r.err != nil {
				t.Fatal(r.err)
			}
			// 2% for a preemption of the client's tail, when the server
			// may run while the client is still counted
			if r.clientNs <= 0 || r.srvNs <= 0 || r.clientNs+r.srvNs > r.wall+r.wall/50 {
				t.Errorf("%s: client %d ns + server %d ns against a handshake of %d ns", name, r.clientNs, r.srvNs, r.wall)
			}
		}
	}
}

func TestTLSRefusals(t *testing.T) {
	dir := testPKI(t)
	d := NewDriver(providers["go:stdlib"])
	for name, c := range map[string]struct {
		alg string
		pki *tlsPKI
		msg string
	}{
		"no pki":     {"tls13-x25519-ecdsa-p256", nil, "tls: no PKI in the request"},
		"wrong key":  {"tls13-x25519-ecdsa-p256", pkiOf(dir, "ed25519"), "not an ecdsa-p256 key"},
		"wrong ca":   {"tls13-x25519-ed25519", &tlsPKI{Chain: pkiOf(dir, "ed25519").Chain, Key: pkiOf(dir, "ed25519").Key, CA: pkiOf(dir, "rsa-2048").CA, ServerName: testServerName}, "certificate signed by unknown authority"},
		"wrong name": {"tls13-x25519-ed25519", &tlsPKI{Chain: pkiOf(dir, "ed25519").Chain, Key: pkiOf(dir, "ed25519").Key, CA: pkiOf(dir, "ed25519").CA, ServerName: "other.test"}, "other.test"},
	} {
		r := tlsBench(t, d, c.alg, "handshake", c.pki)
		if r.OK || !strings.Contains(r.Error, c.msg) {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// A handshake that negotiated another group than the cell's fails the
// check (a hybrid cell silently on X25519), as do different exporters.
func TestTLSAgreeCatchesADowngrade(t *testing.T) {
	dir := testPKI(t)
	s, _ := tlsSpecOf("tls13-x25519-ecdsa-p256")
	cell, err := newTLSCell(s, &CellParams{Op: "handshake", TLS: pkiOf(dir, s.auth)})
	if err != nil {
		t.Fatal(err)
	}
	c := cell.(*tlsCell)
	r := c.handshake(c.srv, false)
	if r.err != nil {
		t.Fatal(r.err)
	}
	cs, ss := r.client.ConnectionState(), r.server.ConnectionState()
	if err := tlsAgree(s, cs, ss); err != nil {
		t.Fatal(err)
	}
	hybrid, _ := tlsSpecOf("tls13-x25519mlkem768-ecdsa-p256")
	if err := tlsAgree(hybrid, cs, ss); err == nil || !strings.Contains(err.Error(), "not the cell's") {
		t.Errorf("a hybrid cell on X25519 passed: %v", err)
	}
	other := c.handshake(c.srv, false)
	if err := tlsAgree(s, cs, other.server.ConnectionState()); err == nil || !strings.Contains(err.Error(), "exporters differ") {
		t.Errorf("two handshakes' exporters passed as one: %v", err)
	}
}

func TestTLSGODEBUGIgnored(t *testing.T) {
	old, had := os.LookupEnv("GODEBUG")
	t.Cleanup(func() {
		if had {
			os.Setenv("GODEBUG", old)
		} else {
			os.Unsetenv("GODEBUG")
		}
	})
	os.Setenv("GODEBUG", "tlsmlkem=0,tlssecpmlkem=0,x509negativeserial=1")
	sanitizeGODEBUG()
	if v := os.Getenv("GODEBUG"); v != "x509negativeserial=1" {
		t.Fatalf("GODEBUG after sanitizing: %q", v)
	}
	d := NewDriver(providers["go:stdlib"])
	if r := tlsBench(t, d, "tls13-secp384r1mlkem1024-ecdsa-p256", "handshake", pkiOf(testPKI(t), "ecdsa-p256")); !r.OK {
		t.Fatal(r.Error)
	}
}

// tls-serve / tls-connect / tls-result between two drivers of this process
// over loopback TCP: equal exporters, the second connection of a -resume
// cell resumed on both sides.
func TestTLSInterop(t *testing.T) {
	dir := testPKI(t)
	srv, cli := NewDriver(providers["go:stdlib"]), NewDriver(providers["go:stdlib"])
	ask := func(d *Driver, req map[string]any, into any) {
		t.Helper()
		line, _ := json.Marshal(req)
		out, _ := d.HandleLine(line)
		if err := json.Unmarshal(out, into); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
	}
	type views struct {
		OK         bool               `json:"ok"`
		Error      string             `json:"error"`
		Handshakes []tlsHandshakeView `json:"handshakes"`
	}
	for _, name := range []string{"tls13-x25519mlkem768-ecdsa-p256-resume", "tls13-p256-rsa-2048"} {
		s, _ := tlsSpecOf(name)
		pki := pkiOf(dir, s.auth)
		n := 1
		if s.resume {
			n = 2
		}
		var port struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
			Port  int    `json:"port"`
		}
		ask(srv, map[string]any{"cmd": "tls-serve", "alg": name, "connections": n, "timeout_ms": 10000, "tls": pki}, &port)
		if !port.OK {
			t.Fatalf("%s: tls-serve: %s", name, port.Error)
		}
		var c, sv views
		ask(cli, map[string]any{"cmd": "tls-connect", "alg": name, "port": port.Port, "connections": n, "timeout_ms": 10000,
			"tls": map[string]string{"ca": pki.CA, "server_name": pki.ServerName}}, &c)
		ask(srv, map[string]any{"cmd": "tls-result"}, &sv)
		if !c.OK || !sv.OK || len(c.Handshakes) != n || len(sv.Handshakes) != n {
			t.Fatalf("%s: client %+v server %+v", name, c, sv)
		}
		for i := 0; i < n; i++ {
			cv, sw := c.Handshakes[i], sv.Handshakes[i]
			if cv.Exporter != sw.Exporter || len(cv.Exporter) != 64 || cv.Group != int(s.group) || sw.Group != int(s.group) ||
				cv.Resumed != (i > 0) || sw.Resumed != (i > 0) || cv.Cipher != sw.Cipher || cv.Sigalg != nil {
				t.Errorf("%s connection %d: client %+v server %+v", name, i+1, cv, sw)
			}
			if i == 0 && (sw.Sigalg == nil || *sw.Sigalg != wantSigalg[s.auth]) {
				t.Errorf("%s: server sigalg %v", name, sw.Sigalg)
			}
		}
	}
	// a new tls-serve ends one nobody connected to at once
	var first, second struct {
		OK   bool `json:"ok"`
		Port int  `json:"port"`
	}
	t0 := time.Now()
	ask(srv, map[string]any{"cmd": "tls-serve", "alg": "tls13-x25519-ed25519", "connections": 1, "timeout_ms": 60000, "tls": pkiOf(dir, "ed25519")}, &first)
	ask(srv, map[string]any{"cmd": "tls-serve", "alg": "tls13-x25519-ed25519", "connections": 1, "timeout_ms": 60000, "tls": pkiOf(dir, "ed25519")}, &second)
	if !first.OK || !second.OK || time.Since(t0) > 5*time.Second {
		t.Fatalf("replacing a serving: %+v %+v after %v", first, second, time.Since(t0))
	}
	var c views
	ask(cli, map[string]any{"cmd": "tls-connect", "alg": "tls13-x25519-ed25519", "port": second.Port, "connections": 1, "timeout_ms": 10000,
		"tls": map[string]string{"ca": pkiOf(dir, "ed25519").CA, "server_name": testServerName}}, &c)
	if !c.OK {
		t.Fatalf("connecting to the replacing server: %s", c.Error)
	}
	// a server nobody connects to fails with the library's words
	var bad views
	ask(srv, map[string]any{"cmd": "tls-serve", "alg": "tls13-x25519-ed25519", "connections": 1, "timeout_ms": 300, "tls": pkiOf(dir, "ed25519")}, &bad)
	ask(srv, map[string]any{"cmd": "tls-result"}, &bad)
	if bad.OK || !strings.Contains(bad.Error, "tls: server") {
		t.Errorf("a server nobody connected to: %+v", bad)
	}
}
