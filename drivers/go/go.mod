module cryptobench/drivers/go

go 1.26.0

require (
	github.com/emmansun/gmsm v0.44.1
	golang.org/x/crypto v0.58.0
)

require golang.org/x/sys v0.49.0 // indirect
