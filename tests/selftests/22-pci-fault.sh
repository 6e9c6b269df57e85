#!/bin/sh
# PCIe backend faults: the device model dies in the middle of an offloaded
# transfer; the driver notices (heartbeat), fails the flow over to software
# TCP, logs once, and every byte still arrives.  The harness restarts the
# model; the driver resets it back into service and offloads again.  A model
# that writes garbage into the event ring is survived the same way.  The
# socket's tracepoints show it: tonic_sock_fail with the connection's
# 4-tuple and the device, then its attach elsewhere or its handback.
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 240
. /tests/lib.sh
. /tests/pci-lib.sh
. /tests/netlink-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
pci_need_offload
pci_info caps | grep -q '0x[0-9a-f]*[4-7c-f]$' || { echo "device without fault injection"; exit $KSFT_SKIP; }
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 5ms rate 20mbit
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || ksft_fail "mount tracefs"
tonic_atexit 'echo 0 > $T/events/tonic/enable; echo > $T/trace'
for e in tonic_sock_fail tonic_sock_attach tonic_sock_handback; do
	echo 1 > $T/events/tonic/$e/enable || ksft_fail "enable tonic:$e"
done

# h1_flows_gone WHAT: h1's namespace is charged for no flow any more (5 s).
h1_flows_gone() {
	i=0
	while [ "$(on h1 $TONIC -j stats | $J .netns.flows)" != 0 ]; do
		i=$((i + 1)); [ $i -gt 50 ] && ksft_fail "h1 still charged for flows after $1"
		sleep 0.1
	done
}

fault_xfer() {	# fault_xfer FAULT PORT
	f0=$(pci_info failovers)
	a0=$(on h1 $TONIC -j stats | $J .netns.flows-added)
	echo > $T/trace
	xfer_server h2 "$2" /tmp/srv.$2 || ksft_fail "no server on h2:$2"
	on h1 tonic_xfer -c 10.0.0.2 "$2" 6000000 -C tonic > /tmp/cli.$2 2>&1 & c=$!
	sleep 1.5
	echo "injecting: $1 (device state $(pci_info state), $(pci_info descriptors) descriptors)"
	echo "$1" > "$PCI_DEV/tonic_fault" || ksft_fail "fault injection $1"
	wait $c; rc=$?
	cat /tmp/cli.$2 /tmp/srv.$2
	wait
	[ $rc = 0 ] || ksft_fail "bytes lost or corrupted after fault $1"
	[ "$(pci_info failovers)" -gt "$f0" ] || ksft_fail "no failover after fault $1"
	cat $T/trace > /tmp/trace.22
	tuple="src=10.0.0.1:[0-9]+ dest=10.0.0.2:$2 "
	grep -E "tonic_sock_(fail|attach|handback):" /tmp/trace.22 | head -n 6
	grep -Eq "tonic_sock_fail: ${tuple}dev=pci-[0-9a-f:.]+ flow=[0-9]+ rebase=0" /tmp/trace.22 ||
		ksft_fail "$1: no tonic_sock_fail with the connection's 4-tuple and the device"
	# What follows the failure: the flow on a device again, or TCP's.
	sed -n '/tonic_sock_fail:/,$p' /tmp/trace.22 |
		grep -Eq "tonic_sock_(attach|handback): $tuple" ||
		ksft_fail "$1: no attach or handback with the 4-tuple after tonic_sock_fail"
	# The namespace's flow count follows the flow through the failover and out.
	h1_flows_gone "$1"
	a1=$(on h1 $TONIC -j stats | $J .netns.flows-added)
	[ "$a1" -ge $((a0 + 2)) ] || ksft_fail "$1: flows added in h1 $a0 -> $a1 (attach + failover)"
	pci_wait_state up 20 || ksft_fail "device not back in service after $1 ($(pci_info state))"
	echo "after $1: state $(pci_info state), resets $(pci_info resets)"
}
fault_xfer die 7101
fault_xfer garbage 7102
# Back in service: offload works again.
xfer_server h2 7103 /tmp/srv.7103 || ksft_fail "no server on h2:7103"
d0=$(pci_info descriptors)
on h1 tonic_xfer -c 10.0.0.2 7103 1000000 -C tonic || ksft_fail "transfer after recovery"
wait
[ "$(pci_info descriptors)" -gt "$d0" ] || ksft_fail "nothing offloaded after recovery"
h1_flows_gone "the transfer after recovery"
dmesg | grep 'tonic: device lost' | head
tonic_hosts_del
sleep 1
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
