package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/emmansun/gmsm/sm2"
	"github.com/emmansun/gmsm/smx509"
)

// Public-key algorithms: one bench per alg/op through the request handler
// (batch honoured exactly, output lengths), the cell's own output checked
// independently (a signature verifies under the cell's key, a ciphertext
// decapsulates), and the orchestrator's cross-check flows (crosscheck.py)
// run by each provider against itself.

// pkAlgs are a provider's public-key algorithms (those with a key pair).
// With -short, RSA-3072/4096 (whose key generation takes seconds) are left
// out of the tests that generate many keys.
//
// SLH-DSA signs in a second or more per signature for the 's' sets (circl,
// pure Go): only slh-dsa-sha2-128f is in these tests unless
// CRYPTOBENCH_SLOW_TESTS=1; the others meet their known answers in
// TestVectors ('f' sets) and in `cryptobench verify`.
func pkAlgs(p *Provider) []*Alg {
	var algs []*Alg
	for _, a := range p.Algs {
		if a.Keypair == nil {
			continue
		}
		if testing.Short() && (strings.HasPrefix(a.Name, "rsa-3072") || strings.HasPrefix(a.Name, "rsa-4096")) {
			continue
		}
		if strings.HasPrefix(a.Name, "slh-dsa-") && a.Name != "slh-dsa-sha2-128f" && !slowTests {
			continue
		}
		algs = append(algs, a)
	}
	return algs
}

// outputLen is the length range of one operation's output (algorithms.py
// output_len for the fixed lengths; DER signatures vary).
func outputLen(alg, op string, size int) (lo, hi int) {
	fixed := func(n int) (int, int) { return n, n }
	switch op {
	case "verify":
		return fixed(1)
	case "decrypt":
		return fixed(size)
	}
	var bits int
	if _, err := fmt.Sscanf(alg, "rsa-%d", &bits); err == nil {
		if op == "keygen" { // DER SubjectPublicKeyInfo of an e=65537 key
			return fixed(map[int]int{2048: 294, 3072: 422, 4096: 550}[bits])
		}
		return fixed(bits / 8) // sign, OAEP encrypt
	}
	switch alg + "/" + op {
	case "ecdsa-p256/keygen", "sm2/keygen":
		return fixed(91)
	case "ecdsa-p384/keygen":
		return fixed(120)
	case "ecdsa-p256/sign", "sm2/sign":
		return 8, 72
	case "ecdsa-p384/sign":
		return 8, 104
	case "ecdh-p256/derive", "x25519/derive", "x25519/keygen", "ed25519/keygen":
		return fixed(32)
	case "ecdh-p384/derive":
		return fixed(48)
	case "ed25519/sign":
		return fixed(64)
	case "ml-kem-768/keygen":
		return fixed(1184)
	case "ml-kem-768/encaps":
		return fixed(1088 + 32)
	case "ml-kem-1024/keygen":
		return fixed(1568)
	case "ml-kem-1024/encaps":
		return fixed(1568 + 32)
	case "ml-kem-768/decaps", "ml-kem-1024/decaps", "ml-kem-512/decaps", "x-wing/decaps":
		return fixed(32)
	case "ml-kem-512/keygen":
		return fixed(800)
	case "ml-kem-512/encaps":
		return fixed(768 + 32)
	case "x-wing/keygen", "x25519mlkem768/keygen":
		return fixed(1216)
	case "x-wing/encaps":
		return fixed(1120 + 32)
	case "x25519mlkem768/encaps":
		return fixed(1120 + 64)
	case "x25519mlkem768/decaps":
		return fixed(64)
	}
	// FIPS 204 Table 2, FIPS 205 Table 2: public key, signature
	mldsa := map[string][2]int{"44": {1312, 2420}, "65": {1952, 3309}, "87": {2592, 4627}}
	slh := map[string][2]int{"128s": {32, 7856}, "128f": {32, 17088}, "192s": {48, 16224},
		"192f": {48, 35664}, "256s": {64, 29792}, "256f": {64, 49856}}
	var sz [2]int
	var ok bool
	if after, found := strings.CutPrefix(alg, "ml-dsa-"); found {
		sz, ok = mldsa[after]
	} else if after, found := strings.CutPrefix(alg, "slh-dsa-"); found {
		sz, ok = slh[after[strings.Index(after, "-")+1:]]
	}
	if ok && op == "keygen" {
		return fixed(sz[0])
	} else if ok && op == "sign" {
		return fixed(sz[1])
	}
	return -1, -1
}

