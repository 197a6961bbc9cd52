package pqntor_test

import (
	"bytes"
	cryptorand "crypto/rand"
	"errors"
	"testing"

	"cryptobench/protocols/pqntor/internal/kat"
	"cryptobench/protocols/pqntor/pqntor"
)

var supported = []pqntor.Suite{pqntor.NTor, pqntor.PQNTorMLKEM768, pqntor.PQNTorMLKEM1024}

func newRelay(t testing.TB, s pqntor.Suite) *pqntor.RelayKeys {
	t.Helper()
	z, err := s.Sizes()
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, z.ID)
	cryptorand.Read(id)
	r, err := pqntor.GenerateRelayKeys(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRoundTrip: with system randomness (nil and crypto/rand.Reader) both
// sides agree, for every supported suite and several key lengths.
func TestRoundTrip(t *testing.T) {
	for _, s := range supported {
		relay := newRelay(t, s)
		for _, kl := range []int{1, 32, 72, 100, pqntor.MaxKeyLen} {
			for _, rnd := range []struct {
				name string
				r    interface{ Read([]byte) (int, error) }
			}{{"nil", nil}, {"crypto/rand", cryptorand.Reader}} {
				p := pqntor.Params{Suite: s, KeyLen: kl}
				st, onion, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, rnd.r)
				if err != nil {
					t.Fatal(err)
				}
				z, _ := s.Sizes()
				if len(onion) != z.Onionskin {
					t.Fatalf("%s: onionskin %d bytes", s, len(onion))
				}
				reply, skeys, err := pqntor.ServerReply(relay, p, onion, rnd.r)
				if err != nil {
					t.Fatal(err)
				}
				if len(reply) != z.Reply || len(skeys) != kl {
					t.Fatalf("%s: reply %d keys %d", s, len(reply), len(skeys))
				}
				ckeys, err := pqntor.ClientFinish(st, reply)
				if err != nil {
					t.Fatalf("%s %s L=%d: %v", s, rnd.name, kl, err)
				}
				if !bytes.Equal(ckeys, skeys) {
					t.Fatalf("%s: keys differ", s)
				}
			}
		}
	}
}

func TestDefaultParams(t *testing.T) {
	p := pqntor.DefaultParams()
	if p.Suite != pqntor.PQNTorMLKEM768 || p.KeyLen != 72 {
		t.Fatalf("%+v", p)
	}
}

// TestMLKEM512Unsupported: specified, sized, but not available in Go.
func TestMLKEM512Unsupported(t *testing.T) {
	s := pqntor.PQNTorMLKEM512
	z, err := s.Sizes()
	if err != nil || z.EK != 800 || z.CT != 768 || z.Onionskin != 896 || z.Reply != 832 {
		t.Fatalf("%+v %v", z, err)
	}
	p := pqntor.Params{Suite: s, KeyLen: 72}
	if _, _, err := pqntor.ClientCreate(make([]byte, 32), make([]byte, 32), p, nil); !errors.Is(err, pqntor.ErrUnsupported) {
		t.Fatalf("ClientCreate: %v", err)
	}
	relay := newRelay(t, s)
	if _, _, err := pqntor.ServerReply(relay, p, make([]byte, z.Onionskin), nil); !errors.Is(err, pqntor.ErrUnsupported) {
		t.Fatalf("ServerReply: %v", err)
	}
}

