#!/bin/sh
# Short segments -- a write's last bytes, fewer than C -- go out as kernel
# TCP sends them.
#
# (a) With TCP_NODELAY a short segment holds back no write after it: the
# next burst follows it at once (TONIC_FLOW_SHORT_SEGS, sock-glue/carve.c).
# Before, a sub-segment stopped the carving until the device had its whole
# burst acked: a TCP_NODELAY writer of small messages got one message out
# per round trip, and a bulk sender's flight drained at every sub-segment,
# a loss at its tail then waiting for the RTO (10 of 16 RTOs in three 5 s
# runs at 1 % netem loss).
#
# (b) Without it, Nagle's rule with Minshall's variant: one short segment
# unacked at a time.  T (the wait before bytes left over go short) must
# not cut a second one while the first is out, or a sender of small writes
# puts one tiny segment on the wire per T.
#
# How: h2's ACKs wait 1 s on its egress, so nothing is acked for 1 s
# after the first write, and both TCPs' timers (a probe, the RTO) wait
# longer still.  The client writes small pieces 2 ms apart (each longer
# than T); 50 ms after the first reaches h2, what else h2 has left h1
# without waiting for an ACK: (a) all 4 x 1000 bytes, (b) of 12 x 100
# (less than one MSS in all: no full segment to send), the first 100
# only, with kernel cubic and with the offload alike.  Then the transfer
# must complete intact.  The client waits 1.5 s after its last write: a
# FIN would push out what Nagle holds.
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
got() {	# got PORT BYTES
	[ "$(rcvd "$1")" -ge "$2" ] 2>/dev/null
}

# run NAME PORT WRITE COUNT EXPECT CLIENT-OPTIONS...: COUNT writes of
# WRITE bytes; h2 must have EXPECT bytes before the first ACK is back.
run() {
	_name=$1 _port=$2 _wr=$3 _n=$4 _want=$5
	shift 5
	xfer_server h2 $_port /tmp/srv.65 || ksft_fail "$_name: server"
	_srv=$XFER_SRV_PID
	on h1 tonic_xfer -c 10.0.0.2 $_port $((_n * _wr)) -w $_wr -W 2 -V 1500 "$@" > /tmp/cli.65 2>&1 &
	_cli=$!
	wait_until 5 got $_port $_wr
	sleep 0.05
	_got=$(rcvd $_port)
	wait $_cli
	_rc=$?
	wait $_srv
	echo "$_name: h2 had $_got bytes before the first ACK; the transfer: rc $_rc"
	[ $_rc = 0 ] || sed 's/^/  client: /' /tmp/cli.65
	# (a FIN after them counts one more)
	check "$_name: $_want bytes left before the first ACK (got $_got)" \
		test "${_got:-0}" -ge $_want -a "${_got:-0}" -le $((_want + 1))
	check "$_name: the transfer completed intact" test $_rc = 0
}

$TC -n h2 qdisc add dev eth0 root netem delay 1000ms || ksft_fail "netem on h2"
run "(a) TCP_NODELAY, kernel cubic" 7500 1000 4 4000 -n -C cubic
run "(a) TCP_NODELAY, offload" 7501 1000 4 4000 -n -U -r
run "(b) Nagle, kernel cubic" 7502 100 12 100 -C cubic
run "(b) Nagle, offload" 7503 100 12 100 -U -r
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
echo "ok: short segments go as kernel TCP sends them"
