#!/bin/sh
# Dynamic RDMA (seed 003, tonic_drdma.ko, Documentation/drdma.rst): writes
# and reads of 128 KiB (the seed's size) between two hosts on a bridge,
# h1 the initiator, h2 lending a file's memory (tonic-drdma serve).
#  * Clean: both policies, both types; a valid REQ_ACK every time, so
#    direct; every byte where it belongs.
#  * The seed's mode choice: silence (a slow registration) or an invalid
#    REQ_ACK (a refused one) -> indirect, the data kept in the indirect
#    buffer and moved to the memory when registered; the direct policy
#    waits instead.
#  * 10 % frame loss both ways, refusals and slow registrations: every
#    transfer completes, every byte verified.
#  * A responder that never registers: the transfer fails after the
#    timeouts, and the indirect buffer is freed.
#  * Malformed frames and a replayed one: dropped and counted; requests
#    past max_responders too.
#  * No CAP_NET_RAW: EPERM.  An interface going away: a clean ENODEV, on
#    both sides.  The module unloads.
# timeout: 400
. /tests/lib.sh
D=/usr/bin/tonic-drdma
INJ=/usr/bin/tonic_drdma_inject
P=/sys/module/tonic_drdma/parameters

$MODPROBE tonic_drdma || ksft_fail "modprobe tonic_drdma"
tonic_hosts 2 || ksft_fail "hosts"
M1=$(on h1 cat /sys/class/net/eth0/address)
M2=$(on h2 cat /sys/class/net/eth0/address)
head -c 131072 /dev/urandom > /tmp/src

# stat NAME: a counter of tonic-drdma stats.
stat() {
	$D stats | awk -v k="$1" '$1 == k { print $2 }'
}

# serve NAME ARGS...: h2 lends /tmp/NAME (4 MiB) in the background
# (output /tmp/NAME.out, pid SERVE: ip netns exec execs it); returns once
# it lends.
serve() {
	_n=$1; shift
	rm -f /tmp/$_n
	$IP netns exec h2 $D serve eth0 /tmp/$_n 4194304 "$@" > /tmp/$_n.out 2>&1 &
	SERVE=$!
	wait_until 10 grep -q lending /tmp/$_n.out || { cat /tmp/$_n.out; ksft_fail "serve $*"; }
}

# at MEM OFFSET: /tmp/src is at OFFSET (bytes, a multiple of 1024) of /tmp/MEM.
at() {
	dd if=/tmp/$1 bs=1024 skip=$(($2 / 1024)) count=128 2>/dev/null | cmp -s - /tmp/src
}

# xfer EXPECT OP ARGS...: tonic-drdma -j OP eth0 (on h1), its JSON in $J;
# EXPECT ok or fail.
xfer() {
	_e=$1; shift
	_op=$1; shift
	J=$(on h1 $D -j $_op eth0 $M2 "$@")
	_rc=$?
	echo "$_op $*: $J"
	if [ "$_e" = ok ]; then
		[ $_rc = 0 ] || ksft_fail "$_op $*: failed: $J"
	else
		[ $_rc != 0 ] || ksft_fail "$_op $*: succeeded: $J"
	fi
}

mode() {
	echo "$J" | sed 's/.*"mode":"\([a-z]*\)".*/\1/'
}

# Clean, every combination: direct, every byte in place.
serve clean count 4
xfer ok write 0 /tmp/src direct
[ "$(mode)" = direct ] || ksft_fail "clean direct write went $(mode)"
xfer ok write 262144 /tmp/src dynamic
[ "$(mode)" = direct ] || ksft_fail "clean dynamic write went $(mode) (a valid REQ_ACK came)"
xfer ok read 0 131072 /tmp/r1 direct
xfer ok read 262144 131072 /tmp/r2 dynamic
[ "$(mode)" = direct ] || ksft_fail "clean dynamic read went $(mode)"
wait $SERVE || ksft_fail "serve: $(cat /tmp/clean.out)"
echo "responder: $(tail -1 /tmp/clean.out)"
grep -q "served 4 transfers; 4 registrations" /tmp/clean.out || ksft_fail "serve: $(cat /tmp/clean.out)"
at clean 0 && at clean 262144 || ksft_fail "written bytes differ"
cmp /tmp/src /tmp/r1 && cmp /tmp/src /tmp/r2 || ksft_fail "read bytes differ"

