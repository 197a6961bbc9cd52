/* One-shot cells: a helper for plugins whose operations are each one library
 * call (hashes, HMAC, block-cipher modes, AEADs), used by the plugins in
 * plugins/c. It is not part of the ABI: a plugin may fill its cb_provider table
 * (include/cryptobench/provider.h) without it.
 *
 * A plugin using it defines its catalogue as an array oneshot_algs[] of
 * oneshot_nalgs entries; each entry says the lengths the protocol requires (the
 * helper declares them in the cb_alg it gives the driver, which refuses others in
 * one line before a cell is made) and gives one function per operation,
 * which performs exactly that operation on c->p into c->out. The helper answers
 * alg_at, cell_new, cell_run, cell_output, cell_error and cell_free;
 * ONESHOT_TABLE fills the rest of the table (`noop` is the driver's own). */
#ifndef CB_ONESHOT_H
#define CB_ONESHOT_H

#include <cryptobench/kit.h>
#include <cryptobench/provider.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct oneshot_cell oneshot_cell;
typedef int (*oneshot_fn)(oneshot_cell *c);
/* a fresh key pair in the protocol's encodings, both malloc()ed; 0, or -1 with a message */
typedef int (*oneshot_keypair_fn)(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                                  char *err, size_t errlen);

typedef struct oneshot_alg {
  cb_alg alg;                 /* name and operations (stream, pk, fresh stay 0) */
  size_t key_len;             /* the key length it requires; 0: any (HMAC) or none (hashes) */
  size_t iv_len;              /* the IV / nonce length it requires; 0: none */
  size_t block;               /* the input must be a multiple of this (ECB, CBC: 16); 0: any */
  size_t out_len;             /* hash / mac output length; 0: the input's (seal: + 16, open:
                                 - 16) */
  oneshot_fn setup;           /* optional: key schedule etc. into c->ctx, once per cell; 0
                                 or CB_FAIL */
  oneshot_fn run[CB_MAX_OPS]; /* one operation, per entry of alg.ops: 0,
                                 CB_REJECTED or CB_FAIL */
  void (*cleanup)(oneshot_cell *c); /* optional: frees c->ctx */
  int arg;  /* the plugin's own value (e.g. the library's algorithm id), 0 when
               unused */
  int arg2; /* a second one (e.g. the library's mode id) */
  /* public-key algorithms (alg.pk = 1): the key pair bench cells are made from. Their cells read
   * p.priv / p.pub / p.sig / p.msg in run(), and answer CB_REJECTED for key material or a
   * signature of the wrong length; out_len is the output of every operation but verify's (1). */
  oneshot_keypair_fn keypair;
} oneshot_alg;

struct oneshot_cell {
  const oneshot_alg *def;
  size_t op;   /* index into def->alg.ops */
  cb_params p; /* a copy; the buffers it points to stay valid until cell_free */
  uint8_t *out;
  size_t out_len;
  void *ctx; /* the library's prepared state */
  char err[256];
};

/* defined by the plugin */
extern const oneshot_alg oneshot_algs[];
extern const size_t oneshot_nalgs;

/* The protocol's SHA-2, SHA-3 and BLAKE2 hashes with their output lengths, for a catalogue:
 * H(name, id, output length) for each, where the plugin names its id (a function, the library's
 * algorithm number, a class) of sha256, sha512, sha3-256, sha3-512, blake2b-512 and blake2s-256. */
#define ONESHOT_HASHES(H, SHA256, SHA512, SHA3_256, SHA3_512, BLAKE2B_512, BLAKE2S_256)            \
  H("sha256", SHA256, 32), H("sha512", SHA512, 64), H("sha3-256", SHA3_256, 32),                   \
      H("sha3-512", SHA3_512, 64), H("blake2b-512", BLAKE2B_512, 64),                              \
      H("blake2s-256", BLAKE2S_256, 32)

/* HMAC-SHA256's entry: SETUP (or NULL) keys c->ctx once per cell, RUN is one MAC, CLEANUP (or
 * NULL) frees c->ctx. */
#define ONESHOT_HMAC_SHA256(SETUP, RUN, CLEANUP)                                                   \
  { {"hmac-sha256", {"mac"}, 0, 0, 0}, 0, 0, 0, 32, SETUP, {RUN}, CLEANUP }

/* AES-CBC, AES-ECB and AES-CTR in both key sizes, in that order, for a plugin that defines
 * aes_setup (the cell's key schedules) and aes_cleanup, and cbc_enc, cbc_dec, ecb_enc, ecb_dec and
 * ctr (which is its own inverse). */
#define ONESHOT_AES_CIPHER(name, key, iv, block, enc, dec)                                         \
  { {name, {"encrypt", "decrypt"}, 0, 0, 0}, key, iv, block, 0, aes_setup, {enc, dec}, aes_cleanup }
