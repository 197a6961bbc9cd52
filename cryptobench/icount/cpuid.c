/* Prints the crypto-relevant CPU features CPUID reports, one name a line
 * (cryptobench/icount/cpu.py). Run natively and under valgrind, it shows what valgrind's emulated
 * CPU hides from a driver. */
#include <cpuid.h>
#include <stdio.h>

struct bit {
  unsigned leaf, reg, bit; /* reg: 0 ebx, 1 ecx, 2 edx */
  const char *name;        /* as /proc/cpuinfo spells it */
};

static const struct bit BITS[] = {
    {1, 1, 9, "ssse3"},       {1, 1, 19, "sse4_1"},   {1, 1, 1, "pclmulqdq"},
    {1, 1, 25, "aes"},        {1, 1, 28, "avx"},      {7, 0, 5, "avx2"},
    {7, 0, 8, "bmi2"},        {7, 0, 19, "adx"},      {7, 0, 29, "sha_ni"},
    {7, 0, 16, "avx512f"},    {7, 0, 30, "avx512bw"}, {7, 0, 31, "avx512vl"},
    {7, 0, 21, "avx512ifma"}, {7, 1, 9, "vaes"},      {7, 1, 10, "vpclmulqdq"},
};

int main(void) {
  unsigned r[2][4] = {{0}}; /* leaf 1 and leaf 7: ebx, ecx, edx */
  unsigned a, b, c, d;
  if (__get_cpuid(1, &a, &b, &c, &d))
    r[0][0] = b, r[0][1] = c, r[0][2] = d;
  if (__get_cpuid_max(0, NULL) >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    r[1][0] = b, r[1][1] = c, r[1][2] = d;
  }
  for (unsigned i = 0; i < sizeof BITS / sizeof BITS[0]; i++)
    if (r[BITS[i].leaf == 7][BITS[i].reg] >> BITS[i].bit & 1)
      puts(BITS[i].name);
  return 0;
}
