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
echo "request/response h1 <-> h2, $N round trips a run, $PAIRS pairs (cubic, offload) alternated"
for bytes in 1 256; do
	echo "== $bytes-byte messages"
	echo "  pair  cubic: p50 us  p99 us  CPU us/rt  pkts/rt    offload: p50 us  p99 us  CPU us/rt  pkts/rt    p50 ratio  CPU ratio"
	: > /tmp/rr.ratios
	i=1
	while [ $i -le $PAIRS ]; do
		set -- $(pingpong_run cubic $bytes $N) $(pingpong_run offloaded $bytes $N)
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
