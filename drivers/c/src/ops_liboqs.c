/* ops for liboqs (provider c:liboqs): ML-KEM (FIPS 203), ML-DSA (FIPS 204), Falcon-512/1024
 * (round 3, compressed signatures), HQC-128/192/256 (as hqc-128/192/256: the 2023-04-30 submission,
 * pre-standard) and SPHINCS+ round 3.1 "simple" (as sphincs-*-simple, never as SLH-DSA) through
 * liboqs' generic API (oqs/kem.h: OQS_KEM_*, oqs/sig.h: OQS_SIG_*), and the driver's `noop`. liboqs
 * is built with these families only (scripts/liboqs/build.sh) and linked statically.
 *
 * Key encodings are the protocol's (docs/protocol.md, version 2), with one exception liboqs 0.13
 * forces. ML-KEM: the public key is the encapsulation key, the private key the 64-byte seed
 * d || z, from which OQS_KEM_keypair_derand expands the decapsulation key once per cell, outside
 * the timed region. ML-DSA: the public key is FIPS 204's; the private key is the FIPS 204 expanded
 * private key (skEncode, 2560 / 4032 / 4896 bytes), because liboqs 0.13 can neither derive an
 * ML-DSA key pair from the 32-byte seed xi nor export that seed: `keypair` answers the expanded
 * key, `sign` takes it, and a seed-form private key is answered "unsupported" (as are ML-DSA
 * keygen from a seed, deterministic ML-DSA signing and deterministic ML-KEM encapsulation with a
 * given m: liboqs 0.13 has no API for them).
 *
 * Falcon, HQC and SPHINCS+ keys are liboqs' own encodings (the submissions'), public and private
 * alike: keypair answers OQS_*_keypair's two buffers, sign and decaps take the private key as
 * keypair gave it. Nothing of them can be derived from a seed or made deterministic through
 * liboqs 0.13's API (keygen cases, a given m, deterministic signing: unsupported), and none takes
 * a context string.
 *
 * A key, ciphertext or signature liboqs refuses (a length it cannot take, an encapsulation key
 * that fails FIPS 203's modulus check, a signature that does not verify) comes back OPS_REJECTED,
 * never as an error. liboqs takes keys and ciphertexts as bare pointers, so their lengths are
 * checked here before the call.
 */
#define _POSIX_C_SOURCE 200809L
#include "ops_module.h"
#include <cryptobench/kit.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oqs/oqs.h>

#define MLKEM_SEED_LEN 64 /* d || z (FIPS 203) */
#define MLDSA_SEED_LEN 32 /* xi (FIPS 204) */
#define MLDSA_CTX_MAX 255 /* the longest context string (FIPS 204) */

enum kind { K_NOOP, K_KEM, K_SIG };
/* the families, whose keys and variants differ (see the top of this file) */
enum family { F_NONE, F_MLKEM, F_MLDSA, F_FALCON, F_HQC, F_SPHINCS };
/* each kind's operations are the kit's (include/cryptobench/kit.h) */
static const enum cb_kit_kind KIT_KIND[] = {CB_KIT_NOOP, CB_KIT_KEM, CB_KIT_SIG};
enum op { OP_NOOP, OP_KEYGEN, OP_ENCAPS, OP_DECAPS, OP_SIGN, OP_VERIFY };
static const char *const OP_NAMES[] = {"noop", "keygen", "encaps", "decaps", "sign", "verify"};

typedef struct alg_def {
  const char *name; /* protocol name */
  const char *oqs;  /* liboqs' method name */
  enum kind kind;
  enum family family;
} alg_def;

