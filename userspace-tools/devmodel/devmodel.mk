# The Tonic PCIe device model (userspace-tools/devmodel/): serves the
# register interface of include/uapi/linux/tonic_pci.h over an ivshmem
# shared-memory file, with libtonic-core.a as the engine.
#
#   devmodel      build $(B)/devmodel/tonic-devmodel (and the bench)
#   device-spec   check suite: Documentation/device-spec.rst vs the header
#   guest-pci     check suite: guest selftests with --backend pci
#   bench-pci     descriptors/s through the ring path vs direct engine calls
DM_DIR := userspace-tools/devmodel
DM_BIN := $(B)/devmodel/tonic-devmodel
DM_BENCH := $(B)/devmodel/bench-pci
DM_HDRS := $(DM_DIR)/dm.h include/uapi/linux/tonic_pci.h $(CORE_HDRS)
PCI_TESTS = $(wildcard tests/selftests/*-pci-*.sh)

$(B)/devmodel/%.o: $(DM_DIR)/%.c $(DM_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -c -o $@ $<

$(DM_BIN): $(B)/devmodel/main.o $(B)/devmodel/dm.o $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

$(DM_BENCH): $(B)/devmodel/bench.o $(B)/devmodel/dm.o $(LIBCORE)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

.PHONY: devmodel device-spec guest-pci bench-pci
devmodel: $(DM_BIN) $(DM_BENCH)
user: $(DM_BIN) $(DM_BENCH)

device-spec:
	@B=$(B) scripts/check-device-spec.sh

guest-pci: modules user guest-progs $(DM_BIN)
	@B=$(B) tests/qemu/run.sh --suite guest-pci --backend pci $(PCI_TESTS) \
		$(wildcard tests/selftests/*-offload-*.sh)

# Host: the ring protocol against direct engine calls.  Guest: the real
# driver over ivshmem (tonic_loopback self-test), booted with --backend pci.
BENCH_PCI_ARGS ?=
bench-pci: $(DM_BENCH) modules guest-progs $(DM_BIN)
	@echo "== host: ring protocol (model thread + host thread) vs direct tonic-core calls"
	@$(DM_BENCH) $(BENCH_PCI_ARGS)
	@echo "== guest: tonic_pci driver + device model over ivshmem (TCG guest)"
	@B=$(B) tests/qemu/run.sh --suite bench-pci --backend pci tests/selftests/bench-pci.sh > /dev/null; \
		rc=$$?; sed -n 's/^# //p' $(B)/qemu/bench-pci.ktap | grep -v '^test:\|^tainted\|^tonic-guest'; \
		exit $$rc

CHECK_SUITES += device-spec guest-pci
