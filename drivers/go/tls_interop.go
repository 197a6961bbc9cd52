package main

// The TLS interop commands (protocol version 7, docs/protocol.md § Interop):
// tls-serve starts a crypto/tls server on 127.0.0.1 in a goroutine and
// answers its port at once; tls-result waits for that serving to end;
// tls-connect runs the client's connections. Each connection: the handshake
// with the cell's configuration (tls.go), "ping" from the client, "pong"
// from the server, close. The client of a -resume cell keeps one session
// cache over its connections, so the second offers the first one's ticket.
// The server reports the signature scheme its key was asked for
// (seenSigner); the client cannot see it in crypto/tls and reports null.

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// tlsHandshakeView is one connection as one side saw it.
type tlsHandshakeView struct {
	Group    int    `json:"group"`
	Cipher   int    `json:"cipher"`
	Sigalg   *int   `json:"sigalg"`
	Resumed  bool   `json:"resumed"`
	Exporter string `json:"exporter"`
}

type tlsHandshakesResponse struct {
	OK         bool               `json:"ok"`
	Handshakes []tlsHandshakeView `json:"handshakes"`
}

type tlsServeResponse struct {
	OK   bool `json:"ok"`
	Port int  `json:"port"`
}

// tlsServing is the one background server of a process.
type tlsServing struct {
	done    chan struct{}
	timeout time.Duration
	views   []tlsHandshakeView
	err     error

	mu   sync.Mutex
	ln   net.Listener
	conn net.Conn // the connection being served
	stop bool
}

// end makes a serving that is still going give up at once (a new
// tls-serve replaces it: an orchestrator that gave up on a pair must not
// wait for the old server's timeout).
func (sv *tlsServing) end() {
	sv.mu.Lock()
	sv.stop = true
	sv.ln.Close()
	if sv.conn != nil {
		sv.conn.Close()
	}
	sv.mu.Unlock()
	<-sv.done
}

// tlsInterop is the driver's interop state.
type tlsInterop struct {
	mu      sync.Mutex
	serving *tlsServing
}

func tlsView(st tls.ConnectionState, sigalg *int) (tlsHandshakeView, error) {
	ekm, err := st.ExportKeyingMaterial(tlsExporterLabel, []byte(tlsExporterContext), tlsExporterLen)
	if err != nil {
		return tlsHandshakeView{}, tlsErr("exporter: %v", err)
	}
	if st.DidResume {
		sigalg = nil
	}
	return tlsHandshakeView{Group: int(st.CurveID), Cipher: int(st.CipherSuite), Sigalg: sigalg, Resumed: st.DidResume, Exporter: hex.EncodeToString(ekm)}, nil
}

// interopArgs checks the fields every interop request has.
func interopArgs(req *Request) (tlsSpec, time.Duration, error) {
	s, err := tlsSpecOf(req.Alg)
	if err != nil {
		return s, 0, err
	}
	if req.Connections < 1 || req.Connections > 1000 {
		return s, 0, tlsErr("connections must be 1 to 1000, got %d", req.Connections)
	}
	if req.TimeoutMs < 1 {
		return s, 0, tlsErr("timeout_ms must be positive")
	}
	return s, time.Duration(req.TimeoutMs) * time.Millisecond, tlsUsable(req.TLS)
}

func (d *Driver) tlsServe(req *Request) (*tlsServeResponse, error) {
	s, timeout, err := interopArgs(req)
	if err != nil {
		return nil, err
	}
	var ticketKey *[32]byte
	if s.resume {
		ticketKey = new([32]byte)
		rand.Read(ticketKey[:])
	}
	cfg, signer, err := tlsServerConfig(s, req.TLS, true, ticketKey)
	if err != nil {
		return nil, err
	}
	d.interop.mu.Lock()
	defer d.interop.mu.Unlock()
	if sv := d.interop.serving; sv != nil {
		sv.end()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, tlsErr("listen: %v", err)
	}
	sv := &tlsServing{done: make(chan struct{}), timeout: timeout, ln: ln}
	d.interop.serving = sv
	go sv.serve(ln.(*net.TCPListener), cfg, signer, req.Connections, time.Now().Add(timeout))
	return &tlsServeResponse{OK: true, Port: ln.Addr().(*net.TCPAddr).Port}, nil
}

