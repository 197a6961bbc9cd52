/* Print the x86 capability vector a static libcrypto ends up with, after
 * CPUID detection and the OPENSSL_ia32cap environment variable, as the
 * logical 64-bit vectors LV0..LV4 that OPENSSL_ia32cap=LV0:LV1:... addresses.
 * Linked statically against one build (scripts/openssl/ia32cap_check.py):
 * OPENSSL_ia32cap_P is hidden, not static, so a static link can read it.
 * 1.1.1 and 3.0 keep 4 words (LV0, LV1); 3.5 and later (3.6.3, 4.0.3 here) keep 10.
 * Versions in between are not covered: they print LV0, LV1 only. */
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <stdio.h>

extern unsigned int OPENSSL_ia32cap_P[];

#if OPENSSL_VERSION_NUMBER >= 0x30500000L
#define WORDS 10
#else
#define WORDS 4
#endif

int main(void) {
  OPENSSL_init_crypto(0, NULL);
  printf("%s", OpenSSL_version(OPENSSL_VERSION));
  for (int i = 0; i < WORDS; i += 2) {
    unsigned long long lv = (unsigned long long)OPENSSL_ia32cap_P[i] |
                            (unsigned long long)OPENSSL_ia32cap_P[i + 1] << 32;
    printf("%sLV%d=0x%016llx", i ? " " : "\t", i / 2, lv);
  }
  printf("\n");
  return 0;
}
