#!/bin/sh
# The RDMA test bed (issue 13): Soft-RoCE rxe0 <-> rxe1 over a veth pair in
# init_net (rdma-lib.sh).  Clean: verbs ping-pong, rping with validated
# data, perftest write/read/send bandwidth and send latency (figures
# printed); the RoCE traffic crosses the veth pair, not lo.  Then the same
# under netem loss 1 %, 5 % and reordering: corrupted data fails the test;
# a transfer that stalls or errors out is recorded as rxe's baseline (the
# summary table at the end), not a failure: rxe is the reference here, not
# the subject.  RDMA_STRICT_NET=1 makes those fail too.
# timeout: 480
. /tests/rdma-lib.sh
STRICT=${RDMA_STRICT_NET:-0}
PERF_U=14	# perftest -u: QP timeout 4.096 us * 2^14 = 67 ms (perftest's default)
SUMMARY=/tmp/rdma.summary
: > $SUMMARY
corrupt=0 bad=0

rdma_pair || ksft_fail "rdma_pair"
rdma_rxe_links || ksft_fail "rxe links"
/usr/bin/ibv_devices
/usr/bin/ibv_devinfo -d $RDMA_DEV_A | grep -E 'hca_id|state|active_mtu|link_layer'

# record COND NAME FIGURES: one line of the summary; counts non-ok runs.
record() {
	printf '%-8s %-14s %-8s %4ss  %s\n' "$1" "$2" "$RDMA_VERDICT" "$RDMA_SECS" "$3" >> $SUMMARY
	[ "$RDMA_VERDICT" = ok ] || bad=$((bad + 1))
}

# check_data NAME: the tools' own data checks, in their words.
check_data() {
	if grep -Eq 'invalid data in page|data mismatch|data verification failed|Received bogus data' \
		/tmp/$1.server /tmp/$1.client; then
		echo "$1: CORRUPTED DATA"
		corrupt=$((corrupt + 1))
		RDMA_VERDICT=CORRUPT
	fi
}

# pingpong COND SECS ITERS: ibv_rc_pingpong -c, 4 KiB messages; both ends
# must report ITERS iterations.  Its -c is a weak check (the server looks
# at the first byte of each page of its buffer, which should be 0 =
# i / page_size % sizeof(char)); rping -V below is the real data check.
pingpong() {
	n=pingpong-$1
	rdma_run $n $2 18515 \
		"/usr/bin/ibv_rc_pingpong -d $RDMA_DEV_B -g $RDMA_GID_B -c -n $3" \
		"/usr/bin/ibv_rc_pingpong -d $RDMA_DEV_A -g $RDMA_GID_A -c -n $3 $RDMA_B"
	if [ $RDMA_VERDICT = ok ]; then
		grep -q "^$3 iters in" /tmp/$n.client && grep -q "^$3 iters in" /tmp/$n.server ||
			{ echo "$n: not $3 iterations"; RDMA_VERDICT=FAILED; }
	fi
	check_data $n
	record "$1" ibv_rc_pingpong "$(sed -n 's/^[0-9]* bytes in .* = \(.*\)/\1/p' /tmp/$n.client)"
}

# rping_run COND SECS COUNT: rping -V (each ping's data, a rotating
# pattern, is RDMA-read by the server, written back and compared by the
# client) -v (printed); COUNT pings must be printed by both ends: rping's
# client exits 0 even when it gave up early.
rping_run() {
	n=rping-$1
	rdma_run $n $2 7174 \
		"/usr/bin/rping -s -a $RDMA_B -v -V -C $3 -S 1000" \
		"/usr/bin/rping -c -a $RDMA_B -v -V -C $3 -S 1000"
	c=$(grep -c '^ping data: rdma-ping-' /tmp/$n.client)
	s=$(grep -c '^server ping data: rdma-ping-' /tmp/$n.server)
	echo "$n: $c pings verified by the client, $s seen by the server (of $3)"
	[ $RDMA_VERDICT = ok ] && [ "$c" != "$3" ] && RDMA_VERDICT=FAILED
	check_data $n
	record "$1" rping "$c/$3 pings"
}

