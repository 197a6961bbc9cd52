package main

// go:gmsm — github.com/emmansun/gmsm (pinned in go.mod): SM3, SM4
// (ECB/CBC/CTR/GCM) and SM2 signatures. SM4's CBC, CTR and GCM go through
// crypto/cipher's constructors, which hand over to gmsm's assembly modes
// (the sm4 Block implements NewCBCEncrypter/NewCTR/NewGCM); ECB is gmsm's
// own cipher.NewECBEncrypter/NewECBDecrypter.

import (
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/rand"
	"fmt"
	"hash"
	"runtime"

	gmcipher "github.com/emmansun/gmsm/cipher"
	"github.com/emmansun/gmsm/sm2"
	"github.com/emmansun/gmsm/sm3"
	"github.com/emmansun/gmsm/sm4"
	"github.com/emmansun/gmsm/smx509"
)

const gmsmModule = "github.com/emmansun/gmsm"

func init() {
	sm4c := blockCipher{newBlock: sm4.NewCipher, ecbEnc: gmcipher.NewECBEncrypter, ecbDec: gmcipher.NewECBDecrypter}
	registerProvider(&Provider{
		ID:       "go:gmsm",
		Language: "go",
		Library:  gmsmModule,
		Version: func() string {
			return gmsmModule + " " + moduleVersion(gmsmModule) + " on " + runtime.Version()
		},
		Notes: []string{
			"SM3: chunk=0 is sm3.Sum; chunk>0 is sm3.New() once per cell, then Reset, Write per chunk, Sum(buf[:0]).",
			"SM4: sm4.NewCipher once per cell. ECB is gmsm's cipher.NewECBEncrypter/NewECBDecrypter (made once per cell: no IV). CBC/CTR are crypto/cipher.NewCBCEncrypter/NewCBCDecrypter/NewCTR per message (the IV is set per message), which hand over to gmsm's own multi-block assembly; CBC chunks must be multiples of 16. On amd64 gmsm's multi-block SM4 paths (ECB/CBC-decrypt/CTR/GCM) use AES-NI, 8 blocks at a time with AVX2, GFNI where the CPU has it (DISABLE_GFNI=1 turns that off); a single Block.Encrypt is Go code, so CBC encryption (one block at a time by nature) is slower.",
			"SM4-GCM: crypto/cipher.NewGCM(sm4 block) once per cell (gmsm's GCM assembly with PCLMULQDQ); one-shot Seal/Open into preallocated buffers (no streaming).",
			"SM2: sm2.GenerateKey; sign is PrivateKey.SignMessage(rand.Reader, msg, sm2.DefaultSM2SignerOpts) (Z_A with the default id 1234567812345678, SM3 of Z_A ‖ message, inside the operation; gmsm hedges the nonce: HMAC-SM3 of the key, the hash and fresh randomness); verify is sm2.VerifyASN1WithSM2(pub, nil, msg, sig). gmsm caches Z_A per key, so timed operations after the first (untimed) one reuse it, as a long-lived key would. Public keys are SubjectPublicKeyInfo (smx509), private keys the 32-byte scalar (sm2.NewPrivateKey).",
			"Not offered here although gmsm has them: HMAC-SM3, ML-KEM, ML-DSA, SLH-DSA, SM2 encryption and key exchange, SM9, ZUC (outside the current algorithm list or left for later).",
			"runtime.GC() once per cell before the warm-up; the garbage collector stays on (GOGC default).",
			"Build: " + buildSettings(),
		},
		Algs: []*Alg{
			noopAlg(),
			hashAlg("sm3", func() hash.Hash { return sm3.New() }, func(out, msg []byte) { *(*[32]byte)(out) = sm3.Sum(msg) }),
			blockAlgWith("sm4-ecb", 16, modeECB, sm4c),
			blockAlgWith("sm4-cbc", 16, modeCBC, sm4c),
			blockAlgWith("sm4-ctr", 16, modeCTR, sm4c),
			aeadAlg("sm4-gcm", 16, 12, newSM4GCM),
			sigAlg(sm2Scheme()),
		},
	})
}

func newSM4GCM(key []byte) (cipher.AEAD, error) {
	b, err := sm4.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// ---- SM2 ------------------------------------------------------------------

type sm2Key struct{ k *sm2.PrivateKey }

type sm2Pub struct{ k *ecdsa.PublicKey }

func (s sm2Key) encodePublic() ([]byte, error) { return smx509.MarshalPKIXPublicKey(&s.k.PublicKey) }
func (s sm2Key) encodePrivate() ([]byte, error) {
	return s.k.D.FillBytes(make([]byte, 32)), nil
}
func (s sm2Key) sink() uint64 { return uint64(s.k.X.Bits()[0] & 0xff) }
func (s sm2Key) sign(msg []byte) ([]byte, error) {
	return s.k.SignMessage(rand.Reader, msg, sm2.DefaultSM2SignerOpts)
}
func (s sm2Key) public() sigPublic { return sm2Pub{&s.k.PublicKey} }

func (p sm2Pub) verify(msg, sig []byte) bool {
	return sm2.VerifyASN1WithSM2(p.k, nil, msg, sig)
}

func sm2Scheme() sigScheme[sm2Key] {
	return sigScheme[sm2Key]{
		name:       "sm2",
		keygen:     true,
		randomised: true,
		generate: func() (sm2Key, error) {
			k, err := sm2.GenerateKey(rand.Reader)
			return sm2Key{k}, err
		},
		parsePrivate: func(b []byte) (sm2Key, error) {
			k, err := sm2.NewPrivateKey(b)
			return sm2Key{k}, err
		},
		parsePublic: func(b []byte) (sigPublic, error) {
			pub, err := smx509.ParsePKIXPublicKey(b)
			if err != nil {
				return nil, err
			}
			k, ok := pub.(*ecdsa.PublicKey)
			if !ok || k.Curve != sm2.P256() {
				return nil, fmt.Errorf("not an SM2 public key: %T", pub)
			}
			return sm2Pub{k}, nil
		},
	}
}
