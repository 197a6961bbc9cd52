package main

// go:circl — github.com/cloudflare/circl (pinned in go.mod), Cloudflare's
// post-quantum and elliptic-curve library in pure Go (with amd64 assembly
// for some primitives): X-Wing (kem/xwing), ML-KEM-512/768/1024
// (kem/mlkem), the TLS hybrid X25519MLKEM768 (kem/hybrid), ML-DSA-44/65/87
// (sign/mldsa) and SLH-DSA, all 12 FIPS 205 sets (sign/slhdsa).
//
// Keys in protocol.md's encodings: KEMs keep the seed they were derived
// from (ML-KEM d‖z, X-Wing's 32 bytes; for X25519MLKEM768 circl's own
// 64-byte seed, SHAKE256-expanded into both halves: "the library's own",
// never handed to another provider), ML-DSA the 32-byte ξ, SLH-DSA circl's
// own marshalling, which is FIPS 205's SK.seed‖SK.prf‖PK.seed‖PK.root.

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"encoding"
	"fmt"
	"runtime"

	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/hybrid"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/kem/xwing"
	"github.com/cloudflare/circl/sign"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
	"github.com/cloudflare/circl/sign/slhdsa"
)

const circlModule = "github.com/cloudflare/circl"

func init() {
	algs := []*Alg{
		noopAlg(),
		kemAlg(circlKEMScheme("x-wing", xwing.Scheme(), true)),
		kemAlg(circlKEMScheme("ml-kem-512", mlkem512.Scheme(), true)),
		kemAlg(circlKEMScheme("ml-kem-768", mlkem768.Scheme(), true)),
		kemAlg(circlKEMScheme("ml-kem-1024", mlkem1024.Scheme(), true)),
		kemAlg(circlKEMScheme("x25519mlkem768", hybrid.X25519MLKEM768(), false)),
		sigAlg(mldsaScheme("ml-dsa-44", mldsa44.Scheme(), mldsa44.SignatureSize,
			func(sk sign.PrivateKey, msg, ctx []byte, r bool, sig []byte) error {
				return mldsa44.SignTo(sk.(*mldsa44.PrivateKey), msg, ctx, r, sig)
			},
			func(pk sign.PublicKey, msg, ctx, sig []byte) bool {
				return mldsa44.Verify(pk.(*mldsa44.PublicKey), msg, ctx, sig)
			})),
		sigAlg(mldsaScheme("ml-dsa-65", mldsa65.Scheme(), mldsa65.SignatureSize,
			func(sk sign.PrivateKey, msg, ctx []byte, r bool, sig []byte) error {
				return mldsa65.SignTo(sk.(*mldsa65.PrivateKey), msg, ctx, r, sig)
			},
			func(pk sign.PublicKey, msg, ctx, sig []byte) bool {
				return mldsa65.Verify(pk.(*mldsa65.PublicKey), msg, ctx, sig)
			})),
		sigAlg(mldsaScheme("ml-dsa-87", mldsa87.Scheme(), mldsa87.SignatureSize,
			func(sk sign.PrivateKey, msg, ctx []byte, r bool, sig []byte) error {
				return mldsa87.SignTo(sk.(*mldsa87.PrivateKey), msg, ctx, r, sig)
			},
			func(pk sign.PublicKey, msg, ctx, sig []byte) bool {
				return mldsa87.Verify(pk.(*mldsa87.PublicKey), msg, ctx, sig)
			})),
	}
	for _, h := range []string{"sha2", "shake"} {
		for _, p := range []string{"128s", "128f", "192s", "192f", "256s", "256f"} {
			algs = append(algs, sigAlg(slhdsaScheme(h, p)))
		}
	}
	registerProvider(&Provider{
		ID:       "go:circl",
		Language: "go",
		Library:  circlModule,
		Version: func() string {
			return circlModule + " " + moduleVersion(circlModule) + " on " + runtime.Version()
		},
		Notes: []string{
			"X-Wing: kem/xwing (draft-connolly-cfrg-xwing-kem, final): keygen = Scheme().DeriveKeyPair(32 random bytes) (the seed is the private key; DeriveKeyPair expands it once: ML-KEM-768 keys and the X25519 key are kept expanded, so decaps does not re-expand it, unlike noble); encaps = Scheme().Encapsulate(pk) (64 bytes of eseed from crypto/rand inside); decaps = Scheme().Decapsulate(sk, ct). Verify cases: keygen from the seed, encaps with the 64-byte eseed through EncapsulateDeterministically.",
			"ML-KEM (kem/mlkem/mlkem512/768/1024, FIPS 203): keygen = DeriveKeyPair(64 random bytes d‖z); encaps = Encapsulate(pk) (m from crypto/rand inside, the encapsulation key unpacked once per cell); decaps = Decapsulate(sk, ct) with the expanded key made once per cell. Deterministic encapsulation (verify cases) through EncapsulateDeterministically(pk, m).",
			"X25519MLKEM768 (kem/hybrid, the TLS 1.3 hybrid share as a KEM, plain concatenation: public ML-KEM-768 ek ‖ X25519, ciphertext ML-KEM ct ‖ X25519, shared secret ML-KEM ‖ X25519, 64 bytes): keygen = DeriveKeyPair(64 random bytes), circl SHAKE256-expanding the seed into both halves, so the private key (that seed) is circl's own; encaps = Encapsulate(pk) (an ephemeral X25519 key and m from crypto/rand inside). No deterministic encapsulation or seeded keygen cases (circl's seed expansion is its own). kem/hybrid has no SecP256r1MLKEM768 or SecP384r1MLKEM1024 (only the pre-standard P256Kyber768Draft00), so those are not offered.",
			"ML-DSA (sign/mldsa/mldsa44/65/87, FIPS 204, pure): keygen = Scheme().DeriveKey(32 random bytes ξ); sign = SignTo(sk, msg, ctx, randomized=true, sig) into a new signature-sized slice per operation (hedged, empty context); verify = Verify(pk, msg, ctx, sig). Verify cases: deterministic signing (randomized=false), contexts, keygen from ξ.",
			"SLH-DSA (sign/slhdsa, FIPS 205, all 12 sets, pure): keygen = GenerateKey(crypto/rand.Reader, id) (reads SK.seed, SK.prf, PK.seed in that order, so a keygen case feeds the 3n-byte seed through a bytes.Reader); sign = SignRandomized(sk, crypto/rand.Reader, NewMessage(msg), nil) (hedged: n random bytes per signature), verify = Verify(pk, NewMessage(msg), sig, nil); deterministic cases use SignDeterministic (opt_rand = PK.seed). Keys marshalled with MarshalBinary/UnmarshalBinary (FIPS 205's encodings). A 's' set signs in a fraction of a second to seconds: a verify cell's one signature costs that much to prepare.",
			"Not offered here although circl has them: Kyber (round 3) and the Kyber hybrids, FrodoKEM, HPKE, Ed25519/Ed448/X25519/X448 (left to go:stdlib and others), BLS, the SHA-3/SHAKE/cSHAKE of internal/sha3, HashSLH-DSA (pre-hash).",
			"runtime.GC() once per cell before the warm-up; the garbage collector stays on (GOGC default).",
			"Build: " + buildSettings(),
		},
		Algs: algs,
	})
}