var slowTests = os.Getenv("CRYPTOBENCH_SLOW_TESTS") == "1"

// ssHex is the length in hex of an algorithm's shared secret at the end of
// an encaps output: 32 bytes, 64 for the TLS hybrid (ML-KEM ‖ X25519).
func ssHex(alg string) int {
	if alg == "x25519mlkem768" {
		return 128
	}
	return 64
}

func pkSize(op string) int {
	switch op {
	case "sign", "verify", "encrypt", "decrypt":
		return 32
	}
	return 0
}

// oneCase runs one verify case through the request handler, as the
// orchestrator's cross-check does.
func oneCase(t *testing.T, d *Driver, alg string, c map[string]any) caseResult {
	t.Helper()
	c["id"] = "x#1"
	line, _ := json.Marshal(map[string]any{"cmd": "verify", "alg": alg, "cases": []any{c}})
	out, _ := d.HandleLine(line)
	var resp struct {
		OK      bool         `json:"ok"`
		Error   string       `json:"error"`
		Results []caseResult `json:"results"`
	}
	if err := json.Unmarshal(out, &resp); err != nil || !resp.OK || len(resp.Results) != 1 {
		t.Fatalf("verify %s %v: %s", alg, c["op"], out)
	}
	return resp.Results[0]
}

func outOf(t *testing.T, what string, r caseResult) string {
	t.Helper()
	if r.Out == nil {
		t.Fatalf("%s: no output: %+v", what, r)
	}
	return *r.Out
}

func keypairOf(t *testing.T, d *Driver, alg string) (pub, priv string) {
	t.Helper()
	out, _ := d.HandleLine([]byte(`{"cmd":"keypair","alg":"` + alg + `"}`))
	var r struct {
		OK      bool   `json:"ok"`
		Error   string `json:"error"`
		Public  string `json:"public"`
		Private string `json:"private"`
	}
	if err := json.Unmarshal(out, &r); err != nil || !r.OK || r.Public == "" || r.Private == "" {
		t.Fatalf("keypair %s: %s", alg, out)
	}
	return r.Public, r.Private
}

// flip flips one bit in the middle, as crosscheck.py's _flip.
func flip(h string) string {
	b, _ := hex.DecodeString(h)
	b[len(b)/2] ^= 1
	return hex.EncodeToString(b)
}

var crossMsg = hex.EncodeToString(Message(benchSeed, 32))

func TestPKBenchEveryOffer(t *testing.T) {
	for _, pid := range providerIDs() {
		d := NewDriver(providers[pid])
		for _, a := range pkAlgs(d.prov) {
			for _, op := range a.Ops {
				t.Run(pid+"/"+a.Name+"/"+op, func(t *testing.T) {
					size := pkSize(op)
					batch, samples := 3, 2
					if strings.HasPrefix(a.Name, "rsa-") && op == "keygen" {
						batch, samples = 1, 1 // as the orchestrator asks
					}
					line := fmt.Sprintf(`{"cmd":"bench","alg":%q,"op":%q,"size":%d,"chunk":0,"seed":%d,"batch":%d,"target_ns":0,"warmup_ns":0,"samples":%d}`,
						a.Name, op, size, benchSeed, batch, samples)
					r := doBench(t, d, []byte(line))
					if !r.OK {
						t.Fatalf("bench: %s", r.Error)
					}
					if r.Batch != int64(batch) || len(r.SamplesNs) != samples {
						t.Errorf("asked batch %d x %d samples, got batch %d x %d", batch, samples, r.Batch, len(r.SamplesNs))
					}
					for _, s := range r.SamplesNs {
						if s <= 0 {
							t.Errorf("sample %d ns", s)
						}
					}
					if r.PeakRSSKb == nil || *r.PeakRSSKb <= 0 || r.Warmup == nil || r.Warmup.Ops < 1 {
						t.Errorf("incomplete response %+v", r)
					}
					var n int
					fmt.Sscanf(r.Checksum, "%08x:", &n)
					lo, hi := outputLen(a.Name, op, size)
					if lo < 0 {
						t.Fatalf("no expected output length for %s %s", a.Name, op)
					}
					if n < lo || n > hi {
						t.Errorf("checksum %s: output length %d, want %d..%d", r.Checksum, n, lo, hi)
					}
					msg := Message(benchSeed, size)
					switch op {
					case "verify":
						if r.Checksum != Checksum([]byte{1}) {
							t.Errorf("verify checksum %s", r.Checksum)
						}
					case "decrypt":
						if r.Checksum != Checksum(msg) {
							t.Errorf("decrypt checksum %s, want the message's %s", r.Checksum, Checksum(msg))
						}
					}
					if op != "keygen" && bigRSA(a.Name) {
						return // checked at 2048 bits (the same cell code); here the bench's verify/decrypt checksums
					}
					checkCellOutput(t, d, a, op, msg)
				})
			}
		}
	}
}

