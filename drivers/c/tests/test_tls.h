/* The OpenSSL module's TLS 1.3 cells (protocol.md, version 7), included by test_driver.c (its
 * check / call_str / is_ok / str) when it tests the OpenSSL module: a test PKI made by
 * cryptobench.verify.tls_pki in a temporary folder, a full and a resumed cell benched through
 * the protocol (flights, group, checks), a cell without PKI refused, and one interop self-pair
 * over loopback TCP (this process serving in its thread and connecting). Fast: a few hundred
 * handshakes. */
#include <unistd.h>

#include "tls_cmd.h"
#include "tls_iface.h"

/* the module's private TLS entry (ops_openssl.c), linked in */
CB_PROVIDER_EXPORT const cb_tls_iface *cryptobench_c_tls(void);

#define TLS_SERVER_NAME "server.cryptobench.test"

/* The "tls" object of auth's PKI under dir. */
static void tls_object(char *out, size_t cap, const char *dir, const char *auth) {
  snprintf(out, cap,
           "{\"chain\":\"%s/%s/chain.pem\",\"key\":\"%s/%s/leaf.key\",\"ca\":\"%s/%s/root.pem\","
           "\"server_name\":\"" TLS_SERVER_NAME "\"}",
           dir, auth, dir, auth, dir, auth);
}

