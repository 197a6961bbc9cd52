/* What the TLS 1.3 cells and interop commands (protocol.md, version 7) of the C driver family
 * share, whatever the library: the cell names, the PKI in cb_params.ext, the per-side clock of
 * `client` / `server`, the in-memory pipes, the handshake pump of an in-memory handshake, the
 * JSON of a report and of a handshake object, and the loopback server thread and client loop of
 * tls-serve / tls-connect. Compiled into the OpenSSL module (drivers/c) and into the plugins
 * with TLS cells (plugins/c: wolfssl, gnutls); a library file supplies only its library's calls
 * (tls_kit_lib for the cells, a per-connection function for the interop commands). */
#ifndef CB_TLS_KIT_H
#define CB_TLS_KIT_H

#include <stddef.h>
#include <stdint.h>

#include <cryptobench/provider.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLS_KIT_SUITE_CODE 0x1301 /* TLS_AES_128_GCM_SHA256, the one suite */
#define TLS_KIT_LABEL "EXPORTER-cryptobench"
#define TLS_KIT_CONTEXT "cryptobench tls13"
#define TLS_KIT_HS_JSON 256 /* one handshake object */

/* ---- names: tls13-<group>-<auth>[-resume] ---- */

typedef struct tls_kit_group {
  const char *name; /* the protocol's: x25519, ... */
  int code;         /* IANA code point */
} tls_kit_group;
typedef struct tls_kit_auth {
  const char *name; /* ecdsa-p256, ... */
  int lo, hi;       /* its signature schemes' code points (RSA: three) */
} tls_kit_auth;
extern const tls_kit_group tls_kit_groups[];
extern const tls_kit_auth tls_kit_auths[];
extern const size_t tls_kit_ngroups, tls_kit_nauths;

typedef struct tls_kit_cfg {
  size_t group, auth; /* indexes into tls_kit_groups / tls_kit_auths */
  int group_code;
  int resume;
} tls_kit_cfg;

/* cfg of alg; 0, or -1 with "not offered: algorithm <alg>" */
int tls_kit_cfg_of(const char *alg, tls_kit_cfg *cfg, char *err, size_t errlen);
/* "tls13-<group>-<auth>[-resume]" into buf */
void tls_kit_name(char *buf, size_t cap, size_t group, size_t auth, int resume);

/* The catalogue entries of the cells a library has: for each group g and auth a with
 * have(arg, g, a), the full and the -resume cell (ops handshake, client, server; fresh). Names
 * live in the static storage of the caller's cb_alg array's companion `names`. Returns how many. */
size_t tls_kit_catalogue(cb_alg *out, char (*names)[64], size_t max,
                         int (*have)(void *arg, size_t group, size_t auth), void *arg);

/* ---- a bench cell's inputs ---- */

/* the PKI of a tls13-* bench request (cb_params.ext, tls_iface.h): chain, key, ca, server_name
 * as text; 0, or -1 with "tls: no PKI in the request" */
typedef struct tls_kit_pki {
  char chain[1024], key[1024], ca[1024], server_name[1024];
} tls_kit_pki;
int tls_kit_pki_of(const cb_params *p, tls_kit_pki *pki, char *err, size_t errlen);

/* ---- the per-side clock (protocol.md: `client` / `server` subtract the other side) ---- */

enum tls_kit_side { TLS_SIDE_BOTH, TLS_SIDE_CLIENT, TLS_SIDE_SERVER, TLS_SIDE_TRANSPORT };
/* the side an op times; TLS_SIDE_TRANSPORT for an op that is not a TLS op */
enum tls_kit_side tls_kit_side_of(const char *op);

typedef struct tls_kit_clock {
  enum tls_kit_side side; /* what is timed: both, the client's or the server's calls */
  uint64_t mark;          /* the last lap */
  uint64_t untimed;       /* what the timed side does not own, so far */
} tls_kit_clock;
uint64_t tls_kit_now_ns(void);
void tls_kit_clock_start(tls_kit_clock *k, enum tls_kit_side side);
/* the time since the last lap belongs to `owner`: untimed unless it is the timed side */
static inline void tls_kit_lap(tls_kit_clock *k, enum tls_kit_side owner) {
  if (k->side != TLS_SIDE_BOTH) {
    uint64_t t = tls_kit_now_ns();
    if (owner != k->side)
      k->untimed += t - k->mark;
    k->mark = t;
  }
}

/* ---- in-memory transport: one direction of bytes (a library's I/O callbacks read and write it)
 */

typedef struct tls_kit_pipe {
  uint8_t *buf;
  size_t len, cap, off; /* unread bytes are buf[off .. len) */
  size_t written;       /* all bytes ever written */
} tls_kit_pipe;
/* 0, or -1 out of memory */
int tls_kit_pipe_write(tls_kit_pipe *p, const void *data, size_t n);
/* up to n bytes; 0 when empty (the caller's "would block") */
size_t tls_kit_pipe_read(tls_kit_pipe *p, void *data, size_t n);
static inline size_t tls_kit_pipe_pending(const tls_kit_pipe *p) { return p->len - p->off; }
void tls_kit_pipe_reset(tls_kit_pipe *p); /* empty, counter 0, buffer kept */
void tls_kit_pipe_free(tls_kit_pipe *p);

