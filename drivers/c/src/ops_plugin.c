/* The generic driver's side of the plugin ABI: loads one plugin (dlopen), checks its table, and
 * answers the ops.h interface that protocol.c uses by calling into it. Nothing here knows a
 * library: the built-in modules and a user's plugin are loaded the same way. */
#define _GNU_SOURCE
#include "ops_plugin.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cb_provider *P;
static cb_regenerates_fn regenerates; /* optional (provider.h): big streamed decrypt/open */
static cb_untimed_fn untimed;
static char plugin_file[256]; /* the file name, for messages and notes */
static char own_id[128];      /* the id the plugin serves: its `id`, else plugin:<name> */
static const char *volatile phase = "loading";

/* `noop`, the loop's own per-call floor, belongs to the driver: a plugin that does not offer it
 * gets this one, whose single cell is a sentinel the forwarding functions answer themselves. */
static const cb_alg host_noop = {"noop", {"noop", NULL}, 0, 0, 0};
static size_t plugin_algs;   /* how many algorithms the plugin's catalogue has */
static int host_serves_noop; /* the plugin has no noop of its own */
static char noop_storage;
#define NOOP_CELL ((ops_cell *)&noop_storage)

/* A crash inside the plugin outside any request (loading, init) is reported in one line naming
 * the plugin; during a request the orchestrator records the driver's death as the cell's failure.
 */
static void on_crash(int sig) {
  char msg[512];
  int n = snprintf(msg, sizeof msg, "plugin %s: crashed (%s) in %s\n", plugin_file, strsignal(sig),
                   phase);
  if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0) {
    /* nothing more to do: the process is ending */
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static int name_ok(const char *s) {
  if (s == NULL || *s == '\0' || strlen(s) > 64)
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr("._-", *s) != NULL))
      return 0;
  return 1;
}

#define FAIL(...)                                                                                  \
  do {                                                                                             \
    snprintf(err, errlen, __VA_ARGS__);                                                            \
    return -1;                                                                                     \
  } while (0)

/* Which required members are NULL (the first one), or NULL when none is. */
static const char *missing_member(const cb_provider *t) {
  if (t->library_name == NULL)
    return "library_name";
  if (t->library_version == NULL)
    return "library_version";
  if (t->alg_at == NULL)
    return "alg_at";
  if (t->cell_new == NULL)
    return "cell_new";
  if (t->cell_run == NULL)
    return "cell_run";
  if (t->cell_output == NULL)
    return "cell_output";
  if (t->cell_error == NULL)
    return "cell_error";
  if (t->cell_free == NULL)
    return "cell_free";
  return NULL;
}

#define FAIL_NULL(...)                                                                             \
  do {                                                                                             \
    snprintf(err, errlen, __VA_ARGS__);                                                            \
    return NULL;                                                                                   \
  } while (0)

int plugin_load(const char *path, char *err, size_t errlen) {
  const char *slash = strrchr(path, '/');
  snprintf(plugin_file, sizeof plugin_file, "%s", slash != NULL ? slash + 1 : path);
  static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
    signal(crash_signals[i], on_crash);

  /* dlopen needs a slash to open a file rather than search the library path */
  char where[4096];
  snprintf(where, sizeof where, "%s%s", slash != NULL ? "" : "./", path);
  void *h = dlopen(where, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char *why = dlerror();
    FAIL("plugin %s: cannot load: %s", plugin_file, why != NULL ? why : "unknown dlopen error");
  }
  cb_provider_entry entry;
  /* the ISO C way of turning the object pointer dlsym returns into a function pointer */
  *(void **)(&entry) = dlsym(h, CB_PROVIDER_ENTRY);
  if (entry == NULL)
    FAIL("plugin %s: no %s symbol (not a cryptobench plugin, or built without CB_PROVIDER_EXPORT)",
         plugin_file, CB_PROVIDER_ENTRY);
  phase = CB_PROVIDER_ENTRY "()";
  const cb_provider *t = entry();
  if (t == NULL)
    FAIL("plugin %s: %s() returned NULL", plugin_file, CB_PROVIDER_ENTRY);
  if (t->abi_version != CB_PROVIDER_ABI_VERSION)
    FAIL("plugin %s: built against plugin ABI version %u, this driver speaks version %u (rebuild "
         "it against this include/cryptobench/provider.h)",
         plugin_file, t->abi_version, CB_PROVIDER_ABI_VERSION);
  if (t->struct_size != sizeof(cb_provider))
    FAIL("plugin %s: its cb_provider is %u bytes, ABI version %u's is %zu (built against a "
         "modified header?)",
         plugin_file, t->struct_size, CB_PROVIDER_ABI_VERSION, sizeof(cb_provider));
  if (!name_ok(t->name))
    FAIL("plugin %s: name must be 1 to 64 characters of a-z 0-9 . _ -", plugin_file);
  const char *m = missing_member(t);
  if (m != NULL)
    FAIL("plugin %s: required member %s of its cb_provider is NULL", plugin_file, m);
  if (t->id != NULL && (strchr(t->id, ':') == NULL || strlen(t->id) >= sizeof own_id))
    FAIL("plugin %s: id %.60s is not a provider id like lang:library", plugin_file, t->id);
  snprintf(own_id, sizeof own_id, t->id != NULL ? "%s" : "plugin:%s",
           t->id != NULL ? t->id : t->name);
  P = t;
  /* optional functions (provider.h, CB_REGENERATES_ENTRY): both, or neither */
  *(void **)(&regenerates) = dlsym(h, CB_REGENERATES_ENTRY);
  *(void **)(&untimed) = dlsym(h, CB_UNTIMED_ENTRY);
  if (regenerates == NULL || untimed == NULL)
    regenerates = NULL, untimed = NULL;
  return 0;
}

