package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// The check values of protocol.md, "The fixed input".
const checkSeed = 2654435769

func TestPatternFirstBytes(t *testing.T) {
	got := hex.EncodeToString(Pattern(checkSeed)[:16])
	if want := "193e3ab51f37d0bf39b8eeb4d33cb85f"; got != want {
		t.Fatalf("first 16 bytes of P = %s, want %s", got, want)
	}
}

func TestPatternFNV(t *testing.T) {
	p := Pattern(checkSeed)
	if len(p) != 1<<20 {
		t.Fatalf("pattern length %d, want 1 MiB", len(p))
	}
	if got := fmt.Sprintf("%016x", FNV1a64(p[:1024])); got != "7ef541935f3b9cc9" {
		t.Errorf("FNV-1a 64 of 1 KiB = %s, want 7ef541935f3b9cc9", got)
	}
	if got := fmt.Sprintf("%016x", FNV1a64(p)); got != "1846d3257d44728c" {
		t.Errorf("FNV-1a 64 of 1 MiB = %s, want 1846d3257d44728c", got)
	}
}

func TestPatternSHA256(t *testing.T) {
	d := sha256.Sum256(Message(checkSeed, 1024))
	if got, want := hex.EncodeToString(d[:]), "8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01"; got != want {
		t.Errorf("SHA-256 of 1 KiB = %s, want %s", got, want)
	}
	if got, want := Checksum(d[:]), "00000020:fb4898be6151a393"; got != want {
		t.Errorf("checksum of that digest = %s, want %s", got, want)
	}
}

func TestChecksumEmpty(t *testing.T) {
	if got, want := Checksum(nil), "00000000:cbf29ce484222325"; got != want {
		t.Errorf("Checksum(empty) = %s, want %s", got, want)
	}
}

func TestMessageWraps(t *testing.T) {
	n := 1<<20 + 100
	m := Message(7, n)
	p := Pattern(7)
	for i := 0; i < n; i += 4099 {
		if m[i] != p[i%(1<<20)] {
			t.Fatalf("M[%d] != P[%d mod 1 MiB]", i, i)
		}
	}
	if m[n-1] != p[99] {
		t.Fatal("last byte does not wrap")
	}
}

func TestDecodeHex(t *testing.T) {
	if b, err := decodeHex("key", "00ff"); err != nil || len(b) != 2 || b[1] != 0xff {
		t.Fatalf("decodeHex(00ff) = %x, %v", b, err)
	}
	if _, err := decodeHex("key", "0g"); err == nil {
		t.Fatal("decodeHex(0g) did not fail")
	}
	if got := encodeHex([]byte{0xab, 0x01}); got != "ab01" {
		t.Fatalf("encodeHex = %s", got)
	}
}
