package pqntor

import (
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
)

// Randomness.
//
// Every random value of the protocol is drawn from the rand argument, in the
// order fixed by docs/pq-ntor.md ("Randomness"):
//
//	ClientCreate: x (32 bytes), then for pq-ntor d||z (64 bytes)
//	ServerReply:  y (32 bytes), then for pq-ntor m (32 bytes)
//
// with one exception. When rand is nil or crypto/rand.Reader ("system
// randomness", what production callers pass), ML-KEM key generation and
// encapsulation are left to crypto/mlkem, which draws d||z and m from the
// same system generator itself (GenerateKey768/1024, Encapsulate): Go's only
// exported derandomized encapsulation, crypto/mlkem/mlkemtest, is documented
// "must only be used for known-answer tests". With any other reader (test
// vectors, tests) d||z is read from rand and given to NewDecapsulationKey*,
// and m is read from rand and given to mlkemtest.Encapsulate*, which is
// FIPS 203 ML-KEM.Encaps_internal(ek, m).

func systemRand(r io.Reader) bool { return r == nil || r == cryptorand.Reader }

func draw(r io.Reader, n int) ([]byte, error) {
	if r == nil {
		r = cryptorand.Reader
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRandom, err)
	}
	return b, nil
}

// x25519FromRand draws a 32-byte X25519 private key (RFC 7748: any 32 bytes,
// clamped by the scalar multiplication) and returns it with its public key.
func x25519FromRand(r io.Reader) (*ecdh.PrivateKey, error) {
	sk, err := draw(r, X25519Len)
	if err != nil {
		return nil, err
	}
	k, err := ecdh.X25519().NewPrivateKey(sk)
	clear(sk)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParams, err)
	}
	return k, nil
}

// decapsulator is an ML-KEM decapsulation key of either supported size.
type decapsulator interface {
	Decapsulate(ciphertext []byte) ([]byte, error)
}

// mlkemKeyGen draws d||z and returns the decapsulation key and the encoded
// encapsulation key EK.
func mlkemKeyGen(s Suite, r io.Reader) (decapsulator, []byte, error) {
	var seed []byte
	if !systemRand(r) {
		var err error
		if seed, err = draw(r, MLKEMSeedLen); err != nil {
			return nil, nil, err
		}
		defer clear(seed)
	}
	var dk decapsulator
	var ek []byte
	var err error
	switch s {
	case PQNTorMLKEM768:
		var k *mlkem.DecapsulationKey768
		if k, err = mlkemKey(seed, mlkem.GenerateKey768, mlkem.NewDecapsulationKey768); err == nil {
			dk, ek = k, k.EncapsulationKey().Bytes()
		}
	case PQNTorMLKEM1024:
		var k *mlkem.DecapsulationKey1024
		if k, err = mlkemKey(seed, mlkem.GenerateKey1024, mlkem.NewDecapsulationKey1024); err == nil {
			dk, ek = k, k.EncapsulationKey().Bytes()
		}
	default:
		return nil, nil, fmt.Errorf("%w: %s", ErrUnsupported, s)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrRandom, err)
	}
	return dk, ek, nil
}

// mlkemKey is one ML-KEM size's key generation: crypto/mlkem's own (system
// randomness) when seed is nil, else from the drawn d||z.
func mlkemKey[K any](seed []byte, generate func() (K, error), fromSeed func([]byte) (K, error)) (K, error) {
	if seed == nil {
		return generate()
	}
	return fromSeed(seed)
}

// encapsulator is a parsed ML-KEM encapsulation key.
type encapsulator struct {
	k768  *mlkem.EncapsulationKey768
	k1024 *mlkem.EncapsulationKey1024
}

