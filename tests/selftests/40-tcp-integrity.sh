#!/bin/sh
# TCP send-path offload, integrity: transfers of 1 B .. 1 GiB offloaded by
# the admin (congestion control "tonic" in the sender's namespace) arrive
# byte for byte (SHA-256 at the receiver), over IPv4 and IPv6, for cubic,
# newreno and sack, on a clean path and with netem loss 1 % and 5 %, reordering,
# duplication and a mix; every socket really ran on the device.
# timeout: 480
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
fails=0
check() { xfer h1 h2 "$@" -r || fails=$((fails + 1)); }

for sz in 1 1000 1448 65537 1000000 64000000; do
	check 10.0.0.2 $sz
done
XFER_TIMEOUT=$((300 * TONIC_TIMEOUT_SCALE)) check 10.0.0.2 1073741824
check fd00::2 1
check fd00::2 7777777
# The received stream itself, checked with the real sha256sum too.
XFER_SRV_ARGS="-o /tmp/recv.bin" xfer h1 h2 10.0.0.2 3000000 -r -i || fails=$((fails + 1))
h=$(sha256sum /tmp/recv.bin | cut -d' ' -f1)
grep -q "$h" /tmp/xfer.cli || { echo "sha256sum $h differs"; fails=$((fails + 1)); }
rm -f /tmp/recv.bin

for prog in cubic newreno sack; do
	for net in "loss 1%" "loss 5%" "delay 2ms reorder 25% 50%" "duplicate 5%" \
		   "delay 1ms loss 2% duplicate 2% reorder 10% 50%"; do
		echo "== $prog, netem $net"
		tonic_netem h1 $net
		tonic_netem h2 $net
		check 10.0.0.2 2500000 -P $prog -i
		check fd00::2 1500000 -P $prog -i
	done
done
$TC -n h1 qdisc del dev eth0 root
$TC -n h2 qdisc del dev eth0 root
cat /sys/kernel/debug/tonic/stats
[ "$(glue_stat segs_rtx)" -gt 0 ] || { echo "no retransmission by the device under loss"; fails=$((fails + 1)); }
wait_flows_gone 10 || { echo "flows left on the device"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails transfer(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
exit $KSFT_PASS
