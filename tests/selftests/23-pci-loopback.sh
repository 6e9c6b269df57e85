#!/bin/sh
# PCIe backend without the TCP glue: the driver's loopback self-test runs
# flows on the device, acking every descriptor, until every segment has been
# sent and acked: flow add/remove, push, incoming and the event ring, with
# descriptors per second and MMIO per descriptor in the guest.
# timeout: 120
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
for run in "1 2000" "4 20000" "16 5000"; do
	echo "loopback $run:"
	pci_loopback $run || ksft_fail "loopback $run"
	set -- $run
	[ "$(sed -n 's/^descriptors: //p' "$PCI_DEV/tonic_loopback")" -ge $(($1 * $2)) ] ||
		ksft_fail "fewer descriptors than segments"
done
pci_info flows | grep -qx 0 || ksft_fail "flows left on the device"
[ "$(pci_info bad_events)" = 0 ] || ksft_fail "bad events from a healthy device"
[ "$(pci_info failovers)" = 0 ] || ksft_fail "failovers without a fault"
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