# Silence (registration takes 150 ms, the request timer is 20 ms): the
# dynamic write goes indirect after the second timeout; its data waits in
# the indirect buffer and is moved when registered.  The direct one waits.
b0=$(stat indirect_buffered_bytes) d0=$(stat indirect_drained_bytes)
serve slow count 3 delay 150
xfer ok write 0 /tmp/src dynamic
[ "$(mode)" = indirect ] || ksft_fail "slow registration: dynamic write went $(mode)"
b1=$(stat indirect_buffered_bytes) d1=$(stat indirect_drained_bytes)
echo "indirect buffer: $((b1 - b0)) bytes kept, $((d1 - d0)) moved to memory"
[ $((b1 - b0)) -gt 0 ] && [ $((b1 - b0)) = $((d1 - d0)) ] ||
	ksft_fail "indirect buffer: $((b1 - b0)) bytes kept, $((d1 - d0)) moved"
xfer ok write 262144 /tmp/src direct
[ "$(mode)" = direct ] || ksft_fail "slow registration: direct write went $(mode)"
xfer ok read 524288 131072 /tmp/r3 dynamic
wait $SERVE || ksft_fail "serve: $(cat /tmp/slow.out)"
at slow 0 && at slow 262144 || ksft_fail "slow: written bytes differ"
dd if=/tmp/slow bs=1024 skip=512 count=128 2>/dev/null | cmp -s - /tmp/r3 ||
	ksft_fail "slow: read bytes differ from the lent memory"

# An invalid REQ_ACK (the first registration refused): indirect at once;
# the next request is registered.
i0=$(stat req_ack_invalid_tx)
serve refused count 1 refuse-first 1
xfer ok write 0 /tmp/src dynamic
[ "$(mode)" = indirect ] || ksft_fail "refused registration: dynamic write went $(mode)"
[ "$(stat req_ack_invalid_tx)" = $((i0 + 1)) ] || ksft_fail "invalid REQ_ACKs: $(($(stat req_ack_invalid_tx) - i0)), not 1"
wait $SERVE
at refused 0 || ksft_fail "refused then registered: bytes differ"

# 10 % loss both ways, refusals (20 %) and slow registrations (30 ms):
# every transfer ends well, every byte in place.
tonic_netem h1 loss 10%
tonic_netem h2 loss 10%
serve lossy count 12 refuse 0.2 delay 30 seed 7
n=0
for pol in direct dynamic direct dynamic direct dynamic; do
	xfer ok write $((n * 262144)) /tmp/src $pol
	xfer ok read $((n * 262144)) 131072 /tmp/lr$n $pol
	cmp -s /tmp/src /tmp/lr$n || ksft_fail "lossy read $n ($pol): bytes differ"
	n=$((n + 1))
done
wait $SERVE || ksft_fail "serve: $(cat /tmp/lossy.out)"
n=0
while [ $n -lt 6 ]; do
	at lossy $((n * 262144)) || ksft_fail "lossy write $n: bytes differ"
	n=$((n + 1))
done
echo "after the lossy part: retransmits $(stat retransmits) (fast $(stat fast_retransmits)), timeouts $(stat timeouts), indirect $(stat indirect)"
$TC -n h1 qdisc del dev eth0 root
$TC -n h2 qdisc del dev eth0 root

# A responder that never registers: the dynamic write goes indirect, its
# data fills the indirect buffer, and it fails after its timeouts; the
# abort frees the buffer (nothing buffered is left).
f0=$(stat failed)
serve never never
xfer fail write 0 /tmp/src dynamic
echo "$J" | grep -q '"mode":"indirect"' || ksft_fail "never registered: not indirect"
wait_until 5 [ $(($(stat indirect_buffered_bytes) - $(stat indirect_drained_bytes) - $(stat indirect_freed_bytes))) = 0 ] ||
	ksft_fail "indirect buffer not freed: buffered $(stat indirect_buffered_bytes) drained $(stat indirect_drained_bytes) freed $(stat indirect_freed_bytes)"
