#!/bin/sh
# `make bench-e2e`: issue 12's table.  The same two-host path, the same
# runs in one boot, offloaded (the congestion control "tonic" on the
# sender: the soft Tonic device, the namespace's default program) against
# the kernel's own TCP (cubic, reno):
#   goodput and whole-system CPU per GB (/proc/stat: softirq and kworkers
#   included, both hosts: one guest), clean, netem loss 1 % and 5 %, 20 ms
#   RTT, sch_fq at 50 ms RTT; 1-byte ping-pong p50/p99; 8 and 100
#   concurrent flows (aggregate, Jain); TCP-friendliness, offloaded vs
#   kernel reno against the Mathis bound; one offloaded and one cubic flow
#   sharing a 50 Mb/s bottleneck, and two kernel cubic flows on it for
#   the cell's own spread.
# (busybox awk: a ?: inside printf's arguments must be parenthesised, or
# its '>' is taken for a redirection.)
# Prints figures; not a pass/fail timing.  Under TCG every figure is an
# emulated CPU's: compare the ratios within this run, not the numbers.
# timeout: 3000
. /tests/lib.sh
. /tests/bench-lib.sh
tonic_load || exit 1
tonic_hosts 2 || exit 1
prog=$(on h1 sysctl -n net.tonic.program)
echo "== the offload's program: $prog (net.tonic.program)"
on h2 $IPERF -s -D -p 5201
on h2 $IPERF -s -D -p 5202
sleep 0.5
T=${BENCH_SECONDS:-5}
R=3	# runs per cell; the median is reported

# path H1_QDISC H2_QDISC: h1's egress (data) and h2's (ACKs); "-" is none.
# Under netem loss h1 sends one segment per skb (gso_max_segs 1, which
# TCP and the offload both honour): netem drops skbs, and a loss rate per
# skb is no loss rate per segment when skbs carry several.
path() {
	$TC -n h1 qdisc del dev eth0 root 2>/dev/null
	$TC -n h2 qdisc del dev eth0 root 2>/dev/null
	case $1 in *loss*) segs=1 ;; *) segs=65535 ;; esac
	$IP -n h1 link set dev eth0 gso_max_segs $segs
	[ "$1" = - ] || $TC -n h1 qdisc replace dev eth0 root $1
	[ "$2" = - ] || $TC -n h2 qdisc replace dev eth0 root $2
}

# receiver_mbps FILE: the goodput iperf3's receiver reported in FILE.
receiver_mbps() {
	awk '/receiver$/ { for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i - 1) }' "$1"
}

echo "== goodput (Mbit/s) and whole-guest CPU (s per GB), iperf3 h1 -> h2, $T s a run, median of $R"
printf '  %-10s %9s %9s %9s %9s %9s %9s %9s %9s\n' case cubic reno offload off/cub \
	cpu:cub cpu:reno cpu:off off/cub
for c in clean loss1 loss5 rtt20 fq50; do
	case $c in
	clean) path - - ;;
	loss1) path "netem loss 1%" - ;;
	loss5) path "netem loss 5%" - ;;
	rtt20) path - "netem delay 20ms" ;;
	fq50)  path fq "netem delay 50ms" ;;
	esac
	set -- $(cell cubic) $(cell reno) $(cell tonic)
	awk -v c=$c -v gc=$1 -v cc=$2 -v gr=$3 -v cr=$4 -v gt=$5 -v ct=$6 'BEGIN {
		printf "  %-10s %9.1f %9.1f %9.1f %9.2f %9.1f %9.1f %9.1f %9.2f\n", c, gc, gr, gt,
			(gc > 0 ? gt / gc : 0), cc, cr, ct, (cc > 0 ? ct / cc : 0) }'
done
path - -

echo "== 1-byte ping-pong h1 <-> h2, 5000 round trips (us)"
for mode in cubic offloaded; do
	set -- $(pingpong_run $mode 1 5000)
	printf "  %-10s p50 %8s  p99 %8s\n" $mode "$1" "$2"
done

