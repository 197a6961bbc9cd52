/* The generic driver's side of the plugin ABI: loads one plugin (dlopen), checks its table, and
 * answers the ops.h interface that protocol.c uses by calling into it. Nothing here knows a
 * library: the built-in modules and a user's plugin are loaded the same way. */
#define _GNU_SOURCE
#include "ops_plugin.h"

/* WASI has no dlopen (nor realpath): the wasm driver links its module in (wasm/main_wasm.c) */
#if !defined(__wasi__)
#include <dlfcn.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cb_provider table; /* the plugin's, as far as this driver knows it (plugin_take) */
static const cb_provider *P;
static char plugin_file[256]; /* the file name, for messages and notes */
static char own_id[128];      /* the id the plugin serves: its `id`, else plugin:<name> */
static const char *runtime;   /* its toolchain (cb_provider.runtime), else "unknown" */
static char lib_name[256], lib_version[256]; /* what library_name/version() said after init */
static const char *volatile phase = "loading";
static char plugin_dir[4096];  /* the plugin file's folder, absolute: a declared KAT path's base */
static char *declared_kat[64]; /* each declared algorithm's KAT file, resolved (NULL: none) */
static size_t declared_count;
static const cb_tls_iface *tls_table; /* the OpenSSL module's private TLS entry (tls_iface.h) */
static plugin_memcmp_fn compare_fn;   /* the library's constant-time compare (plugin_compare) */
static const char *compare_name;

/* `noop`, the loop's own per-call floor, belongs to the driver: a plugin that does not offer it
 * gets this one, whose single cell is a sentinel the forwarding functions answer themselves. */
static const cb_alg host_noop = {.name = "noop", .ops = {"noop", NULL}};
static size_t plugin_algs;   /* how many algorithms the plugin's catalogue has */
static int host_serves_noop; /* the plugin has no noop of its own */
static char noop_storage;
#define NOOP_CELL ((ops_cell *)&noop_storage)

#if !defined(__wasi__)
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
#endif

/* 1 to max characters of a-z 0-9 and `extra`: names that go into ids, reports and file names */
static int word_ok(const char *s, size_t max, const char *extra) {
  if (s == NULL || *s == '\0' || strlen(s) > max)
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(extra, *s) != NULL))
      return 0;
  return 1;
}

static int name_ok(const char *s) { return word_ok(s, 64, "._-"); }

/* a provider id: lang:library, printable ASCII without spaces */
static int id_ok(const char *s) {
  if (strchr(s, ':') == NULL || *s == ':')
    return 0;
  for (; *s; s++)
    if (*s <= ' ' || *s > '~')
      return 0;
  return 1;
}

/* Free text a terminal prints (library name and version, runtime): 1 to max bytes of UTF-8 with
 * no control character, C1 included (U+009B is a one-character CSI), so no escape sequence gets
 * through; well-formed because the protocol's JSON carries nothing else. */
static int text_ok(const char *s, size_t max) {
  if (s == NULL || *s == '\0' || strlen(s) > max)
    return 0;
  for (const unsigned char *u = (const unsigned char *)s; *u;) {
    unsigned cp;
    size_t more;
    if (*u < 0x80)
      cp = *u, more = 0;
    else if ((*u & 0xe0) == 0xc0)
      cp = *u & 0x1f, more = 1;
    else if ((*u & 0xf0) == 0xe0)
      cp = *u & 0x0f, more = 2;
    else if ((*u & 0xf8) == 0xf0)
      cp = *u & 0x07, more = 3;
    else
      return 0;
    for (size_t k = 1; k <= more; k++) {
      if ((u[k] & 0xc0) != 0x80)
        return 0;
      cp = cp << 6 | (u[k] & 0x3f);
    }
    static const unsigned least[] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[more] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return 0; /* overlong, out of range, a surrogate */
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
      return 0;
    u += more + 1;
  }
  return 1;
}