// ---- KEMs: circl's kem.Scheme behind crypto.Decapsulator/Encapsulator ------

type circlKEMPub struct {
	sch kem.Scheme
	pk  kem.PublicKey
	enc []byte
}

func (p *circlKEMPub) Bytes() []byte { return p.enc }

// Encapsulate returns nothing when circl refuses (e.g. an X25519 share that
// gives the all-zero secret); the cells and cases treat that as a failure.
func (p *circlKEMPub) Encapsulate() (sharedKey, ciphertext []byte) {
	ct, ss, err := p.sch.Encapsulate(p.pk)
	if err != nil {
		return nil, nil
	}
	return ss, ct
}

type circlKEMPriv struct {
	sch  kem.Scheme
	seed []byte
	sk   kem.PrivateKey
	pub  *circlKEMPub
}

func (k *circlKEMPriv) Bytes() []byte                         { return k.seed }
func (k *circlKEMPriv) Encapsulator() crypto.Encapsulator     { return k.pub }
func (k *circlKEMPriv) Decapsulate(ct []byte) ([]byte, error) { return k.sch.Decapsulate(k.sk, ct) }

// circlKEMScheme: deterministic says whether the protocol's `m` (ML-KEM's
// 32 bytes, X-Wing's 64) is circl's encapsulation seed, so the vectors'
// deterministic encapsulations can be run.
// circlSeeded is circl's key pair of a seed (checked against the scheme's
// seed size) and the public key's encoding.
func circlSeeded[PK encoding.BinaryMarshaler, SK any](name string, seed []byte, size int, derive func([]byte) (PK, SK)) (pk PK, sk SK, enc []byte, err error) {
	if err = checkLen(name+" seed", seed, size); err != nil {
		return pk, sk, nil, err
	}
	pk, sk = derive(seed)
	enc, err = pk.MarshalBinary()
	return pk, sk, enc, err
}

