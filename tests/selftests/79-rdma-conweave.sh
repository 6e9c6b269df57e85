#!/bin/sh
# ConWeave (seed 004) between tonic0 and tonic1 over two equal-cost paths
# (rdma_multipath: r1 and r2 joined by p0-q0 and p1-q1).  WRITEs with
# immediate data and READs, every byte checked and every immediate in
# order (tonic_rdma_xfer -i):
# - clean: the peers negotiate ConWeave (RTT_REPLYs come back);
# - a 3 ms delay moving between the two links every 50 ms (netem with a
#   rate keeps each link's packets in order, and a changed qdisc keeps its
#   queue: nothing is dropped or reordered within a link, so any reordering
#   is the rerouting's): the source
#   reroutes, the destination holds REROUTED packets until their TAIL, and
#   the responder sees the request packets in order (at most the few NAK
#   sequence errors the bed itself causes); spraying the same packets over both paths (conweave=2) on the
#   same bed does reorder them -- what the holding hides is real;
# - the same with a 1 us cutoff: every probe late, so the flow reroutes
#   whenever the last reroute's CLEAR is back (the path flips every few
#   ms): still in order;
# - every TAIL dropped at r1 (a u32 filter on BTH resv7): the resume timer
#   releases what is held, the data still arrives;
# - toward Soft-RoCE (rxe1, no ConWeave): no framing, the data arrives.
# timeout: 400
. /tests/rdma-lib.sh
$MODPROBE tonic || ksft_fail "modprobe tonic"
rdma_multipath || ksft_fail "rdma_multipath"
rdma_two_paths P0 P1 || ksft_fail "no port for each of the two paths"
echo "paths: UDP source port $P0 -> p0, $P1 -> p1"
$MODPROBE tonic_rdma || ksft_fail "modprobe tonic_rdma"
P=/sys/module/tonic_rdma/parameters
echo "$P0,$P1" > $P/conweave_ports
echo 1 > $P/conweave
echo 2000 > $P/conweave_cutoff_us	# above the bed's clean RTT under TCG
echo 20000 > $P/conweave_resume_us	# above the 3 ms the old path lags
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || ksft_fail "link tonic0"
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || ksft_fail "link tonic1"
rdma_wait_link tonic0 $RDMA_A G0 || ksft_fail "tonic0"
rdma_wait_link tonic1 $RDMA_B G1 || ksft_fail "tonic1"
fails=0
BED_NAKS=5
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}
# c DEV NAME: a counter; d DEV NAME: its change since snap.
c() { rdma_counter "$1" "$2"; }
snap() {
	for _n in conweave_reroutes conweave_held conweave_resumed conweave_ctl_rcvd \
		nak_seq_sent retrans_packets; do
		eval "s0_$_n=$(c tonic0 $_n) s1_$_n=$(c tonic1 $_n)"
	done
}
d() { eval "echo \$(( \$(c $1 $2) - \$s${1#tonic}_$2 ))"; }
show() { echo "  $1: reroutes $(d tonic0 conweave_reroutes) held $(d tonic1 conweave_held)" \
	"resumed $(d tonic1 conweave_resumed) control $(d tonic0 conweave_ctl_rcvd)" \
	"nak_seq $(d tonic1 nak_seq_sent) retransmitted $(d tonic0 retrans_packets)"; }

# A capture on vethB that reads only after the transfer, so that what it
# holds are the very buffers the device received: stripping the ConWeave
# header must not change what a tap saw (every IPv4 checksum still
# right), and the capture must show framed requests (CW in BTH resv8a).
cat > /tmp/cw_tap.py <<'PY'
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.bind((sys.argv[1], 0))
time.sleep(float(sys.argv[2]))
s.settimeout(0.5)
ipv4 = badsum = framed = 0
while True:
    try:
        f = s.recv(65535)
    except socket.timeout:
        break
    if f[12:14] != b"\x08\x00" or len(f) < 34:
        continue
    ipv4 += 1
    h = f[14:34]
    if sum(struct.unpack("!10H", h)) % 0xffff:
        badsum += 1
    elif h[9] == 17 and len(f) >= 54 and f[36:38] == b"\x12\xb7" and f[46] & 0x04:
        framed += 1
print("tap: %d IPv4 frames, %d with a bad header checksum, %d ConWeave-framed" % (ipv4, badsum, framed))
sys.exit(0 if ipv4 and not badsum and framed else 1)
PY

echo "== clean"
snap
/usr/bin/python3 /tmp/cw_tap.py $RDMA_NETDEV_B 3 > /tmp/cw_tap.out 2>&1 & tap=$!
sleep 0.5
rdma_xfer cw-clean tonic1 $G1 tonic0 $G0 -s 262144 -m 16384 -n 2 -i || fails=$((fails + 1))
show clean
check "ConWeave negotiated: control packets back at the source" test "$(d tonic0 conweave_ctl_rcvd)" -gt 0
wait $tap; tr=$?
cat /tmp/cw_tap.out
check "a tap on vethB sees the frames as they came (the header stripped in a copy)" test $tr = 0

