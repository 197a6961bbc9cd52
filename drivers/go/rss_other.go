//go:build !unix

package main

// peakRSSKb: unknown on this platform.
func peakRSSKb() int64 { return 0 }
