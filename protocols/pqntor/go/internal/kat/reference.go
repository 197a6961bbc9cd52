package kat

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/sha256"
	"errors"
	"fmt"

	"cryptobench/protocols/pqntor/pqntor"
)

// Inputs are every value a handshake draws, fixed.
type Inputs struct {
	Suite           pqntor.Suite
	KeyLen          int
	RelayID         []byte // ID_LEN
	RelayBSecret    []byte // b, 32
	ClientXSecret   []byte // x, 32
	ClientMLKEMSeed []byte // d || z, 64 (pq-ntor only)
	RelayYSecret    []byte // y, 32
	MLKEMEncapsM    []byte // m, 32 (pq-ntor only)
}

// InputsFromSeed draws every input from seed with the labels above.
func InputsFromSeed(s pqntor.Suite, seed string, keyLen int) Inputs {
	z, _ := s.Sizes()
	in := Inputs{
		Suite:         s,
		KeyLen:        keyLen,
		RelayID:       Draw(seed, LabelRelayID, z.ID),
		RelayBSecret:  Draw(seed, LabelRelayB, 32),
		ClientXSecret: Draw(seed, LabelClientX, 32),
		RelayYSecret:  Draw(seed, LabelRelayY, 32),
	}
	if s.IsPQ() {
		in.ClientMLKEMSeed = Draw(seed, LabelClientMLKEM, 64)
		in.MLKEMEncapsM = Draw(seed, LabelEncapsM, 32)
	}
	return in
}

// ClientRand is the byte stream ClientCreate reads: x, then d || z.
func (in Inputs) ClientRand() *Reader { return NewReader(in.ClientXSecret, in.ClientMLKEMSeed) }

// RelayRand is the byte stream ServerReply reads: y, then m.
func (in Inputs) RelayRand() *Reader { return NewReader(in.RelayYSecret, in.MLKEMEncapsM) }

// Trace is every intermediate and output value of one handshake.
type Trace struct {
	RelayB, ClientX, ClientEK, RelayY      []byte
	MLKEMCiphertext, MLKEMShared           []byte
	ExpXY, ExpXB                           []byte // relay side: EXP(X,y), EXP(X,b)
	ExpYX, ExpBX                           []byte // client side: EXP(Y,x), EXP(B,x)
	SecretInput                            []byte
	TKey, TVerify, TMac, MExpand, ProtoID  []byte
	KeySeed, Verify, AuthInput, Auth, Keys []byte
	Onionskin, Reply                       []byte
}

func x25519(scalar, point []byte) ([]byte, error) {
	k, err := ecdh.X25519().NewPrivateKey(scalar)
	if err != nil {
		return nil, err
	}
	p, err := ecdh.X25519().NewPublicKey(point)
	if err != nil {
		return nil, err
	}
	return k.ECDH(p)
}

func x25519Base(scalar []byte) []byte {
	k, err := ecdh.X25519().NewPrivateKey(scalar)
	if err != nil {
		panic(err)
	}
	return k.PublicKey().Bytes()
}

func mac(key []byte, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}

