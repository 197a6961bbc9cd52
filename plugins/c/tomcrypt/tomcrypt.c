/* c:libtomcrypt — LibTomCrypt 1.18 as a cryptobench plugin, through its
 * documented API: the hash descriptors (init, process, done), hmac_memory, and
 * the mode states cbc_ / ctr_ / gcm_ / chacha20poly1305_, keyed once per cell
 * with the IV or nonce set again per message. HMAC is hmac_memory, which
 * processes the key with every message: LibTomCrypt's hmac_done frees the keyed
 * state, so no keyed state outlives one message. */
#include <stdio.h>
#include <stdlib.h>
#include <tomcrypt.h>

#include "../common/oneshot.h"

#define CHECK(call) ONESHOT_CHECK(call, #call, int, CRYPT_OK, error_to_string)

static const struct ltc_hash_descriptor *const HASHES[] = {
    &sha256_desc,   &sha512_desc,      &sha3_256_desc,
    &sha3_512_desc, &blake2b_512_desc, &blake2s_256_desc,
};
static int aes;

static cb_status init(char *err, size_t errlen) {
  for (size_t i = 0; i < sizeof HASHES / sizeof HASHES[0]; i++)
    if (register_hash(HASHES[i]) == -1) {
      snprintf(err, errlen, "register_hash(%s) failed", HASHES[i]->name);
      return CB_ERROR;
    }
  if ((aes = register_cipher(&aes_desc)) == -1) {
    snprintf(err, errlen, "register_cipher(aes) failed");
    return CB_ERROR;
  }
  return CB_OK;
}

static int hash(oneshot_cell *c) {
  const struct ltc_hash_descriptor *d = HASHES[c->def->arg];
  hash_state md;
  CHECK(d->init(&md));
  CHECK(d->process(&md, c->p.msg, c->p.msg_len));
  CHECK(d->done(&md, c->out));
  return 0;
}

static int hmac(oneshot_cell *c) {
  unsigned long n = c->out_len;
  CHECK(
      hmac_memory(find_hash("sha256"), c->p.key, c->p.key_len, c->p.msg, c->p.msg_len, c->out, &n));
  return 0;
}

/* ---- AES-CBC, AES-CTR ---- */

static int cbc_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(symmetric_CBC)) != 0)
    return CB_FAIL;
  CHECK(cbc_start(aes, c->p.iv, c->p.key, (int)c->p.key_len, 0, c->ctx));
  return 0;
}
ONESHOT_CLEANUP(cbc_cleanup, cbc_done(c->ctx))
/* one message of a mode with an IV (CBC, CTR): LibTomCrypt gives them the same calls, <mode>_setiv
 * then <mode>_encrypt or <mode>_decrypt */
#define WITH_IV(fn, SETIV, CRYPT)                                                                  \
  static int fn(oneshot_cell *c) {                                                                 \
    CHECK(SETIV(c->p.iv, c->p.iv_len, c->ctx));                                                    \
    CHECK(CRYPT(c->p.msg, c->out, c->p.msg_len, c->ctx));                                          \
    return 0;                                                                                      \
  }
WITH_IV(cbc_enc, cbc_setiv, cbc_encrypt)
WITH_IV(cbc_dec, cbc_setiv, cbc_decrypt)

/* ---- AES-ECB ---- */

static int ecb_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(symmetric_ECB)) != 0)
    return CB_FAIL;
  CHECK(ecb_start(aes, c->p.key, (int)c->p.key_len, 0, c->ctx));
  return 0;
}
ONESHOT_CLEANUP(ecb_cleanup, ecb_done(c->ctx))
static int ecb_enc(oneshot_cell *c) {
  CHECK(ecb_encrypt(c->p.msg, c->out, c->p.msg_len, c->ctx));
  return 0;
}
static int ecb_dec(oneshot_cell *c) {
  CHECK(ecb_decrypt(c->p.msg, c->out, c->p.msg_len, c->ctx));
  return 0;
}

