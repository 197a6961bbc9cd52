package main

// go:stdlib — Go's standard library crypto packages plus golang.org/x/crypto
// for BLAKE2 and ChaCha20(-Poly1305); the public-key algorithms are in
// pk_stdlib.go.

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"fmt"
	"hash"
	"runtime"
	"runtime/debug"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/blake2s"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

const xcryptoModule = "golang.org/x/crypto"

func init() {
	registerProvider(&Provider{
		ID:       "go:stdlib",
		Language: "go",
		Library:  "Go standard library crypto + " + xcryptoModule,
		Version: func() string {
			return runtime.Version() + " + " + xcryptoModule + " " + moduleVersion(xcryptoModule)
		},
		Notes: []string{
			"Hashes: chunk=0 uses the package one-shot (sha256.Sum256, sha512.Sum512, sha3.Sum256/Sum512, blake2b.Sum512, blake2s.Sum256); chunk>0 uses h.Reset(), h.Write per chunk, h.Sum(buf[:0]).",
			"HMAC: hmac.New once per cell; one operation is Reset, Write, Sum(buf[:0]) (Go has no one-shot HMAC).",
			"AES-ECB: Go has no ECB mode type; one operation is aes Block.Encrypt/Decrypt over each 16-byte block (aes.NewCipher once per cell).",
			"AES-CBC/CTR: Go sets the IV only when a BlockMode/Stream is made, so each operation includes cipher.NewCBCEncrypter/NewCBCDecrypter/NewCTR (one small allocation); CBC chunks must be multiples of 16 (BlockMode takes whole blocks).",
			"ChaCha20: chacha20.NewUnauthenticatedCipher per message (nonce set per message), block counter 0.",
			"AEADs: cipher.AEAD is one-shot in Go (no streaming); Seal/Open into buffers preallocated per cell. No AES-CCM: neither the standard library nor golang.org/x/crypto has it.",
			"RSA: crypto/rsa, e = 65537. keygen is rsa.GenerateKey (batch 1: one key per sample). PSS is SignPSS/VerifyPSS with SaltLength 32 and SHA-256 (Go's MGF1 uses the same hash); PKCS#1 v1.5 is SignPKCS1v15/VerifyPKCS1v15; sha256.Sum256 of the message is inside sign and verify. OAEP is EncryptOAEP/DecryptOAEP(sha256.New(), ..., label nil), the sha256.New inside the operation as a Go user writes it.",
			"ECDSA: crypto/ecdsa SignASN1/VerifyASN1 over sha256.Sum256 (P-256) or sha512.Sum384 (P-384) of the message, hashed inside the operation; keygen is ecdsa.GenerateKey (which also fills the big.Int coordinates). Go caches the converted private key per key, so the timed signs after the first (untimed) one use it, as a long-lived key would; verify converts the public key each time.",
			"ECDH/X25519: crypto/ecdh PrivateKey.ECDH with the peer key parsed once per cell (x509.ParsePKIXPublicKey then .ECDH() for P-256/P-384, ecdh.X25519().NewPublicKey for X25519); x25519 keygen is ecdh.X25519().GenerateKey.",
			"Ed25519: crypto/ed25519 Sign/Verify (pure), GenerateKey for keygen; private keys are handled as 32-byte seeds (NewKeyFromSeed). Sign uses Go's per-key cache of the expanded key after the first (untimed) operation.",
			"ML-KEM: crypto/mlkem (768 and 1024; the standard library has no ML-KEM-512): GenerateKey768/1024, EncapsulationKey.Encapsulate, DecapsulationKey.Decapsulate, keys from the 64-byte seed with NewDecapsulationKey768/1024. Deterministic encapsulation in verify cases uses crypto/mlkem/mlkemtest.Encapsulate768/1024.",
			"Not offered: ML-DSA (no crypto/mldsa in this Go), secp256k1 (not in the standard library), Ed448/X448 (not in the standard library or golang.org/x/crypto).",
			"Since Go 1.26 the crypto packages ignore the io.Reader they are given and always use the system's secure randomness (crypto/rand).",
			"HKDF: hkdf-sha256 derive is crypto/hkdf.Key(sha256.New, IKM = the message, salt = key, info = iv, 72) per operation (the info string converted once per cell).",
			"ntor / pq-ntor (docs/pq-ntor.md): this repository's library cryptobench/protocols/pqntor (ClientCreate, ServerReply, ClientFinish) with system randomness, 72 bytes of keys; the relay's identity and long-term key once per cell. server-reply answers one onionskin made outside the timed region. client-finish: before every timed batch (and warm-up round) the cell makes `batch` fresh (state, reply) pairs with ClientCreate + ServerReply outside the timed region; their garbage is collected whenever the GC runs, possibly inside a sample, as for every allocating cell. full = the three in a row. No pq-ntor-512: crypto/mlkem has no ML-KEM-512.",
			"TLS 1.3 (tls13-<group>-<auth>[-resume], tls.go): crypto/tls client and server in one process over an in-memory net.Conn pair, the server's handshake in a goroutine, the client's in the measuring one, both with MinVersion = MaxVersion = TLS 1.3 and CurvePreferences = the cell's group alone (X25519, CurveP256, X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024); the client trusts only the PKI's root and checks server_name. crypto/tls has no TLS 1.3 cipher-suite setting: with AES-GCM instructions it negotiates TLS_AES_128_GCM_SHA256, and the report gives what was negotiated. Full cells: SessionTicketsDisabled; -resume: one ticket per handshake, written by the server right after its Finished (same flush; the flights cut it off as `tickets`), kept in tls.NewLRUClientSessionCache; Go's tickets are reusable, so one full handshake outside the timing primes the cache and each resumption uses the ticket the previous one left. The client reads once after its handshake (a Read that returns at once when nothing is left) so the ticket is processed inside the operation.",
			"TLS timing: a TLS cell runs with GOMAXPROCS=1, so client and server take turns on one P and a hand-over is a goroutine switch (with 2 Ps the runtime wakes OS threads and the wall time carried their scheduling). handshake = the wall time from making the conn pair to both sides done; client/server = that side's wall time (tls.Client/tls.Server to done) minus its time blocked in Read on the in-memory conn (= the other side running), the rest subtracted as untimed. sigalg is reported by the server's key wrapped in a crypto.Signer that records the signature options crypto/tls asks for (crypto/tls does not expose the negotiated scheme), only for the reported handshake and interop (timed handshakes use the plain key); the client's interop view reports null. No ML-DSA certificates: Go 1.26's crypto/tls has no ML-DSA signature scheme. GODEBUG tlsmlkem/tlssecpmlkem are removed from the process's GODEBUG at start (they would drop the hybrid groups); fips140 mode refuses the TLS cells.",
			"runtime.GC() once per cell before the warm-up; the garbage collector stays on (GOGC default), so public-key operations that allocate pay for their garbage inside the samples.",
			"Build: " + buildSettings(),
		},
		Algs: append([]*Alg{
			noopAlg(),
			hashAlg("sha256", sha256.New, func(out, msg []byte) { *(*[32]byte)(out) = sha256.Sum256(msg) }),
			hashAlg("sha512", sha512.New, func(out, msg []byte) { *(*[64]byte)(out) = sha512.Sum512(msg) }),
			hashAlg("sha3-256", func() hash.Hash { return sha3.New256() }, func(out, msg []byte) { *(*[32]byte)(out) = sha3.Sum256(msg) }),
			hashAlg("sha3-512", func() hash.Hash { return sha3.New512() }, func(out, msg []byte) { *(*[64]byte)(out) = sha3.Sum512(msg) }),
			hashAlg("blake2b-512", mustHash(blake2b.New512), func(out, msg []byte) { *(*[64]byte)(out) = blake2b.Sum512(msg) }),
			hashAlg("blake2s-256", mustHash(blake2s.New256), func(out, msg []byte) { *(*[32]byte)(out) = blake2s.Sum256(msg) }),
			hmacAlg("hmac-sha256", sha256.New),
			blockAlg("aes-128-ecb", 16, modeECB, aes.NewCipher),
			blockAlg("aes-256-ecb", 32, modeECB, aes.NewCipher),
			blockAlg("aes-128-cbc", 16, modeCBC, aes.NewCipher),
			blockAlg("aes-256-cbc", 32, modeCBC, aes.NewCipher),
			blockAlg("aes-128-ctr", 16, modeCTR, aes.NewCipher),
			blockAlg("aes-256-ctr", 32, modeCTR, aes.NewCipher),
			chacha20Alg(),
			aeadAlg("aes-128-gcm", 16, 12, newAESGCM),
			aeadAlg("aes-256-gcm", 32, 12, newAESGCM),
			aeadAlg("chacha20-poly1305", 32, 12, chacha20poly1305.New),
			aeadAlg("xchacha20-poly1305", 32, 24, chacha20poly1305.NewX),
			hkdfAlg(),
		}, append(append(stdlibPKAlgs(), handshakeAlgs()...), tlsAlgs()...)...),
	})
}

func newAESGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// mustHash adapts the unkeyed blake2 constructors (which only fail for an
// over-long key) to func() hash.Hash.
func mustHash(newKeyed func(key []byte) (hash.Hash, error)) func() hash.Hash {
	return func() hash.Hash {
		h, err := newKeyed(nil)
		if err != nil {
			panic(err)
		}
		return h
	}
}

// moduleVersion reads a dependency's version from the binary's build info.
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(version unknown)"
	}
	for _, m := range bi.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return m.Version + " => " + m.Replace.Path + " " + m.Replace.Version
			}
			return m.Version
		}
	}
	return "(version unknown)"
}

// buildSettings names the settings that change generated code.
func buildSettings() string {
	s := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "GOAMD64", "GOARM64", "CGO_ENABLED", "-gcflags", "-tags":
				s += fmt.Sprintf(" %s=%s", kv.Key, kv.Value)
			}
		}
	}
	return s
}

// ---- ChaCha20 -------------------------------------------------------------

// chachaCell: one-shot (chunk 0).
type chachaCell struct {
	errCell
	key, nonce []byte
	in, out    []byte
}

func (c *chachaCell) Run() uint64 {
	// NewUnauthenticatedCipher is written so that the Cipher does not escape
	// when used locally like this: no allocation per operation.
	s, err := chacha20.NewUnauthenticatedCipher(c.key, c.nonce)
	if err != nil {
		return c.fail(err)
	}
	s.XORKeyStream(c.out, c.in)
	return first(c.out)
}
func (c *chachaCell) Output() []byte { return c.out }

