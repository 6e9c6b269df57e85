#!/bin/sh
# Byte guarantees of the offloaded send path on a bad network, next to
# kernel cubic (issue 11): MSG_ZEROCOPY, vmsplice+splice and file splice
# under delay, loss and reordering, 5 runs each -- every run finishes in
# time with every byte, and no sender is left in D state; and a route that
# turns unreachable (then prohibited) for one second in the middle of a
# 60 MB transfer through a router, with IP_RECVERR set: the sender retries
# the soft error (EHOSTUNREACH) and the stream completes.
# timeout: 290
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/bytes-lib.sh
XFER_PORT=7500
fail() { BX_FAILS=$((BX_FAILS + 1)); }
$MODPROBE tonic || ksft_fail "modprobe tonic"

echo "== MSG_ZEROCOPY and splice() under netem delay 1ms loss 1% reorder 10% 50% (both ways), 5 runs each"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 1ms loss 1% reorder 10% 50%
tonic_netem h2 delay 1ms loss 1% reorder 10% 50%
for m in -Z -p_v -p_f; do
	m=$(echo "$m" | tr _ ' ')
	for cc in tonic cubic; do
		n=0
		for run in 1 2 3 4 5; do
			# shellcheck disable=SC2086
			bx "$m, $cc, run $run" 40 h1 h2 10.0.0.2 3000000 -C $cc -B 300000 $m -i &&
				n=$((n + 1))
			[ $BX_RC = 0 ] || fail
		done
		echo "-- $m, $cc: $n of 5 runs intact"
	done
done

echo "== IP_RECVERR, the route unreachable for 1 s mid-transfer (h1 - r - h2), 60 MB"
tonic_hosts_del
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
for kind in unreachable prohibit; do
	for cc in cubic tonic; do
		# The route goes away 1.5 s into the transfer, for 1 s.
		( sleep 1.5; $IP -n r route add $kind 10.1.2.2/32
		  sleep 1; $IP -n r route del $kind 10.1.2.2/32 ) &
		blk=$!
		bx "route $kind for 1 s, IP_RECVERR, $cc" 90 h1 h2 10.1.2.2 60000000 -C $cc -Y -i || fail
		wait $blk
		$IP -n r route del $kind 10.1.2.2/32 2> /dev/null
		grep -q '^client: [1-9][0-9]* soft errors' /tmp/bx.cli ||
			echo "    (note: no soft error reached the sender this time)"
	done
done

bx_verdict
tonic_hosts_del
[ -n "$BX_HUNG" ] || tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
