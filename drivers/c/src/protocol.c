#define _POSIX_C_SOURCE 200809L
#include "protocol.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "input.h"
#include "leak.h"
#include "ops.h"
#include "ops_plugin.h"
#include "pk_bench.h"
#include "request.h"
#include "timing.h"
#include "tls_cmd.h"

#define MAX_SAMPLES 1000000u

static const char *provider_id = "";

static const char *provider_language = NULL; /* NULL: the provider id's prefix */

void cb_set_provider(const char *id) { provider_id = id; }
void cb_set_language(const char *language) { provider_language = language; }

static const char *provider_runtime = NULL; /* NULL: the compiler of this file */
void cb_set_runtime(const char *runtime) { provider_runtime = runtime; }

json_t *cb_error(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  for (char *p = msg; *p; p++) /* one line */
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  return json_pack("{s:b, s:s}", "ok", 0, "error", msg);
}

/* ---- field decoding: 0 on success, -1 with a message in err ---- */

/* ---- hello ---- */

/* The plugin's declarations as hello's `declares` (docs/protocol.md, version 6): the lengths it
 * gives (0: not given), the KAT path resolved against the plugin's folder. */
static json_t *declares_json(void) {
  json_t *list = json_array();
  const cb_declare *d;
  const char *kat = NULL;
  for (size_t i = 0; (d = ops_declare_at(i, &kat)) != NULL; i++) {
    json_t *o = json_pack("{s:s, s:s}", "name", d->name, "kind", d->kind);
    if (o == NULL)
      continue;
    if (d->ops[0] != NULL) {
      json_t *ops = json_array();
      for (size_t k = 0; d->ops[k] != NULL; k++)
        json_array_append_new(ops, json_string(d->ops[k]));
      json_object_set_new(o, "ops", ops);
    }
    const struct {
      const char *key;
      uint32_t v;
    } sizes[] = {{"out_len", d->out_len},       {"key_len", d->key_len},
                 {"iv_len", d->iv_len},         {"tag_len", d->tag_len},
                 {"block", d->block},           {"public_key", d->public_key},
                 {"secret_key", d->secret_key}, {"ciphertext", d->ciphertext},
                 {"signature", d->signature},   {"shared_secret", d->shared_secret}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      if (sizes[k].v != 0)
        json_object_set_new(o, sizes[k].key, json_integer(sizes[k].v));
    if (kat != NULL)
      json_object_set_new(o, "kat", json_string(kat));
    if (d->standard != NULL)
      json_object_set_new(o, "standard", json_string(d->standard));
    json_array_append_new(list, o);
  }
  return list;
}

static json_t *handle_hello(json_t *req) {
  /* any version >= 1 is accepted; the answer is the highest this driver implements */
  json_t *proto = json_object_get(req, "protocol");
  if (proto != NULL && !(json_is_integer(proto) && json_integer_value(proto) >= 1))
    return cb_error("unsupported protocol version (this driver speaks 1 .. %d)",
                    CB_PROTOCOL_VERSION);

  json_t *offers = json_object(), *stream = json_array(), *notes = json_array();
  for (size_t i = 0; i < ops_alg_count(); i++) {
    const ops_alg *a = ops_alg_at(i);
    json_t *ops = json_array();
    for (size_t k = 0; a->ops[k] != NULL; k++)
      json_array_append_new(ops, json_string(a->ops[k]));
    json_object_set_new(offers, a->name, ops);
    if (a->stream)
      json_array_append_new(stream, json_string(a->name));
  }
  const char *note_text[16];
  size_t n = ops_notes(provider_id, note_text, 16);
  for (size_t i = 0; i < n; i++)
    json_array_append_new(notes, json_string(note_text[i]));
#if !TIMING_HAVE_TSC
  json_array_append_new(notes, json_string(TIMING_NO_TSC_NOTE));
#endif

#ifdef __clang__
  const char *runtime = "clang " __clang_version__;
#else
  const char *runtime = "gcc " __VERSION__;
#endif
  /* a plugin's toolchain is its own (cb_set_runtime), never this driver's compiler; modules
   * linked in directly (the native tests) were built by this one */
  if (provider_runtime != NULL)
    runtime = provider_runtime;
  /* the language is the provider id's prefix: "c" for c:openssl, "cpp" for cpp:botan; a
   * plugin:<name> provider's is the plugin's own (cb_set_language) */
  char language[16] = "c";
  const char *colon = strchr(provider_id, ':');
  if (provider_language != NULL)
    snprintf(language, sizeof language, "%s", provider_language);
  else if (colon != NULL && (size_t)(colon - provider_id) < sizeof language)
    snprintf(language, sizeof language, "%.*s", (int)(colon - provider_id), provider_id);
  json_t *hello = json_pack(
      "{s:b, s:i, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:I, s:i}, s:o, s:o, s:o}", "ok", 1, "protocol",
      CB_PROTOCOL_VERSION, "provider", provider_id, "language", language, "library",
      ops_library_name(), "library_version", ops_library_version(), "runtime", runtime, "clock",
      "source", TIMING_CLOCK_SOURCE, "resolution_ns", (json_int_t)timing_resolution_ns(),
      "probe_reads", TIMING_PROBE_READS, "offers", offers, "stream", stream, "notes", notes);
  double tsc_hz = timing_tsc_hz();
  if (hello != NULL && tsc_hz > 0) /* optional (docs/protocol.md, hello): the TSC's rate */
    json_object_set_new(json_object_get(hello, "clock"), "tsc_hz", json_real(tsc_hz));
  if (hello != NULL && ops_declare_count() > 0) { /* protocol 6: the algorithms it declares */
    json_object_set_new(hello, "protocol", json_integer(6));
    json_object_set_new(hello, "declares", declares_json());
  }
  if (hello != NULL && tls_offered()) /* protocol 7: TLS 1.3 cells and the interop commands */
    json_object_set_new(hello, "protocol", json_integer(7));
  return hello;
}

/* ---- verify: the case executor ---- */

static json_t *case_result(json_t *id, json_t *extra_key, json_t *extra_val) {
  json_t *r = json_object();
  json_object_set(r, "id", id != NULL ? id : json_null());
  json_object_set_new(r, json_string_value(extra_key), extra_val);
  json_decref(extra_key);
  return r;
}

static json_t *case_error(json_t *id, const char *msg) {
  return case_result(id, json_string("error"), json_string(msg));
}

static json_t *verify_case(const char *alg, json_t *cs) {
  char err[300] = "";
  json_t *id = json_is_object(cs) ? json_object_get(cs, "id") : NULL;
  req_case rc;
  if (req_case_parse(alg, NULL, cs, &rc, err, sizeof err) != 0)
    return case_error(id, err);
  json_t *res;
  ops_cell *c = ops_cell_new(&rc.p, err, sizeof err);
  if (c == NULL) {
    size_t un = strlen(OPS_UNSUPPORTED);
    res = strncmp(err, OPS_UNSUPPORTED, un) == 0
              ? case_result(id, json_string("unsupported"), json_string(err + un))
              : case_error(id, err);
    req_case_free(&rc);
    return res;
  }
  int r = ops_cell_run(c); /* a case is its own input: nothing to prepare */
  if (r == OPS_REJECTED) {
    res = case_result(id, json_string("rejected"), json_true());
  } else if (r < 0) {
    res = case_error(id, ops_cell_error(c));
  } else {
    size_t n;
    const uint8_t *out = ops_cell_output(c, &n);
    const ops_alg *a = ops_alg_find(alg);
    int digest = strcmp(rc.p.op, "hash") == 0 || strcmp(rc.p.op, "mac") == 0;
    char *hex = hex_encode(out, n);
    if (a != NULL && a->out_len != 0 && digest && n != a->out_len) /* provider.h: cb_alg.out_len */
      res = case_error(id, "output length differs from the catalogue's out_len");
    else
      res = hex != NULL ? case_result(id, json_string("out"), json_string(hex))
                        : case_error(id, "out of memory");
    free(hex);
  }
  ops_cell_free(c);
  req_case_free(&rc);
  return res;
}

static json_t *handle_verify(json_t *req) {
  char err[300];
  const char *alg;
  if (req_string(req, "alg", 1, &alg, err, sizeof err) != 0)
    return cb_error("%s", err);
  json_t *cases = json_object_get(req, "cases");
  if (!json_is_array(cases))
    return cb_error("field cases must be an array");
  if (ops_alg_find(alg) == NULL)
    return cb_error("not offered: algorithm %s", alg);
  json_t *results = json_array();
  size_t i;
  json_t *cs;
  json_array_foreach(cases, i, cs) json_array_append_new(results, verify_case(alg, cs));
  return json_pack("{s:b, s:o}", "ok", 1, "results", results);
}

/* ---- keypair ---- */

static json_t *handle_keypair(json_t *req) {
  char err[300] = "";
  const char *alg;
  if (req_string(req, "alg", 1, &alg, err, sizeof err) != 0)
    return cb_error("%s", err);
  const ops_alg *a = ops_alg_find(alg);
  if (a == NULL)
    return cb_error("not offered: algorithm %s", alg);
  if (!a->pk)
    return cb_error("not offered: keypair for %s (not a public-key algorithm)", alg);
  uint8_t *pub = NULL, *priv = NULL;
  size_t pub_len = 0, priv_len = 0;
  if (ops_keypair(alg, &pub, &pub_len, &priv, &priv_len, err, sizeof err) != 0)
    return cb_error("keypair %s: %s", alg, err);
  char *hp = hex_encode(pub, pub_len), *hs = hex_encode(priv, priv_len);
  json_t *res = hp != NULL && hs != NULL
                    ? json_pack("{s:b, s:s, s:s}", "ok", 1, "public", hp, "private", hs)
                    : cb_error("out of memory");
  free(hp);
  free(hs);
  free(pub);
  free(priv);
  return res;
}

/* ---- bench ---- */

/* Above this a streamed decrypt/open regenerates its ciphertext instead of holding it, where the
 * library can (docs/protocol.md): the runner's "big message" line. */
#define REGENERATE_ABOVE (64u * 1024 * 1024)

static long peak_rss_kb(void) {
#if defined(__wasi__)
  /* WASI has no ru_maxrss: the linear memory, which never shrinks, is the module's peak */
  return (long)(__builtin_wasm_memory_size(0) * 64);
#else
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
#endif
}

/* The ciphertext a decrypt/open cell reads, made outside the timed region by encrypt/seal of the
 * same message (streamed with the same chunk when the cell is streamed, collected through a tap:
 * the only size-proportional buffer of a streamed cell). 0, or -1 with the error response. */
static int make_ciphertext(const ops_params *p, int inverse, uint8_t **ct, size_t *ct_len,
                           json_t **res) {
  char err[300] = "";
  ops_params ep = *p;
  ep.op = inverse == 1 ? "encrypt" : "seal";
  ops_cell *enc = ops_cell_new(&ep, err, sizeof err);
  if (enc == NULL) {
    *res = cb_error("%s", err);
    return -1;
  }
  int rc = -1;
  size_t n = 0;
  if (p->chunk > 0) {
    size_t cap = p->msg_len + OPS_TAG_LEN;
    ops_tap tap = {OPS_FNV_INIT, 0, NULL, cap, 0};
    tap.copy = *ct = malloc(cap > 0 ? cap : 1);
    if (*ct == NULL) {
      *res = cb_error("out of memory (%zu bytes of ciphertext)", cap);
      goto done;
    }
    ops_cell_tap(enc, &tap);
    if (ops_cell_run(enc) < 0) {
      *res = cb_error("preparing the ciphertext: %s", ops_cell_error(enc));
      goto done;
    }
    if (tap.overflow) {
      *res = cb_error("preparing the ciphertext: longer than the message and a tag");
      goto done;
    }
    n = (size_t)tap.len;
  } else {
    if (ops_cell_run(enc) < 0) {
      *res = cb_error("preparing the ciphertext: %s", ops_cell_error(enc));
      goto done;
    }
    const uint8_t *out = ops_cell_output(enc, &n);
    *ct = malloc(n > 0 ? n : 1);
    if (*ct == NULL) {
      *res = cb_error("out of memory");
      goto done;
    }
    memcpy(*ct, out, n);
  }
  *ct_len = n;
  rc = 0;
done:
  ops_cell_free(enc);
  return rc;
}

/* Whether the catalogue lists `op` for `a`. */
static int offers_op(const ops_alg *a, const char *op) {
  for (size_t k = 0; a->ops[k] != NULL; k++)
    if (strcmp(a->ops[k], op) == 0)
      return 1;
  return 0;
}

/* The checksum of one operation, outside the timed region (streamed: of the whole output stream,
 * folded piece by piece through the tap). 0, or -1 with the error response. */
static int checksum_of_one(ops_cell *cell, int streamed, const char *op,
                           char checksum[INPUT_CHECKSUM_LEN], uint64_t *sink, json_t **res) {
  ops_tap tap = {OPS_FNV_INIT, 0, NULL, 0, 0};
  if (ops_cell_prepare(cell, 1) != 0) {
    *res = cb_error("preparing the cell: %s", ops_cell_error(cell));
    return -1;
  }
  if (streamed)
    ops_cell_tap(cell, &tap);
  int r = ops_cell_run(cell);
  if (streamed)
    ops_cell_tap(cell, NULL);
  if (r < 0) {
    if (r == OPS_REJECTED && strcmp(op, "open") == 0)
      *res = cb_error("tag rejected");
    else
      *res = cb_error("%s%s", r == OPS_REJECTED ? "rejected by the library: " : "",
                      ops_cell_error(cell));
    return -1;
  }
  *sink += (uint64_t)r;
  if (streamed) {
    input_checksum_of(tap.len, tap.fnv, checksum);
  } else {
    size_t len;
    const uint8_t *out = ops_cell_output(cell, &len);
    input_checksum(out, len, checksum);
  }
  return 0;
}

/* The samples' counter ticks as a JSON array, or NULL when any is 0 (no counter, or untimed work
 * inside a batch): a partial tick list would be worse than none. */
static json_t *tsc_samples(const uint64_t *ticks, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (ticks[i] == 0)
      return NULL;
  json_t *a = json_array();
  for (uint64_t i = 0; i < n; i++)
    json_array_append_new(a, json_integer((json_int_t)ticks[i]));
  return a;
}

static json_t *handle_bench(json_t *req) {
  char err[300] = "";
  const char *alg, *op;
  uint64_t size, chunk, seed, batch, target_ns, warmup_ns, nsamples;
  uint8_t *key = NULL, *iv = NULL, *msg = NULL, *ct = NULL;
  size_t key_len = 0, iv_len = 0;
  uint64_t *samples = NULL;
  ops_cell *cell = NULL;
  json_t *res = NULL, *tls_report = NULL;
  pk_material mat = {0};
  cb_ext tls_ext[5];

  if (req_string(req, "alg", 1, &alg, err, sizeof err) != 0 ||
      req_string(req, "op", 1, &op, err, sizeof err) != 0 ||
      req_uint(req, "size", 1, 0, SIZE_MAX / 2, &size, err, sizeof err) != 0 ||
      req_uint(req, "chunk", 0, 0, INPUT_PERIOD, &chunk, err, sizeof err) != 0 ||
      req_uint(req, "seed", 1, 0, UINT32_MAX, &seed, err, sizeof err) != 0 ||
      req_uint(req, "batch", 0, 0, (uint64_t)1 << 40, &batch, err, sizeof err) != 0 ||
      req_uint(req, "target_ns", 0, 5000000, (uint64_t)1 << 50, &target_ns, err, sizeof err) != 0 ||
      req_uint(req, "warmup_ns", 0, 0, (uint64_t)1 << 50, &warmup_ns, err, sizeof err) != 0 ||
      req_uint(req, "samples", 1, 0, MAX_SAMPLES, &nsamples, err, sizeof err) != 0 ||
      req_hex(req, "key", &key, &key_len, err, sizeof err) != 0 ||
      req_hex(req, "iv", &iv, &iv_len, err, sizeof err) != 0) {
    res = cb_error("%s", err);
    goto done;
  }
  if (seed == 0) {
    res = cb_error("seed must not be 0");
    goto done;
  }
  if (nsamples == 0) {
    res = cb_error("samples must be at least 1");
    goto done;
  }
  const ops_alg *a = ops_alg_find(alg);
  const int streamed = chunk > 0;
  if (a == NULL) {
    res = cb_error("not offered: algorithm %s", alg);
    goto done;
  }
  if (!offers_op(a, op)) {
    res = cb_error("not offered: operation %s for %s", op, alg);
    goto done;
  }
  if (streamed && !a->stream) {
    res = cb_error("not offered: %s has no streaming API in %s (chunk must be 0)", alg,
                   ops_library_name());
    goto done;
  }
  if (tls_bench_ext(req, alg, tls_ext, &res) != 0) /* a TLS cell's PKI (protocol.md, v7) */
    goto done;

  /* the fixed input: a one-shot cell gets the whole message; a streamed one reads its pieces
   * from the pattern (kept twice), so memory stays bounded whatever the size */
  msg = streamed ? input_pattern_twice((uint32_t)seed, (size_t)size)
                 : input_message((uint32_t)seed, (size_t)size);
  samples = calloc(2 * nsamples, sizeof *samples); /* times, then the counter's ticks */
  if (msg == NULL || samples == NULL) {
    res = cb_error("out of memory (size %llu)", (unsigned long long)size);
    goto done;
  }
  ops_params p = {.struct_size = sizeof(ops_params),
                  .alg = alg,
                  .op = op,
                  .key = key,
                  .key_len = key_len,
                  .iv = iv,
                  .iv_len = iv_len,
                  .msg = msg,
                  .msg_len = (size_t)size,
                  .chunk = (size_t)chunk,
                  .period = streamed ? INPUT_PERIOD : 0,
                  .ext = tls_ext[0].key != NULL ? tls_ext : NULL};

  /* decrypt / open time the inverse of encrypt / seal on the fixed input: make the ciphertext
   * here, outside the timed region (public-key cells: keys, signature, ciphertext from
   * pk_prepare) */
  int inverse = strcmp(op, "decrypt") == 0 ? 1 : strcmp(op, "open") == 0 ? 2 : 0;
  if (a != NULL && a->pk) {
    if (pk_prepare(&p, &mat, &res) != 0)
      goto done;
  } else if (inverse && streamed && size > REGENERATE_ABOVE && ops_regenerates_ciphertext()) {
    /* big: the cell regenerates each ciphertext piece from the pattern off the clock (ops.h) */
  } else if (inverse && a != NULL) {
    size_t ct_len = 0;
    if (make_ciphertext(&p, inverse, &ct, &ct_len, &res) != 0)
      goto done;
    p.msg = ct;
    p.msg_len = ct_len;
    p.period = 0;
    if (streamed) { /* the pattern is no longer needed */
      free(msg);
      msg = NULL;
    }
  }

  cell = ops_cell_new(&p, err, sizeof err);
  if (cell == NULL) {
    res = cb_error("%s", err);
    goto done;
  }

  char checksum[INPUT_CHECKSUM_LEN], after[INPUT_CHECKSUM_LEN];
  timing_result m = {.samples_ns = samples, .samples_tsc = samples + nsamples};
  if (checksum_of_one(cell, streamed, op, checksum, &m.sink, &res) != 0)
    goto done;
  tls_report = tls_bench_report(cell); /* what that untimed handshake showed (TLS cells) */
  timing_clean_vector_state();
  if (timing_measure(cell, batch, target_ns, warmup_ns, nsamples, &m) != 0) {
    res = cb_error("operation failed: %s", ops_cell_error(cell));
    goto done;
  }
  /* one more operation, untimed: state leaking from one operation into the next shows here (the
   * orchestrator compares it with the first for operations whose output is the same every time) */
  if (checksum_of_one(cell, streamed, op, after, &m.sink, &res) != 0)
    goto done;

  json_t *js = json_array();
  for (uint64_t i = 0; i < nsamples; i++)
    json_array_append_new(js, json_integer((json_int_t)samples[i]));
  json_t *warm =
      json_pack("{s:I, s:I}", "ops", (json_int_t)m.warmup_ops, "ns", (json_int_t)m.warmup_ns);
  if (batch == 0)
    json_object_set_new(warm, "calibration_ops", json_integer((json_int_t)m.calibration_ops));
  res = json_pack("{s:b, s:I, s:o, s:s, s:s, s:I, s:o, s:I}", "ok", 1, "batch", (json_int_t)m.batch,
                  "samples_ns", js, "checksum", checksum, "checksum_after", after, "sink",
                  (json_int_t)(m.sink & INT64_MAX), "warmup", warm, "peak_rss_kb",
                  (json_int_t)peak_rss_kb());
  json_t *ticks = tsc_samples(m.samples_tsc, nsamples);
  if (ticks != NULL) /* optional (docs/protocol.md, bench): the counter read beside the clock */
    json_object_set_new(res, "samples_tsc", ticks);
  if (tls_report != NULL) {
    json_object_set_new(res, "tls", tls_report);
    tls_report = NULL;
  }

done:
  json_decref(tls_report);
  ops_cell_free(cell);
  pk_material_free(&mat);
  free(samples);
  free(ct);
  free(msg);
  free(key);
  free(iv);
  return res != NULL ? res : cb_error("internal error building the response");
}

/* ---- dispatch ---- */

json_t *cb_handle_request(json_t *req, int *bye) {
  *bye = 0;
  if (!json_is_object(req))
    return cb_error("request is not a JSON object");
  json_t *cmd = json_object_get(req, "cmd");
  if (!json_is_string(cmd))
    return cb_error("missing field: cmd");
  const char *c = json_string_value(cmd);
  static const struct {
    const char *cmd;
    json_t *(*handle)(json_t *req);
  } commands[] = {{"hello", handle_hello},           {"verify", handle_verify},
                  {"bench", handle_bench},           {"keypair", handle_keypair},
                  {"leak", cb_handle_leak},          {"tls-serve", tls_handle_serve},
                  {"tls-result", tls_handle_result}, {"tls-connect", tls_handle_connect}};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(c, commands[i].cmd) == 0)
      return commands[i].handle(req);
  if (strcmp(c, "bye") == 0) {
    *bye = 1;
    return json_pack("{s:b}", "ok", 1);
  }
  return cb_error("unknown cmd: %s", c);
}

