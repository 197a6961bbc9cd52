package main

// Go's own harness on the same work the driver times, for bench/agreement:
// `go test -run '^$' -bench Peer -benchtime 2s`. Each benchmark calls the
// library exactly as the driver's cell does (same input, same API), so the
// ratio of the two figures says whether our measurement loop agrees with
// testing.B's.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/mlkem"
	"crypto/sha256"
	"fmt"
	"testing"
)

var peerSink byte

func BenchmarkPeerSHA256(b *testing.B) {
	for _, n := range []int{64, 1024, 16384} {
		msg := Message(benchSeed, n)
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				sum := sha256.Sum256(msg)
				peerSink ^= sum[0]
			}
		})
	}
}

func BenchmarkPeerAESGCMSeal(b *testing.B) {
	block, _ := aes.NewCipher(make([]byte, 16))
	gcm, _ := cipher.NewGCM(block)
	nonce := make([]byte, 12)
	for _, n := range []int{64, 1024, 16384} {
		msg := Message(benchSeed, n)
		out := make([]byte, 0, n+16)
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				out = gcm.Seal(out[:0], nonce, msg, nil)
				peerSink ^= out[0]
			}
		})
	}
}

func BenchmarkPeerMLKEM768Decaps(b *testing.B) {
	dk, _ := mlkem.GenerateKey768()
	_, ct := dk.EncapsulationKey().Encapsulate()
	for b.Loop() {
		k, _ := dk.Decapsulate(ct)
		peerSink ^= k[0]
	}
}
