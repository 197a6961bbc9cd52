/* cbdriver-openssl.wasm: the C driver with its OpenSSL module linked in, for wasm32-wasi
 * (docs/wasm.md). The same protocol code as build/cbdriver (src/protocol.c: one JSON line per
 * request line on stdin), the same module (src/ops_openssl*.c), served through the same loader
 * (plugin_take, as the native tests do) since WASI has no dlopen. The engine that runs it says
 * what it is with --engine ("wasmtime 50.0.1", "node v20.20.2 (V8 11.3)", ...): hello's runtime and
 * notes name it, and what the code gets from the CPU (wasm32 without SIMD: OpenSSL's portable C
 * code, no AES-NI, no CLMUL, no SHA extensions).
 *
 *   <engine> cbdriver-openssl.wasm --provider wasm:openssl-wasmtime --engine "wasmtime 50.0.1"
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/opensslv.h>

#include "ops.h"
#include "ops_plugin.h"
#include "protocol.h"

#define WASM_FEATURES                                                                              \
  "CPU features: none (wasm32, no SIMD): OpenSSL " OPENSSL_VERSION_STR " built no-asm, its "       \
  "portable C code; no AES-NI, no PCLMULQDQ, no SHA extensions, no threads"

static const cb_provider *module; /* the OpenSSL module's own table */
static cb_provider table;         /* the same, with this build's id, notes and runtime */
static char runtime[400], engine_note[400];

/* The providers this binary serves: one per engine (cryptobench/drivers/registry.py). */
static int accepts(const char *id) {
  return strcmp(id, "wasm:openssl") == 0 || strncmp(id, "wasm:openssl-", 13) == 0 ||
         strcmp(id, "browser:openssl-wasm") == 0;
}

static size_t notes(const char *provider, const char **out, size_t max) {
  size_t n = 0;
  if (n < max)
    out[n++] = engine_note;
  if (n < max)
    out[n++] = WASM_FEATURES;
  return n + (module->notes != NULL ? module->notes(provider, out + n, max - n) : 0);
}

static int usage(const char *argv0) {
  fprintf(stderr, "usage: %s [--provider <provider-id>] [--engine <engine and version>]\n", argv0);
  return 2;
}

int main(int argc, char **argv) {
  const char *provider = "wasm:openssl", *engine = "an unnamed wasm engine", *v;
  for (int i = 1; i < argc; i++) {
    if ((v = cb_option(argv, argc, &i, "--provider")) != NULL)
      provider = v;
    else if ((v = cb_option(argv, argc, &i, "--engine")) != NULL)
      engine = v;
    else
      return usage(argc > 0 ? argv[0] : "cbdriver-openssl.wasm");
  }
  if (!accepts(provider)) {
    fprintf(stderr,
            "unknown provider: %s (this wasm driver serves wasm:openssl-<engine> and "
            "browser:openssl-wasm)\n",
            provider);
    return 2;
  }
  module = cryptobench_provider();
  table = *module;
  table.id = "wasm:openssl";
  table.language = "wasm";
  table.accepts = accepts;
  table.notes = notes;
  /* hello's runtime is at most 200 bytes (src/ops_plugin.c): the engine cut there, whole in the
   * note */
  snprintf(runtime, sizeof runtime, "%.165s; wasm32-wasi by clang %d.%d.%d", engine,
           __clang_major__, __clang_minor__, __clang_patchlevel__);
  table.runtime = runtime;
  snprintf(engine_note, sizeof engine_note, "engine: %.300s (the same .wasm on every engine)",
           engine);
  char err[600];
  if (plugin_take(&table, NULL, err, sizeof err) != 0 || ops_init(err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  cb_set_language("wasm");
  return cb_serve(provider);
}