static int ctr_setup(oneshot_cell *c) { /* the whole 16-byte block is the big-endian counter */
  if (oneshot_ctx(c, sizeof(symmetric_CTR)) != 0)
    return CB_FAIL;
  CHECK(ctr_start(aes, c->p.iv, c->p.key, (int)c->p.key_len, 0, CTR_COUNTER_BIG_ENDIAN, c->ctx));
  return 0;
}
ONESHOT_CLEANUP(ctr_cleanup, ctr_done(c->ctx))
WITH_IV(ctr, ctr_setiv, ctr_encrypt)

/* ---- AEADs: arg 0 = AES-GCM, 1 = ChaCha20-Poly1305 ---- */

typedef union aead_state {
  gcm_state gcm;
  chacha20poly1305_state chapo;
} aead_state;

static int aead_setup(oneshot_cell *c) {
  ONESHOT_STATE(aead_state, s);
  if (c->def->arg == 0)
    CHECK(gcm_init(&s->gcm, aes, c->p.key, (int)c->p.key_len));
  else
    CHECK(chacha20poly1305_init(&s->chapo, c->p.key, c->p.key_len));
  return 0;
}

/* one message: nonce, AAD, the n bytes of in into out, the tag into tag */
static int aead(oneshot_cell *c, const uint8_t *in, size_t n, uint8_t *tag, int decrypt) {
  aead_state *s = c->ctx;
  unsigned long tag_len = CB_TAG_LEN;
  if (c->def->arg == 0) {
    CHECK(gcm_reset(&s->gcm));
    CHECK(gcm_add_iv(&s->gcm, c->p.iv, c->p.iv_len));
    CHECK(gcm_add_aad(&s->gcm, c->p.aad, c->p.aad_len));
    CHECK(gcm_process(&s->gcm, decrypt ? c->out : (uint8_t *)in, n,
                      decrypt ? (uint8_t *)in : c->out, decrypt ? GCM_DECRYPT : GCM_ENCRYPT));
    CHECK(gcm_done(&s->gcm, tag, &tag_len));
  } else {
    /* chacha20poly1305_done wipes the whole state, key included: without init again every
     * operation after the first ran under a zero key (check-driver's last-output rule found it) */
    CHECK(chacha20poly1305_init(&s->chapo, c->p.key, c->p.key_len));
    CHECK(chacha20poly1305_setiv(&s->chapo, c->p.iv, c->p.iv_len));
    CHECK(chacha20poly1305_add_aad(&s->chapo, c->p.aad, c->p.aad_len));
    if (decrypt)
      CHECK(chacha20poly1305_decrypt(&s->chapo, in, n, c->out));
    else
      CHECK(chacha20poly1305_encrypt(&s->chapo, in, n, c->out));
    CHECK(chacha20poly1305_done(&s->chapo, tag, &tag_len));
  }
  return 0;
}
static int seal(oneshot_cell *c) {
  return aead(c, c->p.msg, c->p.msg_len, c->out + c->p.msg_len, 0);
}
static int open_(oneshot_cell *c) {
  size_t n = c->p.msg_len - CB_TAG_LEN;
  uint8_t tag[CB_TAG_LEN];
  int r = aead(c, c->p.msg, n, tag, 1);
  if (r != 0)
    return r;
  if (mem_neq(tag, c->p.msg + n, CB_TAG_LEN))
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return 0;
}

/* ---- AES-CCM through ccm_memory with the key scheduled once (its uskey argument) ---- */

static int ccm_setup(oneshot_cell *c) {
  if (oneshot_ctx(c, sizeof(symmetric_key)) != 0)
    return CB_FAIL;
  CHECK(cipher_descriptor[aes].setup(c->p.key, (int)c->p.key_len, 0, c->ctx));
  return 0;
}
/* ccm_memory takes its input without const; it reads it only */
static int ccm_seal(oneshot_cell *c) {
  size_t n = c->p.msg_len;
  unsigned long tag_len = CB_TAG_LEN;
  CHECK(ccm_memory(aes, NULL, 0, c->ctx, c->p.iv, c->p.iv_len, c->p.aad, c->p.aad_len,
                   (unsigned char *)c->p.msg, n, c->out, c->out + n, &tag_len, CCM_ENCRYPT));
  return 0;
}
static int ccm_open(oneshot_cell *c) { /* decryption checks the tag (CRYPT_ERROR on mismatch) */
  size_t n = c->p.msg_len - CB_TAG_LEN;
  unsigned char tag[CB_TAG_LEN];
  unsigned long tag_len = CB_TAG_LEN;
  memcpy(tag, c->p.msg + n, CB_TAG_LEN);
  int r = ccm_memory(aes, NULL, 0, c->ctx, c->p.iv, c->p.iv_len, c->p.aad, c->p.aad_len, c->out, n,
                     (unsigned char *)c->p.msg, tag, &tag_len, CCM_DECRYPT);
  if (r == CRYPT_ERROR)
    return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
  return r == CRYPT_OK ? 0 : oneshot_fail(c, "ccm_memory: %s", error_to_string(r));
}

