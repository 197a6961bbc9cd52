package pqntor_test

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cryptobench/protocols/pqntor/internal/kat"
	"cryptobench/protocols/pqntor/pqntor"
)

const vectorDir = "../../vectors"

func loadFile(t *testing.T, s pqntor.Suite) *kat.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorDir, kat.FileName(s)))
	if err != nil {
		t.Fatal(err)
	}
	var f kat.File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVectors replays every committed vector through the public API, byte
// for byte, and checks every intermediate with the reference computation.
func TestVectors(t *testing.T) {
	for _, s := range kat.GeneratedSuites {
		f := loadFile(t, s)
		if f.Suite != s.String() || f.ProtoID != s.ProtoID() {
			t.Fatalf("%s: file header names %s / %s", s, f.Suite, f.ProtoID)
		}
		z, _ := s.Sizes()
		if f.Sizes.Onionskin != z.Onionskin || f.Sizes.Reply != z.Reply || f.Sizes.EK != z.EK || f.Sizes.CT != z.CT {
			t.Fatalf("%s: sizes %+v vs %+v", s, f.Sizes, z)
		}
		for _, v := range f.Vectors {
			t.Run(v.ID, func(t *testing.T) {
				in := kat.Inputs{Suite: s, KeyLen: v.KeyLen, RelayID: v.Inputs.RelayID, RelayBSecret: v.Inputs.RelayBSecret,
					ClientXSecret: v.Inputs.ClientXSecret, ClientMLKEMSeed: v.Inputs.ClientMLKEMSeed,
					RelayYSecret: v.Inputs.RelayYSecret, MLKEMEncapsM: v.Inputs.MLKEMEncapsM}
				if v.Seed != "" {
					d := kat.InputsFromSeed(s, v.Seed, v.KeyLen)
					if !bytes.Equal(d.RelayID, in.RelayID) || !bytes.Equal(d.RelayBSecret, in.RelayBSecret) ||
						!bytes.Equal(d.ClientXSecret, in.ClientXSecret) || !bytes.Equal(d.ClientMLKEMSeed, in.ClientMLKEMSeed) ||
						!bytes.Equal(d.RelayYSecret, in.RelayYSecret) || !bytes.Equal(d.MLKEMEncapsM, in.MLKEMEncapsM) {
						t.Fatal("inputs are not DRAW(seed, label, n)")
					}
				}

				// The three calls, one at a time.
				p := pqntor.Params{Suite: s, KeyLen: v.KeyLen}
				relay, err := pqntor.NewRelayKeys(in.RelayID, in.RelayBSecret)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(relay.PublicKey(), v.Intermediates.RelayB) {
					t.Fatalf("B = %x, want %x", relay.PublicKey(), v.Intermediates.RelayB)
				}
				cr := in.ClientRand()
				st, onionskin, err := pqntor.ClientCreate(in.RelayID, relay.PublicKey(), p, cr)
				if err != nil {
					t.Fatal(err)
				}
				allUsed(t, "ClientCreate", cr)
				same(t, "onionskin", onionskin, v.Outputs.Onionskin)
				rr := in.RelayRand()
				reply, skeys, err := pqntor.ServerReply(relay, p, onionskin, rr)
				if err != nil {
					t.Fatal(err)
				}
				allUsed(t, "ServerReply", rr)
				same(t, "reply", reply, v.Outputs.Reply)
				same(t, "relay keys", skeys, v.Outputs.Keys)
				ckeys, err := pqntor.ClientFinish(st, reply)
				if err != nil {
					t.Fatal(err)
				}
				same(t, "client keys", ckeys, v.Outputs.Keys)

				// Every intermediate, from the spec-literal reference.
				tr, err := kat.Reference(in)
				if err != nil {
					t.Fatal(err)
				}
				im := v.Intermediates
				for _, c := range []struct {
					name      string
					got, want []byte
				}{
					{"relay_B", tr.RelayB, im.RelayB}, {"client_X", tr.ClientX, im.ClientX},
					{"client_mlkem_ek", tr.ClientEK, im.ClientEK}, {"relay_Y", tr.RelayY, im.RelayY},
					{"mlkem_ciphertext", tr.MLKEMCiphertext, im.MLKEMCiphertext},
					{"mlkem_shared_secret", tr.MLKEMShared, im.MLKEMShared},
					{"exp_X_y", tr.ExpXY, im.ExpXY}, {"exp_X_b", tr.ExpXB, im.ExpXB},
					{"secret_input", tr.SecretInput, im.SecretInput},
					{"hkdf_salt", tr.TKey, im.HKDFSalt}, {"hkdf_ikm", tr.SecretInput, im.HKDFIKM},
					{"hkdf_info", tr.MExpand, im.HKDFInfo}, {"key_seed", tr.KeySeed, im.KeySeed},
					{"hmac_verify_key", tr.TVerify, im.VerifyKey}, {"verify", tr.Verify, im.Verify},
					{"auth_input", tr.AuthInput, im.AuthInput}, {"hmac_auth_key", tr.TMac, im.AuthKey},
					{"auth", tr.Auth, im.Auth}, {"keys", tr.Keys, v.Outputs.Keys},
				} {
					if !bytes.Equal(c.got, c.want) {
						t.Errorf("%s\n got %x\nwant %x", c.name, c.got, c.want)
					}
				}
				// The messages are the concatenations the spec's tables give.
				if !bytes.Equal(onionskin, bytes.Join([][]byte{in.RelayID, im.RelayB, im.ClientX, im.ClientEK}, nil)) {
					t.Error("onionskin != ID | B | X | EK")
				}
				if !bytes.Equal(reply, bytes.Join([][]byte{im.RelayY, im.MLKEMCiphertext, im.Auth}, nil)) {
					t.Error("reply != Y | CT | AUTH")
				}
				// And the HKDF of the standard library agrees with them.
				k, err := hkdf.Key(sha256.New, im.HKDFIKM, im.HKDFSalt, string(im.HKDFInfo), v.KeyLen)
				if err != nil || !bytes.Equal(k, v.Outputs.Keys) {
					t.Errorf("crypto/hkdf.Key(ikm, salt, info) = %x, %v", k, err)
				}
			})
		}
	}
}