/* `s` quoted for a message, every byte outside printable ASCII escaped (\n, \", \xNN), at most
 * about 60 characters of it */
static const char *quoted(const char *s, char *out, size_t cap) {
  size_t n = 0;
  out[n++] = '"';
  for (const unsigned char *u = (const unsigned char *)s; *u && n + 8 < cap; u++) {
    if (n > 60) {
      n += (size_t)snprintf(out + n, cap - n, "...");
      break;
    }
    if (*u == '\n')
      n += (size_t)snprintf(out + n, cap - n, "\\n");
    else if (*u == '"' || *u == '\\')
      n += (size_t)snprintf(out + n, cap - n, "\\%c", *u);
    else if (*u < 0x20 || *u >= 0x7f)
      n += (size_t)snprintf(out + n, cap - n, "\\x%02x", *u);
    else
      out[n++] = (char)*u;
  }
  snprintf(out + n, cap - n, "\"");
  return out;
}

#define FAIL(...)                                                                                  \
  do {                                                                                             \
    snprintf(err, errlen, __VA_ARGS__);                                                            \
    return -1;                                                                                     \
  } while (0)

/* Which required members are NULL (the first one), or NULL when none is. */
static const char *missing_member(const cb_provider *t) {
#define CB_REQUIRED(m)                                                                             \
  { #m, t->m == NULL }
  const struct {
    const char *name;
    int null;
  } required[] = {CB_REQUIRED(library_name), CB_REQUIRED(library_version), CB_REQUIRED(alg_at),
                  CB_REQUIRED(cell_new),     CB_REQUIRED(cell_run),        CB_REQUIRED(cell_output),
                  CB_REQUIRED(cell_error),   CB_REQUIRED(cell_free)};
#undef CB_REQUIRED
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (required[i].null)
      return required[i].name;
  return NULL;
}

#define FAIL_NULL(...)                                                                             \
  do {                                                                                             \
    snprintf(err, errlen, __VA_ARGS__);                                                            \
    return NULL;                                                                                   \
  } while (0)

#if !defined(__wasi__)
int plugin_load(const char *path, char *err, size_t errlen) {
  const char *slash = strrchr(path, '/');
  snprintf(plugin_file, sizeof plugin_file, "%s", slash != NULL ? slash + 1 : path);
  static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
    signal(crash_signals[i], on_crash);

  /* dlopen needs a slash to open a file rather than search the library path */
  char where[4096];
  snprintf(where, sizeof where, "%s%s", slash != NULL ? "" : "./", path);
  char *real = realpath(where, NULL);
  if (real != NULL) {
    char *end = strrchr(real, '/');
    if (end != NULL)
      *end = '\0';
    snprintf(plugin_dir, sizeof plugin_dir, "%s", real[0] ? real : "/");
    free(real);
  }
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
  const void *raw = entry();
  if (raw == NULL)
    FAIL("plugin %s: %s() returned NULL", plugin_file, CB_PROVIDER_ENTRY);
  if (plugin_take(raw, h, err, errlen) != 0)
    return -1;
  /* the C driver's own OpenSSL module has TLS cells (tls_iface.h): not a plugin ABI member */
  cb_tls_entry tls_entry;
  *(void **)(&tls_entry) = dlsym(h, CB_TLS_ENTRY);
  if (tls_entry != NULL)
    plugin_set_tls(tls_entry());
  static const char *const compare_names[] = {"CRYPTO_memcmp", "sodium_memcmp",
                                              "botan_constant_time_compare", "mbedtls_ct_memcmp"};
  for (size_t i = 0; i < sizeof compare_names / sizeof compare_names[0] && compare_fn == NULL; i++)
    if ((*(void **)(&compare_fn) = dlsym(h, compare_names[i])) != NULL)
      compare_name = compare_names[i];
  return 0;
}
#endif

plugin_memcmp_fn plugin_compare(const char **name) {
  *name = compare_name;
  return compare_fn;
}

void plugin_set_tls(const cb_tls_iface *t) {
  tls_table = t != NULL && t->version == CB_TLS_IFACE_VERSION ? t : NULL;
}

const cb_tls_iface *plugin_tls(void) { return tls_table; }

/* Both versions begin with abi_version and struct_size. Version 1 goes through the shim
 * (ops_plugin_v1.c); version 2's table is copied as far as both sides know it, so a longer table
 * (a newer plugin's members) loads and a member this driver knows but the plugin's table lacks
 * stays NULL. */
int plugin_take(const void *raw, void *handle, char *err, size_t errlen) {
  const uint32_t *head = raw;
  if (plugin_file[0] == '\0') /* a module linked in (the native tests), not a file */
    snprintf(plugin_file, sizeof plugin_file, "linked-in");
  if (head[0] == 1) {
    if (plugin_v1_adapt(handle, raw, plugin_file, &table, err, errlen) != 0)
      return -1;
  } else if (head[0] == CB_PROVIDER_ABI_VERSION) {
    if (head[1] < CB_PROVIDER_SIZE_V2)
      FAIL("plugin %s: its cb_provider is %u bytes, ABI version 2's is at least %zu (built "
           "against a modified header?)",
           plugin_file, head[1], (size_t)CB_PROVIDER_SIZE_V2);
    memcpy(&table, raw, head[1] < sizeof table ? head[1] : sizeof table);
  } else {
    FAIL("plugin %s: built against plugin ABI version %u, this driver speaks versions 1 and %u "
         "(rebuild it against this include/cryptobench/provider.h)",
         plugin_file, head[0], CB_PROVIDER_ABI_VERSION);
  }
  const cb_provider *t = &table;
  if (!name_ok(t->name))
    FAIL("plugin %s: name must be 1 to 64 characters of a-z 0-9 . _ -", plugin_file);
  const char *m = missing_member(t);
  if (m != NULL)
    FAIL("plugin %s: required member %s of its cb_provider is NULL", plugin_file, m);
  char q[100];
  if (t->id != NULL && (!id_ok(t->id) || strlen(t->id) >= sizeof own_id))
    FAIL("plugin %s: id %s is not a provider id like lang:library (printable ASCII, no spaces)",
         plugin_file, quoted(t->id, q, sizeof q));
  if (t->language != NULL && !word_ok(t->language, 15, "+#._-"))
    FAIL("plugin %s: language %s must be 1 to 15 characters of a-z 0-9 + # . _ -", plugin_file,
         quoted(t->language, q, sizeof q));
  if (t->runtime != NULL && !text_ok(t->runtime, 200))
    FAIL("plugin %s: runtime %s is not 1 to 200 bytes of printable UTF-8", plugin_file,
         quoted(t->runtime, q, sizeof q));
  if (t->keypair != NULL && t->free_buf == NULL)
    FAIL("plugin %s: it has keypair but no free_buf (keypair's buffers are the plugin's to free)",
         plugin_file);
  runtime = t->runtime != NULL ? t->runtime : "unknown";
  snprintf(own_id, sizeof own_id, t->id != NULL ? "%s" : "plugin:%s",
           t->id != NULL ? t->id : t->name);
  /* big streamed decrypt/open (provider.h): both, or neither */
  if (t->regenerates_ciphertext == NULL || t->cell_untimed_ns == NULL)
    table.regenerates_ciphertext = NULL, table.cell_untimed_ns = NULL;
  P = t;
  return 0;
}

int ops_regenerates_ciphertext(void) {
  return P->regenerates_ciphertext != NULL && P->regenerates_ciphertext();
}

uint64_t ops_cell_take_untimed_ns(ops_cell *c) {
  return P->cell_untimed_ns != NULL && c != NOOP_CELL ? P->cell_untimed_ns((cb_cell *)c) : 0;
}

const char *plugin_id(void) { return own_id; }

const char *plugin_language(void) { return P->language != NULL ? P->language : "c"; }

const char *plugin_runtime(void) { return runtime; }

void plugin_serving(void) { phase = "a request (the orchestrator records the cell's failure)"; }

static int declares_ok(char *err, size_t errlen);

int ops_init(char *err, size_t errlen) {
  if (P->init != NULL) {
    phase = "init";
    char why[300] = "";
    if (P->init(why, sizeof why) != CB_OK)
      FAIL("plugin %s: init failed: %s", plugin_file, why[0] ? why : "(no message)");
  }
  /* read once, checked here: a NULL or a control character would otherwise surface in hello as
   * "out of memory" or reach a terminal */
  const char *(*lib_fn[2])(void) = {P->library_name, P->library_version};
  char *lib_out[2] = {lib_name, lib_version};
  static const char *const lib_what[2] = {"library_name", "library_version"};
  char q[100];
  for (size_t k = 0; k < 2; k++) {
    phase = lib_what[k];
    const char *v = lib_fn[k]();
    if (v == NULL)
      FAIL("plugin %s: %s() returned NULL", plugin_file, lib_what[k]);
    if (!text_ok(v, sizeof lib_name - 1))
      FAIL("plugin %s: %s() returned %s, not 1 to %zu bytes of printable UTF-8", plugin_file,
           lib_what[k], quoted(v, q, sizeof q), sizeof lib_name - 1);
    snprintf(lib_out[k], sizeof lib_name, "%s", v);
  }
  phase = "its catalogue (alg_at)";
  host_serves_noop = 1;
  for (size_t i = 0; P->alg_at(i) != NULL; i++, plugin_algs++) {
    const cb_alg *a = P->alg_at(i);
    if (a->name == NULL || a->ops[0] == NULL)
      FAIL("plugin %s: catalogue entry %zu has no name or no operations", plugin_file, i);
    /* the catalogue's names (cryptobench list algorithms): anything else would be an algorithm
     * no request can name, and a name with a newline or an escape breaks every line it is in */
    if (!word_ok(a->name, 64, "-"))
      FAIL("plugin %s: catalogue entry %zu: algorithm name %s is not 1 to 64 of a-z 0-9 -",
           plugin_file, i, quoted(a->name, q, sizeof q));
    if (a->ops[CB_MAX_OPS] != NULL)
      FAIL("plugin %s: %s: ops has more than %d operations or no NULL at its end", plugin_file,
           a->name, CB_MAX_OPS);
    for (size_t k = 0; a->ops[k] != NULL; k++)
      if (!word_ok(a->ops[k], 64, "-"))
        FAIL("plugin %s: %s: operation name %s is not 1 to 64 of a-z 0-9 -", plugin_file, a->name,
             quoted(a->ops[k], q, sizeof q));
    if (a->stream && P->cell_tap == NULL)
      FAIL("plugin %s: %s streams but the plugin has no cell_tap", plugin_file, a->name);
    if (a->pk && P->keypair == NULL)
      FAIL("plugin %s: %s is public-key but the plugin has no keypair", plugin_file, a->name);
    if (strcmp(a->name, "noop") == 0)
      host_serves_noop = 0;
  }
  return declares_ok(err, errlen);
}

/* The plugin's declarations (cb_declare, declare_at): their names and words checked, as the
 * catalogue's are, and each KAT path resolved against the plugin's folder. 0, or -1. */
static int declares_ok(char *err, size_t errlen) {
  phase = "its declarations (declare_at)";
  char q[100];
  const cb_declare *d;
  for (size_t i = 0; P->declare_at != NULL && (d = P->declare_at(i)) != NULL; i++) {
    if (i >= sizeof declared_kat / sizeof declared_kat[0])
      FAIL("plugin %s: declares more than %zu algorithms", plugin_file,
           sizeof declared_kat / sizeof declared_kat[0]);
    if (!word_ok(d->name, 64, "-"))
      FAIL("plugin %s: declaration %zu: algorithm name %s is not 1 to 64 of a-z 0-9 -", plugin_file,
           i, quoted(d->name != NULL ? d->name : "(null)", q, sizeof q));
    if (!word_ok(d->kind, 16, ""))
      FAIL("plugin %s: declaration of %s: kind %s is not a word of a-z", plugin_file, d->name,
           quoted(d->kind != NULL ? d->kind : "(null)", q, sizeof q));
    if (d->ops[CB_MAX_OPS] != NULL)
      FAIL("plugin %s: declaration of %s: ops has no NULL at its end", plugin_file, d->name);
    for (size_t k = 0; d->ops[k] != NULL; k++)
      if (!word_ok(d->ops[k], 64, "-"))
        FAIL("plugin %s: declaration of %s: operation name %s is not 1 to 64 of a-z 0-9 -",
             plugin_file, d->name, quoted(d->ops[k], q, sizeof q));
    if (d->standard != NULL && !text_ok(d->standard, 200))
      FAIL("plugin %s: declaration of %s: standard %s is not 1 to 200 bytes of printable UTF-8",
           plugin_file, d->name, quoted(d->standard, q, sizeof q));
    if (d->kat != NULL) {
      if (!text_ok(d->kat, 1024))
        FAIL("plugin %s: declaration of %s: kat %s is not 1 to 1024 bytes of printable UTF-8",
             plugin_file, d->name, quoted(d->kat, q, sizeof q));
      size_t n = strlen(plugin_dir) + strlen(d->kat) + 2;
      declared_kat[i] = malloc(n);
      if (declared_kat[i] == NULL)
        FAIL("plugin %s: out of memory", plugin_file);
      if (d->kat[0] == '/' || plugin_dir[0] == '\0')
        snprintf(declared_kat[i], n, "%s", d->kat);
      else
        snprintf(declared_kat[i], n, "%s/%s", plugin_dir, d->kat);
    }
    declared_count = i + 1;
  }
  phase = "start-up";
  return 0;
}

size_t ops_declare_count(void) { return declared_count; }

const cb_declare *ops_declare_at(size_t i, const char **kat) {
  if (i >= declared_count)
    return NULL;
  *kat = declared_kat[i];
  return P->declare_at(i);
}

int ops_provider_accepts(const char *id) {
  return strcmp(id, own_id) == 0 || (P->accepts != NULL && P->accepts(id));
}

const char *ops_library_name(void) { return lib_name; }
const char *ops_library_version(void) { return lib_version; }

size_t ops_notes(const char *provider, const char **notes, size_t max) {
  static char origin[320];
  size_t n = 0;
  snprintf(origin, sizeof origin, "a plugin (%s, ABI version %u) served by the C driver",
           plugin_file, P->abi_version);
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

/* The lengths the catalogue declares (cb_alg.key_len ...), checked before the plugin sees the
 * request: 0, or -1 with the message. */
static int lengths_ok(const cb_alg *a, const ops_params *p, char *err, size_t errlen) {
  int cipher = strcmp(p->op, "encrypt") == 0 || strcmp(p->op, "decrypt") == 0;
  if (a->key_len != 0 && p->key_len != a->key_len)
    FAIL("%s needs a %u-byte key, got %zu", p->alg, a->key_len, p->key_len);
  if (a->iv_len != 0 && p->iv_len != a->iv_len)
    FAIL("%s needs a %u-byte IV, got %zu", p->alg, a->iv_len, p->iv_len);
  if (a->block != 0 && cipher && p->msg_len % a->block != 0)
    FAIL("%s: size %zu is not a multiple of %u", p->alg, p->msg_len, a->block);
  /* a regenerating open (period > 0) is given the plaintext pattern, no tag */
  if (a->tag_len != 0 && strcmp(p->op, "open") == 0 && p->period == 0 && p->msg_len < a->tag_len)
    FAIL("%s open: %zu bytes is shorter than the %u-byte tag", p->alg, p->msg_len, a->tag_len);
  return 0;
}

ops_cell *ops_cell_new(const ops_params *p, char *err, size_t errlen) {
  if (host_serves_noop && strcmp(p->alg, "noop") == 0) {
    if (strcmp(p->op, "noop") != 0)
      FAIL_NULL("not offered: noop %s", p->op);
    return NOOP_CELL;
  }
  const cb_alg *a = ops_alg_find(p->alg);
  if (a != NULL && lengths_ok(a, p, err, errlen) != 0)
    return NULL;
  cb_cell *c = NULL;
  char why[300] = "";
  /* the protocol's words for each status (docs/protocol.md): the orchestrator reads them */
  static const char *const said[] = {[CB_ERROR] = "",
                                     [CB_NOT_OFFERED] = "not offered: ",
                                     [CB_NOT_OFFERED_AT_SIZE] = "not offered at this size: ",
                                     [CB_UNSUPPORTED] = OPS_UNSUPPORTED};
  cb_status st = P->cell_new(p, &c, why, sizeof why);
  if (st == CB_OK && c != NULL)
    return (ops_cell *)c;
  if (st == CB_OK) /* CB_OK without a cell is the plugin's bug */
    FAIL_NULL("plugin %s: cell_new said CB_OK but gave no cell", plugin_file);
  if (st < CB_ERROR || st > CB_UNSUPPORTED)
    FAIL_NULL("plugin %s: cell_new returned status %d (not a cb_status): %s", plugin_file, (int)st,
              why);
  FAIL_NULL("%s%s", said[st], why[0] ? why : "(no message)");
}
int ops_cell_run(ops_cell *c) { return c == NOOP_CELL ? 0 : P->cell_run((cb_cell *)c); }
int ops_cell_prepare(ops_cell *c, uint64_t n) {
  if (c == NOOP_CELL || P->cell_prepare == NULL)
    return 0;
  int r = P->cell_prepare((cb_cell *)c, n);
  /* a call, not a tail jump: the instruction counter (cryptobench/icount) leaves out what this
   * call costs as a whole, and valgrind ends a function's cost at a jump out of it */
  __asm__ volatile("" ::: "memory");
  return r;
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

/* The plugin's buffers are copied into the driver's own and given back at once through free_buf:
 * the driver never frees what another allocator made (a Rust or C++ plugin's). */
static int keep_copy(uint8_t *buf, size_t len, uint8_t **out) {
  *out = malloc(len > 0 ? len : 1);
  if (*out != NULL && len > 0)
    memcpy(*out, buf, len);
  if (buf != NULL)
    P->free_buf(buf, len);
  return *out != NULL ? 0 : -1;
}

int ops_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
                char *err, size_t errlen) {
  if (P->keypair == NULL)
    FAIL("not offered: %s has no public-key algorithms", plugin_file);
  uint8_t *their_pub = NULL, *their_priv = NULL;
  char why[300] = "";
  cb_status st = P->keypair(alg, &their_pub, pub_len, &their_priv, priv_len, why, sizeof why);
  if (st != CB_OK) {
    if (their_pub != NULL)
      P->free_buf(their_pub, *pub_len);
    if (their_priv != NULL)
      P->free_buf(their_priv, *priv_len);
    FAIL("%s%s", st == CB_NOT_OFFERED ? "not offered: " : "", why);
  }
  int a = keep_copy(their_pub, *pub_len, pub), b = keep_copy(their_priv, *priv_len, priv);
  if (a != 0 || b != 0) {
    free(*pub), free(*priv);
    *pub = *priv = NULL;
    FAIL("out of memory");
  }
  return 0;
}

void ops_fini(void) {
  if (P != NULL && P->fini != NULL)
    P->fini();
  for (size_t i = 0; i < declared_count; i++)
    free(declared_kat[i]);
}
