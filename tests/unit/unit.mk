# Userspace unit tests of tonic-core: every tests/unit/test_*.c is one
# program linked against libtonic-core.a, printing TAP (tests/unit/tap.h).
# They run twice: optimised, and under AddressSanitizer + UBSan.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/unit/%)
UNIT_ASAN_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/unit-asan/%)
UNIT_HDRS := $(wildcard tests/unit/*.h) $(CORE_HDRS)

$(B)/unit/%: tests/unit/%.c $(LIBCORE) $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -Itests/unit -o $@ $< $(LIBCORE) -lm

$(B)/unit-asan/%: tests/unit/%.c $(LIBCORE_ASAN) $(UNIT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) -Itests/unit -o $@ $< $(LIBCORE_ASAN) -lm

.PHONY: unit unit-asan
unit: $(UNIT_BINS)
	@B=$(B) scripts/run-tap.sh unit $(UNIT_BINS)

unit-asan: $(UNIT_ASAN_BINS)
	@B=$(B) scripts/run-tap.sh unit-asan $(UNIT_ASAN_BINS)

CHECK_SUITES += unit unit-asan
