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
	dk768, _ := mlkem.GenerateKey768()
	ek768 := dk768.EncapsulationKey().Bytes()
	_, ct768 := dk768.EncapsulationKey().Encapsulate()
	b.Run("mlkem768-keygen", func(b *testing.B) {
		for b.Loop() {
			dk, _ := mlkem.GenerateKey768()
			_ = dk.EncapsulationKey().Bytes()
		}
	})
	b.Run("mlkem768-encaps", func(b *testing.B) { // includes parsing EK
		for b.Loop() {
			ek, err := mlkem.NewEncapsulationKey768(ek768)
			if err != nil {
				b.Fatal(err)
			}
			ek.Encapsulate()
		}
	})
	b.Run("mlkem768-decaps", func(b *testing.B) {
		for b.Loop() {
			dk768.Decapsulate(ct768)
		}
	})
	dk1024, _ := mlkem.GenerateKey1024()
	ek1024 := dk1024.EncapsulationKey().Bytes()
	_, ct1024 := dk1024.EncapsulationKey().Encapsulate()
	b.Run("mlkem1024-keygen", func(b *testing.B) {
		for b.Loop() {
			dk, _ := mlkem.GenerateKey1024()
			_ = dk.EncapsulationKey().Bytes()
		}
	})
	b.Run("mlkem1024-encaps", func(b *testing.B) {
		for b.Loop() {
			ek, err := mlkem.NewEncapsulationKey1024(ek1024)
			if err != nil {
				b.Fatal(err)
			}
			ek.Encapsulate()
		}
	})
	b.Run("mlkem1024-decaps", func(b *testing.B) {
		for b.Loop() {
			dk1024.Decapsulate(ct1024)
		}
	})
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
