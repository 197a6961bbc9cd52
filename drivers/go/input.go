package main

import (
	"encoding/hex"
	"fmt"
	"sync"
	"time"
)

// The fixed input (protocol.md, "The fixed input"): every driver generates
// the same message bytes from a seed with xorshift32, over a 1 MiB period.

const patternLen = 1 << 20

// maxChunk is the largest chunk a streamed cell takes (protocol.md: chunk
// is at most 1 MiB), so a piece starting anywhere in the period is
// contiguous in the doubled pattern.
const maxChunk = patternLen

var (
	patternMu   sync.Mutex
	patternSeed uint32
	patternBuf  []byte // P ‖ P, 2 MiB
)

// Pattern2 returns the first 1 MiB of the xorshift32 byte stream for seed,
// twice (2 MiB), so any piece of up to 1 MiB starting anywhere in the
// period is contiguous. The slice is cached and shared: callers must not
// modify it.
func Pattern2(seed uint32) []byte {
	patternMu.Lock()
	defer patternMu.Unlock()
	if patternBuf != nil && patternSeed == seed {
		return patternBuf
	}
	p := make([]byte, 2*patternLen)
	x := seed
	for i := range patternLen {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		p[i] = byte(x)
	}
	copy(p[patternLen:], p[:patternLen])
	patternSeed, patternBuf = seed, p
	return p
}

// Pattern returns the first 1 MiB of the xorshift32 byte stream for seed
// (shared: callers must not modify it).
func Pattern(seed uint32) []byte {
	return Pattern2(seed)[:patternLen:patternLen]
}

// source is the input of a cell read piece by piece: either the fixed
// input, never materialised (pieces are slices of the doubled pattern), or
// a buffer kept whole (a ciphertext made outside the timed region).
type source struct {
	size int
	pat  []byte // P ‖ P when the input is the fixed input
	kept []byte // the whole input otherwise

	// A big streamed decrypt's ciphertext made again piece by piece
	// (regeneratingSource): a fresh encrypter per operation, one piece of
	// buffer, and the time spent on it, which the timed batch subtracts.
	plain   *source
	fresh   func() func(dst, src []byte)
	crypt   func(dst, src []byte)
	buf     []byte
	untimed int64
}

// regenerateAbove: above this a streamed decrypt makes its ciphertext again
// piece by piece, off the clock, instead of holding all of it
// (docs/protocol.md, "With chunk > 0").
var regenerateAbove = 64 << 20 // a variable only so that tests can lower it

// regeneratingSource reads the ciphertext of plain: each piece encrypted just
// before it is returned by an encrypter fresh for every operation (reads
// start at offset 0 and go in order), the time taken added to untimed.
func regeneratingSource(plain *source, chunk int, fresh func() func(dst, src []byte)) *source {
	return &source{size: plain.size, plain: plain, fresh: fresh, buf: make([]byte, chunk)}
}

// takeUntimed returns and resets the time spent making pieces.
func (s *source) takeUntimed() int64 {
	ns := s.untimed
	s.untimed = 0
	return ns
}

// patternSource is the fixed input of size bytes for seed.
func patternSource(seed uint32, size int) *source {
	return &source{size: size, pat: Pattern2(seed)}
}

// keptSource reads from b, kept whole.
func keptSource(b []byte) *source {
	return &source{size: len(b), kept: b}
}

// at returns the n input bytes at offset off; n is at most maxChunk for a
// pattern source.
func (s *source) at(off, n int) []byte {
	if s.plain != nil {
		t0 := time.Now()
		if off == 0 {
			s.crypt = s.fresh()
		}
		s.crypt(s.buf[:n], s.plain.at(off, n))
		s.untimed += int64(time.Since(t0))
		return s.buf[:n]
	}
	if s.pat == nil {
		return s.kept[off : off+n]
	}
	p := off & (patternLen - 1)
	return s.pat[p : p+n]
}

// fnvFold is FNV-1a 64 computed incrementally over an output stream, with
// its length: the checksum of a streamed operation.
type fnvFold struct {
	h uint64
	n int64
}

func newFold() *fnvFold { return &fnvFold{h: 0xcbf29ce484222325} }

func (f *fnvFold) write(b []byte) {
	h := f.h
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	f.h = h
	f.n += int64(len(b))
}

// checksum has the format of Checksum.
func (f *fnvFold) checksum() string {
	return fmt.Sprintf("%08x:%016x", f.n, f.h)
}

// Message returns a fresh n-byte message M[i] = P[i mod 1 MiB].
func Message(seed uint32, n int) []byte {
	p := Pattern(seed)
	m := make([]byte, n)
	for off := 0; off < n; off += patternLen {
		copy(m[off:], p)
	}
	return m
}

// FNV1a64 is the 64-bit FNV-1a hash of b.
func FNV1a64(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}

// Checksum is "<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>".
func Checksum(out []byte) string {
	return fmt.Sprintf("%08x:%016x", len(out), FNV1a64(out))
}

// decodeHex decodes a hex field of a request, naming the field on error.
func decodeHex(field, s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bad hex in %q: %v", field, err)
	}
	return b, nil
}

// hexField is a request's hex field: its name, its text and where its bytes go.
type hexField struct {
	name, src string
	dst       *[]byte
}

// decodeHexFields decodes each field in turn; the first bad one is the error.
func decodeHexFields(fields ...hexField) error {
	for _, f := range fields {
		b, err := decodeHex(f.name, f.src)
		if err != nil {
			return err
		}
		*f.dst = b
	}
	return nil
}

// encodeHex is lowercase hex, as the protocol wants.
func encodeHex(b []byte) string {
	return hex.EncodeToString(b)
}