#define ONESHOT_AES_CBC_ECB_CTR                                                                    \
  ONESHOT_AES_CIPHER("aes-128-cbc", 16, 16, 16, cbc_enc, cbc_dec),                                 \
      ONESHOT_AES_CIPHER("aes-256-cbc", 32, 16, 16, cbc_enc, cbc_dec),                             \
      ONESHOT_AES_CIPHER("aes-128-ecb", 16, 0, 16, ecb_enc, ecb_dec),                              \
      ONESHOT_AES_CIPHER("aes-256-ecb", 32, 0, 16, ecb_enc, ecb_dec),                              \
      ONESHOT_AES_CIPHER("aes-128-ctr", 16, 16, 0, ctr, ctr),                                      \
      ONESHOT_AES_CIPHER("aes-256-ctr", 32, 16, 0, ctr, ctr)

/* HKDF-SHA256 (RFC 5869) can give at most 255 hash lengths: a longer `size` is rejected */
#define ONESHOT_HKDF_MAX (255 * 32)
#define ONESHOT_HKDF(name, fn)                                                                     \
  { {name, {"derive"}, 0, 0, 0}, 0, 0, 0, 0, NULL, {fn}, NULL }

/* A key pair function of one member of a family: fn(...) is impl(arg, ...). */
#define ONESHOT_KEYPAIR(fn, impl, arg)                                                             \
  static int fn(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,       \
                size_t errlen) {                                                                   \
    return impl(arg, pub, pub_len, priv, priv_len, err, errlen);                                   \
  }

/* RSA in the protocol's nine variants (rsa-{2048,3072,4096}-{pss,pkcs1,oaep}): arg = the modulus
 * bits, arg2 = the scheme. The plugin defines rsa_setup, rsa_sign, rsa_verify, oaep_encrypt,
 * oaep_decrypt, rsa_cleanup and rsa_keypair(bits, ...), then writes ONESHOT_RSA_KEYPAIRS once and
 * ONESHOT_RSA_ALGS in its catalogue. */
enum oneshot_rsa_scheme { ONESHOT_RSA_PSS, ONESHOT_RSA_PKCS1, ONESHOT_RSA_OAEP };
#define ONESHOT_RSA_KEYPAIRS                                                                       \
  ONESHOT_KEYPAIR(rsa2048_keypair, rsa_keypair, 2048)                                              \
  ONESHOT_KEYPAIR(rsa3072_keypair, rsa_keypair, 3072)                                              \
  ONESHOT_KEYPAIR(rsa4096_keypair, rsa_keypair, 4096)
#define ONESHOT_RSA_SIG(name, bits, scheme)                                                        \
  {                                                                                                \
    {name, {"sign", "verify"}, 0, 1, 0}, 0, 0, 0, 512, rsa_setup, {rsa_sign, rsa_verify},          \
        rsa_cleanup, bits, scheme, rsa##bits##_keypair                                             \
  }
#define ONESHOT_RSA_OAEP_ALG(name, bits)                                                           \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}, 0, 1, 0}, 0, 0, 0, 512, rsa_setup,                              \
        {oaep_encrypt, oaep_decrypt}, rsa_cleanup, bits, ONESHOT_RSA_OAEP, rsa##bits##_keypair     \
  }
#define ONESHOT_RSA_ALGS                                                                           \
  ONESHOT_RSA_SIG("rsa-2048-pss", 2048, ONESHOT_RSA_PSS),                                          \
      ONESHOT_RSA_SIG("rsa-3072-pss", 3072, ONESHOT_RSA_PSS),                                      \
      ONESHOT_RSA_SIG("rsa-4096-pss", 4096, ONESHOT_RSA_PSS),                                      \
      ONESHOT_RSA_SIG("rsa-2048-pkcs1", 2048, ONESHOT_RSA_PKCS1),                                  \
      ONESHOT_RSA_SIG("rsa-3072-pkcs1", 3072, ONESHOT_RSA_PKCS1),                                  \
      ONESHOT_RSA_SIG("rsa-4096-pkcs1", 4096, ONESHOT_RSA_PKCS1),                                  \
      ONESHOT_RSA_OAEP_ALG("rsa-2048-oaep", 2048), ONESHOT_RSA_OAEP_ALG("rsa-3072-oaep", 3072),    \
      ONESHOT_RSA_OAEP_ALG("rsa-4096-oaep", 4096)

/* ECDSA and ECDH entries of a catalogue: arg = the library's curve id. The plugin defines
 * ec_setup, ecdsa_sign, ecdsa_verify, ecdh_derive and ec_cleanup, and a key pair function per
 * curve (ONESHOT_KEYPAIR). */
#define ONESHOT_ECDSA(name, curve, keypair)                                                        \
  {                                                                                                \
    {name, {"sign", "verify"}, 0, 1, 0}, 0, 0, 0, 120, ec_setup, {ecdsa_sign, ecdsa_verify},       \
        ec_cleanup, curve, 0, keypair                                                              \
  }
#define ONESHOT_ECDH(name, curve, keypair)                                                         \
  {                                                                                                \
    {name, {"derive"}, 0, 1, 0}, 0, 0, 0, 48, ec_setup, {ecdh_derive}, ec_cleanup, curve, 0,       \
        keypair                                                                                    \
  }

