// Command cbdriver-go is cryptobench's Go driver: it speaks the JSON-lines
// driver protocol (docs/protocol.md, version 7) on stdin/stdout for one
// provider, selected by --provider. This file is the stdin loop
// (docs/drivers.md); protocol.go dispatches and answers each line.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
