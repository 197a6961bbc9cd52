/*
 * pqntor: ntor and PQ-ntor circuit handshakes (docs/pq-ntor.md), C implementation.
 *
 * Written from the specification; every primitive comes from OpenSSL (>= 3.5) through
 * EVP: X25519 (EVP_PKEY), HKDF-SHA256 (EVP_KDF "HKDF"), HMAC-SHA256 (EVP_MAC "HMAC"),
 * ML-KEM-512/768/1024 (EVP_PKEY, EVP_PKEY_encapsulate/decapsulate). This file is the
 * protocol glue only.
 *
 * Older OpenSSL (for the C driver, drivers/c, which compiles this one source into each of its
 * OpenSSL binaries): ntor builds against 1.1.1 and 3.0 as well (1.1.1: HMAC() and the
 * EVP_PKEY_HKDF derivation); without ML-KEM (< 3.5) the pq-ntor suites answer
 * PQNTOR_ERR_UNSUPPORTED, and pqntor_suite_supported() tells which suites run.
 *
 * Randomness (spec section 8): every call that draws takes an optional pqntor_hooks. With
 * hooks == NULL or hooks->draw == NULL, X25519 private keys come from RAND_priv_bytes and
 * OpenSSL's ML-KEM key generation / encapsulation draw d|z and m themselves (production).
 * With hooks->draw set, every value is drawn from it in the order of section 8 (x, d|z;
 * y, m; b) and the ML-KEM steps run derandomized (KeyGen_internal(d, z) through the "seed"
 * key-generation parameter, Encaps_internal(ek, m) through the "ikme" encapsulation
 * parameter): that is how the test vectors are reproduced.
 *
 * Errors: every call returns PQNTOR_OK (0) or a negative pqntor_error; on error no key
 * material is written to the caller's buffers (they are zeroed if partially written).
 */
#ifndef PQNTOR_H
#define PQNTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  PQNTOR_SUITE_NTOR = 0,
  PQNTOR_SUITE_MLKEM512 = 1,
  PQNTOR_SUITE_MLKEM768 = 2, /* the default pq-ntor suite */
  PQNTOR_SUITE_MLKEM1024 = 3,
} pqntor_suite;

#define PQNTOR_NUM_SUITES 4
#define PQNTOR_X25519_LEN 32
#define PQNTOR_AUTH_LEN 32
#define PQNTOR_MLKEM_SEED_LEN 64
#define PQNTOR_MLKEM_M_LEN 32
#define PQNTOR_MAX_ID_LEN 32
#define PQNTOR_MAX_ONIONSKIN_LEN 1664 /* pq-ntor-mlkem1024 */
#define PQNTOR_MAX_REPLY_LEN 1632     /* pq-ntor-mlkem1024 */
#define PQNTOR_DEFAULT_KEY_LEN 72
#define PQNTOR_MAX_KEY_LEN 8160 /* 255 * 32 */

typedef struct {
  pqntor_suite suite;
  const char *name;      /* "ntor", "pq-ntor-mlkem768", ... */
  const char *protoid;   /* PROTOID */
  const char *t_mac;     /* PROTOID ":mac" */
  const char *t_key;     /* PROTOID ":key_extract" */
  const char *t_verify;  /* PROTOID ":verify" */
  const char *m_expand;  /* PROTOID ":key_expand" */
  const char *mlkem_alg; /* OpenSSL algorithm name, NULL for ntor */
  size_t id_len, ek_len, ct_len;
  size_t onionskin_len, reply_len, secret_input_len, auth_input_len;
} pqntor_suite_info;

/* 1 when this build can run the suite (pq-ntor needs ML-KEM: OpenSSL >= 3.5), else 0. */
int pqntor_suite_supported(pqntor_suite suite);
/* NULL for an unknown suite. */
const pqntor_suite_info *pqntor_suite_get(pqntor_suite suite);
/* Returns PQNTOR_OK and sets *out, or PQNTOR_ERR_INVALID_ARGUMENT. */
int pqntor_suite_by_name(const char *name, pqntor_suite *out);

typedef enum {
  PQNTOR_OK = 0,
  PQNTOR_ERR_MALFORMED = -1,        /* a message of the wrong length */
  PQNTOR_ERR_UNKNOWN_RELAY = -2,    /* onionskin names another relay ID or onion key */
  PQNTOR_ERR_BAD_KEY = -3,          /* low-order X, or EK failing the FIPS 203 check */
  PQNTOR_ERR_HANDSHAKE_FAILED = -4, /* client: AUTH mismatch or all-zero DH output */
  PQNTOR_ERR_INVALID_ARGUMENT = -5, /* caller error: lengths, suite, NULL, L */
  PQNTOR_ERR_STATE_USED = -6,       /* client_finish called twice on one state */
  PQNTOR_ERR_RANDOM = -7,           /* the draw function or RAND failed */
  PQNTOR_ERR_INTERNAL = -8,         /* OpenSSL failed unexpectedly */
  PQNTOR_ERR_UNSUPPORTED = -9,      /* the suite needs ML-KEM, which this OpenSSL lacks */
} pqntor_error;

