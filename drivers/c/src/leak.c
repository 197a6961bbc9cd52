#define _POSIX_C_SOURCE 200809L
#include "leak.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_plugin.h"
#include "protocol.h"
#include "request.h"
#include "timing.h"

#define LEAK_MAX_MEASUREMENTS 1000000u

/* One reading of the counter the leak request times with: the TSC where there is one (fenced so
 * the operation cannot drift across the read), else the clock in ns. */
#if defined(__x86_64__)
#include <x86intrin.h>
#define LEAK_COUNTER "tsc"
static inline uint64_t counter_start(void) {
  _mm_lfence();
  uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}
static inline uint64_t counter_end(void) {
  unsigned aux;
  uint64_t t = __rdtscp(&aux);
  _mm_lfence();
  return t;
}
#else
#define LEAK_COUNTER "clock"
static inline uint64_t counter_start(void) { return timing_now_ns(); }
static inline uint64_t counter_end(void) { return timing_now_ns(); }
#endif

typedef struct leak_state {
  req_case *inputs; /* one per measurement: its own copy of its input's bytes */
  size_t n_inputs;
  ops_cell **cells; /* one per measurement, all made before the first is timed */
  size_t n_cells;
  uint64_t *times;
  int *outcome; /* per input: 0 not run yet, 1 ok, 2 rejected */
} leak_state;

static void leak_free(leak_state *s) {
  for (size_t i = 0; i < s->n_cells; i++)
    if (s->cells[i] != NULL)
      ops_cell_free(s->cells[i]);
  for (size_t i = 0; i < s->n_cells; i++)
    req_case_free(&s->inputs[i]);
  free(s->cells);
  free(s->inputs);
  free(s->times);
  free(s->outcome);
}

static int offers(const char *alg, const char *op) {
  const ops_alg *a = ops_alg_find(alg);
  if (a == NULL)
    return 0;
  for (size_t k = 0; a->ops[k] != NULL; k++)
    if (strcmp(a->ops[k], op) == 0)
      return 1;
  return 0;
}

/* One cell per measurement, prepared from its own copy of its input, outside the timed region: a
 * fixed class's measurements read as many distinct buffers as a random class's (as dudect's
 * input array), so the classes differ in their bytes only, not in where they are in memory. */
static json_t *prepare(leak_state *s, const char *alg, const char *op, json_t *inputs,
                       json_t *order) {
  char err[300] = "";
  s->n_inputs = json_array_size(inputs);
  s->n_cells = json_array_size(order);
  if (s->n_inputs == 0 || s->n_cells == 0)
    return cb_error("fields inputs and order must be non-empty arrays");
  if (s->n_cells > LEAK_MAX_MEASUREMENTS)
    return cb_error("order has %zu measurements (at most %u a request)", s->n_cells,
                    LEAK_MAX_MEASUREMENTS);
  s->inputs = calloc(s->n_cells, sizeof *s->inputs);
  s->cells = calloc(s->n_cells, sizeof *s->cells);
  s->times = calloc(s->n_cells, sizeof *s->times);
  s->outcome = calloc(s->n_inputs, sizeof *s->outcome);
  if (s->inputs == NULL || s->cells == NULL || s->times == NULL || s->outcome == NULL)
    return cb_error("out of memory for %zu measurements", s->n_cells);
  for (size_t i = 0; i < s->n_cells; i++) {
    json_t *v = json_array_get(order, i);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (size_t)json_integer_value(v) >= s->n_inputs)
      return cb_error("order[%zu] is not an index into inputs (0 .. %zu)", i, s->n_inputs - 1);
    json_t *input = json_array_get(inputs, (size_t)json_integer_value(v));
    if (req_case_parse(alg, op, input, &s->inputs[i], err, sizeof err) != 0)
      return cb_error("input %lld: %s", (long long)json_integer_value(v), err);
    s->cells[i] = ops_cell_new(&s->inputs[i].p, err, sizeof err);
    if (s->cells[i] == NULL)
      return cb_error("input %lld: %s", (long long)json_integer_value(v), err);
    if (ops_cell_prepare(s->cells[i], 1) != 0)
      return cb_error("input %lld: %s", (long long)json_integer_value(v),
                      ops_cell_error(s->cells[i]));
  }
  return NULL;
}