// parseEK decodes EK and applies the FIPS 203 section 7.2 modulus check.
func parseEK(s Suite, ek []byte) (encapsulator, error) {
	var e encapsulator
	var err error
	switch s {
	case PQNTorMLKEM768:
		e.k768, err = mlkem.NewEncapsulationKey768(ek)
	case PQNTorMLKEM1024:
		e.k1024, err = mlkem.NewEncapsulationKey1024(ek)
	default:
		return e, fmt.Errorf("%w: %s", ErrUnsupported, s)
	}
	if err != nil {
		return e, fmt.Errorf("%w: ML-KEM encapsulation key: %v", ErrBadKey, err)
	}
	return e, nil
}

// encapsulate returns (K, CT), drawing m from r (see "Randomness" above).
func (e encapsulator) encapsulate(r io.Reader) (k, ct []byte, err error) {
	if systemRand(r) {
		if e.k768 != nil {
			k, ct = e.k768.Encapsulate()
		} else {
			k, ct = e.k1024.Encapsulate()
		}
		return k, ct, nil
	}
	m, err := draw(r, MLKEMMLen)
	if err != nil {
		return nil, nil, err
	}
	defer clear(m)
	if e.k768 != nil {
		k, ct, err = mlkemtest.Encapsulate768(e.k768, m)
	} else {
		k, ct, err = mlkemtest.Encapsulate1024(e.k1024, m)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrRandom, err)
	}
	return k, ct, nil
}

// The key schedule (docs/pq-ntor.md, "Key schedule"). For ntor the ML-KEM
// fields k, ek and ct are empty and the layouts reduce to Tor's ntor exactly.
type transcript struct {
	xy, xb, k           []byte // shared secrets: EXP(X,y), EXP(X,b), ML-KEM K
	id, b, x, ek, y, ct []byte // public values
}

func hmacSHA256(key []byte, msg ...[]byte) []byte {
	h := hmac.New(sha256.New, key)
	for _, m := range msg {
		h.Write(m)
	}
	return h.Sum(nil)
}

// schedule returns KEY_SEED (the HKDF-Extract PRK) and AUTH.
//
//	secret_input = Xy | Xb | K | ID | B | X | EK | Y | CT | PROTOID
//	KEY_SEED     = HKDF-Extract(salt = t_key, IKM = secret_input)
//	             = HMAC-SHA256(key = t_key, msg = secret_input)
//	verify       = HMAC-SHA256(key = t_verify, msg = secret_input)
//	auth_input   = verify | ID | B | Y | CT | X | EK | PROTOID | "Server"
//	AUTH         = HMAC-SHA256(key = t_mac, msg = auth_input)
func schedule(s Suite, t *transcript) (keySeed, auth []byte, err error) {
	protoid := []byte(s.ProtoID())
	secretInput := concat(t.xy, t.xb, t.k, t.id, t.b, t.x, t.ek, t.y, t.ct, protoid)
	defer clear(secretInput)
	keySeed, err = hkdf.Extract(sha256.New, secretInput, tag(s, ":key_extract"))
	if err != nil {
		return nil, nil, err
	}
	verify := hmacSHA256(tag(s, ":verify"), secretInput)
	defer clear(verify)
	auth = hmacSHA256(tag(s, ":mac"), verify, t.id, t.b, t.y, t.ct, t.x, t.ek, protoid, []byte("Server"))
	return keySeed, auth, nil
}

// expand returns KEYS = HKDF-Expand(KEY_SEED, info = m_expand, L).
func expand(s Suite, keySeed []byte, n int) ([]byte, error) {
	return hkdf.Expand(sha256.New, keySeed, s.ProtoID()+":key_expand", n)
}

func tag(s Suite, suffix string) []byte { return []byte(s.ProtoID() + suffix) }

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// RelayKeys is a relay's identity and long-term X25519 onion key pair (b, B).
type RelayKeys struct {
	id  []byte
	b   *ecdh.PrivateKey
	pub []byte
}

