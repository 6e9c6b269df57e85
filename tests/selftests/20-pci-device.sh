#!/bin/sh
# PCIe backend: the Tonic function behind ivshmem (device model on the host)
# is bound by tonic_pci, identifies itself, is the default Tonic device, and
# survives module reload (reset handshake with a device left running).
# timeout: 90
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
for round in 1 2; do
	tonic_load || ksft_fail "modprobe tonic (round $round)"
	pci_need_dev
	echo "round $round: $PCI_DEV"
	cat "$PCI_DEV/tonic_info"
	pci_info state | grep -qx up || ksft_fail "device state is not up"
	pci_info version | grep -qx '1\.1' || ksft_fail "unexpected version"
	# CAP_PARAM (0x8): the model takes program parameters (FLOW_PARAM).
	[ $(($(pci_info caps) & 0x8)) = 8 ] || ksft_fail "no CAP_PARAM in caps $(pci_info caps)"
	[ "$(pci_info max_flows)" -ge 1 ] || ksft_fail "no flows"
	[ "$(pci_info cycle_ps)" -ge 1 ] || ksft_fail "no cycle"
	pci_info programs | grep -qw newreno || ksft_fail "device has no newreno program"
	# The default device is the first registered (debugfs names it once the glue is in).
	if [ -e /sys/kernel/debug/tonic/stats ]; then
		dev=$(sed -n 's/^dev *//p' /sys/kernel/debug/tonic/stats)
	else
		dev=$(dmesg | sed -n 's/.*tonic: device \([^ ]*\) registered.*/\1/p' | tail -n 2 | head -n 1)
	fi
	echo "default Tonic device: $dev"
	case $dev in pci-*) ;; *) ksft_fail "default device is $dev, not the PCIe one" ;; esac
	$MODPROBE -r tonic || ksft_fail "modprobe -r tonic (round $round)"
done
exit $KSFT_PASS
