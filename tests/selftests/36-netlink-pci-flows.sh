#!/bin/sh
# Device flows through netlink (PCIe backend, the driver's loopback
# self-test runs flows without sock-glue): tonic flow show lists them with
# the exact layout and the device's counters, only in init_net; tonic
# monitor announces added/removed; the tracepoints fire; the fuzzer runs
# while the flows come and go; program parameters (the device's, a live
# flow's own) reach the device, seen in the cwnd it reports for an irn
# flow; the driver's own counters (sysfs tonic_info) are in tonic -j stats
# under "backend", with their values.
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 240
. /tests/lib.sh
. /tests/pci-lib.sh
. /tests/netlink-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
name=pci-$(basename "$PCI_DEV")

jrun dev show "$name"
echo "$OUT"
assert_eq "backend" "$(jget '[0].backend')" pci
assert_eq "default device" "$(jget '[0].default')" true
[ "$(jget '[0].program#')" -ge 1 ] || ksft_fail "device programs"

mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo > $T/trace
# Flow events all along; per-segment ones only for a short run (ring buffer).
for e in tonic_flow_add tonic_flow_remove tonic_flow_fail; do
	echo 1 > $T/events/tonic/$e/enable || ksft_fail "enable tonic:$e"
done
$TONIC -j monitor > /tmp/mon.json 2> /tmp/mon.err &
mon=$!
$IP netns add pf1
sleep 0.3

echo "4 100000" > "$PCI_DEV/tonic_loopback" || ksft_fail "start loopback"
i=0
while :; do
	OUT=$($TONIC -j flow show dev "$name")
	[ "$(jget '#')" -ge 1 ] 2>/dev/null && break
	i=$((i + 1)); [ $i -gt 200 ] && ksft_fail "no device flow seen"
	sleep 0.05
done
echo "$OUT" | head -c 600; echo
assert_eq "device flow layout" "$(jget '[0]?keys')" \
	"dev,id,owner,program,seg-size,failed,cwnd,rate-kbps,credit,last-rtt-ns,bytes-sent,segs-sent,segs-rtx,segs-acked,timeouts,nacks,cnps,wnd-start,highest-sent,tail,param"
assert_eq "owner" "$(jget '[0].owner')" device
assert_eq "prog" "$(jget '[0].program')" newreno
assert_eq "seg_size" "$(jget '[0].seg-size')" 1448
id=$(jget '[0].id')
$TONIC flow show dev "$name" id "$id" || echo "(flow $id already gone)"
jrun flow show prog newreno
jrun flow show prog sack
assert_eq "prog filter" "$(jget '#')" 0
# Another namespace does not see the driver's flows.
OUT=$($IP netns exec pf1 $TONIC -j flow show)
assert_eq "flows seen from pf1" "$(jget '#')" 0
expect_err 1 "no such flow" $IP netns exec pf1 $TONIC flow show dev "$name" id "$id"

# Fuzz while flows come and go.
$UNPRIV nobody /usr/bin/tonic_nlfuzz -n 1500 -s 7 -u || ksft_fail "unprivileged fuzz with flows"
/usr/bin/tonic_nlfuzz -n 3000 -s 8 || ksft_fail "fuzz with flows"
i=0
while grep -q '^result: running' "$PCI_DEV/tonic_loopback"; do
	i=$((i + 1)); [ $i -gt 1200 ] && ksft_fail "loopback did not finish"
	$TONIC -j flow show > /dev/null || ksft_fail "dump during loopback"
	sleep 0.1
done
cat "$PCI_DEV/tonic_loopback"
grep -q '^result: ok' "$PCI_DEV/tonic_loopback" || ksft_fail "loopback failed"

# Program parameters reach the device (CAP_PARAM: a FLOW_PARAM command
# behind FLOW_ADD, and one for a live flow): irn's BDP-FC cap, param 0, is
# the cwnd the device reports for the flow.  The device's value at flow
# add, the flow's own set live, back to the device's value (flow set 0),
# and the program's default once the device's is cleared.
pci_info caps | grep -q '0x[0-9a-f]*[89a-f]$' || ksft_fail "the device model has no CAP_PARAM"
wait_cwnd() {
	i=0
	while :; do
		OUT=$($TONIC -j flow show dev "$name" prog irn)
		[ "$(jget '[0].cwnd')" = "$1" ] && break
		i=$((i + 1))
		[ $i -gt 200 ] && ksft_fail "$2: the device reports cwnd $(jget '[0].cwnd'), not $1"
		sleep 0.05
	done
	echo "ok: $2: cwnd $1, param 0 $(jget '[0].param[0]')"
}
$TONIC dev set "$name" prog irn param 0 200 || ksft_fail "tonic dev set $name prog irn param 0 200"
echo "1 1000000 irn" > "$PCI_DEV/tonic_loopback" || ksft_fail "start the irn loopback"
wait_cwnd 200 "the device's parameter at flow add"
id=$(jget '[0].id')
assert_eq "the flow's parameter 0" "$(jget '[0].param[0]')" 200
$TONIC flow set "$name" "$id" param 0 150 || ksft_fail "tonic flow set $name $id param 0 150"
wait_cwnd 150 "the flow's own, set live"
$TONIC flow set "$name" "$id" param 0 0 || ksft_fail "tonic flow set $name $id param 0 0"
wait_cwnd 200 "back to the device's"
$TONIC dev set "$name" prog irn param 0 0 || ksft_fail "tonic dev set $name prog irn param 0 0"
wait_cwnd 110 "the program's default (IRN_BDP_CAP)"
i=0
while grep -q '^result: running' "$PCI_DEV/tonic_loopback"; do
	i=$((i + 1)); [ $i -gt 600 ] && ksft_fail "irn loopback did not finish"
	sleep 0.1