static const alg_def DEFS[] = {
    {"noop", NULL, K_NOOP, F_NONE},
    {"ml-kem-512", OQS_KEM_alg_ml_kem_512, K_KEM, F_MLKEM},
    {"ml-kem-768", OQS_KEM_alg_ml_kem_768, K_KEM, F_MLKEM},
    {"ml-kem-1024", OQS_KEM_alg_ml_kem_1024, K_KEM, F_MLKEM},
    {"ml-dsa-44", OQS_SIG_alg_ml_dsa_44, K_SIG, F_MLDSA},
    {"ml-dsa-65", OQS_SIG_alg_ml_dsa_65, K_SIG, F_MLDSA},
    {"ml-dsa-87", OQS_SIG_alg_ml_dsa_87, K_SIG, F_MLDSA},
    {"falcon-512", OQS_SIG_alg_falcon_512, K_SIG, F_FALCON},
    {"falcon-1024", OQS_SIG_alg_falcon_1024, K_SIG, F_FALCON},
    /* liboqs names HQC's parameter sets by security bits, the catalogue by NIST level */
    {"hqc-128", OQS_KEM_alg_hqc_128, K_KEM, F_HQC},
    {"hqc-192", OQS_KEM_alg_hqc_192, K_KEM, F_HQC},
    {"hqc-256", OQS_KEM_alg_hqc_256, K_KEM, F_HQC},
    {"sphincs-sha2-128s-simple", OQS_SIG_alg_sphincs_sha2_128s_simple, K_SIG, F_SPHINCS},
    {"sphincs-sha2-128f-simple", OQS_SIG_alg_sphincs_sha2_128f_simple, K_SIG, F_SPHINCS},
    {"sphincs-sha2-192s-simple", OQS_SIG_alg_sphincs_sha2_192s_simple, K_SIG, F_SPHINCS},
    {"sphincs-sha2-192f-simple", OQS_SIG_alg_sphincs_sha2_192f_simple, K_SIG, F_SPHINCS},
    {"sphincs-sha2-256s-simple", OQS_SIG_alg_sphincs_sha2_256s_simple, K_SIG, F_SPHINCS},
    {"sphincs-sha2-256f-simple", OQS_SIG_alg_sphincs_sha2_256f_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-128s-simple", OQS_SIG_alg_sphincs_shake_128s_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-128f-simple", OQS_SIG_alg_sphincs_shake_128f_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-192s-simple", OQS_SIG_alg_sphincs_shake_192s_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-192f-simple", OQS_SIG_alg_sphincs_shake_192f_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-256s-simple", OQS_SIG_alg_sphincs_shake_256s_simple, K_SIG, F_SPHINCS},
    {"sphincs-shake-256f-simple", OQS_SIG_alg_sphincs_shake_256f_simple, K_SIG, F_SPHINCS},
};
#define NDEFS (sizeof DEFS / sizeof DEFS[0])

/* The catalogue, and each entry's liboqs object (made once at start-up, never freed). */
static ops_alg catalogue[NDEFS];
static const alg_def *catalogue_def[NDEFS];
static OQS_KEM *catalogue_kem[NDEFS];
static OQS_SIG *catalogue_sig[NDEFS];
static size_t catalogue_len;

struct ops_cell {
  const alg_def *def;
  enum op op;
  const OQS_KEM *kem;
  const OQS_SIG *sig;
  uint8_t *pk; /* keygen: the scratch public key is the output itself; decaps: from the seed */
  uint8_t *sk; /* keygen: scratch; decaps: expanded from the seed */
  const uint8_t *sk_in; /* sign, HQC decaps: the caller's private key (borrowed) */
  const uint8_t *pk_in; /* encaps, verify: the caller's public key (borrowed) */
  const uint8_t *seed;  /* ML-KEM keygen case: the 64-byte seed (borrowed), NULL: random */
  const uint8_t *msg;   /* sign, verify: the message; decaps: the ciphertext (borrowed) */
  size_t msg_len;
  const uint8_t *sig_in; /* verify: the signature (borrowed) */
  size_t sig_len;
  const uint8_t *ctx; /* ML-DSA context string (borrowed); NULL: none (the pure, empty one) */
  size_t ctx_len;
  uint8_t *out;
  size_t out_cap;
  size_t out_len;
  int refused; /* the input was refused: every run answers OPS_REJECTED */
  char err[256];
};

OPS_MODULE_CELL_OF

/* ---- identity and catalogue ---- */

int mod_init(char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  OQS_init(); /* CPU feature detection for the run-time dispatch */
  catalogue_len = 0;
  for (size_t i = 0; i < NDEFS; i++) {
    const alg_def *d = &DEFS[i];
    ops_alg *a = &catalogue[catalogue_len];
    memset(a, 0, sizeof *a);
    a->name = d->name;
    catalogue_kem[catalogue_len] = NULL;
    catalogue_sig[catalogue_len] = NULL;
    /* NULL when this liboqs was built without the algorithm: not offered */
    if (d->kind == K_KEM && (catalogue_kem[catalogue_len] = OQS_KEM_new(d->oqs)) == NULL)
      continue;
    if (d->kind == K_SIG && (catalogue_sig[catalogue_len] = OQS_SIG_new(d->oqs)) == NULL)
      continue;
    cb_kit_ops_of(KIT_KIND[d->kind], a);
    catalogue_def[catalogue_len++] = d;
  }
  return 0;
}

int mod_provider_accepts(const char *id) { return strcmp(id, "c:liboqs") == 0; }

const char *mod_library_name(void) { return "liboqs"; }

const char *mod_library_version(void) { return OQS_version(); }

/* The code liboqs' run-time dispatch picks (kem_ml_kem_*.c, sig_ml_dsa_*.c of liboqs 0.13.0). */
static int mlkem_native_x86_64(void) {
#if defined(OQS_ENABLE_KEM_ml_kem_768_x86_64)
  return OQS_CPU_has_extension(OQS_CPU_EXT_AVX2) && OQS_CPU_has_extension(OQS_CPU_EXT_BMI2) &&
         OQS_CPU_has_extension(OQS_CPU_EXT_POPCNT);
#else
  return 0;
#endif
}

static int mldsa_avx2(void) {
#if defined(OQS_ENABLE_SIG_ml_dsa_65_avx2)
  return OQS_CPU_has_extension(OQS_CPU_EXT_AVX2) && OQS_CPU_has_extension(OQS_CPU_EXT_POPCNT);
#else
  return 0;
#endif
}

/* Falcon and SPHINCS+ dispatch on AVX2 alone (sig_falcon_*.c, sig_sphincs_*.c of liboqs 0.13.0) */
static int avx2_code(void) {
#if defined(OQS_ENABLE_SIG_falcon_512_avx2) || defined(OQS_ENABLE_SIG_sphincs_sha2_128f_simple_avx2)
  return OQS_CPU_has_extension(OQS_CPU_EXT_AVX2);
#else
  return 0;
#endif
}

size_t mod_notes(const char *provider, const char **notes, size_t max) {
  static char built[300], code[400], code2[400], absent[600];
  (void)provider;
  snprintf(built, sizeof built,
           "built against liboqs headers %s (static: ML-KEM, ML-DSA, Falcon, HQC and SPHINCS+ "
           "only, HQC switched on by OQS_ENABLE_KEM_HQC; no OpenSSL); OQS_init() at start-up",
           OQS_VERSION_TEXT);
  snprintf(code, sizeof code, "code chosen by liboqs' run-time CPU dispatch: ML-KEM %s; ML-DSA %s",
           mlkem_native_x86_64() ? "mlkem-native's x86_64 (AVX2) backend"
                                 : "mlkem-native's portable C",
           mldsa_avx2() ? "pq-crystals/dilithium's AVX2 code, whose verifier in liboqs 0.13.0 "
                          "skips the norm check of z and misjudges use_hint(1, 0) (Wycheproof "
                          "cases fail: known library deviation)"
                        : "pq-crystals/dilithium's portable reference C");
  snprintf(code2, sizeof code2,
           "code chosen by liboqs' run-time CPU dispatch: Falcon %s; SPHINCS+ %s; HQC PQClean's "
           "portable hqc-*_clean (liboqs 0.13 has no other)",
           avx2_code() ? "PQClean's falcon-*_avx2" : "PQClean's portable falcon-*_clean",
           avx2_code() ? "PQClean's sphincs-*-simple_avx2" : "PQClean's portable sphincs-*_clean");
  size_t used = 0;
  absent[0] = '\0';
  for (size_t i = 0; i < NDEFS; i++) {
    int found = 0;
    for (size_t k = 0; k < catalogue_len; k++)
      found |= catalogue_def[k] == &DEFS[i];
    if (!found && used < sizeof absent)
      used += (size_t)snprintf(
          absent + used, sizeof absent - used, "%s%s",
          used ? ", " : "not offered (this liboqs was built without them): ", DEFS[i].name);
  }
  const char *text[] = {
      built,
      code,
      code2,
      "every timed operation is one call of liboqs' generic API on buffers prepared per cell: "
      "OQS_KEM_keypair (keygen: the encapsulation key out), OQS_KEM_encaps (ciphertext || key), "
      "OQS_KEM_decaps; OQS_SIG_keypair, OQS_SIG_sign, OQS_SIG_verify (ML-DSA pure, empty "
      "context, hedged: rnd from the RNG)",
      "randomness (keygen, encaps, sign): OQS_randombytes' default source, getentropy() (one "
      "system call per operation, inside the timed region)",
      "ML-KEM private keys are the 64-byte seed d || z: OQS_KEM_keypair_derand expands it once "
      "per cell (keygen cases from a seed, decaps), outside the timed region",
      "ML-DSA private keys are the FIPS 204 expanded private key, not the 32-byte seed xi: "
      "liboqs 0.13 has no key generation from xi, so keypair gives the expanded key and sign "
      "takes it",
      "not in liboqs 0.13's API, answered unsupported (skipped) in vector cases: deterministic "
      "ML-KEM encapsulation with a given m, ML-DSA keys from a seed (keygen cases, a seed as the "
      "private key), deterministic ML-DSA signing",
      "Falcon (round 3, compressed variable-length signatures: header byte, 40-byte nonce, "
      "compressed s2), HQC and SPHINCS+ keys are liboqs' own encodings (the submissions'), "
      "private keys as OQS_*_keypair writes them; signing is randomised (Falcon's nonce, "
      "SPHINCS+'s optrand); no keys from a seed, no deterministic variants, no context strings",
      "HQC is the 2023-04-30 submission (PQClean, with the December 2024 decapsulation fix): "
      "hqc-128/192/256 = liboqs' HQC-128/192/256 (2023-04-30 submission), public key "
      "2249/4522/7245 bytes, secret key "
      "2305/4586/7317, ciphertext 4433/8978/14421, shared secret 64; liboqs 0.13 switches it off "
      "by default for the IND-CCA2 flaw announced in April 2025 (its 2025 revision fixes it), "
      "switched on here to measure it; sphincs-*-simple is SPHINCS+ round 3.1, not SLH-DSA",
      absent,
  };
  size_t n = 0;
  n += cb_kit_notes(text, sizeof text / sizeof text[0], notes + n, max - n);
  return n;
}

const ops_alg *mod_alg_at(size_t i) { return i < catalogue_len ? &catalogue[i] : NULL; }

/* ---- cells ---- */

void mod_cell_free(ops_cell *c) {
  if (c == NULL)
    return;
  if (c->sk != NULL) {
    size_t n = c->kem != NULL ? c->kem->length_secret_key : c->sig->length_secret_key;
    OQS_MEM_cleanse(c->sk, n);
    free(c->sk);
  }
  free(c->pk);
  free(c->out);
  free(c);
}

/* Mark the cell as refusing an input of the wrong length: the reason, and the runs answer
 * OPS_REJECTED. */
static void refuse(ops_cell *c, const char *what, size_t got, size_t need) {
  cb_kit_err(c->err, sizeof c->err, "%s of %zu bytes (%zu needed)", what, got, need);
  c->refused = 1;
}

/* ML-KEM: everything outside the timed region. -1 (err set) for an unusable request; 0 otherwise,
 * with c->refused set when the input cannot be taken. */
static int prepare_kem(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const OQS_KEM *kem = c->kem;
  int mlkem = c->def->family == F_MLKEM;
  switch (c->op) {
  case OP_KEYGEN:
    if (p->seed != NULL && !mlkem) {
      cb_kit_err(err, errlen,
                 "%sa key pair from a seed: liboqs 0.13 derives only ML-KEM keys from a seed "
                 "(OQS_KEM_keypair_derand), not %s's",
                 OPS_UNSUPPORTED, c->def->name);
      return -1;
    }
    if (p->seed != NULL && p->seed_len != kem->length_keypair_seed) {
      cb_kit_err(err, errlen, "seed of %zu bytes, %s needs %zu", p->seed_len, c->def->name,
                 kem->length_keypair_seed);
      return -1;
    }
    c->seed = p->seed;
    c->sk = malloc(kem->length_secret_key);
    c->out_cap = kem->length_public_key;
    return c->sk != NULL ? 0 : -1;
  case OP_ENCAPS:
    if (p->m != NULL) {
      cb_kit_err(
          err, errlen,
          "%sdeterministic encapsulation (a given m): liboqs 0.13 has no %s encapsulation from m, "
          "only OQS_KEM_encaps with its own randomness",
          OPS_UNSUPPORTED, c->def->name);
      return -1;
    }
    c->out_cap = kem->length_ciphertext + kem->length_shared_secret;
    if (p->pub == NULL || p->pub_len != kem->length_public_key)
      refuse(c, "encapsulation key", p->pub_len, kem->length_public_key);
    c->pk_in = p->pub;
    return 0;
  case OP_DECAPS:
    c->out_cap = kem->length_shared_secret;
    c->msg = p->msg;
    c->msg_len = p->msg_len;
    if (!mlkem) {
      /* HQC: the private key is liboqs' own, taken as it is */
      c->sk_in = p->priv;
      if (p->priv == NULL || p->priv_len != kem->length_secret_key)
        refuse(c, "private key", p->priv_len, kem->length_secret_key);
      else if (p->msg_len != kem->length_ciphertext)
        refuse(c, "ciphertext", p->msg_len, kem->length_ciphertext);
      return 0;
    }
    if (p->priv == NULL || p->priv_len != MLKEM_SEED_LEN) {
      refuse(c, "private key (the seed d || z)", p->priv_len, (size_t)MLKEM_SEED_LEN);
      return 0;
    }
    c->pk = malloc(kem->length_public_key);
    c->sk = malloc(kem->length_secret_key);
    if (c->pk == NULL || c->sk == NULL)
      return -1;
    if (OQS_KEM_keypair_derand(kem, c->pk, c->sk, p->priv) != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "OQS_KEM_keypair_derand refused the seed");
      c->refused = 1;
      return 0;
    }
    if (p->msg_len != kem->length_ciphertext)
      refuse(c, "ciphertext", p->msg_len, kem->length_ciphertext);
    return 0;
  default:
    return -1;
  }
}

