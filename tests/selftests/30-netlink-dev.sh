#!/bin/sh
# tonic dev show / stats over the generic netlink family: text and JSON
# (parsed), exact fields, errors with clear messages and exit codes, the
# tracepoints are registered; without the module (and no way to load it)
# the CLI says so.
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 120
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"

# Usage errors: exit 2, no kernel needed; help: exit 0.
$TONIC -h | grep -q 'tonic flow show' || ksft_fail "tonic -h"
expect_err 2 "unknown object" $TONIC bogus
expect_err 2 "unknown command" $TONIC dev bogus
expect_err 2 "needs a value" $TONIC flow show dev
expect_err 2 "is not a number" $TONIC flow show id x
expect_err 2 "unknown option" $TONIC -z dev show
$TONIC > /dev/null 2>&1; assert_eq "tonic without arguments" $? 2

$TONIC dev show
$TONIC dev show | grep -q '^soft0: backend soft max_flows 2048 flows_in_use 0 ' ||
	ksft_fail "text output of dev show"

jrun dev show
echo "$OUT"
i=$(dev_index soft0) || ksft_fail "soft0 not in the device dump"
jrun dev show soft0
assert_eq "dev get: one device" "$(jget '#')" 1
assert_eq "dev layout" "$(jget '[0]?keys')" \
	"name,backend,max-flows,flows-in-use,wnd-bits,ring-depth,cycle-ps,default,flows-added,flows-full,program"
assert_eq "name" "$(jget '[0].name')" soft0
assert_eq "backend" "$(jget '[0].backend')" soft
assert_eq "max_flows" "$(jget '[0].max-flows')" 2048
assert_eq "flows_in_use" "$(jget '[0].flows-in-use')" 0
assert_eq "wnd_bits" "$(jget '[0].wnd-bits')" 2048
assert_eq "ring_depth" "$(jget '[0].ring-depth')" 16
assert_eq "cycle_ps" "$(jget '[0].cycle-ps')" 10000
[ "$(jget '[0].program#')" -ge 7 ] || ksft_fail "programs: $(jget '[0].program#')"
progs=$(i=0; while [ $i -lt "$(jget '[0].program#')" ]; do jget "[0].program[$i]"; i=$((i+1)); done | tr '\n' ' ')
for p in reno newreno sack ndp dcqcn irn ibcc; do
	case " $progs" in *" $p "*) ;; *) ksft_fail "program $p missing: $progs" ;; esac
done
# Without a PCIe device the soft device is the default one.
grep -q tonic.backend=pci /proc/cmdline || assert_eq "default" "$(jget '[0].default')" true

expect_err 1 "no such Tonic device" $TONIC dev show nosuch
expect_err 1 "no such Tonic device" $TONIC dev show dev nosuch

# Global statistics: every device's engine counters; socket counters with sock-glue.
$TONIC stats
jrun stats
echo "$OUT"
[ "$(jget '.devices#')" -ge 1 ] || ksft_fail "stats: no device"
jrun stats dev soft0
assert_eq "stats dev filter" "$(jget '.devices#')" 1
assert_eq "stats layout" "$(jget '.devices[0]?keys')" \
	"dev,flows-added,flows-full,cycles,busy-cycles,bad-flow,bad-ack,bad-sack,bad-push,in-overflow,stale-ack,conflicts,notes-dropped,stale-desc,backend"
assert_eq "stats: the soft device's own counters" "$(jget '.devices[0].backend?keys')" \
	"runs,inline-runs,doorbells,timer-fires"
if sockglue; then
	jget '.sockets' > /dev/null || ksft_fail "sock-glue loaded but no socket counters (tonic_sock_ops_register)"
else
	jget '.sockets' > /dev/null 2>&1 && ksft_fail "socket counters without sock-glue"
	echo "sock-glue not loaded: no socket counters (expected)"
fi
expect_err 1 "no such Tonic device" $TONIC stats dev nosuch

# Tracepoints are registered (perf list tonic:*).
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
for e in tonic_flow_add tonic_flow_remove tonic_flow_fail tonic_segment_out tonic_ack_in \
	 tonic_loss tonic_timeout; do
	[ -d "$T/events/tonic/$e" ] || ksft_fail "tracepoint tonic:$e missing"
done
echo 1 > $T/events/tonic/enable || ksft_fail "enable tonic tracepoints"
echo 0 > $T/events/tonic/enable

$MODPROBE -r tonic || ksft_fail "unload"
# Resolving the family would load the module again (its alias; see
# 38-module-autoload.sh): with no modprobe to call, the CLI says it is missing.
mp=$(cat /proc/sys/kernel/modprobe)
tonic_atexit 'echo "$mp" > /proc/sys/kernel/modprobe'
echo /bin/false > /proc/sys/kernel/modprobe
expect_err 1 "is the tonic module loaded" $TONIC dev show
echo "$mp" > /proc/sys/kernel/modprobe
grep -q '^tonic ' /proc/modules && ksft_fail "tonic loaded without a modprobe"
exit $KSFT_PASS
