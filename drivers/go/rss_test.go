//go:build unix

package main

import (
	"os"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	status := []byte("Name:\tcbdriver-go\nVmPeak:\t  100 kB\nVmHWM:\t    5120 kB\nVmRSS:\t 4000 kB\n")
	if kb, ok := parseVmHWM(status); !ok || kb != 5120 {
		t.Fatalf("parseVmHWM = %d, %v", kb, ok)
	}
	for _, bad := range []string{"VmRSS: 1 kB\n", "VmHWM: x kB\n", "VmHWM: 12 MB\n", ""} {
		if _, ok := parseVmHWM([]byte(bad)); ok {
			t.Errorf("parseVmHWM(%q) accepted", bad)
		}
	}
}

// On Linux the peak comes from /proc/self/status (this process's own), not
// from getrusage (which survives exec and can be the parent's).
func TestPeakRSSIsVmHWM(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	kb := peakRSSKb()
	hwm, ok := vmHWMKb()
	if !ok || kb <= 0 {
		t.Fatalf("peakRSSKb %d, VmHWM %d %v", kb, hwm, ok)
	}
	if kb > hwm+1024 || hwm > kb+1024 { // read at slightly different moments
		t.Errorf("peakRSSKb %d is not VmHWM %d", kb, hwm)
	}
}
