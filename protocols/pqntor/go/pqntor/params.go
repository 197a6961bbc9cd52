// Package pqntor implements two one-way-authenticated circuit handshakes in
// the style of Tor's ntor, as specified in docs/pq-ntor.md of cryptobench:
//
//   - ntor: exactly Tor's ntor handshake ("ntor-curve25519-sha256-1",
//     tor-spec "The ntor handshake", proposal 216), with a 20-byte relay ID;
//   - pq-ntor: a hybrid of X25519 and ML-KEM (FIPS 203) in the manner of Tor
//     proposal 269, with a 32-byte relay ID and HKDF-SHA256/HMAC-SHA256 as in
//     ntor.
//
// Each handshake is three calls: ClientCreate (client -> onionskin),
// ServerReply (relay: onionskin -> reply and keys) and ClientFinish (client:
// reply -> keys). On any failure no key material is returned.
//
// The package is protocol glue over the Go standard library only
// (crypto/ecdh, crypto/mlkem, crypto/hkdf, crypto/hmac, crypto/sha256).
// Go's crypto/mlkem has no ML-KEM-512, so the suite PQNTorMLKEM512 is
// specified but returns ErrUnsupported here.
package pqntor

import (
	"errors"
	"fmt"

	"crypto/mlkem"
)

// Suite names a handshake: ntor, or pq-ntor with one ML-KEM parameter set.
type Suite uint8

// The suites. The numeric values are this package's own, not Tor HTYPEs.
const (
	NTor            Suite = 1 // Tor's ntor, X25519 only
	PQNTorMLKEM512  Suite = 2 // pq-ntor, X25519 + ML-KEM-512 (unsupported by Go's crypto/mlkem)
	PQNTorMLKEM768  Suite = 3 // pq-ntor, X25519 + ML-KEM-768 (the default)
	PQNTorMLKEM1024 Suite = 4 // pq-ntor, X25519 + ML-KEM-1024
)

// Suites lists every suite the specification defines, in order.
var Suites = []Suite{NTor, PQNTorMLKEM512, PQNTorMLKEM768, PQNTorMLKEM1024}

// Fixed sizes shared by all suites (bytes).
const (
	X25519Len    = 32 // X25519 public keys, private keys and outputs
	AuthLen      = 32 // HMAC-SHA256 output
	NTorIDLen    = 20 // ntor relay ID (Tor's RSA identity digest)
	PQNTorIDLen  = 32 // pq-ntor relay ID (an Ed25519 identity, as in ntor-v3)
	MLKEMSeedLen = 64 // ML-KEM key-generation seed d || z (FIPS 203)
	MLKEMMLen    = 32 // ML-KEM encapsulation randomness m (FIPS 203)
	MLKEMKeyLen  = 32 // ML-KEM shared secret K
)

// DefaultKeyLen is the default amount of key material (bytes): the 72 bytes
// of Tor's ntor reference implementation (ntor_ref.py, keyBytes=72).
const DefaultKeyLen = 72

// MaxKeyLen is the most key material HKDF-SHA256 can produce (255 * 32).
const MaxKeyLen = 255 * 32

// Errors. Every error returned by this package wraps one of these.
var (
	// ErrParams: bad Params, or a relay ID/key of the wrong length for the suite.
	ErrParams = errors.New("pqntor: invalid parameters")
	// ErrUnsupported: the suite is specified but not available (ML-KEM-512 in Go).
	ErrUnsupported = errors.New("pqntor: suite not supported by this implementation")
	// ErrMalformed: an onionskin or reply of the wrong length.
	ErrMalformed = errors.New("pqntor: malformed message")
	// ErrUnknownRelay: the onionskin names another relay ID or onion key B.
	ErrUnknownRelay = errors.New("pqntor: onionskin is for another relay ID or onion key")
	// ErrBadKey: the client's X25519 key gives an all-zero shared secret, or
	// its ML-KEM encapsulation key fails the FIPS 203 modulus check.
	ErrBadKey = errors.New("pqntor: invalid public key in onionskin")
	// ErrHandshakeFailed: the client rejects the reply (authenticator mismatch
	// or all-zero X25519 output).
	ErrHandshakeFailed = errors.New("pqntor: handshake failed")
	// ErrStateUsed: ClientFinish was called twice, or with a nil state.
	ErrStateUsed = errors.New("pqntor: client state already used")
	// ErrRandom: reading randomness failed.
	ErrRandom = errors.New("pqntor: reading randomness failed")
)

