#include "textflag.h"

// func tscNow() uint64: the time-stamp counter (RDTSC, EDX:EAX).
TEXT ·tscNow(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET
