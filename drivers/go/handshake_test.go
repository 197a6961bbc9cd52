package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"cryptobench/protocols/pqntor/pqntor"
)

// Key derivation and handshakes (since protocol version 3). The vectors
// (hkdf-sha256.jsonl from Wycheproof, ntor/pq-ntor-*.jsonl from
// protocols/pqntor/vectors) run in TestVectors; these are the bench cells.

// hkdfRef is RFC 5869 written out with crypto/hmac: the reference the
// crypto/hkdf cells are checked against.
func hkdfRef(ikm, salt, info []byte, n int) []byte {
	m := hmac.New(sha256.New, salt)
	m.Write(ikm)
	prk := m.Sum(nil)
	var out, t []byte
	for i := byte(1); len(out) < n; i++ {
		m := hmac.New(sha256.New, prk)
		m.Write(t)
		m.Write(info)
		m.Write([]byte{i})
		t = m.Sum(nil)
		out = append(out, t...)
	}
	return out[:n]
}

func benchLineBatch(alg, op, key, iv string, size, chunk, batch, samples int) []byte {
	return []byte(fmt.Sprintf(`{"cmd":"bench","alg":%q,"op":%q,"size":%d,"chunk":%d,"key":%q,"iv":%q,"seed":%d,"batch":%d,"target_ns":200000,"warmup_ns":1000000,"samples":%d}`,
		alg, op, size, chunk, key, iv, benchSeed, batch, samples))
}

func TestHKDFBench(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	key, iv := make([]byte, 32), make([]byte, 16)
	for i := range key {
		key[i] = byte(i*7 + 1)
	}
	for i := range iv {
		iv[i] = byte(0xa0 + i)
	}
	hk, hv := hex.EncodeToString(key), hex.EncodeToString(iv)
	for _, size := range []int{0, 204, 1823, 2527, 3392} {
		want := Checksum(hkdfRef(Message(benchSeed, size), key, iv, 72))
		for _, batch := range []int{0, 5} {
			r := doBench(t, d, benchLineBatch("hkdf-sha256", "derive", hk, hv, size, 0, batch, 3))
			if !r.OK || r.Checksum != want || len(r.SamplesNs) != 3 || (batch > 0 && r.Batch != int64(batch)) {
				t.Errorf("hkdf-sha256 size %d batch %d: %+v, want checksum %s", size, batch, r, want)
			}
		}
	}
	r := doBench(t, d, benchLineBatch("hkdf-sha256", "derive", hk, hv, 204, 64, 0, 1))
	if r.OK || !strings.HasPrefix(r.Error, "not offered") {
		t.Errorf("hkdf-sha256 with a chunk: %+v", r)
	}
	// cases: the largest output; one byte more is rejected (not an error)
	ikm, salt, info := hk[:44], hv[:26], hk[6:26]
	a := providers["go:stdlib"].alg("hkdf-sha256")
	size := int64(8160)
	res := runCase(a, &rawCase{ID: "max", Op: "derive", IKM: ikm, Salt: salt, Info: info, Size: &size})
	ib, _ := hex.DecodeString(ikm)
	sb, _ := hex.DecodeString(salt)
	nb, _ := hex.DecodeString(info)
	if res.Out == nil || *res.Out != hex.EncodeToString(hkdfRef(ib, sb, nb, 8160)) {
		t.Errorf("hkdf-sha256 case of 8160 bytes: %+v", res)
	}
	size = 8161
	res = runCase(a, &rawCase{ID: "over", Op: "derive", IKM: ikm, Salt: salt, Info: info, Size: &size})
	if !res.Rejected || res.Out != nil || res.Error != "" {
		t.Errorf("hkdf-sha256 case of 8161 bytes: %+v, want rejected", res)
	}
}

// hsOutLen: onionskin, reply and key lengths of docs/pq-ntor.md section 3.
func hsOutLen(t *testing.T, alg, op string) int {
	t.Helper()
	for _, s := range hsSuites {
		if s.name == alg {
			z, err := s.v.Sizes()
			if err != nil {
				t.Fatal(err)
			}
			switch op {
			case "client-create":
				return z.Onionskin
			case "server-reply":
				return z.Reply
			}
			return 72
		}
	}
	t.Fatalf("unknown suite %s", alg)
	return 0
}

func TestHandshakeOffers(t *testing.T) {
	p := providers["go:stdlib"]
	for _, name := range []string{"ntor", "pq-ntor-768", "pq-ntor-1024", "hkdf-sha256"} {
		if p.alg(name) == nil {
			t.Errorf("go:stdlib does not offer %s", name)
		}
	}
	if got := p.alg("pq-ntor-512") != nil; got != pqntor.PQNTorMLKEM512.Supported() {
		t.Errorf("pq-ntor-512 offered: %v, library supports it: %v", got, pqntor.PQNTorMLKEM512.Supported())
	}
	want := map[string]int{"ntor": 84, "pq-ntor-512": 896, "pq-ntor-768": 1280, "pq-ntor-1024": 1664}
	for name, n := range want {
		if got := hsOutLen(t, name, "client-create"); got != n {
			t.Errorf("%s onionskin %d bytes, the spec says %d", name, got, n)
		}
	}
}

