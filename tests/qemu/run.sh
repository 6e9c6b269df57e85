#!/bin/sh
# run.sh [--suite NAME] [--timeout SECONDS] [--backend soft|pci] [--shell | --demo]
#        [--kernel IMAGE --modules DIR] [--ko DIR] [TEST...]
#
# Boot the installed Debian kernel under QEMU (TCG) with an initramfs that
# holds the project's modules, tools and the given guest tests (files in
# tests/selftests/ by default: all *.sh and C tests listed in SELFTESTS).
# Streams KTAP results, writes build/results/NAME.tap and the serial log
# build/qemu/NAME.log, and fails on any failed test, a guest that does not
# finish in time, a kernel splat or an unexpected taint.
#
# --backend pci: the guest gets a Tonic PCIe function, an ivshmem-plain
# device whose shared memory is served by the device model
# (build/devmodel/tonic-devmodel, restarted if it dies, e.g. by a fault
# test); the kernel command line says tonic.backend=pci for the tests.
#
# --kernel IMAGE --modules DIR: boot IMAGE instead (the debug kernel of
# `make check-debug`); DIR is its INSTALL_MOD_PATH (DIR/lib/modules/KREL
# with modules.builtin, ...).  --ko DIR: take tonic.ko and tests/kmod/*.ko
# from DIR instead of the source tree.  TONIC_TIMEOUT_SCALE=N multiplies
# every test's own limit (its `# timeout:` line) in the guest.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
SUITE=guest
TIMEOUT=540
MODE=test
MEM=${TONIC_QEMU_MEM:-2G}
BACKEND=soft
KERNEL=
MODROOT=
KODIR=$TOP
while [ $# -gt 0 ]; do
	case $1 in
	--suite) SUITE=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--backend) BACKEND=$2; shift 2 ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--modules) MODROOT=$2; shift 2 ;;
	--ko) KODIR=$2; shift 2 ;;
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

if [ -n "$KERNEL" ]; then
	[ -f "$KERNEL" ] || { echo "run.sh: no kernel image $KERNEL" >&2; exit 1; }
	[ -n "$MODROOT" ] || { echo "run.sh: --kernel needs --modules DIR" >&2; exit 1; }
	KVER=$(ls "$MODROOT/lib/modules" 2>/dev/null | head -n 1)
	[ -n "$KVER" ] || { echo "run.sh: nothing in $MODROOT/lib/modules" >&2; exit 1; }
else
	KVER=$("$TOP"/scripts/kver.sh) || exit 1
	KERNEL=/boot/vmlinuz-$KVER
fi
mkdir -p "$B/qemu" "$B/results"
LOG=$B/qemu/$SUITE.log
KTAP=$B/qemu/$SUITE.ktap
INITRD=$B/qemu/$SUITE.cpio.gz
TAP=$B/results/$SUITE.tap
: > "$LOG"; : > "$KTAP"

B=$B TONIC_MODROOT=$MODROOT TONIC_KO_DIR=$KODIR \
	"$TOP"/tests/qemu/mkinitramfs.sh "$KVER" "$INITRD" "$TESTS" "$MODE" || exit 1

# A TCG guest's clock is the host's: a host that stops running QEMU for a
# while (CI shares this machine) looks like a CPU stuck in the guest, and
# the first report then says the whole stall at once (a CI run panicked
# with "stuck for 45s" where the default threshold is 20 s); an RCU stall
# likewise.  60 s for both still catches a real lockup or stall long before
# a test's limit.
# softlockup_all_cpu_backtrace: a CPU stuck waiting (for an IPI, a lock)
# is half the story; the report then has the other CPU's stack too.
APPEND="console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1 watchdog_thresh=30 rcupdate.rcu_cpu_stall_timeout=60 softlockup_all_cpu_backtrace=1 sysrq_always_enabled nokaslr ${TONIC_APPEND:-}"
# One host thread for both vCPUs when a test says "# tcg: single": with
# one each, QEMU 7.2 sometimes left a vCPU running its translation of a
# breakpoint that the guest's text patching (a trace event turned on or
# off) had already replaced, and the guest hung.  Not for all: on one
# thread the guest has half the CPU, and tests whose shares depend on it
# (77, 79) fail (Documentation/testing.rst).  TONIC_TCG_THREAD overrides.
TCG_THREAD=${TONIC_TCG_THREAD:-multi}
[ -z "${TONIC_TCG_THREAD:-}" ] && [ -n "$TESTS" ] && grep -lq '^# tcg: single' $TESTS 2>/dev/null && TCG_THREAD=single
QEMU="qemu-system-x86_64 -accel tcg,thread=$TCG_THREAD -cpu max -smp 2 -m $MEM -nodefaults -no-reboot
 -kernel $KERNEL -initrd $INITRD"