char *cb_handle_line(const char *line, size_t len, int *bye) {
  json_error_t jerr;
  json_t *resp;
  *bye = 0;
  json_t *req = json_loadb(line, len, 0, &jerr);
  if (req == NULL) {
    resp = cb_error("cannot parse request: %s", jerr.text);
  } else {
    resp = cb_handle_request(req, bye);
    json_decref(req);
  }
  char *s = json_dumps(resp, JSON_COMPACT);
  json_decref(resp);
  return s;
}

const char *cb_option(char **argv, int argc, int *i, const char *name) {
  size_t n = strlen(name);
  if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
    return argv[++*i];
  if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
    return argv[*i] + n + 1;
  return NULL;
}

int cb_serve(const char *provider) {
  cb_set_runtime(plugin_runtime());
  plugin_serving();
  cb_set_provider(provider);
  (void)timing_resolution_ns(); /* measured once, at start-up */

  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int bye = 0;
  while (!bye && (n = getline(&line, &cap, stdin)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    char *resp = cb_handle_line(line, (size_t)n, &bye);
    if (resp == NULL) {
      fputs("{\"ok\":false,\"error\":\"out of memory\"}\n", stdout);
    } else {
      fputs(resp, stdout);
      fputc('\n', stdout);
      free(resp);
    }
    if (fflush(stdout) != 0)
      break;
  }
  free(line);
  ops_fini();
  return 0;
}
