//go:build !amd64

package main

import "runtime"

// haveTSC: no time-stamp counter the driver can read here; bench responses
// carry no samples_tsc.
const haveTSC = false

func tscNow() uint64 { return 0 }

// tscNote says so in the hello's notes, in one line (docs/platforms.md).
const tscNote = "cycle counter: not available on " + runtime.GOARCH + " (no TSC); time only"

// helloNotes is a provider's notes and, where there is no counter, tscNote.
func helloNotes(notes []string) []string {
	return append(append([]string(nil), notes...), tscNote)
}
