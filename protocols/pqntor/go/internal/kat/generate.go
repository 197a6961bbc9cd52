package kat

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"cryptobench/protocols/pqntor/pqntor"
)

// Hex is a byte string written as lower-case hex in JSON.
type Hex []byte

// MarshalJSON writes h as a hex string.
func (h Hex) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(h)) }

// UnmarshalJSON reads a hex string.
func (h *Hex) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	*h = d
	return nil
}

// File is one JSON file of vectors: one suite.
type File struct {
	Comment    []string    `json:"comment"`
	Suite      string      `json:"suite"`
	ProtoID    string      `json:"protoid"`
	Tags       Tags        `json:"tags"`
	Sizes      SizesJSON   `json:"sizes"`
	Draw       string      `json:"draw"`
	Vectors    []Vector    `json:"vectors"`
	KDFVectors []KDFVector `json:"kdf_vectors,omitempty"`
	Failures   []Failure   `json:"failures"`
}

// Tags are the suite's domain-separation strings (ASCII, no terminator).
type Tags struct {
	TMac    string `json:"t_mac"`
	TKey    string `json:"t_key"`
	TVerify string `json:"t_verify"`
	MExpand string `json:"m_expand"`
}

// SizesJSON are the suite's lengths in bytes.
type SizesJSON struct {
	ID          int `json:"id"`
	X25519      int `json:"x25519"`
	EK          int `json:"mlkem_ek"`
	CT          int `json:"mlkem_ct"`
	Auth        int `json:"auth"`
	Onionskin   int `json:"onionskin"`
	Reply       int `json:"reply"`
	SecretInput int `json:"secret_input"`
	AuthInput   int `json:"auth_input"`
}

// Vector is one successful handshake.
type Vector struct {
	ID            string        `json:"id"`
	Source        string        `json:"source"`
	Seed          string        `json:"seed,omitempty"`
	KeyLen        int           `json:"key_len"`
	Inputs        VInputs       `json:"inputs"`
	Intermediates Intermediates `json:"intermediates"`
	Outputs       Outputs       `json:"outputs"`
}

// VInputs are the values a handshake draws.
type VInputs struct {
	RelayID         Hex `json:"relay_id"`
	RelayBSecret    Hex `json:"relay_b_secret"`
	ClientXSecret   Hex `json:"client_x_secret"`
	ClientMLKEMSeed Hex `json:"client_mlkem_seed,omitempty"`
	RelayYSecret    Hex `json:"relay_y_secret"`
	MLKEMEncapsM    Hex `json:"mlkem_encaps_m,omitempty"`
}

// Intermediates are every value between inputs and outputs.
type Intermediates struct {
	RelayB          Hex `json:"relay_B"`
	ClientX         Hex `json:"client_X"`
	ClientEK        Hex `json:"client_mlkem_ek,omitempty"`
	RelayY          Hex `json:"relay_Y"`
	MLKEMCiphertext Hex `json:"mlkem_ciphertext,omitempty"`
	MLKEMShared     Hex `json:"mlkem_shared_secret,omitempty"`
	ExpXY           Hex `json:"exp_X_y"`
	ExpXB           Hex `json:"exp_X_b"`
	SecretInput     Hex `json:"secret_input"`
	HKDFSalt        Hex `json:"hkdf_salt"`
	HKDFIKM         Hex `json:"hkdf_ikm"`
	HKDFInfo        Hex `json:"hkdf_info"`
	KeySeed         Hex `json:"key_seed"`
	VerifyKey       Hex `json:"hmac_verify_key"`
	Verify          Hex `json:"verify"`
	AuthInput       Hex `json:"auth_input"`
	AuthKey         Hex `json:"hmac_auth_key"`
	Auth            Hex `json:"auth"`
}

// Outputs are the messages and the key material.
type Outputs struct {
	Onionskin Hex `json:"onionskin"`
	Reply     Hex `json:"reply"`
	Keys      Hex `json:"keys"`
}

// KDFVector is a check of ntor's HKDF alone.
type KDFVector struct {
	Source   string `json:"source"`
	IKMASCII string `json:"ikm_ascii"`
	Salt     string `json:"salt_ascii"`
	Info     string `json:"info_ascii"`
	Length   int    `json:"length"`
	OKM      Hex    `json:"okm"`
}

