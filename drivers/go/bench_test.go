package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
)

// One small bench request per offered algorithm/op through the request
// handler, checked against a one-shot computation by the case executor.

const benchSeed = 2654435769

type benchResult struct {
	OK         bool     `json:"ok"`
	Error      string   `json:"error"`
	Batch      int64    `json:"batch"`
	SamplesNs  []int64  `json:"samples_ns"`
	SamplesTSC []uint64 `json:"samples_tsc"`
	Checksum   string   `json:"checksum"`
	After      string   `json:"checksum_after"`
	Sink       *uint64  `json:"sink"`
	Warmup     *struct {
		Ops            int64  `json:"ops"`
		Ns             int64  `json:"ns"`
		CalibrationOps *int64 `json:"calibration_ops"`
	} `json:"warmup"`
	PeakRSSKb *int64 `json:"peak_rss_kb"`
}

// keyIV gives a key and IV of the right lengths for an algorithm.
func keyIV(alg string) (key, iv string) {
	keyLen, ivLen := 0, 0
	switch {
	case strings.HasPrefix(alg, "aes-128-"), strings.HasPrefix(alg, "sm4-"):
		keyLen = 16
	case strings.HasPrefix(alg, "aes-256-"), strings.Contains(alg, "chacha20"), alg == "hmac-sha256":
		keyLen = 32
	}
	switch {
	case strings.HasSuffix(alg, "-cbc"), strings.HasSuffix(alg, "-ctr"):
		ivLen = 16
	case strings.HasPrefix(alg, "xchacha20"):
		ivLen = 24
	case strings.HasSuffix(alg, "-gcm"), strings.HasPrefix(alg, "chacha20"):
		ivLen = 12
	}
	k := make([]byte, keyLen)
	for i := range k {
		k[i] = byte(0x10 + i)
	}
	v := make([]byte, ivLen)
	for i := range v {
		v[i] = byte(0xa0 + i)
	}
	return hex.EncodeToString(k), hex.EncodeToString(v)
}

func benchLine(alg, op, key, iv string, size, chunk int) []byte {
	return []byte(fmt.Sprintf(`{"cmd":"bench","alg":%q,"op":%q,"size":%d,"chunk":%d,"key":%q,"iv":%q,"seed":%d,"batch":0,"target_ns":200000,"warmup_ns":200000,"samples":3}`,
		alg, op, size, chunk, key, iv, benchSeed))
}

func doBench(t *testing.T, d *Driver, line []byte) benchResult {
	t.Helper()
	out, quit := d.HandleLine(line)
	if quit {
		t.Fatal("bench asked to quit")
	}
	var r benchResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("response %q is not JSON: %v", out, err)
	}
	return r
}

// expected computes the output of one operation without the bench cell:
// the verify case executor for the forward direction, the plaintext itself
// for decrypt/open.
func expected(t *testing.T, a *Alg, op, key, iv string, msg []byte) string {
	t.Helper()
	switch op {
	case "noop":
		return Checksum(nil)
	case "decrypt", "open":
		return Checksum(msg)
	}
	r := runCase(a, &rawCase{ID: "x", Op: op, Key: key, IV: iv, Msg: hex.EncodeToString(msg)})
	if r.Out == nil {
		t.Fatalf("executor: %+v", r)
	}
	b, _ := hex.DecodeString(*r.Out)
	return Checksum(b)
}

// symmetricAlgs are a provider's algorithms without a key pair, other than
// key derivation and handshakes (handshake_test.go).
func symmetricAlgs(p *Provider) []*Alg {
	var algs []*Alg
	for _, a := range p.Algs {
		if a.Keypair == nil && a.Kind == "" {
			algs = append(algs, a)
		}
	}
	return algs
}

func TestBenchEveryOffer(t *testing.T) {
	for _, pid := range providerIDs() {
		t.Run(pid, func(t *testing.T) { benchEveryOffer(t, NewDriver(providers[pid])) })
	}
}

func benchEveryOffer(t *testing.T, d *Driver) {
	const size = 1024
	msg := Message(benchSeed, size)
	for _, a := range symmetricAlgs(d.prov) {
		for _, op := range a.Ops {
			t.Run(a.Name+"/"+op, func(t *testing.T) {
				key, iv := keyIV(a.Name)
				want := expected(t, a, op, key, iv, msg)
				chunks := []int{0}
				if a.Stream {
					chunks = append(chunks, 48, 4096)
					if !strings.HasSuffix(a.Name, "-cbc") { // CBC chunks are whole blocks
						chunks = append(chunks, 1000)
					}
				}
				for _, chunk := range chunks {
					r := doBench(t, d, benchLine(a.Name, op, key, iv, size, chunk))
					if !r.OK {
						t.Fatalf("chunk %d: %s", chunk, r.Error)
					}
					if len(r.SamplesNs) != 3 {
						t.Errorf("chunk %d: %d samples, want 3", chunk, len(r.SamplesNs))
					}
					for _, s := range r.SamplesNs {
						if s <= 0 {
							t.Errorf("chunk %d: sample %d ns", chunk, s)
						}
					}
					if r.Batch <= 0 {
						t.Errorf("chunk %d: batch %d", chunk, r.Batch)
					}
					if r.Checksum != want {
						t.Errorf("chunk %d: checksum %s, one-shot computation gives %s", chunk, r.Checksum, want)
					}
					if r.Sink == nil || r.Warmup == nil || r.Warmup.Ops < 1 || r.PeakRSSKb == nil || *r.PeakRSSKb <= 0 {
						t.Errorf("chunk %d: incomplete response %+v", chunk, r)
					}
				}
			})
		}
	}
}

func TestBenchKnownChecksum(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	r := doBench(t, d, benchLine("sha256", "hash", "", "", 1024, 0))
	if !r.OK || r.Checksum != "00000020:fb4898be6151a393" {
		t.Fatalf("sha256 at 1 KiB: %+v", r)
	}
	// The same digest streamed, in pieces that do not divide the message.
	r = doBench(t, d, benchLine("sha256", "hash", "", "", 1024, 100))
	if !r.OK || r.Checksum != "00000020:fb4898be6151a393" {
		t.Fatalf("sha256 at 1 KiB in 100-byte chunks: %+v", r)
	}
	r = doBench(t, d, []byte(`{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":1,"batch":7,"samples":2}`))
	if !r.OK || r.Batch != 7 || r.Checksum != "00000000:cbf29ce484222325" {
		t.Fatalf("noop with a fixed batch: %+v", r)
	}
}

// Every size with an odd tail, for the algorithms that allow it, one-shot
// and (where streamable) in pieces that cross the 1 MiB period of the
// pattern at odd offsets.
func TestBenchOddSizes(t *testing.T) {
	for _, pid := range providerIDs() {
		d := NewDriver(providers[pid])
		for _, a := range symmetricAlgs(d.prov) {
			if strings.HasSuffix(a.Name, "-ecb") || strings.HasSuffix(a.Name, "-cbc") || a.Name == "noop" {
				continue
			}
			for _, size := range []int{0, 1, 1<<20 + 3} {
				for _, op := range a.Ops {
					key, iv := keyIV(a.Name)
					want := expected(t, a, op, key, iv, Message(benchSeed, size))
					chunks := []int{0}
					if a.Stream {
						chunks = append(chunks, 12345, 1<<20)
					}
					for _, chunk := range chunks {
						r := doBench(t, d, benchLine(a.Name, op, key, iv, size, chunk))
						if !r.OK || r.Checksum != want {
							t.Errorf("%s %s %s size %d chunk %d: %+v, want checksum %s", pid, a.Name, op, size, chunk, r, want)
						}
					}
				}
			}
		}
	}
}

