# Guest test programs: every tests/selftests/*.c is built on the host into
# $(B)/guest/, which the initramfs puts on the guest's /usr/bin.  They use
# the kernel's own kselftest headers, taken from Debian's linux-source
# tarball at build time.
# (linux-source-6.1 exactly: linux-source-6.12, for the YNL tools, matches 6.1*.)
KSFT_TAR := $(wildcard /usr/src/linux-source-6.1.tar.xz)
KSFT_DIR := $(B)/kselftest
GUEST_SRCS := $(wildcard tests/selftests/*.c)
GUEST_PROGS := $(GUEST_SRCS:tests/selftests/%.c=$(B)/guest/%)

$(KSFT_DIR)/kselftest_harness.h:
	@mkdir -p $(KSFT_DIR)
	@test -n "$(KSFT_TAR)" || { echo "linux-source-6.1 missing: make deps"; exit 1; }
	tar -xJf $(KSFT_TAR) -C $(KSFT_DIR) --strip-components=4 --wildcards \
		'*/tools/testing/selftests/kselftest_harness.h' '*/tools/testing/selftests/kselftest.h'
	@touch $@

$(B)/guest/%: tests/selftests/%.c $(KSFT_DIR)/kselftest_harness.h $(wildcard tests/selftests/*.h include/uapi/linux/*.h)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -D_GNU_SOURCE -I$(KSFT_DIR) -I$(CURDIR)/include -Itests/selftests \
		$(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -lpthread $(GUEST_LDLIBS)

# Per-program libraries (Debian's libibverbs-dev; the initramfs copies the
# shared libraries every guest program needs, ldd's list).
$(B)/guest/tonic_verbs_target: GUEST_LDLIBS := -libverbs
$(B)/guest/tonic_rdma_xfer: GUEST_LDLIBS := -libverbs -lm

# BPF objects for the guest (tests/selftests/bpf/*.bpf.c, clang -target
# bpf, no libbpf): shipped next to the programs, loaded by tonic_bpf_load.
BPF_CLANG ?= clang
GUEST_BPF_SRCS := $(wildcard tests/selftests/bpf/*.bpf.c)
GUEST_BPF_OBJS := $(GUEST_BPF_SRCS:tests/selftests/bpf/%.c=$(B)/guest/%.o)

$(B)/guest/%.bpf.o: tests/selftests/bpf/%.bpf.c
	@mkdir -p $(dir $@)
	$(BPF_CLANG) -O2 -g -target bpf -I/usr/include/$(shell $(CC) -dumpmachine) -c -o $@ $<

.PHONY: guest-progs
guest-progs: $(GUEST_PROGS) $(GUEST_BPF_OBJS)