// TestFailureVectors runs every committed failure vector: each must be
// rejected, with no reply and no key material, in its error class.
func TestFailureVectors(t *testing.T) {
	for _, s := range kat.GeneratedSuites {
		f := loadFile(t, s)
		if len(f.Failures) == 0 {
			t.Fatalf("%s: no failure vectors", s)
		}
		for _, fv := range f.Failures {
			t.Run(fv.ID, func(t *testing.T) {
				if err := kat.CheckFailure(s, fv); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestVectorFilesUpToDate: the committed files are exactly what
// cmd/genvectors writes now.
func TestVectorFilesUpToDate(t *testing.T) {
	files, err := kat.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(vectorDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go run ./cmd/genvectors`", name)
		}
	}
}

// TestTorNtorVector: ntor reproduces the ntor test vector published in Arti
// (crates/tor-proto/src/crypto/handshake/ntor.rs, test testvec), written out
// here independently of package kat.
func TestTorNtorVector(t *testing.T) {
	bSecret := unhex(t, "4820544f4c4420594f5520444f474954204b454550532048415050454e494e47")
	xSecret := unhex(t, "706f6461792069207075742e2e2e2e2e2e2e2e4a454c4c59206f6e2074686973")
	ySecret := unhex(t, "70686520737175697272656c2e2e2e2e2e2e2e2e686173206869732067616d65")
	id := []byte("iToldYouAboutStairs.")
	wantCreate := unhex(t, "69546f6c64596f7541626f75745374616972732eccbc8541904d18af08753eae967874749e6149f873de937f57f8fd903a21c471e65dfdbef8b2635837fe2cebc086a8096eae3213e6830dc407516083d412b078")
	wantCreated := unhex(t, "390480a14362761d6aec1fea840f6e9e928fb2adb7b25c670be1045e35133a371cbdf68b89923e1f85e8e18ee6e805ea333fe4849c790ffd2670bd80fec95cc8")
	wantKeys := unhex(t, "0c62dee7f48893370d0ef896758d35729867beef1a5121df80e00f79ed349af39b51cae125719182f19d932a667dae1afbf2e336e6910e7822223e763afad0a13342157969dc6b79")

	p := pqntor.Params{Suite: pqntor.NTor, KeyLen: len(wantKeys)}
	relay, err := pqntor.NewRelayKeys(id, bSecret)
	if err != nil {
		t.Fatal(err)
	}
	st, create, err := pqntor.ClientCreate(id, relay.PublicKey(), p, bytes.NewReader(xSecret))
	if err != nil {
		t.Fatal(err)
	}
	same(t, "CREATE2 handshake data", create, wantCreate)
	created, skeys, err := pqntor.ServerReply(relay, p, create, bytes.NewReader(ySecret))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(created, wantCreated) || !bytes.Equal(skeys, wantKeys) {
		t.Fatalf("CREATED2 %x keys %x", created, skeys)
	}
	ckeys, err := pqntor.ClientFinish(st, created)
	if err != nil || !bytes.Equal(ckeys, wantKeys) {
		t.Fatalf("client keys %x, %v", ckeys, err)
	}
}

// TestTorKDFVectors: ntor's KDF is HKDF-SHA256 with salt t_key and info
// m_expand; Tor's src/test/test_crypto.c vectors (made with ntor_ref.py).
func TestTorKDFVectors(t *testing.T) {
	for _, v := range kat.TorKDFVectors {
		got, err := hkdf.Key(sha256.New, []byte(v.IKM), []byte("ntor-curve25519-sha256-1:key_extract"), "ntor-curve25519-sha256-1:key_expand", 100)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(got) != v.OKM {
			t.Errorf("KDF(%q) = %x", v.IKM, got)
		}
	}
}

// same fails the test when a message or key differs from the vector's.
func same(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s\n got %x\nwant %x", what, got, want)
	}
}

// allUsed fails the test when a call left some of its randomness unread.
func allUsed(t *testing.T, call string, r interface{ Remaining() int }) {
	t.Helper()
	if r.Remaining() != 0 {
		t.Fatalf("%s left %d bytes of randomness", call, r.Remaining())
	}
}
