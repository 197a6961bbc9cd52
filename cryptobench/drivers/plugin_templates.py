"""What `plugin new` writes for a Python, C or C++ plugin: str.format templates ({name}, {cls}, ...)."""

SKELETON = '''"""python:{name} — a cryptobench plugin (docs/plugins.md, plugin interface version 2).

Check it:   cryptobench plugin check {name}_provider.py
Measure it: cryptobench run --plugin {name}_provider.py --alg sha256
"""

from __future__ import annotations

import hashlib  # TODO: import your library instead

from cbdriver.plugin import Cell, CellSpec, Provider, case_bytes, make_cell


class {cls}(Provider):
    id = "python:{name}"
    library = "{name}"  # TODO: your library's name
    # TODO: every algorithm your library offers, with its operations (`cryptobench list algorithms`)
    offers = {{"sha256": ("hash",)}}
    # An algorithm the catalogue lacks? Declare it (docs/plugins.md, "Declaring an algorithm of your
    # own"), offer it above, and give its known answers (at least 20 cases) in a file beside this one:
    # declares = [
    #     {{"name": "my-hash", "kind": "hash", "out_len": 32, "kat": "my-hash.kat.json",
    #      "standard": "my spec 1.0"}},
    # ]

    def library_version(self) -> str:
        return "{name} 0.1"  # TODO: the version your library reports at run time

    def execute(self, alg: str, case: dict) -> bytes:
        """One known-answer case: the output bytes (raise Rejected for an input your library refuses)."""
        if alg == "sha256":
            return hashlib.sha256(case_bytes(case, "msg")).digest()  # TODO: your library's call
        raise ValueError(f"{{alg}} not offered by {{self.id}}")

    def cell(self, spec: CellSpec) -> Cell:
        """One prepared operation; everything done once per key goes here, outside the timed region."""
        if spec.alg == "sha256":
            msg = spec.msg

            def output() -> bytes:  # the operation once, whole output (checksums, differential tests)
                return hashlib.sha256(msg).digest()  # TODO: your library's call

            def call() -> int:  # the same operation, first byte: what the measurement loop times
                return hashlib.sha256(msg).digest()[0]  # TODO: your library's call

            return make_cell(call, output)
        raise ValueError(f"{{spec.alg}} not offered by {{self.id}}")


PROVIDER = {cls}()
'''

README = """# python:{name}, a cryptobench plugin

`{name}_provider.py` is a working plugin: it offers sha256 through Python's hashlib. Make it yours:

1. Replace hashlib with your library where the file says TODO (`execute` answers the known-answer
   cases, `cell` prepares the operation that is timed; docs/plugins.md has the fields).
2. List every algorithm you offer in `offers` (names: `cryptobench list algorithms`).
3. `cryptobench plugin check {name}_provider.py` — every vector case and the differential inputs
   against c:openssl, no timing; it exits 1 on any failure and names the failing case.
4. `cryptobench run --plugin {name}_provider.py --alg sha256 --md report.md` — measured beside
   c:openssl with intervals and a verdict.

An algorithm the catalogue lacks (your own KEM, a national standard, a new mode)? Declare it: the
commented `declares` in `{name}_provider.py` says its name, kind (hash, xof, mac, aead, cipher, kem,
sig, kex) and sizes, and names its known-answer file (`{{"vectors": [{{"op": "hash", "msg_hex": "...",
"out_hex": "..."}}]}}`, at least 20 cases, or it stays `unverified`). It is then verified against that
file and against every other provider declaring it, measured, and every report says "declared by
python:{name}". A name the catalogue has with other sizes is refused. docs/plugins.md, "Declaring an
algorithm of your own", walks through it.

You never write a timing loop: cryptobench's Python driver times `call()` (docs/protocol.md).
"""


