package main

// Public-key and post-quantum algorithms (since protocol version 2), built the
// same way for every provider: a provider describes a scheme through a few
// functions (generate a key pair, parse the protocol's key encodings, the
// operation itself) and sigAlg/kexAlg/kemAlg/pkeAlg/keygenOnlyAlg turn it into
// an Alg with a case executor, bench cells and a key-pair generator.
//
// What one timed operation is (protocol.md, "Algorithms and what one
// operation is"): keys, peer keys, signatures and ciphertexts are made
// once per cell in NewCell, outside the timed region; Run is exactly the
// library call. Encoding a generated public key (the output of keygen) is
// left to Output, which is only called for the checksum. keygen, derive,
// encaps and decaps take no message: their `size` (0 by protocol.md) is
// ignored.

import (
	"crypto"
	"fmt"
)

// keyPair is what every generated key offers: its encodings and a cheap
// sink contribution (a byte of key material already in memory).
type keyPair interface {
	encodePublic() ([]byte, error)
	encodePrivate() ([]byte, error)
	sink() uint64
}

// keypairFunc adapts a generator to Alg.Keypair.
func keypairFunc[K keyPair](generate func() (K, error)) func() ([]byte, []byte, error) {
	return func() ([]byte, []byte, error) {
		k, err := generate()
		if err != nil {
			return nil, nil, err
		}
		pub, err := k.encodePublic()
		if err != nil {
			return nil, nil, err
		}
		priv, err := k.encodePrivate()
		if err != nil {
			return nil, nil, err
		}
		return pub, priv, nil
	}
}

// reject turns a library's refusal of an input (bad DER, wrong length, a
// point off the curve) into a `rejected` result.
func reject(_ error) error { return errRejected }

// cellKeys is implemented by cells that hold a key pair made in NewCell, so
// the native tests can check a cell's output independently (a signature
// verifies under the cell's public key, a ciphertext decapsulates).
type cellKeys interface {
	keys() (public, private []byte, err error)
}

type heldKey struct{ key keyPair }

func (h heldKey) keys() ([]byte, []byte, error) {
	pub, err := h.key.encodePublic()
	if err != nil {
		return nil, nil, err
	}
	priv, err := h.key.encodePrivate()
	return pub, priv, err
}

// errCell records the first failure of a Run.
type errCell struct{ err error }

func (c *errCell) fail(err error) uint64 {
	if c.err == nil {
		c.err = err
	}
	return 0
}
func (c *errCell) Err() error { return c.err }

// outCell is what every cell around one library call with a byte result
// holds (sign, derive, decaps, encrypt, decrypt): Run is the call, handed
// to take.
type outCell struct {
	errCell
	heldKey
	out []byte
}

func holding(k keyPair) outCell { return outCell{heldKey: heldKey{k}} }

// take records one call's result: its output and sink, or its first failure.
func (c *outCell) take(out []byte, err error) uint64 {
	if err != nil {
		return c.fail(err)
	}
	c.out = out
	return first(out)
}
func (c *outCell) Output() []byte { return c.out }

// rejecting turns a library's error into a `rejected` result.
func rejecting(out []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, reject(err)
	}
	return out, nil
}

// singleCall is the Prepare of an algorithm whose leak-timed operation is op:
// the case's private key parsed, then bind makes the one call.
func singleCall[K any](name, op string, parse func([]byte) (K, error),
	bind func(k K, c *Case) (func() ([]byte, error), error),
) func(c *Case) (func() ([]byte, error), error) {
	return func(c *Case) (func() ([]byte, error), error) {
		if c.Op != op {
			return nil, fmt.Errorf("not offered: %s %s times no single call", name, c.Op)
		}
		k, err := parse(c.Private)
		if err != nil {
			return nil, reject(err)
		}
		return bind(k, c)
	}
}

// noExecutor is the error of an op an algorithm has no case executor for.
func noExecutor(c *Case, name string) error {
	return fmt.Errorf("op %q has no case executor for %s", c.Op, name)
}

// newCell makes a keygen cell, or builds a cell around a key pair generated
// for it (outside the timed region).
func newCell[K keyPair](p *CellParams, generate func() (K, error), build func(k K) (Cell, error)) (Cell, error) {
	if p.Op == "keygen" {
		return &keygenCell[K]{generate: generate}, nil
	}
	k, err := generate()
	if err != nil {
		return nil, err
	}
	return build(k)
}

// ---- keygen ---------------------------------------------------------------

// keygenCell: one operation is one fresh key pair; the output (for the
// checksum only) is the encoded public key of the last one.
type keygenCell[K keyPair] struct {
	errCell
	generate func() (K, error)
	last     K
	have     bool
}

func (c *keygenCell[K]) Run() uint64 {
	k, err := c.generate()
	if err != nil {
		return c.fail(err)
	}
	c.last, c.have = k, true
	return k.sink()
}