/* A cleanup function fn for a set-up whose state holds library allocations: FREE (a statement
 * on c->ctx, e.g. mbedtls_gcm_free(c->ctx)) when there is a state, then the state itself. */
#define ONESHOT_CLEANUP(fn, FREE)                                                                  \
  static void fn(oneshot_cell *c) {                                                                \
    if (c->ctx != NULL)                                                                            \
      FREE;                                                                                        \
    oneshot_free_ctx(c);                                                                           \
  }

/* The cleanup fn of a set-up whose state TYPE holds two library objects a and b, each freed with
 * FREE (an encryption and a decryption key schedule, a private and a public key), then the state.
 */
#define ONESHOT_CLEANUP_PAIR(fn, TYPE, FREE, a, b)                                                 \
  static void fn(oneshot_cell *c) {                                                                \
    TYPE *s_ = c->ctx;                                                                             \
    if (s_ != NULL) {                                                                              \
      FREE(&s_->a);                                                                                \
      FREE(&s_->b);                                                                                \
    }                                                                                              \
    oneshot_free_ctx(c);                                                                           \
  }

/* The Ed25519 and X25519 entries of a catalogue: the plugin defines ed_sign, ed_verify and
 * x_derive, and names each entry's set-up and cleanup (NULL: none), arg and key pair function. */
#define ONESHOT_ED25519(SETUP, CLEANUP, ARG, KEYPAIR)                                              \
  {                                                                                                \
    {"ed25519", {"sign", "verify"}, 0, 1, 0}, 0, 0, 0, 64, SETUP, {ed_sign, ed_verify}, CLEANUP,   \
        ARG, 0, KEYPAIR                                                                            \
  }
#define ONESHOT_X25519(SETUP, CLEANUP, ARG, KEYPAIR)                                               \
  { {"x25519", {"derive"}, 0, 1, 0}, 0, 0, 0, 32, SETUP, {x_derive}, CLEANUP, ARG, 0, KEYPAIR }

/* In a cell function: when a library call does not give OK, fail the cell with the call's text
 * (TEXT, #call where the plugin writes it, before its macros are expanded) and the library's words
 * for the code. A plugin defines CHECK(call) as ONESHOT_CHECK(call, #call, TYPE, OK, STRERROR). */
#define ONESHOT_CHECK(call, TEXT, TYPE, OK, STRERROR)                                              \
  do {                                                                                             \
    TYPE r_ = (call);                                                                              \
    if (r_ != (OK))                                                                                \
      return oneshot_fail(c, "%s: %s", TEXT, STRERROR(r_));                                        \
  } while (0)

/* Record a one-line error on the cell; returns CB_FAIL (or use the code you
 * return). */
int oneshot_fail(oneshot_cell *c, const char *fmt, ...);

/* c->ctx = size zeroed bytes, for setup(); 0, or CB_FAIL when out of memory.
 * oneshot_free_ctx frees it: the cleanup of a setup whose state holds no
 * library allocations. */
int oneshot_ctx(oneshot_cell *c, size_t size);
void oneshot_free_ctx(oneshot_cell *c);

/* In a set-up function: S, c->ctx as a zeroed TYPE (the state the set-up fills); out of memory,
 * the set-up answers CB_FAIL (oneshot_ctx). */
#define ONESHOT_STATE(TYPE, S)                                                                     \
  TYPE *S = oneshot_ctx(c, sizeof(TYPE)) == 0 ? (TYPE *)c->ctx : NULL;                             \
  if (S == NULL)                                                                                   \
  return CB_FAIL

const cb_alg *oneshot_alg_at(size_t i);
cb_status oneshot_cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen);
int oneshot_cell_run(cb_cell *c);
const uint8_t *oneshot_cell_output(const cb_cell *c, size_t *len);
const char *oneshot_cell_error(const cb_cell *c);
void oneshot_cell_free(cb_cell *c);
cb_status oneshot_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv,
                          size_t *priv_len, char *err, size_t errlen);
void oneshot_free_buf(uint8_t *buf, size_t len); /* what oneshot_alloc made */

/* For keypair functions: a buffer of n bytes (malloc) and its length, or -1 when out of memory. */
int oneshot_alloc(uint8_t **buf, size_t *len, size_t n);

/* The table of a one-shot plugin: name, id (NULL: plugin:<name>), language,
 * init (or NULL), library_name, library_version. */
#define ONESHOT_TABLE(NAME, ID, LANGUAGE, INIT, LIBRARY_NAME, LIBRARY_VERSION)                     \
  {                                                                                                \
    CB_PROVIDER_ABI_VERSION, sizeof(cb_provider), NAME, ID, LANGUAGE, CB_COMPILER, NULL, INIT,     \
        NULL, LIBRARY_NAME, LIBRARY_VERSION, NULL, oneshot_alg_at, oneshot_cell_new,               \
        oneshot_cell_run, NULL, oneshot_cell_output, NULL, oneshot_cell_error, oneshot_cell_free,  \
        oneshot_keypair, oneshot_free_buf, NULL, NULL                                              \
  }

#ifdef __cplusplus
}
#endif

#endif
