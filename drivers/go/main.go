// Command cbdriver-go is cryptobench's Go driver: it speaks the JSON-lines
// driver protocol (docs/protocol.md, version 5) on stdin/stdout for one
// provider, selected by --provider.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
)

func main() {
	provider := flag.String("provider", "", "provider id ("+strings.Join(providerIDs(), ", ")+")")
	flag.Parse()
	p, ok := providers[*provider]
	if !ok {
		fmt.Fprintf(os.Stderr, "cbdriver-go: unknown provider %q (known: %s)\n", *provider, strings.Join(providerIDs(), ", "))
		os.Exit(2)
	}
	d := NewDriver(p)
	if err := d.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "cbdriver-go: %v\n", err)
		os.Exit(1)
	}
}

// Driver serves one provider.
type Driver struct {
	prov         *Provider
	resolutionNs int64
}

// NewDriver measures the clock resolution once, at start-up.
func NewDriver(p *Provider) *Driver {
	return &Driver{prov: p, resolutionNs: probeResolution()}
}

// Serve runs the request loop until bye or end of input. Lines may be
// arbitrarily long (verify requests carry several MB of hex).
func (d *Driver) Serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			resp, quit := d.HandleLine(line)
			w.Write(resp)
			w.WriteByte('\n')
			if ferr := w.Flush(); ferr != nil {
				return ferr
			}
			if quit {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil // end of input means bye
		}
		if err != nil {
			return err
		}
	}
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
	switch req.Cmd {
	case "hello":
		r, err := d.hello(req)
		return encodeResponse(r, err), false
	case "verify":
		r, err := d.verify(req)
		return encodeResponse(r, err), false
	case "bench":
		r, err := d.bench(req)
		return encodeResponse(r, err), false
	case "keypair":
		r, err := d.keypair(req)
		return encodeResponse(r, err), false
	case "leak":
		r, err := d.leak(req)
		return encodeResponse(r, err), false
	case "bye":
		return encodeResponse(okResponse{OK: true}, nil), true
	default:
		return encodeResponse(nil, fmt.Errorf("unknown cmd %q", req.Cmd)), false
	}
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
		Notes:          d.prov.Notes,
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
	key, err := decodeHex("key", req.Key)
	if err != nil {
		return nil, err
	}
	iv, err := decodeHex("iv", req.IV)
	if err != nil {
		return nil, err
	}
	cell, err := a.NewCell(newCellParams(req.Op, key, iv, uint32(*req.Seed), int(*req.Size), int(req.Chunk)))
	if err != nil {
		return nil, err
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

	runtime.GC() // preparation garbage should not be collected inside a sample

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
	}, nil
}
