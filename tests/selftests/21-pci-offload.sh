#!/bin/sh
# PCIe backend: TCP transfers offloaded through the device model (IPv4 and
# IPv6, a lossy path) arrive intact, and the descriptors really crossed the
# PCIe rings (the driver's counters move; the glue attached the flows).
# timeout: 180
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
pci_need_offload
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 2ms
d0=$(pci_info descriptors)
a0=$(sed -n 's/^attaches *//p' /sys/kernel/debug/tonic/stats)

xfer() {	# xfer ADDR BYTES PORT
	xfer_server h2 "$3" /tmp/srv.$3 || ksft_fail "no server on h2:$3"
	on h1 tonic_xfer -c "$1" "$3" "$2" -C tonic || { cat /tmp/srv.$3; return 1; }
	wait
}
xfer 10.0.0.2 4000000 7001 || ksft_fail "IPv4 transfer through the PCIe Tonic"
xfer fd00::2 2000000 7002 || ksft_fail "IPv6 transfer through the PCIe Tonic"
tonic_netem h1 delay 2ms loss 1%
xfer 10.0.0.2 3000000 7003 || ksft_fail "lossy transfer through the PCIe Tonic"

cat /sys/kernel/debug/tonic/stats
grep -E '^(commands|events|descriptors|doorbells|mmio_|bad_|failovers)' "$PCI_DEV/tonic_info"
d1=$(pci_info descriptors)
a1=$(sed -n 's/^attaches *//p' /sys/kernel/debug/tonic/stats)
[ "$a1" -ge $((a0 + 3)) ] || ksft_fail "flows were not attached (attaches $a0 -> $a1)"
[ "$d1" -gt $((d0 + 2000)) ] || ksft_fail "few descriptors crossed the rings ($d0 -> $d1)"
[ "$(pci_info failovers)" = 0 ] || ksft_fail "flows failed over without a fault"
tonic_hosts_del
sleep 1
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