# lag LINK DELAY: r1's delay on LINK.
lag() { $TC -n r1 qdisc replace dev $1 root netem delay $2 rate 10gbit limit 100000; }
# flip: the delay moves between p0 and p1 every 50 ms (background).
flip() {
	( i=0; while :; do
		lag p$(((i + 1) % 2)) 0ms; lag p$((i % 2)) 3ms
		i=$((i + 1)); sleep 0.05
	done ) &
	FL=$!
}
unflip() {
	kill $FL; wait $FL 2>/dev/null
	lag p0 0ms; lag p1 0ms
}

echo "== the delay flips between the paths: ConWeave"
snap
flip
rdma_xfer cw-flip tonic1 $G1 tonic0 $G0 -s 262144 -m 16384 -n 16 -i || fails=$((fails + 1))
unflip
show flipping
check "the source rerouted" test "$(d tonic0 conweave_reroutes)" -gt 0
check "the destination held REROUTED packets for their TAIL" test "$(d tonic1 conweave_held)" -gt 0
# Not 0: under host load the bed itself now and then costs one (a clean
# phase, no reroute, once had 2 NAKs and 50 resent packets; the cause is
# not measured).  Spraying on the same bed: hundreds.
check "request packets in order at the responder (at most $BED_NAKS NAKs)" \
	test "$(d tonic1 nak_seq_sent)" -le $BED_NAKS

echo "== the path itself flips every few ms: a 1 us cutoff makes every probe late"
# The flow reroutes as soon as each CLEAR is back, about once per RTT.
echo 1 > $P/conweave_cutoff_us
echo 1 > $P/conweave_busy_us
snap
flip
rdma_xfer cw-often tonic1 $G1 tonic0 $G0 -s 262144 -m 16384 -n 8 -i || fails=$((fails + 1))
unflip
show "rerouting at every chance"
check "at least 20 reroutes" test "$(d tonic0 conweave_reroutes)" -ge 20
check "still in order (at most $BED_NAKS NAKs)" test "$(d tonic1 nak_seq_sent)" -le $BED_NAKS

echo "== the same, sprayed (conweave=2): the bed reorders"
echo 2 > $P/conweave
snap
flip
rdma_xfer cw-spray tonic1 $G1 tonic0 $G0 -s 262144 -m 16384 -n 8 -i || fails=$((fails + 1))
unflip
show sprayed
check "spraying: request packets out of order at the responder" \
	test "$(d tonic1 nak_seq_sent)" -gt $((10 * BED_NAKS))
echo 1 > $P/conweave

echo "== every TAIL dropped at r1: the resume timer"
# IPv4 (20 B, no options) + UDP (8 B) + BTH bytes 8..11: TAIL is 0x01000000.
$TC -n r1 qdisc add dev ra clsact || ksft_fail "clsact on r1's ra"
$TC -n r1 filter add dev ra ingress protocol ip u32 match ip protocol 17 0xff \
	match u16 4791 0xffff at 22 match u32 0x01000000 0x01000000 at 36 action drop ||
	ksft_fail "u32 filter dropping TAILs"
echo 5000 > $P/conweave_resume_us	# the 1 us cutoff still on: many TAILs
snap
flip
rdma_xfer cw-tail tonic1 $G1 tonic0 $G0 -s 262144 -m 16384 -n 8 -i || fails=$((fails + 1))
unflip
show "TAIL lost"
dropped=$($TC -n r1 -s filter show dev ra ingress | awk '/Sent/ { print $4; exit }')
echo "  TAILs dropped at r1: $dropped"
check "TAILs were dropped" test "${dropped:-0}" -gt 0
check "the resume timer released the held packets" test "$(d tonic1 conweave_resumed)" -gt 0
$TC -n r1 qdisc del dev ra clsact
echo 2000 > $P/conweave_cutoff_us
echo 20000 > $P/conweave_busy_us

echo "== toward Soft-RoCE (no ConWeave)"
$RDMA link del tonic1 || ksft_fail "rdma link del tonic1"
$MODPROBE rdma_rxe || ksft_fail "modprobe rdma_rxe"
$RDMA link add rxe1 type rxe netdev $RDMA_NETDEV_B || ksft_fail "rdma link add rxe1"
rdma_wait_link rxe1 $RDMA_B GR || ksft_fail "rxe1"
r0=$(c tonic0 conweave_reroutes) k0=$(c tonic0 conweave_ctl_rcvd)
flip
rdma_xfer cw-rxe rxe1 $GR tonic0 $G0 -s 262144 -m 16384 -n 2 || fails=$((fails + 1))
unflip
check "no ConWeave toward rxe: no control packet, no reroute" \
	test "$(c tonic0 conweave_ctl_rcvd)" = "$k0" -a "$(c tonic0 conweave_reroutes)" = "$r0"
$RDMA link del rxe1
dmesg | grep -E "WARNING|BUG|Oops" && fails=$((fails + 1))
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
exit $KSFT_PASS