// Params selects the suite and the amount of key material to derive.
type Params struct {
	Suite  Suite
	KeyLen int // bytes of key material, 1..MaxKeyLen
}

// DefaultParams is pq-ntor with ML-KEM-768 and DefaultKeyLen bytes of keys.
func DefaultParams() Params { return Params{Suite: PQNTorMLKEM768, KeyLen: DefaultKeyLen} }

// Sizes are the byte lengths of one suite's fields and messages.
type Sizes struct {
	ID        int // relay ID
	EK        int // ML-KEM encapsulation key (0 for ntor)
	CT        int // ML-KEM ciphertext (0 for ntor)
	Onionskin int // client -> relay message
	Reply     int // relay -> client message
}

// String is the suite's name as used in the vectors and the report.
func (s Suite) String() string {
	switch s {
	case NTor:
		return "ntor"
	case PQNTorMLKEM512:
		return "pq-ntor-mlkem512"
	case PQNTorMLKEM768:
		return "pq-ntor-mlkem768"
	case PQNTorMLKEM1024:
		return "pq-ntor-mlkem1024"
	}
	return fmt.Sprintf("suite(%d)", uint8(s))
}

// ProtoID is the suite's PROTOID string (docs/pq-ntor.md, "Constants").
func (s Suite) ProtoID() string {
	switch s {
	case NTor:
		return "ntor-curve25519-sha256-1"
	case PQNTorMLKEM512:
		return "pqntor-x25519-mlkem512-sha256-1"
	case PQNTorMLKEM768:
		return "pqntor-x25519-mlkem768-sha256-1"
	case PQNTorMLKEM1024:
		return "pqntor-x25519-mlkem1024-sha256-1"
	}
	return ""
}

// IsPQ reports whether the suite includes ML-KEM.
func (s Suite) IsPQ() bool {
	return s == PQNTorMLKEM512 || s == PQNTorMLKEM768 || s == PQNTorMLKEM1024
}

// Supported reports whether this implementation can run the suite.
func (s Suite) Supported() bool {
	return s == NTor || s == PQNTorMLKEM768 || s == PQNTorMLKEM1024
}

// Sizes returns the suite's field and message lengths.
func (s Suite) Sizes() (Sizes, error) {
	var z Sizes
	switch s {
	case NTor:
		z = Sizes{ID: NTorIDLen}
	case PQNTorMLKEM512:
		z = Sizes{ID: PQNTorIDLen, EK: 800, CT: 768} // FIPS 203 Table 3
	case PQNTorMLKEM768:
		z = Sizes{ID: PQNTorIDLen, EK: mlkem.EncapsulationKeySize768, CT: mlkem.CiphertextSize768}
	case PQNTorMLKEM1024:
		z = Sizes{ID: PQNTorIDLen, EK: mlkem.EncapsulationKeySize1024, CT: mlkem.CiphertextSize1024}
	default:
		return Sizes{}, fmt.Errorf("%w: unknown suite %d", ErrParams, uint8(s))
	}
	z.Onionskin = z.ID + X25519Len + X25519Len + z.EK // ID | B | X | EK
	z.Reply = X25519Len + z.CT + AuthLen              // Y | CT | AUTH
	return z, nil
}

// check validates p and returns the suite's sizes.
func (p Params) check() (Sizes, error) {
	z, err := p.Suite.Sizes()
	if err != nil {
		return Sizes{}, err
	}
	if !p.Suite.Supported() {
		return Sizes{}, fmt.Errorf("%w: %s (Go's crypto/mlkem has no ML-KEM-512)", ErrUnsupported, p.Suite)
	}
	if p.KeyLen < 1 || p.KeyLen > MaxKeyLen {
		return Sizes{}, fmt.Errorf("%w: KeyLen %d not in 1..%d", ErrParams, p.KeyLen, MaxKeyLen)
	}
	return z, nil
}