int ops_regenerates_ciphertext(void) { return regenerates != NULL && regenerates(); }

uint64_t ops_cell_take_untimed_ns(ops_cell *c) {
  return untimed != NULL && c != NOOP_CELL ? untimed((cb_cell *)c) : 0;
}

const char *plugin_id(void) { return own_id; }

const char *plugin_language(void) { return P->language != NULL ? P->language : "c"; }

void plugin_serving(void) { phase = "a request (the orchestrator records the cell's failure)"; }

int ops_init(char *err, size_t errlen) {
  if (P->init != NULL) {
    phase = "init";
    char why[300] = "";
    int rc = P->init(why, sizeof why);
    if (rc != 0)
      FAIL("plugin %s: init failed: %s", plugin_file, why[0] ? why : "(no message)");
  }
  phase = "its catalogue (alg_at)";
  host_serves_noop = 1;
  for (size_t i = 0; P->alg_at(i) != NULL; i++, plugin_algs++) {
    const cb_alg *a = P->alg_at(i);
    if (a->name == NULL || a->ops[0] == NULL)
      FAIL("plugin %s: catalogue entry %zu has no name or no operations", plugin_file, i);
    if (a->stream && P->cell_tap == NULL)
      FAIL("plugin %s: %s streams but the plugin has no cell_tap", plugin_file, a->name);
    if (a->pk && P->keypair == NULL)
      FAIL("plugin %s: %s is public-key but the plugin has no keypair", plugin_file, a->name);
    if (strcmp(a->name, "noop") == 0)
      host_serves_noop = 0;
  }
  phase = "start-up";
  return 0;
}

int ops_provider_accepts(const char *id) {
  return strcmp(id, own_id) == 0 || (P->accepts != NULL && P->accepts(id));
}

const char *ops_library_name(void) { return P->library_name(); }
const char *ops_library_version(void) { return P->library_version(); }

size_t ops_notes(const char *provider, const char **notes, size_t max) {
  static char origin[320];
  size_t n = 0;
  snprintf(origin, sizeof origin, "a plugin (%s, ABI version %u) served by the C driver",
           plugin_file, CB_PROVIDER_ABI_VERSION);
  if (max > 0)
    notes[n++] = origin;
  if (P->notes != NULL && max > n)
    n += P->notes(provider, notes + n, max - n);
  return n;
}

const ops_alg *ops_alg_at(size_t i) {
  if (i < plugin_algs)
    return P->alg_at(i);
  return host_serves_noop && i == plugin_algs ? &host_noop : NULL;
}

ops_cell *ops_cell_new(const ops_params *p, char *err, size_t errlen) {
  if (host_serves_noop && strcmp(p->alg, "noop") == 0) {
    if (strcmp(p->op, "noop") != 0)
      FAIL_NULL("not offered: noop %s", p->op);
    return NOOP_CELL;
  }
  return (ops_cell *)P->cell_new(p, err, errlen);
}
int ops_cell_run(ops_cell *c) { return c == NOOP_CELL ? 0 : P->cell_run((cb_cell *)c); }
int ops_cell_prepare(ops_cell *c, uint64_t n) {
  return c == NOOP_CELL || P->cell_prepare == NULL ? 0 : P->cell_prepare((cb_cell *)c, n);
}
const uint8_t *ops_cell_output(const ops_cell *c, size_t *len) {
  if (c == NOOP_CELL) {
    *len = 0;
    return (const uint8_t *)"";
  }
  return P->cell_output((const cb_cell *)c, len);
}
void ops_cell_tap(ops_cell *c, ops_tap *tap) {
  if (c != NOOP_CELL && P->cell_tap != NULL)
    P->cell_tap((cb_cell *)c, tap);
}
const char *ops_cell_error(const ops_cell *c) {
  return c == NOOP_CELL ? "" : P->cell_error((const cb_cell *)c);
}
void ops_cell_free(ops_cell *c) {
  if (c != NOOP_CELL && c != NULL)
    P->cell_free((cb_cell *)c);
}

int ops_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                char *err, size_t errlen) {
  if (P->keypair == NULL)
    FAIL("not offered: %s has no public-key algorithms", plugin_file);
  return P->keypair(alg, pub, pub_len, priv, priv_len, err, errlen);
}