// chachaStreamCell: chunk > 0, XORKeyStream per piece into the piece buffer.
type chachaStreamCell struct {
	pieceCell
	errCell
	key, nonce []byte
}

func (c *chachaStreamCell) Run() uint64 {
	s, err := chacha20.NewUnauthenticatedCipher(c.key, c.nonce)
	if err != nil {
		return c.fail(err)
	}
	return pieces(c.in, c.chunk, c.buf, c.fold, s.XORKeyStream)
}

func chacha20Alg() *Alg {
	check := func(key, nonce []byte) error {
		if err := checkLen("key", key, chacha20.KeySize); err != nil {
			return err
		}
		return checkLen("iv", nonce, chacha20.NonceSize)
	}
	run := func(key, nonce []byte, counter uint32, msg []byte) ([]byte, error) {
		s, err := chacha20.NewUnauthenticatedCipher(key, nonce)
		if err != nil {
			return nil, err
		}
		s.SetCounter(counter)
		out := make([]byte, len(msg))
		s.XORKeyStream(out, msg)
		return out, nil
	}
	return &Alg{
		Name:   "chacha20",
		Ops:    []string{"encrypt", "decrypt"},
		Stream: true,
		Exec: func(c *Case) ([]byte, error) {
			if err := check(c.Key, c.IV); err != nil {
				return nil, err
			}
			return run(c.Key, c.IV, c.Counter, c.Msg)
		},
		NewCell: func(p *CellParams) (Cell, error) {
			if err := check(p.Key, p.IV); err != nil {
				return nil, err
			}
			if p.Chunk > 0 {
				in := p.Src
				if p.Op == "decrypt" && in.size > regenerateAbove { // bounded memory: made again per piece
					in = regeneratingSource(in, p.Chunk, func() func(dst, src []byte) {
						s, _ := chacha20.NewUnauthenticatedCipher(p.Key, p.IV) // checked above
						return s.XORKeyStream
					})
				} else if p.Op == "decrypt" { // the ciphertext, by the streamed encryption, kept whole
					s, err := chacha20.NewUnauthenticatedCipher(p.Key, p.IV)
					if err != nil {
						return nil, err
					}
					ct := make([]byte, in.size)
					piecesInto(ct, in, p.Chunk, s.XORKeyStream)
					in = keptSource(ct)
				}
				return &chachaStreamCell{pieceCell: newPieceCell(in, p.Chunk), key: p.Key, nonce: p.IV}, nil
			}
			c := &chachaCell{key: p.Key, nonce: p.IV, in: p.Msg, out: make([]byte, len(p.Msg))}
			if p.Op == "decrypt" {
				ct, err := run(p.Key, p.IV, 0, p.Msg)
				if err != nil {
					return nil, err
				}
				c.in = ct
			}
			return c, nil
		},
	}
}
