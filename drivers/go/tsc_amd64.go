package main

// haveTSC: x86-64 has a time-stamp counter, read beside the clock in every
// timed batch (docs/protocol.md, bench: samples_tsc).
const haveTSC = true

// tscNow reads the time-stamp counter (tsc_amd64.s).
func tscNow() uint64

// helloNotes is a provider's notes: nothing to add where there is a counter.
func helloNotes(notes []string) []string { return notes }