// hkdfRFC5869 is RFC 5869 written out, as ntor_ref.py's kdf_rfc5869 is:
// PRK = HMAC(salt, IKM); T(i) = HMAC(PRK, T(i-1) | info | INT8(i)).
func hkdfRFC5869(ikm, salt, info []byte, n int) (prk, okm []byte) {
	prk = mac(salt, ikm)
	var last []byte
	for i := 1; len(okm) < n; i++ {
		last = mac(prk, append(append(append([]byte{}, last...), info...), byte(i)))
		okm = append(okm, last...)
	}
	return prk, okm[:n]
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// mlkemReference is the ML-KEM part of the reference, for one parameter set
// (crypto/mlkem's functions of that set): the client's key from its seed
// d||z, the relay's encapsulation with m, and decapsulation agreeing.
func mlkemReference[DK interface {
	EncapsulationKey() EK
	Decapsulate(ciphertext []byte) ([]byte, error)
}, EK interface{ Bytes() []byte }](
	t *Trace,
	in Inputs,
	newDK func(seed []byte) (DK, error),
	newEK func(b []byte) (EK, error),
	encapsulate func(ek EK, m []byte) (shared, ciphertext []byte, err error),
) error {
	dk, err := newDK(in.ClientMLKEMSeed)
	if err != nil {
		return err
	}
	t.ClientEK = dk.EncapsulationKey().Bytes()
	ek, err := newEK(t.ClientEK)
	if err != nil {
		return err
	}
	if t.MLKEMShared, t.MLKEMCiphertext, err = encapsulate(ek, in.MLKEMEncapsM); err != nil {
		return err
	}
	k, err := dk.Decapsulate(t.MLKEMCiphertext)
	if err != nil {
		return err
	}
	if !bytes.Equal(k, t.MLKEMShared) {
		return errors.New("ML-KEM decapsulation disagrees with encapsulation")
	}
	return nil
}

// Reference computes the handshake of in straight from docs/pq-ntor.md,
// with the primitives only and none of package pqntor's glue.
func Reference(in Inputs) (*Trace, error) {
	s := in.Suite
	if !s.Supported() {
		return nil, fmt.Errorf("suite %s not supported", s)
	}
	t := &Trace{ProtoID: []byte(s.ProtoID())}
	t.TMac = cat(t.ProtoID, []byte(":mac"))
	t.TKey = cat(t.ProtoID, []byte(":key_extract"))
	t.TVerify = cat(t.ProtoID, []byte(":verify"))
	t.MExpand = cat(t.ProtoID, []byte(":key_expand"))

	t.RelayB = x25519Base(in.RelayBSecret)
	t.ClientX = x25519Base(in.ClientXSecret)
	t.RelayY = x25519Base(in.RelayYSecret)

	var err error
	switch s {
	case pqntor.PQNTorMLKEM768:
		err = mlkemReference(t, in, mlkem.NewDecapsulationKey768, mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768)
	case pqntor.PQNTorMLKEM1024:
		err = mlkemReference(t, in, mlkem.NewDecapsulationKey1024, mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024)
	}
	if err != nil {
		return nil, err
	}

	// Onionskin: ID | B | X | EK.
	t.Onionskin = cat(in.RelayID, t.RelayB, t.ClientX, t.ClientEK)

	// Both sides' Diffie-Hellman values.
	if t.ExpXY, err = x25519(in.RelayYSecret, t.ClientX); err != nil {
		return nil, err
	}
	if t.ExpXB, err = x25519(in.RelayBSecret, t.ClientX); err != nil {
		return nil, err
	}
	if t.ExpYX, err = x25519(in.ClientXSecret, t.RelayY); err != nil {
		return nil, err
	}
	if t.ExpBX, err = x25519(in.ClientXSecret, t.RelayB); err != nil {
		return nil, err
	}
	if !bytes.Equal(t.ExpXY, t.ExpYX) || !bytes.Equal(t.ExpXB, t.ExpBX) {
		return nil, errors.New("X25519 sides disagree")
	}

	// secret_input = EXP(X,y) | EXP(X,b) | K | ID | B | X | EK | Y | CT | PROTOID
	t.SecretInput = cat(t.ExpXY, t.ExpXB, t.MLKEMShared, in.RelayID, t.RelayB, t.ClientX,
		t.ClientEK, t.RelayY, t.MLKEMCiphertext, t.ProtoID)
	// KEYS = HKDF-SHA256(IKM = secret_input, salt = t_key, info = m_expand, L)
	t.KeySeed, t.Keys = hkdfRFC5869(t.SecretInput, t.TKey, t.MExpand, in.KeyLen)
	// verify = H(secret_input, t_verify)
	t.Verify = mac(t.TVerify, t.SecretInput)
	// auth_input = verify | ID | B | Y | CT | X | EK | PROTOID | "Server"
	t.AuthInput = cat(t.Verify, in.RelayID, t.RelayB, t.RelayY, t.MLKEMCiphertext, t.ClientX,
		t.ClientEK, t.ProtoID, []byte("Server"))
	// AUTH = H(auth_input, t_mac)
	t.Auth = mac(t.TMac, t.AuthInput)
	// Reply: Y | CT | AUTH.
	t.Reply = cat(t.RelayY, t.MLKEMCiphertext, t.Auth)
	return t, nil
}
