package main

// The leak request (protocol version 5, docs/protocol.md § leak): single
// operations timed one by one for the orchestrator's dudect-style check.
// Each measurement gets its own prepared input (parsed from its own copy of
// the case), so a fixed class reads as many distinct buffers as a random one.

import (
	"errors"
	"fmt"
	"time"
)

type leakResponse struct {
	OK       bool     `json:"ok"`
	Counter  string   `json:"counter"`
	Times    []int64  `json:"times"`
	Outcomes []string `json:"outcomes"`
}

func (d *Driver) leak(req *Request) (*leakResponse, error) {
	a, err := d.lookup(req.Alg)
	if err != nil {
		return nil, err
	}
	if !a.offers(req.Op) {
		return nil, fmt.Errorf("not offered: %s %s by %s", req.Alg, req.Op, d.prov.ID)
	}
	if a.Prepare == nil {
		return nil, fmt.Errorf("not offered: %s %s has no single-call preparation in %s", req.Alg, req.Op, d.prov.ID)
	}
	if len(req.Inputs) == 0 || len(req.Order) == 0 {
		return nil, errors.New("fields inputs and order must be non-empty arrays")
	}
	calls := make([]func() ([]byte, error), len(req.Order))
	for i, k := range req.Order {
		if k < 0 || k >= len(req.Inputs) {
			return nil, fmt.Errorf("order[%d] is not an index into inputs (0 .. %d)", i, len(req.Inputs)-1)
		}
		rc := req.Inputs[k]
		rc.Op = req.Op
		c, err := rc.decode()
		if err == nil {
			calls[i], err = a.Prepare(c)
		}
		if err != nil {
			return nil, fmt.Errorf("input %d: %v", k, err)
		}
	}
	times := make([]int64, len(calls))
	refused := make([]bool, len(calls))
	for i, call := range calls {
		t0 := time.Now()
		_, err := call()
		times[i] = int64(time.Since(t0))
		if err != nil && !errors.Is(err, errRejected) {
			return nil, fmt.Errorf("measurement %d: %v", i, err)
		}
		refused[i] = err != nil
	}
	outcomes := make([]string, len(req.Inputs))
	for i := range outcomes {
		outcomes[i] = "unused"
	}
	for i, k := range req.Order {
		if outcomes[k] == "unused" {
			outcomes[k] = map[bool]string{true: "rejected", false: "ok"}[refused[i]]
		}
	}
	return &leakResponse{OK: true, Counter: "clock", Times: times, Outcomes: outcomes}, nil
}
