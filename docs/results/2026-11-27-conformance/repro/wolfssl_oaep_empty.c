/* wolfSSL and an empty RSA-OAEP message (Wycheproof rsa_oaep_2048_sha256_mgf1sha256 #1), outside
 * cryptobench: OpenSSL (through PyPI's cryptography) encrypts "" and "\0" under one key; wolfSSL
 * decrypts each with the call and arguments the c:wolfssl plugin uses.
 *   python3 -c '...' (see README) writes key.der, ct0, ct1
 *   gcc wolfssl_oaep_empty.c $(pkg-config --cflags --libs wolfssl) && ./a.out
 * Debian 12's libwolfssl 5.5.4 prints -131 (RSA_BUFFER_E) for ct0 and 1 for ct1; encrypting the empty
 * message is refused too (BAD_FUNC_ARG), see wolfSSL/wolfssl pull request 10012. */
#include <wolfssl/options.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/random.h>
#include <wolfssl/wolfcrypt/rsa.h>
#include <stdio.h>

static int slurp(const char *path, byte *buf, int n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  int r = (int)fread(buf, 1, (size_t)n, f);
  fclose(f);
  return r;
}

int main(void) {
  RsaKey key;
  WC_RNG rng;
  byte der[4096], ct[512], pt[512];
  word32 idx = 0;
  wc_InitRng(&rng);
  wc_InitRsaKey(&key, NULL);
  int n = slurp("key.der", der, sizeof der);
  if (n <= 0 || wc_RsaPrivateKeyDecode(der, &idx, &key, (word32)n) != 0)
    return fprintf(stderr, "cannot read key.der\n"), 1;
  wc_RsaSetRNG(&key, &rng);
  const char *files[] = {"ct0", "ct1"};
  for (int i = 0; i < 2; i++) {
    int c = slurp(files[i], ct, sizeof ct);
    int d = wc_RsaPrivateDecrypt_ex(ct, (word32)c, pt, sizeof pt, &key, WC_RSA_OAEP_PAD, WC_HASH_TYPE_SHA256,
                                    WC_MGF1SHA256, NULL, 0);
    printf("%s (a %d-byte message): wc_RsaPrivateDecrypt_ex = %d %s\n", files[i], i, d,
           d < 0 ? wc_GetErrorString(d) : "");
  }
  byte none[1] = {0};
  int e = wc_RsaPublicEncrypt_ex(none, 0, ct, sizeof ct, &key, &rng, WC_RSA_OAEP_PAD, WC_HASH_TYPE_SHA256,
                                 WC_MGF1SHA256, NULL, 0);
  printf("encrypt a 0-byte message: %d %s\n", e, e < 0 ? wc_GetErrorString(e) : "");
  return 0;
}
