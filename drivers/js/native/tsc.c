/* The time-stamp counter for the JavaScript driver (src/tsc_node.js loads this Node-API addon):
 * JavaScript has no way to execute rdtsc itself. One function, rdtsc(), returning the ticks since
 * the addon was loaded as a Number: exact below 2^53 ticks (about 40 days at 2.6 GHz), and a Number
 * costs no allocation where a BigInt would. x86-64 only (the Makefile builds nothing elsewhere);
 * built with gcc against Node's own headers (/usr/include/node), no node-gyp. */
#include <node_api.h>
#include <stdint.h>
#include <x86intrin.h>

static uint64_t base;

static napi_value rdtsc(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value r;
  if (napi_create_double(env, (double)(__rdtsc() - base), &r) != napi_ok)
    return NULL;
  return r;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  base = __rdtsc();
  if (napi_create_function(env, "rdtsc", NAPI_AUTO_LENGTH, rdtsc, NULL, &fn) != napi_ok)
    return NULL;
  if (napi_set_named_property(env, exports, "rdtsc", fn) != napi_ok)
    return NULL;
  return exports;
}