/* ML-DSA, Falcon, SPHINCS+: as prepare_kem. */
static int prepare_sig(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const OQS_SIG *sig = c->sig;
  int mldsa = c->def->family == F_MLDSA;
  c->msg = p->msg;
  c->msg_len = p->msg_len;
  c->ctx = mldsa ? p->ctx : NULL; /* an empty one elsewhere is the plain API's (checked above) */
  c->ctx_len = c->ctx != NULL ? p->ctx_len : 0;
  switch (c->op) {
  case OP_KEYGEN:
    if (p->seed != NULL) {
      cb_kit_err(err, errlen,
                 "%sa key pair from a seed: liboqs 0.13 has no %s key generation from a seed, "
                 "only OQS_SIG_keypair with its own randomness",
                 OPS_UNSUPPORTED, c->def->name);
      return -1;
    }
    c->sk = malloc(sig->length_secret_key);
    c->out_cap = sig->length_public_key;
    return c->sk != NULL ? 0 : -1;
  case OP_SIGN:
    if (p->deterministic) {
      cb_kit_err(err, errlen,
                 "%sdeterministic signing: liboqs 0.13 signs %s with randomness from its RNG only",
                 OPS_UNSUPPORTED, c->def->name);
      return -1;
    }
    if (mldsa && p->priv != NULL && p->priv_len == MLDSA_SEED_LEN) {
      cb_kit_err(err, errlen,
                 "%sa private key in seed form (xi, %d bytes): liboqs 0.13 cannot derive an ML-DSA "
                 "key from its seed; it takes the FIPS 204 expanded private key (%zu bytes), which "
                 "its keypair gives",
                 OPS_UNSUPPORTED, MLDSA_SEED_LEN, sig->length_secret_key);
      return -1;
    }
    c->out_cap = sig->length_signature;
    c->sk_in = p->priv;
    if (p->priv == NULL || p->priv_len != sig->length_secret_key)
      refuse(c, mldsa ? "expanded private key" : "private key", p->priv_len,
             sig->length_secret_key);
    else if (c->ctx_len > MLDSA_CTX_MAX) {
      cb_kit_err(c->err, sizeof c->err, "context string of %zu bytes (at most %d)", c->ctx_len,
                 MLDSA_CTX_MAX);
      c->refused = 1;
    }
    return 0;
  case OP_VERIFY:
    c->out_cap = 1;
    c->pk_in = p->pub;
    c->sig_in = p->sig != NULL ? p->sig : (const uint8_t *)"";
    c->sig_len = p->sig != NULL ? p->sig_len : 0;
    if (p->pub == NULL || p->pub_len != sig->length_public_key)
      refuse(c, "public key", p->pub_len, sig->length_public_key);
    return 0;
  default:
    return -1;
  }
}

