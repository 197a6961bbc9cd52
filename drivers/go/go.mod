module cryptobench/drivers/go

go 1.26.0

require (
	cryptobench/protocols/pqntor v0.0.0
	github.com/cloudflare/circl v1.6.5
	github.com/emmansun/gmsm v0.44.1
	golang.org/x/crypto v0.58.0
)

require golang.org/x/sys v0.49.0 // indirect

// The ntor / pq-ntor library of this repository (docs/pq-ntor.md), for the handshake cells.
replace cryptobench/protocols/pqntor => ../../protocols/pqntor/go
