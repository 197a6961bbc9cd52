package main

// Protocol version 4 (docs/protocol.md): request and response shapes,
// decoding, encoding, and turning any error into {"ok":false,"error":...}.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// protocolVersion is the highest version this driver implements; hello
// accepts any requested version >= 1 and answers with this one.
const protocolVersion = 5

// defaultTargetNs is the calibration target when a bench request has none.
const defaultTargetNs = 5_000_000

// Request is any request; fields not used by a command are ignored.
type Request struct {
	Cmd      string `json:"cmd"`
	Protocol *int   `json:"protocol"`

	// verify, bench and keypair
	Alg string `json:"alg"`

	// verify
	Cases []rawCase `json:"cases"`

	// leak (and op)
	Inputs []rawCase `json:"inputs"`
	Order  []int     `json:"order"`

	// bench
	Op       string  `json:"op"`
	Size     *int64  `json:"size"`
	Chunk    int64   `json:"chunk"`
	Key      string  `json:"key"`
	IV       string  `json:"iv"`
	Seed     *uint64 `json:"seed"`
	Batch    int64   `json:"batch"`
	TargetNs int64   `json:"target_ns"`
	WarmupNs int64   `json:"warmup_ns"`
	Samples  *int64  `json:"samples"`
}

// rawCase is a verify case as it arrives (hex strings).
type rawCase struct {
	ID      string  `json:"id"`
	Op      string  `json:"op"`
	Key     string  `json:"key,omitempty"`
	IV      string  `json:"iv,omitempty"`
	Counter *uint64 `json:"counter,omitempty"`
	AAD     string  `json:"aad,omitempty"`
	Msg     string  `json:"msg,omitempty"`

	// public-key cases (version 2)
	Public        string  `json:"public,omitempty"`
	Private       string  `json:"private,omitempty"`
	Sig           string  `json:"sig,omitempty"`
	Seed          string  `json:"seed,omitempty"`
	M             *string `json:"m,omitempty"`
	Ctx           string  `json:"ctx,omitempty"`
	Deterministic bool    `json:"deterministic,omitempty"`

	// key derivation and handshakes (version 3): HKDF's ikm/salt/info and
	// output size; the handshake case's secrets and key length
	IKM             string `json:"ikm,omitempty"`
	Salt            string `json:"salt,omitempty"`
	Info            string `json:"info,omitempty"`
	Size            *int64 `json:"size,omitempty"`
	RelayID         string `json:"relay_id,omitempty"`
	RelayBSecret    string `json:"relay_b_secret,omitempty"`
	ClientXSecret   string `json:"client_x_secret,omitempty"`
	RelayYSecret    string `json:"relay_y_secret,omitempty"`
	ClientMLKEMSeed string `json:"client_mlkem_seed,omitempty"`
	MLKEMEncapsM    string `json:"mlkem_encaps_m,omitempty"`
	KeyLen          *int64 `json:"key_len,omitempty"`
}

// decode turns the hex fields into bytes.
func (r *rawCase) decode() (*Case, error) {
	c := &Case{ID: r.ID, Op: r.Op, Deterministic: r.Deterministic}
	var err error
	for _, f := range []struct {
		name string
		src  string
		dst  *[]byte
	}{{"key", r.Key, &c.Key}, {"iv", r.IV, &c.IV}, {"aad", r.AAD, &c.AAD}, {"msg", r.Msg, &c.Msg},
		{"public", r.Public, &c.Public}, {"private", r.Private, &c.Private}, {"sig", r.Sig, &c.Sig},
		{"seed", r.Seed, &c.Seed}, {"ctx", r.Ctx, &c.Ctx},
		{"ikm", r.IKM, &c.IKM}, {"salt", r.Salt, &c.Salt}, {"info", r.Info, &c.Info},
		{"relay_id", r.RelayID, &c.RelayID}, {"relay_b_secret", r.RelayBSecret, &c.RelayB},
		{"client_x_secret", r.ClientXSecret, &c.ClientX}, {"relay_y_secret", r.RelayYSecret, &c.RelayY},
		{"client_mlkem_seed", r.ClientMLKEMSeed, &c.MLKEMSeed}, {"mlkem_encaps_m", r.MLKEMEncapsM, &c.MLKEMM}} {
		if *f.dst, err = decodeHex(f.name, f.src); err != nil {
			return nil, err
		}
	}
	if r.M != nil {
		if c.M, err = decodeHex("m", *r.M); err != nil {
			return nil, err
		}
		c.HasM = true
	}
	for _, f := range []struct {
		name string
		src  *int64
		dst  *int
	}{{"size", r.Size, &c.Size}, {"key_len", r.KeyLen, &c.KeyLen}} {
		if f.src != nil {
			if *f.src < 0 || *f.src > 1<<31 {
				return nil, fmt.Errorf("%s %d out of range", f.name, *f.src)
			}
			*f.dst = int(*f.src)
		}
	}
	if r.Counter != nil {
		if *r.Counter > 0xffffffff {
			return nil, fmt.Errorf("counter %d does not fit 32 bits", *r.Counter)
		}
		c.Counter = uint32(*r.Counter)
	}
	return c, nil
}