// CBC streamed across the period in whole-block pieces.
func TestBenchCBCStreamAcrossPeriod(t *testing.T) {
	for pid, alg := range map[string]string{"go:stdlib": "aes-128-cbc", "go:gmsm": "sm4-cbc"} {
		d := NewDriver(providers[pid])
		a := d.prov.alg(alg)
		key, iv := keyIV(alg)
		size := 5<<19 + 16*7
		for _, op := range a.Ops {
			want := expected(t, a, op, key, iv, Message(benchSeed, size))
			for _, chunk := range []int{16 * 777, 1 << 20} {
				r := doBench(t, d, benchLine(alg, op, key, iv, size, chunk))
				if !r.OK || r.Checksum != want {
					t.Errorf("%s %s size %d chunk %d: %+v, want %s", alg, op, size, chunk, r, want)
				}
			}
		}
	}
}

func TestBenchErrorsKeepDriverAlive(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	k16 := strings.Repeat("00", 16)
	iv16 := strings.Repeat("00", 16)
	iv12 := strings.Repeat("00", 12)
	bad := map[string]string{
		"unparseable":       `{"cmd":`,
		"not an object":     `[1,2]`,
		"no cmd":            `{"alg":"sha256"}`,
		"unknown cmd":       `{"cmd":"dance"}`,
		"unknown alg":       string(benchLine("md5", "hash", "", "", 16, 0)),
		"ccm not offered":   string(benchLine("aes-128-ccm", "seal", k16, iv12, 16, 0)),
		"unknown op":        string(benchLine("sha256", "encrypt", "", "", 16, 0)),
		"ecb size":          string(benchLine("aes-128-ecb", "encrypt", k16, "", 17, 0)),
		"cbc size":          string(benchLine("aes-128-cbc", "decrypt", k16, iv16, 1000, 0)),
		"cbc chunk":         string(benchLine("aes-128-cbc", "encrypt", k16, iv16, 1024, 100)),
		"chunk on aead":     string(benchLine("aes-128-gcm", "seal", k16, iv12, 1024, 64)),
		"chunk over 1 MiB":  string(benchLine("sha256", "hash", "", "", 1<<21, 1<<20+1)),
		"chunk on sign":     string(benchLine("ecdsa-p256", "sign", "", "", 32, 16)),
		"oaep too long":     string(benchLine("rsa-2048-oaep", "encrypt", "", "", 191, 0)),
		"keypair symmetric": `{"cmd":"keypair","alg":"sha256"}`,
		"keypair unknown":   `{"cmd":"keypair","alg":"ml-kem-512"}`,
		"keypair no alg":    `{"cmd":"keypair"}`,
		"chunk on ecb":      string(benchLine("aes-128-ecb", "encrypt", k16, "", 1024, 64)),
		"bad hex key":       string(benchLine("aes-128-gcm", "seal", "xyz", iv12, 16, 0)),
		"bad key length":    string(benchLine("aes-128-gcm", "seal", strings.Repeat("00", 32), iv12, 16, 0)),
		"bad nonce length":  string(benchLine("chacha20-poly1305", "seal", strings.Repeat("00", 32), iv16, 16, 0)),
		"bad iv length":     string(benchLine("aes-256-ctr", "encrypt", strings.Repeat("00", 32), iv12, 16, 0)),
		"zero seed":         `{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":0,"samples":1}`,
		"no samples":        `{"cmd":"bench","alg":"sha256","op":"hash","size":16,"seed":1}`,
		"negative size":     `{"cmd":"bench","alg":"sha256","op":"hash","size":-1,"seed":1,"samples":1}`,
		"verify unknown":    `{"cmd":"verify","alg":"sm3","cases":[]}`,
		"protocol 0":        `{"cmd":"hello","protocol":0}`,
	}
	for name, line := range bad {
		out, quit := d.HandleLine([]byte(line))
		var r struct {
			OK    *bool  `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &r); err != nil || quit {
			t.Fatalf("%s: %q (quit %v)", name, out, quit)
		}
		if r.OK == nil || *r.OK || r.Error == "" || strings.Contains(r.Error, "\n") {
			t.Errorf("%s: want a one-line error, got %s", name, out)
		} else {
			t.Logf("%s: %s", name, r.Error)
		}
	}
	for _, v := range []string{"1", "2", "3", "null"} {
		out, _ := d.HandleLine([]byte(`{"cmd":"hello","protocol":` + v + `}`))
		if !strings.HasPrefix(string(out), `{"ok":true,"protocol":7,"provider":"go:stdlib"`) {
			t.Fatalf("hello (protocol %s) after errors: %s", v, out)
		}
	}
	out, quit := d.HandleLine([]byte(`{"cmd":"bye"}`))
	if string(out) != `{"ok":true}` || !quit {
		t.Fatalf("bye: %s %v", out, quit)
	}
}

func TestServeLongLinesAndEOF(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	msg := strings.Repeat("ab", 3<<20) // a 6 MB line
	in := `{"cmd":"verify","alg":"sha256","cases":[{"id":"big","op":"hash","msg":"` + msg + `"}]}` + "\n\n" +
		`{"cmd":"hello","protocol":1}` // no final newline, then EOF
	var out strings.Builder
	if err := d.Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"id":"big","out":"`) || !strings.Contains(lines[1], `"provider":"go:stdlib"`) {
		t.Fatalf("unexpected output: %.300s", out.String())
	}
}

// Allocations per timed operation, for the record: none where the Go API
// lets us avoid them (CBC/CTR make a BlockMode/Stream per message).
func TestCellAllocations(t *testing.T) {
	for _, pid := range providerIDs() {
		for _, a := range symmetricAlgs(providers[pid]) {
			for _, op := range a.Ops {
				key, iv := keyIV(a.Name)
				k, _ := hex.DecodeString(key)
				v, _ := hex.DecodeString(iv)
				for _, chunk := range []int{0, 64} {
					if chunk > 0 && !a.Stream {
						continue
					}
					c, err := a.NewCell(newCellParams(op, k, v, benchSeed, 1024, chunk))
					if err != nil {
						t.Fatalf("%s %s: %v", a.Name, op, err)
					}
					allocs := testing.AllocsPerRun(200, func() { c.Run() })
					mayAlloc := strings.HasSuffix(a.Name, "-cbc") || strings.HasSuffix(a.Name, "-ctr")
					if allocs > 0 && !mayAlloc {
						t.Errorf("%s %s %s chunk %d: %.1f allocations per operation", pid, a.Name, op, chunk, allocs)
					}
					t.Logf("%s %s %s chunk %d: %.1f allocs/op", pid, a.Name, op, chunk, allocs)
				}
			}
		}
	}
}

// With chunk > 0 the message is never materialised: a 64 MiB streamed
// cell allocates about the 2 MiB pattern and one piece, not the message;
// a streamed decrypt keeps only its ciphertext (the one size-proportional
// buffer protocol.md allows).
func TestStreamedMemoryBounded(t *testing.T) {
	const size = 64 << 20
	Pattern2(benchSeed) // cached: not counted below
	for _, tc := range []struct {
		pid, alg, op string
		limit        uint64
	}{
		{"go:stdlib", "sha256", "hash", 1 << 20},
		{"go:stdlib", "aes-128-ctr", "encrypt", 1 << 20},
		{"go:stdlib", "aes-128-cbc", "encrypt", 1 << 20},
		{"go:stdlib", "chacha20", "encrypt", 1 << 20},
		{"go:stdlib", "hmac-sha256", "mac", 1 << 20},
		{"go:stdlib", "aes-128-ctr", "decrypt", size + 1<<20},
		{"go:gmsm", "sm3", "hash", 1 << 20},
		{"go:gmsm", "sm4-ctr", "encrypt", 1 << 20},
	} {
		d := NewDriver(providers[tc.pid])
		key, iv := keyIV(tc.alg)
		line := []byte(fmt.Sprintf(`{"cmd":"bench","alg":%q,"op":%q,"size":%d,"chunk":%d,"key":%q,"iv":%q,"seed":%d,"batch":1,"target_ns":0,"warmup_ns":0,"samples":1}`,
			tc.alg, tc.op, size, 64<<10, key, iv, benchSeed))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := doBench(t, d, line)
		runtime.ReadMemStats(&after)
		if !r.OK {
			t.Fatalf("%s %s: %s", tc.alg, tc.op, r.Error)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		if alloc > tc.limit {
			t.Errorf("%s %s of %d bytes in 64 KiB chunks allocated %d bytes (limit %d)", tc.alg, tc.op, size, alloc, tc.limit)
		}
		t.Logf("%s %s %s: %d bytes allocated for a %d-byte streamed message", tc.pid, tc.alg, tc.op, alloc, size)
	}
}

// The check values of docs/protocol.md ("The measurement loop") that every
// driver reproduces.
func TestMeasurementLoopCheckValues(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	ask := func(line string) benchResult {
		out, _ := d.HandleLine([]byte(line))
		var r benchResult
		if err := json.Unmarshal(out, &r); err != nil || !r.OK {
			t.Fatalf("%s -> %s", line, out)
		}
		return r
	}
	r := ask(`{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":2654435769,"batch":0,"target_ns":0,"warmup_ns":0,"samples":3}`)
	if r.Batch != 1 || r.Warmup.Ops != 1 || r.Warmup.CalibrationOps == nil || *r.Warmup.CalibrationOps != 1 || len(r.SamplesNs) != 3 {
		t.Errorf("noop, target 0, warm-up 0: batch %d, warm-up ops %d, calibration %v, %d samples; want 1, 1, 1, 3",
			r.Batch, r.Warmup.Ops, r.Warmup.CalibrationOps, len(r.SamplesNs))
	}
	if r.Checksum != "00000000:cbf29ce484222325" || r.After != r.Checksum {
		t.Errorf("noop checksums %s / %s", r.Checksum, r.After)
	}
	r = ask(`{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":2654435769,"batch":0,"target_ns":1000000,"samples":1}`)
	if r.Batch&(r.Batch-1) != 0 || *r.Warmup.CalibrationOps != 2*r.Batch-1 {
		t.Errorf("calibrated batch %d after %d operations; want a power of two after 2*batch-1", r.Batch, *r.Warmup.CalibrationOps)
	}
	r = ask(`{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":2654435769,"batch":7,"samples":5}`)
	if r.Batch != 7 || len(r.SamplesNs) != 5 || r.Warmup.CalibrationOps != nil {
		t.Errorf("fixed batch 7, 5 samples: got batch %d, %d samples, calibration %v", r.Batch, len(r.SamplesNs), r.Warmup.CalibrationOps)
	}
	r = ask(`{"cmd":"bench","alg":"sha256","op":"hash","size":1024,"seed":2654435769,"batch":3,"samples":2}`)
	if r.Checksum != "00000020:fb4898be6151a393" || r.After != r.Checksum {
		t.Errorf("sha256 1 KiB checksums %s / %s", r.Checksum, r.After)
	}
	for _, line := range []string{
		`{"cmd":"bench","alg":"no-such-alg","op":"hash","size":64,"seed":1,"samples":1}`,
		`{"cmd":"bench","alg":"noop","op":"no-such-op","size":0,"seed":1,"samples":1}`,
	} {
		out, _ := d.HandleLine([]byte(line))
		if !strings.Contains(string(out), `"error":"not offered:`) {
			t.Errorf("%s -> %s, want an error starting \"not offered:\"", line, out)
		}
	}
}

// Above regenerateAbove (lowered here) a streamed decrypt makes its
// ciphertext again per piece off the clock: the same output, and time handed
// to the loop to subtract (docs/protocol.md, "With chunk > 0").
func TestBigStreamedDecryptRegeneratesItsCiphertext(t *testing.T) {
	saved := regenerateAbove
	regenerateAbove = 100
	defer func() { regenerateAbove = saved }()
	for _, alg := range []string{"aes-128-ctr", "aes-128-cbc", "chacha20"} {
		d := NewDriver(providers["go:stdlib"])
		a := d.prov.alg(alg)
		key, iv := keyIV(alg)
		want := expected(t, a, "decrypt", key, iv, Message(benchSeed, 4096))
		r := doBench(t, d, benchLine(alg, "decrypt", key, iv, 4096, 1024))
		if !r.OK || r.Checksum != want || r.After != want {
			t.Errorf("%s: %+v, want %s", alg, r, want)
		}
		c, err := a.NewCell(&CellParams{Op: "decrypt", Size: 4096, Chunk: 1024, Key: mustHex(key), IV: mustHex(iv), Src: patternSource(benchSeed, 4096)})
		if err != nil {
			t.Fatal(err)
		}
		c.Run()
		if u, ok := c.(untimedCell); !ok || u.takeUntimed() <= 0 {
			t.Errorf("%s: no regeneration time measured", alg)
		}
	}
}

// TestSamplesCarryTheCounterReadBesideTheClock: on x86-64 every sample has
// its TSC ticks, at one steady rate (docs/protocol.md, bench: samples_tsc);
// elsewhere none are sent.
func TestSamplesCarryTheCounterReadBesideTheClock(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	r := doBench(t, d, []byte(`{"cmd":"bench","alg":"noop","op":"noop","size":0,"seed":2654435769,"batch":0,"target_ns":2000000,"samples":5}`))
	if !haveTSC {
		if r.SamplesTSC != nil {
			t.Errorf("no counter here, yet samples_tsc %v", r.SamplesTSC)
		}
		return
	}
	if len(r.SamplesTSC) != len(r.SamplesNs) || len(r.SamplesNs) != 5 {
		t.Fatalf("samples_tsc %v beside samples_ns %v", r.SamplesTSC, r.SamplesNs)
	}
	lo, hi := math.Inf(1), 0.0
	for i, ticks := range r.SamplesTSC {
		rate := float64(ticks) / float64(r.SamplesNs[i])
		lo, hi = math.Min(lo, rate), math.Max(hi, rate)
	}
	if lo < 0.1 || hi > 20 || hi/lo > 1.02 {
		t.Errorf("ticks per ns %.4f-%.4f: not one counter read beside the clock", lo, hi)
	}
}

// TestLeakTimesEachPreparedCall: the leak request (protocol 5) answers one
// time per order entry and says which inputs the library refused.
func TestLeakTimesEachPreparedCall(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	key, iv := strings.Repeat("00", 16), strings.Repeat("11", 12)
	a := d.prov.alg("aes-128-gcm")
	rawIV, _ := hex.DecodeString(iv)
	sealed, err := a.Exec(&Case{Op: "seal", Key: make([]byte, 16), IV: rawIV, Msg: make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	forged := append([]byte(nil), sealed...)
	forged[len(forged)-1] ^= 1
	line := fmt.Sprintf(`{"cmd":"leak","alg":"aes-128-gcm","op":"open","order":[1,0,1],"inputs":[`+
		`{"key":%q,"iv":%q,"msg":%q},{"key":%q,"iv":%q,"msg":%q}]}`,
		key, iv, hex.EncodeToString(sealed), key, iv, hex.EncodeToString(forged))
	resp, _ := d.HandleLine([]byte(line))
	var got leakResponse
	if err := json.Unmarshal(resp, &got); err != nil || !got.OK || len(got.Times) != 3 {
		t.Fatalf("leak: %s", resp)
	}
	if got.Outcomes[0] != "ok" || got.Outcomes[1] != "rejected" || got.Counter != "clock" {
		t.Fatalf("outcomes: %s", resp)
	}
	bad, _ := d.HandleLine([]byte(`{"cmd":"leak","alg":"aes-128-gcm","op":"open","order":[3],"inputs":[{}]}`))
	if !strings.Contains(string(bad), "order[0] is not an index") {
		t.Fatalf("bad order: %s", bad)
	}
}