// NewRelayKeys makes relay keys from an ID (20 bytes for ntor, 32 for
// pq-ntor) and a 32-byte X25519 private key b.
func NewRelayKeys(id, secret []byte) (*RelayKeys, error) {
	if len(id) != NTorIDLen && len(id) != PQNTorIDLen {
		return nil, fmt.Errorf("%w: relay ID is %d bytes, want %d (ntor) or %d (pq-ntor)", ErrParams, len(id), NTorIDLen, PQNTorIDLen)
	}
	b, err := ecdh.X25519().NewPrivateKey(secret)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParams, err)
	}
	return &RelayKeys{id: clone(id), b: b, pub: b.PublicKey().Bytes()}, nil
}

// GenerateRelayKeys makes relay keys with b drawn from rand (nil: crypto/rand).
func GenerateRelayKeys(id []byte, rand io.Reader) (*RelayKeys, error) {
	sk, err := draw(rand, X25519Len)
	if err != nil {
		return nil, err
	}
	defer clear(sk)
	return NewRelayKeys(id, sk)
}

// ID returns a copy of the relay ID.
func (k *RelayKeys) ID() []byte { return clone(k.id) }

// PublicKey returns a copy of the relay's onion key B.
func (k *RelayKeys) PublicKey() []byte { return clone(k.pub) }

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// ClientState is what the client keeps between ClientCreate and ClientFinish.
// It is single-use: ClientFinish consumes it, whatever the outcome.
type ClientState struct {
	p     Params
	z     Sizes
	id, b []byte // relay ID and B, as the client believes them
	x     *ecdh.PrivateKey
	xPub  []byte
	dk    decapsulator
	ek    []byte
	used  bool
}

// ClientCreate starts a handshake with the relay (relayID, relayB) and
// returns the client state and the onionskin ID | B | X | EK.
func ClientCreate(relayID, relayB []byte, p Params, rand io.Reader) (*ClientState, []byte, error) {
	z, err := p.check()
	if err != nil {
		return nil, nil, err
	}
	if len(relayID) != z.ID {
		return nil, nil, fmt.Errorf("%w: relay ID is %d bytes, %s needs %d", ErrParams, len(relayID), p.Suite, z.ID)
	}
	if len(relayB) != X25519Len {
		return nil, nil, fmt.Errorf("%w: relay key B is %d bytes, want %d", ErrParams, len(relayB), X25519Len)
	}
	x, err := x25519FromRand(rand)
	if err != nil {
		return nil, nil, err
	}
	st := &ClientState{p: p, z: z, id: clone(relayID), b: clone(relayB), x: x, xPub: x.PublicKey().Bytes()}
	if p.Suite.IsPQ() {
		if st.dk, st.ek, err = mlkemKeyGen(p.Suite, rand); err != nil {
			return nil, nil, err
		}
	}
	return st, concat(st.id, st.b, st.xPub, st.ek), nil
}

// ServerReply is the relay's side: it checks the onionskin and returns the
// reply Y | CT | AUTH and the key material. On error both are nil.
func ServerReply(relay *RelayKeys, p Params, onionskin []byte, rand io.Reader) (reply, keys []byte, err error) {
	z, err := p.check()
	if err != nil {
		return nil, nil, err
	}
	if relay == nil || len(relay.id) != z.ID {
		return nil, nil, fmt.Errorf("%w: relay keys do not fit %s", ErrParams, p.Suite)
	}
	if len(onionskin) != z.Onionskin {
		return nil, nil, fmt.Errorf("%w: onionskin is %d bytes, %s needs %d", ErrMalformed, len(onionskin), p.Suite, z.Onionskin)
	}
	t := transcript{
		id: onionskin[:z.ID],
		b:  onionskin[z.ID : z.ID+X25519Len],
		x:  onionskin[z.ID+X25519Len : z.ID+2*X25519Len],
		ek: onionskin[z.ID+2*X25519Len:],
	}
	if subtle.ConstantTimeCompare(t.id, relay.id) != 1 || subtle.ConstantTimeCompare(t.b, relay.pub) != 1 {
		return nil, nil, ErrUnknownRelay
	}
	var enc encapsulator
	if p.Suite.IsPQ() {
		if enc, err = parseEK(p.Suite, t.ek); err != nil {
			return nil, nil, err
		}
	}
	X, err := ecdh.X25519().NewPublicKey(t.x)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	y, err := x25519FromRand(rand)
	if err != nil {
		return nil, nil, err
	}
	t.y = y.PublicKey().Bytes()
	// crypto/ecdh rejects an all-zero X25519 output (RFC 7748 section 6.1).
	if t.xy, err = y.ECDH(X); err != nil {
		return nil, nil, fmt.Errorf("%w: EXP(X,y): %v", ErrBadKey, err)
	}
	defer clear(t.xy)
	if t.xb, err = relay.b.ECDH(X); err != nil {
		return nil, nil, fmt.Errorf("%w: EXP(X,b): %v", ErrBadKey, err)
	}
	defer clear(t.xb)
	if p.Suite.IsPQ() {
		if t.k, t.ct, err = enc.encapsulate(rand); err != nil {
			return nil, nil, err
		}
		defer clear(t.k)
	}
	keySeed, auth, err := schedule(p.Suite, &t)
	if err != nil {
		return nil, nil, err
	}
	defer clear(keySeed)
	if keys, err = expand(p.Suite, keySeed, p.KeyLen); err != nil {
		return nil, nil, err
	}
	return concat(t.y, t.ct, auth), keys, nil
}

