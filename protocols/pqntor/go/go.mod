module cryptobench/protocols/pqntor

go 1.26.0
