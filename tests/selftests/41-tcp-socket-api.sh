#!/bin/sh
# TCP send-path offload, the socket API: many small writes with
# TCP_NODELAY, sendfile(), a non-blocking socket under epoll, SHUT_WR
# half-close, close() with data still in flight (all data, then EOF, and
# close() does not wait), the peer resetting mid-transfer, a slow reader
# (zero windows), offload per socket (TCP_ULP) with program, C > MSS (GSO)
# and T chosen by socket options.
# timeout: 300
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
tonic_netem h1 delay 2ms
fails=0
ok() { "$@" || { fails=$((fails + 1)); echo "FAILED: $*"; }; }

echo "== small writes with TCP_NODELAY, and without"
ok xfer h1 h2 10.0.0.2 300000 -n -w 100 -r -i
ok xfer h1 h2 fd00::2 100000 -w 7 -r -i
echo "== sendfile()"
ok xfer h1 h2 10.0.0.2 8000000 -f -r -i
ok xfer h1 h2 fd00::2 3000001 -f -r
echo "== non-blocking socket under epoll"
ok xfer h1 h2 10.0.0.2 8000000 -e -r -i
ok xfer h1 h2 fd00::2 2000000 -e -n -w 3000 -r
echo "== per socket: TCP_ULP, program, C > MSS (GSO), T"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
ok xfer h1 h2 10.0.0.2 6000000 -U -P sack -S 8192 -r -i
ok xfer h1 h2 fd00::2 6000000 -U -S 30000 -r -i
ok xfer h1 h2 10.0.0.2 500000 -U -T 0 -w 1000 -r -i
ok xfer h1 h2 10.0.0.2 500000 -U -T 20000 -w 1000 -r -i
xfer h1 h2 10.0.0.2 3000000 -r
[ $? = 3 ] || { echo "a plain cubic socket: not offloaded, intact (exit 3) expected"; fails=$((fails + 1)); }
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic

echo "== a slow reader: the window closes and opens again"
XFER_SRV_ARGS="-D 20" ok xfer h1 h2 10.0.0.2 3000000 -r -i

echo "== SHUT_WR half-close (the reply comes back after the FIN)"
ok xfer h1 h2 10.0.0.2 1000000 -r
# The device sends what it holds at SHUT_WR, TCP only the FIN after it:
# on a slow path most of the send buffer is still queued then, and a short
# transfer may not have been named at all.
tonic_netem h1 delay 5ms rate 20mbit
hb=$(glue_stat handback_bytes)
for sz in 2000000 1000; do
	ok xfer h1 h2 10.0.0.2 $sz -r -i
	grep -q "queued $sz acked $sz " /tmp/xfer.cli ||
		{ echo "FAILED: SHUT_WR: the device did not carry all of $sz bytes"; fails=$((fails + 1)); }
done
[ "$(glue_stat handback_bytes)" = "$hb" ] ||
	{ echo "FAILED: SHUT_WR handed $(($(glue_stat handback_bytes) - hb)) bytes to TCP"; fails=$((fails + 1)); }
tonic_netem h1 delay 2ms
echo "== close() with data in flight: every byte, then EOF; close() returns at once"
tonic_netem h1 delay 20ms rate 50mbit
for bytes in 4000000 100; do
	XFER_PORT=$((XFER_PORT + 1))
	xfer_server h2 $XFER_PORT /tmp/srv.x || ksft_fail "no server on h2:$XFER_PORT"
	t0=$(date +%s)
	on h1 tonic_xfer -c 10.0.0.2 $XFER_PORT $bytes -x -i > /tmp/cli.x 2>&1 || fails=$((fails + 1))
	t1=$(date +%s)
	wait
	cat /tmp/cli.x /tmp/srv.x
	want=$(sed -n 's/^client: sent //p' /tmp/cli.x)
	got=$(sed -n 's/^server: //p' /tmp/srv.x)
	[ -n "$want" ] && [ "$want" = "$got" ] || { echo "close in flight: sent '$want' got '$got'"; fails=$((fails + 1)); }
	# The whole client run, in whole seconds; a debug kernel is slower.
	[ $((t1 - t0)) -le $TONIC_TIMEOUT_SCALE ] || { echo "close() blocked $((t1 - t0)) s"; fails=$((fails + 1)); }
done
[ "$(glue_stat handbacks)" -ge 1 ] || { echo "no close handed bytes back to TCP"; fails=$((fails + 1)); }
echo "== an idle socket keeps no page once its bytes are acked"
# 10000 bytes end 1808 bytes into the send buffer's third page; the
# client then pauses 3 s.  Once all is acked the flow holds no page (the
# flows file's last column): a page kept for the tail pinned the whole
# compound page it was cut from (32 KB), for as long as the socket idled.
tonic_netem h1 delay 2ms
wait_flows_gone 10 || { echo "FAILED: flows left before the idle check"; fails=$((fails + 1)); }
xfer_server h2 7411 /tmp/srv.41i
on h1 tonic_xfer -c 10.0.0.2 7411 20000 -B 10000 -y $((3000 * TONIC_TIMEOUT_SCALE)) -r > /tmp/cli.41i 2>&1 &
cli=$!
sleep $((1 * TONIC_TIMEOUT_SCALE))
line=$(tail -n +2 /sys/kernel/debug/tonic/flows)
echo "the flow, pausing: $line"
pages=$(echo "$line" | awk 'NF { print $NF }')
[ "$pages" = 0 ] || { echo "FAILED: an idle socket holds ${pages:-no flow, so ?} page(s)"; fails=$((fails + 1)); }
wait $cli || { cat /tmp/cli.41i; echo "FAILED: the paused transfer"; fails=$((fails + 1)); }
wait
echo "== the peer resets mid-transfer"
tonic_netem h1 delay 2ms
XFER_SRV_ARGS="-R 2000000" ok xfer h1 h2 10.0.0.2 50000000 -E
XFER_SRV_ARGS="-R 100000" ok xfer h1 h2 fd00::2 50000000 -E -e
$TC -n h1 qdisc del dev eth0 root
wait_flows_gone 10 || { echo "flows left on the device"; fails=$((fails + 1)); }
cat /sys/kernel/debug/tonic/stats | head -18
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
