#!/bin/sh
# The soft device decides in the caller's context (issue 12's fast path):
# a 1-byte request of an offloaded ping-pong leaves in the sender's own
# write() -- its push runs the engine and the segment is transmitted before
# sendmsg returns, as tcp_sendmsg() sends -- and the reply's ACK closes the
# burst and frees the byte in TCP's receive path, so no round trip needs
# the flow's work (a kworker) at all.  Before, every request went push ->
# poller -> flow work -> transmit, two kworker hops per decision.
#
# Each request also carries the ACK of the reply before it, as kernel
# TCP's do: a data segment the offload sends is an ACK sent, for the
# socket's delayed-ACK state (tcp_event_ack_sent()), its ping-pong
# detection (tcp_event_data_sent()) and its window (tcp_select_window():
# rcv_wup follows, sock-glue/rcvwnd.c).  Before, the kernel still owed
# the reply its ACK after the request had carried it and sent it alone:
# two packets from h1 per round trip where kernel cubic sends one.  With
# replies of 256 bytes, a window left where the kernel last put it would
# have the kernel ACK alone every third reply ("more than one full frame
# received since the last window", __tcp_ack_snd_check()).
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 180
. /tests/lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || ksft_fail "mount tracefs"
buf=$(trace_buf_kb)
tonic_atexit 'echo 0 > $T/events/enable; echo > $T/trace; echo $buf > $T/buffer_size_kb'
echo 8192 > $T/buffer_size_kb
echo 1 > $T/events/tonic/tonic_sock_xmit/enable || ksft_fail "enable tonic:tonic_sock_xmit"
echo 1 > $T/events/workqueue/workqueue_execute_start/enable ||
	ksft_fail "enable workqueue:workqueue_execute_start"
# What else may wake the flow's work: the device's timers.
echo 1 > $T/events/tonic/tonic_timeout/enable || ksft_fail "enable tonic:tonic_timeout"
N=200
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}

# tx_pkts HOST: packets HOST's eth0 has sent.
tx_pkts() { on $1 cat /sys/class/net/eth0/statistics/tx_packets; }
on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
sleep 0.3
p0=$(tx_pkts h1)
on h1 tonic_xfer -c 10.0.0.2 7300 $N -Q -C cubic > /dev/null || fails=$((fails + 1))
wait
p1=$(tx_pkts h1)
on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
sleep 0.3
r0=$(awk '$1 == "soft.inline_runs" { print $2 }' /sys/kernel/debug/tonic/stats)
echo > $T/trace
on h1 tonic_xfer -c 10.0.0.2 7300 $N -Q -U -T 0 -r || fails=$((fails + 1))
wait
p2=$(tx_pkts h1)
cat $T/trace > /tmp/trace.62
r1=$(awk '$1 == "soft.inline_runs" { print $2 }' /sys/kernel/debug/tonic/stats)

xmits=$(grep -c "tonic_sock_xmit:.* err=0$" /tmp/trace.62)
own=$(grep -c "^ *tonic_xfer-.*tonic_sock_xmit:.* err=0$" /tmp/trace.62)
works=$(grep -c "workqueue_execute_start:.*function tonic_flow_work" /tmp/trace.62)
echo "$N round trips: $xmits segments sent, $own of them in tonic_xfer's write();" \
	"the flow's work ran $works times; $((r1 - r0)) inline engine runs"
check "no event lost (trace buffer)" eval '! grep -q "LOST.*EVENTS" /tmp/trace.62'
check "every request sent ($xmits >= $N)" test "$xmits" -ge $N
# The attach's first segment and an occasional retransmission may go another way.
check "the requests leave in the sender's write() ($own of $xmits, >= 95 %)" \
	test $((own * 100)) -ge $((xmits * 95))
check "the flow's work is not on the round trip ($works runs for $N round trips, <= 10 %)" \
	test $((works * 10)) -le $N
check "the engine ran inline ($((r1 - r0)) runs >= $N)" test $((r1 - r0)) -ge $N
# acks_carried WHAT CUBIC OFFLOAD: both connect and close, a few packets
# either way besides the requests.
acks_carried() {
	echo "packets h1 sent for $N round trips of $1: kernel cubic $2, the offload $3"
	check "the requests carry the replies' ACKs ($1: $3 packets, kernel cubic $2, <= +5 %)" \
		test $(($3 * 100)) -le $(($2 * 105))
}
acks_carried "1 byte" $((p1 - p0)) $((p2 - p1))
for mode in "-C cubic" "-U -T 0 -r"; do
	on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
	sleep 0.3
	_p=$(tx_pkts h1)
	on h1 tonic_xfer -c 10.0.0.2 7300 $N -Q -m 256 $mode > /dev/null || fails=$((fails + 1))
	wait
	echo $(($(tx_pkts h1) - _p))
done > /tmp/pkts.62
acks_carried "256 bytes" $(cat /tmp/pkts.62)

# A bulk transfer needs the flow's work no more than a ping-pong: the ACKs
# carve what the sender added while its data was in flight (ack.c), and
# T, the wait before the few bytes left over go as a sub-segment, starts
# again whenever they go out with later ones.  Before, every ACK that
# found such bytes queued the flow's work, and T fired every 500 us of a
# transfer however fast the sender wrote -- each time a sub-segment, whose
# burst the device must finish before the carving goes on.  Writes of
# 100000 bytes, never a multiple of C.
MB=32
subs() { awk '$1 == "sub_segments" { print $2 }' /sys/kernel/debug/tonic/stats; }
on h2 tonic_xfer -s 7301 > /dev/null 2>&1 &
sleep 0.3
echo > $T/trace
s0=$(subs)
on h1 tonic_xfer -c 10.0.0.2 7301 $((MB << 20)) -U -w 100000 -r || fails=$((fails + 1))
wait
subs=$(($(subs) - s0))
cat $T/trace > /tmp/trace.62b
works=$(grep -c "workqueue_execute_start:.*function tonic_flow_work" /tmp/trace.62b)
echo "$MB MB in writes of 100000 bytes: the flow's work ran $works times;" \
	"$(grep -c "tonic_timeout:" /tmp/trace.62b) timer expiries," \
	"$(grep -c "tonic_sock_xmit:.* rtx=1" /tmp/trace.62b) retransmissions," \
	"$subs sub-segments"
check "no event lost (trace buffer)" eval '! grep -q "LOST.*EVENTS" /tmp/trace.62b'
# 715 runs before, 4-5 after on Debian's and the debug kernel alike:
# at most one per MB leaves room for a busy host.
check "a bulk transfer runs without the flow's work ($works runs for $MB MB, <= $MB)" \
	test "$works" -le $MB
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
echo "ok: the fast path carries a ping-pong and a bulk transfer without the flow's work"