/* A MAC's leak-only operations (docs/protocol.md § leak): `verify`, the provider's `mac` of the
 * input's key and msg then the library's own comparison with its `sig` (a wrong tag: rejected),
 * and `compare`, that comparison alone of `msg` with `sig` (unequal: rejected). The comparison is
 * the library's constant-time one, found by name among the plugin's libraries (plugin_compare):
 * the plugin ABI has no MAC verification, and OpenSSL none but CRYPTO_memcmp after the MAC. */
typedef struct mac_leak {
  uint8_t **a, **b; /* per measurement: compare's two secrets; verify's expected tag in b */
  size_t *a_len, *b_len;
} mac_leak;

static int is_mac(const char *alg) { return offers(alg, "mac"); }

static void mac_leak_free(mac_leak *m, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (m->a != NULL)
      free(m->a[i]);
    if (m->b != NULL)
      free(m->b[i]);
  }
  free(m->a);
  free(m->b);
  free(m->a_len);
  free(m->b_len);
}

/* The response's arrays: the measured times, in order, and each input's outcome. */
static void leak_arrays(const leak_state *s, json_t **times, json_t **outcomes) {
  static const char *const words[] = {"unused", "ok", "rejected"};
  *times = json_array();
  *outcomes = json_array();
  for (size_t i = 0; i < s->n_cells; i++)
    json_array_append_new(*times, json_integer((json_int_t)s->times[i]));
  for (size_t i = 0; i < s->n_inputs; i++)
    json_array_append_new(*outcomes, json_string(words[s->outcome[i]]));
}

static json_t *handle_mac_leak(const char *alg, const char *op, json_t *inputs, json_t *order) {
  const char *cmp_name;
  plugin_memcmp_fn cmp = plugin_compare(&cmp_name);
  if (cmp == NULL)
    return cb_error(
        "not offered: %s %s: no constant-time comparison of the library found by name "
        "(CRYPTO_memcmp, sodium_memcmp, botan_constant_time_compare, mbedtls_ct_memcmp)",
        alg, op);
  int verify = strcmp(op, "verify") == 0;
  leak_state s = {0};
  mac_leak m = {0};
  json_t *res = NULL;
  char err[300] = "";
  s.n_inputs = json_array_size(inputs);
  s.n_cells = json_array_size(order);
  if (s.n_inputs == 0 || s.n_cells == 0)
    return cb_error("fields inputs and order must be non-empty arrays");
  if (s.n_cells > LEAK_MAX_MEASUREMENTS)
    return cb_error("order has %zu measurements (at most %u a request)", s.n_cells,
                    LEAK_MAX_MEASUREMENTS);
  s.times = calloc(s.n_cells, sizeof *s.times);
  s.outcome = calloc(s.n_inputs, sizeof *s.outcome);
  m.a = calloc(s.n_cells, sizeof *m.a);
  m.b = calloc(s.n_cells, sizeof *m.b);
  m.a_len = calloc(s.n_cells, sizeof *m.a_len);
  m.b_len = calloc(s.n_cells, sizeof *m.b_len);
  if (verify) {
    s.inputs = calloc(s.n_cells, sizeof *s.inputs);
    s.cells = calloc(s.n_cells, sizeof *s.cells);
  }
  if (s.times == NULL || s.outcome == NULL || m.a == NULL || m.b == NULL || m.a_len == NULL ||
      m.b_len == NULL || (verify && (s.inputs == NULL || s.cells == NULL))) {
    res = cb_error("out of memory for %zu measurements", s.n_cells);
    goto done;
  }
  for (size_t i = 0; i < s.n_cells; i++) { /* every cell and copy made before the first reading */
    json_t *v = json_array_get(order, i);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (size_t)json_integer_value(v) >= s.n_inputs) {
      res = cb_error("order[%zu] is not an index into inputs (0 .. %zu)", i, s.n_inputs - 1);
      goto done;
    }
    long long k = (long long)json_integer_value(v);
    json_t *input = json_array_get(inputs, (size_t)k);
    if (req_hex(input, "sig", &m.b[i], &m.b_len[i], err, sizeof err) != 0 ||
        (!verify && req_hex(input, "msg", &m.a[i], &m.a_len[i], err, sizeof err) != 0)) {
      res = cb_error("input %lld: %s", k, err);
      goto done;
    }
    if (!verify && m.a_len[i] != m.b_len[i]) {
      res = cb_error("input %lld: msg and sig differ in length (%zu, %zu)", k, m.a_len[i],
                     m.b_len[i]);
      goto done;
    }
    if (!verify)
      continue;
    if (req_case_parse(alg, "mac", input, &s.inputs[i], err, sizeof err) != 0 ||
        (s.cells[i] = ops_cell_new(&s.inputs[i].p, err, sizeof err)) == NULL) {
      res = cb_error("input %lld: %s", k, err);
      goto done;
    }
    if (ops_cell_prepare(s.cells[i], 1) != 0) {
      res = cb_error("input %lld: %s", k, ops_cell_error(s.cells[i]));
      goto done;
    }
  }
  timing_clean_vector_state();
  uint64_t sink = 0;
  for (size_t i = 0; i < s.n_cells; i++) {
    int differ;
    uint64_t t0 = counter_start();
    if (verify) {
      int r = ops_cell_run(s.cells[i]);
      size_t len = 0;
      const uint8_t *tag = r == OPS_FAIL ? NULL : ops_cell_output(s.cells[i], &len);
      differ = tag == NULL || len != m.b_len[i] || cmp(tag, m.b[i], len) != 0;
      if (r == OPS_FAIL) {
        res = cb_error("measurement %zu: %s", i, ops_cell_error(s.cells[i]));
        goto done;
      }
    } else {
      differ = cmp(m.a[i], m.b[i], m.a_len[i]) != 0;
    }
    uint64_t t1 = counter_end();
    s.times[i] = t1 - t0;
    size_t input = (size_t)json_integer_value(json_array_get(order, i));
    if (s.outcome[input] == 0)
      s.outcome[input] = differ ? 2 : 1;
    sink += (uint64_t)differ;
  }
  json_t *times, *outcomes;
  leak_arrays(&s, &times, &outcomes);
  res = json_pack("{s:b, s:s, s:o, s:o, s:I, s:s}", "ok", 1, "counter", LEAK_COUNTER, "times",
                  times, "outcomes", outcomes, "sink", (json_int_t)sink, "compare", cmp_name);
