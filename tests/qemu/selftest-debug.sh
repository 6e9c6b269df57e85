#!/bin/sh
# selftest-debug.sh RUN.SH-OPTIONS...: the harness tested on the debug kernel
# (make check-debug passes --kernel IMAGE --modules DIR --ko DIR).  A clean
# boot must pass (no check fires by itself: no false splat), and each
# deliberate bug of tests/kmod/tonic_test_debug.c must be reported by the
# kernel and fail the run.  Writes TAP to build/results/harness-debug.tap.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
S=$TOP/tests/qemu/selftest
OUT=$B/results/harness-debug.tap
mkdir -p "$B/results" "$B/qemu"
: > "$OUT"
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi >> "$OUT"
}
run() {
	suite=$1; shift
	B=$B "$TOP"/tests/qemu/run.sh --suite "$suite" "$@" > "$B/qemu/$suite.out" 2>&1
}

run hsd-clean "$@" "$S/pass.sh"
rc=$?
T=$B/results/hsd-clean.tap
check "debug kernel: a clean boot passes (no splat by itself)" "[ $rc -eq 0 ]"
check "debug kernel: lockdep, KASAN and KFENCE are on" \
	"grep -q 'Lock dependency validator' $B/qemu/hsd-clean.log &&
	 grep -q 'KernelAddressSanitizer initialized' $B/qemu/hsd-clean.log &&
	 grep -q 'kfence: initialized' $B/qemu/hsd-clean.log"

run hsd-bugs "$@" "$S/debug-sleep.sh" "$S/debug-lockdep.sh" "$S/debug-kasan.sh"
rc=$?
T=$B/results/hsd-bugs.tap
L=$B/qemu/hsd-bugs.log
check "debug kernel: deliberate bugs fail the run" "[ $rc -ne 0 ]"
check "debug kernel: the bug tests passed by themselves" \
	"grep -q '^ok 1 debug-sleep.sh' $T && grep -q '^ok 2 debug-lockdep.sh' $T && grep -q '^ok 3 debug-kasan.sh' $T"
check "debug kernel: the splat is reported" "grep -q '^not ok .* no kernel splat' $T"
check "debug kernel: sleeping in atomic context is reported" \
	"grep -q 'BUG: sleeping function called from invalid context' $L"
check "debug kernel: a lock-order inversion is reported" \
	"grep -q 'possible circular locking dependency' $L"
check "debug kernel: an out-of-bounds read is reported" \
	"grep -q 'BUG: KASAN: slab-out-of-bounds' $L"

rm -f "$B"/results/hsd-*.tap
echo "1..$n" >> "$OUT"
cat "$OUT"
! grep -q '^not ok' "$OUT"
