# Guest suites: the selftests in QEMU, and the harness's own self-test.
.PHONY: build-check guest harness
build-check:
	@B=$(B) scripts/build-check.sh

guest: modules user guest-progs
	@B=$(B) tests/qemu/run.sh --suite guest

harness: modules
	@B=$(B) tests/qemu/selftest.sh

CHECK_SUITES += guest harness
