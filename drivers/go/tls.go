package main

// TLS 1.3 handshake cells (protocol version 7, docs/protocol.md § TLS 1.3
// handshakes): tls13-<group>-<auth>[-resume] through crypto/tls, the client
// and the server of one process over the in-memory pair of tls_conn.go.
//
// Configurations (made once per cell, outside the timed region): TLS 1.3
// only (MinVersion = MaxVersion), CurvePreferences = the cell's group alone
// on both sides (so one key share, no HelloRetryRequest), the server's chain
// and key from the request's PKI, the client trusting only its root and
// checking server_name. crypto/tls has no setting for TLS 1.3 cipher suites:
// on a CPU with AES-GCM instructions both sides prefer TLS_AES_128_GCM_SHA256
// (the report says what was negotiated, never the expectation). Full cells:
// SessionTicketsDisabled; -resume cells: the server sends its one ticket per
// connection (crypto/tls sends it right after its Finished, in the same
// flush) and the client keeps it in a tls.NewLRUClientSessionCache. Go's
// tickets are reusable and every resumption brings a new one, so one full
// handshake in NewCell primes the cache and each timed resumption starts
// from the ticket the previous handshake left.
//
// One operation: the server's handshake in a new goroutine, the client's in
// the calling one (crypto/tls's API is blocking I/O, so two goroutines are
// the only way to run both); for -resume the client then reads once in
// drain mode so crypto/tls processes the ticket. `handshake` is the wall
// time of all that. `client` and `server` are each side's own time: its
// wall time (from tls.Client/tls.Server until its handshake, and the
// client's ticket, are done) minus the time it waited in Read for the other
// side (tls_conn.go); the rest of the operation's wall time (the other
// side, the goroutine start and hand-overs) is subtracted through
// takeUntimed. So client + server = handshake minus the hand-overs.
//
// bench runs a TLS cell with GOMAXPROCS = 1: the two goroutines then take
// turns on one P (a Read that blocks hands over to the other side, which
// the runtime has put in that P's runnext), so a hand-over is a goroutine
// switch of well under a microsecond and no OS thread is woken. With two
// Ps the runtime wakes a second thread for the readied goroutine and, on a
// loaded machine, the wall time carried up to hundreds of microseconds of
// OS scheduling per handshake that neither side's time had. A garbage
// collection cycle's background work then also shares the one P: it lands
// in the time of the side that was running, or (both waiting) only in
// `handshake`.
//
// The environment must not change a cell: GODEBUG tlsmlkem=0 or
// tlssecpmlkem=0 would drop the hybrid groups from crypto/tls's defaults,
// which CurvePreferences only filters, so init removes those two settings
// from this process's GODEBUG (the runtime re-reads it on os.Setenv); with
// fips140 on (read only at start-up) the TLS cells refuse to run.

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/fips140"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

const (
	tlsExporterLabel   = "EXPORTER-cryptobench"
	tlsExporterContext = "cryptobench tls13"
	tlsExporterLen     = 32
)

// tlsPKI is the request's "tls" object: the test PKI's files.
type tlsPKI struct {
	Chain      string `json:"chain"`
	Key        string `json:"key"`
	CA         string `json:"ca"`
	ServerName string `json:"server_name"`
}

// tlsGroups: the cells' groups in crypto/tls (all five are in Go 1.26).
var tlsGroups = []named[tls.CurveID]{
	{"x25519", tls.X25519},
	{"p256", tls.CurveP256},
	{"x25519mlkem768", tls.X25519MLKEM768},
	{"secp256r1mlkem768", tls.SecP256r1MLKEM768},
	{"secp384r1mlkem1024", tls.SecP384r1MLKEM1024},
}

// tlsAuths: the server keys crypto/tls can sign with in TLS 1.3. No ML-DSA:
// Go 1.26's crypto/tls has no ML-DSA signature scheme.
var tlsAuths = []named[func(pub crypto.PublicKey) bool]{
	{"ecdsa-p256", func(k crypto.PublicKey) bool { e, ok := k.(*ecdsa.PublicKey); return ok && e.Curve == elliptic.P256() }},
	{"ed25519", func(k crypto.PublicKey) bool { _, ok := k.(ed25519.PublicKey); return ok }},
	{"rsa-2048", func(k crypto.PublicKey) bool { r, ok := k.(*rsa.PublicKey); return ok && r.N.BitLen() == 2048 }},
}

