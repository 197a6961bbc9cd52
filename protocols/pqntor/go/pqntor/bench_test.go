package pqntor_test

import (
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/mlkem"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"fmt"
	"testing"

	"cryptobench/protocols/pqntor/pqntor"
)

// BenchmarkHandshake times each protocol step (docs/pq-ntor.md, "Measuring
// it") with system randomness, as a production caller would run it.
func BenchmarkHandshake(b *testing.B) {
	for _, s := range supported {
		relay := newRelay(b, s)
		p := pqntor.Params{Suite: s, KeyLen: pqntor.DefaultKeyLen}
		_, onion, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.String()+"/client-create", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.String()+"/server-reply", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := pqntor.ServerReply(relay, p, onion, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(s.String()+"/client-finish", func(b *testing.B) {
			// A state is single-use: make a batch outside the timer.
			const batch = 64
			sts := make([]*pqntor.ClientState, batch)
			replies := make([][]byte, batch)
			i := batch
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				if i == batch {
					b.StopTimer()
					for j := range sts {
						var o []byte
						sts[j], o, _ = pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
						replies[j], _, _ = pqntor.ServerReply(relay, p, o, nil)
					}
					i = 0
					b.StartTimer()
				}
				if _, err := pqntor.ClientFinish(sts[i], replies[i]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(s.String()+"/full", func(b *testing.B) {
			for b.Loop() {
				st, o, _ := pqntor.ClientCreate(relay.ID(), relay.PublicKey(), p, nil)
				r, _, err := pqntor.ServerReply(relay, p, o, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := pqntor.ClientFinish(st, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrimitives times the primitive operations the steps are made of,
// at the sizes the handshakes use them.
func BenchmarkPrimitives(b *testing.B) {
	x := ecdh.X25519()
	k1, _ := x.GenerateKey(cryptorand.Reader)
	k2, _ := x.GenerateKey(cryptorand.Reader)
	sk := make([]byte, 32)
	cryptorand.Read(sk)
	b.Run("x25519-keygen", func(b *testing.B) {
		for b.Loop() {
			k, _ := x.NewPrivateKey(sk)
			_ = k.PublicKey()
		}
	})
	b.Run("x25519-derive", func(b *testing.B) {
		for b.Loop() {
			if _, err := k1.ECDH(k2.PublicKey()); err != nil {
				b.Fatal(err)
			}
		}
	})
	benchMLKEM(b, "mlkem768", mlkem.GenerateKey768, mlkem.NewEncapsulationKey768)
	benchMLKEM(b, "mlkem1024", mlkem.GenerateKey1024, mlkem.NewEncapsulationKey1024)
	// HMAC-SHA256 at the secret_input / auth_input sizes of each suite, and
	// HKDF-Expand of the default 72 bytes.
	for _, n := range []int{178, 204, 2469, 2527, 3334, 3392} {
		msg := make([]byte, n)
		key := []byte("pqntor-x25519-mlkem768-sha256-1:verify")
		b.Run(fmt.Sprintf("hmac-sha256-%dB", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				h := hmac.New(sha256.New, key)
				h.Write(msg)
				h.Sum(nil)
			}
		})
	}
	prk := make([]byte, 32)
	b.Run("hkdf-expand-72B", func(b *testing.B) {
		for b.Loop() {
			if _, err := hkdf.Expand(sha256.New, prk, "pqntor-x25519-mlkem768-sha256-1:key_expand", 72); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// mlkemKey is what the ML-KEM benchmarks need of a decapsulation key of
// either parameter set (crypto/mlkem has one type per set).
type mlkemKey[EK interface{ Encapsulate() ([]byte, []byte) }] interface {
	EncapsulationKey() EK
	Decapsulate(ciphertext []byte) ([]byte, error)
}

// benchMLKEM times one parameter set's keygen (with encoding the EK), encaps
// (including parsing the EK, as a relay does) and decaps.
func benchMLKEM[EK interface {
	Encapsulate() ([]byte, []byte)
	Bytes() []byte
}, DK mlkemKey[EK]](b *testing.B, name string, generate func() (DK, error), parseEK func([]byte) (EK, error)) {
	dk, _ := generate()
	ek := dk.EncapsulationKey().Bytes()
	_, ct := dk.EncapsulationKey().Encapsulate()
	b.Run(name+"-keygen", func(b *testing.B) {
		for b.Loop() {
			k, _ := generate()
			_ = k.EncapsulationKey().Bytes()
		}
	})
	b.Run(name+"-encaps", func(b *testing.B) { // includes parsing EK
		for b.Loop() {
			k, err := parseEK(ek)
			if err != nil {
				b.Fatal(err)
			}
			k.Encapsulate()
		}
	})
	b.Run(name+"-decaps", func(b *testing.B) {
		for b.Loop() {
			dk.Decapsulate(ct)
		}
	})
}