// bigRSA: RSA above 2048 bits, whose every cell makes a key pair of its own
// (seconds each here, most of this file's time). TestPKBenchEveryOffer benches
// each of their operations (output lengths; verify's checksum is 01 and
// decrypt's the message, on the cell's own signature and ciphertext) but
// checks a second cell's output against its keys only for keygen: the cell
// code is the one checked so at 2048 bits. TestPKCrossSelf crosses every size.
func bigRSA(alg string) bool {
	var bits int
	_, err := fmt.Sscanf(alg, "rsa-%d", &bits)
	return err == nil && bits > 2048
}

// checkCellOutput prepares one cell, runs it once as the checksum does and
// checks the output against the cell's own keys through verify cases.
func checkCellOutput(t *testing.T, d *Driver, a *Alg, op string, msg []byte) {
	t.Helper()
	cell, err := a.NewCell(newCellParams(op, nil, nil, benchSeed, len(msg), 0))
	if err != nil {
		t.Fatal(err)
	}
	checksumRun(cell)
	out := cell.Output()
	if err := cell.Err(); err != nil {
		t.Fatal(err)
	}
	pub, priv, err := cell.(cellKeys).keys()
	if err != nil {
		t.Fatal(err)
	}
	P, S, O, M := hex.EncodeToString(pub), hex.EncodeToString(priv), hex.EncodeToString(out), hex.EncodeToString(msg)
	switch {
	case op == "sign":
		if r := oneCase(t, d, a.Name, map[string]any{"op": "verify", "public": P, "msg": M, "sig": O}); outOf(t, "verify", r) != "01" {
			t.Errorf("the cell's signature does not verify: %+v", r)
		}
		if r := oneCase(t, d, a.Name, map[string]any{"op": "verify", "public": P, "msg": M, "sig": flip(O)}); !r.Rejected {
			t.Errorf("a flipped signature: %+v", r)
		}
	case op == "keygen" && a.offers("sign"):
		sig := outOf(t, "sign", oneCase(t, d, a.Name, map[string]any{"op": "sign", "private": S, "msg": crossMsg}))
		if r := oneCase(t, d, a.Name, map[string]any{"op": "verify", "public": O, "msg": crossMsg, "sig": sig}); outOf(t, "verify", r) != "01" {
			t.Errorf("the generated public key does not verify its private key's signature: %+v", r)
		}
	case op == "keygen" && a.offers("derive"):
		peerPub, peerPriv := keypairOf(t, d, a.Name)
		ab := outOf(t, "derive", oneCase(t, d, a.Name, map[string]any{"op": "derive", "private": peerPriv, "public": O}))
		ba := outOf(t, "derive", oneCase(t, d, a.Name, map[string]any{"op": "derive", "private": S, "public": peerPub}))
		if ab != ba {
			t.Errorf("the generated key pair does not agree with a peer: %s != %s", ab, ba)
		}
		if !bytes.Equal(out, pub) {
			t.Errorf("keygen output is not the generated public key")
		}
	case op == "keygen" && a.offers("encaps"):
		ctk := outOf(t, "encaps", oneCase(t, d, a.Name, map[string]any{"op": "encaps", "public": O}))
		k := outOf(t, "decaps", oneCase(t, d, a.Name, map[string]any{"op": "decaps", "private": S, "msg": ctk[:len(ctk)-ssHex(a.Name)]}))
		if k != ctk[len(ctk)-ssHex(a.Name):] {
			t.Errorf("generated key pair: decapsulated %s, encapsulated %s", k, ctk[len(ctk)-ssHex(a.Name):])
		}
	case op == "keygen": // rsa-N: sign with rsa-N-pkcs1
		sa := a.Name + "-pkcs1"
		sig := outOf(t, "sign", oneCase(t, d, sa, map[string]any{"op": "sign", "private": S, "msg": crossMsg}))
		if r := oneCase(t, d, sa, map[string]any{"op": "verify", "public": O, "msg": crossMsg, "sig": sig}); outOf(t, "verify", r) != "01" {
			t.Errorf("generated RSA key pair: %+v", r)
		}
	case op == "verify":
		if !bytes.Equal(out, []byte{1}) {
			t.Errorf("verify output %x", out)
		}
	case op == "derive" || op == "decaps":
		// the same operation as a case, on the cell's own inputs (the peer's key; the ciphertext
		// the library made), agrees with the cell
		c := map[string]any{"op": op, "private": S}
		if dc, ok := cell.(*deriveCell); ok {
			c["public"] = hex.EncodeToString(dc.peerEnc)
		} else {
			c["msg"] = hex.EncodeToString(cell.(*decapsCell).ct)
		}
		if want := outOf(t, op, oneCase(t, d, a.Name, c)); O != want {
			t.Errorf("%s cell %s, %s case %s", op, O, op, want)
		}
	case op == "encaps":
		k := outOf(t, "decaps", oneCase(t, d, a.Name, map[string]any{"op": "decaps", "private": S, "msg": O[:len(O)-ssHex(a.Name)]}))
		if k != O[len(O)-ssHex(a.Name):] {
			t.Errorf("encaps cell: decapsulated %s, encapsulated %s", k, O[len(O)-ssHex(a.Name):])
		}
	case op == "encrypt":
		pt := outOf(t, "decrypt", oneCase(t, d, a.Name, map[string]any{"op": "decrypt", "private": S, "msg": O}))
		if pt != M {
			t.Errorf("encrypt cell: decrypts to %s", pt)
		}
	case op == "decrypt":
		if !bytes.Equal(out, msg) {
			t.Errorf("decrypt cell output %x", out)
		}
	default:
		t.Fatalf("no check for %s %s", a.Name, op)
	}
}

