/* The C cell kit: what every C provider module (drivers/c/src, ops_<library>) and plugin
 * (plugins/c, a user's) would otherwise write again. Header-only and not part of the ABI
 * (<cryptobench/provider.h> is): a plugin may ignore it.
 *
 *  - one error setter (cb_kit_err) and its status-returning form (cb_kit_refuse);
 *  - reading a version-1 style message prefix as a status (cb_kit_status_of_text);
 *  - a public-key cell's first checks (cb_kit_op_index, cb_kit_pk_checks);
 *  - the operations of each kind of algorithm (cb_kit_ops_of, cb_kit_op_of_kind), the kind ->
 *    operations switch, for the catalogue and for a cell's request. */
#ifndef CRYPTOBENCH_KIT_H
#define CRYPTOBENCH_KIT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cryptobench/provider.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CB_KIT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CB_KIT_PRINTF(f, a)
#endif

/* A one-line message into err (errlen bytes, always terminated): the one error setter. */
static inline void cb_kit_verr(char *err, size_t errlen, const char *fmt, va_list ap) {
  vsnprintf(err, errlen, fmt, ap);
}

static inline void cb_kit_err(char *err, size_t errlen, const char *fmt, ...) CB_KIT_PRINTF(3, 4);
static inline void cb_kit_err(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cb_kit_verr(err, errlen, fmt, ap);
  va_end(ap);
}

/* The same, returning status st: `return cb_kit_refuse(err, errlen, CB_NOT_OFFERED, ...);` */
static inline cb_status cb_kit_refuse(char *err, size_t errlen, cb_status st, const char *fmt, ...)
    CB_KIT_PRINTF(4, 5);
static inline cb_status cb_kit_refuse(char *err, size_t errlen, cb_status st, const char *fmt,
                                      ...) {
  va_list ap;
  va_start(ap, fmt);
  cb_kit_verr(err, errlen, fmt, ap);
  va_end(ap);
  return st;
}

/* The status a message in version 1's words stands for ("not offered: ...", "not offered at this
 * size: ...", "unsupported: ...", anything else CB_ERROR); the prefix is removed from msg. */
static inline cb_status cb_kit_status_of_text(char *msg) {
  static const struct {
    const char *prefix;
    cb_status st;
  } words[] = {{"not offered at this size:", CB_NOT_OFFERED_AT_SIZE},
               {"not offered:", CB_NOT_OFFERED},
               {"unsupported:", CB_UNSUPPORTED}};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    size_t n = strlen(words[i].prefix);
    if (strncmp(msg, words[i].prefix, n) == 0) {
      n += msg[n] == ' ';
      memmove(msg, msg + n, strlen(msg + n) + 1);
      return words[i].st;
    }
  }
  return CB_ERROR;
}

/* hello's notes: the non-empty ones of text[0..n) into notes[0..max); how many. */
static inline size_t cb_kit_notes(const char *const *text, size_t n, const char **notes,
                                  size_t max) {
  size_t k = 0;
  for (size_t i = 0; i < n && k < max; i++)
    if (text[i][0] != '\0')
      notes[k++] = text[i];
  return k;
}

/* n zeroed bytes (calloc), or NULL with "out of memory" in err: a cell's first allocation. */
static inline void *cb_kit_zalloc(size_t n, char *err, size_t errlen) {
  void *p = calloc(1, n);
  if (p == NULL)
    cb_kit_err(err, errlen, "out of memory");
  return p;
}

/* The index of `op` among names[0..n), or -1. */
static inline int cb_kit_op_index(const char *op, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(op, names[i]) == 0)
      return (int)i;
  return -1;
}

/* A public-key cell's checks, the same in every module: the algorithm `name` (NULL: the module
 * has none of that name) allows the operation (`allowed`, the module's own rule), and the
 * message comes in one call. 0, or -1 with a one-line message in err. */
static inline int cb_kit_pk_checks(const cb_params *p, const char *name, int allowed, char *err,
                                   size_t errlen) {
  if (name == NULL)
    cb_kit_err(err, errlen, "algorithm not offered: %s", p->alg);
  else if (!allowed)
    cb_kit_err(err, errlen, "operation %s not offered for %s", p->op, name);
  else if (p->chunk > 0)
    cb_kit_err(err, errlen, "not offered: %s takes the message in one call (chunk must be 0)",
               name);
  else
    return 0;
  return -1;
}

/* The kinds of algorithm a module's table sorts its catalogue into, and their operations. */
enum cb_kit_kind {
  CB_KIT_NOOP,
  CB_KIT_HASH,
  CB_KIT_MAC,
  CB_KIT_CIPHER, /* encrypt, decrypt */
  CB_KIT_AEAD,   /* seal, open */
  CB_KIT_SIG,    /* keygen, sign, verify (public-key) */
  CB_KIT_KEX,    /* keygen, derive (public-key) */
  CB_KIT_KEM,    /* keygen, encaps, decaps (public-key) */
  CB_KIT_PKE,    /* keygen, encrypt, decrypt (public-key: RSA-OAEP) */
};

/* The operations of kind k, NULL-terminated: what the catalogue offers and cells accept. */
static inline const char *const *cb_kit_kind_ops(enum cb_kit_kind k) {
  static const char *const ops[][CB_MAX_OPS + 1] = {{"noop"},
                                                    {"hash"},
                                                    {"mac"},
                                                    {"encrypt", "decrypt"},
                                                    {"seal", "open"},
                                                    {"keygen", "sign", "verify"},
                                                    {"keygen", "derive"},
                                                    {"keygen", "encaps", "decaps"},
                                                    {"keygen", "encrypt", "decrypt"}};
  return ops[k];
}

/* Fill a's operations (and pk) for kind k; name, stream and lengths are the caller's. */
static inline void cb_kit_ops_of(enum cb_kit_kind k, cb_alg *a) {
  const char *const *ops = cb_kit_kind_ops(k);
  memset(a->ops, 0, sizeof a->ops);
  for (size_t i = 0; i < CB_MAX_OPS && ops[i] != NULL; i++)
    a->ops[i] = ops[i];
  a->pk = k >= CB_KIT_SIG;
}

/* A cell's operation: the index of `op` among the module's names[0..n) when algorithm `alg`, of
 * kind k, has it (the module's own operations, outside the kinds, it checks itself); else -1 with
 * "operation <op> not offered for <alg>" in err. */
static inline int cb_kit_op_of_kind(const char *op, enum cb_kit_kind k, const char *const *names,
                                    size_t n, const char *alg, char *err, size_t errlen) {
  int i = -1;
  for (const char *const *o = cb_kit_kind_ops(k); *o != NULL && i < 0; o++)
    if (strcmp(op, *o) == 0)
      i = cb_kit_op_index(op, names, n);
  if (i >= 0)
    return i;
  cb_kit_err(err, errlen, "operation %s not offered for %s", op, alg);
  return -1;
}

#ifdef __cplusplus
}
#endif

#endif
