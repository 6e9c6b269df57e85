#!/bin/sh
# PCIe backend: unbinding the driver with flows running fails them over
# (with the TCP glue: an offloaded transfer still delivers every byte;
# without: loopback flows stop with FAILED), stops and resets the device;
# rebinding brings it back; the module still unloads cleanly.
# timeout: 120
. /tests/lib.sh
. /tests/pci-lib.sh
. /tests/netlink-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
bdf=$(basename "$PCI_DEV")
if grep -qw tonic /proc/sys/net/ipv4/tcp_available_congestion_control; then
	tonic_hosts 2 || ksft_fail "tonic_hosts"
	tonic_netem h1 delay 5ms rate 20mbit
	xfer_server h2 7201 /tmp/srv || ksft_fail "no server on h2:7201"
	on h1 tonic_xfer -c 10.0.0.2 7201 4000000 -C tonic > /tmp/cli 2>&1 & c=$!
	sleep 1
	echo "$bdf" > /sys/bus/pci/drivers/tonic_pci/unbind || ksft_fail "unbind"
	wait $c; rc=$?
	cat /tmp/cli /tmp/srv
	wait
	[ $rc = 0 ] || ksft_fail "bytes lost when the driver was unbound"
	# Failed over and finished: h1's namespace is charged for no flow any more.
	i=0
	while [ "$(on h1 $TONIC -j stats | $J .netns.flows)" != 0 ]; do
		i=$((i + 1)); [ $i -gt 50 ] && ksft_fail "h1 still charged for flows after the unbind"
		sleep 0.1
	done
	tonic_hosts_del
else
	echo "4 3000000" > "$PCI_DEV/tonic_loopback" || ksft_fail "start loopback"
	sleep 1
	t0=$(date +%s)
	echo "$bdf" > /sys/bus/pci/drivers/tonic_pci/unbind || ksft_fail "unbind"
	[ $(( $(date +%s) - t0 )) -le 3 ] || ksft_fail "unbind waited for the loopback to finish"
	echo "unbound with loopback flows running"
fi
[ -e "/sys/bus/pci/drivers/tonic_pci/$bdf" ] && ksft_fail "still bound"
echo "$bdf" > /sys/bus/pci/drivers/tonic_pci/bind || ksft_fail "bind"
pci_dev || ksft_fail "not bound again"
pci_info state | grep -qx up || ksft_fail "state after rebind: $(pci_info state)"
pci_loopback 2 5000 || ksft_fail "loopback after rebind"
sleep 1
$MODPROBE -r tonic || ksft_fail "unload with an unbound device"
exit $KSFT_PASS