// TestPKCrossSelf runs crosscheck.py's flows with the provider as both
// producer and consumer.
func TestPKCrossSelf(t *testing.T) {
	for _, pid := range providerIDs() {
		d := NewDriver(providers[pid])
		for _, a := range pkAlgs(d.prov) {
			t.Run(pid+"/"+a.Name, func(t *testing.T) {
				alg := a.Name
				switch {
				case a.offers("sign"):
					pub, priv := keypairOf(t, d, alg)
					pub2, _ := keypairOf(t, d, alg)
					sig := outOf(t, "sign", oneCase(t, d, alg, map[string]any{"op": "sign", "private": priv, "msg": crossMsg}))
					verify := func(pub, msg, sig string) caseResult {
						return oneCase(t, d, alg, map[string]any{"op": "verify", "public": pub, "msg": msg, "sig": sig})
					}
					if r := verify(pub, crossMsg, sig); r.Out == nil || *r.Out != "01" {
						t.Errorf("signature does not verify: %+v", r)
					}
					if r := verify(pub, crossMsg, flip(sig)); !r.Rejected {
						t.Errorf("corrupted signature: %+v", r)
					}
					if r := verify(pub, flip(crossMsg), sig); !r.Rejected {
						t.Errorf("other message: %+v", r)
					}
					if r := verify(pub2, crossMsg, sig); !r.Rejected {
						t.Errorf("other key: %+v", r)
					}
					if r := verify(pub, crossMsg, ""); !r.Rejected {
						t.Errorf("empty signature: %+v", r)
					}
					if r := verify("3000", crossMsg, sig); !r.Rejected {
						t.Errorf("malformed public key: %+v", r)
					}
				case a.offers("derive"):
					pa, sa := keypairOf(t, d, alg)
					pb, sb := keypairOf(t, d, alg)
					pc, _ := keypairOf(t, d, alg)
					derive := func(priv, pub string) caseResult {
						return oneCase(t, d, alg, map[string]any{"op": "derive", "private": priv, "public": pub})
					}
					ab, ba := outOf(t, "derive", derive(sa, pb)), outOf(t, "derive", derive(sb, pa))
					if ab != ba || len(ab) == 0 {
						t.Errorf("shared secrets differ: %s != %s", ab, ba)
					}
					if ac := outOf(t, "derive", derive(sa, pc)); ac == ab {
						t.Errorf("another peer gives the same secret")
					}
					if r := derive(sa, flip(pb)); r.Out != nil && *r.Out == ab {
						t.Errorf("a corrupted peer key gives the same secret")
					}
				case a.offers("encaps"):
					p1, s1 := keypairOf(t, d, alg)
					_, s2 := keypairOf(t, d, alg)
					ctk := outOf(t, "encaps", oneCase(t, d, alg, map[string]any{"op": "encaps", "public": p1}))
					ct, k := ctk[:len(ctk)-ssHex(alg)], ctk[len(ctk)-ssHex(alg):]
					if got := outOf(t, "decaps", oneCase(t, d, alg, map[string]any{"op": "decaps", "private": s1, "msg": ct})); got != k {
						t.Errorf("decapsulated %s, encapsulated %s", got, k)
					}
					if r := oneCase(t, d, alg, map[string]any{"op": "decaps", "private": s2, "msg": ct}); !r.Rejected && (r.Out == nil || *r.Out == k) {
						t.Errorf("wrong key: %+v", r)
					}
					if r := oneCase(t, d, alg, map[string]any{"op": "decaps", "private": s1, "msg": flip(ct)}); r.Out == nil || *r.Out == k {
						t.Errorf("corrupted ciphertext (implicit rejection gives another key): %+v", r)
					}
					if r := oneCase(t, d, alg, map[string]any{"op": "decaps", "private": s1, "msg": ct[:len(ct)-2]}); !r.Rejected {
						t.Errorf("short ciphertext: %+v", r)
					}
				case a.offers("encrypt"):
					pub, priv := keypairOf(t, d, alg)
					ct := outOf(t, "encrypt", oneCase(t, d, alg, map[string]any{"op": "encrypt", "public": pub, "msg": crossMsg}))
					if pt := outOf(t, "decrypt", oneCase(t, d, alg, map[string]any{"op": "decrypt", "private": priv, "msg": ct})); pt != crossMsg {
						t.Errorf("decrypted to %s", pt)
					}
					if r := oneCase(t, d, alg, map[string]any{"op": "decrypt", "private": priv, "msg": flip(ct)}); !r.Rejected {
						t.Errorf("corrupted ciphertext: %+v", r)
					}
				default: // rsa-N key generation: the key pair signs and verifies
					pub, priv := keypairOf(t, d, alg)
					sa := alg + "-pkcs1"
					sig := outOf(t, "sign", oneCase(t, d, sa, map[string]any{"op": "sign", "private": priv, "msg": crossMsg}))
					if r := oneCase(t, d, sa, map[string]any{"op": "verify", "public": pub, "msg": crossMsg, "sig": sig}); r.Out == nil || *r.Out != "01" {
						t.Errorf("generated key pair: %+v", r)
					}
				}
			})
		}
	}
}

