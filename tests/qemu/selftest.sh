#!/bin/sh
# The harness tested by itself: a broken test, a test past its time limit,
# a WARN_ON in a module and a guest that never finishes must each make a
# run fail, and must be reported as what they are (the last one with where
# its vCPUs were).  Writes TAP to
# build/results/harness.tap.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
S=$TOP/tests/qemu/selftest
OUT=$B/results/harness.tap
mkdir -p "$B/results"
: > "$OUT"
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi >> "$OUT"
}
run() {
	B=$B "$TOP"/tests/qemu/run.sh --suite "$@" > "$B/qemu/$1.out" 2>&1
}
mkdir -p "$B/qemu"

run hs-fail "$S/pass.sh" "$S/broken.sh" "$S/hang.sh"
rc=$?
T=$B/results/hs-fail.tap
check "a broken test fails the run" "[ $rc -ne 0 ]"
check "the passing test is still reported ok" "grep -q '^ok 1 pass.sh' $T"
check "the broken test is reported not ok" "grep -q '^not ok 2 broken.sh # exit 1' $T"
check "a test past its time limit is killed and reported" "grep -q '^not ok 3 hang.sh # killed' $T"
check "the guest itself finished cleanly" "grep -q '^ok .* guest finished' $T && grep -q '^ok .* no kernel splat' $T"

run hs-warn "$S/pass.sh" "$S/warn.sh"
rc=$?
T=$B/results/hs-warn.tap
check "a WARN_ON in a module fails the run" "[ $rc -ne 0 ]"
check "both tests passed by themselves" "grep -q '^ok 2 warn.sh' $T"
check "the splat is reported" "grep -q '^not ok .* no kernel splat' $T && grep -q 'WARNING:' $T"
check "the W taint is reported" "grep -q '^not ok .* kernel taint' $T"

run hs-clean "$S/leaky.sh" "$S/clean.sh" "$S/leaky-hang.sh" "$S/clean.sh"
T=$B/results/hs-clean.tap
check "a failing test's exit status survives its cleanup" "grep -q '^not ok 1 leaky.sh # exit 3' $T"
check "what a failed test left (module, namespace, jobs) is gone before the next" \
	"grep -q '^ok 2 clean.sh' $T"
check "... also after a test its time limit killed" \
	"grep -q '^not ok 3 leaky-hang.sh # killed' $T && grep -q '^ok 4 clean.sh' $T"

run hs-stuck --timeout 25 "$S/stuck.sh"
rc=$?
T=$B/results/hs-stuck.tap
check "a guest that does not finish fails the run" "[ $rc -ne 0 ]"
check "it is reported as not finished" "grep -q '^not ok .* guest finished within 25s' $T"
check "where each of its vCPUs was is reported" "grep -q '^#   cpu0 rip 0x' $T && grep -q '^#   cpu1 rip 0x' $T"
check "and its CPUs' stacks are in the log (SysRq-L)" "grep -q 'sysrq: Show backtrace of all active CPUs' $B/qemu/hs-stuck.log"

rm -f "$B"/results/hs-*.tap
echo "1..$n" >> "$OUT"
cat "$OUT"
! grep -q '^not ok' "$OUT"
