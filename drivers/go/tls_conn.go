package main

// The in-memory transport of the TLS cells (tls.go): a pair of net.Conns
// joined by two byte buffers. crypto/tls drives its handshake through
// blocking Read/Write calls, so the client and the server must run in two
// goroutines; this pair lets them hand over to each other with as little as
// possible between them (a mutex, a buffer append, a one-slot channel) and
// measures what each side's time needs:
//
//   - blocked: the time each side spent waiting in Read for bytes the other
//     side had not written yet. A side's own processing is its wall time
//     (from creating its tls.Conn until it is done) minus that: while it
//     waits, the other side (or the scheduler handing over) runs, which is
//     not this side's work. This holds however the runtime places the two
//     goroutines (one P taking turns, or two cores overlapping the client's
//     tail with the server's reading of Finished).
//   - log (only when asked, for the reported handshake): every Write in the
//     order the transport took it, so the flights can be told apart by who
//     wrote after whom (tlsFlights).
//
// A Read on an empty buffer blocks until the peer writes or closes; in
// drain mode it answers errDrained at once instead (the client reading the
// ticket the server already sent: crypto/tls processes post-handshake
// messages only inside Read, which would otherwise wait for application
// data that never comes). errDrained is a timeout, so crypto/tls does not
// poison the connection with it.

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

var errDrained = os.ErrDeadlineExceeded

// memWrite is one logged Write: which side wrote it and its bytes.
type memWrite struct {
	client bool
	b      []byte
}

// memPipe is the shared state of a pair.
type memPipe struct {
	mu  sync.Mutex
	log []memWrite // nil unless logging
	lg  bool
}

// memConn is one end of the pair.
type memConn struct {
	p       *memPipe
	client  bool
	peer    *memConn
	in      []byte        // bytes written by the peer, not yet read
	off     int           // read position in in
	wake    chan struct{} // one slot: the peer wrote or closed
	closed  bool          // this end closed (the peer reads EOF once drained)
	drain   bool
	blocked time.Duration // time spent waiting in Read
}

// newMemPipe makes a connected pair; logging records every Write.
func newMemPipe(logging bool) (client, server *memConn) {
	p := &memPipe{lg: logging}
	client = &memConn{p: p, client: true, wake: make(chan struct{}, 1)}
	server = &memConn{p: p, wake: make(chan struct{}, 1)}
	client.peer, server.peer = server, client
	return client, server
}

func (c *memConn) Read(b []byte) (int, error) {
	for {
		c.p.mu.Lock()
		if c.off < len(c.in) {
			n := copy(b, c.in[c.off:])
			c.off += n
			if c.off == len(c.in) { // reuse the buffer once emptied
				c.in, c.off = c.in[:0], 0
			}
			c.p.mu.Unlock()
			return n, nil
		}
		closed, drain := c.peer.closed || c.closed, c.drain
		c.p.mu.Unlock()
		switch {
		case closed:
			return 0, io.EOF
		case drain:
			return 0, errDrained
		}
		t0 := time.Now()
		<-c.wake
		c.blocked += time.Since(t0)
	}
}

func (c *memConn) Write(b []byte) (int, error) {
	c.p.mu.Lock()
	if c.closed || c.peer.closed {
		c.p.mu.Unlock()
		return 0, io.ErrClosedPipe
	}
	c.peer.in = append(c.peer.in, b...)
	if c.p.lg {
		c.p.log = append(c.p.log, memWrite{client: c.client, b: append([]byte(nil), b...)})
	}
	c.p.mu.Unlock()
	c.peer.notify()
	return len(b), nil
}

// notify wakes a Read waiting on c (the one slot keeps a wake-up that
// arrives before the Read waits).
func (c *memConn) notify() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *memConn) Close() error {
	c.p.mu.Lock()
	c.closed = true
	c.p.mu.Unlock()
	c.peer.notify()
	c.notify()
	return nil
}

// setDrain switches Read to answer errDrained instead of waiting.
func (c *memConn) setDrain(on bool) {
	c.p.mu.Lock()
	c.drain = on
	c.p.mu.Unlock()
}

// takeLog returns the logged writes (with logging on).
func (c *memConn) takeLog() []memWrite {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.p.log
}

type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return "memory" }

func (c *memConn) LocalAddr() net.Addr                { return memAddr{} }
func (c *memConn) RemoteAddr() net.Addr               { return memAddr{} }
func (c *memConn) SetDeadline(t time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(t time.Time) error { return nil }