echo "== concurrent flows, $T s (aggregate Mbit/s, Jain over the flows' goodput)"
for n in 8 100; do
	for cc in cubic tonic; do
		a0=$(awk '$1 == "attaches" { print $2 }' /sys/kernel/debug/tonic/stats)
		set -- $(iperf_run $cc $T 5201 $n)
		a1=$(awk '$1 == "attaches" { print $2 }' /sys/kernel/debug/tonic/stats)
		awk -v n=$n -v cc=$cc -v agg=$1 -v off=$((a1 - a0)) '
			/receiver$/ && !/SUM/ { for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") {
				x = $(i - 1); s += x; q += x * x; k++ } }
			END { printf "  %3d flows %-6s aggregate %8.1f  Jain %.3f  flows %d%s\n", n, cc, agg,
				(q > 0 ? s * s / (k * q) : 0), k, (cc == "tonic" ? sprintf(", %d offloaded", off) : "") }' \
			/tmp/iperf.out
	done
done

# Reno against reno: the offload's program "sack" is Reno's window with
# RFC 6675 recovery (and early retransmit, RACK's rules, a tail loss
# probe), which is what kernel reno is with SACK on; the default program
# comes back for the sharing test.
echo "== TCP-friendliness: offloaded sack (Reno) vs kernel reno, 8 s a run, median of $R (Mbit/s)"
echo "   Mathis bound: MSS 1448 B * 8 / RTT * 1.22 / sqrt(p)"
on h1 sysctl -qw net.tonic.program=sack
for rtt in 10 50; do
	for loss in 0.1 1 3; do
		path "netem loss ${loss}%" "netem delay ${rtt}ms"
		set -- $(cell reno 8) $(cell tonic 8)
		awk -v r=$rtt -v l=$loss -v gr=$1 -v gt=$3 'BEGIN {
			# busybox awk has no sqrt: Newton on p
			p = l / 100; q = 1; for (i = 0; i < 40; i++) q = (q + p / q) / 2
			m = 1448 * 8 / (r / 1000) * 1.22 / q / 1e6
			printf "  rtt %2d ms loss %3s%%  reno %7.2f  offload %7.2f  off/reno %.2f  Mathis %7.2f  reno/M %.2f  off/M %.2f\n",
				r, l, gr, gt, (gr > 0 ? gt / gr : 0), m, gr / m, gt / m }'
	done
done

on h1 sysctl -qw net.tonic.program="$prog"
# share CC: flow 1 with CC, flow 2 kernel cubic, at once, 10 s; "g1 g2".
share() {
	on h1 $IPERF -c 10.0.0.2 -p 5201 -t 10 -C "$1" -f m 2>/dev/null > /tmp/share.t &
	on h1 $IPERF -c 10.0.0.2 -p 5202 -t 10 -C cubic -f m 2>/dev/null > /tmp/share.c
	wait
	echo "$(receiver_mbps /tmp/share.t) $(receiver_mbps /tmp/share.c)"
}

# Each run also puts two kernel cubic flows on the same path: the cell's
# own spread, to read the offload's ratio against.
echo "== sharing a 50 Mbit/s, 10 ms bottleneck: one offloaded flow ($prog) and one cubic flow, 10 s;"
echo "   then two kernel cubic flows, for the cell's own spread"
path "netem rate 50mbit limit 200" "netem delay 10ms"
i=0
while [ $i -lt $R ]; do
	off=$(share tonic) ker=$(share cubic)
	awk -v o="$off" -v k="$ker" 'BEGIN { split(o, a, " "); split(k, b, " ")
		printf "  offload %6.2f  cubic %6.2f  offload/cubic %.2f    cubic %6.2f  cubic %6.2f  first/second %.2f\n",
			a[1], a[2], (a[2] > 0 ? a[1] / a[2] : 0), b[1], b[2], (b[2] > 0 ? b[1] / b[2] : 0) }'
	i=$((i + 1))
done
path - -

grep -E '^(attaches|segs_tx|segs_rtx|tx_errors|busy_cycles|cycles) ' /sys/kernel/debug/tonic/stats
tonic_hosts_del
exit 0
