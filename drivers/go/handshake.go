package main

// Key derivation and handshakes (since protocol version 3, docs/protocol.md "Key
// derivation and handshakes"):
//
//   - hkdf-sha256 `derive`: crypto/hkdf.Key(sha256.New, IKM, salt, info, L),
//     IKM = the size-byte message, salt = the cell key, info = the cell IV,
//     72 bytes out; a case gives ikm, salt, info and size.
//   - ntor, pq-ntor-512/768/1024: the handshakes of docs/pq-ntor.md through
//     this repository's library cryptobench/protocols/pqntor (a replace
//     directive in go.mod), with system randomness and 72 bytes of keys. The
//     relay's identity (random bytes) and long-term key are made once per
//     cell. One operation:
//       client-create  pqntor.ClientCreate
//       server-reply   pqntor.ServerReply on one valid onionskin made in
//                      NewCell (fresh y and encapsulation each time)
//       client-finish  pqntor.ClientFinish on a fresh (state, reply) pair:
//                      prepare(n) makes n pairs (ClientCreate + ServerReply)
//                      before every timed batch, outside the timed region
//       full           the three in a row
//     Outputs: the onionskin, the reply, the client's keys. A step that fails
//     is the cell's error (a finish whose reply does not authenticate fails
//     the bench request; it never counts as an operation).
//   - the `handshake` case: the deterministic handshake of the vectors (spec
//     section 9) with the case's secrets fed through the library's rand
//     argument (x, d|z to ClientCreate; y, m to ServerReply), answering
//     onionskin || reply || keys once both sides' keys agree.

import (
	"bytes"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"cryptobench/protocols/pqntor/pqntor"
)

const (
	hkdfBenchLen = 72      // protocol.md: 72 bytes of HKDF output in bench
	hkdfCaseMax  = 1 << 20 // a case asking for more is an error, not a huge buffer
	hsKeyLen     = pqntor.DefaultKeyLen
	// maxPrepared bounds the client states one prepare makes (a larger
	// batch is an error).
	maxPrepared = 1 << 16
)

// ---- HKDF -----------------------------------------------------------------

type hkdfCell struct {
	ikm, salt []byte
	info      string // converted once per cell
	out       []byte
	err       error
}

func (c *hkdfCell) Run() uint64 {
	out, err := hkdf.Key(sha256.New, c.ikm, c.salt, c.info, hkdfBenchLen)
	if err != nil {
		if c.err == nil {
			c.err = fmt.Errorf("rejected by the library: %v", err)
		}
		return 0
	}
	c.out = out
	return uint64(out[0])
}
func (c *hkdfCell) Output() []byte { return c.out }
func (c *hkdfCell) Err() error     { return c.err }

func hkdfAlg() *Alg {
	return &Alg{
		Name: "hkdf-sha256",
		Ops:  []string{"derive"},
		Kind: "kdf",
		Exec: func(c *Case) ([]byte, error) {
			if c.Size > hkdfCaseMax {
				return nil, fmt.Errorf("output size %d too large for this driver (at most %d)", c.Size, hkdfCaseMax)
			}
			out, err := hkdf.Key(sha256.New, c.IKM, c.Salt, string(c.Info), c.Size)
			if err != nil { // the library refused: a length over 255 * 32
				return nil, errRejected
			}
			return out, nil
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return &hkdfCell{ikm: p.Msg, salt: p.Key, info: string(p.IV)}, nil
		},
	}
}

// ---- handshakes -----------------------------------------------------------

// hsSuites: the protocol's names of the suites. A suite the library cannot
// run (ML-KEM-512: Go's crypto/mlkem lacks it) is not offered.
var hsSuites = []named[pqntor.Suite]{
	{"ntor", pqntor.NTor},
	{"pq-ntor-512", pqntor.PQNTorMLKEM512},
	{"pq-ntor-768", pqntor.PQNTorMLKEM768},
	{"pq-ntor-1024", pqntor.PQNTorMLKEM1024},
}

// handshakeAlgs are the offered handshake algorithms.
func handshakeAlgs() []*Alg {
	var algs []*Alg
	for _, s := range hsSuites {
		if s.v.Supported() {
			algs = append(algs, handshakeAlg(s.name, s.v))
		}
	}
	return algs
}