type errorResponse struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

type okResponse struct {
	OK bool `json:"ok"`
}

type clockInfo struct {
	Source       string `json:"source"`
	ResolutionNs int64  `json:"resolution_ns"`
	ProbeReads   int    `json:"probe_reads"`
}

type helloResponse struct {
	OK             bool                `json:"ok"`
	Protocol       int                 `json:"protocol"`
	Provider       string              `json:"provider"`
	Language       string              `json:"language"`
	Library        string              `json:"library"`
	LibraryVersion string              `json:"library_version"`
	Runtime        string              `json:"runtime"`
	Clock          clockInfo           `json:"clock"`
	Offers         map[string][]string `json:"offers"`
	Stream         []string            `json:"stream"`
	Notes          []string            `json:"notes"`
}

// caseResult is one of {id, out}, {id, rejected: true}, {id, error},
// {id, unsupported}.
type caseResult struct {
	ID          string  `json:"id"`
	Out         *string `json:"out,omitempty"`
	Rejected    bool    `json:"rejected,omitempty"`
	Error       string  `json:"error,omitempty"`
	Unsupported string  `json:"unsupported,omitempty"`
}

// keypairResponse answers keypair: a fresh key pair in the encodings of
// protocol.md ("Encodings").
type keypairResponse struct {
	OK      bool   `json:"ok"`
	Public  string `json:"public"`
	Private string `json:"private"`
}

type verifyResponse struct {
	OK      bool         `json:"ok"`
	Results []caseResult `json:"results"`
}

type warmupInfo struct {
	Ops            int64  `json:"ops"`
	Ns             int64  `json:"ns"`
	CalibrationOps *int64 `json:"calibration_ops,omitempty"`
}

type benchResponse struct {
	OK         bool       `json:"ok"`
	Batch      int64      `json:"batch"`
	SamplesNs  []int64    `json:"samples_ns"`
	SamplesTSC []uint64   `json:"samples_tsc,omitempty"` // optional: the counter beside the clock
	Checksum   string     `json:"checksum"`
	After      string     `json:"checksum_after"`
	Sink       uint64     `json:"sink"`
	Warmup     warmupInfo `json:"warmup"`
	PeakRSSKb  int64      `json:"peak_rss_kb"`
}

// decodeRequest parses one request line.
func decodeRequest(line []byte) (*Request, error) {
	r := Request{TargetNs: defaultTargetNs} // absent target_ns: 5 ms (protocol.md)
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("cannot parse request: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("cannot parse request: trailing data after the JSON object")
	}
	if r.Cmd == "" {
		return nil, fmt.Errorf("request has no \"cmd\"")
	}
	return &r, nil
}

// oneLine squeezes an error message onto one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		s = "error"
	}
	return s
}

// encodeResponse serialises a response; an error becomes an error response.
func encodeResponse(resp any, err error) []byte {
	if err != nil {
		resp = errorResponse{OK: false, Error: oneLine(err.Error())}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if e := enc.Encode(resp); e != nil {
		buf.Reset()
		_ = enc.Encode(errorResponse{OK: false, Error: oneLine("cannot encode response: " + e.Error())})
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
