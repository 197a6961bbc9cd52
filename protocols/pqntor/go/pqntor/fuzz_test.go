package pqntor_test

import (
	"bytes"
	"errors"
	"testing"

	"cryptobench/protocols/pqntor/internal/kat"
	"cryptobench/protocols/pqntor/pqntor"
)

// fuzzFixture is one suite's fixed relay, client inputs and genuine messages.
type fuzzFixture struct {
	s      pqntor.Suite
	in     kat.Inputs
	relay  *pqntor.RelayKeys
	onion  []byte
	reply  []byte
	params pqntor.Params
	state  *pqntor.ClientState // unused; clone it per input
}

// fuzzEach fuzzes check with every fixture: the seed corpus is, for every
// fixture, its genuine message, one byte short, one byte long and empty; an
// input's first byte picks the fixture, given to check with its sizes.
func fuzzEach(f *testing.F, genuine func(fuzzFixture) []byte, check func(*testing.T, fuzzFixture, pqntor.Sizes, []byte)) {
	fx := fixtures(f)
	for i, x := range fx {
		m := genuine(x)
		f.Add(uint8(i), m)
		f.Add(uint8(i), m[:len(m)-1])
		f.Add(uint8(i), append(bytes.Clone(m), 0))
		f.Add(uint8(i), []byte{})
	}
	f.Fuzz(func(t *testing.T, which uint8, msg []byte) {
		x := fx[int(which)%len(fx)]
		z, _ := x.s.Sizes()
		check(t, x, z, msg)
	})
}

func fixtures(tb testing.TB) []fuzzFixture {
	tb.Helper()
	var fx []fuzzFixture
	for _, s := range supported {
		in := kat.InputsFromSeed(s, "fuzz", 72)
		onion, reply, _, err := kat.RunLibrary(in)
		if err != nil {
			tb.Fatal(err)
		}
		relay, err := pqntor.NewRelayKeys(in.RelayID, in.RelayBSecret)
		if err != nil {
			tb.Fatal(err)
		}
		p := pqntor.Params{Suite: s, KeyLen: 72}
		st, _, err := pqntor.ClientCreate(in.RelayID, relay.PublicKey(), p, in.ClientRand())
		if err != nil {
			tb.Fatal(err)
		}
		fx = append(fx, fuzzFixture{s, in, relay, onion, reply, p, st})
	}
	return fx
}

// FuzzServerReply: any byte string given to the relay as an onionskin gives
// either an error and nothing else, or a reply and keys of the right sizes;
// wrong lengths are always ErrMalformed; never a panic.
func FuzzServerReply(f *testing.F) {
	fuzzEach(f, func(x fuzzFixture) []byte { return x.onion }, func(t *testing.T, x fuzzFixture, z pqntor.Sizes, onion []byte) {
		reply, keys, err := pqntor.ServerReply(x.relay, x.params, onion, x.in.RelayRand())
		if err != nil {
			if reply != nil || keys != nil {
				t.Fatalf("error %v with output", err)
			}
			if len(onion) != z.Onionskin && !errors.Is(err, pqntor.ErrMalformed) {
				t.Fatalf("length %d: %v, want ErrMalformed", len(onion), err)
			}
			return
		}
		if len(onion) != z.Onionskin || len(reply) != z.Reply || len(keys) != x.params.KeyLen {
			t.Fatalf("accepted onionskin %d bytes; reply %d keys %d", len(onion), len(reply), len(keys))
		}
	})
}

// FuzzClientFinish: the client accepts exactly the genuine reply; any other
// byte string is an error with no key (wrong lengths: ErrMalformed); never a
// panic.
func FuzzClientFinish(f *testing.F) {
	fuzzEach(f, func(x fuzzFixture) []byte { return x.reply }, func(t *testing.T, x fuzzFixture, z pqntor.Sizes, reply []byte) {
		keys, err := pqntor.ClientFinish(pqntor.CloneStateForTest(x.state), reply)
		if err != nil {
			if keys != nil {
				t.Fatalf("error %v with keys", err)
			}
			if len(reply) != z.Reply && !errors.Is(err, pqntor.ErrMalformed) {
				t.Fatalf("length %d: %v, want ErrMalformed", len(reply), err)
			}
			return
		}
		if !bytes.Equal(reply, x.reply) {
			t.Fatalf("accepted a reply that is not the relay's: %x", reply)
		}
		if len(keys) != x.params.KeyLen {
			t.Fatalf("keys %d bytes", len(keys))
		}
	})
}