// Failure is a handshake step that must be rejected with no key returned.
type Failure struct {
	ID          string        `json:"id"`
	Base        string        `json:"base"`
	Step        string        `json:"step"` // "client-finish" or "server-reply"
	Description string        `json:"description"`
	KeyLen      int           `json:"key_len"`
	Client      *ClientInputs `json:"client,omitempty"`
	Reply       *Hex          `json:"reply,omitempty"`
	Relay       *RelayInputs  `json:"relay,omitempty"`
	Onionskin   *Hex          `json:"onionskin,omitempty"`
	Expect      string        `json:"expect"`
	ErrorClass  string        `json:"error_class"`
}

// ClientInputs recreate a client state: ClientCreate(relay_id, relay_B)
// reading client_x_secret | client_mlkem_seed.
type ClientInputs struct {
	RelayID         Hex `json:"relay_id"`
	RelayB          Hex `json:"relay_B"`
	ClientXSecret   Hex `json:"client_x_secret"`
	ClientMLKEMSeed Hex `json:"client_mlkem_seed,omitempty"`
}

// RelayInputs recreate a relay: keys (relay_id, b), reading
// relay_y_secret | mlkem_encaps_m.
type RelayInputs struct {
	RelayID      Hex `json:"relay_id"`
	RelayBSecret Hex `json:"relay_b_secret"`
	RelayYSecret Hex `json:"relay_y_secret"`
	MLKEMEncapsM Hex `json:"mlkem_encaps_m,omitempty"`
}

// Error classes of the failure vectors.
const (
	ClassMalformed       = "malformed"
	ClassUnknownRelay    = "unknown-relay"
	ClassBadKey          = "bad-key"
	ClassHandshakeFailed = "handshake-failed"
)

// ClassErr maps an error class to the package's error.
func ClassErr(class string) error {
	switch class {
	case ClassMalformed:
		return pqntor.ErrMalformed
	case ClassUnknownRelay:
		return pqntor.ErrUnknownRelay
	case ClassBadKey:
		return pqntor.ErrBadKey
	case ClassHandshakeFailed:
		return pqntor.ErrHandshakeFailed
	}
	return errors.New("unknown class " + class)
}

// TorNtorVector is the ntor test vector of Arti's tor-proto crate
// (crates/tor-proto/src/crypto/handshake/ntor.rs, test "testvec"); its relay
// ID is "iToldYouAboutStairs.", the demo node_id of Tor's src/test/ntor_ref.py.
var TorNtorVector = struct {
	Source                               string
	BSecret, B, XSecret, X, YSecret, Y   string
	ID, ClientHandshake, ServerHandshake string
	Keys                                 string
}{
	Source:          "Arti tor-proto crates/tor-proto/src/crypto/handshake/ntor.rs, test testvec (relay ID = ntor_ref.py demo node_id)",
	BSecret:         "4820544f4c4420594f5520444f474954204b454550532048415050454e494e47",
	B:               "ccbc8541904d18af08753eae967874749e6149f873de937f57f8fd903a21c471",
	XSecret:         "706f6461792069207075742e2e2e2e2e2e2e2e4a454c4c59206f6e2074686973",
	X:               "e65dfdbef8b2635837fe2cebc086a8096eae3213e6830dc407516083d412b078",
	YSecret:         "70686520737175697272656c2e2e2e2e2e2e2e2e686173206869732067616d65",
	Y:               "390480a14362761d6aec1fea840f6e9e928fb2adb7b25c670be1045e35133a37",
	ID:              "69546f6c64596f7541626f75745374616972732e",
	ClientHandshake: "69546f6c64596f7541626f75745374616972732eccbc8541904d18af08753eae967874749e6149f873de937f57f8fd903a21c471e65dfdbef8b2635837fe2cebc086a8096eae3213e6830dc407516083d412b078",
	ServerHandshake: "390480a14362761d6aec1fea840f6e9e928fb2adb7b25c670be1045e35133a371cbdf68b89923e1f85e8e18ee6e805ea333fe4849c790ffd2670bd80fec95cc8",
	Keys:            "0c62dee7f48893370d0ef896758d35729867beef1a5121df80e00f79ed349af39b51cae125719182f19d932a667dae1afbf2e336e6910e7822223e763afad0a13342157969dc6b79",
}

