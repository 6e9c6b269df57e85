#!/bin/sh
# make bench-pci, guest half: descriptors per second through the real
# driver and the PCIe rings (the driver's loopback self-test: flows acked by
# the driver itself), MMIO per descriptor and descriptors per doorbell.
# timeout: 200
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
$MODPROBE tonic || ksft_fail "modprobe tonic"
pci_need_dev
echo "flows  segments/flow  desc/s     MMIO rd/desc  MMIO wr/desc  desc/doorbell"
for run in "1 20000" "4 20000" "16 10000"; do
	pci_loopback $run > /tmp/lb.out || { cat /tmp/lb.out; ksft_fail "loopback $run"; }
	v() { sed -n "s/^$1: //p" /tmp/lb.out; }
	set -- $run
	printf "%-6s %-14s %-10s %s\n" "$1" "$2" "$(v desc_per_s)" \
		"$(echo "$(v mmio_reads_per_desc_x100) $(v mmio_writes_per_desc_x100) $(v descs_per_doorbell_x100)" |
		   awk '{ printf "%-13.2f %-13.2f %.1f", $1 / 100, $2 / 100, $3 / 100 }')"
done
$MODPROBE -r tonic
exit $KSFT_PASS
