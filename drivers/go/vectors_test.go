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

const casesCommand = "cd <repo root> && python3 -m cryptobench.verify.vectors.export build/cases"

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

// judge applies protocol.md's rules; "" means the case passes (or, with
// r.Unsupported set, is skipped).
func judge(c *exportedCase, r *caseResult) string {
	if r.ID != c.ID {
		return "result id " + r.ID + " does not echo the case id"
	}
	if r.Error != "" {
		return "error: " + r.Error
	}
	if r.Unsupported != "" {
		if r.Out != nil || r.Rejected {
			return "unsupported together with a result"
		}
		return ""
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

// noVectors: offered algorithms for which the shared vectors have no
// cases (cases_pk.py builds RSA cases for 2048-bit keys only, and none for
// key generation or SM2); their answers are checked by the cross-checks in
// pk_test.go. Should a case file appear for one of them, it is run.
var noVectors = map[string]string{
	"noop":           "the empty operation",
	"rsa-2048":       "key generation",
	"rsa-3072":       "key generation",
	"rsa-4096":       "key generation",
	"rsa-3072-pss":   "RSA cases are 2048-bit only",
	"rsa-4096-pss":   "RSA cases are 2048-bit only",
	"rsa-3072-pkcs1": "RSA cases are 2048-bit only",
	"rsa-4096-pkcs1": "RSA cases are 2048-bit only",
	"rsa-3072-oaep":  "RSA cases are 2048-bit only",
	"rsa-4096-oaep":  "RSA cases are 2048-bit only",
	"sm2":            "no SM2 vectors in the shared set (pk_test.go has the GM/T 0003.5 example)",
	"x-wing":         "no X-Wing vectors in the shared set (pk_test.go rebuilds it from its parts)",
	"x25519mlkem768": "no vectors for the TLS hybrid shares (pk_test.go checks the concatenation)",
}

func TestVectors(t *testing.T) {
	dir := casesDir(t)
	for _, pid := range providerIDs() {
		d := NewDriver(providers[pid])
		for _, a := range d.prov.Algs {
			if a.Kind == "tls" { // verified by interop (tls_test.go), no cases
				continue
			}
			path := filepath.Join(dir, a.Name+".jsonl")
			if why, ok := noVectors[a.Name]; ok {
				if _, err := os.Stat(path); err != nil {
					t.Logf("%s %s: no vectors (%s)", pid, a.Name, why)
					continue
				}
			}
			if strings.HasPrefix(a.Name, "slh-dsa-") && strings.HasSuffix(a.Name, "s") && !slowTests {
				t.Logf("%s %s: known answers left to `cryptobench verify` (an 's' set signs in seconds; CRYPTOBENCH_SLOW_TESTS=1 runs them)", pid, a.Name)
				continue
			}
			t.Run(pid+"/"+a.Name, func(t *testing.T) { runVectorFile(t, d, a, path) })
		}
	}
}

// runVectorFile sends every case of one file through the verify request,
// exactly as the orchestrator sends it, and judges the results.
func runVectorFile(t *testing.T, d *Driver, a *Alg, path string) {
	cases := loadCases(t, path)
	if len(cases) == 0 {
		t.Fatalf("no cases for %s", a.Name)
	}
	raw := make([]rawCase, len(cases))
	for i := range cases {
		raw[i] = cases[i].rawCase
	}
	line, err := json.Marshal(map[string]any{"cmd": "verify", "alg": a.Name, "cases": raw})
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
	passed := 0
	for i := range cases {
		r := &resp.Results[i]
		if why := judge(&cases[i], r); why != "" {
			t.Errorf("%s: %s", cases[i].ID, why)
			continue
		}
		key := cases[i].Op + ":" + cases[i].Expect
		if r.Unsupported != "" {
			key = cases[i].Op + ":unsupported"
		} else {
			passed++
		}
		counts[key]++
	}
	if passed == 0 {
		t.Errorf("no case passed (protocol.md: at least one must)")
	}
	t.Logf("%d cases, %d passed (%v)", len(cases), passed, counts)
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