#define HASH(name, i, size)                                                                        \
  { {name, {"hash"}, 0, 0, 0}, 0, 0, 0, size, NULL, {hash}, NULL, i }
#define CBC(name, key)                                                                             \
  { {name, {"encrypt", "decrypt"}}, key, 16, 16, 0, cbc_setup, {cbc_enc, cbc_dec}, cbc_cleanup }
#define CTR(name, key)                                                                             \
  { {name, {"encrypt", "decrypt"}}, key, 16, 0, 0, ctr_setup, {ctr, ctr}, ctr_cleanup }
#define AEAD(name, key, kind)                                                                      \
  { {name, {"seal", "open"}}, key, 12, 0, 0, aead_setup, {seal, open_}, oneshot_free_ctx, kind }

/* HKDF-SHA256: IKM = msg, salt = key, info = iv */
static int hkdf_sha256(oneshot_cell *c) {
  if (c->out_len > ONESHOT_HKDF_MAX)
    return oneshot_fail(c, "HKDF output of %zu bytes (at most 8160)", c->out_len), CB_REJECTED;
  int r = hkdf(find_hash("sha256"), c->p.key, c->p.key_len, c->p.iv, c->p.iv_len, c->p.msg,
               c->p.msg_len, c->out, c->out_len);
  return r == CRYPT_OK ? 0 : (oneshot_fail(c, "hkdf: %s", error_to_string(r)), CB_REJECTED);
}

const oneshot_alg oneshot_algs[] = {
    ONESHOT_HASHES(HASH, 0, 1, 2, 3, 4, 5),
    ONESHOT_HMAC_SHA256(NULL, hmac, NULL),
    ONESHOT_HKDF("hkdf-sha256", hkdf_sha256),
    CBC("aes-128-cbc", 16),
    CBC("aes-256-cbc", 32),
    {{"aes-128-ecb", {"encrypt", "decrypt"}},
     16,
     0,
     16,
     0,
     ecb_setup,
     {ecb_enc, ecb_dec},
     ecb_cleanup},
    {{"aes-256-ecb", {"encrypt", "decrypt"}},
     32,
     0,
     16,
     0,
     ecb_setup,
     {ecb_enc, ecb_dec},
     ecb_cleanup},
    CTR("aes-128-ctr", 16),
    CTR("aes-256-ctr", 32),
    AEAD("aes-128-gcm", 16, 0),
    AEAD("aes-256-gcm", 32, 0),
    AEAD("chacha20-poly1305", 32, 1),
    {{"aes-128-ccm", {"seal", "open"}},
     16,
     12,
     0,
     0,
     ccm_setup,
     {ccm_seal, ccm_open},
     oneshot_free_ctx},
    {{"aes-256-ccm", {"seal", "open"}},
     32,
     12,
     0,
     0,
     ccm_setup,
     {ccm_seal, ccm_open},
     oneshot_free_ctx},
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const char *library_name(void) { return "LibTomCrypt"; }
static const char *library_version(void) { return SCRYPT; }
static size_t notes(const char *provider, const char **out, size_t max) {
  (void)provider;
  static const char *const text[] = {
      "version from the headers (SCRYPT): LibTomCrypt has no run-time version "
      "call",
      "HMAC through hmac_memory: the key is processed with every message"};
  size_t n = 0;
  for (; n < max && n < 2; n++)
    out[n] = text[n];
  return n;
}

static cb_provider table =
    ONESHOT_TABLE("libtomcrypt", "c:libtomcrypt", "c", init, library_name, library_version);

CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) {
  table.notes = notes;
  return &table;
}