/* ---- what a handshake showed ---- */

typedef struct tls_kit_hs {
  int group, cipher, sigalg; /* code points; -1: the library does not say */
  int resumed, round_trips;
  size_t flights[4]; /* client_hello, server_flight, client_finished, tickets */
} tls_kit_hs;
/* the bench response's "tls" object */
void tls_kit_report_json(char *buf, size_t cap, const tls_kit_hs *h);
/* one handshake object of tls-result / tls-connect (sigalg: -1 for null) */
void tls_kit_hs_json(char *buf, size_t cap, int group, int cipher, int sigalg, int resumed,
                     const uint8_t exporter[32]);

/* ---- the in-memory handshake of a bench cell ---- */

/* A library's side of one in-memory handshake between its client and its server; lib is the
 * library's cell state. Each returns 0, or -1 with the library's words in err. */
typedef struct tls_kit_lib {
  /* the two pipes' fresh state; client, then server connection objects (use_ticket: -resume
   * and not the untimed handshake that makes the ticket) */
  int (*transport)(void *lib, char *err, size_t errlen);
  int (*client_new)(void *lib, int use_ticket, char *err, size_t errlen);
  int (*server_new)(void *lib, char *err, size_t errlen);
  /* one handshake call of a side: 1 done, 0 waits for the peer, -1 failed */
  int (*step)(void *lib, int server, char *err, size_t errlen);
  /* -resume: the client reads the server's ticket (nothing else comes) */
  int (*read_ticket)(void *lib, char *err, size_t errlen);
  /* bytes the side wrote so far, and bytes still unread in both directions */
  size_t (*written)(void *lib, int server);
  size_t (*pending)(void *lib);
  /* off the clock: the server's view into h (group, cipher, sigalg, resumed), the client's
   * group and resumption */
  void (*inspect)(void *lib, tls_kit_hs *h, int *client_group, int *client_resumed);
  /* off the clock: a side's 32-byte exporter (TLS_KIT_LABEL, TLS_KIT_CONTEXT); 1, or 0 when the
   * library fails (the kit says "tls: exporter failed") */
  int (*exporter)(void *lib, int server, uint8_t out[32]);
  /* keep the client's session as the cell's ticket (after the untimed full handshake) */
  int (*keep_ticket)(void *lib, char *err, size_t errlen);
  /* free both connections; clean: the handshake succeeded */
  void (*end)(void *lib, int clean);
} tls_kit_lib;

#define TLS_KIT_MAX_STEPS 8 /* handshake steps per side before the pump gives up */

/* One handshake (protocol.md's `handshake`), timed as k says (k->untimed: the other side's time,
 * and for every side what follows the handshake: inspection, checks, freeing). make_ticket: the
 * untimed full handshake of a -resume cell, which keeps the ticket (no resumption check). The
 * checks after it: equal exporters, the cell's group on both sides, the suite, resumption as the
 * cell says, nothing unread. Returns the client's first exporter byte, or -1 with the message in
 * err. */
int tls_kit_handshake(const tls_kit_lib *L, void *lib, const tls_kit_cfg *cfg, tls_kit_clock *k,
                      int make_ticket, tls_kit_hs *h, uint8_t exporter[32], char *err,
                      size_t errlen);

/* ---- interop (tls-serve / tls-result / tls-connect) over loopback TCP ---- */

/* One connection on the connected socket fd (blocking, timeouts set): the handshake, the 4-byte
 * ping / pong, the handshake object into obj; 0, or -1 with "tls: ..." in err. */
typedef int (*tls_kit_conn_fn)(void *ctx, int fd, char *obj, size_t cap, char *err, size_t errlen);
/* tls-serve: listens on 127.0.0.1 port 0 and serves `connections` in a thread with serve_one;
 * ctx is the library's server state, freed with ctx_free when the serving ends (a new tls-serve
 * ends a serving still going). 0 with *port, or -1 (ctx freed). */
int tls_kit_serve(tls_kit_conn_fn serve_one, void *ctx, void (*ctx_free)(void *),
                  uint32_t connections, uint32_t timeout_ms, int *port, char *err, size_t errlen);
/* tls-result: waits for the serving; the JSON array (free()), or NULL with err */
char *tls_kit_result(char *err, size_t errlen);
/* tls-connect: `connections` connections to 127.0.0.1:port, one after the other, each with
 * connect_one (ctx: the library's client state, which keeps a -resume ticket between them). */
char *tls_kit_connect(tls_kit_conn_fn connect_one, void *ctx, int port, uint32_t connections,
                      uint32_t timeout_ms, char *err, size_t errlen);
/* A library's read on a connection: bytes read (> 0), or -1 with the library's words in err. */
typedef int (*tls_kit_read_fn)(void *s, void *buf, size_t n, char *err, size_t errlen);
/* exactly 4 bytes through read, compared with want: 0 or -1 with err */
int tls_kit_read4(tls_kit_read_fn read, void *s, const char *want, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
