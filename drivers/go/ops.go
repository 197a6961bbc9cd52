package main

// The provider interface: a catalogue of algorithms, each with a case
// executor (for `verify`), a cell constructor (for `bench`) and, for
// public-key algorithms, a key-pair generator (for `keypair`).
//
// A provider is one file that calls registerProvider from an init function
// (ops_stdlib.go registers go:stdlib, ops_gmsm.go go:gmsm). The helpers
// below build symmetric algorithms from Go's standard shapes — hash.Hash,
// cipher.Block, cipher.AEAD — and pk.go builds public-key algorithms from
// small per-scheme adapters, so every algorithm of every provider goes
// through the same Alg and Cell.

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
	// library refused the input (an open whose tag does not verify, a
	// signature that does not verify, a malformed key), an *unsupportedError
	// when the library has no API for this variant of the operation.
	Exec func(c *Case) ([]byte, error)
	// Prepare parses a case outside any clock and returns its one operation,
	// for the leak request (protocol version 5: sign, derive, decaps, RSA
	// decrypt, cipher encrypt/decrypt, AEAD seal/open); Exec runs the same
	// function once for those operations. nil: no leak check (not offered).
	Prepare func(c *Case) (func() ([]byte, error), error)
	// NewCell prepares one bench cell. Op is already checked against Ops and
	// Chunk against Stream.
	NewCell func(p *CellParams) (Cell, error)
	// Keypair makes a fresh key pair with the library's own generator, in
	// protocol.md's encodings (public-key algorithms only; nil otherwise).
	Keypair func() (public, private []byte, err error)
	// Kind is "" for symmetric and public-key algorithms, "kdf" for
	// hkdf-sha256 and "protocol" for the handshakes of docs/pq-ntor.md
	// (since protocol version 3, handshake.go), "tls" for the TLS 1.3
	// cells (version 7, tls.go).
	Kind string
}

// named is a protocol name with what it stands for in a library: the
// handshake suites (handshake.go), the TLS groups and server keys (tls.go).
type named[T any] struct {
	name string
	v    T
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

	// public-key cases
	Public, Private, Sig, Seed, Ctx []byte
	M                               []byte
	HasM                            bool // m was given: deterministic encapsulation
	Deterministic                   bool

	// key derivation (HKDF: IKM, salt, info, output Size) and the
	// handshake case (its secrets and KeyLen), protocol version 3
	IKM, Salt, Info                                     []byte
	Size, KeyLen                                        int
	RelayID, RelayB, ClientX, RelayY, MLKEMSeed, MLKEMM []byte
}

// CellParams is what a cell is prepared from.
type CellParams struct {
	Op  string
	Key []byte
	IV  []byte
	// Msg is the fixed input of `size` bytes for a one-shot cell (Chunk 0);
	// nil for a streamed cell, which reads Src piece by piece instead.
	Msg   []byte
	Src   *source
	Size  int
	Chunk int // 0: one-shot; > 0: streaming API in pieces of Chunk bytes
	// TLS is the request's test PKI (TLS cells, protocol version 7)
	TLS *tlsPKI
}

