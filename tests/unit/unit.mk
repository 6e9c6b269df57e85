# Userspace unit tests of tonic-core: every tests/unit/test_*.c is one
# program linked against libtonic-core.a, printing TAP (tests/unit/tap.h).
# They run twice: optimised, and under AddressSanitizer + UBSan.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/unit/%)
UNIT_ASAN_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/unit-asan/%)
UNIT_HDRS := $(wildcard tests/unit/*.h) $(CORE_HDRS)

$(B)/unit/%: tests/unit/%.c $(LIBCORE) $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBCORE) -lm

$(B)/unit-asan/%: tests/unit/%.c $(LIBCORE_ASAN) $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) -Itests/unit -o $@ $< $(LIBCORE_ASAN) -lm

.PHONY: unit unit-asan
unit: $(UNIT_BINS)
	@B=$(B) scripts/run-tap.sh unit $(UNIT_BINS)

unit-asan: $(UNIT_ASAN_BINS)
	@B=$(B) scripts/run-tap.sh unit-asan $(UNIT_ASAN_BINS)

CHECK_SUITES += unit unit-asan

# libFuzzer target over the engine (clang, ASan + UBSan), run for a bounded
# time; TAP in $(B)/results/fuzz.tap.  Crash inputs land in $(B)/fuzz/.
FUZZ_BIN := $(B)/fuzz/fuzz_engine
FUZZ_CORPUS := $(B)/fuzz/corpus
FUZZ_TIME ?= 45
FUZZ_CC ?= clang
FUZZ_SRCS := tests/fuzz/fuzz_engine.c $(CORE_SRCS)

$(FUZZ_BIN): $(FUZZ_SRCS) $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-Wno-unused-parameter -I$(CURDIR)/include -I$(CURDIR)/tonic-core -Itests/unit \
		-o $@ $(FUZZ_SRCS)

.PHONY: fuzz
fuzz: $(FUZZ_BIN)
	@mkdir -p $(B)/results $(FUZZ_CORPUS)
	@log=$(B)/fuzz/fuzz-run.log; tap=$(B)/results/fuzz.tap; \
	if $(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=$(B)/fuzz/ $(FUZZ_CORPUS) > $$log 2>&1; then \
		execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -n 1); \
		{ echo "ok 1 - fuzz_engine: $(FUZZ_TIME) s, $${execs:-?} inputs, invariants held"; \
		  echo "1..1"; } > $$tap; \
	else \
		{ echo "not ok 1 - fuzz_engine: crash or invariant violation (log: $$log)"; \
		  grep -E 'invariant|ERROR|SUMMARY|Test unit written|runtime error' $$log | head -n 20 | sed 's/^/#   /'; \
		  echo "1..1"; } > $$tap; \
		cat $$tap; exit 1; \
	fi; cat $$tap

CHECK_SUITES += fuzz
