#!/bin/sh
# run.sh [--suite NAME] [--timeout SECONDS] [--shell | --demo] [TEST...]
#
# Boot the installed Debian kernel under QEMU (TCG) with an initramfs that
# holds the project's modules, tools and the given guest tests (files in
# tests/selftests/ by default: all *.sh and C tests listed in SELFTESTS).
# Streams KTAP results, writes build/results/NAME.tap and the serial log
# build/qemu/NAME.log, and fails on any failed test, a guest that does not
# finish in time, a kernel splat or an unexpected taint.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
SUITE=guest
TIMEOUT=540
MODE=test
MEM=${TONIC_QEMU_MEM:-2G}
while [ $# -gt 0 ]; do
	case $1 in
	--suite) SUITE=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--shell) MODE=shell; SUITE=shell; shift ;;
	--demo) MODE=demo; SUITE=demo; shift ;;
	--) shift; break ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
TESTS=$*
[ "$MODE" = demo ] && TESTS="$TOP/tests/selftests/demo.sh"
[ -z "$TESTS" ] && [ "$MODE" = test ] && TESTS=$(ls "$TOP"/tests/selftests/[0-9]*.sh)

KVER=$("$TOP"/scripts/kver.sh) || exit 1
KERNEL=/boot/vmlinuz-$KVER
mkdir -p "$B/qemu" "$B/results"
LOG=$B/qemu/$SUITE.log
KTAP=$B/qemu/$SUITE.ktap
INITRD=$B/qemu/$SUITE.cpio.gz
TAP=$B/results/$SUITE.tap
: > "$LOG"; : > "$KTAP"

B=$B "$TOP"/tests/qemu/mkinitramfs.sh "$KVER" "$INITRD" "$TESTS" "$MODE" || exit 1

APPEND="console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1 nokaslr"
QEMU="qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m $MEM -nodefaults -no-reboot
 -kernel $KERNEL -initrd $INITRD"

if [ "$MODE" = shell ]; then
	exec $QEMU -nographic -serial mon:stdio -serial null -append "$APPEND"
fi

echo "qemu: booting $KVER, $(echo "$TESTS" | wc -w) test(s), log $LOG"
$QEMU -display none -monitor none -serial "file:$LOG" -serial "file:$KTAP" \
	-append "$APPEND loglevel=5" &
qpid=$!
# Show results as they come; stop at the guest's end marker or timeout.
(
	tail -n +1 -f "$KTAP" --pid=$qpid 2>/dev/null |
	while IFS= read -r l; do
		case $MODE in
		demo) case $l in "# "*) echo "${l#\# }" ;; esac ;;
		*) case $l in ok*|"not ok"*) echo "  $l" ;; esac ;;
		esac
	done
) &
tpid=$!
waited=0
while kill -0 $qpid 2>/dev/null && [ $waited -lt "$TIMEOUT" ]; do
	sleep 1
	waited=$((waited + 1))
done
finished=1
if kill -0 $qpid 2>/dev/null; then
	finished=0
	kill $qpid 2>/dev/null
fi
wait $qpid 2>/dev/null
sleep 0.3
kill $tpid 2>/dev/null

# Host-side verdicts, appended to the guest's own KTAP lines.
tr -d '\r' < "$KTAP" | grep -E '^(ok|not ok) ' > "$TAP"
n=$(wc -l < "$TAP")
verdict() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi >> "$TAP"
}
grep -q '^# tonic-guest: done' "$KTAP"
done_rc=$?
[ $finished = 0 ] && done_rc=1
verdict $done_rc "$SUITE: guest finished within ${TIMEOUT}s"

splat=$(tr -d '\r' < "$LOG" | grep -E -m 3 \
	'WARNING:|BUG:|Oops|general protection|Kernel panic|possible (recursive|circular) locking|lockdep|refcount_t:|UBSAN:|KASAN:|kmemleak:|INFO: task .* blocked|soft lockup|hard LOCKUP|RCU stall|rcu_sched detected')
if [ -n "$splat" ]; then
	verdict 1 "$SUITE: no kernel splat in guest log"
	echo "$splat" | sed 's/^/#   /' >> "$TAP"
else
	verdict 0 "$SUITE: no kernel splat in guest log"
fi

# Taint: only O (out-of-tree, 4096) and E (unsigned, 8192) are expected.
taint=$(tr -d '\r' < "$KTAP" | sed -n 's/^# tainted: //p')
bad=$(( ${taint:-1} & ~(4096 | 8192) ))
verdict $bad "$SUITE: kernel taint only out-of-tree/unsigned (tainted=${taint:-unknown})"

grep '^not ok' "$TAP" | sed 's/^/  /'
if grep -q '^not ok' "$TAP"; then
	echo "qemu: $SUITE FAILED (serial log: $LOG)"
	exit 1
fi
echo "qemu: $SUITE passed"
