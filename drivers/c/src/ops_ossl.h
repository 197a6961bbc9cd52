/* What the OpenSSL module's files share (ops_openssl.c, ops_openssl_pk.c, ops_openssl_tls.c):
 * OpenSSL's error queue
 * as a one-line message. Internal to the C driver family. */
#ifndef CB_OPS_OSSL_H
#define CB_OPS_OSSL_H

#include <openssl/err.h>

#include <cryptobench/kit.h>

/* "<what>: <first OpenSSL error>" (or "<what> failed"), and clear the queue. */
static inline void ossl_err(char *err, size_t errlen, const char *what) {
  unsigned long e = ERR_get_error();
  if (e != 0) {
    char buf[200];
    ERR_error_string_n(e, buf, sizeof buf);
    cb_kit_err(err, errlen, "%s: %s", what, buf);
  } else {
    cb_kit_err(err, errlen, "%s failed", what);
  }
  ERR_clear_error();
}

#endif
