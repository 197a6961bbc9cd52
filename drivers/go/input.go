package main

import (
	"encoding/hex"
	"fmt"
	"sync"
)

// The fixed input (protocol.md, "The fixed input"): every driver generates
// the same message bytes from a seed with xorshift32, over a 1 MiB period.

const patternLen = 1 << 20

var (
	patternMu   sync.Mutex
	patternSeed uint32
	patternBuf  []byte
)

// Pattern returns the first 1 MiB of the xorshift32 byte stream for seed.
// The slice is cached and shared: callers must not modify it.
func Pattern(seed uint32) []byte {
	patternMu.Lock()
	defer patternMu.Unlock()
	if patternBuf != nil && patternSeed == seed {
		return patternBuf
	}
	p := make([]byte, patternLen)
	x := seed
	for i := range p {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		p[i] = byte(x)
	}
	patternSeed, patternBuf = seed, p
	return p
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

// encodeHex is lowercase hex, as the protocol wants.
func encodeHex(b []byte) string {
	return hex.EncodeToString(b)
}
