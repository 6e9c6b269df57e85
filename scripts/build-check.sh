#!/bin/sh
# The build as a test suite: the module (W=1) and the userspace library
# must build, and without a single compiler or sparse warning.
B=${B:-$(pwd)/build}
OUT=$B/results/build-check.tap
mkdir -p "$B/results"
: > "$OUT"
n=0
step() {
	name=$1; shift
	log=$B/results/build-$n.log
	"$@" > "$log" 2>&1
	rc=$?
	n=$((n + 1))
	if [ $rc -eq 0 ]; then echo "ok $n - $name builds"; else echo "not ok $n - $name builds"; tail -n 20 "$log" | sed 's/^/#   /'; fi >> "$OUT"
	n=$((n + 1))
	if grep -q 'warning:' "$log"; then
		echo "not ok $n - $name has no warnings"
		grep -m 10 'warning:' "$log" | sed 's/^/#   /'
	else
		echo "ok $n - $name has no warnings"
	fi >> "$OUT"
}
step "tonic.ko (W=1)" make --no-print-directory modules W=1
step "tonic.ko under sparse (C=2)" make --no-print-directory modules C=2
step "userspace (libtonic-core, tools)" make --no-print-directory user
echo "1..$n" >> "$OUT"
! grep -q '^not ok' "$OUT"
