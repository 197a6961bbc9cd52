/*
 * pqntor-cli: one step of an ntor / pq-ntor handshake per call, JSON on stdin and stdout,
 * for the interoperability test against the Go implementation (same subcommands and
 * fields as protocols/pqntor/go/cmd/pqntor-cli):
 *
 *   relay-keygen   {"suite"}                                   -> {"suite", "relay_id",
 *                                                                  "relay_B", "relay_b_secret"}
 *   client-create  {"suite", "relay_id", "relay_B", "key_len"} -> {"state", "onionskin"}
 *   server-reply   {"suite", "relay_id", "relay_b_secret", "onionskin", "key_len"}
 *                                                              -> {"reply", "keys"}
 *   client-finish  {"state", "reply"}                          -> {"keys"}
 *
 * Byte strings are hex; key_len defaults to 72. A rejected handshake (or a library error)
 * prints {"error": class, "detail": ...} and exits 1; unreadable input exits 2. The state is
 * opaque hex (pqntor_client_serialize) for client-finish of this same program. All
 * randomness is the system's (RAND_priv_bytes, OpenSSL's ML-KEM).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "pqntor.h"
#include "util.h"

static json_t *req;

static void out_json(json_t *o) {
  char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (s != NULL)
    printf("%s\n", s);
  free(s);
  json_decref(o);
}

static void fail(int code, const char *cls, const char *detail) {
  json_t *o = json_object();
  json_object_set_new(o, "error", json_string(cls));
  json_object_set_new(o, "detail", json_string(detail));
  out_json(o);
  json_decref(req);
  exit(code);
}

static void usage_error(const char *detail) { fail(2, "invalid-argument", detail); }

static void lib_error(int rc, const char *what) { fail(1, pqntor_error_class(rc), what); }

/* A library call's result: anything but PQNTOR_OK ends the program with its error class. */
static void check(int rc, const char *what) {
  if (rc != PQNTOR_OK)
    lib_error(rc, what);
}

/* An X25519 key field must be 32 bytes (checked after every field is read, as the Go CLI does). */
static void need_32(size_t len, const char *key) {
  if (len != 32) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s is not 32 bytes", key);
    lib_error(PQNTOR_ERR_INVALID_ARGUMENT, msg);
  }
}

static void set_hex(json_t *o, const char *key, const uint8_t *p, size_t n) {
  char *h = hex_encode(p, n);
  json_object_set_new(o, key, json_string(h));
  free(h);
}

/* A required hex field (malloc). */
static uint8_t *field_hex(const char *key, size_t *len) {
  const char *s = json_string_value(json_object_get(req, key));
  char msg[128];
  if (s == NULL) {
    snprintf(msg, sizeof msg, "missing string field %s", key);
    usage_error(msg);
  }
  uint8_t *b = hex_decode(s, len);
  if (b == NULL) {
    snprintf(msg, sizeof msg, "%s: not hex", key);
    usage_error(msg);
  }
  return b;
}

static pqntor_suite field_suite(void) {
  pqntor_suite s;
  const char *name = json_string_value(json_object_get(req, "suite"));
  if (name == NULL || pqntor_suite_by_name(name, &s) != PQNTOR_OK)
    usage_error("missing or unknown suite");
  return s;
}

static size_t field_key_len(void) {
  json_t *k = json_object_get(req, "key_len");
  if (k == NULL || (json_is_integer(k) && json_integer_value(k) == 0))
    return PQNTOR_DEFAULT_KEY_LEN;
  if (!json_is_integer(k) || json_integer_value(k) < 0)
    usage_error("key_len: not a non-negative integer");
  return (size_t)json_integer_value(k);
}

static void relay_keygen(void) {
  const pqntor_suite_info *si = pqntor_suite_get(field_suite());
  uint8_t id[PQNTOR_MAX_ID_LEN];
  pqntor_relay *relay = NULL;
  if (RAND_bytes(id, (int)si->id_len) != 1)
    lib_error(PQNTOR_ERR_RANDOM, "RAND_bytes");
  check(pqntor_relay_generate(&relay, id, si->id_len, NULL), "relay_generate");
  json_t *o = json_object();
  json_object_set_new(o, "suite", json_string(si->name));
  set_hex(o, "relay_id", id, si->id_len);
  set_hex(o, "relay_B", pqntor_relay_public_key(relay), 32);
  set_hex(o, "relay_b_secret", pqntor_relay_secret_key(relay), 32);
  pqntor_relay_free(relay);
  out_json(o);
}

