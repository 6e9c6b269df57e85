#!/bin/sh
# The socket tracepoints (tonic:tonic_sock_*) through tracefs during
# offloaded transfers, IPv4 and IPv6: each event carries the socket's
# addresses and ports (as tcp:tcp_probe: src=ADDR:PORT dest=ADDR:PORT) and
# fires where it happens: the attach in the sending application's own
# call, the ACK commit in TCP's receive path, the handback of a toggle-off
# by the application; the transmit events add up to the segments and
# retransmissions the TCP integration counted (segs_tx, segs_rtx).  The
# device's events (tonic_flow_add/remove, tonic_segment_out, tonic_ack_in)
# carry the same 4-tuple, the one the flow's socket had at attach.
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 180
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || ksft_fail "mount tracefs"
buf=$(trace_buf_kb)
tonic_atexit 'echo 0 > $T/events/tonic/enable; echo > $T/trace; echo $buf > $T/buffer_size_kb'
# Room for every transmit event of a 6 MB transfer (the sums below need all).
echo 8192 > $T/buffer_size_kb
for e in tonic_sock_attach tonic_sock_ack tonic_sock_handback tonic_sock_push_refused \
	tonic_sock_xmit; do
	[ -d $T/events/tonic/$e ] || ksft_fail "no tracepoint tonic:$e"
done
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}
echo 1 > $T/events/tonic/tonic_sock_attach/enable
echo 1 > $T/events/tonic/tonic_sock_ack/enable
echo 1 > $T/events/tonic/tonic_sock_handback/enable
echo 1 > $T/events/tonic/tonic_sock_xmit/enable
for e in tonic_flow_add tonic_flow_remove tonic_segment_out tonic_ack_in; do
	echo 1 > $T/events/tonic/$e/enable || ksft_fail "enable tonic:$e"
done

# run ADDR SRC_RE DST_RE: a toggled transfer to ADDR, its events checked
run() {
	echo > $T/trace
	tx0=$(glue_stat segs_tx) rtx0=$(glue_stat segs_rtx)
	# -t: off and on again every 2 MB (the application's toggle: handbacks)
	xfer h1 h2 "$1" 6000000 -U -t 2000000 -i -r || fails=$((fails + 1))
	port=$XFER_PORT
	cat $T/trace > /tmp/trace.59
	echo "$(grep -c tonic_sock /tmp/trace.59) events; first of each:"
	for e in sock_attach sock_ack sock_handback sock_xmit flow_add flow_remove segment_out ack_in; do
		grep -m1 "tonic_$e:" /tmp/trace.59
	done
	tuple="src=$2:[0-9]+ dest=$3:$port( |$)"
	check "$1: attach events with the 4-tuple" grep -Eq "tonic_sock_attach: $tuple.*dev=[a-z0-9]+ flow=[0-9]+ prog=[a-z]+ seg_size=[1-9]" /tmp/trace.59
	check "$1: ack events with the 4-tuple" grep -Eq "tonic_sock_ack: $tuple.*flow=[0-9]+ snd_una=[0-9]+ cum_ack=[0-9]+" /tmp/trace.59
	check "$1: handback events with the 4-tuple" grep -Eq "tonic_sock_handback: $tuple.*flow=[0-9]+ state=[0-9]+ bytes=[0-9]+" /tmp/trace.59
	check "$1: xmit events with the 4-tuple" grep -Eq "tonic_sock_xmit: $tuple.*flow=[0-9]+ seq=[0-9]+ len=[1-9][0-9]* segs=[1-9][0-9]* rtx=[01] err=-?[0-9]+" /tmp/trace.59
	check "$1: device flow_add events with the 4-tuple" grep -Eq "tonic_flow_add: dev=[a-z0-9]+ flow=[0-9]+ $tuple.*prog=[a-z]+" /tmp/trace.59
	check "$1: device flow_remove events with the 4-tuple" grep -Eq "tonic_flow_remove: dev=[a-z0-9]+ flow=[0-9]+ $tuple" /tmp/trace.59
	check "$1: device segment_out events with the 4-tuple" grep -Eq "tonic_segment_out: dev=[a-z0-9]+ flow=[0-9]+ $tuple.*seg=[0-9]+ len=[1-9]" /tmp/trace.59
	check "$1: device ack_in events with the 4-tuple" grep -Eq "tonic_ack_in: dev=[a-z0-9]+ flow=[0-9]+ $tuple.*cum_ack=[0-9]+" /tmp/trace.59
	check "$1: no device event with another tuple" eval \
		'! grep -E "tonic_(flow_add|flow_remove|segment_out|ack_in):" /tmp/trace.59 | grep -Evq "$tuple"'
	check "$1: no event lost (trace buffer)" eval '! grep -q "LOST.*EVENTS" /tmp/trace.59'
	# What went out (err=0), in descriptors: the counters' deltas.
	sum=$(sed -n 's/.*tonic_sock_xmit: .* segs=\([0-9]*\) rtx=\([01]\) err=0$/\1 \2/p' /tmp/trace.59 |
		awk '{ tx += $1; if ($2) rtx += $1 } END { print tx + 0, rtx + 0 }')
	want="$(($(glue_stat segs_tx) - tx0)) $(($(glue_stat segs_rtx) - rtx0))"
	check "$1: xmit events' segs (sent, resent) = $sum, counters' $want" test "$sum" = "$want"
	# Every socket event of this test is this connection's (the server does not offload).
	check "$1: no event with another tuple" eval '! grep "tonic_sock_" /tmp/trace.59 | grep -Evq "$tuple"'
	# The attach runs in the application's send, the toggle's handback in its setsockopt.
	check "$1: attach in tonic_xfer's own context" eval \
		'! grep "tonic_sock_attach:" /tmp/trace.59 | grep -vq "^ *tonic_xfer-"'
	check "$1: some handback in tonic_xfer's own context" grep -Eq "^ *tonic_xfer-.*tonic_sock_handback:" /tmp/trace.59
	check "$1: at least 3 attaches (toggles)" test "$(grep -c 'tonic_sock_attach:' /tmp/trace.59)" -ge 3
}
run 10.0.0.2 10.0.0.1 10.0.0.2
run fd00::2 '\[fd00::1\]' '\[fd00::2\]'

echo "== the device refuses the first push (the soft device's fail_push knob)"
FAIL_PUSH=/sys/kernel/debug/tonic_soft0/fail_push
echo 1 > $T/events/tonic/tonic_sock_push_refused/enable
echo > $T/trace
echo 1 > $FAIL_PUSH
xfer h1 h2 10.0.0.2 2000000 -U || fails=$((fails + 1))
echo 0 > $FAIL_PUSH
cat $T/trace > /tmp/trace.59
grep -m1 "tonic_sock_push_refused:" /tmp/trace.59
tuple="src=10.0.0.1:[0-9]+ dest=10.0.0.2:$XFER_PORT "
check "push refused: one event with the 4-tuple" \
	test "$(grep -Ec "tonic_sock_push_refused: $tuple.*flow=[0-9]+ tail=[1-9][0-9]* err=-[1-9]" /tmp/trace.59)" = 1
check "push refused: then a handback with the 4-tuple" grep -Eq "tonic_sock_handback: $tuple" /tmp/trace.59
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
exit $KSFT_PASS
