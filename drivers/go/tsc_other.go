//go:build !amd64

package main

// haveTSC: no time-stamp counter the driver can read here; bench responses
// carry no samples_tsc.
const haveTSC = false

func tscNow() uint64 { return 0 }
