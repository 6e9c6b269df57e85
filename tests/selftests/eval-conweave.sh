#!/bin/sh
# `make eval-rdma`, ConWeave (issue 15, seed 004): message completion times
# (FCT) over two equal-cost paths, one of them congested, for three ways
# to use the paths: ECMP (each QP on the path its UDP source port hashes
# to: conweave=0), per-packet spraying (conweave=2) and ConWeave
# (conweave=1).  The congestion: a standing delay D on r1's p0 (netem
# with a rate, in order), none on p1; ConWeave's RTT cutoff C.  Two
# settings: D = 2 ms with C = 2 ms, and D = 10 ms with C = 8 ms (a cutoff
# above what a flow's own packets queue on this bed: see
# Documentation/evaluation.rst (11)).  Per (D, C) and message size S, R runs; in each
# run the arms in a rotating order, F flows (QPs) per arm, each writing N
# messages of S bytes one at a time (tonic_rdma_xfer -l: each timed from
# its post to its completion; the data checked).  One line per flow
#     # cw D_US C_US S RUN ARM FLOW P0_PERMIL NAK_SEQ RETRANS REROUTES HELD RESUMED
# P0_PERMIL: the flow's request packets that took the congested path, per
# mille; then the flow's times as "fct-us: ...".  Figures of an emulated
# guest: compare the arms within a run, not absolute times.
# timeout: 2400
. /tests/rdma-lib.sh
R=${R:-3}
F=${F:-3}
N=${N:-30}
$MODPROBE tonic || ksft_fail "modprobe tonic"
rdma_multipath || ksft_fail "rdma_multipath"
rdma_two_paths P0 P1 || ksft_fail "no port for each of the two paths"
$MODPROBE tonic_rdma || ksft_fail "modprobe tonic_rdma"
P=/sys/module/tonic_rdma/parameters
echo "$P0,$P1" > $P/conweave_ports
echo 20000 > $P/conweave_resume_us
# An RTT probe per ms, not per 200 us: here a control packet costs what a
# data packet does (Documentation/evaluation.rst (11)).
echo 1000 > $P/conweave_probe_us
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || ksft_fail "link tonic0"
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || ksft_fail "link tonic1"
rdma_wait_link tonic0 $RDMA_A G0 || ksft_fail "tonic0"
rdma_wait_link tonic1 $RDMA_B G1 || ksft_fail "tonic1"
$TC -n r1 qdisc replace dev p1 root netem delay 0ms rate 10gbit limit 100000
echo "paths: port $P0 -> p0 (congested), $P1 -> p1"
tx() { $IP netns exec r1 cat /sys/class/net/$1/statistics/tx_packets; }
c() { rdma_counter "$1" "$2"; }

for dc in "2000 2000" "10000 8000"; do
set -- $dc
$TC -n r1 qdisc replace dev p0 root netem delay ${1}us rate 10gbit limit 100000
echo $2 > $P/conweave_cutoff_us
for s in 16384 131072; do
	run=1
	while [ $run -le $R ]; do
		case $((run % 3)) in
		1) order="ecmp spray conweave" ;;
		2) order="spray conweave ecmp" ;;
		0) order="conweave ecmp spray" ;;
		esac
		for arm in $order; do
			case $arm in ecmp) m=0 ;; conweave) m=1 ;; spray) m=2 ;; esac
			echo $m > $P/conweave
			f=1
			while [ $f -le $F ]; do
				a0=$(tx p0) b0=$(tx p1) n0=$(c tonic1 nak_seq_sent)
				t0=$(c tonic0 retrans_packets) r0=$(c tonic0 conweave_reroutes)
				h0=$(c tonic1 conweave_held) u0=$(c tonic1 conweave_resumed)
				rdma_xfer cw tonic1 $G1 tonic0 $G0 -s $((s * N)) -m $s -n 1 -l > /dev/null ||
					ksft_fail "$arm flow: data"
				a=$(($(tx p0) - a0)) b=$(($(tx p1) - b0))
				echo "# cw $1 $2 $s $run $arm $f $((1000 * a / (a + b + 1))) \
$(($(c tonic1 nak_seq_sent) - n0)) $(($(c tonic0 retrans_packets) - t0)) \
$(($(c tonic0 conweave_reroutes) - r0)) $(($(c tonic1 conweave_held) - h0)) \
$(($(c tonic1 conweave_resumed) - u0))"
				grep -h "^fct" /tmp/cw.client
				f=$((f + 1))
			done
		done
		run=$((run + 1))
	done
done
done
exit $KSFT_PASS