func TestBadParams(t *testing.T) {
	relay := newRelay(t, pqntor.PQNTorMLKEM768)
	for _, p := range []pqntor.Params{
		{Suite: 0, KeyLen: 72}, {Suite: 9, KeyLen: 72},
		{Suite: pqntor.PQNTorMLKEM768, KeyLen: 0}, {Suite: pqntor.PQNTorMLKEM768, KeyLen: -1},
		{Suite: pqntor.PQNTorMLKEM768, KeyLen: pqntor.MaxKeyLen + 1},
	} {
		if _, _, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil); !errors.Is(err, pqntor.ErrParams) {
			t.Errorf("ClientCreate(%+v): %v", p, err)
		}
		if _, _, err := pqntor.ServerReply(relay, p, make([]byte, 1280), nil); !errors.Is(err, pqntor.ErrParams) {
			t.Errorf("ServerReply(%+v): %v", p, err)
		}
	}
	p := pqntor.DefaultParams()
	// Wrong ID and B lengths for the suite.
	if _, _, err := pqntor.ClientCreate(make([]byte, 20), relay.PublicKey(), p, nil); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("20-byte ID with pq-ntor: %v", err)
	}
	if _, _, err := pqntor.ClientCreate(relay.ID(), make([]byte, 31), p, nil); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("31-byte B: %v", err)
	}
	if _, _, err := pqntor.ClientCreate(make([]byte, 32), relay.PublicKey(), pqntor.Params{Suite: pqntor.NTor, KeyLen: 72}, nil); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("32-byte ID with ntor: %v", err)
	}
	// Relay keys of the wrong kind for the suite.
	if _, _, err := pqntor.ServerReply(relay, pqntor.Params{Suite: pqntor.NTor, KeyLen: 72}, make([]byte, 84), nil); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("pq-ntor relay keys with ntor: %v", err)
	}
	if _, _, err := pqntor.ServerReply(nil, p, make([]byte, 1280), nil); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("nil relay: %v", err)
	}
	if _, err := pqntor.NewRelayKeys(make([]byte, 19), make([]byte, 32)); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("19-byte ID: %v", err)
	}
	if _, err := pqntor.NewRelayKeys(make([]byte, 32), make([]byte, 33)); !errors.Is(err, pqntor.ErrParams) {
		t.Errorf("33-byte b: %v", err)
	}
}

// TestShortRandomness: a reader that runs dry is an error, not a panic.
func TestShortRandomness(t *testing.T) {
	for _, s := range supported {
		relay := newRelay(t, s)
		p := pqntor.Params{Suite: s, KeyLen: 72}
		for n := 0; n < 96; n += 16 {
			_, _, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, kat.NewReader(make([]byte, n)))
			need := 32
			if s.IsPQ() {
				need = 96
			}
			if (err == nil) != (n >= need) || (err != nil && !errors.Is(err, pqntor.ErrRandom)) {
				t.Errorf("%s ClientCreate with %d random bytes: %v", s, n, err)
			}
		}
		_, onion, _ := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
		for _, n := range []int{0, 31, 32, 63} {
			_, _, err := pqntor.ServerReply(relay, p, onion, kat.NewReader(make([]byte, n)))
			need := 32
			if s.IsPQ() {
				need = 64
			}
			if (err == nil) != (n >= need) || (err != nil && !errors.Is(err, pqntor.ErrRandom)) {
				t.Errorf("%s ServerReply with %d random bytes: %v", s, n, err)
			}
		}
	}
}