func (c *keygenCell[K]) keys() ([]byte, []byte, error) {
	if !c.have {
		return nil, nil, fmt.Errorf("no key generated yet")
	}
	return heldKey{c.last}.keys()
}

func (c *keygenCell[K]) Output() []byte {
	if !c.have {
		return nil
	}
	b, err := c.last.encodePublic()
	if err != nil {
		c.fail(err)
	}
	return b
}

// keygenOnlyAlg is an algorithm whose only operation is key generation
// (rsa-2048/3072/4096). Its verify cases (keygen from a seed) have no API.
func keygenOnlyAlg[K keyPair](name string, generate func() (K, error)) *Alg {
	return &Alg{
		Name: name,
		Ops:  []string{"keygen"},
		Exec: func(c *Case) ([]byte, error) {
			return nil, unsupported("%s: no key generation from a seed", name)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return &keygenCell[K]{generate: generate}, nil
		},
		Keypair: keypairFunc(generate),
	}
}

// ---- signatures -----------------------------------------------------------

type sigPrivate interface {
	keyPair
	sign(msg []byte) ([]byte, error)
	public() sigPublic
}

type sigPublic interface {
	verify(msg, sig []byte) bool
}

// ctxSigner is implemented by private keys of schemes with a context string
// and a deterministic variant (ML-DSA: rnd = 0^32; SLH-DSA: opt_rand =
// PK.seed): the verify cases that give `ctx` or `deterministic` go through it.
type ctxSigner interface {
	signCtx(msg, ctx []byte, deterministic bool) ([]byte, error)
}

// ctxVerifier is the public-key side of ctxSigner.
type ctxVerifier interface {
	verifyCtx(msg, ctx, sig []byte) bool
}

// sigScheme describes a signature algorithm. The message goes in whole:
// hashing (ECDSA, RSA, SM2's Z_A and SM3) is part of sign and verify.
type sigScheme[K sigPrivate] struct {
	name         string
	keygen       bool // keygen is a bench op of this algorithm
	randomised   bool // signing is randomised: deterministic sign cases have no API
	generate     func() (K, error)
	parsePrivate func(b []byte) (K, error)
	parsePublic  func(b []byte) (sigPublic, error)
	// fromSeed: the key pair of a keygen case's seed (ML-DSA ξ, SLH-DSA
	// SK.seed‖SK.prf‖PK.seed); nil: keygen cases are unsupported.
	fromSeed func(seed []byte) (K, error)
}

type signCell struct {
	outCell
	k   sigPrivate
	msg []byte
}

func (c *signCell) Run() uint64 { return c.take(c.k.sign(c.msg)) }

type verifyCell struct {
	errCell
	heldKey
	pub      sigPublic
	msg, sig []byte
}

var verifyOK = []byte{1}

func (c *verifyCell) Run() uint64 {
	if !c.pub.verify(c.msg, c.sig) {
		return c.fail(fmt.Errorf("verify: the signature made for this cell does not verify"))
	}
	return 1
}
func (c *verifyCell) Output() []byte { return verifyOK }

func sigAlg[K sigPrivate](s sigScheme[K]) *Alg {
	prepareSign := singleCall(s.name, "sign", s.parsePrivate, func(k K, c *Case) (func() ([]byte, error), error) {
		return func() ([]byte, error) { return k.sign(c.Msg) }, nil
	})
	ops := []string{"sign", "verify"}
	if s.keygen {
		ops = append([]string{"keygen"}, ops...)
	}
	return &Alg{
		Name:    s.name,
		Ops:     ops,
		Prepare: prepareSign,
		Exec: func(c *Case) ([]byte, error) {
			switch c.Op {
			case "sign":
				if len(c.Ctx) > 0 || (c.Deterministic && s.randomised) {
					k, err := s.parsePrivate(c.Private)
					if err != nil {
						return nil, reject(err)
					}
					cs, ok := any(k).(ctxSigner)
					if !ok && len(c.Ctx) > 0 {
						return nil, unsupported("%s takes no context string", s.name)
					}
					if !ok {
						return nil, unsupported("%s: the library has no deterministic signing API", s.name)
					}
					return rejecting(cs.signCtx(c.Msg, c.Ctx, c.Deterministic))
				}
				return runPrepared(prepareSign, c)
			case "verify":
				pub, err := s.parsePublic(c.Public)
				if err != nil {
					return nil, reject(err)
				}
				ok := false
				if cv, has := pub.(ctxVerifier); has {
					ok = cv.verifyCtx(c.Msg, c.Ctx, c.Sig)
				} else if len(c.Ctx) > 0 {
					return nil, unsupported("%s takes no context string", s.name)
				} else {
					ok = pub.verify(c.Msg, c.Sig)
				}
				if !ok {
					return nil, errRejected
				}
				return verifyOK, nil
			case "keygen":
				if s.fromSeed == nil {
					return nil, unsupported("%s: no key generation from a seed", s.name)
				}
				k, err := s.fromSeed(c.Seed)
				if err != nil {
					return nil, reject(err)
				}
				return k.encodePublic()
			}
			return nil, noExecutor(c, s.name)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return newCell(p, s.generate, func(k K) (Cell, error) {
				if p.Op == "sign" {
					return &signCell{outCell: holding(k), k: k, msg: p.Msg}, nil
				}
				sig, err := k.sign(p.Msg)
				if err != nil {
					return nil, err
				}
				return &verifyCell{heldKey: heldKey{k}, pub: k.public(), msg: p.Msg, sig: sig}, nil
			})
		},
		Keypair: keypairFunc(s.generate),
	}
}

