/* Reading a request's fields and its cases (docs/protocol.md, "Common shapes" and `verify`).
 * A case (a `verify` case, a `leak` input) becomes the ops_params of a cell here, once, so the
 * code the vectors check and the code the leak check times prepare their cells the same way. */
#ifndef CB_REQUEST_H
#define CB_REQUEST_H

#include <jansson.h>
#include <stdint.h>

#include "ops.h"

/* Each reads field `name` of obj; 0, or -1 with a one-line message in err. An absent optional
 * field gives NULL / dflt / "" / false. */
int req_string(json_t *obj, const char *name, int required, const char **out, char *err,
               size_t errlen);
/* A non-negative integer no larger than max (integral reals are accepted too). */
int req_uint(json_t *obj, const char *name, int required, uint64_t dflt, uint64_t max,
             uint64_t *out, char *err, size_t errlen);
/* A hex field ("" when absent) decoded into a fresh allocation (free()). */
int req_hex(json_t *obj, const char *name, uint8_t **out, size_t *len, char *err, size_t errlen);
/* A hex field that stays NULL (length 0) when absent, so presence can be told from "". */
int req_hex_opt(json_t *obj, const char *name, uint8_t **out, size_t *len, char *err,
                size_t errlen);
int req_bool(json_t *obj, const char *name, int *out, char *err, size_t errlen);

#define REQ_CASE_BUFFERS 19

/* A parsed case: the cell's parameters and the buffers they borrow (owned here). */
typedef struct req_case {
  ops_params p;
  uint8_t *owned[REQ_CASE_BUFFERS];
  cb_ext ext[7]; /* p.ext: the handshake secrets present, then the end mark (key NULL) */
} req_case;

/* Parse case object cs of algorithm alg; op is the case's own "op" field when op is NULL. 0, or
 * -1 with a one-line message (then nothing is left to free). */
int req_case_parse(const char *alg, const char *op, json_t *cs, req_case *out, char *err,
                   size_t errlen);
void req_case_free(req_case *c);

#endif
