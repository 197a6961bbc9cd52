// Command genvectors writes the ntor and pq-ntor test vectors
// (protocols/pqntor/vectors/*.json), or with -check verifies that the files
// on disk are exactly what it would write.
//
//	cd protocols/pqntor/go && go run ./cmd/genvectors           # write
//	cd protocols/pqntor/go && go run ./cmd/genvectors -check    # verify
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"cryptobench/protocols/pqntor/internal/kat"
)

func main() {
	out := flag.String("out", "../vectors", "directory of the vector files")
	check := flag.Bool("check", false, "compare with the files on disk instead of writing")
	flag.Parse()

	files, err := kat.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvectors:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	bad := 0
	for _, n := range names {
		path := filepath.Join(*out, n)
		if *check {
			old, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(old, files[n]) {
				fmt.Fprintf(os.Stderr, "genvectors: %s differs from what would be generated\n", path)
				bad++
				continue
			}
			fmt.Printf("%s: up to date\n", path)
			continue
		}
		if err := os.WriteFile(path, files[n], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genvectors:", err)
			os.Exit(1)
		}
		fmt.Printf("wrote %s (%d bytes)\n", path, len(files[n]))
	}
	if bad > 0 {
		os.Exit(1)
	}
}
