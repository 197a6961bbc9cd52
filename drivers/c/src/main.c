/* cbdriver: one provider per process. Parses --provider, then answers one JSON line per request
 * line on stdin until `bye` or end of input (protocol.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "protocol.h"
#include "timing.h"

static int usage(const char *argv0) {
  fprintf(stderr, "usage: %s --provider <provider-id>\n", argv0);
  return 2;
}

int main(int argc, char **argv) {
  const char *provider = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--provider") == 0 && i + 1 < argc)
      provider = argv[++i];
    else if (strncmp(argv[i], "--provider=", 11) == 0)
      provider = argv[i] + 11;
    else
      return usage(argv[0]);
  }
  if (provider == NULL)
    return usage(argv[0]);
  if (!ops_provider_accepts(provider)) {
    fprintf(stderr, "unknown provider: %s (this driver serves %s)\n", provider, ops_library_name());
    return 2;
  }
  char err[300];
  if (ops_init(err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", provider, err);
    return 1;
  }
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
  return 0;
}