# perf COND SECS TOOL SIZE ITERS: a perftest run; prints its figures.
perf() {
	cond=$1 tool=$3 n=$3-$1
	case $tool in *_bw) g=--report_gbits ;; *) g=-C ;; esac
	rdma_run $n $2 18515 \
		"/usr/bin/$3 -d $RDMA_DEV_B -x $RDMA_GID_B -F -u $PERF_U -s $4 -n $5 $g" \
		"/usr/bin/$3 -d $RDMA_DEV_A -x $RDMA_GID_A -F -u $PERF_U -s $4 -n $5 $g $RDMA_B"
	case $tool in
	*_bw) f=$(perftest_figure /tmp/$n.client) ;;
	*) f=$(perftest_lat_us /tmp/$n.client) ;;
	esac
	[ $RDMA_VERDICT = ok ] && [ -z "$f" ] && RDMA_VERDICT=FAILED
	case $tool in
	*_bw) set -- $f; f=${f:+"$1 B x $2: peak $3 Gb/s, avg $4 Gb/s"} ;;
	*_lat) set -- $f; f=${f:+"$1 B x $2: min $3 typical $5 avg $6 p99 $8 max $4 us"} ;;
	esac
	[ $RDMA_VERDICT = ok ] || f=$(perftest_error /tmp/$n.client)
	echo "$n: $f"
	record "$cond" "$tool" "$f"
}

RDMA_QUIET=1
echo "== clean"
COND=clean
c0=$(rdma_counters)
lo0=$(_rdma_stat lo tx_packets) a0=$(_rdma_stat $RDMA_NETDEV_A tx_packets)
pingpong clean 60 200
rping_run clean 60 100
perf clean 60 ib_write_bw 65536 200
perf clean 60 ib_read_bw 65536 200
perf clean 60 ib_send_bw 65536 200
perf clean 60 ib_send_lat 2 500
lo1=$(_rdma_stat lo tx_packets) a1=$(_rdma_stat $RDMA_NETDEV_A tx_packets)
echo "counters before: $c0"
echo "counters after:  $(rdma_counters)"
echo "rxe0: $(rdma_hw_counters $RDMA_DEV_A)"
echo "rxe1: $(rdma_hw_counters $RDMA_DEV_B)"
[ $((lo1 - lo0)) -eq 0 ] || ksft_fail "$((lo1 - lo0)) packets went over lo"
[ $((a1 - a0)) -ge 1000 ] || ksft_fail "only $((a1 - a0)) packets crossed $RDMA_NETDEV_A"
if [ $bad -ne 0 ] || [ $corrupt -ne 0 ]; then
	cat $SUMMARY
	ksft_fail "$bad clean run(s) not ok"
fi

# The same under loss and reordering, both directions (requests one way,
# ACKs and read responses the other); fewer iterations.
for net in "loss 1%" "loss 5%" "delay 1ms reorder 25% 50%"; do
	COND=$(echo "$net" | awk '{ print $1 == "loss" ? "loss" $2 : "reorder" }')
	echo "== netem $net"
	rdma_netem $net || ksft_fail "netem $net"
	pingpong $COND 30 200
	rping_run $COND 20 50
	perf $COND 40 ib_write_bw 65536 $([ $COND = reorder ] && echo 25 || echo 50)
	[ $COND = loss1% ] && perf $COND 40 ib_read_bw 65536 50
	[ $COND = loss1% ] && perf $COND 40 ib_send_bw 65536 50
	perf $COND 30 ib_send_lat 2 200
	echo "rxe0: $(rdma_hw_counters $RDMA_DEV_A)"
	echo "rxe1: $(rdma_hw_counters $RDMA_DEV_B)"
	rdma_netem_del
done

echo "== summary (rxe <-> rxe, TCG guest; ok/FAILED/TIMEOUT/CORRUPT)"
cat $SUMMARY
[ $corrupt -eq 0 ] || ksft_fail "$corrupt run(s) delivered corrupted data"
if [ $bad -ne 0 ]; then
	echo "rxe baseline: $bad run(s) under loss/reordering did not complete"
	[ "$STRICT" = 1 ] && ksft_fail "RDMA_STRICT_NET=1 and $bad run(s) not ok"
fi
exit $KSFT_PASS