// ClientFinish checks the relay's reply and returns the key material. On any
// failure it returns nil keys and an error; the state is consumed either way.
func ClientFinish(st *ClientState, reply []byte) ([]byte, error) {
	if st == nil || st.used {
		return nil, ErrStateUsed
	}
	st.used = true
	defer st.wipe()
	z := st.z
	if len(reply) != z.Reply {
		return nil, fmt.Errorf("%w: reply is %d bytes, %s needs %d", ErrMalformed, len(reply), st.p.Suite, z.Reply)
	}
	t := transcript{
		id: st.id, b: st.b, x: st.xPub, ek: st.ek,
		y:  reply[:X25519Len],
		ct: reply[X25519Len : X25519Len+z.CT],
	}
	gotAuth := reply[X25519Len+z.CT:]
	Y, err1 := ecdh.X25519().NewPublicKey(t.y)
	B, err2 := ecdh.X25519().NewPublicKey(t.b)
	if err1 != nil || err2 != nil {
		return nil, ErrHandshakeFailed
	}
	// All-zero EXP(Y,x) or EXP(B,x) is an error from crypto/ecdh. Y and B
	// are public, so returning early leaks nothing secret.
	var err error
	if t.xy, err = st.x.ECDH(Y); err != nil {
		return nil, fmt.Errorf("%w: EXP(Y,x): %v", ErrHandshakeFailed, err)
	}
	defer clear(t.xy)
	if t.xb, err = st.x.ECDH(B); err != nil {
		return nil, fmt.Errorf("%w: EXP(B,x): %v", ErrHandshakeFailed, err)
	}
	defer clear(t.xb)
	if st.p.Suite.IsPQ() {
		// ML-KEM decapsulation never fails on a well-sized ciphertext:
		// a forged one yields FIPS 203's implicit-rejection key, and the
		// authenticator check below fails.
		if t.k, err = st.dk.Decapsulate(t.ct); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrHandshakeFailed, err)
		}
		defer clear(t.k)
	}
	keySeed, auth, err := schedule(st.p.Suite, &t)
	if err != nil {
		return nil, err
	}
	defer clear(keySeed)
	if !hmac.Equal(auth, gotAuth) { // constant time
		return nil, fmt.Errorf("%w: authenticator mismatch", ErrHandshakeFailed)
	}
	return expand(st.p.Suite, keySeed, st.p.KeyLen)
}

// wipe drops the state's secrets (best effort: Go cannot zero the memory
// inside crypto/ecdh and crypto/mlkem keys; it drops the references).
func (st *ClientState) wipe() {
	st.x, st.dk = nil, nil
	clear(st.ek)
}
