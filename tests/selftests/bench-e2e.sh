#!/bin/sh
# `make bench-e2e`: the same two-host path, the same runs, offloaded (the
# congestion control "tonic" on the sender: the soft Tonic device with
# newreno) against the kernel's own TCP (reno, cubic).  iperf3 goodput and
# the sender's CPU time, clean and with 1 % loss; under sch_fq at 50 ms RTT;
# 1-byte ping-pong latency.
# Prints figures; not a pass/fail timing.  Under TCG every figure is an
# emulated CPU's: compare the ratios, not the absolute numbers.
# timeout: 600
. /tests/lib.sh
tonic_load || exit 1
tonic_hosts 2 || exit 1
on h2 $IPERF -s -D -p 5201
sleep 0.5
T=${BENCH_SECONDS:-5}
R=3	# runs per configuration; the median is reported

iperf_run() {	# CC -> "goodput_Mbps sender_cpu_pct"
	on h1 $IPERF -c 10.0.0.2 -p 5201 -t "$T" -C "$1" -V -f m 2>/dev/null | awk '
		/receiver$/ { for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") g = $(i - 1) }
		/CPU Utilization: local\/sender/ { c = $4; sub("%", "", c) }
		END { printf "%s %s\n", g ? g : 0, c ? c : 0 }'
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "== iperf3 h1 -> h2, $T s per run, median of $R (goodput Mbit/s, sender CPU %)"
for loss in 0 1; do
	if [ $loss = 0 ]; then $TC -n h1 qdisc del dev eth0 root 2>/dev/null
	else tonic_netem h1 loss ${loss}%; fi
	for cc in tonic reno cubic; do
		: > /tmp/g; : > /tmp/c
		i=0
		while [ $i -lt $R ]; do
			set -- $(iperf_run $cc)
			echo "$1" >> /tmp/g; echo "$2" >> /tmp/c
			i=$((i + 1))
		done
		g=$(median < /tmp/g); c=$(median < /tmp/c)
		eval "g_${cc}_$loss=$g c_${cc}_$loss=$c"
		printf '  loss %s%%  %-6s %8s Mbit/s  cpu %5s %%\n' $loss $cc "$g" "$c"
	done
	eval "gt=\$g_tonic_$loss gr=\$g_reno_$loss gc=\$g_cubic_$loss"
	awk -v t="$gt" -v r="$gr" -v c="$gc" -v l=$loss 'BEGIN {
		printf "  loss %s%%  offloaded/reno %.2f  offloaded/cubic %.2f\n", l,
		       r > 0 ? t / r : 0, c > 0 ? t / c : 0 }'
done
$TC -n h1 qdisc del dev eth0 root 2>/dev/null

echo "== sch_fq on h1 (it paces each socket at sk_pacing_rate), 50 ms RTT, median of $R"
$TC -n h1 qdisc replace dev eth0 root fq
tonic_netem h2 delay 50ms
for cc in tonic cubic; do
	: > /tmp/g
	i=0
	while [ $i -lt $R ]; do
		set -- $(iperf_run $cc)
		echo "$1" >> /tmp/g
		i=$((i + 1))
	done
	eval "fq_$cc=$(median < /tmp/g)"
	printf '  fq     %-6s %8s Mbit/s\n' $cc "$(median < /tmp/g)"
done
awk -v t="$fq_tonic" -v c="$fq_cubic" 'BEGIN { printf "  fq     offloaded/cubic %.2f\n", c > 0 ? t / c : 0 }'
$TC -n h1 qdisc del dev eth0 root 2>/dev/null
$TC -n h2 qdisc del dev eth0 root 2>/dev/null

echo "== 1-byte ping-pong h1 <-> h2, 5000 round trips (microseconds)"
for mode in native offloaded; do
	on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
	sleep 0.3
	if [ $mode = offloaded ]; then
		on h1 tonic_xfer -c 10.0.0.2 7300 5000 -Q -U -T 0 -r
	else
		on h1 tonic_xfer -c 10.0.0.2 7300 5000 -Q -C cubic
	fi | sed "s/^pingpong:/  $mode:/"
	wait
done
cat /sys/kernel/debug/tonic/stats | grep -E '^(attaches|segs_tx|segs_rtx|tx_errors|busy_cycles|cycles) '
tonic_hosts_del
exit 0
