# SPDX-License-Identifier: GPL-2.0
# Tonic for Linux: kernel module (Kbuild), userspace library and tools, tests.
# `make help` lists the targets.

# Every goal but these needs Debian packages (compiler, kernel headers,
# libnl, QEMU, ...): they are installed while the Makefile is read, before
# KVER, pkg-config and the linux-source tarball are looked up below, so a
# fresh machine builds in one go.  Sub-makes skip the check (NODEPS is
# exported); `make NODEPS=1 ...` skips it too (a build as non-root with
# the packages it needs already there).
NODEPS_GOALS := help clean clean-debug deps uninstall
ifeq ($(NODEPS),)
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
DEPS_RC := $(shell scripts/install-deps.sh >&2; echo $$?)
ifneq ($(DEPS_RC),0)
$(error scripts/install-deps.sh failed (exit $(DEPS_RC)))
endif
endif
endif
export NODEPS := 1

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
B := $(CURDIR)/build

# Userspace: CC, CPPFLAGS, CFLAGS and LDFLAGS from the environment or the
# command line are appended to the project's own flags (a distribution's
# hardening flags, another -O).  The sanitizer builds (unit-asan, fuzz)
# keep their own.
CC ?= cc
TONIC_VERSION := $(shell cat VERSION)
CFLAGS_USER := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -I$(CURDIR)/include \
	-I$(CURDIR)/tonic-core $(CPPFLAGS) $(CFLAGS)
CFLAGS_ASAN := -O1 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -I$(CURDIR)/include -I$(CURDIR)/tonic-core