func circlKEMScheme(name string, sch kem.Scheme, deterministic bool) kemScheme {
	fromSeed := func(seed []byte) (kemPrivate, error) {
		pk, sk, enc, err := circlSeeded(name, seed, sch.SeedSize(), sch.DeriveKeyPair)
		if err != nil {
			return nil, err
		}
		return &circlKEMPriv{sch: sch, seed: bytes.Clone(seed), sk: sk, pub: &circlKEMPub{sch, pk, enc}}, nil
	}
	s := kemScheme{
		name: name,
		generate: func() (kemPrivate, error) {
			seed := make([]byte, sch.SeedSize())
			if _, err := rand.Read(seed); err != nil {
				return nil, err
			}
			return fromSeed(seed)
		},
		fromSeed: fromSeed,
		parsePublic: func(b []byte) (crypto.Encapsulator, error) {
			pk, err := sch.UnmarshalBinaryPublicKey(b)
			if err != nil {
				return nil, err
			}
			return &circlKEMPub{sch, pk, bytes.Clone(b)}, nil
		},
	}
	if deterministic {
		s.encapsDet = func(ek crypto.Encapsulator, m []byte) ([]byte, []byte, error) {
			if len(m) != sch.EncapsulationSeedSize() {
				return nil, nil, fmt.Errorf("%s: m must be %d bytes", name, sch.EncapsulationSeedSize())
			}
			ct, ss, err := sch.EncapsulateDeterministically(ek.(*circlKEMPub).pk, m)
			return ss, ct, err
		}
	}
	return s
}

// ---- ML-DSA -----------------------------------------------------------------

type mldsaKey struct {
	seed    []byte
	pk      sign.PublicKey
	sk      sign.PrivateKey
	pubEnc  []byte
	sigSize int
	signTo  func(sk sign.PrivateKey, msg, ctx []byte, randomized bool, sig []byte) error
	verify  func(pk sign.PublicKey, msg, ctx, sig []byte) bool
}

type mldsaPub struct{ k *mldsaKey }

func (k *mldsaKey) encodePublic() ([]byte, error)  { return k.pubEnc, nil }
func (k *mldsaKey) encodePrivate() ([]byte, error) { return k.seed, nil }
func (k *mldsaKey) sink() uint64                   { return uint64(k.pubEnc[0]) }
func (k *mldsaKey) public() sigPublic              { return mldsaPub{k} }
func (k *mldsaKey) sign(msg []byte) ([]byte, error) {
	sig := make([]byte, k.sigSize)
	return sig, k.signTo(k.sk, msg, nil, true, sig)
}
func (k *mldsaKey) signCtx(msg, ctx []byte, deterministic bool) ([]byte, error) {
	sig := make([]byte, k.sigSize)
	return sig, k.signTo(k.sk, msg, ctx, !deterministic, sig)
}
func (p mldsaPub) verify(msg, sig []byte) bool         { return p.k.verify(p.k.pk, msg, nil, sig) }
func (p mldsaPub) verifyCtx(msg, ctx, sig []byte) bool { return p.k.verify(p.k.pk, msg, ctx, sig) }

