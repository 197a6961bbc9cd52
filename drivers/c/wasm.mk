# The C driver with its OpenSSL module for wasm32-wasi (docs/wasm.md): one .wasm, run by the
# wasm:openssl-wasmtime, wasm:openssl-node and browser:openssl-wasm providers. Built by
# scripts/wasm/build.sh (cryptobench build wasm-openssl), which makes OPENSSL_WASM_PREFIX first:
# libcrypto.a of OpenSSL 3.6.3 and libjansson.a for wasm32-wasi, with their headers.
#
#   make -f wasm.mk OPENSSL_WASM_PREFIX=~/.cache/cryptobench/openssl-wasm/3.6.3
#
# The same sources as build/cbdriver and libcb_openssl.so (src/), less what WASI has not: no
# dlopen (src/ops_plugin.c's loader is left out under __wasi__; the module is linked in and ABI 1's
# shim, src/ops_plugin_v1.c, is not: wasm/main_wasm.c), no TLS cells
# (wasm/tls_none.c replaces ops_openssl_tls*.c and tls_kit.c). The x86 time-stamp counter and
# vector-state code compile out (src/timing.c, src/leak.c: x86-64 only); the clock is WASI's
# clock_gettime(CLOCK_MONOTONIC).
CRYPTOBENCH_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cryptobench
OPENSSL_WASM_PREFIX ?= $(CRYPTOBENCH_CACHE)/openssl-wasm/3.6.3
WASM_CC ?= clang --target=wasm32-wasi
WASM_OUT ?= build/wasm/cbdriver-openssl.wasm
WASM_OBJ = build/obj/wasm
WASI_EMULATED = signal process-clocks mman getpid
# ops_module.h's sub-cell wrappers: the TLS one is unused here (wasm/tls_none.c), a warning, not an error
WASM_CFLAGS = -std=c11 -O2 -Wall -Wextra -Werror -Wno-error=unused-function $(foreach e,$(WASI_EMULATED),-D_WASI_EMULATED_$(shell echo $(e) | tr a-z- A-Z_)) \
	-I$(OPENSSL_WASM_PREFIX)/include -I../../include -Isrc -I../../protocols/pqntor/c \
	-DCB_PLUGIN_NAME='"openssl"' -DCB_PLUGIN_ID='"wasm:openssl"' -DCB_PLUGIN_LANGUAGE='"wasm"' -MMD -MP
# an 8 MiB stack (wasm-ld's default is 64 KiB); memory grows as the cells need it
WASM_LDFLAGS = -Wl,-z,stack-size=8388608 $(foreach e,$(WASI_EMULATED),-lwasi-emulated-$(e))
WASM_SRC = protocol pk_bench request leak input timing catalogue tls_cmd ops_plugin \
	ops_openssl ops_openssl_pk ops_openssl_hs pk_family
WASM_OBJS = $(addprefix $(WASM_OBJ)/,$(addsuffix .o,$(WASM_SRC) pqntor tls_none plugin_v1_none main_wasm))
WASM_LIBS = $(OPENSSL_WASM_PREFIX)/lib/libcrypto.a $(OPENSSL_WASM_PREFIX)/lib/libjansson.a
# the native tests (tests/test_driver.c, as test-openssl runs them) compiled for wasm32-wasi against
# the same objects: run under an engine by tests/test_wasm.py (wasmtime) or `make -f wasm.mk wasm-test`
WASM_TEST = build/wasm/test_driver.wasm
WASM_TEST_OBJS = $(filter-out $(WASM_OBJ)/main_wasm.o,$(WASM_OBJS)) $(WASM_OBJ)/test_driver.o
WASM_TEST_DEFS = -DCB_TEST_PROVIDER='"wasm:openssl"' -DCB_TEST_OPS_openssl
WASMTIME ?= $(or $(wildcard ../../.venv/bin/python),python3) wasm/run_wasmtime.py

.PHONY: wasm wasm-test-bin wasm-test FORCE
wasm: $(WASM_OUT)
wasm-test-bin: $(WASM_TEST)

$(WASM_OUT): $(WASM_OBJS) $(WASM_LIBS)
	@mkdir -p $(dir $@)
	$(WASM_CC) -o $@ $(WASM_OBJS) $(WASM_LIBS) $(WASM_LDFLAGS)

$(WASM_TEST): $(WASM_TEST_OBJS) $(WASM_LIBS)
	@mkdir -p $(dir $@)
	$(WASM_CC) -o $@ $(WASM_TEST_OBJS) $(WASM_LIBS) $(WASM_LDFLAGS)

$(WASM_OBJ)/test_driver.o: tests/test_driver.c $(WASM_OBJ)/flags
	$(WASM_CC) $(WASM_CFLAGS) $(WASM_TEST_DEFS) -c -o $@ $<

wasm-test: $(WASM_TEST)
	@echo "== native tests under wasmtime: $(WASM_TEST)"
	$(WASMTIME) $(WASM_TEST)

$(WASM_LIBS):
	@echo "$@ is missing: scripts/wasm/build.sh --lib-only builds it" >&2; exit 1

# the flags recorded: a change of prefix or compiler rebuilds the objects
$(WASM_OBJ)/flags: FORCE
	@mkdir -p $(WASM_OBJ)
	@echo '$(WASM_CC) $(WASM_CFLAGS)' | cmp -s - $@ || echo '$(WASM_CC) $(WASM_CFLAGS)' > $@

$(WASM_OBJ)/%.o: src/%.c $(WASM_OBJ)/flags
	$(WASM_CC) $(WASM_CFLAGS) -c -o $@ $<

$(WASM_OBJ)/%.o: wasm/%.c $(WASM_OBJ)/flags
	$(WASM_CC) $(WASM_CFLAGS) -c -o $@ $<

$(WASM_OBJ)/pqntor.o: ../../protocols/pqntor/c/pqntor.c $(WASM_OBJ)/flags
	$(WASM_CC) $(WASM_CFLAGS) -c -o $@ $<

-include $(wildcard $(WASM_OBJ)/*.d)