done:
  mac_leak_free(&m, s.n_cells);
  if (!verify || s.cells == NULL || s.inputs == NULL)
    s.n_cells = 0; /* no cells nor parsed inputs to free */
  leak_free(&s);
  return res;
}

json_t *cb_handle_leak(json_t *req) {
  char err[300];
  const char *alg, *op;
  if (req_string(req, "alg", 1, &alg, err, sizeof err) != 0 ||
      req_string(req, "op", 1, &op, err, sizeof err) != 0)
    return cb_error("%s", err);
  json_t *inputs = json_object_get(req, "inputs"), *order = json_object_get(req, "order");
  if (!json_is_array(inputs) || !json_is_array(order))
    return cb_error("fields inputs and order must be arrays");
  if ((strcmp(op, "verify") == 0 || strcmp(op, "compare") == 0) && is_mac(alg))
    return handle_mac_leak(alg, op, inputs, order);
  if (!offers(alg, op))
    return cb_error("not offered: %s %s", alg, op);
  leak_state s = {0};
  json_t *res = prepare(&s, alg, op, inputs, order);
  if (res != NULL) {
    leak_free(&s);
    return res;
  }
  timing_clean_vector_state();
  uint64_t sink = 0;
  for (size_t i = 0; i < s.n_cells; i++) {
    uint64_t t0 = counter_start();
    int r = ops_cell_run(s.cells[i]);
    uint64_t t1 = counter_end();
    s.times[i] = t1 - t0;
    if (r == OPS_FAIL) {
      res = cb_error("measurement %zu: %s", i, ops_cell_error(s.cells[i]));
      leak_free(&s);
      return res;
    }
    size_t input = (size_t)json_integer_value(json_array_get(order, i));
    if (s.outcome[input] == 0)
      s.outcome[input] = r == OPS_REJECTED ? 2 : 1;
    sink += r == OPS_REJECTED ? 0u : (uint64_t)r;
  }
  json_t *times, *outcomes;
  leak_arrays(&s, &times, &outcomes);
  leak_free(&s);
  return json_pack("{s:b, s:s, s:o, s:o, s:I}", "ok", 1, "counter", LEAK_COUNTER, "times", times,
                   "outcomes", outcomes, "sink", (json_int_t)(sink & 0x7fffffff));
}