func TestHandshakeBench(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	for _, a := range d.prov.Algs {
		if a.Kind != "protocol" {
			continue
		}
		for _, op := range a.Ops {
			t.Run(a.Name+"/"+op, func(t *testing.T) {
				wantLen := fmt.Sprintf("%08x:", hsOutLen(t, a.Name, op))
				batches := []int{0, 3}
				if op == "client-finish" {
					batches = append(batches, 9) // a fresh state for each of 9 operations
				}
				for _, batch := range batches {
					r := doBench(t, d, benchLineBatch(a.Name, op, "", "", 0, 0, batch, 4))
					if !r.OK || !strings.HasPrefix(r.Checksum, wantLen) || len(r.SamplesNs) != 4 || (batch > 0 && r.Batch != int64(batch)) {
						t.Fatalf("batch %d: %+v, want a checksum of length %s", batch, r, wantLen)
					}
					for _, s := range r.SamplesNs {
						if s <= 0 {
							t.Errorf("batch %d: sample %d ns", batch, s)
						}
					}
					if r.Warmup == nil || r.Warmup.Ops < 1 || r.Sink == nil {
						t.Errorf("batch %d: incomplete response %+v", batch, r)
					}
				}
				if r := doBench(t, d, benchLineBatch(a.Name, op, "", "", 0, 64, 1, 1)); r.OK || !strings.HasPrefix(r.Error, "not offered") {
					t.Errorf("with a chunk: %+v", r)
				}
				if r := doBench(t, d, benchLineBatch(a.Name, op, "", "", 32, 0, 1, 1)); r.OK || r.Error == "" {
					t.Errorf("with size 32: %+v", r)
				}
			})
		}
		// a step is not a case; a case with a short secret is an error
		for _, rc := range []rawCase{
			{ID: "step", Op: "client-finish"},
			{ID: "short", Op: "handshake", RelayID: "00", RelayBSecret: "00", ClientXSecret: "00"},
		} {
			if res := runCase(a, &rc); res.Error == "" {
				t.Errorf("%s case %s: %+v, want an error", a.Name, rc.ID, res)
			}
		}
	}
}

// A client-finish cell runs exactly the operations prepare made states for;
// a finish that fails (a reply that does not authenticate) is the cell's
// error, which bench reports, never a silent zero.
func TestHandshakeFinishFailures(t *testing.T) {
	for _, name := range []string{"ntor", "pq-ntor-768"} {
		a := providers["go:stdlib"].alg(name)
		cell, err := a.NewCell(newCellParams("client-finish", nil, nil, benchSeed, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		fc := cell.(finishCell)
		fc.prepare(2)
		if cell.Run(); cell.Err() != nil {
			t.Fatalf("%s: first finish: %v", name, cell.Err())
		}
		if cell.Run(); cell.Err() != nil {
			t.Fatalf("%s: second finish: %v", name, cell.Err())
		}
		if cell.Run(); cell.Err() == nil || !strings.Contains(cell.Err().Error(), "prepared") {
			t.Errorf("%s: a third finish without a prepared state: %v", name, cell.Err())
		}

		cell, _ = a.NewCell(newCellParams("client-finish", nil, nil, benchSeed, 0, 0))
		fc = cell.(finishCell)
		timeBatch(cell, 4) // prepared per batch
		if timeBatch(cell, 4); cell.Err() != nil {
			t.Fatalf("%s: two samples of 4: %v", name, cell.Err())
		}
		fc.prepare(3)
		fc.corruptReplies()
		timeBatch(cell, 3)
		if err := cell.Err(); err == nil || !strings.Contains(err.Error(), "handshake failed") {
			t.Errorf("%s: finishes on corrupted replies: %v, want a handshake failure", name, err)
		}

		big, _ := a.NewCell(newCellParams("client-finish", nil, nil, benchSeed, 0, 0))
		prepare(big, maxPrepared+1)
		if big.Err() == nil {
			t.Errorf("%s: a batch of %d states was accepted", name, maxPrepared+1)
		}
	}
	// through the request: a fixed batch larger than the bound is an error answer
	d := NewDriver(providers["go:stdlib"])
	r := doBench(t, d, benchLineBatch("ntor", "client-finish", "", "", 0, 0, maxPrepared+1, 1))
	if r.OK || !strings.Contains(r.Error, "too large") {
		t.Errorf("client-finish with batch %d: %+v", maxPrepared+1, r)
	}
}

// The handshake case reproduces a vector only with every secret: a wrong
// one changes the answer (checked against the committed vectors in
// TestVectors); the answer is onionskin || reply || keys.
func TestHandshakeCaseLayout(t *testing.T) {
	path := casesDir(t) + "/ntor.jsonl"
	cases := loadCases(t, path)
	a := providers["go:stdlib"].alg("ntor")
	c := cases[0].rawCase
	res := runCase(a, &c)
	if res.Out == nil || len(*res.Out) != 2*(84+64+int(*c.KeyLen)) || !strings.HasPrefix(*res.Out, c.RelayID) {
		t.Fatalf("ntor case: %+v", res)
	}
	if c.RelayYSecret[0] == '0' { // another y (one hex digit changed)
		c.RelayYSecret = "1" + c.RelayYSecret[1:]
	} else {
		c.RelayYSecret = "0" + c.RelayYSecret[1:]
	}
	other := runCase(a, &c)
	if other.Out == nil || *other.Out == *res.Out || (*other.Out)[:2*84] != (*res.Out)[:2*84] {
		t.Errorf("another y: the same onionskin, another reply: %+v", other)
	}
	line, _ := json.Marshal(c)
	if !strings.Contains(string(line), `"key_len":`) {
		t.Errorf("rawCase does not carry key_len: %s", line)
	}
}