include tonic-core/sources.mk
CORE_SRCS := $(addprefix tonic-core/,$(TONIC_CORE_SRCS))
CORE_HDRS := $(wildcard tonic-core/*.h tonic-core/programs/*.h)
LIBCORE := $(B)/user/libtonic-core.a
LIBCORE_ASAN := $(B)/asan/libtonic-core.a

.PHONY: all modules user deps check check-debug demo qemu-shell bench bench-e2e bench-rr bench-rdma eval-rdma eval-dcqcn eval-drdma eval-conweave clean clean-debug help
all: modules user

help:
	@echo "Targets:"
	@echo "  all          build the module (tonic.ko) and the userspace library and tools"
	@echo "  modules      build tonic.ko and the test modules against the installed headers"
	@echo "  user         build libtonic-core.a and the userspace tools"
	@echo "  deps         install the Debian packages the project needs (idempotent;"
	@echo "               every other target but clean/uninstall/help does it first)"
	@echo "  check        unit tests, fuzzing, module build, QEMU guest selftests"
	@echo "  check-debug  the guest selftests on a debug kernel (lockdep, KASAN, KFENCE,"
	@echo "               atomic sleep) built from linux-source; not part of check"
	@echo "  demo         boot a guest, build a two-host network, run a program across it"
	@echo "  qemu-shell   interactive guest with the module loaded"
	@echo "  bench        tonic-core decisions per second (prints figures)"
	@echo "  bench-e2e    offloaded vs native TCP in the guest (prints figures)"
	@echo "  bench-rr     request/response, offloaded vs native TCP: latency, CPU and packets per round trip"
	@echo "  bench-pci    the PCIe backend: ring path on the host, driver and offloaded TCP in the guest"
	@echo "  install      install tonic.ko, tonic_rdma.ko, tonic_drdma.ko (/lib/modules/KVER/extra, depmod),"
	@echo "               tonic(8) and its man page, tonic-drdma, <linux/tonic.h>, <linux/tonic_nl.h> and"
	@echo "               <linux/tonic_drdma.h>, the YNL spec (share/ynl/specs);"
	@echo "               DESTDIR, PREFIX (/usr/local), INSTALL_MOD_DIR (extra)"
	@echo "  uninstall    remove what install installed (same DESTDIR, PREFIX)"
	@echo "  bench-rdma   RoCEv2 perftest figures in the guest: rxe vs tonic_rdma.ko (rc, irn)"
	@echo "  eval-rdma    the RDMA experiments in the guest (IRN under loss, IB CC and tenants);"
	@echo "               plots and tables in Documentation/results/rdma-*; then eval-dcqcn, eval-drdma,"
	@echo "               eval-conweave"
	@echo "  eval-dcqcn   DCQCN: N QPs into one RED/ECN bottleneck, how soon they share it (results/rdma-dcqcn.*)"
	@echo "  eval-drdma   Dynamic RDMA: direct vs dynamic under loss and failed registrations (results/drdma.*)"
	@echo "  eval-conweave ConWeave: ECMP vs spraying vs ConWeave message times, one path congested (results/conweave.*)"
	@echo "  ynl-gen      regenerate the uapi header and kernel policies from the YNL spec"
	@echo "  clean        remove build products (keeps the debug kernel, build/debug-kernel)"
	@echo "  clean-debug  remove the debug kernel and the modules built against it"
	@echo "Variables:"
	@echo "  NODEPS=1     do not check/install the Debian packages first"
	@echo "  STATIC=1     link tonic(8) with libnl statically (default: shared)"
	@echo "  CC, CPPFLAGS, CFLAGS, LDFLAGS  used for the userspace programs, after"
	@echo "               the project's own flags"

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
-include userspace-tools/drdma/drdma.mk
include tests/ynl/ynl.mk
include tests/layout/layout.mk
include tests/cli/cli.mk
include tests/selftests/selftests.mk
include tests/qemu/qemu.mk

check:
	@scripts/check.sh $(CHECK_SUITES)

# The debug kernel is cached (keyed by the source tarball and
# tests/qemu/debug.config); DEBUG_KERNEL_DIR may point at a shared one.
DEBUG_KERNEL_DIR ?= $(B)/debug-kernel
check-debug:
	@$(MAKE) -s --no-print-directory user guest-progs
	@B=$(B) DEBUG_KERNEL_DIR=$(DEBUG_KERNEL_DIR) scripts/check-debug.sh

demo: modules user guest-progs
	@tests/qemu/run.sh --demo

qemu-shell: modules user guest-progs
	@tests/qemu/run.sh --shell

# Install: the module under /lib/modules/KVER/$(INSTALL_MOD_DIR) (the
# kernel looks nowhere else, whatever PREFIX says), tonic(8), its man
# page and bash completion, the UAPI header and the YNL spec under PREFIX;
# all under DESTDIR.
# depmod runs only for a real install (no DESTDIR): a package's postinst
# runs it.  tests/kmod's modules are never installed.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
INCLUDEDIR ?= $(PREFIX)/include
INSTALL_MOD_DIR ?= extra
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
INSTALL_FILES := $(SBINDIR)/tonic $(MANDIR)/man8/tonic.8 $(INCLUDEDIR)/linux/tonic.h \
	$(INCLUDEDIR)/linux/tonic_nl.h $(SBINDIR)/tonic-drdma $(INCLUDEDIR)/linux/tonic_drdma.h \
	$(DATADIR)/ynl/specs/tonic.yaml $(DATADIR)/bash-completion/completions/tonic

# The check suite: install/uninstall into a temporary DESTDIR, versions, linking.
.PHONY: install uninstall install-check
install-check: modules user
	@B=$(B) tests/pkg/install.sh
CHECK_SUITES += install-check

install: modules $(B)/user/tonic $(B)/user/tonic-drdma
	install -D -m 0644 tonic.ko $(MODDIR)/tonic.ko
	install -D -m 0644 rdma-glue/tonic_rdma.ko $(MODDIR)/tonic_rdma.ko
	install -D -m 0644 drdma/tonic_drdma.ko $(MODDIR)/tonic_drdma.ko
	install -D -m 0755 $(B)/user/tonic $(DESTDIR)$(SBINDIR)/tonic
	install -D -m 0755 $(B)/user/tonic-drdma $(DESTDIR)$(SBINDIR)/tonic-drdma
	install -D -m 0644 include/uapi/linux/tonic_drdma.h $(DESTDIR)$(INCLUDEDIR)/linux/tonic_drdma.h
	install -D -m 0644 userspace-tools/tonic/tonic.8 $(DESTDIR)$(MANDIR)/man8/tonic.8
	install -D -m 0644 userspace-tools/tonic/tonic.bash-completion \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/tonic
	install -D -m 0644 include/uapi/linux/tonic.h $(DESTDIR)$(INCLUDEDIR)/linux/tonic.h
	install -D -m 0644 include/uapi/linux/tonic_nl.h $(DESTDIR)$(INCLUDEDIR)/linux/tonic_nl.h
	install -D -m 0644 Documentation/netlink/specs/tonic.yaml \
		$(DESTDIR)$(DATADIR)/ynl/specs/tonic.yaml
	$(if $(DESTDIR),,depmod -a $(KVER))

uninstall:
	@test -n "$(KVER)" || { echo "no kernel headers: cannot tell KVER (pass KVER=...)"; exit 1; }
	rm -f $(MODDIR)/tonic.ko $(MODDIR)/tonic_rdma.ko $(MODDIR)/tonic_drdma.ko $(addprefix $(DESTDIR),$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(DATADIR)/ynl/specs $(DESTDIR)$(DATADIR)/ynl 2>/dev/null
	-rmdir $(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/bash-completion 2>/dev/null
	$(if $(DESTDIR),,depmod -a $(KVER))

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	find $(B) -mindepth 1 -maxdepth 1 ! -name debug-kernel -exec rm -rf {} + 2>/dev/null || true

clean-debug:
	rm -rf $(DEBUG_KERNEL_DIR) $(B)/debug-mod
