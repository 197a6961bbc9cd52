//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSSKb is getrusage(RUSAGE_SELF).ru_maxrss in KiB (Linux reports KiB,
// Darwin bytes).
func peakRSSKb() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	kb := int64(ru.Maxrss)
	if runtime.GOOS == "darwin" {
		kb /= 1024
	}
	return kb
}