// tlsSpec is one cell's name parsed.
type tlsSpec struct {
	name   string
	group  tls.CurveID
	auth   string
	key    func(crypto.PublicKey) bool
	resume bool
}

func tlsSpecs() []tlsSpec {
	var s []tlsSpec
	for _, g := range tlsGroups {
		for _, a := range tlsAuths {
			for _, r := range []bool{false, true} {
				n := "tls13-" + g.name + "-" + a.name
				if r {
					n += "-resume"
				}
				s = append(s, tlsSpec{name: n, group: g.v, auth: a.name, key: a.v, resume: r})
			}
		}
	}
	return s
}

// tlsSpecOf parses a cell name this driver offers.
func tlsSpecOf(name string) (tlsSpec, error) {
	for _, s := range tlsSpecs() {
		if s.name == name {
			return s, nil
		}
	}
	return tlsSpec{}, fmt.Errorf("not offered: %q is not a TLS cell of this driver", name)
}

func tlsAlgs() []*Alg {
	var algs []*Alg
	for _, s := range tlsSpecs() {
		algs = append(algs, &Alg{
			Name: s.name,
			Ops:  []string{"handshake", "client", "server"},
			Kind: "tls",
			Exec: func(c *Case) ([]byte, error) {
				return nil, unsupported("a TLS cell has no verify cases (verified by interop)")
			},
			NewCell: func(p *CellParams) (Cell, error) { return newTLSCell(s, p) },
		})
	}
	return algs
}

func init() { sanitizeGODEBUG() }

// oneP sets GOMAXPROCS to 1 for a TLS cell and returns what undoes it: the
// runtime's default again (which keeps following the CPU limit; setting
// GOMAXPROCS stops that) unless the environment set GOMAXPROCS.
func oneP() func() {
	prev := runtime.GOMAXPROCS(1)
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		return runtime.SetDefaultGOMAXPROCS
	}
	return func() { runtime.GOMAXPROCS(prev) }
}

// sanitizeGODEBUG removes the settings that would change the cells' groups.
func sanitizeGODEBUG() {
	v, ok := os.LookupEnv("GODEBUG")
	if !ok {
		return
	}
	var keep []string
	for _, kv := range strings.Split(v, ",") {
		k, _, _ := strings.Cut(kv, "=")
		if k != "tlsmlkem" && k != "tlssecpmlkem" {
			keep = append(keep, kv)
		}
	}
	if len(keep) != len(strings.Split(v, ",")) {
		os.Setenv("GODEBUG", strings.Join(keep, ","))
	}
}

// ---- configurations ---------------------------------------------------------

func tlsErr(format string, args ...any) error {
	return fmt.Errorf("tls: "+format, args...)
}

// tlsUsable refuses what would change every cell.
func tlsUsable(pki *tlsPKI) error {
	if pki == nil {
		return tlsErr("no PKI in the request")
	}
	if fips140.Enabled() {
		return tlsErr("GODEBUG fips140 is on in this driver process, which restricts crypto/tls's groups and suites; run it without")
	}
	return nil
}

// seenSigner is the server's key as crypto/tls's documented crypto.Signer:
// it passes every Sign on and records the signature scheme the options
// and the key name (crypto/tls signs a TLS 1.3 CertificateVerify through
// crypto.SignMessage, which hashes and calls Sign with the scheme's hash,
// and rsa.PSSOptions for RSA-PSS). crypto/tls does not expose the scheme it
// negotiated, so this is the only way to report it; used for the reported
// handshake and the interop server, not in timed handshakes.
type seenSigner struct {
	crypto.Signer
	mu     sync.Mutex
	scheme *int
}

func (s *seenSigner) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	sc := schemeOf(s.Public(), opts)
	s.mu.Lock()
	s.scheme = sc
	s.mu.Unlock()
	return s.Signer.Sign(r, digest, opts)
}