// TestKeypairEncodings: protocol.md's encodings, checked by parsing them
// back with the standard library / gmsm.
func TestKeypairEncodings(t *testing.T) {
	want := map[string][2]int{ // public, private lengths; 0: DER, checked by parsing
		"ecdsa-p256": {0, 32}, "ecdsa-p384": {0, 48}, "ecdh-p256": {0, 32}, "ecdh-p384": {0, 48},
		"x25519": {32, 32}, "ed25519": {32, 32}, "ml-kem-768": {1184, 64}, "ml-kem-1024": {1568, 64},
		"sm2": {0, 32}, "ml-kem-512": {800, 64}, "x-wing": {1216, 32}, "x25519mlkem768": {1216, 64},
		"ml-dsa-44": {1312, 32}, "ml-dsa-65": {1952, 32}, "ml-dsa-87": {2592, 32},
		"slh-dsa-sha2-128f": {32, 64},
	}
	for _, p := range []string{"128s", "128f", "192s", "192f", "256s", "256f"} {
		n := map[string]int{"128": 16, "192": 24, "256": 32}[p[:3]]
		want["slh-dsa-sha2-"+p] = [2]int{2 * n, 4 * n}
		want["slh-dsa-shake-"+p] = [2]int{2 * n, 4 * n}
	}
	seen := map[string]bool{}
	for _, pid := range providerIDs() {
		for _, a := range pkAlgs(providers[pid]) {
			pub, priv, err := a.Keypair()
			if err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
			seen[a.Name] = true
			if strings.HasPrefix(a.Name, "rsa-") {
				var bits int
				fmt.Sscanf(a.Name, "rsa-%d", &bits)
				k, err := x509.ParsePKCS8PrivateKey(priv)
				if err != nil {
					t.Fatalf("%s private: %v", a.Name, err)
				}
				p, err := x509.ParsePKIXPublicKey(pub)
				if err != nil {
					t.Fatalf("%s public: %v", a.Name, err)
				}
				rk, ok := k.(*rsa.PrivateKey)
				if !ok || rk.N.BitLen() != bits || rk.E != 65537 || !rk.PublicKey.Equal(p) {
					t.Errorf("%s: not a matching %d-bit e=65537 key pair", a.Name, bits)
				}
				continue
			}
			w, ok := want[a.Name]
			if !ok {
				t.Errorf("%s: no expected encoding", a.Name)
				continue
			}
			if w[0] == 0 {
				parse := x509.ParsePKIXPublicKey
				if a.Name == "sm2" {
					parse = smx509.ParsePKIXPublicKey
				}
				p, err := parse(pub)
				if err != nil {
					t.Errorf("%s public key is not SubjectPublicKeyInfo: %v", a.Name, err)
				} else if ep, ok := p.(*ecdsa.PublicKey); !ok || len(pub) < pointLen(ep) || pub[len(pub)-pointLen(ep)] != 4 {
					t.Errorf("%s public key is not an uncompressed EC point (%T)", a.Name, p)
				} else if ep.X.Sign() == 0 {
					t.Errorf("%s: zero point", a.Name)
				}
			} else if len(pub) != w[0] {
				t.Errorf("%s public key: %d bytes, want %d", a.Name, len(pub), w[0])
			}
			if len(priv) != w[1] {
				t.Errorf("%s private key: %d bytes, want %d", a.Name, len(priv), w[1])
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("key pairs checked: %s", strings.Join(names, " "))
}

// The GM/T 0003.5-2012 example on the recommended curve: d, the public key,
// ID 1234567812345678, message "message digest", signature (r, s).
func TestSM2KnownAnswer(t *testing.T) {
	const (
		dHex = "3945208f7b2144b13f36e38ac6d39f95889393692860b51a42fb81ef4df7c5b8"
		xHex = "09f9df311e5421a150dd7d161e4bc5c672179fad1833fc076bb08ff356f35020"
		yHex = "ccea490ce26775a52dc6ea718cc1aa600aed05fbf35e084a6632f6072da9ad13"
		rHex = "f5a03b0648d2c4630eeac513e1bb81a15944da3827d5b74143ac7eaceee720b3"
		sHex = "b1b6aa29df212fd8763182bc0d421ca1bb9038fd1f7f42d4840b69c485bbc1aa"
	)
	priv, err := sm2.NewPrivateKey(mustHex(dHex))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%064x", priv.X) != xHex || fmt.Sprintf("%064x", priv.Y) != yHex {
		t.Fatalf("public key of the example's d: %x, %x", priv.X, priv.Y)
	}
	spki, err := smx509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := new(big.Int).SetString(rHex, 16)
	s, _ := new(big.Int).SetString(sHex, 16)
	sig, _ := asn1.Marshal(struct{ R, S *big.Int }{r, s})
	d := NewDriver(providers["go:gmsm"])
	msg := hex.EncodeToString([]byte("message digest"))
	P, SIG := hex.EncodeToString(spki), hex.EncodeToString(sig)
	if r := oneCase(t, d, "sm2", map[string]any{"op": "verify", "public": P, "msg": msg, "sig": SIG}); r.Out == nil || *r.Out != "01" {
		t.Errorf("the standard's signature does not verify: %+v", r)
	}
	if r := oneCase(t, d, "sm2", map[string]any{"op": "verify", "public": P, "msg": msg, "sig": flip(SIG)}); !r.Rejected {
		t.Errorf("flipped: %+v", r)
	}
	mine := outOf(t, "sign", oneCase(t, d, "sm2", map[string]any{"op": "sign", "private": dHex, "msg": msg}))
	if r := oneCase(t, d, "sm2", map[string]any{"op": "verify", "public": P, "msg": msg, "sig": mine}); r.Out == nil || *r.Out != "01" {
		t.Errorf("own signature with the standard's key: %+v", r)
	}
	// the keypair private encoding round-trips through the case executor
	pub, prv := keypairOf(t, d, "sm2")
	k, err := sm2.NewPrivateKey(mustHex(prv))
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := smx509.MarshalPKIXPublicKey(&k.PublicKey)
	if hex.EncodeToString(p2) != pub {
		t.Errorf("keypair: the private scalar does not give the public key")
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Unsupported variants answer `unsupported`, never an error.
func TestPKUnsupportedAndRejected(t *testing.T) {
	d := NewDriver(providers["go:stdlib"])
	_, priv := keypairOf(t, d, "ecdsa-p256")
	for _, tc := range []struct {
		alg  string
		c    map[string]any
		want string
	}{
		{"ecdsa-p256", map[string]any{"op": "sign", "private": priv, "msg": crossMsg, "deterministic": true}, "unsupported"},
		{"ecdsa-p256", map[string]any{"op": "sign", "private": priv, "msg": crossMsg, "ctx": "00"}, "unsupported"},
		{"ecdsa-p256", map[string]any{"op": "keygen", "seed": strings.Repeat("00", 32)}, "unsupported"},
		{"rsa-2048", map[string]any{"op": "keygen", "seed": strings.Repeat("00", 32)}, "unsupported"},
		{"ecdsa-p256", map[string]any{"op": "sign", "private": "00", "msg": crossMsg}, "rejected"},
		{"ecdsa-p256", map[string]any{"op": "verify", "public": "zz", "msg": crossMsg, "sig": "00"}, "error"},
		{"ed25519", map[string]any{"op": "sign", "private": "0011", "msg": crossMsg}, "rejected"},
		{"x25519", map[string]any{"op": "derive", "private": strings.Repeat("11", 32), "public": strings.Repeat("00", 32)}, "rejected"},
		{"ml-kem-768", map[string]any{"op": "keygen", "seed": strings.Repeat("00", 63)}, "rejected"},
		{"ml-kem-768", map[string]any{"op": "encaps", "public": strings.Repeat("ff", 1184), "m": strings.Repeat("00", 32)}, "rejected"},
		{"rsa-2048-oaep", map[string]any{"op": "decrypt", "private": "3000", "msg": "00"}, "rejected"},
		{"ecdsa-p256", map[string]any{"op": "derive", "private": priv, "public": "00"}, "error"}, // op not offered
	} {
		r := oneCase(t, d, tc.alg, tc.c)
		got := "out"
		switch {
		case r.Unsupported != "":
			got = "unsupported"
		case r.Rejected:
			got = "rejected"
		case r.Error != "":
			got = "error"
		}
		if got != tc.want {
			t.Errorf("%s %v: %s, want %s (%+v)", tc.alg, tc.c["op"], got, tc.want, r)
		}
	}
}

// pointLen is the length of an uncompressed point of k's curve.
func pointLen(k *ecdsa.PublicKey) int {
	return 1 + 2*((k.Curve.Params().BitSize+7)/8)
}
