//go:build !amd64

package main

import (
	"runtime"
	"slices"
	"testing"
)

// Without a time-stamp counter (aarch64: make test-arm64 runs this under
// qemu-aarch64) the hello says so in one note, and bench samples carry no
// counter readings.
func TestHelloNotesNoTSC(t *testing.T) {
	want := "cycle counter: not available on " + runtime.GOARCH + " (no TSC); time only"
	got := helloNotes([]string{"a provider's note"})
	if !slices.Equal(got, []string{"a provider's note", want}) {
		t.Fatalf("hello notes %q, want the provider's and %q", got, want)
	}
	if haveTSC || tscNow() != 0 {
		t.Fatalf("haveTSC=%v tscNow()=%d on %s, want no counter", haveTSC, tscNow(), runtime.GOARCH)
	}
}