// refused: the other side does not accept a message or key (a `rejected`
// case); any other error is the driver's.
func refused(err error) bool {
	for _, e := range []error{pqntor.ErrMalformed, pqntor.ErrUnknownRelay, pqntor.ErrBadKey, pqntor.ErrHandshakeFailed} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

type hsCell struct {
	step   string
	p      pqntor.Params
	relay  *pqntor.RelayKeys
	id, b  []byte // the relay's ID and onion key, as the client knows them
	onion  []byte // server-reply: the onionskin it answers
	out    []byte
	err    error
	states []*pqntor.ClientState // client-finish: [next:] are ready
	reply  [][]byte
	next   int
}

func (c *hsCell) fail(step string, err error) uint64 {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %w", step, err)
	}
	return 0
}

func (c *hsCell) Run() uint64 {
	switch c.step {
	case "client-create":
		_, onion, err := pqntor.ClientCreate(c.id, c.b, c.p, nil)
		if err != nil {
			return c.fail(c.step, err)
		}
		c.out = onion
	case "server-reply":
		reply, _, err := pqntor.ServerReply(c.relay, c.p, c.onion, nil)
		if err != nil {
			return c.fail(c.step, err)
		}
		c.out = reply
	case "client-finish":
		if c.next >= len(c.states) {
			return c.fail(c.step, errors.New("no prepared client state left (more operations than prepare made)"))
		}
		i := c.next
		c.next++
		st, reply := c.states[i], c.reply[i]
		c.states[i], c.reply[i] = nil, nil // single-use; garbage from here on
		keys, err := pqntor.ClientFinish(st, reply)
		if err != nil {
			return c.fail(c.step, err)
		}
		c.out = keys
	default: // full
		st, onion, err := pqntor.ClientCreate(c.id, c.b, c.p, nil)
		if err != nil {
			return c.fail("client-create", err)
		}
		reply, _, err := pqntor.ServerReply(c.relay, c.p, onion, nil)
		if err != nil {
			return c.fail("server-reply", err)
		}
		keys, err := pqntor.ClientFinish(st, reply)
		if err != nil {
			return c.fail("client-finish", err)
		}
		c.out = keys
	}
	return uint64(c.out[0])
}

func (c *hsCell) Output() []byte { return c.out }
func (c *hsCell) Err() error     { return c.err }

// finishCell is the client-finish cell: the only one with single-use inputs.
type finishCell struct{ *hsCell }

// prepare drops the used (state, reply) pairs, keeps the unused ones and
// makes new ones until n are ready.
func (c finishCell) prepare(n int64) {
	if c.err != nil {
		return
	}
	if n > maxPrepared {
		c.err = fmt.Errorf("batch %d too large: client-finish keeps at most %d client states", n, maxPrepared)
		return
	}
	c.states = append(c.states[:0], c.states[c.next:]...)
	c.reply = append(c.reply[:0], c.reply[c.next:]...)
	c.next = 0
	for int64(len(c.states)) < n {
		st, onion, err := pqntor.ClientCreate(c.id, c.b, c.p, nil)
		if err == nil {
			var reply []byte
			if reply, _, err = pqntor.ServerReply(c.relay, c.p, onion, nil); err == nil {
				c.states = append(c.states, st)
				c.reply = append(c.reply, reply)
				continue
			}
		}
		c.err = fmt.Errorf("preparing a client state and its reply: %w", err)
		return
	}
}

// corruptReplies flips the last bit (of AUTH) of every ready reply, so the
// next finishes fail (tests only).
func (c finishCell) corruptReplies() {
	for _, r := range c.reply[c.next:] {
		r[len(r)-1] ^= 1
	}
}

func newHandshakeCell(name string, suite pqntor.Suite, p *CellParams) (Cell, error) {
	if p.Size != 0 {
		return nil, fmt.Errorf("%s %s: size must be 0 (a handshake step has no message)", name, p.Op)
	}
	z, err := suite.Sizes()
	if err != nil {
		return nil, err
	}
	id := make([]byte, z.ID)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	relay, err := pqntor.GenerateRelayKeys(id, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: making the relay keys: %w", name, err)
	}
	c := &hsCell{step: p.Op, p: pqntor.Params{Suite: suite, KeyLen: hsKeyLen}, relay: relay, id: relay.ID(), b: relay.PublicKey()}
	switch p.Op {
	case "server-reply": // one valid onionskin, made outside the timed region
		if _, c.onion, err = pqntor.ClientCreate(c.id, c.b, c.p, nil); err != nil {
			return nil, fmt.Errorf("%s: making the onionskin: %w", name, err)
		}
	case "client-finish":
		return finishCell{c}, nil
	}
	return c, nil
}

// runHandshakeCase is the `handshake` case: the vector's handshake, every
// random value taken from the case in the order of spec section 8.
func runHandshakeCase(suite pqntor.Suite, c *Case) ([]byte, error) {
	if c.Op != "handshake" {
		return nil, fmt.Errorf("op %q: the only case of a handshake is \"handshake\"", c.Op)
	}
	z, err := suite.Sizes()
	if err != nil {
		return nil, err
	}
	fields := []struct {
		name string
		v    []byte
		want int
	}{{"relay_id", c.RelayID, z.ID}, {"relay_b_secret", c.RelayB, 32}, {"client_x_secret", c.ClientX, 32}, {"relay_y_secret", c.RelayY, 32}}
	if suite.IsPQ() {
		fields = append(fields, struct {
			name string
			v    []byte
			want int
		}{"client_mlkem_seed", c.MLKEMSeed, pqntor.MLKEMSeedLen}, struct {
			name string
			v    []byte
			want int
		}{"mlkem_encaps_m", c.MLKEMM, pqntor.MLKEMMLen})
	}
	for _, f := range fields {
		if len(f.v) != f.want {
			return nil, fmt.Errorf("handshake case: %s must be %d bytes, got %d", f.name, f.want, len(f.v))
		}
	}
	if c.KeyLen < 1 || c.KeyLen > pqntor.MaxKeyLen {
		return nil, fmt.Errorf("handshake case: key_len %d not in 1..%d", c.KeyLen, pqntor.MaxKeyLen)
	}
	p := pqntor.Params{Suite: suite, KeyLen: c.KeyLen}
	relay, err := pqntor.NewRelayKeys(c.RelayID, c.RelayB)
	if err != nil {
		return nil, err
	}
	fail := func(step string, err error) ([]byte, error) {
		if refused(err) {
			return nil, errRejected
		}
		return nil, fmt.Errorf("%s: %w", step, err)
	}
	clientDraws := bytes.NewReader(append(append([]byte(nil), c.ClientX...), c.MLKEMSeed...))
	st, onion, err := pqntor.ClientCreate(c.RelayID, relay.PublicKey(), p, clientDraws)
	if err != nil {
		return fail("client-create", err)
	}
	relayDraws := bytes.NewReader(append(append([]byte(nil), c.RelayY...), c.MLKEMM...))
	reply, keys, err := pqntor.ServerReply(relay, p, onion, relayDraws)
	if err != nil {
		return fail("server-reply", err)
	}
	clientKeys, err := pqntor.ClientFinish(st, reply)
	if err != nil {
		return fail("client-finish", err)
	}
	if clientDraws.Len() != 0 || relayDraws.Len() != 0 {
		return nil, fmt.Errorf("the handshake left %d and %d bytes of the case's randomness undrawn", clientDraws.Len(), relayDraws.Len())
	}
	if !bytes.Equal(keys, clientKeys) {
		return nil, errors.New("client and relay derived different keys")
	}
	return append(append(onion, reply...), keys...), nil
}

func handshakeAlg(name string, suite pqntor.Suite) *Alg {
	return &Alg{
		Name: name,
		Ops:  []string{"client-create", "server-reply", "client-finish", "full"},
		Kind: "protocol",
		Exec: func(c *Case) ([]byte, error) { return runHandshakeCase(suite, c) },
		NewCell: func(p *CellParams) (Cell, error) {
			return newHandshakeCell(name, suite, p)
		},
	}
}
