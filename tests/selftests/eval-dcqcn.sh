#!/bin/sh
# `make eval-dcqcn` (also part of `make eval-rdma`): DCQCN on the real RDMA
# path (issue 14), as raw series that scripts/eval-rdma-plot.py turns into
# Documentation/results/rdma-dcqcn.*.
#
# N QPs (ib_write_bw -q N, 64 KiB writes, 300 / N per QP: the same bytes
# for every N) tonic0 -> tonic1 through the 40 Mb/s RED/ECN bottleneck of
# rdma_bottleneck, program dcqcn with the timers of test 75
# (program_params 5000,1000,5000,0); then dcqcn-join: one QP of 300
# writes, and 2 s after it a second ib_write_bw of one QP and 100 writes
# joins it (the newcomer starts at line rate, the first flow's rate is
# already cut).  While the transfer runs, as often as
# the guest manages (one `tonic flow show`, 40-100 ms under TCG), one line
#     # series dcqcn-N T_MS BACKLOG_BYTES SEGS_1 RATE_1 ... SEGS_N RATE_N
# with the RED queue's backlog read every fourth sample only (`tc` costs
# about 125 ms here) and "-" otherwise.  T_MS counts from the last sample
# that found no flow (the QPs did not exist yet, so nothing had been sent),
# at /proc/uptime's 10 ms resolution.  At the end, the RED queue's and the devices' counters.
# Figures of an emulated guest: compare runs of one boot, not absolute
# numbers.
# timeout: 1200
. /tests/rdma-lib.sh
R=${EVAL_RUNS:-3}

$MODPROBE tonic || exit 1
rdma_pair || exit 1
$MODPROBE tonic_rdma || exit 1
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || exit 1
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || exit 1
rdma_wait_link tonic0 $RDMA_A G0 || exit 1
rdma_wait_link tonic1 $RDMA_B G1 || exit 1
rdma_program dcqcn 5000,1000,5000,0 || exit 1

# dcqcn_run RUN QPS WRITES [JOIN_WRITES]: ib_write_bw -q QPS, WRITES 64 KiB
# writes per QP, port 18515, sampled as above; with JOIN_WRITES, a second
# ib_write_bw of one QP (port 18516) joins 2 s after the first flow
# appeared.
dcqcn_run() {
	rdma_bottleneck 40mbit || exit 1
	o="-F -s 65536 -u 17 --report_gbits"
	rdma_bg /tmp/$1.res rdma_run $1 600 18515 \
		"/usr/bin/ib_write_bw -d tonic1 -x $G1 $o -q $2 -n $3" \
		"/usr/bin/ib_write_bw -d tonic0 -x $G0 $o -q $2 -n $3 $RDMA_B"
	j=/tmp/$1.join.res
	: > $j
	[ -n "${4:-}" ] || echo "rc 0" > $j
	t0= k=0 te=$(rdma_uptime_ms) joined=${4:+no}
	while ! rdma_bg_done /tmp/$1.res || ! rdma_bg_done $j; do
		f=$(rdma_flows dcqcn | tr '\n' ' ')
		t=$(rdma_uptime_ms)
		[ -n "$f" ] || te=$t
		[ -n "$f" ] || continue
		[ -n "$t0" ] || t0=$te
		if [ "$joined" = no ] && [ $((t - t0)) -ge 2000 ]; then
			joined=yes
			rdma_bg $j rdma_run $1.join 600 18516 \
				"/usr/bin/ib_write_bw -d tonic1 -x $G1 $o -p 18516 -n $4" \
				"/usr/bin/ib_write_bw -d tonic0 -x $G0 $o -p 18516 -n $4 $RDMA_B"
		fi
		b=-
		[ $((k % 4)) != 0 ] || b=$(rdma_red_stat backlog)
		k=$((k + 1))
		echo "# series $1 $((t - t0)) $b $f"
		sleep 0.05
	done
	wait
	cat /tmp/$1.res $j
	echo "# summary $1 red_sent $(rdma_red_stat sent) marked $(rdma_red_stat marked) dropped $(rdma_red_stat dropped)"
	echo "# summary $1 tonic0 $(rdma_hw_counters tonic0)"
	echo "# summary $1 tonic1 $(rdma_hw_counters tonic1)"
}

for n in 2 4; do
	i=0
	while [ $i -lt $R ]; do
		i=$((i + 1))
		run=dcqcn-$n
		[ $i = 1 ] || run=dcqcn-$n.$i
		dcqcn_run $run $n $((300 / n))
	done
done
i=0
while [ $i -lt $R ]; do
	i=$((i + 1))
	run=dcqcn-join
	[ $i = 1 ] || run=dcqcn-join.$i
	dcqcn_run $run 1 300 100
done
rdma_netem_del
$RDMA link del tonic0
$RDMA link del tonic1
exit 0
