#!/bin/sh
# make bench-rr: request/response, one connection h1 -> h2 (tonic_xfer -Q:
# TCP_NODELAY messages there and back), offloaded against kernel cubic in
# the same boot, alternated $PAIRS times.  Per message size: the round
# trip's p50 and p99, the whole guest's busy CPU per round trip (both
# ends are in the guest, as the round trip is) and the packets h1 sends
# per round trip (kernel TCP: one, its request carrying the ACK of the
# reply before).  Figures, not pass/fail timings; under TCG the ratio
# within a pair is what to read, and their median.
# timeout: 1500
. /tests/lib.sh
. /tests/bench-lib.sh
tonic_load || exit 1
tonic_hosts 2 || exit 1
N=${BENCH_ROUND_TRIPS:-5000}
PAIRS=6
tx_pkts() { on h1 cat /sys/class/net/eth0/statistics/tx_packets; }

# one MODE BYTES -> "p50 p99 cpu_us_per_rt pkts_per_rt"
one() {
	on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
	sleep 0.3
	j0=$(busy_jiffies) p0=$(tx_pkts)
	if [ $1 = offload ]; then
		on h1 tonic_xfer -c 10.0.0.2 7300 $N -Q -m $2 -U -T 0 -r
	else
		on h1 tonic_xfer -c 10.0.0.2 7300 $N -Q -m $2 -C cubic
	fi > /tmp/rr.out
	j1=$(busy_jiffies) p1=$(tx_pkts)
	wait
	awk -v j=$((j1 - j0)) -v p=$((p1 - p0)) -v n=$N '/^pingpong:/ {
		for (i = 1; i <= NF; i++) { if ($i == "p50") p50 = $(i + 1); if ($i == "p99") p99 = $(i + 1) }
		printf "%s %s %.0f %.2f\n", p50, p99, j * 10000 / n, p / n }' /tmp/rr.out
}

echo "request/response h1 <-> h2, $N round trips a run, $PAIRS pairs (cubic, offload) alternated"
for bytes in 1 256; do
	echo "== $bytes-byte messages"
	echo "  pair  cubic: p50 us  p99 us  CPU us/rt  pkts/rt    offload: p50 us  p99 us  CPU us/rt  pkts/rt    p50 ratio  CPU ratio"
	: > /tmp/rr.ratios
	i=1
	while [ $i -le $PAIRS ]; do
		set -- $(one cubic $bytes) $(one offload $bytes)
		awk -v i=$i -v a="$*" 'BEGIN { split(a, v, " ")
			printf "  %-5d %13s %7s %10s %8s %17s %7s %10s %8s %12.2f %10.2f\n", i,
				v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
				(v[1] > 0 ? v[5] / v[1] : 0), (v[3] > 0 ? v[7] / v[3] : 0) }'
		echo "$1 $5 $3 $7" >> /tmp/rr.ratios
		i=$((i + 1))
	done
	awk '{ print ($1 > 0 ? $2 / $1 : 0) }' /tmp/rr.ratios | median > /tmp/rr.p
	awk '{ print ($3 > 0 ? $4 / $3 : 0) }' /tmp/rr.ratios | median > /tmp/rr.c
	printf "  median of the pairs' ratios, offload / cubic: p50 %.2f, CPU per round trip %.2f\n" \
		"$(cat /tmp/rr.p)" "$(cat /tmp/rr.c)"
done
tonic_hosts_del
exit $KSFT_PASS