func (sv *tlsServing) serve(ln *net.TCPListener, cfg *tls.Config, signer *seenSigner, n int, deadline time.Time) {
	defer close(sv.done)
	defer ln.Close()
	ln.SetDeadline(deadline)
	for i := 0; i < n; i++ {
		conn, err := ln.Accept()
		if err != nil {
			sv.err = tlsErr("server, connection %d: accept: %v", i+1, err)
			return
		}
		sv.mu.Lock()
		sv.conn = conn
		stop := sv.stop
		sv.mu.Unlock()
		if stop {
			conn.Close()
			sv.err = tlsErr("server, connection %d: replaced by a new tls-serve", i+1)
			return
		}
		signer.take()
		v, err := serveOne(conn, cfg, signer, deadline)
		if err != nil {
			sv.err = tlsErr("server, connection %d: %v", i+1, err)
			return
		}
		sv.views = append(sv.views, v)
	}
}

// interopOne is one interop connection on either side: the handshake
// (side wraps conn: tls.Server or tls.Client) and then exchange, all by the
// deadline; both connections are closed on return.
func interopOne(conn net.Conn, deadline time.Time, side func(net.Conn) *tls.Conn,
	exchange func(*tls.Conn) (tlsHandshakeView, error)) (tlsHandshakeView, error) {
	defer conn.Close()
	conn.SetDeadline(deadline)
	tc := side(conn)
	defer tc.Close()
	if err := tc.Handshake(); err != nil {
		return tlsHandshakeView{}, err
	}
	return exchange(tc)
}

func serveOne(conn net.Conn, cfg *tls.Config, signer *seenSigner, deadline time.Time) (tlsHandshakeView, error) {
	server := func(c net.Conn) *tls.Conn { return tls.Server(c, cfg) }
	return interopOne(conn, deadline, server, func(tc *tls.Conn) (tlsHandshakeView, error) {
		v, err := tlsView(tc.ConnectionState(), signer.take())
		if err != nil {
			return v, err
		}
		if err := hear(tc, "ping"); err != nil {
			return v, err
		}
		return v, say(tc, "pong")
	})
}

// say and hear: the exchange after an interop handshake, the client's
// "ping" and the server's "pong".
func say(c io.Writer, word string) error {
	if _, err := c.Write([]byte(word)); err != nil {
		return fmt.Errorf("writing %s: %v", word, err)
	}
	return nil
}

func hear(c io.Reader, word string) error {
	var b [4]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		return fmt.Errorf("reading %s: %v", word, err)
	}
	if string(b[:]) != word {
		return fmt.Errorf("read %q, not %s", b[:], word)
	}
	return nil
}

func (d *Driver) tlsResult(req *Request) (*tlsHandshakesResponse, error) {
	d.interop.mu.Lock()
	sv := d.interop.serving
	d.interop.mu.Unlock()
	if sv == nil {
		return nil, tlsErr("no tls-serve before tls-result")
	}
	select { // the server gives up by its own deadline; this is a backstop
	case <-sv.done:
	case <-time.After(sv.timeout + 2*time.Second):
		return nil, tlsErr("the server did not end within its timeout")
	}
	if sv.err != nil {
		return nil, sv.err
	}
	return &tlsHandshakesResponse{OK: true, Handshakes: sv.views}, nil
}

func (d *Driver) tlsConnect(req *Request) (*tlsHandshakesResponse, error) {
	s, timeout, err := interopArgs(req)
	if err != nil {
		return nil, err
	}
	if req.Port < 1 || req.Port > 65535 {
		return nil, tlsErr("port %d out of range", req.Port)
	}
	var cache *ticketCache
	if s.resume {
		cache = &ticketCache{ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	}
	cfg, err := tlsClientConfig(s, req.TLS, cache)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(req.Port))
	resp := &tlsHandshakesResponse{OK: true, Handshakes: []tlsHandshakeView{}}
	for i := 0; i < req.Connections; i++ {
		v, err := connectOne(addr, cfg, deadline)
		if err != nil {
			return nil, tlsErr("client, connection %d: %v", i+1, err)
		}
		resp.Handshakes = append(resp.Handshakes, v)
	}
	return resp, nil
}

func connectOne(addr string, cfg *tls.Config, deadline time.Time) (tlsHandshakeView, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Until(deadline))
	if err != nil {
		return tlsHandshakeView{}, err
	}
	client := func(c net.Conn) *tls.Conn { return tls.Client(c, cfg) }
	return interopOne(conn, deadline, client, func(tc *tls.Conn) (tlsHandshakeView, error) {
		if err := say(tc, "ping"); err != nil {
			return tlsHandshakeView{}, err
		}
		if err := hear(tc, "pong"); err != nil { // reading pong also processes the ticket
			return tlsHandshakeView{}, err
		}
		// the view after pong: a server that sends its ticket after the
		// client's Finished has delivered it by now
		return tlsView(tc.ConnectionState(), nil)
	})
}
