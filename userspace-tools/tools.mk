# Userspace tools.  bench: tonic-core decisions per second (bench_core).
BENCH_BIN := $(B)/bench/bench_core
BENCH_DEFS := $(if $(wildcard tonic-core/programs/registry.c),-DTONIC_HAVE_REGISTRY)
BENCH_ARGS ?=

$(BENCH_BIN): userspace-tools/bench/bench_core.c $(LIBCORE) $(CORE_HDRS) tests/unit/testprogs.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) $(BENCH_DEFS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBCORE)

bench: $(BENCH_BIN)
	@$(BENCH_BIN) $(BENCH_ARGS)