APPEND="$APPEND tonic.backend=$BACKEND"
DMPID=
if [ "$BACKEND" = pci ]; then
	DM=$B/devmodel/tonic-devmodel
	[ -x "$DM" ] || { echo "run.sh: $DM missing (make devmodel)" >&2; exit 1; }
	SHM=/dev/shm/tonic-$SUITE-$$
	DMLOG=$B/qemu/$SUITE.devmodel.log
	: > "$DMLOG"
	rm -f "$SHM" "$SHM.stop"
	# Supervised: restarted when it dies (a fault test kills it on purpose).
	(
		while [ ! -e "$SHM.stop" ]; do
			"$DM" --shm "$SHM" --size 1M --faults -v --pidfile "$SHM.pid" 2>> "$DMLOG" &
			wait $!
			[ -e "$SHM.stop" ] && break
			echo "run.sh: device model exited, restarting it" >> "$DMLOG"
			sleep 0.5
		done
	) &
	DMPID=$!
	# The model must have laid out the window before the guest probes it.
	i=0
	while [ ! -s "$SHM.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	QEMU="$QEMU -object memory-backend-file,id=tshm,share=on,mem-path=$SHM,size=1M
 -device ivshmem-plain,memdev=tshm"
fi
stop_devmodel() {
	[ -n "$DMPID" ] || return 0
	touch "$SHM.stop"
	kill "$(cat "$SHM.pid" 2>/dev/null)" 2>/dev/null
	kill $DMPID 2>/dev/null
	wait $DMPID 2>/dev/null
	rm -f "$SHM" "$SHM.pid" "$SHM.stop"
}

if [ "$MODE" = shell ]; then
	$QEMU -nographic -serial mon:stdio -serial null -append "$APPEND"
	stop_devmodel
	exit 0
fi

echo "qemu: booting $KVER, $(echo "$TESTS" | wc -w) test(s), log $LOG"
MON=$B/qemu/$SUITE.monitor
rm -f "$MON"
$QEMU -display none -monitor "unix:$MON,server=on,wait=off" -serial "file:$LOG" -serial "file:$KTAP" \
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
cpus=
if kill -0 $qpid 2>/dev/null; then
	finished=0
	# Where a guest that did not finish is stuck (qemu-cpus.py says why).
	map=$(dirname "$KERNEL")/System.map-$KVER
	[ -f "$map" ] || map=$(dirname "$KERNEL")/System.map
	cpus=$(/usr/bin/python3 "$TOP"/tests/qemu/qemu-cpus.py "$MON" "$map" 2>&1)
	sleep 2
	kill $qpid 2>/dev/null
fi
wait $qpid 2>/dev/null
sleep 0.3
kill $tpid 2>/dev/null
stop_devmodel

# Host-side verdicts, appended to the guest's own KTAP lines (with the
# tests' diagnostics: scripts/check.sh prints a failure's).
tr -d '\r' < "$KTAP" | grep -E '^(ok|not ok|#) ' > "$TAP"
n=$(grep -Ec '^(ok|not ok) ' "$TAP")
verdict() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi >> "$TAP"
}
grep -q '^# tonic-guest: done' "$KTAP"
done_rc=$?
[ $finished = 0 ] && done_rc=1
verdict $done_rc "$SUITE: guest finished within ${TIMEOUT}s"
[ -n "$cpus" ] && echo "$cpus" | sed 's/^/#   /' >> "$TAP"

# Most reports start with WARNING: or BUG:; the debug kernel's checks
# (check-debug) are listed too, by their own words: lockdep ("possible
# circular locking dependency", "inconsistent lock state", "possible irq
# lock inversion", "bad unlock balance", ...), might_sleep ("sleeping
# function called from invalid context", "scheduling while atomic"), KASAN,
# KFENCE, debug objects (ODEBUG), list debugging, RCU stalls (rcu_sched or,
# on a preemptible kernel, rcu_preempt).  Not a splat: PROVE_RCU's boot
# line "RCU lockdep checking is enabled".
splat=$(tr -d '\r' < "$LOG" | grep -v 'RCU lockdep checking is enabled' | grep -E -m 3 \
	'WARNING:|BUG:|Oops|general protection|Kernel panic|possible (recursive|circular) locking|lockdep|refcount_t:|UBSAN:|KASAN:|kmemleak:|INFO: task .* blocked|soft lockup|hard LOCKUP|RCU stall|rcu_sched detected|inconsistent lock state|lock inversion|unlock balance|held lock freed|called from invalid context|scheduling while atomic|KFENCE:|ODEBUG:|list_(add|del) corruption|rcu_preempt detected|detected stalls')
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
