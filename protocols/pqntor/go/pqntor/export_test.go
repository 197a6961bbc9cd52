package pqntor

// CloneStateForTest copies an unused client state, so that the fuzz target
// can finish the same state many times without an ML-KEM key generation per
// input (fuzzing instruments the standard library too, which makes ML-KEM
// very slow there). Compiled only into this package's tests.
func CloneStateForTest(st *ClientState) *ClientState {
	c := *st
	c.ek = clone(st.ek)
	return &c
}
