#!/bin/sh
# make bench-pci, guest half: descriptors per second through the real
# driver and the PCIe rings (the driver's loopback self-test: flows acked by
# the driver itself), MMIO per descriptor and descriptors per doorbell.
# Then issue 12's PCIe row: iperf3 h1 -> h2 on a clean path, offloaded
# through the PCIe device (the default device here: the engine runs in the
# device model, outside the guest) against kernel cubic, same boot:
# goodput and the whole guest's CPU per GB (bench-lib.sh, as bench-e2e).
# timeout: 400
. /tests/lib.sh
. /tests/pci-lib.sh
. /tests/bench-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
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

T=5 R=3
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h2 $IPERF -s -D -p 5201 -I /tmp/iperf.pid
sleep 0.5
d0=$(pci_info descriptors)
set -- $(cell cubic) $(cell tonic)
d1=$(pci_info descriptors)
echo "TCP, clean, iperf3 $T s, median of $R: goodput (Mbit/s) and whole-guest CPU (s per GB)"
awk -v gc=$1 -v cc=$2 -v gt=$3 -v ct=$4 'BEGIN {
	printf "  kernel cubic %8.1f %6.1f\n  offload (PCIe) %6.1f %6.1f\n  offload/cubic %6.2f %6.2f\n",
		gc, cc, gt, ct, (gc > 0 ? gt / gc : 0), (cc > 0 ? ct / cc : 0) }'
echo "  descriptors through the rings meanwhile: $((d1 - d0))"
[ $((d1 - d0)) -gt 1000 ] || ksft_fail "the offloaded runs did not go through the PCIe device"
kill $(cat /tmp/iperf.pid)
tonic_hosts_del
sleep 1
$MODPROBE -r tonic
exit $KSFT_PASS