// take returns and clears the recorded scheme.
func (s *seenSigner) take() *int {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scheme
	s.scheme = nil
	return sc
}

// schemeOf names the TLS signature scheme of a signature by key with opts;
// nil when it is none of TLS 1.3's.
func schemeOf(pub crypto.PublicKey, opts crypto.SignerOpts) *int {
	var v tls.SignatureScheme
	h := opts.HashFunc()
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		switch {
		case k.Curve == elliptic.P256() && h == crypto.SHA256:
			v = tls.ECDSAWithP256AndSHA256
		case k.Curve == elliptic.P384() && h == crypto.SHA384:
			v = tls.ECDSAWithP384AndSHA384
		case k.Curve == elliptic.P521() && h == crypto.SHA512:
			v = tls.ECDSAWithP521AndSHA512
		}
	case ed25519.PublicKey:
		if h == 0 {
			v = tls.Ed25519
		}
	case *rsa.PublicKey:
		if _, pss := opts.(*rsa.PSSOptions); pss {
			v = map[crypto.Hash]tls.SignatureScheme{crypto.SHA256: tls.PSSWithSHA256, crypto.SHA384: tls.PSSWithSHA384, crypto.SHA512: tls.PSSWithSHA512}[h]
		}
	}
	if v == 0 {
		return nil
	}
	n := int(v)
	return &n
}

// tlsServerConfig loads the chain and key. seen wraps the key in a
// seenSigner (returned, nil otherwise). ticketKey (resume cells) is shared
// by a cell's two server configurations so either accepts the other's
// tickets.
func tlsServerConfig(s tlsSpec, pki *tlsPKI, seen bool, ticketKey *[32]byte) (*tls.Config, *seenSigner, error) {
	if pki.Chain == "" || pki.Key == "" {
		return nil, nil, tlsErr("the request's tls object needs chain and key for a server")
	}
	cert, err := tls.LoadX509KeyPair(pki.Chain, pki.Key)
	if err != nil {
		return nil, nil, tlsErr("loading %s and %s: %v", pki.Chain, pki.Key, err)
	}
	if !s.key(cert.Leaf.PublicKey) {
		return nil, nil, tlsErr("the leaf certificate of %s is not an %s key", pki.Chain, s.auth)
	}
	var signer *seenSigner
	if seen {
		signer = &seenSigner{Signer: cert.PrivateKey.(crypto.Signer)}
		cert.PrivateKey = signer
	}
	cfg := &tls.Config{
		Certificates:           []tls.Certificate{cert},
		MinVersion:             tls.VersionTLS13,
		MaxVersion:             tls.VersionTLS13,
		CurvePreferences:       []tls.CurveID{s.group},
		SessionTicketsDisabled: !s.resume,
	}
	if s.resume && ticketKey != nil {
		cfg.SetSessionTicketKeys([][32]byte{*ticketKey})
	}
	return cfg, signer, nil
}

// ticketCache is the client's session cache, counting the tickets stored
// (crypto/tls calls Put for each NewSessionTicket it processes; Put with
// nil deletes) and the length of the last one.
type ticketCache struct {
	tls.ClientSessionCache
	mu      sync.Mutex
	puts    int
	lastLen int
}

func (t *ticketCache) Put(key string, cs *tls.ClientSessionState) {
	if cs != nil {
		if ticket, _, err := cs.ResumptionState(); err == nil {
			t.mu.Lock()
			t.puts++
			t.lastLen = len(ticket)
			t.mu.Unlock()
		}
	}
	t.ClientSessionCache.Put(key, cs)
}

func (t *ticketCache) count() (puts, lastLen int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.puts, t.lastLen
}

