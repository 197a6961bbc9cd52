/* The `leak` request (protocol version 5, docs/protocol.md § leak): single operations timed one
 * by one, for the orchestrator's dudect-style test of whether an operation's time depends on its
 * secret input (cryptobench/leak/). */
#ifndef CB_LEAK_H
#define CB_LEAK_H

#include <jansson.h>

/* {"cmd": "leak", "alg", "op", "inputs": [case, ...], "order": [input index, ...]} ->
 * {"ok": true, "counter", "times": [...], "outcomes": [...], "sink"} or an error response. */
json_t *cb_handle_leak(json_t *req);

#endif
