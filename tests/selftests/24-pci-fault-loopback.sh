#!/bin/sh
# PCIe backend faults without the TCP glue: while loopback flows run, the
# device model dies (the harness restarts it), stalls for 3 s, or writes
# garbage into the event ring.  Each time the driver declares the device
# lost, fails the running flows (the self-test sees FAILED, not a hang or a
# crash), logs it once, and resets the device back into service, where the
# next run passes.
# timeout: 180
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
pci_info caps | grep -q '0x[0-9a-f]*[4-7c-f]$' || { echo "device without fault injection"; exit $KSFT_SKIP; }
for fault in die hang garbage; do
	f0=$(pci_info failovers)
	l0=$(dmesg | grep -c 'tonic: device lost')
	pci_loopback 4 3000000 > /tmp/lb.out & lb=$!
	sleep 1
	echo "$fault" > "$PCI_DEV/tonic_fault" || ksft_fail "inject $fault"
	if wait $lb; then
		cat /tmp/lb.out
		ksft_fail "loopback completed through fault $fault"
	fi
	echo "$fault: loopback stopped"
	grep '^result\|^descriptors' /tmp/lb.out
	[ "$(pci_info failovers)" -gt "$f0" ] || ksft_fail "no failover after $fault"
	[ "$(dmesg | grep -c 'tonic: device lost')" = $((l0 + 1)) ] || ksft_fail "not logged exactly once"
	pci_wait_state up 30 || ksft_fail "device not back after $fault (state $(pci_info state))"
	pci_loopback 2 5000 > /tmp/lb.out || { cat /tmp/lb.out; ksft_fail "loopback after $fault"; }
	echo "$fault: back in service, $(pci_info resets) resets"
done
dmesg | grep 'tonic: device lost\|back in service'
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