// tlsClientConfig trusts only the PKI's root. cache is set for -resume.
func tlsClientConfig(s tlsSpec, pki *tlsPKI, cache *ticketCache) (*tls.Config, error) {
	if pki.CA == "" || pki.ServerName == "" {
		return nil, tlsErr("the request's tls object needs ca and server_name for a client")
	}
	pem, err := os.ReadFile(pki.CA)
	if err != nil {
		return nil, tlsErr("reading the root: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, tlsErr("no certificate in %s", pki.CA)
	}
	cfg := &tls.Config{
		RootCAs:          roots,
		ServerName:       pki.ServerName,
		MinVersion:       tls.VersionTLS13,
		MaxVersion:       tls.VersionTLS13,
		CurvePreferences: []tls.CurveID{s.group},
	}
	if cache != nil {
		cfg.ClientSessionCache = cache
	}
	return cfg, nil
}

// ---- the cell ---------------------------------------------------------------

// tlsRun is one handshake's outcome.
type tlsRun struct {
	client, server         *tls.Conn
	cconn                  *memConn
	wall, clientNs, srvNs  int64
	err                    error
	ticketsBefore, tickets int // the client cache's Puts before and after
	ticketLen              int
	sigalg                 *int
}

type tlsCell struct {
	spec    tlsSpec
	op      string
	srv     *tls.Config // timed handshakes
	seenSrv *tls.Config // the reported handshake: the key wrapped in signer
	signer  *seenSigner
	cli     *tls.Config
	cache   *ticketCache
	observe bool // the next Run logs its transport and uses seenSrv
	last    tlsRun
	out     []byte
	untimed int64
	err     error
	srvDone chan tlsServerDone
	buf     [1]byte
}

type tlsServerDone struct {
	conn *tls.Conn
	ns   int64
	err  error
}

func newTLSCell(s tlsSpec, p *CellParams) (Cell, error) {
	if p.Size != 0 {
		return nil, fmt.Errorf("%s %s: size must be 0 (a handshake has no message)", s.name, p.Op)
	}
	if err := tlsUsable(p.TLS); err != nil {
		return nil, err
	}
	var ticketKey *[32]byte
	if s.resume {
		ticketKey = new([32]byte)
		rand.Read(ticketKey[:])
	}
	c := &tlsCell{spec: s, op: p.Op, observe: true, srvDone: make(chan tlsServerDone, 1)}
	var err error
	if c.srv, _, err = tlsServerConfig(s, p.TLS, false, ticketKey); err != nil {
		return nil, err
	}
	if c.seenSrv, c.signer, err = tlsServerConfig(s, p.TLS, true, ticketKey); err != nil {
		return nil, err
	}
	if s.resume {
		c.cache = &ticketCache{ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	}
	if c.cli, err = tlsClientConfig(s, p.TLS, c.cache); err != nil {
		return nil, err
	}
	if s.resume { // the first ticket, from a full handshake outside any timing
		if r := c.handshake(c.srv, false); r.err != nil {
			return nil, r.err
		} else if r.tickets == r.ticketsBefore {
			return nil, tlsErr("the priming handshake left no ticket")
		}
	}
	return c, nil
}

// handshake runs one handshake over a fresh in-memory pair.
func (c *tlsCell) handshake(srv *tls.Config, logging bool) (r tlsRun) {
	t0 := time.Now()
	cc, sc := newMemPipe(logging)
	go func() {
		s0 := time.Now()
		s := tls.Server(sc, srv)
		err := s.Handshake()
		ns := int64(time.Since(s0))
		if err != nil {
			sc.Close() // the client must not wait for more
		}
		c.srvDone <- tlsServerDone{s, ns, err}
	}()
	if c.cache != nil {
		r.ticketsBefore, _ = c.cache.count()
	}
	c0 := time.Now()
	cl := tls.Client(cc, c.cli)
	err := cl.Handshake()
	if err == nil && c.spec.resume { // let crypto/tls process the ticket
		cc.setDrain(true)
		if _, rerr := cl.Read(c.buf[:]); !errors.Is(rerr, errDrained) {
			err = fmt.Errorf("reading the ticket: %v", rerr)
		}
	}
	cliNs := int64(time.Since(c0))
	if err != nil {
		cc.Close() // the server must not wait for more
	}
	d := <-c.srvDone
	r.wall = int64(time.Since(t0))
	r.client, r.server, r.cconn = cl, d.conn, cc
	r.clientNs = cliNs - int64(cc.blocked)
	r.srvNs = d.ns - int64(sc.blocked)
	switch { // both, when both failed: the one that saw the cause may be either
	case err != nil && d.err != nil:
		r.err = tlsErr("client: %v; server: %v", err, d.err)
	case err != nil:
		r.err = tlsErr("client: %v", err)
	case d.err != nil:
		r.err = tlsErr("server: %v", d.err)
	}
	if c.cache != nil {
		r.tickets, r.ticketLen = c.cache.count()
	}
	return r
}

func (c *tlsCell) Run() uint64 {
	srv, logging := c.srv, c.observe
	if logging {
		srv = c.seenSrv
		c.signer.take()
	}
	r := c.handshake(srv, logging)
	if logging {
		r.sigalg = c.signer.take()
	}
	if r.err != nil {
		if c.err == nil {
			c.err = r.err
		}
		return 0
	}
	switch c.op {
	case "client":
		c.untimed += r.wall - r.clientNs
	case "server":
		c.untimed += r.wall - r.srvNs
	}
	c.last, c.out = r, nil
	return uint64(r.wall)
}

func (c *tlsCell) takeUntimed() int64 {
	u := c.untimed
	c.untimed = 0
	return u
}

// Output is the client's exporter of the last handshake (made here, outside
// the timed region: only the checksum reads it).
func (c *tlsCell) Output() []byte {
	if c.out == nil && c.last.client != nil {
		st := c.last.client.ConnectionState()
		out, err := st.ExportKeyingMaterial(tlsExporterLabel, []byte(tlsExporterContext), tlsExporterLen)
		if err != nil && c.err == nil {
			c.err = tlsErr("client exporter: %v", err)
		}
		c.out = out
	}
	return c.out
}

func (c *tlsCell) Err() error { return c.err }

// ---- the report -------------------------------------------------------------

// tlsFlightsReport is the bytes the transport carried, per flight.
type tlsFlightsReport struct {
	ClientHello    int `json:"client_hello"`
	ServerFlight   int `json:"server_flight"`
	ClientFinished int `json:"client_finished"`
	Tickets        int `json:"tickets"`
}

// tlsReport is the bench response's "tls" object.
type tlsReport struct {
	Group      int              `json:"group"`
	Cipher     int              `json:"cipher"`
	Sigalg     *int             `json:"sigalg"`
	Resumed    bool             `json:"resumed"`
	RoundTrips int              `json:"round_trips"`
	Flights    tlsFlightsReport `json:"flights"`
}

// tlsReporter is a cell whose bench response carries a tls report.
type tlsReporter interface {
	tlsReport() (*tlsReport, error)
}

// tlsReport checks the reported (first, untimed) handshake and describes it;
// later handshakes are timed without logging.
func (c *tlsCell) tlsReport() (*tlsReport, error) {
	r := c.last
	c.observe = false
	if r.client == nil {
		return nil, tlsErr("no handshake to report")
	}
	cs, ss := r.client.ConnectionState(), r.server.ConnectionState()
	if err := tlsAgree(c.spec, cs, ss); err != nil {
		return nil, err
	}
	rep := &tlsReport{Group: int(ss.CurveID), Cipher: int(ss.CipherSuite), Sigalg: r.sigalg, Resumed: ss.DidResume}
	if ss.DidResume {
		rep.Sigalg = nil
	}
	newTickets := r.tickets - r.ticketsBefore
	if c.spec.resume && newTickets != 1 {
		return nil, tlsErr("the client stored %d tickets from the handshake, not 1", newTickets)
	}
	f, rt, err := tlsFlights(r.cconn.takeLog(), newTickets, r.ticketLen)
	if err != nil {
		return nil, err
	}
	rep.Flights, rep.RoundTrips = f, rt
	return rep, nil
}

// tlsAgree: both sides completed TLS 1.3 in the cell's group, with equal
// exporters, resuming exactly in -resume cells.
func tlsAgree(s tlsSpec, cs, ss tls.ConnectionState) error {
	for _, st := range []struct {
		side string
		st   tls.ConnectionState
	}{{"client", cs}, {"server", ss}} {
		switch {
		case !st.st.HandshakeComplete:
			return tlsErr("the %s's handshake is not complete", st.side)
		case st.st.Version != tls.VersionTLS13:
			return tlsErr("the %s negotiated version 0x%04x, not TLS 1.3", st.side, st.st.Version)
		case st.st.CurveID != s.group:
			return tlsErr("the %s reports group %v (0x%04x), not the cell's %v", st.side, st.st.CurveID, uint16(st.st.CurveID), s.group)
		case st.st.DidResume != s.resume:
			return tlsErr("the %s's resumption is %v in a cell whose resumption is %v", st.side, st.st.DidResume, s.resume)
		}
	}
	if cs.CipherSuite != ss.CipherSuite {
		return tlsErr("client and server report different cipher suites (0x%04x, 0x%04x)", cs.CipherSuite, ss.CipherSuite)
	}
	ce, err := cs.ExportKeyingMaterial(tlsExporterLabel, []byte(tlsExporterContext), tlsExporterLen)
	if err != nil {
		return tlsErr("client exporter: %v", err)
	}
	se, err := ss.ExportKeyingMaterial(tlsExporterLabel, []byte(tlsExporterContext), tlsExporterLen)
	if err != nil {
		return tlsErr("server exporter: %v", err)
	}
	if !bytes.Equal(ce, se) {
		return tlsErr("client and server exporters differ")
	}
	return nil
}

// tlsFlights splits the logged writes into flights: consecutive writes of
// one side are one flight. The client's first is its ClientHello, its last
// its Finished (with ChangeCipherSpec); the server's before that are its
// flight, those after it tickets. crypto/tls's server writes its ticket in
// the same flush as its Finished, so the ticket the client stored is cut
// from the end of the server flight: the last record, checked to be the
// size of a NewSessionTicket carrying it (5-byte header, 4-byte message
// header, 4+4 lifetime and age_add, 1+nonce, 2+ticket, 2 bytes of
// extensions, the inner content type, 16-byte tag).
func tlsFlights(log []memWrite, tickets, ticketLen int) (tlsFlightsReport, int, error) {
	type flight struct {
		client bool
		b      []byte
	}
	var fl []flight
	for _, w := range log {
		if len(fl) == 0 || fl[len(fl)-1].client != w.client {
			fl = append(fl, flight{client: w.client})
		}
		fl[len(fl)-1].b = append(fl[len(fl)-1].b, w.b...)
	}
	lastClient := -1
	clientFlights := 0
	for i, f := range fl {
		if f.client {
			lastClient, clientFlights = i, clientFlights+1
		}
	}
	var r tlsFlightsReport
	if clientFlights < 2 || !fl[0].client {
		return r, 0, tlsErr("the transport saw %d client flights, not a ClientHello and a Finished", clientFlights)
	}
	r.ClientHello = len(fl[0].b)
	r.ClientFinished = len(fl[lastClient].b)
	var lastServer []byte
	for i, f := range fl {
		switch {
		case f.client:
		case i < lastClient:
			r.ServerFlight += len(f.b)
			lastServer = f.b
		default:
			r.Tickets += len(f.b)
		}
	}
	if tickets > 0 && r.Tickets == 0 { // in the server flight, at its end
		n, err := lastRecordLen(lastServer)
		if err != nil {
			return r, 0, err
		}
		min := ticketLen + 39
		if n < min || n > min+255 {
			return r, 0, tlsErr("the server flight's last record (%d bytes) is not a NewSessionTicket of a %d-byte ticket", n, ticketLen)
		}
		r.ServerFlight -= n
		r.Tickets = n
	}
	return r, clientFlights - 1, nil
}

// lastRecordLen is the length (with its header) of the last TLS record in
// b, an application_data record (encrypted).
func lastRecordLen(b []byte) (int, error) {
	last := -1
	for off := 0; off < len(b); {
		if len(b)-off < 5 {
			return 0, tlsErr("a truncated record header in the server flight")
		}
		n := 5 + (int(b[off+3])<<8 | int(b[off+4]))
		if len(b)-off < n {
			return 0, tlsErr("a truncated record in the server flight")
		}
		last = off
		off += n
	}
	if last < 0 || b[last] != 23 {
		return 0, tlsErr("the server flight does not end with an encrypted record")
	}
	return len(b) - last, nil
}