/* "malformed", "unknown-relay", "bad-key", "handshake-failed", "invalid-argument",
 * "state-used", "random-failed", "unsupported", "internal" (the vectors' error_class where
 * defined). */
const char *pqntor_error_class(int err);

/* A draw function fills out[0..len) and returns 1, or returns 0 on failure. */
typedef int (*pqntor_draw_fn)(void *ctx, uint8_t *out, size_t len);
/* Optional trace of named intermediate values (test vectors); never set in production. */
typedef void (*pqntor_trace_fn)(void *ctx, const char *name, const uint8_t *data, size_t len);

typedef struct {
  pqntor_draw_fn draw; /* NULL: system randomness */
  void *draw_ctx;
  pqntor_trace_fn trace; /* NULL: no trace */
  void *trace_ctx;
} pqntor_hooks;

/*
 * The handshake's KDF alone: HKDF-SHA256(IKM = ikm, salt = t_key, info = m_expand, len) of
 * the suite (Tor's KDF test vectors for ntor). len 1..8160.
 */
int pqntor_kdf(pqntor_suite suite, const uint8_t *ikm, size_t ikm_len, uint8_t *out, size_t len);

/* ---- relay keys ---- */
typedef struct pqntor_relay pqntor_relay;

/* Relay keys from an ID (20 or 32 bytes) and a raw 32-byte X25519 private key b. */
int pqntor_relay_new(pqntor_relay **out, const uint8_t *id, size_t id_len, const uint8_t b[32]);
/* Same, with b drawn (one 32-byte draw). */
int pqntor_relay_generate(pqntor_relay **out, const uint8_t *id, size_t id_len,
                          const pqntor_hooks *hooks);
const uint8_t *pqntor_relay_id(const pqntor_relay *relay, size_t *id_len);
const uint8_t *pqntor_relay_public_key(const pqntor_relay *relay); /* B, 32 bytes */
const uint8_t *pqntor_relay_secret_key(const pqntor_relay *relay); /* b, 32 bytes */
void pqntor_relay_free(pqntor_relay *relay);

/* ---- the handshake ---- */
typedef struct pqntor_client pqntor_client;

/*
 * client_create: *onionskin_len is the capacity of onionskin on entry and the length
 * written on success (the suite's onionskin_len). key_len is L (1..8160).
 */
int pqntor_client_create(pqntor_client **state, uint8_t *onionskin, size_t *onionskin_len,
                         pqntor_suite suite, size_t key_len, const uint8_t *relay_id,
                         size_t relay_id_len, const uint8_t relay_B[32], const pqntor_hooks *hooks);

/*
 * server_reply: the relay knows the suite and L (= key_len, the size of keys). On success
 * writes the reply (*reply_len: capacity in, length out) and key_len bytes of KEYS.
 */
int pqntor_server_reply(const pqntor_relay *relay, pqntor_suite suite, const uint8_t *onionskin,
                        size_t onionskin_len, uint8_t *reply, size_t *reply_len, uint8_t *keys,
                        size_t key_len, const pqntor_hooks *hooks);

/*
 * client_finish consumes the state's secrets whatever the outcome (a second call fails
 * with PQNTOR_ERR_STATE_USED); the state must still be freed. key_len must equal the L
 * given to client_create. hooks is used only for its trace.
 */
int pqntor_client_finish(pqntor_client *state, const uint8_t *reply, size_t reply_len,
                         uint8_t *keys, size_t key_len, const pqntor_hooks *hooks);

pqntor_suite pqntor_client_suite(const pqntor_client *state);
size_t pqntor_client_key_len(const pqntor_client *state);
void pqntor_client_free(pqntor_client *state);

/*
 * Opaque serialization of an unused client state (for the CLI, which runs each step in
 * its own process). It contains the client's secrets (x, the ML-KEM seed d|z).
 * *len: capacity in, length out; PQNTOR_CLIENT_STATE_MAX_LEN is always enough.
 */
#define PQNTOR_CLIENT_STATE_MAX_LEN 256
int pqntor_client_serialize(const pqntor_client *state, uint8_t *out, size_t *len);
int pqntor_client_deserialize(pqntor_client **state, const uint8_t *in, size_t len);

#ifdef __cplusplus
}
#endif

#endif
