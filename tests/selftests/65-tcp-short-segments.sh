#!/bin/sh
# A short segment -- a write's last bytes, fewer than C -- does not hold
# back the writes after it until it is acked: the next burst follows it at
# once (TONIC_FLOW_SHORT_SEGS, sock-glue/carve.c), as kernel TCP sends a
# small segment and goes on.  Before, a sub-segment stopped the carving
# until the device had its whole burst acked: a TCP_NODELAY writer of
# small messages got one message out per round trip, and a bulk sender's
# flight drained at every sub-segment, a loss at its tail then waiting
# for the RTO (10 of 16 RTOs in three 5 s runs at 1 % netem loss).
#
# The check: once the connection is up, h2's ACKs are lost; the client
# then writes 4 x 1000 bytes with TCP_NODELAY, 10 ms apart (well inside
# the 200 ms RTO).  With no ACK coming back, whatever reaches h2 left h1
# without waiting for one: kernel cubic and the offload alike must deliver
# all 4000 bytes.  Then the ACKs flow again and the transfer must complete
# intact.
# timeout: 120
. /tests/lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_atexit "$TC -n h2 qdisc del dev eth0 root 2>/dev/null"
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}

# rcvd PORT: bytes h2's connection on PORT has received (tcp_info; its FIN
# counts one more).
rcvd() {
	on h2 $SS -Htin "sport = :$1" | sed -n 's/.*bytes_received:\([0-9]*\).*/\1/p' | head -1
}
established() {
	[ -n "$(on h2 $SS -Htn state established "sport = :$1")" ]
}
got_all() {
	[ "$(rcvd "$1")" -ge 4000 ] 2>/dev/null
}

# run NAME PORT CLIENT-OPTIONS...
run() {
	_name=$1 _port=$2
	shift 2
	xfer_server h2 $_port /tmp/srv.65 || ksft_fail "$_name: server"
	_srv=$XFER_SRV_PID
	on h1 tonic_xfer -c 10.0.0.2 $_port 4000 -w 1000 -n -W 10 -y 1000 "$@" \
		> /tmp/cli.65 2>&1 &
	_cli=$!
	wait_until 5 established $_port || ksft_fail "$_name: no connection"
	$TC -n h2 qdisc add dev eth0 root netem loss 100% || ksft_fail "netem on h2"
	wait_until 3 got_all $_port
	_got=$(rcvd $_port)
	$TC -n h2 qdisc del dev eth0 root
	wait $_cli
	_rc=$?
	wait $_srv
	echo "$_name: h2 had $_got of 4000 bytes while its ACKs were lost; the transfer: rc $_rc"
	[ $_rc = 0 ] || sed 's/^/  client: /' /tmp/cli.65
	check "$_name: every write left with no ACK back ($_got of 4000 bytes)" test "${_got:-0}" -ge 4000
	check "$_name: the transfer completed intact" test $_rc = 0
}

run "kernel cubic" 7500 -C cubic
run "offload" 7501 -U -r
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
echo "ok: a short segment holds back no later write, as with kernel TCP"
