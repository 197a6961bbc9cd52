/* The time-stamp counter for the Python driver (cbdriver/tsc.py loads this through ctypes): Python
 * has no way to execute rdtsc itself. x86-64 only; the Makefile builds nothing elsewhere. */
#include <stdint.h>
#include <x86intrin.h>

uint64_t cb_rdtsc(void) { return __rdtsc(); }
