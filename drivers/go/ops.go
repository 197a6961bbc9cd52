package main

// The provider interface: a catalogue of algorithms, each with a case
// executor (for `verify`) and a cell constructor (for `bench`).
//
// A provider is one file that calls registerProvider from an init function
// (ops_stdlib.go registers go:stdlib). The helpers below build algorithms
// from Go's standard shapes — hash.Hash, cipher.Block, cipher.AEAD — so a
// second Go library exposing those interfaces (for example gmsm's SM3/SM4)
// needs only its own catalogue file.

import (
	"crypto/cipher"
	"crypto/hmac"
	"errors"
	"fmt"
	"hash"
	"sort"
)

// Provider is one library's catalogue, selected by --provider.
type Provider struct {
	ID       string
	Language string
	Library  string
	// Version reports the library version at run time.
	Version func() string
	Notes   []string
	Algs    []*Alg
}

// Alg is one algorithm of a provider.
type Alg struct {
	Name string
	// Ops lists the operations offered (protocol.md, bench table).
	Ops []string
	// Stream: the algorithm accepts chunk > 0 in bench.
	Stream bool
	// Exec runs one verify case and returns the output; errRejected when the
	// library refused the input (an open whose tag does not verify).
	Exec func(c *Case) ([]byte, error)
	// NewCell prepares one bench cell. Op is already checked against Ops and
	// Chunk against Stream.
	NewCell func(p *CellParams) (Cell, error)
}

// Case is one decoded verify case.
type Case struct {
	ID      string
	Op      string
	Key     []byte
	IV      []byte
	AAD     []byte
	Msg     []byte
	Counter uint32
}

// CellParams is what a cell is prepared from.
type CellParams struct {
	Op    string
	Key   []byte
	IV    []byte
	Msg   []byte // the fixed input of `size` bytes
	Chunk int    // 0: one-shot; > 0: streaming API in pieces of Chunk bytes
}

// Cell is one prepared bench cell.
type Cell interface {
	// Run performs exactly one operation and returns its output's first
	// byte (0 for an empty output), folded into the sink.
	Run() uint64
	// Output is the output of the most recent Run (for the checksum).
	Output() []byte
	// Err is the first failure a Run met (e.g. open rejecting), or nil.
	Err() error
}

var errRejected = errors.New("rejected")

var providers = map[string]*Provider{}

func registerProvider(p *Provider) {
	if _, dup := providers[p.ID]; dup {
		panic("duplicate provider " + p.ID)
	}
	providers[p.ID] = p
}

