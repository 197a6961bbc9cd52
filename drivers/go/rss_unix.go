//go:build unix

package main

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// peakRSSKb is this process's peak resident set in KiB: VmHWM from
// /proc/self/status where there is one (Linux). getrusage's ru_maxrss is
// only the fallback: on Linux it survives exec, so a driver started by a
// large parent reports the parent's peak (e.g. a Python orchestrator's)
// until its own grows past it.
func peakRSSKb() int64 {
	if kb, ok := vmHWMKb(); ok {
		return kb
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	kb := int64(ru.Maxrss)
	if runtime.GOOS == "darwin" {
		kb /= 1024 // Darwin reports bytes, Linux KiB
	}
	return kb
}

// vmHWMKb reads "VmHWM:   1234 kB" from /proc/self/status.
func vmHWMKb() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseVmHWM(status)
}

func parseVmHWM(status []byte) (int64, bool) {
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		return kb, err == nil && kb > 0
	}
	return 0, false
}