// ---- key agreement --------------------------------------------------------

type kexPrivate interface {
	keyPair
	derive(peer kexPublic) ([]byte, error)
	public() kexPublic
}

// kexPublic is a parsed peer public key (the scheme's own type).
type kexPublic any

type kexScheme[K kexPrivate] struct {
	name         string
	keygen       bool
	generate     func() (K, error)
	parsePrivate func(b []byte) (K, error)
	parsePublic  func(b []byte) (kexPublic, error)
}

type deriveCell struct {
	outCell
	k       kexPrivate
	peer    kexPublic
	peerEnc []byte // the peer's encoded public key (for the tests)
}

func (c *deriveCell) Run() uint64 { return c.take(c.k.derive(c.peer)) }

func kexAlg[K kexPrivate](s kexScheme[K]) *Alg {
	ops := []string{"derive"}
	if s.keygen {
		ops = []string{"keygen", "derive"}
	}
	prepareDerive := singleCall(s.name, "derive", s.parsePrivate, func(k K, c *Case) (func() ([]byte, error), error) {
		peer, err := s.parsePublic(c.Public)
		if err != nil {
			return nil, reject(err)
		}
		return func() ([]byte, error) { return rejecting(k.derive(peer)) }, nil
	})
	return &Alg{
		Name:    s.name,
		Ops:     ops,
		Prepare: prepareDerive,
		Exec: func(c *Case) ([]byte, error) {
			switch c.Op {
			case "derive":
				return runPrepared(prepareDerive, c)
			case "keygen":
				return nil, unsupported("%s: no key generation from a seed", s.name)
			}
			return nil, noExecutor(c, s.name)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return newCell(p, s.generate, func(k K) (Cell, error) {
				peer, err := s.generate()
				if err != nil {
					return nil, err
				}
				// The peer's key arrives encoded, as it would from the wire:
				// parsed once, outside the timed region.
				enc, err := peer.encodePublic()
				if err != nil {
					return nil, err
				}
				pub, err := s.parsePublic(enc)
				if err != nil {
					return nil, err
				}
				return &deriveCell{outCell: holding(k), k: k, peer: pub, peerEnc: enc}, nil
			})
		},
		Keypair: keypairFunc(s.generate),
	}
}

// ---- KEMs -----------------------------------------------------------------

// kemPrivate is a decapsulation key (crypto.Decapsulator, as crypto/mlkem
// implements it) whose Bytes is the protocol's private encoding (the seed).
type kemPrivate interface {
	crypto.Decapsulator
	Bytes() []byte
}

// kemKey adapts a kemPrivate to keyPair.
type kemKey struct{ dk kemPrivate }

func (k kemKey) encodePublic() ([]byte, error)  { return k.dk.Encapsulator().Bytes(), nil }
func (k kemKey) encodePrivate() ([]byte, error) { return k.dk.Bytes(), nil }
func (k kemKey) sink() uint64                   { return uint64(k.dk.Bytes()[0]) }

type kemScheme struct {
	name        string
	generate    func() (kemPrivate, error)
	fromSeed    func(seed []byte) (kemPrivate, error)
	parsePublic func(b []byte) (crypto.Encapsulator, error)
	// encapsDet is derandomised encapsulation with the 32-byte m; nil when
	// the library has no API for it (those cases answer unsupported).
	encapsDet func(ek crypto.Encapsulator, m []byte) (sharedKey, ciphertext []byte, err error)
}

type encapsCell struct {
	errCell
	heldKey
	ek    crypto.Encapsulator
	k, ct []byte
}

func (c *encapsCell) Run() uint64 {
	c.k, c.ct = c.ek.Encapsulate()
	if len(c.ct) == 0 { // a library whose encapsulation can fail (go:circl) returns nothing then
		return c.fail(fmt.Errorf("encapsulation failed"))
	}
	return uint64(c.ct[0])
}
func (c *encapsCell) Output() []byte { return append(append([]byte{}, c.ct...), c.k...) }