// TorKDFVectors are ntor's KDF (HKDF-SHA256, salt t_key, info m_expand, 100
// bytes) from Tor's src/test/test_crypto.c (test_crypto_hkdf_sha256,
// "Test vectors generated with ntor_ref.py").
var TorKDFVectors = []struct{ IKM, OKM string }{
	{"", "d3490ed48b12a48f9547861583573fe3f19aafe3f81dc7fc75eeed96d741b3290f941576c1f9f0b2d463d1ec7ab2c6bf71cdd7f826c6298c00dbfe6711635d7005f0269493edf6046cc7e7dcf6abe0d20c77cf363e8ffe358927817a3d3e73712cee28d8"},
	{"Tor", "5521492a85139a8d9107a2d5c0d9c91610d0f95989975ebee6c02a4f8d622a6cfdf9b7c7edd3832e2760ded1eac309b76f8d66c4a3c4d6225429b3a016e3c3d45911152fc87bc2de9630c3961be9fdb9f93197ea8e5977180801926d3321fa21513e59ac"},
	{"AN ALARMING ITEM TO FIND ON YOUR CREDIT-RATING STATEMENT", "a2aa9b50da7e481d30463adb8f233ff06e9571a0ca6ab6df0fb206fa34e5bc78d063fc291501beec53b36e5a0e434561200c5f8bd13e0f88b3459600b4dc21d69363e2895321c06184879d94b18f078411be70b767c7fc40679a9440a0c95ea83a23efbf"},
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TorNtorInputs returns the Tor/Arti ntor vector's inputs.
func TorNtorInputs() Inputs {
	v := TorNtorVector
	return Inputs{
		Suite:         pqntor.NTor,
		KeyLen:        len(v.Keys) / 2,
		RelayID:       mustHex(v.ID),
		RelayBSecret:  mustHex(v.BSecret),
		ClientXSecret: mustHex(v.XSecret),
		RelayYSecret:  mustHex(v.YSecret),
	}
}

// RunLibrary runs a full handshake of in through package pqntor, checking
// that each call consumes exactly its draws and that both sides agree.
func RunLibrary(in Inputs) (onionskin, reply, keys []byte, err error) {
	p := pqntor.Params{Suite: in.Suite, KeyLen: in.KeyLen}
	relay, err := pqntor.NewRelayKeys(in.RelayID, in.RelayBSecret)
	if err != nil {
		return nil, nil, nil, err
	}
	cr := in.ClientRand()
	st, onionskin, err := pqntor.ClientCreate(in.RelayID, relay.PublicKey(), p, cr)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ClientCreate: %w", err)
	}
	if cr.Remaining() != 0 {
		return nil, nil, nil, fmt.Errorf("ClientCreate left %d random bytes unread", cr.Remaining())
	}
	rr := in.RelayRand()
	reply, skeys, err := pqntor.ServerReply(relay, p, onionskin, rr)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ServerReply: %w", err)
	}
	if rr.Remaining() != 0 {
		return nil, nil, nil, fmt.Errorf("ServerReply left %d random bytes unread", rr.Remaining())
	}
	ckeys, err := pqntor.ClientFinish(st, reply)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ClientFinish: %w", err)
	}
	if !bytes.Equal(skeys, ckeys) {
		return nil, nil, nil, errors.New("client and relay keys differ")
	}
	return onionskin, reply, ckeys, nil
}

func makeVector(id, source, seed string, in Inputs) (Vector, *Trace, error) {
	tr, err := Reference(in)
	if err != nil {
		return Vector{}, nil, err
	}
	onion, reply, keys, err := RunLibrary(in)
	if err != nil {
		return Vector{}, nil, fmt.Errorf("%s: %w", id, err)
	}
	if !bytes.Equal(onion, tr.Onionskin) || !bytes.Equal(reply, tr.Reply) || !bytes.Equal(keys, tr.Keys) {
		return Vector{}, nil, fmt.Errorf("%s: package pqntor disagrees with the reference computation", id)
	}
	return Vector{
		ID: id, Source: source, Seed: seed, KeyLen: in.KeyLen,
		Inputs: VInputs{
			RelayID: in.RelayID, RelayBSecret: in.RelayBSecret, ClientXSecret: in.ClientXSecret,
			ClientMLKEMSeed: in.ClientMLKEMSeed, RelayYSecret: in.RelayYSecret, MLKEMEncapsM: in.MLKEMEncapsM,
		},
		Intermediates: Intermediates{
			RelayB: tr.RelayB, ClientX: tr.ClientX, ClientEK: tr.ClientEK, RelayY: tr.RelayY,
			MLKEMCiphertext: tr.MLKEMCiphertext, MLKEMShared: tr.MLKEMShared,
			ExpXY: tr.ExpXY, ExpXB: tr.ExpXB, SecretInput: tr.SecretInput,
			HKDFSalt: tr.TKey, HKDFIKM: tr.SecretInput, HKDFInfo: tr.MExpand, KeySeed: tr.KeySeed,
			VerifyKey: tr.TVerify, Verify: tr.Verify, AuthInput: tr.AuthInput, AuthKey: tr.TMac, Auth: tr.Auth,
		},
		Outputs: Outputs{Onionskin: tr.Onionskin, Reply: tr.Reply, Keys: tr.Keys},
	}, tr, nil
}

