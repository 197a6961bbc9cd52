package main

// go:stdlib public-key and post-quantum algorithms: crypto/rsa, crypto/ecdsa,
// crypto/ecdh, crypto/ed25519, crypto/mlkem, with keys in protocol.md's
// encodings through crypto/x509 (SubjectPublicKeyInfo, PKCS#8).

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"errors"
	"fmt"
)

// stdlibPKAlgs is the public-key part of the go:stdlib catalogue.
func stdlibPKAlgs() []*Alg {
	var algs []*Alg
	for _, bits := range []int{2048, 3072, 4096} {
		algs = append(algs,
			keygenOnlyAlg(fmt.Sprintf("rsa-%d", bits), rsaGenerate(bits)),
			sigAlg(rsaSigScheme(bits, true)),
			sigAlg(rsaSigScheme(bits, false)),
			pkeAlg(rsaOAEPScheme(bits)),
		)
	}
	algs = append(algs,
		sigAlg(ecdsaScheme("ecdsa-p256", elliptic.P256(), crypto.SHA256)),
		sigAlg(ecdsaScheme("ecdsa-p384", elliptic.P384(), crypto.SHA384)),
		kexAlg(ecdhScheme("ecdh-p256", ecdh.P256(), true)),
		kexAlg(ecdhScheme("ecdh-p384", ecdh.P384(), true)),
		kexAlg(ecdhScheme("x25519", ecdh.X25519(), false)),
		sigAlg(ed25519Scheme()),
		kemAlg(mlkem768Scheme()),
		kemAlg(mlkem1024Scheme()),
	)
	return algs
}

// ---- RSA ------------------------------------------------------------------

type rsaKey struct{ k *rsa.PrivateKey }

func (r rsaKey) encodePublic() ([]byte, error)  { return x509.MarshalPKIXPublicKey(&r.k.PublicKey) }
func (r rsaKey) encodePrivate() ([]byte, error) { return x509.MarshalPKCS8PrivateKey(r.k) }
func (r rsaKey) sink() uint64                   { return uint64(r.k.N.Bits()[0] & 0xff) }

// rsaGenerate: crypto/rsa GenerateKey, e = 65537 (Go's only choice).
func rsaGenerate(bits int) func() (rsaKey, error) {
	return func() (rsaKey, error) {
		k, err := rsa.GenerateKey(rand.Reader, bits)
		return rsaKey{k}, err
	}
}

func parseRSAPublic(der []byte) (*rsa.PublicKey, error) {
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, err
	}
	k, ok := pub.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("not an RSA public key: %T", pub)
	}
	return k, nil
}

func parseRSAPrivate(der []byte) (rsaKey, error) {
	priv, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return rsaKey{}, err
	}
	k, ok := priv.(*rsa.PrivateKey)
	if !ok {
		return rsaKey{}, fmt.Errorf("not an RSA private key: %T", priv)
	}
	return rsaKey{k}, nil
}

// rsaSig: RSASSA-PSS (SHA-256, MGF1-SHA-256, 32-byte salt) or PKCS#1 v1.5
// with SHA-256; sha256.Sum256 of the message is inside the operation.
type rsaSig struct {
	rsaKey
	pss bool
}

type rsaSigPub struct {
	k   *rsa.PublicKey
	pss bool
}

var pssOpts = &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256}

func (r rsaSig) sign(msg []byte) ([]byte, error) {
	d := sha256.Sum256(msg)
	if r.pss {
		return rsa.SignPSS(rand.Reader, r.k, crypto.SHA256, d[:], pssOpts)
	}
	return rsa.SignPKCS1v15(nil, r.k, crypto.SHA256, d[:])
}
func (r rsaSig) public() sigPublic { return rsaSigPub{&r.k.PublicKey, r.pss} }

func (p rsaSigPub) verify(msg, sig []byte) bool {
	d := sha256.Sum256(msg)
	if p.pss {
		return rsa.VerifyPSS(p.k, crypto.SHA256, d[:], sig, pssOpts) == nil
	}
	return rsa.VerifyPKCS1v15(p.k, crypto.SHA256, d[:], sig) == nil
}

func rsaSigScheme(bits int, pss bool) sigScheme[rsaSig] {
	name := fmt.Sprintf("rsa-%d-pkcs1", bits)
	if pss {
		name = fmt.Sprintf("rsa-%d-pss", bits)
	}
	gen := rsaGenerate(bits)
	return sigScheme[rsaSig]{
		name:       name,
		randomised: pss,
		generate: func() (rsaSig, error) {
			k, err := gen()
			return rsaSig{k, pss}, err
		},
		parsePrivate: func(b []byte) (rsaSig, error) {
			k, err := parseRSAPrivate(b)
			return rsaSig{k, pss}, err
		},
		parsePublic: func(b []byte) (sigPublic, error) {
			k, err := parseRSAPublic(b)
			if err != nil {
				return nil, err
			}
			return rsaSigPub{k, pss}, nil
		},
	}
}

// rsaOAEP: RSAES-OAEP with SHA-256, MGF1-SHA-256 and the empty label, the
// way a Go user writes it: rsa.EncryptOAEP(sha256.New(), rand.Reader, ...)
// (the sha256.New is inside the operation).
type rsaOAEP struct{ rsaKey }

