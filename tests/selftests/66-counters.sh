#!/bin/sh
# Every counter reaches every surface: after transfers that move most of
# them (a toggled transfer: attaches, hand-backs and their bytes, segments,
# ACKs; a push the device refuses), each "name value" line of
# /sys/kernel/debug/tonic/stats (the TCP integration's counters and the
# default device's and its backend's, as soft.NAME; driver/counters.h) is
# in `tonic -j stats` (netlink's stats-get) under the same name (a
# backend's in the device's "backend" object) with the same value, and in
# the plain `tonic stats`, and the JSON has no counter debugfs lacks; a
# namespace's own counters count its flows.
# timeout: 240
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"
sockglue || ksft_fail "the TCP integration (ULP \"tonic\") is not in tonic.ko"
tonic_hosts 2 || ksft_fail "tonic_hosts"
FAIL_PUSH=/sys/kernel/debug/tonic_soft0/fail_push
tonic_atexit 'echo 0 > $FAIL_PUSH 2>/dev/null'
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}

# The device's count before: the module may have been loaded before this
# test; h1 is new.
added0=$(sed -n 's/^flows_added  *//p' /sys/kernel/debug/tonic/stats)
# -t: off and on again every 1 MB (the application's toggle: hand-backs).
xfer h1 h2 10.0.0.2 4000000 -U -t 1000000 || ksft_fail "toggled transfer"
echo 1 > $FAIL_PUSH
xfer h1 h2 10.0.0.2 1000000 -U || ksft_fail "transfer with a refused push"
echo 0 > $FAIL_PUSH
wait_flows_gone 10 || ksft_fail "flows still in use"

# Counters may still move (the device's clock): netlink's value must lie
# between two debugfs reads around it.
D=/sys/kernel/debug/tonic/stats
grep -Ev '^(dev|max_flows|flows_in_use) ' $D > /tmp/dbg.before
jrun stats
cp /tmp/dbg.before /tmp/dbg.list
grep -Ev '^(dev|max_flows|flows_in_use) ' $D > /tmp/dbg.after
PLAIN=$($TONIC stats) || ksft_fail "tonic stats"
cat /tmp/dbg.after
echo "$OUT"
dev=$(sed -n 's/^dev  *//p' $D)
[ -n "$dev" ] || ksft_fail "no default device in $D"
assert_eq "host view" "$(jget .host)" true

# The default device's index in .devices.
n=$(jget '.devices#') || ksft_fail "no devices in tonic -j stats"
di=0
while [ "$di" -lt "$n" ] && [ "$(jget ".devices[$di].dev")" != "$dev" ]; do di=$((di + 1)); done
[ "$di" -lt "$n" ] || ksft_fail "default device $dev not in tonic -j stats"

# Which JSON object holds a debugfs counter: the sockets' or the device's.
in_list() {	# in_list ,A,B,C, NAME
	case $1 in *",$2,"*) return 0 ;; esac
	return 1
}
skeys=",$(jget '.sockets?keys'),"
dkeys=",$(jget ".devices[$di]?keys"),"
bkeys=",$(jget ".devices[$di].backend?keys"),"
backend=$($TONIC -j dev show "$dev" | $J '[0].backend') || ksft_fail "tonic dev show $dev"
ndbg=0
while read -r name before; do
	ndbg=$((ndbg + 1))
	after=$(sed -n "s/^$name  *//p" /tmp/dbg.after)
	key=$(echo "$name" | tr _ -)	# JSON keys are the YNL names
	if in_list "$skeys" "$key"; then
		v=$(jget ".sockets.$key")
	elif in_list "$dkeys" "$key"; then
		v=$(jget ".devices[$di].$key")
	elif [ "${name%%.*}" = "$backend" ] && in_list "$bkeys" "${key#*.}"; then
		v=$(jget ".devices[$di].backend.${key#*.}")
	else
		echo "FAIL $name: in debugfs, not in tonic -j stats"; fails=$((fails + 1))
		continue
	fi
	check "$name: debugfs $before .. $after, netlink $v" \
		test "$v" -ge "$before" -a "$v" -le "$after"
	check "$name: in tonic stats" eval 'printf "%s\n" "$PLAIN" | grep -Eq "(^| )${name#*.} [0-9]+( |\$)"'
done < /tmp/dbg.list

# Nothing in the JSON that debugfs lacks (offloaded is a gauge, dev a name).
for k in $(echo "$skeys$dkeys" | tr ',' ' '); do
	case $k in offloaded|dev|backend) continue ;; esac
	check "$k: in debugfs" grep -q "^$(echo "$k" | tr - _) " /tmp/dbg.list
done
for k in $(echo "$bkeys" | tr ',' ' '); do
	check "$backend.$k: in debugfs" grep -q "^$backend\.$(echo "$k" | tr - _) " /tmp/dbg.list
done
# 26 of the TCP integration, 2 of the device layer, 11 of the engine, 4
# of the soft device.
check "43 counters in debugfs (got $ndbg)" test "$ndbg" = 43

# The transfers moved what netlink did not carry before the tables.
for c in segs_tx acks_in handbacks handback_bytes push_refused attaches detaches; do
	check "$c > 0" test "$(jget ".sockets.$(echo $c | tr _ -)")" -gt 0
done
# The namespace's counters (netlink only: debugfs is host-wide): every
# flow added since the start of this test was h1's.
added=$(($(jget ".devices[$di].flows-added") - added0))
OUT=$(on h1 $TONIC -j stats) || ksft_fail "tonic -j stats in h1"
echo "$OUT"
check "h1's netns counters" test "$(jget '.netns?keys')" = \
	"netns-inum,max-flows,flows,flows-added,refused-quota,refused-full"
check "h1's flows_added $(jget .netns.flows-added) = the device's since the start, $added" \
	test "$(jget .netns.flows-added)" = "$added"
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