C_SKELETON = """/* plugin:{name} — a cryptobench provider plugin in {lang_name} (docs/plugin-abi.md, ABI version 2).
 *
 * Build it:   make
 * Check it:   cryptobench plugin check ./libcb_{name}.so
 * Measure it: cryptobench run --plugin ./libcb_{name}.so --alg sha256
 *
 * It offers sha256 through OpenSSL's libcrypto as a stand-in: replace it with your library where
 * it says TODO. You never write a timing loop: the generic C driver times cell_run().
 */
#include <cryptobench/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h> /* TODO: your library's headers instead */
#include <openssl/sha.h>

/* TODO: every algorithm your library offers, with its operations (`cryptobench list algorithms`)
 * and the lengths the driver checks for you before cell_new (0: none declared) */
static const cb_alg ALGS[] = {{
    /* name, operations, stream, pk, fresh, key_len, iv_len, tag_len, out_len, block */
    {{"sha256", {{"hash", NULL}}, 0, 0, 0, 0, 0, 0, 32, 0}},
}};

/* An algorithm the catalogue lacks? Declare it (docs/plugins.md, "Declaring an algorithm of your
 * own"), list it in ALGS too, and put declare_at in the table's last member:
 *
 * static const cb_declare DECLARES[] = {{
 *     // name, kind, ops (all NULL: the kind's), known answers beside the .so (20 cases at
 *     // least), standard, then bytes: out_len, key_len, iv_len, tag_len, block, public_key,
 *     // secret_key, ciphertext, signature, shared_secret (0: none)
 *     {{"my-hash", "hash", {{NULL}}, "my-hash.kat.json", "my spec 1.0", 32, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
 * }};
 * static const cb_declare *declare_at(size_t i) {{
 *   return i < sizeof DECLARES / sizeof DECLARES[0] ? &DECLARES[i] : NULL;
 * }}
 */

/* One prepared operation: what cell_new makes once, outside the timed region. */
struct cb_cell {{
  const uint8_t *msg; /* the input, borrowed from the driver until cell_free */
  size_t msg_len;
  uint8_t out[32];
  char err[200];
}};

static const cb_alg *alg_at(size_t i) {{
  return i < sizeof ALGS / sizeof ALGS[0] ? &ALGS[i] : NULL;
}}

/* CB_OK with *cell set, or a status (CB_NOT_OFFERED, CB_ERROR, ...) and a one-line message */
static cb_status cell_new(const cb_params *p, cb_cell **cell, char *err, size_t errlen) {{
  if (strcmp(p->alg, "sha256") != 0 || strcmp(p->op, "hash") != 0) {{
    snprintf(err, errlen, "%s %s", p->alg, p->op);
    return CB_NOT_OFFERED;
  }}
  if (p->chunk > 0) {{
    snprintf(err, errlen, "streaming");
    return CB_NOT_OFFERED;
  }}
  cb_cell *c = (cb_cell *)calloc(1, sizeof *c);
  if (c == NULL) {{
    snprintf(err, errlen, "out of memory");
    return CB_ERROR;
  }}
  c->msg = p->msg;
  c->msg_len = p->msg_len;
  /* TODO: what is done once per key goes here: key schedule, contexts, parsed keys */
  *cell = c;
  return CB_OK;
}}

/* Exactly one operation: the driver times this. Returns the first output byte, CB_REJECTED or
 * CB_FAIL (with a message for cell_error). */
static int cell_run(cb_cell *c) {{
  if (SHA256(c->msg, c->msg_len, c->out) == NULL) {{ /* TODO: your library's call */
    snprintf(c->err, sizeof c->err, "SHA256 failed");
    return CB_FAIL;
  }}
  return c->out[0];
}}

static const uint8_t *cell_output(const cb_cell *c, size_t *len) {{
  *len = sizeof c->out;
  return c->out;
}}

static const char *cell_error(const cb_cell *c) {{ return c->err; }}
static void cell_free(cb_cell *c) {{ free(c); }}

static const char *library_name(void) {{ return "{name}"; }} /* TODO: your library's name */
static const char *library_version(void) {{
  return OpenSSL_version(OPENSSL_VERSION); /* TODO: the version your library reports at run time */
}}

/* the table the driver reads (include/cryptobench/provider.h has every member's contract) */
static const cb_provider TABLE = {{
    CB_PROVIDER_ABI_VERSION, sizeof(cb_provider),
    "{name}",    /* name: the provider id is plugin:{name} */
    NULL,        /* id: or your own, e.g. "{lang}:{name}" */
    "{lang}",    /* language */
    CB_COMPILER, /* runtime: the compiler that built it, e.g. "gcc 12.2.0" */
    NULL, NULL, NULL, /* accepts, init, fini */
    library_name, library_version,
    NULL, /* notes */
    alg_at, cell_new, cell_run,
    NULL, /* cell_prepare */
    cell_output,
    NULL, /* cell_tap: only for streaming algorithms */
    cell_error, cell_free,
    NULL, NULL, /* keypair and free_buf: only for public-key algorithms */
    NULL, NULL, /* regenerates_ciphertext, cell_untimed_ns: big streamed decryption */
    NULL,       /* declare_at: algorithms of your own (above) */
}};

#ifdef __cplusplus
extern "C"
#endif
    CB_PROVIDER_EXPORT const cb_provider *
    cryptobench_provider(void) {{
  return &TABLE;
}}
"""

C_MAKEFILE = """# plugin:{name}: `make` builds libcb_{name}.so against cryptobench's plugin header.
CRYPTOBENCH_INCLUDE ?= {include}
{compiler_var} ?= {compiler}
FLAGS = -O2 -std={std} -fPIC -fvisibility=hidden -Wall -Wextra -I$(CRYPTOBENCH_INCLUDE)
LIBS = -lcrypto # TODO: your library

libcb_{name}.so: {name}.{ext}
\t$({compiler_var}) $(FLAGS) -shared -Wl,-z,defs -o $@ $< $(LIBS)

clean:
\trm -f libcb_{name}.so
"""

C_README = """# plugin:{name}, a cryptobench plugin in {lang_name}

`{name}.{ext}` is a working plugin: it offers sha256 through OpenSSL's libcrypto. Make it yours:

1. Replace libcrypto with your library where the file says TODO (`cell_new` prepares a cell once,
   outside the timed region; `cell_run` performs exactly one operation; docs/plugin-abi.md has
   every member of the table and what each operation's output is). Put your library in `LIBS` in
   the Makefile.
2. List every algorithm you offer in `ALGS` (names: `cryptobench list algorithms`).
3. `make && cryptobench plugin check ./libcb_{name}.so` — every vector case and the differential
   inputs against c:openssl, no timing; it exits 1 on any failure and names the failing case.
4. `cryptobench run --plugin ./libcb_{name}.so --alg sha256 --md report.md` — measured beside
   c:openssl with intervals and a verdict.

An algorithm the catalogue lacks (your own KEM, a national standard, a new mode)? Declare it: the
commented `DECLARES` in `{name}.{ext}` says its name, kind (hash, xof, mac, aead, cipher, kem, sig,
kex) and sizes, and names its known-answer file, relative to the .so (`{{"vectors": [{{"op": "hash",
"msg_hex": "...", "out_hex": "..."}}]}}`, at least 20 cases, or it stays `unverified`); set
`declare_at` in the table. It is then verified against that file and against every other provider
declaring it, measured, and every report says "declared by plugin:{name}". A name the catalogue
has with other sizes is refused. docs/plugins.md, "Declaring an algorithm of your own", walks
through it.

You never write a timing loop: the generic C driver times `cell_run()` (docs/protocol.md).
"""

# The Rust skeleton: string.Template ($name), its code as `cargo fmt` leaves it.