type rsaOAEPPub struct{ k *rsa.PublicKey }

func (r rsaOAEP) decrypt(ct []byte) ([]byte, error) {
	return rsa.DecryptOAEP(sha256.New(), nil, r.k, ct, nil)
}
func (r rsaOAEP) public() pkePublic { return rsaOAEPPub{&r.k.PublicKey} }

func (p rsaOAEPPub) encrypt(msg []byte) ([]byte, error) {
	return rsa.EncryptOAEP(sha256.New(), rand.Reader, p.k, msg, nil)
}
func (p rsaOAEPPub) maxMsg() int { return p.k.Size() - 2*sha256.Size - 2 }

func rsaOAEPScheme(bits int) pkeScheme[rsaOAEP] {
	gen := rsaGenerate(bits)
	return pkeScheme[rsaOAEP]{
		name: fmt.Sprintf("rsa-%d-oaep", bits),
		generate: func() (rsaOAEP, error) {
			k, err := gen()
			return rsaOAEP{k}, err
		},
		parsePrivate: func(b []byte) (rsaOAEP, error) {
			k, err := parseRSAPrivate(b)
			return rsaOAEP{k}, err
		},
		parsePublic: func(b []byte) (pkePublic, error) {
			k, err := parseRSAPublic(b)
			if err != nil {
				return nil, err
			}
			return rsaOAEPPub{k}, nil
		},
	}
}

// ---- ECDSA ----------------------------------------------------------------

// ecdsaKey: crypto/ecdsa SignASN1/VerifyASN1 over the digest of the message
// (SHA-256 for P-256, SHA-384 for P-384), hashed inside the operation.
type ecdsaKey struct {
	k    *ecdsa.PrivateKey
	hash crypto.Hash
}

type ecdsaPub struct {
	k    *ecdsa.PublicKey
	hash crypto.Hash
}

func digest(h crypto.Hash, msg []byte) []byte {
	switch h {
	case crypto.SHA256:
		d := sha256.Sum256(msg)
		return d[:]
	case crypto.SHA384:
		d := sha512.Sum384(msg)
		return d[:]
	}
	panic("unexpected hash " + h.String())
}

func (e ecdsaKey) encodePublic() ([]byte, error)  { return x509.MarshalPKIXPublicKey(&e.k.PublicKey) }
func (e ecdsaKey) encodePrivate() ([]byte, error) { return e.k.Bytes() }
func (e ecdsaKey) sink() uint64                   { return uint64(e.k.X.Bits()[0] & 0xff) }
func (e ecdsaKey) sign(msg []byte) ([]byte, error) {
	return ecdsa.SignASN1(rand.Reader, e.k, digest(e.hash, msg))
}
func (e ecdsaKey) public() sigPublic { return ecdsaPub{&e.k.PublicKey, e.hash} }

func (p ecdsaPub) verify(msg, sig []byte) bool {
	return ecdsa.VerifyASN1(p.k, digest(p.hash, msg), sig)
}

// parseECPublic parses a SubjectPublicKeyInfo holding a point of curve.
func parseECPublic(der []byte, curve elliptic.Curve) (*ecdsa.PublicKey, error) {
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, err
	}
	k, ok := pub.(*ecdsa.PublicKey)
	if !ok || k.Curve != curve {
		return nil, fmt.Errorf("not a %s public key", curve.Params().Name)
	}
	return k, nil
}

func ecdsaScheme(name string, curve elliptic.Curve, h crypto.Hash) sigScheme[ecdsaKey] {
	return sigScheme[ecdsaKey]{
		name:       name,
		keygen:     true,
		randomised: true,
		generate: func() (ecdsaKey, error) {
			k, err := ecdsa.GenerateKey(curve, rand.Reader)
			return ecdsaKey{k, h}, err
		},
		parsePrivate: func(b []byte) (ecdsaKey, error) {
			k, err := ecdsa.ParseRawPrivateKey(curve, b)
			return ecdsaKey{k, h}, err
		},
		parsePublic: func(b []byte) (sigPublic, error) {
			k, err := parseECPublic(b, curve)
			if err != nil {
				return nil, err
			}
			return ecdsaPub{k, h}, nil
		},
	}
}

// ---- ECDH and X25519 (crypto/ecdh) -----------------------------------------

// ecdhKey: PrivateKey.ECDH with a peer key parsed once per cell. NIST
// curves' public keys are SubjectPublicKeyInfo (parsed by x509 into an
// *ecdsa.PublicKey, then .ECDH()); X25519's are the raw 32 bytes.
type ecdhKey struct {
	k    *ecdh.PrivateKey
	spki bool
}

func (e ecdhKey) encodePublic() ([]byte, error) {
	if e.spki {
		return x509.MarshalPKIXPublicKey(e.k.PublicKey())
	}
	return e.k.PublicKey().Bytes(), nil
}
func (e ecdhKey) encodePrivate() ([]byte, error) { return e.k.Bytes(), nil }
func (e ecdhKey) sink() uint64                   { return uint64(e.k.PublicKey().Bytes()[1]) }
func (e ecdhKey) public() kexPublic              { return e.k.PublicKey() }
func (e ecdhKey) derive(peer kexPublic) ([]byte, error) {
	return e.k.ECDH(peer.(*ecdh.PublicKey))
}