// genuineReply runs ClientCreate and ServerReply with system randomness: a
// fresh client state and the relay's reply to it.
func genuineReply(t testing.TB, relay *pqntor.RelayKeys, p pqntor.Params) (*pqntor.ClientState, []byte) {
	t.Helper()
	st, onion, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	reply, _, err := pqntor.ServerReply(relay, p, onion, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, reply
}

// TestStateSingleUse: ClientFinish consumes the state, success or not.
func TestStateSingleUse(t *testing.T) {
	for _, s := range supported {
		relay := newRelay(t, s)
		p := pqntor.Params{Suite: s, KeyLen: 72}
		st, reply := genuineReply(t, relay, p)
		if _, err := pqntor.ClientFinish(st, reply); err != nil {
			t.Fatal(err)
		}
		if k, err := pqntor.ClientFinish(st, reply); !errors.Is(err, pqntor.ErrStateUsed) || k != nil {
			t.Fatalf("second finish: %x %v", k, err)
		}
		st, _, _ = pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
		if _, err := pqntor.ClientFinish(st, reply[:1]); !errors.Is(err, pqntor.ErrMalformed) {
			t.Fatal(err)
		}
		if _, err := pqntor.ClientFinish(st, reply); !errors.Is(err, pqntor.ErrStateUsed) {
			t.Fatalf("finish after a failed finish: %v", err)
		}
		if _, err := pqntor.ClientFinish(nil, reply); !errors.Is(err, pqntor.ErrStateUsed) {
			t.Fatal(err)
		}
	}
}

// TestEveryReplyBitFlip: flipping any single bit of the reply makes the
// client reject it and return no key.
func TestEveryReplyBitFlip(t *testing.T) {
	for _, s := range supported {
		p := pqntor.Params{Suite: s, KeyLen: 72}
		in := kat.InputsFromSeed(s, "bitflip", 72)
		relay := mustRelay(t, in)
		_, reply := mustRun(t, in)
		// Every bit for ntor; for pq-ntor every 5th bit (5 is prime to 8,
		// so every bit position within a byte is hit), to keep this quick.
		for bit := 0; bit < 8*len(reply); bit += flipStep(s, 5, 13) {
			// Recreate the same client for every flip.
			st, _, err := pqntor.ClientCreate(in.RelayID, relay.PublicKey(), p, in.ClientRand())
			if err != nil {
				t.Fatal(err)
			}
			r := bytes.Clone(reply)
			r[bit/8] ^= 1 << (bit % 8)
			if k, err := pqntor.ClientFinish(st, r); err == nil || k != nil {
				t.Fatalf("%s: reply bit %d flipped was accepted", s, bit)
			} else if !errors.Is(err, pqntor.ErrHandshakeFailed) {
				t.Fatalf("%s: reply bit %d: %v", s, bit, err)
			}
		}
	}
}

// mustRun runs in's handshake through the library: the onionskin and reply.
func mustRun(t testing.TB, in kat.Inputs) (onion, reply []byte) {
	onion, reply, _, err := kat.RunLibrary(in)
	if err != nil {
		t.Fatal(err)
	}
	return onion, reply
}

// flipStep is how many bits a bit-flip test moves on: every bit for ntor,
// every pq-th for pq-ntor (prime to 8: every position in a byte is hit), every
// short-th under -short.
func flipStep(s pqntor.Suite, pq, short int) int {
	if testing.Short() {
		return short
	}
	if s.IsPQ() {
		return pq
	}
	return 1
}

func mustRelay(t testing.TB, in kat.Inputs) *pqntor.RelayKeys {
	r, err := pqntor.NewRelayKeys(in.RelayID, in.RelayBSecret)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestOnionskinBitFlips: a flipped onionskin bit is refused by the relay or,
// if the relay answers, by the client; never do both sides get keys.
func TestOnionskinBitFlips(t *testing.T) {
	for _, s := range supported {
		in := kat.InputsFromSeed(s, "onionflip", 72)
		relay := mustRelay(t, in)
		p := pqntor.Params{Suite: s, KeyLen: 72}
		onion, _ := mustRun(t, in)
		for bit := 0; bit < 8*len(onion); bit += flipStep(s, 11, 29) {
			o := bytes.Clone(onion)
			o[bit/8] ^= 1 << (bit % 8)
			reply, skeys, err := pqntor.ServerReply(relay, p, o, in.RelayRand())
			if err != nil {
				if reply != nil || skeys != nil {
					t.Fatalf("%s bit %d: error with output", s, bit)
				}
				continue
			}
			st, _, _ := pqntor.ClientCreate(in.RelayID, relay.PublicKey(), p, in.ClientRand())
			if k, err := pqntor.ClientFinish(st, reply); err == nil || k != nil {
				t.Fatalf("%s: onionskin bit %d flipped, both sides accepted", s, bit)
			}
		}
	}
}

// TestSuiteMismatch: a message of one suite given to another is malformed.
func TestSuiteMismatch(t *testing.T) {
	for _, a := range supported {
		for _, b := range supported {
			if a == b {
				continue
			}
			ra := newRelay(t, a)
			rb := newRelay(t, b)
			pa := pqntor.Params{Suite: a, KeyLen: 72}
			pb := pqntor.Params{Suite: b, KeyLen: 72}
			st, onion, _ := pqntor.ClientCreate(ra.ID(), ra.PublicKey(), pa, nil)
			if _, _, err := pqntor.ServerReply(rb, pb, onion, nil); !errors.Is(err, pqntor.ErrMalformed) {
				t.Errorf("%s onionskin to %s relay: %v", a, b, err)
			}
			_, replyb := genuineReply(t, rb, pb)
			if _, err := pqntor.ClientFinish(st, replyb); !errors.Is(err, pqntor.ErrMalformed) {
				t.Errorf("%s reply to %s client: %v", b, a, err)
			}
		}
	}
}