static ops_cell *cell_new(const alg_def *d, size_t idx, int op, const ops_params *p, char *err,
                          size_t errlen) {
  if (p->chunk > 0) {
    cb_kit_err(err, errlen, "not offered: %s takes its input in one call (chunk must be 0)",
               d->name);
    return NULL;
  }
  if (p->ctx != NULL && p->ctx_len > 0 && d->family != F_MLDSA) {
    cb_kit_err(err, errlen, "%sa context string: only ML-DSA takes one here (%s)", OPS_UNSUPPORTED,
               d->name);
    return NULL;
  }
  ops_cell *c = mod_cell_of(d, op, err, errlen);
  if (c == NULL)
    return NULL;
  c->kem = catalogue_kem[idx];
  c->sig = catalogue_sig[idx];
  int rc = 0;
  err[0] = '\0';
  if (d->kind == K_KEM)
    rc = prepare_kem(c, p, err, errlen);
  else if (d->kind == K_SIG)
    rc = prepare_sig(c, p, err, errlen);
  if (rc == 0)
    c->out = malloc(c->out_cap > 0 ? c->out_cap : 1);
  if ((rc != 0 || c->out == NULL) && err[0] == '\0')
    cb_kit_err(err, errlen, "out of memory");
  return mod_cell_done(c, rc == 0 && c->out != NULL);
}

