#!/bin/sh
# `make eval-rdma`: the RDMA experiments in the guest, as raw series that
# scripts/eval-rdma-plot.py turns into Documentation/results/rdma-*.
#
# DCQCN: tests/selftests/eval-dcqcn.sh (`make eval-dcqcn`).
#
# IRN (issue 14), first: ib_write_bw, one QP, 64 KiB writes, with netem
# loss L on both veth ends (data one way, ACKs the other), L = 0.1, 1 and
# 5 % (400, 200 and 40 writes: seconds of transfer each), R runs each: Soft-RoCE rxe0 -> rxe1 (the
# reference, go-back-N), then tonic0 -> tonic1 with program rc (go-back-N)
# and with program irn.  One line per run
#     # irn LOSS IMPL ITERS WALL_MS GBPS RESENT DROPPED
# GBPS: perftest's average over the transfer (under TCG now and then 0
# for a run that moved every byte); WALL_MS: the client's whole run,
# connection set-up (about 2.5 s here) included;
# RESENT: the requester's retrans_packets (rxe has no such counter: -);
# DROPPED: packets netem dropped on the data direction.
# IB CC and tenants: see the end.
# timeout: 2400
. /tests/rdma-lib.sh
R=${EVAL_RUNS:-3}

$MODPROBE tonic || exit 1
rdma_pair || exit 1

# irn_run IMPL SERVERDEV SERVERGID CLIENTDEV CLIENTGID
irn_run() {
	for l in 0.1:400 1:200 5:40; do
		rdma_netem loss ${l%:*}% || exit 1
		i=0
		while [ $i -lt $R ]; do
			i=$((i + 1))
			n=${l#*:}
			r0=$(rdma_counter $4 retrans_packets)
			d0=$($TC -s qdisc show dev $RDMA_NETDEV_A | awk '/dropped/ { sub(",", "", $7); print $7; exit }')
			t0=$(rdma_uptime_ms)
			o="-F -s 65536 -n $n --report_gbits"
			if rdma_run irn 600 18515 "/usr/bin/ib_write_bw -d $2 -x $3 $o" \
				"/usr/bin/ib_write_bw -d $4 -x $5 $o $RDMA_B" > /tmp/irn.out; then
				g=$(perftest_figure /tmp/irn.client | awk '{ print $4 }')
			else
				g=failed
			fi
			t1=$(rdma_uptime_ms)
			d1=$($TC -s qdisc show dev $RDMA_NETDEV_A | awk '/dropped/ { sub(",", "", $7); print $7; exit }')
			case $1 in
			rxe) rs=- ;;
			*) rs=$(($(rdma_counter $4 retrans_packets) - r0)) ;;
			esac
			echo "# irn ${l%:*} $1 $n $((t1 - t0)) $g $rs $((d1 - d0))"
		done
	done
	rdma_netem_del
}

rdma_rxe_links || exit 1
RDMA_QUIET=1
irn_run rxe $RDMA_DEV_B $RDMA_GID_B $RDMA_DEV_A $RDMA_GID_A
$RDMA link del $RDMA_DEV_A && $RDMA link del $RDMA_DEV_B || exit 1
$MODPROBE tonic_rdma || exit 1
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || exit 1
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || exit 1
RDMA_DEV_A=tonic0 RDMA_DEV_B=tonic1
rdma_wait_link tonic0 $RDMA_A G0 || exit 1
rdma_wait_link tonic1 $RDMA_B G1 || exit 1
for p in rc irn; do
	rdma_program $p 0,0,0,0 || exit 1
	irn_run $p tonic1 $G1 tonic0 $G0
done
rdma_netem_del
$RDMA link del tonic0
$RDMA link del tonic1

# IB CC (issue 14), on test 77's bed (rdma_ibcc_bed): R runs of each mode
#   fixed: tenants A, B, C of one QP each, CCTI_Increase 1, 2, 3 (the
#          seed's theorem: rates 1 : 1/2 : 1/3);
#   none:  tenants of 1, 2 and 3 QPs, CCTI_Increase 1 for every flow (as
#          without tenants: shares 1 : 2 : 3);
#   auto:  tenants of 1, 2 and 3 QPs, set by the device (equal shares).
# One line per run
#     # ibcc MODE RUN RATE_A RATE_B RATE_C CNPS_A CNPS_B CNPS_C
# (segments and CNPs per second over RDMA_IBCC_WIN s) and its series.
rdma_ibcc_bed || exit 1
for mode in fixed none auto; do
	case $mode in
	fixed) f="1 2 3" q="1 1 1" ;;
	none) f="1 1 1" q="1 2 3" ;;
	auto) f="0 0 0" q="1 2 3" ;;
	esac
	i=0
	while [ $i -lt $R ]; do
		i=$((i + 1))
		set -- $f
		/usr/bin/tonic tenant add A cgroup $RDMA_CG/A fixed $1 &&
		/usr/bin/tonic tenant add B cgroup $RDMA_CG/B fixed $2 &&
		/usr/bin/tonic tenant add C cgroup $RDMA_CG/C fixed $3 || exit 1
		rdma_tenants_run $q ibcc-$mode-$i || echo "# ibcc-failed $mode $i"
		echo "# ibcc $mode $i $RATES $CNPS"
		for t in A B C; do /usr/bin/tonic tenant del $t || exit 1; done
	done
done
rdma_netem_del
$RDMA link del tonic0
$RDMA link del tonic1
exit 0
