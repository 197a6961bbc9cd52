package main

// Protocol version 7 (docs/protocol.md): request and response shapes,
// decoding, the dispatch of one request line to its handler (hello, verify,
// bench, keypair, leak, the TLS interop commands of tls_interop.go, bye),
// encoding, and turning any error into
// {"ok":false,"error":...}. The stdin loop is main.go's.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
)

// protocolVersion is the highest version this driver implements; hello
// accepts any requested version >= 1 and answers with this one.
const protocolVersion = 7

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

	// TLS cells (version 7): the test PKI (bench, tls-serve, tls-connect)
	// and the interop commands' fields
	TLS         *tlsPKI `json:"tls"`
	Port        int     `json:"port"`
	Connections int     `json:"connections"`
	TimeoutMs   int64   `json:"timeout_ms"`
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

	// public-key cases (since version 2)
	Public        string  `json:"public,omitempty"`
	Private       string  `json:"private,omitempty"`
	Sig           string  `json:"sig,omitempty"`
	Seed          string  `json:"seed,omitempty"`
	M             *string `json:"m,omitempty"`
	Ctx           string  `json:"ctx,omitempty"`
	Deterministic bool    `json:"deterministic,omitempty"`

	// key derivation and handshakes (since version 3): HKDF's ikm/salt/info and
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
	err := decodeHexFields([]hexField{{"key", r.Key, &c.Key}, {"iv", r.IV, &c.IV}, {"aad", r.AAD, &c.AAD}, {"msg", r.Msg, &c.Msg},
		{"public", r.Public, &c.Public}, {"private", r.Private, &c.Private}, {"sig", r.Sig, &c.Sig},
		{"seed", r.Seed, &c.Seed}, {"ctx", r.Ctx, &c.Ctx},
		{"ikm", r.IKM, &c.IKM}, {"salt", r.Salt, &c.Salt}, {"info", r.Info, &c.Info},
		{"relay_id", r.RelayID, &c.RelayID}, {"relay_b_secret", r.RelayBSecret, &c.RelayB},
		{"client_x_secret", r.ClientXSecret, &c.ClientX}, {"relay_y_secret", r.RelayYSecret, &c.RelayY},
		{"client_mlkem_seed", r.ClientMLKEMSeed, &c.MLKEMSeed}, {"mlkem_encaps_m", r.MLKEMEncapsM, &c.MLKEMM}}...)
	if err != nil {
		return nil, err
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
	TLS        *tlsReport `json:"tls,omitempty"` // TLS cells: what the untimed handshake showed
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

// Driver serves one provider.
type Driver struct {
	prov         *Provider
	resolutionNs int64
	interop      tlsInterop
}

// NewDriver measures the clock resolution once, at start-up.
func NewDriver(p *Provider) *Driver {
	return &Driver{prov: p, resolutionNs: probeResolution()}
}

// HandleLine answers one request line with one response line (without the
// newline); quit is true after bye. It never panics.
func (d *Driver) HandleLine(line []byte) (resp []byte, quit bool) {
	defer func() {
		if r := recover(); r != nil {
			resp, quit = encodeResponse(nil, fmt.Errorf("internal error: %v", r)), false
		}
	}()
	req, err := decodeRequest(line)
	if err != nil {
		return encodeResponse(nil, err), false
	}
	if req.Cmd == "bye" {
		return encodeResponse(okResponse{OK: true}, nil), true
	}
	handler, ok := map[string]func(*Request) (any, error){
		"hello":   func(r *Request) (any, error) { return d.hello(r) },
		"verify":  func(r *Request) (any, error) { return d.verify(r) },
		"bench":   func(r *Request) (any, error) { return d.bench(r) },
		"keypair": func(r *Request) (any, error) { return d.keypair(r) },
		"leak":    func(r *Request) (any, error) { return d.leak(r) },

		"tls-serve":   func(r *Request) (any, error) { return d.tlsServe(r) },
		"tls-result":  func(r *Request) (any, error) { return d.tlsResult(r) },
		"tls-connect": func(r *Request) (any, error) { return d.tlsConnect(r) },
	}[req.Cmd]
	if !ok {
		return encodeResponse(nil, fmt.Errorf("unknown cmd %q", req.Cmd)), false
	}
	r, err := handler(req)
	return encodeResponse(r, err), false
}

func (d *Driver) hello(req *Request) (*helloResponse, error) {
	// Any version >= 1 is accepted; the answer is the highest this driver
	// implements and the orchestrator decides what to use.
	if req.Protocol != nil && *req.Protocol < 1 {
		return nil, fmt.Errorf("protocol %d not supported (this driver speaks 1 to %d)", *req.Protocol, protocolVersion)
	}
	offers := map[string][]string{}
	stream := []string{}
	for _, a := range d.prov.Algs {
		offers[a.Name] = append([]string(nil), a.Ops...)
		if a.Stream {
			stream = append(stream, a.Name)
		}
	}
	sort.Strings(stream)
	return &helloResponse{
		OK:             true,
		Protocol:       protocolVersion,
		Provider:       d.prov.ID,
		Language:       d.prov.Language,
		Library:        d.prov.Library,
		LibraryVersion: d.prov.Version(),
		Runtime:        runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Clock:          clockInfo{Source: clockSource, ResolutionNs: d.resolutionNs, ProbeReads: probeReads},
		Offers:         offers,
		Stream:         stream,
		Notes:          helloNotes(d.prov.Notes),
	}, nil
}

func (d *Driver) lookup(name string) (*Alg, error) {
	if name == "" {
		return nil, fmt.Errorf("request has no \"alg\"")
	}
	a := d.prov.alg(name)
	if a == nil {
		return nil, fmt.Errorf("not offered: alg %q by %s", name, d.prov.ID)
	}
	return a, nil
}

func (d *Driver) verify(req *Request) (*verifyResponse, error) {
	a, err := d.lookup(req.Alg)
	if err != nil {
		return nil, err
	}
	results := make([]caseResult, 0, len(req.Cases))
	for i := range req.Cases {
		results = append(results, runCase(a, &req.Cases[i]))
	}
	return &verifyResponse{OK: true, Results: results}, nil
}

// runCase is the case executor the verify request and the native vector
// test share.
func runCase(a *Alg, rc *rawCase) caseResult {
	res := caseResult{ID: rc.ID}
	c, err := rc.decode()
	if err == nil {
		var out []byte
		out, err = execCase(a, c)
		if err == nil {
			h := encodeHex(out)
			res.Out = &h
			return res
		}
	}
	var unsup *unsupportedError
	switch {
	case errors.Is(err, errRejected):
		res.Rejected = true
	case errors.As(err, &unsup):
		res.Unsupported = oneLine(unsup.why)
	default:
		res.Error = oneLine(err.Error())
	}
	return res
}

// keypair answers a fresh key pair from the provider's own generator.
func (d *Driver) keypair(req *Request) (*keypairResponse, error) {
	a, err := d.lookup(req.Alg)
	if err != nil {
		return nil, err
	}
	if a.Keypair == nil {
		return nil, fmt.Errorf("not offered: keypair for %s by %s (not a public-key algorithm)", a.Name, d.prov.ID)
	}
	pub, priv, err := a.Keypair()
	if err != nil {
		return nil, fmt.Errorf("keypair %s: %v", a.Name, err)
	}
	return &keypairResponse{OK: true, Public: encodeHex(pub), Private: encodeHex(priv)}, nil
}

func (d *Driver) bench(req *Request) (*benchResponse, error) {
	a, err := d.lookup(req.Alg)
	if err != nil {
		return nil, err
	}
	if req.Op == "" {
		return nil, fmt.Errorf("request has no \"op\"")
	}
	if !a.offers(req.Op) {
		return nil, fmt.Errorf("not offered: op %q for %s by %s", req.Op, a.Name, d.prov.ID)
	}
	switch {
	case req.Size == nil:
		return nil, fmt.Errorf("request has no \"size\"")
	case *req.Size < 0 || *req.Size > 1<<31:
		return nil, fmt.Errorf("size %d out of range", *req.Size)
	case req.Seed == nil:
		return nil, fmt.Errorf("request has no \"seed\"")
	case *req.Seed == 0 || *req.Seed > 0xffffffff:
		return nil, fmt.Errorf("seed %d must be a non-zero 32-bit integer", *req.Seed)
	case req.Samples == nil || *req.Samples < 1:
		return nil, fmt.Errorf("\"samples\" must be at least 1")
	case req.Chunk < 0 || req.Batch < 0 || req.TargetNs < 0 || req.WarmupNs < 0:
		return nil, fmt.Errorf("chunk, batch, target_ns and warmup_ns must not be negative")
	case req.Chunk > 0 && !a.Stream:
		return nil, fmt.Errorf("not offered: %s has no streaming API in %s (chunk %d asked; Go AEADs and public-key operations are one-shot)", a.Name, d.prov.ID, req.Chunk)
	case req.Chunk > maxChunk:
		return nil, fmt.Errorf("chunk %d is larger than 1 MiB (protocol.md: chunk is at most 1 MiB)", req.Chunk)
	}
	var key, iv []byte
	if err := decodeHexFields(hexField{"key", req.Key, &key}, hexField{"iv", req.IV, &iv}); err != nil {
		return nil, err
	}
	params := newCellParams(req.Op, key, iv, uint32(*req.Seed), int(*req.Size), int(req.Chunk))
	params.TLS = req.TLS
	cell, err := a.NewCell(params)
	if err != nil {
		return nil, err
	}
	if a.Kind == "tls" { // client and server take turns on one P (tls.go)
		defer oneP()()
	}

	// The checksum of one operation on the fixed input, outside any timing.
	prepare(cell, 1)
	if err := cell.Err(); err != nil {
		return nil, err
	}
	sink, checksum := checksumRun(cell)
	if err := cell.Err(); err != nil {
		return nil, err
	}
	var report *tlsReport // a TLS cell is checked on that handshake before timing
	if r, ok := cell.(tlsReporter); ok {
		if report, err = r.tlsReport(); err != nil {
			return nil, err
		}
	}

	// Preparation garbage should not be collected inside a sample; a request that only asks one
	// operation's checksum times nothing worth it (docs/protocol.md, "The measurement loop").
	if !checksumOnly(req) {
		runtime.GC()
	}

	m := measure(cell, req.Batch, req.TargetNs, req.WarmupNs, int(*req.Samples))
	if err := cell.Err(); err != nil {
		return nil, err
	}
	// one more operation, untimed: state leaking between operations shows here
	prepare(cell, 1)
	s, after := checksumRun(cell)
	if err := cell.Err(); err != nil {
		return nil, err
	}
	return &benchResponse{
		OK:         true,
		Batch:      m.Batch,
		SamplesNs:  m.Samples,
		SamplesTSC: m.Ticks,
		Checksum:   checksum,
		After:      after,
		Sink:       sink + m.Sink + s,
		Warmup:     m.Warmup,
		PeakRSSKb:  peakRSSKb(),
		TLS:        report,
	}, nil
}

// checksumOnly: a request that times one operation only to have its checksum
// (cross-checks and differential inputs ask hundreds of these): no garbage
// collection before it, which would cost more than the operation.
func checksumOnly(req *Request) bool {
	return req.Batch == 1 && req.Samples != nil && *req.Samples == 1 && req.TargetNs == 0 && req.WarmupNs == 0
}