OPS_MODULE_CELL_NEW(kind, )

static int run_kem(ops_cell *c) {
  const OQS_KEM *kem = c->kem;
  OQS_STATUS rc;
  switch (c->op) {
  case OP_KEYGEN:
    rc = c->seed != NULL ? OQS_KEM_keypair_derand(kem, c->out, c->sk, c->seed)
                         : OQS_KEM_keypair(kem, c->out, c->sk);
    if (rc != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "OQS_KEM_keypair failed");
      return OPS_FAIL;
    }
    c->out_len = kem->length_public_key;
    break;
  case OP_ENCAPS:
    /* fails for an encapsulation key outside FIPS 203's modulus check: refused */
    if (OQS_KEM_encaps(kem, c->out, c->out + kem->length_ciphertext, c->pk_in) != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "OQS_KEM_encaps refused the encapsulation key");
      return OPS_REJECTED;
    }
    c->out_len = kem->length_ciphertext + kem->length_shared_secret;
    break;
  case OP_DECAPS:
    if (OQS_KEM_decaps(kem, c->out, c->msg, c->sk != NULL ? c->sk : c->sk_in) != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "OQS_KEM_decaps refused the ciphertext");
      return OPS_REJECTED;
    }
    c->out_len = kem->length_shared_secret;
    break;
  default:
    return OPS_FAIL;
  }
  return c->out[0];
}

