#!/bin/sh
# Byte guarantees of the offloaded send path when ICMP says the route is
# gone, next to kernel cubic (issue 11): h1 - r - h2 through a router; the
# route to h2 turns unreachable (then prohibited) on r for one second in
# the middle of a 60 MB transfer, with IP_RECVERR set on the sender.  The
# sender sees the soft error (EHOSTUNREACH) once, retries as a careful
# application does, and the stream completes, intact, without a stall.
# timeout: 250
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/bytes-lib.sh
XFER_PORT=7530
fail() { BX_FAILS=$((BX_FAILS + 1)); }
bx_load || ksft_fail "modprobe tonic"

echo "== IP_RECVERR, the route unreachable for 1 s mid-transfer (h1 - r - h2), 60 MB"
tonic_hosts_del
$MODPROBE veth || ksft_fail "modprobe veth"
for n in h1 r h2; do
	$IP netns add $n
	$IP -n $n link set lo up
done
$IP link add eth0 netns h1 type veth peer name e1 netns r
$IP link add eth0 netns h2 type veth peer name e2 netns r
$IP -n h1 addr add 10.1.1.1/24 dev eth0
$IP -n r addr add 10.1.1.254/24 dev e1
$IP -n r addr add 10.1.2.254/24 dev e2
$IP -n h2 addr add 10.1.2.2/24 dev eth0
for l in "h1 eth0" "r e1" "r e2" "h2 eth0"; do
	set -- $l
	$IP -n "$1" link set "$2" up
done
$IP -n h1 route add default via 10.1.1.254
$IP -n h2 route add default via 10.1.2.254
on r sysctl -qw net.ipv4.ip_forward=1
tonic_netem h1 delay 1ms rate 100mbit
on h1 ping -c 1 -W 2 10.1.2.2 > /dev/null || ksft_fail "no route h1 -> h2 through r"
# blackout KIND: once h1's connection is established, 1 s later the route
# to h2 turns KIND on r for 1 s.
blackout() {
	i=0
	while [ -z "$(on h1 $SS -Htn state established dst 10.1.2.2)" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	$IP -n r route add "$1" 10.1.2.2/32
	sleep 1
	$IP -n r route del "$1" 10.1.2.2/32
}
# Twice each for the offload (it stalled in one run of two), once for cubic.
for kind in unreachable prohibit; do
	for cc in cubic tonic tonic; do
		blackout $kind &
		blk=$!
		bx "route $kind for 1 s, IP_RECVERR, $cc" 40 h1 h2 10.1.2.2 60000000 -C $cc -Y -i || fail
		wait $blk
		$IP -n r route del $kind 10.1.2.2/32 2> /dev/null
		grep -q 'soft error' /tmp/bx.cli ||
			echo "    (note: no soft error reached the sender this time)"
	done
done

bx_verdict
tonic_hosts_del
[ -n "$BX_HUNG" ] || tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
