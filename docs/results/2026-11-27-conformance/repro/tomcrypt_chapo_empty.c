/* libtomcrypt's ChaCha20-Poly1305 on Wycheproof chacha20_poly1305_test.json #3 (empty message, 8 bytes
 * of AAD), outside cryptobench: the call order the c:libtomcrypt plugin uses, the same without the
 * encrypt call, and the library's own one-shot chacha20poly1305_memory.
 *   gcc tomcrypt_chapo_empty.c -ltomcrypt && ./a.out
 * Debian 12's libtomcrypt 1.18.2 gives b39849ff533af3f5320bfa9331e05b34 all three ways; the RFC 8439
 * tag (Wycheproof's, and every other provider's) is 906fa6284b52f87b7359cbaa7563c709. */
#include <tomcrypt.h>
#include <stdio.h>
#include <string.h>

static void unhex(const char *h, unsigned char *b) {
  for (size_t i = 0; i < strlen(h) / 2; i++)
    sscanf(h + 2 * i, "%2hhx", &b[i]);
}
static void show(const char *what, const unsigned char *t) {
  printf("%-52s", what);
  for (int i = 0; i < 16; i++)
    printf("%02x", t[i]);
  printf("\n");
}

int main(void) {
  unsigned char key[32], iv[12], aad[8], tag[16], out[1], in[1] = {0};
  unsigned long taglen;
  chacha20poly1305_state st;
  unhex("7a4cd759172e02eb204db2c3f5c746227df584fc1345196391dbb9577a250742", key);
  unhex("a92ef0ac991dd516a3c6f689", iv);
  unhex("bd506764f2d2c410", aad);

  chacha20poly1305_init(&st, key, 32);
  chacha20poly1305_setiv(&st, iv, 12);
  chacha20poly1305_add_aad(&st, aad, 8);
  chacha20poly1305_encrypt(&st, in, 0, out);
  taglen = 16;
  chacha20poly1305_done(&st, tag, &taglen);
  show("init, setiv, add_aad, encrypt(0 bytes), done:", tag);

  chacha20poly1305_init(&st, key, 32);
  chacha20poly1305_setiv(&st, iv, 12);
  chacha20poly1305_add_aad(&st, aad, 8);
  taglen = 16;
  chacha20poly1305_done(&st, tag, &taglen);
  show("init, setiv, add_aad, done:", tag);

  taglen = 16;
  chacha20poly1305_memory(key, 32, iv, 12, aad, 8, in, 0, out, tag, &taglen, CHACHA20POLY1305_ENCRYPT);
  show("chacha20poly1305_memory (one-shot):", tag);
  printf("%-52s906fa6284b52f87b7359cbaa7563c709\n", "Wycheproof #3 (RFC 8439):");
  return 0;
}