// newCellParams prepares the input of a cell: the whole message for a
// one-shot cell; for a streamed cell (chunk > 0) only the doubled 1 MiB
// pattern, so memory stays bounded whatever the size.
func newCellParams(op string, key, iv []byte, seed uint32, size, chunk int) *CellParams {
	p := &CellParams{Op: op, Key: key, IV: iv, Size: size, Chunk: chunk}
	if chunk > 0 {
		p.Src = patternSource(seed, size)
	} else {
		p.Msg = Message(seed, size)
	}
	return p
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

// preparedCell is a cell whose operations consume single-use inputs (the
// handshake's client-finish: a fresh client state and its reply per
// operation). prepare(n) makes n of them; the timing loop calls it before
// every timed batch and warm-up round, outside the timed region, and bench
// before the checksum operation. A failure is recorded in Err. Other cells
// do not implement it and are timed exactly as before.
type preparedCell interface {
	Cell
	prepare(n int64)
}

// prepare readies the next n operations of c, outside any timed region.
func prepare(c Cell, n int64) {
	if pc, ok := c.(preparedCell); ok {
		pc.prepare(n)
	}
}

// streamedCell is a cell whose output is a stream of pieces written to one
// piece-sized buffer (a cipher with chunk > 0): Output holds only the last
// piece, so the checksum is folded piece by piece during one untimed Run.
type streamedCell interface {
	Cell
	// setFold makes the following Runs fold every output piece into f
	// (nil: stop folding).
	setFold(f *fnvFold)
}

// checksumRun performs the one untimed operation whose output gives the
// cell's checksum.
func checksumRun(c Cell) (sink uint64, checksum string) {
	if sc, ok := c.(streamedCell); ok {
		f := newFold()
		sc.setFold(f)
		sink = c.Run()
		sc.setFold(nil)
		return sink, f.checksum()
	}
	sink = c.Run()
	return sink, Checksum(c.Output())
}

var errRejected = errors.New("rejected")

// unsupportedError: the library has no API for this variant of an
// operation (a verify case answered `unsupported`, counted as skipped).
type unsupportedError struct{ why string }

func (e *unsupportedError) Error() string { return "unsupported: " + e.why }

func unsupported(format string, args ...any) error {
	return &unsupportedError{why: fmt.Sprintf(format, args...)}
}

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

// pieces is the loop of a streamed cipher cell: crypt each chunk-sized
// piece of in into the one piece buffer (overwritten), folding the output
// into fold when it is set. It returns the first byte of the last piece.
func pieces(in *source, chunk int, buf []byte, fold *fnvFold, crypt func(dst, src []byte)) uint64 {
	n := 0
	for off := 0; off < in.size; off += chunk {
		n = min(chunk, in.size-off)
		crypt(buf[:n], in.at(off, n))
		if fold != nil {
			fold.write(buf[:n])
		}
	}
	return first(buf[:n])
}

// piecesInto is pieces writing the whole output to dst (len in.size): the
// streamed encryption that makes a decrypt cell's ciphertext, outside the
// timed region.
func piecesInto(dst []byte, in *source, chunk int, crypt func(dst, src []byte)) {
	for off := 0; off < in.size; off += chunk {
		n := min(chunk, in.size-off)
		crypt(dst[off:off+n], in.at(off, n))
	}
}

// pieceCell is what every streamed cipher cell holds.
type pieceCell struct {
	in    *source
	chunk int
	buf   []byte // one piece
	fold  *fnvFold
}

func (c *pieceCell) Output() []byte     { return c.buf }
func (c *pieceCell) takeUntimed() int64 { return c.in.takeUntimed() }
func (c *pieceCell) setFold(f *fnvFold) { c.fold = f }
func newPieceCell(in *source, chunk int) pieceCell {
	return pieceCell{in: in, chunk: chunk, buf: make([]byte, min(chunk, max(in.size, 1)))}
}

func checkLen(what string, b []byte, want int) error {
	if len(b) != want {
		return fmt.Errorf("%s must be %d bytes, got %d", what, want, len(b))
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
// Reset, Write in pieces (read from the pattern, never materialised), Sum
// into a preallocated buffer. chunk 0 is one Write of the whole message.
type hashStream struct {
	h     hash.Hash
	msg   []byte  // chunk 0
	in    *source // chunk > 0
	out   []byte
	chunk int
}

func (c *hashStream) Run() uint64 {
	c.h.Reset()
	if c.chunk <= 0 {
		c.h.Write(c.msg)
	} else {
		for off := 0; off < c.in.size; off += c.chunk {
			c.h.Write(c.in.at(off, min(c.chunk, c.in.size-off)))
		}
	}
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
				return &hashStream{h: h, in: p.Src, out: out, chunk: p.Chunk}, nil
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
			return &hashStream{h: h, msg: p.Msg, in: p.Src, out: make([]byte, h.Size()), chunk: p.Chunk}, nil
		},
	}
}

// ---- block cipher modes ---------------------------------------------------

// blockCipher is a 16-byte block cipher as a library exposes it: the key
// schedule, and optionally the library's own ECB BlockMode (Go's
// crypto/cipher has none; gmsm's cipher package has one).
type blockCipher struct {
	newBlock       func(key []byte) (cipher.Block, error)
	ecbEnc, ecbDec func(b cipher.Block) cipher.BlockMode
}

// blockCell holds what every one-shot block-cipher cell needs: the key
// schedule (made once per cell), the input (plaintext, or the ciphertext
// prepared outside the timed region for decrypt) and the output buffer.
type blockCell struct {
	b       cipher.Block
	iv      []byte
	encrypt bool
	in, out []byte
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

// ecbModeCell: a library's ECB BlockMode (no IV, so made once per cell),
// CryptBlocks over the whole message.
type ecbModeCell struct {
	blockCell
	m cipher.BlockMode
}

func (c *ecbModeCell) Run() uint64 {
	c.m.CryptBlocks(c.out, c.in)
	return first(c.out)
}

// cbcCell: the Go API sets the IV only when a BlockMode is made, so each
// operation makes a new one (a small allocation) and runs CryptBlocks.
type cbcCell struct{ blockCell }

func (c *cbcCell) Run() uint64 {
	var m cipher.BlockMode
	if c.encrypt {
		m = cipher.NewCBCEncrypter(c.b, c.iv)
	} else {
		m = cipher.NewCBCDecrypter(c.b, c.iv)
	}
	m.CryptBlocks(c.out, c.in)
	return first(c.out)
}

// ctrCell: as CBC, a new cipher.Stream per message for the IV.
type ctrCell struct{ blockCell }

func (c *ctrCell) Run() uint64 {
	cipher.NewCTR(c.b, c.iv).XORKeyStream(c.out, c.in)
	return first(c.out)
}

// cbcStreamCell, ctrStreamCell: chunk > 0. A new BlockMode/Stream per
// message (IV set per message), then CryptBlocks/XORKeyStream per piece
// into the one piece buffer; CBC chunks are whole blocks.
type cbcStreamCell struct {
	pieceCell
	b       cipher.Block
	iv      []byte
	encrypt bool
}

func (c *cbcStreamCell) Run() uint64 {
	var m cipher.BlockMode
	if c.encrypt {
		m = cipher.NewCBCEncrypter(c.b, c.iv)
	} else {
		m = cipher.NewCBCDecrypter(c.b, c.iv)
	}
	return pieces(c.in, c.chunk, c.buf, c.fold, m.CryptBlocks)
}
func (c *cbcStreamCell) Err() error { return nil }

type ctrStreamCell struct {
	pieceCell
	b  cipher.Block
	iv []byte
}

func (c *ctrStreamCell) Run() uint64 {
	return pieces(c.in, c.chunk, c.buf, c.fold, cipher.NewCTR(c.b, c.iv).XORKeyStream)
}
func (c *ctrStreamCell) Err() error { return nil }

type blockMode int

const (
	modeECB blockMode = iota
	modeCBC
	modeCTR
)

// blockAlg builds aes-*-ecb/cbc/ctr (or any 16-byte block cipher) from a
// key-schedule constructor.
func blockAlg(name string, keyLen int, mode blockMode, newBlock func(key []byte) (cipher.Block, error)) *Alg {
	return blockAlgWith(name, keyLen, mode, blockCipher{newBlock: newBlock})
}

// blockAlgWith is blockAlg for a cipher that may bring its own ECB mode.
func blockAlgWith(name string, keyLen int, mode blockMode, bc blockCipher) *Alg {
	// crypter is the whole-message operation as a piece function: a fresh
	// BlockMode/Stream (IV set), whose CryptBlocks/XORKeyStream takes the
	// message in one or several calls.
	crypter := func(b cipher.Block, iv []byte, encrypt bool) func(dst, src []byte) {
		switch mode {
		case modeECB:
			if encrypt && bc.ecbEnc != nil {
				return bc.ecbEnc(b).CryptBlocks
			}
			if !encrypt && bc.ecbDec != nil {
				return bc.ecbDec(b).CryptBlocks
			}
			return func(dst, src []byte) {
				for i := 0; i+16 <= len(src); i += 16 {
					if encrypt {
						b.Encrypt(dst[i:], src[i:])
					} else {
						b.Decrypt(dst[i:], src[i:])
					}
				}
			}
		case modeCBC:
			if encrypt {
				return cipher.NewCBCEncrypter(b, iv).CryptBlocks
			}
			return cipher.NewCBCDecrypter(b, iv).CryptBlocks
		default:
			return cipher.NewCTR(b, iv).XORKeyStream
		}
	}
	// run performs one whole-message operation the simple, allocating way
	// (used by verify and to make the ciphertext for decrypt cells).
	run := func(b cipher.Block, iv []byte, encrypt bool, msg []byte) []byte {
		out := make([]byte, len(msg))
		crypter(b, iv, encrypt)(out, msg)
		return out
	}
	prepare := func(key, iv []byte, size int) (cipher.Block, error) {
		if err := checkLen("key", key, keyLen); err != nil {
			return nil, err
		}
		if mode != modeECB {
			if err := checkLen("iv", iv, 16); err != nil {
				return nil, err
			}
		}
		if mode != modeCTR && size%16 != 0 {
			return nil, fmt.Errorf("size %d is not a multiple of 16 (%s takes whole blocks, no padding)", size, name)
		}
		b, err := bc.newBlock(key)
		if err != nil {
			return nil, err
		}
		if b.BlockSize() != 16 {
			return nil, fmt.Errorf("block size %d, expected 16", b.BlockSize())
		}
		return b, nil
	}
	prepareCase := func(c *Case) (func() ([]byte, error), error) {
		b, err := prepare(c.Key, c.IV, len(c.Msg))
		if err != nil {
			return nil, err
		}
		encrypt := c.Op == "encrypt"
		return func() ([]byte, error) { return run(b, c.IV, encrypt, c.Msg), nil }, nil
	}
	return &Alg{
		Name:    name,
		Ops:     []string{"encrypt", "decrypt"},
		Stream:  mode != modeECB,
		Exec:    func(c *Case) ([]byte, error) { return runPrepared(prepareCase, c) },
		Prepare: prepareCase,
		NewCell: func(p *CellParams) (Cell, error) {
			b, err := prepare(p.Key, p.IV, p.Size)
			if err != nil {
				return nil, err
			}
			encrypt := p.Op == "encrypt"
			if p.Chunk > 0 {
				if mode == modeCBC && p.Chunk%16 != 0 {
					return nil, fmt.Errorf("not offered: chunk %d is not a multiple of 16 (Go's cipher.BlockMode takes whole blocks)", p.Chunk)
				}
				in := p.Src
				if !encrypt && in.size > regenerateAbove { // bounded memory: made again per piece
					in = regeneratingSource(in, p.Chunk, func() func(dst, src []byte) { return crypter(b, p.IV, true) })
				} else if !encrypt { // the ciphertext, by the streamed encryption, kept whole
					ct := make([]byte, in.size)
					piecesInto(ct, in, p.Chunk, crypter(b, p.IV, true))
					in = keptSource(ct)
				}
				pc := newPieceCell(in, p.Chunk)
				if mode == modeCBC {
					return &cbcStreamCell{pieceCell: pc, b: b, iv: p.IV, encrypt: encrypt}, nil
				}
				return &ctrStreamCell{pieceCell: pc, b: b, iv: p.IV}, nil
			}
			c := blockCell{b: b, iv: p.IV, encrypt: encrypt, in: p.Msg, out: make([]byte, len(p.Msg))}
			if !encrypt {
				c.in = run(b, p.IV, true, p.Msg)
			}
			switch mode {
			case modeECB:
				if encrypt && bc.ecbEnc != nil {
					return &ecbModeCell{c, bc.ecbEnc(b)}, nil
				}
				if !encrypt && bc.ecbDec != nil {
					return &ecbModeCell{c, bc.ecbDec(b)}, nil
				}
				return &ecbCell{c}, nil
			case modeCBC:
				return &cbcCell{c}, nil
			default:
				return &ctrCell{c}, nil
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
	prepareCase := func(c *Case) (func() ([]byte, error), error) {
		a, err := prepare(c.Key, c.IV)
		if err != nil {
			return nil, err
		}
		if c.Op == "seal" {
			return func() ([]byte, error) { return a.Seal(nil, c.IV, c.Msg, c.AAD), nil }, nil
		}
		return func() ([]byte, error) {
			pt, err := a.Open(nil, c.IV, c.Msg, c.AAD)
			if err != nil {
				return nil, errRejected
			}
			return pt, nil
		}, nil
	}
	return &Alg{
		Name:    name,
		Ops:     []string{"seal", "open"},
		Exec:    func(c *Case) ([]byte, error) { return runPrepared(prepareCase, c) },
		Prepare: prepareCase,
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

// runPrepared prepares a case and runs its one operation: a verify case runs
// exactly the function a leak measurement times.
func runPrepared(prepare func(c *Case) (func() ([]byte, error), error), c *Case) ([]byte, error) {
	run, err := prepare(c)
	if err != nil {
		return nil, err
	}
	return run()
}

// execCase runs one verify case through the algorithm's executor, turning a
// panic from a library into an error result.
func execCase(a *Alg, c *Case) (out []byte, err error) {
	// a handshake's case is the whole deterministic handshake, not a step
	if !a.offers(c.Op) && !(a.Kind == "protocol" && c.Op == "handshake") {
		return nil, fmt.Errorf("op %q not offered for %s", c.Op, a.Name)
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return a.Exec(c)
}