[ "$(stat failed)" = $((f0 + 1)) ] || ksft_fail "failed count $(stat failed), not $((f0 + 1))"
echo "never registered: buffer freed ($(stat indirect_freed_bytes) bytes in all)"
# The direct policy waits for a valid REQ_ACK that never comes: fails too.
xfer fail write 0 /tmp/src direct
kill $SERVE; wait $SERVE 2>/dev/null

# Malformed frames: dropped, counted; then a transfer still works.  A
# replay of a released transfer's data frame: dropped, counted.
m0=$(stat rx_malformed) u0=$(stat rx_unknown) r0=$(stat rx_replay)
serve hostile count 1
on h1 $INJ eth0 $M2 short version kinds bigdata cutdata req0 || ksft_fail "inject"
on h1 $INJ eth0 $M2 unknown || ksft_fail "inject unknown"
wait_until 5 [ "$(stat rx_malformed)" = $((m0 + 6)) ] ||
	ksft_fail "malformed frames counted $(($(stat rx_malformed) - m0)), not 6"
[ "$(stat rx_unknown)" = $((u0 + 1)) ] || ksft_fail "unknown frames counted $(($(stat rx_unknown) - u0)), not 1"
on h1 $INJ eth0 capture /tmp/frame > /tmp/cap.out 2>&1 &
CAP=$!
sleep 0.3
xfer ok write 0 /tmp/src direct
wait $CAP || ksft_fail "capture: $(cat /tmp/cap.out)"
on h1 $INJ eth0 replay /tmp/frame || ksft_fail "replay"
wait_until 5 [ "$(stat rx_replay)" -gt "$r0" ] || ksft_fail "replayed frame not counted"
wait $SERVE
at hostile 0 || ksft_fail "bytes differ after the hostile frames and the replay"

# Requests past max_responders (2): dropped, counted; the table's
# transfers go with their lender.  (Released transfers count while they
# linger: linger_ms, 1 s, first.)
sleep 1.5
t0=$(stat rx_table_full)
echo 2 > $P/max_responders
serve table never
on h1 $INJ eth0 $M2 req req req req || ksft_fail "inject requests"
wait_until 5 [ "$(stat rx_table_full)" = $((t0 + 2)) ] ||
	ksft_fail "requests past max_responders: $(($(stat rx_table_full) - t0)) dropped, not 2"
kill $SERVE; wait $SERVE 2>/dev/null
serve table count 1
xfer ok write 0 /tmp/src direct
wait $SERVE
echo 1024 > $P/max_responders

# Without CAP_NET_RAW: EPERM (the counters stay readable).
out=$(on h1 /usr/bin/tonic_unpriv nobody $D write eth0 $M2 0 /tmp/src 2>&1)
echo "$out" | grep -q "Operation not permitted" || ksft_fail "unprivileged write: $out"
on h1 /usr/bin/tonic_unpriv nobody $D stats > /dev/null || ksft_fail "unprivileged stats"

# The initiator's interface goes away mid-transfer (the responder never
# registers; the direct write waits): ENODEV, at once.  The lender's
# goes: its serve ends with ENODEV.
serve gone never
echo 200 > $P/tries
on h1 $D write eth0 $M2 0 /tmp/src direct > /tmp/gonew.out 2>&1 &
XF=$!
sleep 0.5
$IP -n h1 link del eth0
wait $XF && ksft_fail "write survived its interface"
grep -q "No such device" /tmp/gonew.out || ksft_fail "write without its interface: $(cat /tmp/gonew.out)"
$IP -n sw link del p2
wait $SERVE && ksft_fail "serve survived its interface"
grep -q "No such device" /tmp/gone.out || ksft_fail "serve without its interface: $(cat /tmp/gone.out)"
echo 10 > $P/tries

tonic_hosts_del
$D stats
wait_until 5 $MODPROBE -r tonic_drdma || ksft_fail "rmmod tonic_drdma"
exit $KSFT_PASS
