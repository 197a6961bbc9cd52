/* cbdriver: the generic C driver, one provider per process. Loads the plugin named by --plugin
 * (include/cryptobench/provider.h), then answers one JSON line per request line on stdin until
 * `bye` or end of input (protocol.md). --print-id prints the provider id the plugin serves and
 * exits: the orchestrator's way to learn a user plugin's id, and to check that it loads. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "ops_plugin.h"
#include "protocol.h"

static int usage(const char *argv0) {
  fprintf(stderr, "usage: %s --plugin <file.so> [--provider <provider-id>] [--print-id]\n", argv0);
  return 2;
}

int main(int argc, char **argv) {
  const char *provider = NULL, *plugin = NULL, *v;
  int print_id = 0;
  for (int i = 1; i < argc; i++) {
    if ((v = cb_option(argv, argc, &i, "--provider")) != NULL)
      provider = v;
    else if ((v = cb_option(argv, argc, &i, "--plugin")) != NULL)
      plugin = v;
    else if (strcmp(argv[i], "--print-id") == 0)
      print_id = 1;
    else
      return usage(argv[0]);
  }
  if (plugin == NULL)
    return usage(argv[0]);
  char err[600];
  if (plugin_load(plugin, err, sizeof err) != 0 || ops_init(err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (print_id) {
    printf("%s\n", plugin_id());
    return 0;
  }
  if (provider == NULL)
    provider = plugin_id();
  if (!ops_provider_accepts(provider)) {
    fprintf(stderr, "unknown provider: %s (plugin %s serves %s)\n", provider, plugin, plugin_id());
    return 2;
  }
  if (strncmp(provider, "plugin:", 7) == 0)
    cb_set_language(plugin_language());
  return cb_serve(provider);
}
