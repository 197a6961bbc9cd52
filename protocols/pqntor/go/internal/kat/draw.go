// Package kat holds what the pq-ntor test vectors are made of: the labelled
// deterministic draws (docs/pq-ntor.md, "Test vectors"), a reader that hands
// out exactly those draws, a spec-literal reference computation of every
// intermediate value, and the generator of the JSON files.
package kat

import (
	"crypto/sha3"
	"encoding/binary"
	"fmt"
)

// DrawDomain separates these draws from any other use of SHAKE-256.
const DrawDomain = "cryptobench/pq-ntor/test-vectors/v1"

// Draw labels, one per random value of a handshake (docs/pq-ntor.md).
const (
	LabelRelayID     = "relay-id"                  // ID_LEN bytes: the relay ID
	LabelRelayB      = "relay-onion-key-b"         // 32: relay long-term X25519 private key b
	LabelClientX     = "client-ephemeral-x25519-x" // 32: client ephemeral X25519 private key x
	LabelClientMLKEM = "client-mlkem-seed-d-z"     // 64: client ML-KEM key-generation seed d || z
	LabelRelayY      = "relay-ephemeral-x25519-y"  // 32: relay ephemeral X25519 private key y
	LabelEncapsM     = "relay-mlkem-encaps-m"      // 32: relay ML-KEM encapsulation randomness m
)

// encap is ntor-v3's ENCAP(s) = htonll(len(s)) | s (proposal 332).
func encap(s string) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(len(s)))
	return append(b, s...)
}

// Draw returns n bytes:
//
//	DRAW(seed, label, n) = SHAKE-256(ENCAP(DrawDomain) | ENCAP(seed) | ENCAP(label))[0:n]
func Draw(seed, label string, n int) []byte {
	h := sha3.NewSHAKE256()
	h.Write(encap(DrawDomain))
	h.Write(encap(seed))
	h.Write(encap(label))
	out := make([]byte, n)
	h.Read(out)
	return out
}

// Reader hands out a fixed byte string and fails when asked for more, so a
// test can check that a call consumed exactly the draws the spec names.
type Reader struct{ buf []byte }

// NewReader returns a Reader over the concatenation of parts.
func NewReader(parts ...[]byte) *Reader {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return &Reader{buf: b}
}

// Read implements io.Reader; it never returns a short read without an error.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) > len(r.buf) {
		return 0, fmt.Errorf("kat.Reader: %d bytes asked, %d left", len(p), len(r.buf))
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Remaining is the number of unread bytes.
func (r *Reader) Remaining() int { return len(r.buf) }