static void client_create(void) {
  pqntor_suite suite = field_suite();
  size_t L = field_key_len(), id_len, B_len, olen = PQNTOR_MAX_ONIONSKIN_LEN,
         sl = PQNTOR_CLIENT_STATE_MAX_LEN;
  uint8_t *id = field_hex("relay_id", &id_len), *B = field_hex("relay_B", &B_len);
  uint8_t onionskin[PQNTOR_MAX_ONIONSKIN_LEN], ser[PQNTOR_CLIENT_STATE_MAX_LEN];
  pqntor_client *st = NULL;
  need_32(B_len, "relay_B");
  check(pqntor_client_create(&st, onionskin, &olen, suite, L, id, id_len, B, NULL),
        "client_create");
  check(pqntor_client_serialize(st, ser, &sl), "client_serialize");
  json_t *o = json_object();
  set_hex(o, "state", ser, sl);
  set_hex(o, "onionskin", onionskin, olen);
  pqntor_client_free(st);
  free(id);
  free(B);
  out_json(o);
}

static void server_reply(void) {
  pqntor_suite suite = field_suite();
  size_t L = field_key_len(), id_len, b_len, os_len, rlen = PQNTOR_MAX_REPLY_LEN;
  uint8_t *id = field_hex("relay_id", &id_len), *b = field_hex("relay_b_secret", &b_len),
          *os = field_hex("onionskin", &os_len), reply[PQNTOR_MAX_REPLY_LEN];
  pqntor_relay *relay = NULL;
  need_32(b_len, "relay_b_secret");
  check(pqntor_relay_new(&relay, id, id_len, b), "relay_new");
  uint8_t *keys = malloc(L ? L : 1);
  check(pqntor_server_reply(relay, suite, os, os_len, reply, &rlen, keys, L, NULL), "server_reply");
  json_t *o = json_object();
  set_hex(o, "reply", reply, rlen);
  set_hex(o, "keys", keys, L);
  pqntor_relay_free(relay);
  free(keys), free(id), free(b), free(os);
  out_json(o);
}

static void client_finish(void) {
  size_t sl, rlen;
  uint8_t *ser = field_hex("state", &sl), *reply = field_hex("reply", &rlen);
  pqntor_client *st = NULL;
  int rc = pqntor_client_deserialize(&st, ser, sl);
  if (rc != PQNTOR_OK)
    usage_error("state: not a client state of this program");
  size_t L = pqntor_client_key_len(st);
  uint8_t *keys = malloc(L);
  rc = pqntor_client_finish(st, reply, rlen, keys, L, NULL);
  pqntor_client_free(st);
  check(rc, "client_finish");
  json_t *o = json_object();
  set_hex(o, "keys", keys, L);
  free(keys), free(ser), free(reply);
  out_json(o);
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*fn)(void);
  } cmds[] = {{"relay-keygen", relay_keygen},
              {"client-create", client_create},
              {"server-reply", server_reply},
              {"client-finish", client_finish}};
  static const char *fields[] = {"suite",          "key_len",   "relay_id", "relay_B",
                                 "relay_b_secret", "onionskin", "reply",    "state"};
  size_t c;
  for (c = 0; argc == 2 && c < sizeof cmds / sizeof cmds[0]; c++)
    if (strcmp(argv[1], cmds[c].name) == 0)
      break;
  if (argc != 2 || c == sizeof cmds / sizeof cmds[0]) {
    fprintf(stderr, "usage: pqntor-cli relay-keygen|client-create|server-reply|client-finish "
                    "< request.json\n");
    return 2;
  }
  json_error_t err;
  req = json_loadf(stdin, 0, &err);
  if (!json_is_object(req))
    usage_error(req == NULL ? err.text : "input is not a JSON object");
  const char *key;
  json_t *val;
  json_object_foreach(req, key, val) {
    size_t i;
    for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
      if (strcmp(key, fields[i]) == 0)
        break;
    if (i == sizeof fields / sizeof fields[0])
      usage_error("unknown field");
  }
  cmds[c].fn();
  json_decref(req);
  return 0;
}