done
grep -q '^result: ok' "$PCI_DEV/tonic_loopback" ||
	ksft_fail "irn loopback: $(cat "$PCI_DEV/tonic_loopback")"
expect_err 1 "Invalid argument" sh -c "echo '1 10 nosuch' > $PCI_DEV/tonic_loopback"

echo 1 > $T/events/tonic/tonic_segment_out/enable
echo 1 > $T/events/tonic/tonic_ack_in/enable
pci_loopback 2 2000 > /dev/null || ksft_fail "second loopback"
echo 0 > $T/events/tonic/tonic_segment_out/enable
echo 0 > $T/events/tonic/tonic_ack_in/enable
jrun dev show "$name"
assert_eq "flows_in_use after" "$(jget '[0].flows-in-use')" 0
for e in tonic_flow_add tonic_flow_remove tonic_segment_out tonic_ack_in; do
	grep -q " $e:" $T/trace || ksft_fail "no $e in the trace"
done
grep -m 2 'tonic_segment_out:' $T/trace
echo > $T/trace
# A device fault fails every flow: "failed" notifications.
if pci_info caps | grep -q '0x[0-9a-f]*[4-7c-f]$'; then
	pci_loopback 2 3000000 > /tmp/lb.out & lb=$!
	sleep 1
	echo die > "$PCI_DEV/tonic_fault" || ksft_fail "inject die"
	wait $lb && ksft_fail "loopback completed through the fault"
	pci_wait_state up 30 || ksft_fail "device not back"
	sleep 0.3
	grep -q '"event":"failed"' /tmp/mon.json || ksft_fail "no failed event"
	grep -m 1 '"event":"failed"' /tmp/mon.json
	grep -q " tonic_flow_fail:" $T/trace || ksft_fail "no tonic_flow_fail in the trace"
else
	echo "device without fault injection: failed events not checked"
fi
sleep 0.3
kill $mon || { cat /tmp/mon.err; ksft_fail "monitor died"; }
head -n 3 /tmp/mon.json
$J -l < /tmp/mon.json > /dev/null || ksft_fail "monitor output is not JSON lines"
[ "$(grep -c '"event":"added"' /tmp/mon.json)" -ge 6 ] || ksft_fail "added events: $(grep -c added /tmp/mon.json)"
[ "$(grep -c '"event":"removed"' /tmp/mon.json)" -ge 6 ] || ksft_fail "removed events"
grep -q '"owner":"device"' /tmp/mon.json || ksft_fail "event owner"
echo 0 > $T/events/tonic/enable

# The driver's counters through netlink, each between two sysfs reads
# (the poller keeps reading registers).
cp "$PCI_DEV/tonic_info" /tmp/info.before
jrun stats dev "$name"
cp "$PCI_DEV/tonic_info" /tmp/info.after
echo "$OUT"
assert_eq "the driver's counters" "$(jget '.devices[0].backend?keys')" \
	"mmio-reads,mmio-writes,doorbells,commands,events,descriptors,notes,cmd-ring-full,bad-events,stale-events,failovers,resets"
for k in $(jget '.devices[0].backend?keys' | tr ',' ' '); do
	v=$(jget ".devices[0].backend.$k")
	n=$(echo "$k" | tr - _)		# tonic_info's name
	lo=$(sed -n "s/^$n: *//p" /tmp/info.before)
	hi=$(sed -n "s/^$n: *//p" /tmp/info.after)
	[ -n "$lo" ] && [ "$v" -ge "$lo" ] && [ "$v" -le "$hi" ] ||
		ksft_fail "backend $k: netlink $v, tonic_info $lo .. $hi"
done
[ "$(jget '.devices[0].backend.descriptors')" -gt 0 ] || ksft_fail "no descriptors counted"
$IP netns del pf1
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