static json_int_t tls_int(json_t *o, const char *path1, const char *path2) {
  json_t *v = json_object_get(o, path1);
  if (path2 != NULL)
    v = json_object_get(v, path2);
  return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* One bench of alg/op with the PKI; its response (decref). */
static json_t *tls_bench(const char *alg, const char *op, const char *tls) {
  char req[2048];
  snprintf(req, sizeof req,
           "{\"cmd\":\"bench\",\"alg\":\"%s\",\"op\":\"%s\",\"size\":0,\"seed\":1,\"batch\":4,"
           "\"warmup_ns\":0,\"samples\":2,\"tls\":%s}",
           alg, op, tls);
  return call_str(req);
}

static void test_tls_bench(const char *tls) {
  json_t *full = tls_bench("tls13-x25519-ecdsa-p256", "handshake", tls);
  json_t *t = json_object_get(full, "tls");
  check(is_ok(full) && tls_int(t, "group", NULL) == 0x1d && tls_int(t, "cipher", NULL) == 0x1301 &&
            tls_int(t, "sigalg", NULL) == 0x0403 && json_is_false(json_object_get(t, "resumed")) &&
            tls_int(t, "round_trips", NULL) == 1 && tls_int(t, "flights", "client_hello") > 0 &&
            tls_int(t, "flights", "server_flight") > 0 &&
            tls_int(t, "flights", "client_finished") > 0 && tls_int(t, "flights", "tickets") == 0 &&
            strncmp(str(full, "checksum"), "00000020:", 9) == 0 &&
            strcmp(str(full, "checksum"), str(full, "checksum_after")) != 0,
        "tls13-x25519-ecdsa-p256 handshake: group, suite, sigalg, flights, fresh exporters: %s",
        str(full, "error"));
  json_t *res = tls_bench("tls13-x25519-ecdsa-p256-resume", "client", tls);
  t = json_object_get(res, "tls");
  check(is_ok(res) && json_is_true(json_object_get(t, "resumed")) &&
            json_is_null(json_object_get(t, "sigalg")) && tls_int(t, "flights", "tickets") > 0 &&
            tls_int(t, "flights", "server_flight") <
                tls_int(json_object_get(full, "tls"), "flights", "server_flight"),
        "tls13-x25519-ecdsa-p256-resume client: resumed, a ticket, no certificate: %s",
        str(res, "error"));
  json_decref(res);
  res = tls_bench("tls13-x25519-ecdsa-p256", "server", tls);
  check(is_ok(res), "tls13-x25519-ecdsa-p256 server: %s", str(res, "error"));
  json_decref(res);
  /* the hybrid where the library has it: the ClientHello carries the ML-KEM-768 share (1184
   * bytes more, less the ec_point_formats extension OpenSSL sends only with a classical EC
   * group), the server flight its 1088-byte ciphertext */
  if (ops_alg_find("tls13-x25519mlkem768-ecdsa-p256") != NULL) {
    res = tls_bench("tls13-x25519mlkem768-ecdsa-p256", "handshake", tls);
    t = json_object_get(res, "tls");
    json_t *ft = json_object_get(full, "tls");
    json_int_t dch = tls_int(t, "flights", "client_hello") - tls_int(ft, "flights", "client_hello");
    json_int_t dsf =
        tls_int(t, "flights", "server_flight") - tls_int(ft, "flights", "server_flight");
    check(is_ok(res) && tls_int(t, "group", NULL) == 0x11ec && dch >= 1178 && dch <= 1184 &&
              dsf >= 1088 - 2 && dsf <= 1088 + 2,
          "tls13-x25519mlkem768-ecdsa-p256: group 0x11ec, flights +%lld/+%lld: %s", (long long)dch,
          (long long)dsf, str(res, "error"));
    json_decref(res);
  }
  json_decref(full);
  res = call_str("{\"cmd\":\"bench\",\"alg\":\"tls13-x25519-ecdsa-p256\",\"op\":\"handshake\","
                 "\"size\":0,\"seed\":1,\"samples\":1}");
  check(!is_ok(res) && strcmp(str(res, "error"), "tls: no PKI in the request") == 0,
        "a TLS bench without PKI: %s", str(res, "error"));
  json_decref(res);
}

/* tls-serve in this process (its thread), tls-connect from it: 2 connections of a -resume cell */
static void test_tls_interop(const char *tls, const char *dir) {
  char req[2048];
  const char *alg = "tls13-x25519-ecdsa-p256-resume";
  snprintf(req, sizeof req,
           "{\"cmd\":\"tls-serve\",\"alg\":\"%s\",\"connections\":2,\"timeout_ms\":10000,"
           "\"tls\":%s}",
           alg, tls);
  json_t *srv = call_str(req);
  json_int_t port = tls_int(srv, "port", NULL);
  check(is_ok(srv) && port > 0, "tls-serve: %s", str(srv, "error"));
  json_decref(srv);
  if (port <= 0)
    return;
  snprintf(req, sizeof req,
           "{\"cmd\":\"tls-connect\",\"alg\":\"%s\",\"port\":%lld,\"connections\":2,"
           "\"timeout_ms\":10000,\"tls\":{\"ca\":\"%s/ecdsa-p256/"
           "root.pem\",\"server_name\":\"" TLS_SERVER_NAME "\"}}",
           alg, (long long)port, dir);
  json_t *cl = call_str(req);
  json_t *sv = call_str("{\"cmd\":\"tls-result\"}");
  json_t *ch = json_object_get(cl, "handshakes"), *sh = json_object_get(sv, "handshakes");
  int same = json_array_size(ch) == 2 && json_array_size(sh) == 2;
  for (size_t i = 0; same && i < 2; i++) {
    json_t *c = json_array_get(ch, i), *s = json_array_get(sh, i);
    same = strlen(str(c, "exporter")) == 64 &&
           strcmp(str(c, "exporter"), str(s, "exporter")) == 0 &&
           tls_int(c, "group", NULL) == 0x1d && tls_int(s, "group", NULL) == 0x1d &&
           tls_int(c, "cipher", NULL) == 0x1301 && tls_int(s, "cipher", NULL) == 0x1301 &&
           json_is_true(json_object_get(c, "resumed")) == (i == 1) &&
           json_is_true(json_object_get(s, "resumed")) == (i == 1);
  }
  check(is_ok(cl) && is_ok(sv) && same,
        "interop self-pair: equal exporters, group, suite, the second resumed: %s %s",
        str(cl, "error"), str(sv, "error"));
  json_decref(cl);
  json_decref(sv);
  json_t *none = call_str("{\"cmd\":\"tls-result\"}");
  check(!is_ok(none), "tls-result without tls-serve: an error");
  json_decref(none);
}

static void test_tls(void) {
  uint64_t t0 = timing_now_ns();
  plugin_set_tls(cryptobench_c_tls());
  if (!tls_offered()) {
    check(OPENSSL_VERSION_NUMBER < 0x30000000L, "TLS cells offered from OpenSSL 3.0 on");
    printf("tls     no TLS cells (OpenSSL before 3.0)\n");
    return;
  }
  json_t *h = call_str("{\"cmd\":\"hello\",\"protocol\":7}");
  check(json_integer_value(json_object_get(h, "protocol")) == 7 &&
            json_object_get(json_object_get(h, "offers"), "tls13-p256-rsa-2048-resume") != NULL,
        "hello: protocol 7, the classical TLS cells offered");
  json_decref(h);
  /* the test PKI, as the orchestrator makes it (the repository's Python, from its root) */
  char dir[] = "/tmp/cb-tls-test-XXXXXX", cmd[600];
  const char *python = getenv("PYTHON") != NULL ? getenv("PYTHON") : "python3";
  check(mkdtemp(dir) != NULL, "a temporary folder for the test PKI");
  snprintf(cmd, sizeof cmd, "cd ../.. && %s -m cryptobench.verify.tls_pki %s >/dev/null 2>&1",
           python, dir);
  int made = system(cmd) == 0;
  char probe[700];
  snprintf(probe, sizeof probe, "%s/ecdsa-p256/chain.pem", dir);
  made = made && access(probe, R_OK) == 0;
  check(made, "test PKI: %s", cmd);
  if (made) {
    char tls[1024];
    tls_object(tls, sizeof tls, dir, "ecdsa-p256");
    test_tls_bench(tls);
    test_tls_interop(tls, dir);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    check(0, "removing %s", dir);
  printf("tls     TLS 1.3 cells: bench and an interop self-pair (%.1f s)\n",
         (double)(timing_now_ns() - t0) / 1e9);
}
