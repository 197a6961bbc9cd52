/*
 * Median microseconds of each handshake step (docs/pq-ntor.md section 10) per suite, with
 * system randomness, as a production caller runs it; the same steps as the Go
 * BenchmarkHandshake: client-create, server-reply (on one valid onionskin), client-finish
 * (a fresh state and its reply per run, made outside the timer), full (the three in a row).
 * L = 72. Each step is timed per call with CLOCK_MONOTONIC (about 20-30 ns of overhead).
 *
 *   bench [-n ITER] [-json]     default 2000 iterations per step and suite, after 200 warm-up
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "pqntor.h"
#include "util.h"

#define L 72

static void die(const char *what, int rc) {
  fprintf(stderr, "bench: %s: %s\n", what, pqntor_error_class(rc));
  exit(1);
}

typedef struct {
  pqntor_relay *relay;
  const pqntor_suite_info *si;
  const uint8_t *id, *B;
} ctx;

static pqntor_client *create(const ctx *c, uint8_t *os, size_t *olen) {
  pqntor_client *st = NULL;
  *olen = PQNTOR_MAX_ONIONSKIN_LEN;
  int rc = pqntor_client_create(&st, os, olen, c->si->suite, L, c->id, c->si->id_len, c->B, NULL);
  if (rc != PQNTOR_OK)
    die("client_create", rc);
  return st;
}

static void reply(const ctx *c, const uint8_t *os, size_t olen, uint8_t *rep, size_t *rlen,
                  uint8_t *keys) {
  *rlen = PQNTOR_MAX_REPLY_LEN;
  int rc = pqntor_server_reply(c->relay, c->si->suite, os, olen, rep, rlen, keys, L, NULL);
  if (rc != PQNTOR_OK)
    die("server_reply", rc);
}

static void finish(pqntor_client *st, const uint8_t *rep, size_t rlen, uint8_t *keys) {
  int rc = pqntor_client_finish(st, rep, rlen, keys, L, NULL);
  if (rc != PQNTOR_OK)
    die("client_finish", rc);
}

enum { CREATE, REPLY, FINISH, FULL, NSTEPS };
static const char *step_names[NSTEPS] = {"client-create", "server-reply", "client-finish", "full"};

static double run_step(const ctx *c, int step, int n, double *t) {
  uint8_t os[PQNTOR_MAX_ONIONSKIN_LEN], os0[PQNTOR_MAX_ONIONSKIN_LEN], rep[PQNTOR_MAX_REPLY_LEN],
      keys[L], keys2[L];
  size_t olen, olen0, rlen;
  pqntor_client *st0 = create(c, os0, &olen0);
  pqntor_client_free(st0);
  for (int i = -200; i < n; i++) {
    double t0 = 0, t1 = 0;
    pqntor_client *st;
    switch (step) {
    case CREATE:
      t0 = now_us();
      st = create(c, os, &olen);
      t1 = now_us();
      pqntor_client_free(st);
      break;
    case REPLY:
      t0 = now_us();
      reply(c, os0, olen0, rep, &rlen, keys);
      t1 = now_us();
      break;
    case FINISH:
      st = create(c, os, &olen);
      reply(c, os, olen, rep, &rlen, keys);
      t0 = now_us();
      finish(st, rep, rlen, keys2);
      t1 = now_us();
      pqntor_client_free(st);
      if (memcmp(keys, keys2, L) != 0)
        die("keys differ", 0);
      break;
    case FULL:
      t0 = now_us();
      st = create(c, os, &olen);
      reply(c, os, olen, rep, &rlen, keys);
      finish(st, rep, rlen, keys2);
      pqntor_client_free(st);
      t1 = now_us();
      break;
    }
    if (i >= 0)
      t[i] = t1 - t0;
  }
  return median(t, (size_t)n);
}

int main(int argc, char **argv) {
  int n = 2000, json = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
      n = atoi(argv[++i]);
    else if (strcmp(argv[i], "-json") == 0)
      json = 1;
    else {
      fprintf(stderr, "usage: bench [-n ITER] [-json]\n");
      return 2;
    }
  }
  if (n < 1)
    n = 1;
  double *t = malloc(sizeof(double) * (size_t)n);
  if (!json)
    printf("C pqntor, %s, median of %d runs, microseconds (L = %d)\n%-18s %14s %14s %14s %10s\n",
           OpenSSL_version(OPENSSL_VERSION), n, L, "suite", step_names[0], step_names[1],
           step_names[2], step_names[3]);
  else
    printf("[\n");
  for (int s = 0; s < PQNTOR_NUM_SUITES; s++) {
    ctx c;
    uint8_t id[32];
    c.si = pqntor_suite_get((pqntor_suite)s);
    RAND_bytes(id, sizeof id);
    int rc = pqntor_relay_generate(&c.relay, id, c.si->id_len, NULL);
    if (rc != PQNTOR_OK)
      die("relay", rc);
    c.id = id;
    c.B = pqntor_relay_public_key(c.relay);
    double med[NSTEPS];
    for (int step = 0; step < NSTEPS; step++)
      med[step] = run_step(&c, step, n, t);
    if (!json)
      printf("%-18s %14.1f %14.1f %14.1f %10.1f\n", c.si->name, med[0], med[1], med[2], med[3]);
    else
      for (int step = 0; step < NSTEPS; step++)
        printf("  {\"suite\": \"%s\", \"step\": \"%s\", \"median_us\": %.2f, \"runs\": %d}%s\n",
               c.si->name, step_names[step], med[step], n,
               s == PQNTOR_NUM_SUITES - 1 && step == NSTEPS - 1 ? "" : ",");
    pqntor_relay_free(c.relay);
  }
  if (json)
    printf("]\n");
  free(t);
  return 0;
}