func mldsaScheme(
	name string, sch sign.Scheme, sigSize int,
	signTo func(sk sign.PrivateKey, msg, ctx []byte, randomized bool, sig []byte) error,
	verify func(pk sign.PublicKey, msg, ctx, sig []byte) bool,
) sigScheme[*mldsaKey] {
	fromSeed := func(seed []byte) (*mldsaKey, error) {
		pk, sk, enc, err := circlSeeded(name, seed, sch.SeedSize(), sch.DeriveKey)
		if err != nil {
			return nil, err
		}
		return &mldsaKey{bytes.Clone(seed), pk, sk, enc, sigSize, signTo, verify}, nil
	}
	return sigScheme[*mldsaKey]{
		name:       name,
		keygen:     true,
		randomised: true,
		generate: func() (*mldsaKey, error) {
			seed := make([]byte, sch.SeedSize())
			if _, err := rand.Read(seed); err != nil {
				return nil, err
			}
			return fromSeed(seed)
		},
		fromSeed:     fromSeed,
		parsePrivate: fromSeed,
		parsePublic: func(b []byte) (sigPublic, error) {
			pk, err := sch.UnmarshalBinaryPublicKey(b)
			if err != nil {
				return nil, err
			}
			return mldsaPub{&mldsaKey{pk: pk, sigSize: sigSize, signTo: signTo, verify: verify}}, nil
		},
	}
}

// ---- SLH-DSA ----------------------------------------------------------------

type slhKey struct {
	pub  slhdsa.PublicKey
	priv slhdsa.PrivateKey
}

type slhPub struct{ pub slhdsa.PublicKey }

func (k *slhKey) encodePublic() ([]byte, error)  { return k.pub.MarshalBinary() }
func (k *slhKey) encodePrivate() ([]byte, error) { return k.priv.MarshalBinary() }
func (k *slhKey) sink() uint64                   { return uint64(k.pub.ID) }
func (k *slhKey) public() sigPublic              { return slhPub{k.pub} }
func (k *slhKey) sign(msg []byte) ([]byte, error) {
	return slhdsa.SignRandomized(&k.priv, rand.Reader, slhdsa.NewMessage(msg), nil)
}
func (k *slhKey) signCtx(msg, ctx []byte, deterministic bool) ([]byte, error) {
	if deterministic {
		return slhdsa.SignDeterministic(&k.priv, slhdsa.NewMessage(msg), ctx)
	}
	return slhdsa.SignRandomized(&k.priv, rand.Reader, slhdsa.NewMessage(msg), ctx)
}
func (p slhPub) verify(msg, sig []byte) bool {
	return slhdsa.Verify(&p.pub, slhdsa.NewMessage(msg), sig, nil)
}
func (p slhPub) verifyCtx(msg, ctx, sig []byte) bool {
	return slhdsa.Verify(&p.pub, slhdsa.NewMessage(msg), sig, ctx)
}

func slhdsaScheme(hash, set string) sigScheme[*slhKey] {
	name := fmt.Sprintf("slh-dsa-%s-%s", hash, set)
	id, err := slhdsa.IDByName(name) // circl's names are FIPS 205's, compared without case
	if err != nil {
		panic(fmt.Sprintf("circl has no SLH-DSA set %s: %v", name, err))
	}
	n := id.Scheme().PublicKeySize() / 2
	generateFrom := func(seed []byte) (*slhKey, error) {
		if len(seed) != 3*n {
			return nil, fmt.Errorf("%s seed must be %d bytes, got %d", name, 3*n, len(seed))
		}
		pub, priv, err := slhdsa.GenerateKey(bytes.NewReader(seed), id)
		return &slhKey{pub, priv}, err
	}
	return sigScheme[*slhKey]{
		name:       name,
		keygen:     true,
		randomised: true,
		generate: func() (*slhKey, error) {
			pub, priv, err := slhdsa.GenerateKey(rand.Reader, id)
			return &slhKey{pub, priv}, err
		},
		fromSeed: generateFrom,
		parsePrivate: func(b []byte) (*slhKey, error) {
			priv := slhdsa.PrivateKey{ID: id}
			if err := priv.UnmarshalBinary(b); err != nil {
				return nil, err
			}
			return &slhKey{priv.PublicKey(), priv}, nil
		},
		parsePublic: func(b []byte) (sigPublic, error) {
			pub := slhdsa.PublicKey{ID: id}
			if err := pub.UnmarshalBinary(b); err != nil {
				return nil, err
			}
			return slhPub{pub}, nil
		},
	}
}
