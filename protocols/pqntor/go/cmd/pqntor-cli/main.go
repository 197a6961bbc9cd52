// Command pqntor-cli runs one step of an ntor / pq-ntor handshake per call,
// speaking JSON on stdin and stdout, for the interoperability test against the
// C implementation (protocols/pqntor/interop_test.py). The C program
// protocols/pqntor/c/pqntor-cli has the same subcommands and fields:
//
//	relay-keygen   {"suite"}                                   -> {"suite", "relay_id", "relay_B", "relay_b_secret"}
//	client-create  {"suite", "relay_id", "relay_B", "key_len"} -> {"state", "onionskin"}
//	server-reply   {"suite", "relay_id", "relay_b_secret", "onionskin", "key_len"} -> {"reply", "keys"}
//	client-finish  {"state", "reply"}                          -> {"keys"}
//
// Byte strings are hex; key_len defaults to 72. A rejected handshake prints
// {"error": class} (class: malformed, unknown-relay, bad-key, handshake-failed,
// ...) and exits 1; bad input exits 2.
//
// The state is opaque hex for client-finish of this same program. Go's
// ClientState cannot be serialized, so client-create draws the client's
// randomness (x, then d|z) from crypto/rand itself, runs ClientCreate with
// those bytes as its reader, and keeps them in the state; client-finish runs
// ClientCreate again from them (same x, same ML-KEM key) and then ClientFinish.
// The relay side (server-reply) uses crypto/rand directly.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"cryptobench/protocols/pqntor/pqntor"
)

type request struct {
	Suite        string `json:"suite"`
	KeyLen       int    `json:"key_len"`
	RelayID      string `json:"relay_id"`
	RelayB       string `json:"relay_B"`
	RelayBSecret string `json:"relay_b_secret"`
	Onionskin    string `json:"onionskin"`
	Reply        string `json:"reply"`
	State        string `json:"state"`
}

// usageError is bad input (exit 2), as opposed to a rejected handshake (exit 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usage(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func errorClass(err error) string {
	for _, c := range []struct {
		err   error
		class string
	}{
		{pqntor.ErrMalformed, "malformed"},
		{pqntor.ErrUnknownRelay, "unknown-relay"},
		{pqntor.ErrBadKey, "bad-key"},
		{pqntor.ErrHandshakeFailed, "handshake-failed"},
		{pqntor.ErrStateUsed, "state-used"},
		{pqntor.ErrParams, "invalid-argument"},
		{pqntor.ErrUnsupported, "unsupported"},
		{pqntor.ErrRandom, "random-failed"},
	} {
		if errors.Is(err, c.err) {
			return c.class
		}
	}
	return "internal"
}

func suiteByName(name string) (pqntor.Suite, error) {
	for _, s := range pqntor.Suites {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, usage("unknown suite %q", name)
}

func params(req *request) (pqntor.Params, error) {
	s, err := suiteByName(req.Suite)
	if err != nil {
		return pqntor.Params{}, err
	}
	p := pqntor.Params{Suite: s, KeyLen: req.KeyLen}
	if p.KeyLen == 0 {
		p.KeyLen = pqntor.DefaultKeyLen
	}
	return p, nil
}

func unhex(field, s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, usage("%s: %v", field, err)
	}
	return b, nil
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		return nil, err
	}
	return b, nil
}

func relayKeygen(req *request) (map[string]string, error) {
	p, err := params(req)
	if err != nil {
		return nil, err
	}
	z, err := p.Suite.Sizes()
	if err != nil {
		return nil, usage("%v", err)
	}
	id, err := randomBytes(z.ID)
	if err != nil {
		return nil, err
	}
	b, err := randomBytes(pqntor.X25519Len)
	if err != nil {
		return nil, err
	}
	relay, err := pqntor.NewRelayKeys(id, b)
	if err != nil {
		return nil, err
	}
	return map[string]string{"suite": p.Suite.String(), "relay_id": hex.EncodeToString(id),
		"relay_B": hex.EncodeToString(relay.PublicKey()), "relay_b_secret": hex.EncodeToString(b)}, nil
}