// providerIDs lists the registered providers, sorted.
func providerIDs() []string {
	ids := make([]string, 0, len(providers))
	for id := range providers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (p *Provider) alg(name string) *Alg {
	for _, a := range p.Algs {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func (a *Alg) offers(op string) bool {
	for _, o := range a.Ops {
		if o == op {
			return true
		}
	}
	return false
}

// first is the sink contribution of one output.
func first(b []byte) uint64 {
	if len(b) == 0 {
		return 0
	}
	return uint64(b[0])
}

// feed writes msg to h in pieces of chunk bytes (one Write when chunk <= 0).
func feed(h hash.Hash, msg []byte, chunk int) {
	if chunk <= 0 {
		h.Write(msg)
		return
	}
	for off := 0; off < len(msg); off += chunk {
		h.Write(msg[off:min(off+chunk, len(msg))])
	}
}

// xorChunks runs s over in into out in pieces of chunk bytes.
func xorChunks(s cipher.Stream, out, in []byte, chunk int) {
	if chunk <= 0 {
		s.XORKeyStream(out, in)
		return
	}
	for off := 0; off < len(in); off += chunk {
		end := min(off+chunk, len(in))
		s.XORKeyStream(out[off:end], in[off:end])
	}
}

func checkLen(what string, b []byte, want int) error {
	if len(b) != want {
		return fmt.Errorf("%s must be %d bytes, got %d", what, want, len(b))
	}
	return nil
}

func checkBlocks(msg []byte, alg string) error {
	if len(msg)%16 != 0 {
		return fmt.Errorf("size %d is not a multiple of 16 (%s takes whole blocks, no padding)", len(msg), alg)
	}
	return nil
}

// ---- noop -----------------------------------------------------------------

type noopCell struct{}

func (noopCell) Run() uint64    { return 0 }
func (noopCell) Output() []byte { return nil }
func (noopCell) Err() error     { return nil }

func noopAlg() *Alg {
	return &Alg{
		Name: "noop",
		Ops:  []string{"noop"},
		Exec: func(c *Case) ([]byte, error) { return []byte{}, nil },
		NewCell: func(p *CellParams) (Cell, error) {
			return noopCell{}, nil
		},
	}
}

// ---- hashes ---------------------------------------------------------------

// hashOneShot: chunk 0 uses the package's one-shot function (sha256.Sum256
// and friends): the shortest and fastest way a Go user hashes a buffer.
type hashOneShot struct {
	sum      func(out, msg []byte)
	msg, out []byte
}

func (c *hashOneShot) Run() uint64 {
	c.sum(c.out, c.msg)
	return uint64(c.out[0])
}
func (c *hashOneShot) Output() []byte { return c.out }
func (c *hashOneShot) Err() error     { return nil }

// hashStream: chunk > 0 (and HMAC) uses the hash.Hash streaming API:
// Reset, Write in pieces, Sum into a preallocated buffer.
type hashStream struct {
	h        hash.Hash
	msg, out []byte
	chunk    int
}

func (c *hashStream) Run() uint64 {
	c.h.Reset()
	feed(c.h, c.msg, c.chunk)
	c.out = c.h.Sum(c.out[:0])
	return uint64(c.out[0])
}
func (c *hashStream) Output() []byte { return c.out }
func (c *hashStream) Err() error     { return nil }

// hashAlg: newHash gives the streaming hash, sum the one-shot function
// writing the digest into out (len(out) == digest size).
func hashAlg(name string, newHash func() hash.Hash, sum func(out, msg []byte)) *Alg {
	return &Alg{
		Name:   name,
		Ops:    []string{"hash"},
		Stream: true,
		Exec: func(c *Case) ([]byte, error) {
			h := newHash()
			h.Write(c.Msg)
			return h.Sum(nil), nil
		},
		NewCell: func(p *CellParams) (Cell, error) {
			h := newHash()
			out := make([]byte, h.Size())
			if p.Chunk > 0 {
				return &hashStream{h: h, msg: p.Msg, out: out, chunk: p.Chunk}, nil
			}
			return &hashOneShot{sum: sum, msg: p.Msg, out: out}, nil
		},
	}
}

// hmacAlg: hmac.New once per cell (key prepared outside the timed region);
// one operation is Reset, Write, Sum (Go has no one-shot HMAC).
func hmacAlg(name string, newHash func() hash.Hash) *Alg {
	return &Alg{
		Name:   name,
		Ops:    []string{"mac"},
		Stream: true,
		Exec: func(c *Case) ([]byte, error) {
			h := hmac.New(newHash, c.Key)
			h.Write(c.Msg)
			return h.Sum(nil), nil
		},
		NewCell: func(p *CellParams) (Cell, error) {
			h := hmac.New(newHash, p.Key)
			return &hashStream{h: h, msg: p.Msg, out: make([]byte, h.Size()), chunk: p.Chunk}, nil
		},
	}
}

// ---- block cipher modes ---------------------------------------------------

// blockCell holds what every block-cipher cell needs: the key schedule
// (made once per cell), the input (plaintext, or the ciphertext prepared
// outside the timed region for decrypt) and the output buffer.
type blockCell struct {
	b       cipher.Block
	iv      []byte
	encrypt bool
	in, out []byte
	chunk   int
}

func (c *blockCell) Output() []byte { return c.out }
func (c *blockCell) Err() error     { return nil }

// ecbCell: Go has no ECB mode type (deliberately: crypto/cipher offers none),
// so one ECB operation is cipher.Block.Encrypt/Decrypt over each 16-byte
// block of the message, which is what a Go user has to write.
type ecbCell struct{ blockCell }

func (c *ecbCell) Run() uint64 {
	b, in, out := c.b, c.in, c.out
	if c.encrypt {
		for i := 0; i+16 <= len(in); i += 16 {
			b.Encrypt(out[i:i+16], in[i:i+16])
		}
	} else {
		for i := 0; i+16 <= len(in); i += 16 {
			b.Decrypt(out[i:i+16], in[i:i+16])
		}
	}
	return first(out)
}

// cbcCell: the Go API sets the IV only when a BlockMode is made, so each
// operation makes a new one (a small allocation) and runs CryptBlocks, in
// chunk-sized pieces when streaming (chunk must be a multiple of 16).
type cbcCell struct{ blockCell }

func (c *cbcCell) Run() uint64 {
	var m cipher.BlockMode
	if c.encrypt {
		m = cipher.NewCBCEncrypter(c.b, c.iv)
	} else {
		m = cipher.NewCBCDecrypter(c.b, c.iv)
	}
	if c.chunk <= 0 {
		m.CryptBlocks(c.out, c.in)
	} else {
		for off := 0; off < len(c.in); off += c.chunk {
			end := min(off+c.chunk, len(c.in))
			m.CryptBlocks(c.out[off:end], c.in[off:end])
		}
	}
	return first(c.out)
}

// ctrCell: as CBC, a new cipher.Stream per message for the IV.
type ctrCell struct{ blockCell }

func (c *ctrCell) Run() uint64 {
	xorChunks(cipher.NewCTR(c.b, c.iv), c.out, c.in, c.chunk)
	return first(c.out)
}

type blockMode int

const (
	modeECB blockMode = iota
	modeCBC
	modeCTR
)

// blockAlg builds aes-*-ecb/cbc/ctr (or any 16-byte block cipher) from a
// key-schedule constructor.
func blockAlg(name string, keyLen int, mode blockMode, newBlock func(key []byte) (cipher.Block, error)) *Alg {
	// run performs one whole-message operation the simple, allocating way
	// (used by verify and to make the ciphertext for decrypt cells).
	run := func(b cipher.Block, iv []byte, encrypt bool, msg []byte) []byte {
		out := make([]byte, len(msg))
		switch mode {
		case modeECB:
			for i := 0; i < len(msg); i += 16 {
				if encrypt {
					b.Encrypt(out[i:], msg[i:])
				} else {
					b.Decrypt(out[i:], msg[i:])
				}
			}
		case modeCBC:
			if encrypt {
				cipher.NewCBCEncrypter(b, iv).CryptBlocks(out, msg)
			} else {
				cipher.NewCBCDecrypter(b, iv).CryptBlocks(out, msg)
			}
		case modeCTR:
			cipher.NewCTR(b, iv).XORKeyStream(out, msg)
		}
		return out
	}
	prepare := func(key, iv, msg []byte) (cipher.Block, error) {
		if err := checkLen("key", key, keyLen); err != nil {
			return nil, err
		}
		if mode != modeECB {
			if err := checkLen("iv", iv, 16); err != nil {
				return nil, err
			}
		}
		if mode != modeCTR {
			if err := checkBlocks(msg, name); err != nil {
				return nil, err
			}
		}
		b, err := newBlock(key)
		if err != nil {
			return nil, err
		}
		if b.BlockSize() != 16 {
			return nil, fmt.Errorf("block size %d, expected 16", b.BlockSize())
		}
		return b, nil
	}
	return &Alg{
		Name:   name,
		Ops:    []string{"encrypt", "decrypt"},
		Stream: mode != modeECB,
		Exec: func(c *Case) ([]byte, error) {
			b, err := prepare(c.Key, c.IV, c.Msg)
			if err != nil {
				return nil, err
			}
			return run(b, c.IV, c.Op == "encrypt", c.Msg), nil
		},
		NewCell: func(p *CellParams) (Cell, error) {
			b, err := prepare(p.Key, p.IV, p.Msg)
			if err != nil {
				return nil, err
			}
			if mode == modeCBC && p.Chunk%16 != 0 {
				return nil, fmt.Errorf("chunk %d is not a multiple of 16 (Go's cipher.BlockMode takes whole blocks)", p.Chunk)
			}
			bc := blockCell{b: b, iv: p.IV, encrypt: p.Op == "encrypt", in: p.Msg, out: make([]byte, len(p.Msg)), chunk: p.Chunk}
			if !bc.encrypt {
				bc.in = run(b, p.IV, true, p.Msg)
			}
			switch mode {
			case modeECB:
				return &ecbCell{bc}, nil
			case modeCBC:
				return &cbcCell{bc}, nil
			default:
				return &ctrCell{bc}, nil
			}
		},
	}
}

// ---- AEADs ----------------------------------------------------------------

// aeadCell: cipher.AEAD is one-shot in Go. Seal(dst[:0], nonce, msg, nil)
// and Open(dst[:0], nonce, ct, nil) into buffers preallocated per cell; the
// AEAD (key schedule) is made once per cell.
type aeadCell struct {
	a       cipher.AEAD
	nonce   []byte
	seal    bool
	in, out []byte
	err     error
}

func (c *aeadCell) Run() uint64 {
	if c.seal {
		c.out = c.a.Seal(c.out[:0], c.nonce, c.in, nil)
		return uint64(c.out[0])
	}
	pt, err := c.a.Open(c.out[:0], c.nonce, c.in, nil)
	if err != nil {
		if c.err == nil {
			c.err = fmt.Errorf("open failed: %v", err)
		}
		return 0
	}
	c.out = pt
	return first(pt)
}
func (c *aeadCell) Output() []byte { return c.out }
func (c *aeadCell) Err() error     { return c.err }

func aeadAlg(name string, keyLen, nonceLen int, newAEAD func(key []byte) (cipher.AEAD, error)) *Alg {
	prepare := func(key, nonce []byte) (cipher.AEAD, error) {
		if err := checkLen("key", key, keyLen); err != nil {
			return nil, err
		}
		if err := checkLen("iv", nonce, nonceLen); err != nil {
			return nil, err
		}
		a, err := newAEAD(key)
		if err != nil {
			return nil, err
		}
		if a.NonceSize() != nonceLen || a.Overhead() != 16 {
			return nil, fmt.Errorf("unexpected AEAD shape: nonce %d, tag %d", a.NonceSize(), a.Overhead())
		}
		return a, nil
	}
	return &Alg{
		Name: name,
		Ops:  []string{"seal", "open"},
		Exec: func(c *Case) ([]byte, error) {
			a, err := prepare(c.Key, c.IV)
			if err != nil {
				return nil, err
			}
			if c.Op == "seal" {
				return a.Seal(nil, c.IV, c.Msg, c.AAD), nil
			}
			pt, err := a.Open(nil, c.IV, c.Msg, c.AAD)
			if err != nil {
				return nil, errRejected
			}
			return pt, nil
		},
		NewCell: func(p *CellParams) (Cell, error) {
			a, err := prepare(p.Key, p.IV)
			if err != nil {
				return nil, err
			}
			c := &aeadCell{a: a, nonce: p.IV, seal: p.Op == "seal", in: p.Msg}
			if c.seal {
				c.out = make([]byte, 0, len(p.Msg)+a.Overhead())
			} else {
				c.in = a.Seal(nil, p.IV, p.Msg, nil)
				c.out = make([]byte, 0, len(p.Msg))
			}
			return c, nil
		},
	}
}

// ---- shared executor plumbing ---------------------------------------------

// execCase runs one verify case through the algorithm's executor, turning a
// panic from a library into an error result.
func execCase(a *Alg, c *Case) (out []byte, err error) {
	if !a.offers(c.Op) {
		return nil, fmt.Errorf("op %q not offered for %s", c.Op, a.Name)
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return a.Exec(c)
}