func ecdhScheme(name string, curve ecdh.Curve, spki bool) kexScheme[ecdhKey] {
	return kexScheme[ecdhKey]{
		name:   name,
		keygen: !spki, // x25519 has keygen; ecdh-p256/p384 only derive (ecdsa-* time their keygen)
		generate: func() (ecdhKey, error) {
			k, err := curve.GenerateKey(rand.Reader)
			return ecdhKey{k, spki}, err
		},
		parsePrivate: func(b []byte) (ecdhKey, error) {
			k, err := curve.NewPrivateKey(b)
			return ecdhKey{k, spki}, err
		},
		parsePublic: func(b []byte) (kexPublic, error) {
			if !spki {
				return curve.NewPublicKey(b)
			}
			pub, err := x509.ParsePKIXPublicKey(b)
			if err != nil {
				return nil, err
			}
			var k *ecdh.PublicKey
			switch p := pub.(type) {
			case *ecdsa.PublicKey:
				if k, err = p.ECDH(); err != nil {
					return nil, err
				}
			case *ecdh.PublicKey:
				k = p
			default:
				return nil, fmt.Errorf("not an EC public key: %T", pub)
			}
			if k.Curve() != curve {
				return nil, errors.New("public key on another curve")
			}
			return k, nil
		},
	}
}

// ---- Ed25519 ----------------------------------------------------------------

// ed25519Key: pure Ed25519 (ed25519.Sign/Verify); the private encoding is
// the 32-byte seed (RFC 8032), the public key the raw 32 bytes.
type ed25519Key struct{ k ed25519.PrivateKey }

type ed25519Pub ed25519.PublicKey

func (e ed25519Key) encodePublic() ([]byte, error)   { return append([]byte{}, e.k[32:]...), nil }
func (e ed25519Key) encodePrivate() ([]byte, error)  { return e.k.Seed(), nil }
func (e ed25519Key) sink() uint64                    { return uint64(e.k[32]) }
func (e ed25519Key) sign(msg []byte) ([]byte, error) { return ed25519.Sign(e.k, msg), nil }
func (e ed25519Key) public() sigPublic               { return ed25519Pub(e.k[32:]) }

func (p ed25519Pub) verify(msg, sig []byte) bool {
	return ed25519.Verify(ed25519.PublicKey(p), msg, sig)
}

func ed25519Scheme() sigScheme[ed25519Key] {
	return sigScheme[ed25519Key]{
		name:   "ed25519",
		keygen: true,
		generate: func() (ed25519Key, error) {
			_, k, err := ed25519.GenerateKey(rand.Reader)
			return ed25519Key{k}, err
		},
		parsePrivate: func(b []byte) (ed25519Key, error) {
			if len(b) != ed25519.SeedSize {
				return ed25519Key{}, fmt.Errorf("Ed25519 private key must be %d bytes", ed25519.SeedSize)
			}
			return ed25519Key{ed25519.NewKeyFromSeed(b)}, nil
		},
		parsePublic: func(b []byte) (sigPublic, error) {
			if len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("Ed25519 public key must be %d bytes", ed25519.PublicKeySize)
			}
			return ed25519Pub(b), nil
		},
	}
}

// ---- ML-KEM (crypto/mlkem: 768 and 1024, no 512) ----------------------------

// Deterministic encapsulation (the `m` of Wycheproof's encaps cases) goes
// through crypto/mlkem/mlkemtest, the standard library's derandomised
// ML-KEM.Encaps_internal for known-answer tests; timed encapsulation is
// EncapsulationKey.Encapsulate.

// mlkemScheme is one ML-KEM parameter set of crypto/mlkem: its generator,
// its key constructors and mlkemtest's derandomised encapsulation.
func mlkemScheme[DK kemPrivate, EK crypto.Encapsulator](
	name string, generate func() (DK, error), fromSeed func([]byte) (DK, error),
	parsePublic func([]byte) (EK, error), encapsDet func(EK, []byte) ([]byte, []byte, error),
) kemScheme {
	return kemScheme{
		name:        name,
		generate:    func() (kemPrivate, error) { return generate() },
		fromSeed:    func(seed []byte) (kemPrivate, error) { return fromSeed(seed) },
		parsePublic: func(b []byte) (crypto.Encapsulator, error) { return parsePublic(b) },
		encapsDet: func(ek crypto.Encapsulator, m []byte) ([]byte, []byte, error) {
			return encapsDet(ek.(EK), m)
		},
	}
}

func mlkem768Scheme() kemScheme {
	return mlkemScheme("ml-kem-768", mlkem.GenerateKey768, mlkem.NewDecapsulationKey768,
		mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768)
}

func mlkem1024Scheme() kemScheme {
	return mlkemScheme("ml-kem-1024", mlkem.GenerateKey1024, mlkem.NewDecapsulationKey1024,
		mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024)
}
