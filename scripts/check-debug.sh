#!/bin/sh
# check-debug.sh [TEST...]: the guest suite (soft backend) on the debug
# kernel: lockdep, KASAN, KFENCE, atomic-sleep and debug-objects checks.
#  1. the debug kernel (scripts/build-debug-kernel.sh; cached in
#     $DEBUG_KERNEL_DIR, default build/debug-kernel);
#  2. tonic.ko and tests/kmod against its build tree, in a copy of the
#     source tree ($B/debug-mod), so the normal build is not disturbed;
#  3. the harness on that kernel (tests/qemu/selftest-debug.sh: a clean boot
#     has no splat, deliberate bugs are reported and fail a run);
#  4. tests/qemu/run.sh --kernel ... --suite guest-debug, with every test's
#     limit scaled by TONIC_TIMEOUT_SCALE (default 3) and the whole run
#     limited to DEBUG_RUN_TIMEOUT seconds (default 2400).
# Results: $B/results/harness-debug.tap and guest-debug.tap, serial log
# $B/qemu/guest-debug.log.  TEST... (paths) run only those tests, no harness.
# Userspace (make user guest-progs) must be built already (make does it).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
export DEBUG_KERNEL_DIR="${DEBUG_KERNEL_DIR:-$B/debug-kernel}"
DIR=$DEBUG_KERNEL_DIR
MD=$B/debug-mod

t0=$(date +%s)
image=$(B=$B "$TOP"/scripts/build-debug-kernel.sh | tail -n 1)
krel=$(cat "$DIR/kernelrelease")
t1=$(date +%s)

# A copy of the source tree (what git tracks plus new files, as they are in
# the work tree; mtimes kept so that make rebuilds only what changed).
mkdir -p "$MD"
cd "$TOP"
if git rev-parse --git-dir > /dev/null 2>&1; then
	git ls-files -co --exclude-standard
else
	find . -path ./build -prune -o -type f ! -name '*.o' ! -name '*.ko' ! -name '.*.cmd' -print
fi | while IFS= read -r f; do
	case $f in build/*|./build/*) continue ;; esac
	[ -f "$f" ] && printf '%s\n' "$f"
done | xargs -d '\n' cp -pu --parents -t "$MD"
echo "check-debug: modules for $krel in $MD" >&2
nice -n 19 make -s -C "$MD" -j2 KDIR="$DIR/obj" KVER="$krel" modules > "$MD/build.log" 2>&1 || {
	cat "$MD/build.log" >&2
	echo "check-debug: module build against $DIR/obj failed" >&2
	exit 1
}
t2=$(date +%s)

# kasan.fault=report: report and go on (the default, stated); every report,
# not only the first (kasan_multi_shot).  No panic_on_warn: the host-side
# verdict fails on any splat in the log and the other tests still run.
# Under TCG on a loaded host this kernel is slow: the lockup, RCU-stall and
# hung-task detectors get longer bounds (a real lockup still trips them).
export B TONIC_TIMEOUT_SCALE="${TONIC_TIMEOUT_SCALE:-3}"
export TONIC_APPEND="kasan.fault=report kasan_multi_shot watchdog_thresh=30 \
rcupdate.rcu_cpu_stall_timeout=100 sysctl.kernel.hung_task_timeout_secs=480 ${TONIC_APPEND:-}"
KOPTS="--kernel $image --modules $DIR/mods --ko $MD"
rc=0
if [ $# = 0 ]; then
	echo "== harness-debug"
	# shellcheck disable=SC2086
	"$TOP"/tests/qemu/selftest-debug.sh $KOPTS | grep '^not ok' || true
	grep -q '^not ok' "$B/results/harness-debug.tap" && rc=1
	echo "   harness-debug: $(grep -c '^ok' "$B/results/harness-debug.tap") ok," \
		"$(grep -c '^not ok' "$B/results/harness-debug.tap") not ok"
fi
t3=$(date +%s)
echo "== guest-debug"
# shellcheck disable=SC2086
"$TOP"/tests/qemu/run.sh --suite guest-debug --timeout "${DEBUG_RUN_TIMEOUT:-2400}" \
	$KOPTS "$@" || rc=1
t4=$(date +%s)
echo "check-debug: kernel $((t1 - t0)) s, modules $((t2 - t1)) s," \
	"harness $((t3 - t2)) s, guest suite $((t4 - t3)) s"
exit $rc
