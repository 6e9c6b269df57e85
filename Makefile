# SPDX-License-Identifier: GPL-2.0
# Tonic for Linux: kernel module (Kbuild), userspace library and tools, tests.
# `make help` lists the targets.

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
B := $(CURDIR)/build

CC ?= cc
CFLAGS_USER := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -I$(CURDIR)/include -I$(CURDIR)/tonic-core
CFLAGS_ASAN := -O1 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I$(CURDIR)/include -I$(CURDIR)/tonic-core

include tonic-core/sources.mk
CORE_SRCS := $(addprefix tonic-core/,$(TONIC_CORE_SRCS))
CORE_HDRS := $(wildcard tonic-core/*.h tonic-core/programs/*.h)
LIBCORE := $(B)/user/libtonic-core.a
LIBCORE_ASAN := $(B)/asan/libtonic-core.a

.PHONY: all modules user deps check check-debug demo qemu-shell bench bench-e2e clean clean-debug help
all: modules user

help:
	@echo "Targets:"
	@echo "  all          build the module (tonic.ko) and the userspace library and tools"
	@echo "  modules      build tonic.ko and the test modules against the installed headers"
	@echo "  user         build libtonic-core.a and the userspace tools"
	@echo "  deps         install the Debian packages the project needs (idempotent)"
	@echo "  check        unit tests, fuzzing, module build, QEMU guest selftests"
	@echo "  check-debug  the guest selftests on a debug kernel (lockdep, KASAN, KFENCE,"
	@echo "               atomic sleep) built from linux-source; not part of check"
	@echo "  demo         boot a guest, build a two-host network, run a program across it"
	@echo "  qemu-shell   interactive guest with the module loaded"
	@echo "  bench        tonic-core decisions per second (prints figures)"
	@echo "  bench-e2e    offloaded vs native TCP in the guest (prints figures)"
	@echo "  ynl-gen      regenerate the uapi header and kernel policies from the YNL spec"
	@echo "  clean        remove build products (keeps the debug kernel, build/debug-kernel)"
	@echo "  clean-debug  remove the debug kernel and the modules built against it"

deps:
	@scripts/install-deps.sh

modules:
	@test -n "$(KVER)" || { echo "no kernel headers: run 'make deps'"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

user: $(LIBCORE)

$(B)/user/%.o: %.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -c -o $@ $<

$(B)/asan/%.o: %.c $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) -c -o $@ $<

$(LIBCORE): $(CORE_SRCS:%.c=$(B)/user/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBCORE_ASAN): $(CORE_SRCS:%.c=$(B)/asan/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Test suites plug in here: each defines a target that writes TAP to
# $(B)/results/<suite>.tap, listed in CHECK_SUITES.
CHECK_SUITES := build-check
-include tests/unit/unit.mk
-include userspace-tools/tools.mk
-include userspace-tools/sim/sim.mk
-include userspace-tools/devmodel/devmodel.mk
-include userspace-tools/tonic/tonic.mk
include tests/ynl/ynl.mk
include tests/selftests/selftests.mk
include tests/qemu/qemu.mk

check:
	@scripts/install-deps.sh
	@scripts/check.sh $(CHECK_SUITES)

# The debug kernel is cached (keyed by the source tarball and
# tests/qemu/debug.config); DEBUG_KERNEL_DIR may point at a shared one.
DEBUG_KERNEL_DIR ?= $(B)/debug-kernel
check-debug:
	@scripts/install-deps.sh
	@$(MAKE) -s --no-print-directory user guest-progs
	@B=$(B) DEBUG_KERNEL_DIR=$(DEBUG_KERNEL_DIR) scripts/check-debug.sh

demo: modules user guest-progs
	@tests/qemu/run.sh --demo

qemu-shell: modules user guest-progs
	@tests/qemu/run.sh --shell

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	find $(B) -mindepth 1 -maxdepth 1 ! -name debug-kernel -exec rm -rf {} + 2>/dev/null || true

clean-debug:
	rm -rf $(DEBUG_KERNEL_DIR) $(B)/debug-mod