static int run_sig(ops_cell *c) {
  const OQS_SIG *sig = c->sig;
  size_t n = 0;
  OQS_STATUS rc;
  switch (c->op) {
  case OP_KEYGEN:
    if (OQS_SIG_keypair(sig, c->out, c->sk) != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "OQS_SIG_keypair failed");
      return OPS_FAIL;
    }
    c->out_len = sig->length_public_key;
    break;
  case OP_SIGN:
    rc = c->ctx != NULL ? OQS_SIG_sign_with_ctx_str(sig, c->out, &n, c->msg, c->msg_len, c->ctx,
                                                    c->ctx_len, c->sk_in)
                        : OQS_SIG_sign(sig, c->out, &n, c->msg, c->msg_len, c->sk_in);
    if (rc != OQS_SUCCESS || n == 0 || n > c->out_cap) {
      cb_kit_err(c->err, sizeof c->err, "OQS_SIG_sign failed");
      return OPS_FAIL;
    }
    c->out_len = n;
    break;
  case OP_VERIFY:
    rc = c->ctx != NULL ? OQS_SIG_verify_with_ctx_str(sig, c->msg, c->msg_len, c->sig_in,
                                                      c->sig_len, c->ctx, c->ctx_len, c->pk_in)
                        : OQS_SIG_verify(sig, c->msg, c->msg_len, c->sig_in, c->sig_len, c->pk_in);
    if (rc != OQS_SUCCESS) {
      cb_kit_err(c->err, sizeof c->err, "the signature does not verify");
      return OPS_REJECTED;
    }
    c->out[0] = 1;
    c->out_len = 1;
    break;
  default:
    return OPS_FAIL;
  }
  return c->out[0];
}

