# Guest suites: the selftests in QEMU, and the harness's own self-test.
# The tests that turn trace events on and off under traffic (a "# tcg:
# single" line) boot by themselves, on one TCG thread (run.sh says why).
.PHONY: build-check guest guest-trace harness
build-check:
	@B=$(B) scripts/build-check.sh

GUEST_TESTS := $(sort $(wildcard tests/selftests/[0-9]*.sh))
GUEST_TRACE := $(shell grep -l '^\# tcg: single' $(GUEST_TESTS))
guest: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite guest --timeout 3000 $(filter-out $(GUEST_TRACE),$(GUEST_TESTS))

guest-trace: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite guest-trace --timeout 900 $(GUEST_TRACE)

harness: modules
	@B=$(B) tests/qemu/selftest.sh

# Offloaded vs native TCP in the guest (figures, not a pass/fail timing).
.PHONY: bench-e2e
bench-e2e: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite bench-e2e --timeout 3000 tests/selftests/bench-e2e.sh

# Request/response, offloaded vs native TCP in the guest: latency, CPU and
# packets per round trip (figures, not a pass/fail timing).
.PHONY: bench-rr
bench-rr: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite bench-rr --timeout 1500 tests/selftests/bench-rr.sh > /dev/null; \
		rc=$$?; sed -n 's/^# //p' $(B)/qemu/bench-rr.ktap | grep -v '^test:\|^tainted\|^tonic-guest'; exit $$rc

# RoCEv2 on the RDMA bed: rxe <-> rxe (and, later, tonic0) with perftest.
.PHONY: bench-rdma
bench-rdma: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite bench-rdma --timeout 2400 tests/selftests/bench-rdma.sh

# The RDMA experiments (issue 14): series from the guest, plots and tables
# in Documentation/results/ (rdma-*).
.PHONY: eval-rdma
eval-rdma: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite eval-rdma --timeout 2400 tests/selftests/eval-rdma.sh
	@/usr/bin/python3 scripts/eval-rdma-plot.py $(B)/qemu/eval-rdma.ktap Documentation/results
	@$(MAKE) -s --no-print-directory eval-dcqcn
	@$(MAKE) -s --no-print-directory eval-drdma
	@$(MAKE) -s --no-print-directory eval-conweave

# DCQCN (issue 14): N QPs into one RED/ECN bottleneck, how soon they share
# it fairly (Documentation/results/rdma-dcqcn.*); also part of eval-rdma.
.PHONY: eval-dcqcn
eval-dcqcn: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite eval-dcqcn --timeout 1200 tests/selftests/eval-dcqcn.sh
	@/usr/bin/python3 scripts/eval-rdma-plot.py $(B)/qemu/eval-dcqcn.ktap Documentation/results

# Dynamic RDMA (issue 15): direct vs dynamic under loss and failed
# registrations (Documentation/results/drdma.*); also part of eval-rdma.
.PHONY: eval-drdma
eval-drdma: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite eval-drdma --timeout 1800 tests/selftests/eval-drdma.sh
	@/usr/bin/python3 scripts/eval-drdma-plot.py $(B)/qemu/eval-drdma.ktap Documentation/results

# ConWeave (issue 15): message completion times for ECMP, spraying and
# ConWeave over two paths, one congested (Documentation/results/conweave.*);
# also part of eval-rdma.
.PHONY: eval-conweave
eval-conweave: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite eval-conweave --timeout 2400 tests/selftests/eval-conweave.sh
	@/usr/bin/python3 scripts/eval-conweave-plot.py $(B)/qemu/eval-conweave.ktap Documentation/results

CHECK_SUITES += guest guest-trace harness
