package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shared vectors, exported per algorithm as build/cases/<alg>.jsonl,
// run through the verify request and judged by protocol.md's appendix.

const casesCommand = "cd <repo root> && python3 -m cryptobench.vectors.export build/cases"

func casesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CRYPTOBENCH_CASES")
	if dir == "" {
		dir = filepath.Join("..", "..", "build", "cases")
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		t.Fatalf("cases directory %s not found: create it with `%s` (or point CRYPTOBENCH_CASES at it)", dir, casesCommand)
	}
	return dir
}

// exportedCase is a verify case plus its answer.
type exportedCase struct {
	rawCase
	Expect string  `json:"expect"`
	Out    *string `json:"out"`
	Cmp    string  `json:"cmp"`
}

func loadCases(t *testing.T, path string) []exportedCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (re-create the cases with `%s`)", err, casesCommand)
	}
	defer f.Close()
	var cases []exportedCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c exportedCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cases
}

// judge applies protocol.md's rules; "" means the case passes.
func judge(c *exportedCase, r *caseResult) string {
	if r.ID != c.ID {
		return "result id " + r.ID + " does not echo the case id"
	}
	if r.Error != "" {
		return "error: " + r.Error
	}
	matches := false
	if r.Out != nil && c.Out != nil {
		if c.Cmp == "prefix" {
			matches = strings.HasPrefix(*r.Out, *c.Out)
		} else {
			matches = *r.Out == *c.Out
		}
	}
	switch c.Expect {
	case "valid":
		if r.Rejected {
			return "rejected a valid case"
		}
		if !matches {
			got := "<none>"
			if r.Out != nil {
				got = *r.Out
			}
			return "out " + got + " does not match the expected one"
		}
	case "invalid":
		if !r.Rejected && matches {
			return "accepted an invalid case"
		}
	case "acceptable":
	default:
		return "unknown expect " + c.Expect
	}
	return ""
}

func TestVectors(t *testing.T) {
	dir := casesDir(t)
	d := NewDriver(providers["go:stdlib"])
	for _, a := range d.prov.Algs {
		if a.Name == "noop" {
			continue // no vectors for the empty operation
		}
		t.Run(a.Name, func(t *testing.T) {
			cases := loadCases(t, filepath.Join(dir, a.Name+".jsonl"))
			if len(cases) == 0 {
				t.Fatalf("no cases for %s", a.Name)
			}
			// Through the verify request, exactly as the orchestrator sends it.
			req := map[string]any{"cmd": "verify", "alg": a.Name}
			raw := make([]rawCase, len(cases))
			for i := range cases {
				raw[i] = cases[i].rawCase
			}
			req["cases"] = raw
			line, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := d.HandleLine(line)
			var resp struct {
				OK      bool         `json:"ok"`
				Error   string       `json:"error"`
				Results []caseResult `json:"results"`
			}
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatalf("response is not JSON: %v", err)
			}
			if !resp.OK {
				t.Fatalf("verify failed: %s", resp.Error)
			}
			if len(resp.Results) != len(cases) {
				t.Fatalf("%d results for %d cases", len(resp.Results), len(cases))
			}
			counts := map[string]int{}
			for i := range cases {
				if why := judge(&cases[i], &resp.Results[i]); why != "" {
					t.Errorf("%s: %s", cases[i].ID, why)
				}
				counts[cases[i].Expect]++
			}
			t.Logf("%d cases judged (%v)", len(cases), counts)
		})
	}
}

// TestVectorsOpenRejects: a tampered tag must come back as rejected, not as
// an error or an output.
func TestVectorsOpenRejects(t *testing.T) {
	a := providers["go:stdlib"].alg("aes-128-gcm")
	key := strings.Repeat("00", 16)
	iv := strings.Repeat("00", 12)
	seal := runCase(a, &rawCase{ID: "s", Op: "seal", Key: key, IV: iv, Msg: "00112233"})
	if seal.Out == nil {
		t.Fatalf("seal: %+v", seal)
	}
	ct := []byte(*seal.Out)
	if ct[len(ct)-1] == '0' {
		ct[len(ct)-1] = '1'
	} else {
		ct[len(ct)-1] = '0'
	}
	r := runCase(a, &rawCase{ID: "o", Op: "open", Key: key, IV: iv, Msg: string(ct)})
	if !r.Rejected || r.Out != nil || r.Error != "" {
		t.Fatalf("open of a tampered tag: %+v", r)
	}
	r = runCase(a, &rawCase{ID: "k", Op: "seal", Key: "00", IV: iv})
	if r.Error == "" {
		t.Fatalf("seal with a 1-byte key: %+v", r)
	}
	r = runCase(a, &rawCase{ID: "h", Op: "seal", Key: "zz", IV: iv})
	if r.Error == "" || !strings.Contains(r.Error, "hex") {
		t.Fatalf("seal with bad hex: %+v", r)
	}
}