int mod_cell_run(ops_cell *c) {
  c->out_len = 0;
  if (c->refused)
    return OPS_REJECTED;
  switch (c->def->kind) {
  case K_NOOP:
    return 0;
  case K_KEM:
    return run_kem(c);
  case K_SIG:
    return run_sig(c);
  }
  return OPS_FAIL;
}

const uint8_t *mod_cell_output(const ops_cell *c, size_t *len) {
  *len = c->out_len;
  return c->out;
}

/* no cell streams */
void mod_cell_tap(ops_cell *c, ops_tap *tap) {
  (void)c;
  (void)tap;
}

/* nothing to prepare: no cell of this module consumes single-use inputs */
int mod_cell_prepare(ops_cell *c, uint64_t n) {
  (void)c;
  (void)n;
  return 0;
}

const char *mod_cell_error(const ops_cell *c) { return c->err[0] ? c->err : "operation failed"; }

/* A fresh key pair from liboqs' generator. ML-KEM: a random seed d || z (OQS_randombytes), the
 * key pair from it (OQS_KEM_keypair_derand); the private key is the seed. HQC: OQS_KEM_keypair's
 * two keys. ML-DSA, Falcon, SPHINCS+: OQS_SIG_keypair; the private key is liboqs' (ML-DSA's the
 * expanded one, see the top of this file). */
int mod_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                char *err, size_t errlen) {
  size_t idx = mod_keypair_index(alg, pub, priv, err, errlen);
  if (idx == (size_t)-1)
    return -1;
  const OQS_KEM *kem = catalogue_kem[idx];
  const OQS_SIG *sig = catalogue_sig[idx];
  int ok = 0;
  if (kem != NULL && catalogue_def[idx]->family == F_HQC) {
    *pub = malloc(kem->length_public_key);
    *priv = malloc(kem->length_secret_key);
    if (*pub != NULL && *priv != NULL) {
      ok = OQS_KEM_keypair(kem, *pub, *priv) == OQS_SUCCESS;
      *pub_len = kem->length_public_key;
      *priv_len = kem->length_secret_key;
    }
  } else if (kem != NULL) {
    uint8_t *sk = malloc(kem->length_secret_key);
    *pub = malloc(kem->length_public_key);
    *priv = malloc(kem->length_keypair_seed);
    if (sk != NULL && *pub != NULL && *priv != NULL) {
      OQS_randombytes(*priv, kem->length_keypair_seed);
      ok = OQS_KEM_keypair_derand(kem, *pub, sk, *priv) == OQS_SUCCESS;
      *pub_len = kem->length_public_key;
      *priv_len = kem->length_keypair_seed;
    }
    if (sk != NULL)
      OQS_MEM_cleanse(sk, kem->length_secret_key);
    free(sk);
  } else {
    *pub = malloc(sig->length_public_key);
    *priv = malloc(sig->length_secret_key);
    if (*pub != NULL && *priv != NULL) {
      ok = OQS_SIG_keypair(sig, *pub, *priv) == OQS_SUCCESS;
      *pub_len = sig->length_public_key;
      *priv_len = sig->length_secret_key;
    }
  }
  if (!ok) {
    cb_kit_err(err, errlen, "%s key generation failed", alg);
    free(*pub);
    free(*priv);
    *pub = *priv = NULL;
    return -1;
  }
  return 0;
}

OPS_MODULE_EXPORT(NULL, NULL)
