/* The catalogue lookups, the same for every library module: each module answers ops_alg_at()
 * over its own array, filled at ops_init(). */
#include <string.h>

#include "ops.h"

size_t ops_alg_count(void) {
  size_t n = 0;
  while (ops_alg_at(n) != NULL)
    n++;
  return n;
}

size_t ops_alg_index(const char *name) {
  const ops_alg *a;
  for (size_t i = 0; (a = ops_alg_at(i)) != NULL; i++)
    if (strcmp(a->name, name) == 0)
      return i;
  return (size_t)-1;
}

const ops_alg *ops_alg_find(const char *name) {
  size_t i = ops_alg_index(name);
  return i == (size_t)-1 ? NULL : ops_alg_at(i);
}