func flipBit(b []byte, i int, mask byte) []byte {
	c := bytes.Clone(b)
	c[i] ^= mask
	return c
}

func hexp(b []byte) *Hex { h := Hex(b); return &h }

// serverReplyFor runs an honest relay (inputs in) on a given onionskin.
func serverReplyFor(in Inputs, onionskin []byte) ([]byte, error) {
	relay, err := pqntor.NewRelayKeys(in.RelayID, in.RelayBSecret)
	if err != nil {
		return nil, err
	}
	reply, _, err := pqntor.ServerReply(relay, pqntor.Params{Suite: in.Suite, KeyLen: in.KeyLen}, onionskin, in.RelayRand())
	return reply, err
}

// onionskinFor returns the onionskin a client with inputs in, believing the
// relay is (id, B), sends.
func onionskinFor(in Inputs, id, B []byte) ([]byte, error) {
	_, o, err := pqntor.ClientCreate(id, B, pqntor.Params{Suite: in.Suite, KeyLen: in.KeyLen}, in.ClientRand())
	return o, err
}

func makeFailures(base string, in Inputs, tr *Trace) ([]Failure, error) {
	z, _ := in.Suite.Sizes()
	client := &ClientInputs{RelayID: in.RelayID, RelayB: tr.RelayB, ClientXSecret: in.ClientXSecret, ClientMLKEMSeed: in.ClientMLKEMSeed}
	relay := &RelayInputs{RelayID: in.RelayID, RelayBSecret: in.RelayBSecret, RelayYSecret: in.RelayYSecret, MLKEMEncapsM: in.MLKEMEncapsM}
	var out []Failure
	cf := func(id, desc, class string, c *ClientInputs, reply []byte) {
		out = append(out, Failure{ID: base + "/" + id, Base: base, Step: "client-finish", Description: desc,
			KeyLen: in.KeyLen, Client: c, Reply: hexp(reply), Expect: "reject", ErrorClass: class})
	}
	sf := func(id, desc, class string, onionskin []byte) {
		out = append(out, Failure{ID: base + "/" + id, Base: base, Step: "server-reply", Description: desc,
			KeyLen: in.KeyLen, Relay: relay, Onionskin: hexp(onionskin), Expect: "reject", ErrorClass: class})
	}
	r := tr.Reply
	authOff := X25519Off + z.CT

	// Client-side: the reply is altered.
	cf("auth-first-bit", "AUTH with bit 0 of its first byte flipped", ClassHandshakeFailed, client, flipBit(r, authOff, 0x01))
	cf("auth-last-bit", "AUTH with bit 7 of its last byte flipped", ClassHandshakeFailed, client, flipBit(r, len(r)-1, 0x80))
	if in.Suite.IsPQ() {
		cf("ct-first-bit", "ML-KEM ciphertext with bit 0 of its first byte flipped (implicit rejection, then AUTH mismatch)", ClassHandshakeFailed, client, flipBit(r, X25519Off, 0x01))
		cf("ct-last-bit", "ML-KEM ciphertext with bit 7 of its last byte flipped", ClassHandshakeFailed, client, flipBit(r, authOff-1, 0x80))
	}
	cf("y-first-bit", "Y with bit 0 of its first byte flipped", ClassHandshakeFailed, client, flipBit(r, 0, 0x01))
	cf("y-high-bit", "Y with bit 255 flipped: X25519 ignores that bit (RFC 7748), so EXP(Y,x) is unchanged, but Y enters secret_input and auth_input as received, so AUTH fails", ClassHandshakeFailed, client, flipBit(r, 31, 0x80))
	zeroY := bytes.Clone(r)
	copy(zeroY, make([]byte, 32))
	cf("y-zero", "Y = 0 (low order): EXP(Y,x) is all-zero", ClassHandshakeFailed, client, zeroY)
	oneY := bytes.Clone(zeroY)
	oneY[0] = 1
	cf("y-one", "Y = 1 (low order): EXP(Y,x) is all-zero", ClassHandshakeFailed, client, oneY)
	cf("reply-truncated", "reply one byte short", ClassMalformed, client, r[:len(r)-1])
	cf("reply-extended", "reply with one extra zero byte", ClassMalformed, client, append(bytes.Clone(r), 0))
	cf("reply-empty", "empty reply", ClassMalformed, client, []byte{})

	// Client-side: the onionskin was altered in transit, the relay answered
	// the altered one, and the client must notice.
	badID := flipBit(in.RelayID, 0, 0x01)
	o, err := onionskinFor(in, badID, tr.RelayB)
	if err != nil {
		return nil, err
	}
	copy(o, in.RelayID) // the attacker restores the real ID so the relay answers
	rep, err := serverReplyFor(in, o)
	if err != nil {
		return nil, fmt.Errorf("id-tampered: %w", err)
	}
	// Each failure keeps a pointer to its own copy: reusing one variable for
	// id-tampered and b-tampered made both record b-tampered's client.
	cID := *client
	cID.RelayID = badID
	cf("id-tampered", "client believes relay ID with bit 0 of byte 0 flipped; in transit the ID was rewritten to the relay's, which replied; the client's ID differs from the relay's", ClassHandshakeFailed, &cID, rep)

	badB := flipBit(tr.RelayB, 0, 0x01)
	if o, err = onionskinFor(in, in.RelayID, badB); err != nil {
		return nil, err
	}
	copy(o[z.ID:], tr.RelayB)
	if rep, err = serverReplyFor(in, o); err != nil {
		return nil, fmt.Errorf("b-tampered: %w", err)
	}
	cB := *client
	cB.RelayB = badB
	cf("b-tampered", "client believes onion key B with bit 0 of byte 0 flipped; in transit B was rewritten to the relay's, which replied", ClassHandshakeFailed, &cB, rep)

	if rep, err = serverReplyFor(in, flipBit(tr.Onionskin, z.ID+32, 0x01)); err != nil {
		return nil, fmt.Errorf("x-tampered: %w", err)
	}
	cf("x-tampered", "X (bit 0 of its first byte) flipped in transit; the relay answered the altered onionskin", ClassHandshakeFailed, client, rep)

	if in.Suite.IsPQ() {
		ekOff := z.ID + 64
		var done bool
		for i := 0; i < z.EK && !done; i++ {
			o := flipBit(tr.Onionskin, ekOff+i, 0x01)
			if rep, err = serverReplyFor(in, o); err != nil {
				continue // this flip broke the modulus check; try the next byte
			}
			cf("ek-tampered", fmt.Sprintf("ML-KEM encapsulation key bit 0 of byte %d flipped in transit (still a valid key); the relay answered the altered onionskin", i), ClassHandshakeFailed, client, rep)
			done = true
		}
		if !done {
			return nil, errors.New("no valid EK bit flip found")
		}
	}

	// Relay-side: the onionskin is malformed or not for this relay.
	o = tr.Onionskin
	sf("onionskin-truncated", "onionskin one byte short", ClassMalformed, o[:len(o)-1])
	sf("onionskin-extended", "onionskin with one extra zero byte", ClassMalformed, append(bytes.Clone(o), 0))
	sf("onionskin-empty", "empty onionskin", ClassMalformed, []byte{})
	sf("id-first-bit", "relay ID with bit 0 of its first byte flipped", ClassUnknownRelay, flipBit(o, 0, 0x01))
	sf("b-first-bit", "onion key B with bit 0 of its first byte flipped", ClassUnknownRelay, flipBit(o, z.ID, 0x01))
	xOff := z.ID + 32
	setX := func(x []byte) []byte { c := bytes.Clone(o); copy(c[xOff:xOff+32], x); return c }
	sf("x-zero", "X = 0 (low order): EXP(X,y) is all-zero", ClassBadKey, setX(make([]byte, 32)))
	one := make([]byte, 32)
	one[0] = 1
	sf("x-one", "X = 1 (low order): EXP(X,y) is all-zero", ClassBadKey, setX(one))
	p := mustHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	sf("x-p", "X = 2^255-19, a non-canonical encoding of 0: EXP(X,y) is all-zero", ClassBadKey, setX(p))
	if in.Suite.IsPQ() {
		// First 12-bit coefficient := 3329 = q (0xD01): fails the modulus check.
		c := bytes.Clone(o)
		ekOff := z.ID + 64
		c[ekOff] = 0x01
		c[ekOff+1] = (c[ekOff+1] & 0xF0) | 0x0D
		sf("ek-modulus", "ML-KEM encapsulation key whose first coefficient is q = 3329: fails the FIPS 203 section 7.2 modulus check", ClassBadKey, c)
	}

	// Every failure must really fail in package pqntor, with its class.
	for _, f := range out {
		if err := CheckFailure(in.Suite, f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// X25519Off is the offset of CT in a reply (after Y).
const X25519Off = 32

// CheckFailure runs a failure vector through package pqntor and returns an
// error unless it is rejected, with nothing returned, in its error class.
func CheckFailure(s pqntor.Suite, f Failure) error {
	p := pqntor.Params{Suite: s, KeyLen: f.KeyLen}
	want := ClassErr(f.ErrorClass)
	switch f.Step {
	case "client-finish":
		st, _, err := pqntor.ClientCreate(f.Client.RelayID, f.Client.RelayB, p, NewReader(f.Client.ClientXSecret, f.Client.ClientMLKEMSeed))
		if err != nil {
			return fmt.Errorf("%s: ClientCreate: %w", f.ID, err)
		}
		keys, err := pqntor.ClientFinish(st, *f.Reply)
		if err == nil || keys != nil {
			return fmt.Errorf("%s: ClientFinish accepted (keys %x)", f.ID, keys)
		}
		if !errors.Is(err, want) {
			return fmt.Errorf("%s: ClientFinish error %v, want class %s", f.ID, err, f.ErrorClass)
		}
	case "server-reply":
		relay, err := pqntor.NewRelayKeys(f.Relay.RelayID, f.Relay.RelayBSecret)
		if err != nil {
			return err
		}
		reply, keys, err := pqntor.ServerReply(relay, p, *f.Onionskin, NewReader(f.Relay.RelayYSecret, f.Relay.MLKEMEncapsM))
		if err == nil || reply != nil || keys != nil {
			return fmt.Errorf("%s: ServerReply accepted", f.ID)
		}
		if !errors.Is(err, want) {
			return fmt.Errorf("%s: ServerReply error %v, want class %s", f.ID, err, f.ErrorClass)
		}
	default:
		return fmt.Errorf("%s: unknown step %q", f.ID, f.Step)
	}
	return nil
}

// VectorKeyLens are the key lengths of the seeded vectors 1, 2, 3 of each
// suite: Tor's 72, one HKDF block, and a length that ends inside a block.
var VectorKeyLens = []int{72, 32, 200}

// GeneratedSuites are the suites vectors are made for (Go has no ML-KEM-512).
var GeneratedSuites = []pqntor.Suite{pqntor.NTor, pqntor.PQNTorMLKEM768, pqntor.PQNTorMLKEM1024}

// FileName is the vector file of a suite.
func FileName(s pqntor.Suite) string { return s.String() + ".json" }

// GenerateFile builds the vector file of one suite.
func GenerateFile(s pqntor.Suite) (*File, error) {
	z, err := s.Sizes()
	if err != nil {
		return nil, err
	}
	pid := s.ProtoID()
	f := &File{
		Comment: []string{
			"cryptobench " + s.String() + " test vectors; specification: docs/pq-ntor.md. Generated by protocols/pqntor/go/cmd/genvectors; do not edit.",
			"All byte strings are hex. Each seeded vector's inputs are DRAW(seed, label, n) (see 'draw'); labels: relay_id=" + LabelRelayID + ", relay_b_secret=" + LabelRelayB + ", client_x_secret=" + LabelClientX + ", client_mlkem_seed=" + LabelClientMLKEM + ", relay_y_secret=" + LabelRelayY + ", mlkem_encaps_m=" + LabelEncapsM + ".",
			"Replay a vector: relay keys (relay_id, relay_b_secret); ClientCreate(relay_id, relay_B) with randomness client_x_secret | client_mlkem_seed; ServerReply(onionskin) with randomness relay_y_secret | mlkem_encaps_m; ClientFinish(reply). Compare onionskin, reply and keys, and every intermediate.",
			"Failures: step client-finish = recreate the client from 'client' (same randomness rule) and finish with 'reply'; step server-reply = relay from 'relay' answering 'onionskin'. Each must be rejected and return no key material; error_class is the reason this implementation reports.",
		},
		Suite:   s.String(),
		ProtoID: pid,
		Tags:    Tags{TMac: pid + ":mac", TKey: pid + ":key_extract", TVerify: pid + ":verify", MExpand: pid + ":key_expand"},
		Sizes: SizesJSON{ID: z.ID, X25519: 32, EK: z.EK, CT: z.CT, Auth: 32, Onionskin: z.Onionskin, Reply: z.Reply,
			SecretInput: secretInputLen(s, z),
			AuthInput:   32 + z.ID + 3*32 + z.CT + z.EK + len(pid) + len("Server")},
		Draw: "DRAW(seed, label, n) = first n bytes of SHAKE-256(ENCAP(\"" + DrawDomain + "\") | ENCAP(seed) | ENCAP(label)), ENCAP(s) = 8-byte big-endian len(s) | s",
	}
	if s == pqntor.NTor {
		v, _, err := makeVector("ntor-tor-arti-testvec", TorNtorVector.Source, "", TorNtorInputs())
		if err != nil {
			return nil, err
		}
		tv := TorNtorVector
		if hex.EncodeToString(v.Outputs.Onionskin) != tv.ClientHandshake || hex.EncodeToString(v.Outputs.Reply) != tv.ServerHandshake ||
			hex.EncodeToString(v.Outputs.Keys) != tv.Keys || hex.EncodeToString(v.Intermediates.RelayB) != tv.B ||
			hex.EncodeToString(v.Intermediates.ClientX) != tv.X || hex.EncodeToString(v.Intermediates.RelayY) != tv.Y {
			return nil, errors.New("ntor does not reproduce Tor's published ntor test vector")
		}
		f.Vectors = append(f.Vectors, v)
		for _, k := range TorKDFVectors {
			_, okm := hkdfRFC5869([]byte(k.IKM), []byte(pid+":key_extract"), []byte(pid+":key_expand"), 100)
			if hex.EncodeToString(okm) != k.OKM {
				return nil, fmt.Errorf("ntor KDF does not reproduce Tor's vector for %q", k.IKM)
			}
			f.KDFVectors = append(f.KDFVectors, KDFVector{
				Source:   "Tor src/test/test_crypto.c test_crypto_hkdf_sha256 (generated with ntor_ref.py)",
				IKMASCII: k.IKM, Salt: pid + ":key_extract", Info: pid + ":key_expand", Length: 100, OKM: okm})
		}
	}
	for i, kl := range VectorKeyLens {
		seed := fmt.Sprintf("%s/%d", s, i+1)
		in := InputsFromSeed(s, seed, kl)
		v, tr, err := makeVector(seed, "DRAW with seed "+seed, seed, in)
		if err != nil {
			return nil, err
		}
		f.Vectors = append(f.Vectors, v)
		if i == 0 {
			if f.Failures, err = makeFailures(seed, in, tr); err != nil {
				return nil, err
			}
		}
	}
	if len(f.Vectors[0].Intermediates.SecretInput) != f.Sizes.SecretInput || len(f.Vectors[0].Intermediates.AuthInput) != f.Sizes.AuthInput {
		return nil, errors.New("size bookkeeping is wrong")
	}
	return f, nil
}

// Generate returns every vector file, by file name, as indented JSON.
func Generate() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range GeneratedSuites {
		f, err := GenerateFile(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		b, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			return nil, err
		}
		out[FileName(s)] = append(b, '\n')
	}
	return out, nil
}

// secretInputLen is len(secret_input): EXP(X,y), EXP(X,b), K (pq-ntor only),
// ID, B, X, EK, Y, CT and PROTOID.
func secretInputLen(s pqntor.Suite, z pqntor.Sizes) int {
	n := 2*32 + z.ID + 3*32 + z.EK + z.CT + len(s.ProtoID())
	if s.IsPQ() {
		n += 32
	}
	return n
}