// state is the client-create output that client-finish needs.
type state struct {
	Suite   string `json:"suite"`
	KeyLen  int    `json:"key_len"`
	RelayID string `json:"relay_id"`
	RelayB  string `json:"relay_B"`
	Rand    string `json:"rand"` // x | d|z, as drawn from crypto/rand
}

// create runs ClientCreate with the given randomness (x, then d|z for pq-ntor).
func create(st *state) (*pqntor.ClientState, []byte, error) {
	p, err := params(&request{Suite: st.Suite, KeyLen: st.KeyLen})
	if err != nil {
		return nil, nil, err
	}
	id, err := unhex("relay_id", st.RelayID)
	if err != nil {
		return nil, nil, err
	}
	B, err := unhex("relay_B", st.RelayB)
	if err != nil {
		return nil, nil, err
	}
	r, err := unhex("rand", st.Rand)
	if err != nil {
		return nil, nil, err
	}
	rd := bytes.NewReader(r)
	cs, onionskin, err := pqntor.ClientCreate(id, B, p, rd)
	if err == nil && rd.Len() != 0 {
		err = fmt.Errorf("ClientCreate left %d bytes of randomness unread", rd.Len())
	}
	return cs, onionskin, err
}

func clientCreate(req *request) (map[string]string, error) {
	p, err := params(req)
	if err != nil {
		return nil, err
	}
	n := pqntor.X25519Len
	if p.Suite.IsPQ() {
		n += pqntor.MLKEMSeedLen
	}
	r, err := randomBytes(n)
	if err != nil {
		return nil, err
	}
	st := state{Suite: p.Suite.String(), KeyLen: p.KeyLen, RelayID: req.RelayID, RelayB: req.RelayB, Rand: hex.EncodeToString(r)}
	_, onionskin, err := create(&st)
	if err != nil {
		return nil, err
	}
	enc, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	return map[string]string{"state": hex.EncodeToString(enc), "onionskin": hex.EncodeToString(onionskin)}, nil
}

func serverReply(req *request) (map[string]string, error) {
	p, err := params(req)
	if err != nil {
		return nil, err
	}
	id, err := unhex("relay_id", req.RelayID)
	if err != nil {
		return nil, err
	}
	b, err := unhex("relay_b_secret", req.RelayBSecret)
	if err != nil {
		return nil, err
	}
	onionskin, err := unhex("onionskin", req.Onionskin)
	if err != nil {
		return nil, err
	}
	relay, err := pqntor.NewRelayKeys(id, b)
	if err != nil {
		return nil, err
	}
	reply, keys, err := pqntor.ServerReply(relay, p, onionskin, nil)
	if err != nil {
		return nil, err
	}
	return map[string]string{"reply": hex.EncodeToString(reply), "keys": hex.EncodeToString(keys)}, nil
}

func clientFinish(req *request) (map[string]string, error) {
	enc, err := unhex("state", req.State)
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(enc, &st); err != nil {
		return nil, usage("state: %v", err)
	}
	reply, err := unhex("reply", req.Reply)
	if err != nil {
		return nil, err
	}
	cs, _, err := create(&st)
	if err != nil {
		return nil, err
	}
	keys, err := pqntor.ClientFinish(cs, reply)
	if err != nil {
		return nil, err
	}
	return map[string]string{"keys": hex.EncodeToString(keys)}, nil
}

func main() {
	cmds := map[string]func(*request) (map[string]string, error){
		"relay-keygen": relayKeygen, "client-create": clientCreate,
		"server-reply": serverReply, "client-finish": clientFinish,
	}
	out := json.NewEncoder(os.Stdout)
	if len(os.Args) != 2 || cmds[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: pqntor-cli relay-keygen|client-create|server-reply|client-finish < request.json")
		os.Exit(2)
	}
	var req request
	dec := json.NewDecoder(os.Stdin)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		_ = out.Encode(map[string]string{"error": "invalid-argument", "detail": err.Error()})
		os.Exit(2)
	}
	res, err := cmds[os.Args[1]](&req)
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			_ = out.Encode(map[string]string{"error": "invalid-argument", "detail": err.Error()})
			os.Exit(2)
		}
		_ = out.Encode(map[string]string{"error": errorClass(err), "detail": err.Error()})
		os.Exit(1)
	}
	if err := out.Encode(res); err != nil {
		os.Exit(2)
	}
}