type decapsCell struct {
	outCell
	dk kemPrivate
	ct []byte
}

func (c *decapsCell) Run() uint64 { return c.take(c.dk.Decapsulate(c.ct)) }

func kemAlg(s kemScheme) *Alg {
	generate := func() (kemKey, error) {
		dk, err := s.generate()
		return kemKey{dk}, err
	}
	prepareDecaps := singleCall(s.name, "decaps", s.fromSeed, func(dk kemPrivate, c *Case) (func() ([]byte, error), error) {
		return func() ([]byte, error) { return rejecting(dk.Decapsulate(c.Msg)) }, nil
	})
	return &Alg{
		Name:    s.name,
		Ops:     []string{"keygen", "encaps", "decaps"},
		Prepare: prepareDecaps,
		Exec: func(c *Case) ([]byte, error) {
			switch c.Op {
			case "keygen":
				dk, err := s.fromSeed(c.Seed)
				if err != nil {
					return nil, reject(err)
				}
				return dk.Encapsulator().Bytes(), nil
			case "encaps":
				ek, err := s.parsePublic(c.Public)
				if err != nil {
					return nil, reject(err)
				}
				var k, ct []byte
				if c.HasM {
					if s.encapsDet == nil {
						return nil, unsupported("%s: the library has no derandomised encapsulation API", s.name)
					}
					if k, ct, err = s.encapsDet(ek, c.M); err != nil {
						return nil, reject(err)
					}
				} else if k, ct = ek.Encapsulate(); len(ct) == 0 {
					return nil, errRejected
				}
				return append(ct, k...), nil
			case "decaps":
				return runPrepared(prepareDecaps, c)
			}
			return nil, noExecutor(c, s.name)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return newCell(p, generate, func(k kemKey) (Cell, error) {
				// The encapsulation key arrives encoded: parsed once, outside
				// the timed region.
				ek, err := s.parsePublic(k.dk.Encapsulator().Bytes())
				if err != nil {
					return nil, err
				}
				if p.Op == "encaps" {
					return &encapsCell{heldKey: heldKey{k}, ek: ek}, nil
				}
				_, ct := ek.Encapsulate()
				return &decapsCell{outCell: holding(k), dk: k.dk, ct: ct}, nil
			})
		},
		Keypair: keypairFunc(generate),
	}
}

// ---- public-key encryption (RSA-OAEP) -------------------------------------

type pkePrivate interface {
	keyPair
	decrypt(ct []byte) ([]byte, error)
	public() pkePublic
}

type pkePublic interface {
	encrypt(msg []byte) ([]byte, error)
	maxMsg() int
}

type pkeScheme[K pkePrivate] struct {
	name         string
	generate     func() (K, error)
	parsePrivate func(b []byte) (K, error)
	parsePublic  func(b []byte) (pkePublic, error)
}

type encryptCell struct {
	outCell
	pub pkePublic
	msg []byte
}

func (c *encryptCell) Run() uint64 { return c.take(c.pub.encrypt(c.msg)) }

type decryptCell struct {
	outCell
	k  pkePrivate
	ct []byte
}

func (c *decryptCell) Run() uint64 { return c.take(c.k.decrypt(c.ct)) }

func pkeAlg[K pkePrivate](s pkeScheme[K]) *Alg {
	prepareDecrypt := singleCall(s.name, "decrypt", s.parsePrivate, func(k K, c *Case) (func() ([]byte, error), error) {
		return func() ([]byte, error) { return rejecting(k.decrypt(c.Msg)) }, nil
	})
	return &Alg{
		Name:    s.name,
		Ops:     []string{"encrypt", "decrypt"},
		Prepare: prepareDecrypt,
		Exec: func(c *Case) ([]byte, error) {
			switch c.Op {
			case "encrypt":
				pub, err := s.parsePublic(c.Public)
				if err != nil {
					return nil, reject(err)
				}
				return rejecting(pub.encrypt(c.Msg))
			case "decrypt":
				return runPrepared(prepareDecrypt, c)
			}
			return nil, noExecutor(c, s.name)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			return newCell(p, s.generate, func(k K) (Cell, error) {
				pub := k.public()
				if p.Size > pub.maxMsg() {
					return nil, fmt.Errorf("not offered at this size: %s encrypts at most %d bytes, asked %d", s.name, pub.maxMsg(), p.Size)
				}
				if p.Op == "encrypt" {
					return &encryptCell{outCell: holding(k), pub: pub, msg: p.Msg}, nil
				}
				ct, err := pub.encrypt(p.Msg)
				if err != nil {
					return nil, err
				}
				return &decryptCell{outCell: holding(k), k: k, ct: ct}, nil
			})
		},
		Keypair: keypairFunc(s.generate),
	}
}
