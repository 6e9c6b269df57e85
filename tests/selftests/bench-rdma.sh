#!/bin/sh
# `make bench-rdma`: RoCEv2 figures on the RDMA bed (rdma-lib.sh), one
# guest boot: perftest ib_write_bw 64 KiB, ib_read_bw 64 KiB and
# ib_send_lat 2 B, clean and with netem loss 1 % on both veth ends; the
# median of R runs each.  Columns: rxe (Soft-RoCE, rxe0 -> rxe1: the
# reference) and tonic (tonic_rdma.ko, tonic0 -> tonic1, each RC QP a
# Tonic flow of program rc), and their ratio.  Prints figures; not a
# pass/fail timing.  Under TCG every figure is an emulated CPU's: compare
# the columns, not the absolute numbers.
# timeout: 1200
. /tests/rdma-lib.sh
R=${BENCH_RUNS:-3}	# runs per cell; the median is reported
BW_ITERS=200
LAT_ITERS=500
PERF_U=14		# QP timeout 4.096 us * 2^14 = 67 ms (perftest's default)

rdma_pair || exit 1
rdma_rxe_links || exit 1
RDMA_QUIET=1

median() { sort -n | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "-" }'; }

# cell SDEV SGID CDEV CGID TEST: R runs of one perftest, client CDEV ->
# server SDEV (the server's address is always $RDMA_B); prints the median
# (write_bw: average Gb/s; send_lat: typical us) and, after a slash, how
# many runs failed.
cell() {
	: > /tmp/cell
	fails=0
	i=0
	while [ $i -lt $R ]; do
		i=$((i + 1))
		case $5 in
		write_bw) t=ib_write_bw o="-s 65536 -n $BW_ITERS --report_gbits" ;;
		read_bw) t=ib_read_bw o="-s 65536 -n $BW_ITERS --report_gbits" ;;
		send_lat) t=ib_send_lat o="-s 2 -n $LAT_ITERS -C" ;;
		esac
		if rdma_run bench 60 18515 \
			"/usr/bin/$t -d $1 -x $2 -F -u $PERF_U $o" \
			"/usr/bin/$t -d $3 -x $4 -F -u $PERF_U $o $RDMA_B" > /tmp/cell.log; then
			case $5 in
			write_bw|read_bw) perftest_figure /tmp/bench.client | awk '{ print $4 }' ;;
			send_lat) perftest_lat_us /tmp/bench.client | awk '{ print $5 }' ;;
			esac >> /tmp/cell
		else
			fails=$((fails + 1))
			echo "  $3 -> $1 $5 run $i: $RDMA_VERDICT: $(perftest_error /tmp/bench.client)" >&2
		fi
	done
	printf '%s/%s' "$(median < /tmp/cell)" "$fails"
}

TESTS="write_bw read_bw send_lat"
NETS="clean loss1%"

# column DEVA GIDA DEVB GIDB: every cell, client DEVA -> server DEVB, into
# /tmp/col.NET.TEST.
column() {
	for net in $NETS; do
		rdma_netem_del
		[ $net = clean ] || rdma_netem loss ${net#loss}
		for test in $TESTS; do
			cell $3 $4 $1 $2 $test > /tmp/col.$net.$test
		done
	done
	rdma_netem_del
}

column $RDMA_DEV_A $RDMA_GID_A $RDMA_DEV_B $RDMA_GID_B
for net in $NETS; do for test in $TESTS; do
	mv /tmp/col.$net.$test /tmp/rxe.$net.$test
done; done
echo "rxe0: $(rdma_hw_counters $RDMA_DEV_A)"
echo "rxe1: $(rdma_hw_counters $RDMA_DEV_B)"
$RDMA link del $RDMA_DEV_A && $RDMA link del $RDMA_DEV_B || exit 1

$MODPROBE tonic || exit 1
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || exit 1
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || exit 1
rdma_wait_link tonic0 $RDMA_A G0 && rdma_wait_link tonic1 $RDMA_B G1 || exit 1
column tonic0 $G0 tonic1 $G1
echo "tonic0: $(rdma_hw_counters tonic0)"
echo "tonic1: $(rdma_hw_counters tonic1)"

echo "== perftest, client -> server over the veth pair, median of $R (failed runs after /)"
printf '%-8s %-26s %10s %10s %8s\n' "" "" rxe tonic tonic/rxe
for net in $NETS; do
	for test in $TESTS; do
		case $test in
		write_bw) what="ib_write_bw 64 KiB Gb/s" ;;
		read_bw) what="ib_read_bw 64 KiB Gb/s" ;;
		send_lat) what="ib_send_lat 2 B us (typ)" ;;
		esac
		rxe=$(cat /tmp/rxe.$net.$test) ton=$(cat /tmp/col.$net.$test)
		ratio=$(echo "${rxe%/*} ${ton%/*}" | awk '$1 + 0 > 0 && $2 ~ /^[0-9.]+$/ { printf "%.2f", $2 / $1; exit } { print "-" }')
		printf '%-8s %-26s %10s %10s %8s\n' $net "$what" "$rxe" "$ton" "$ratio"
	done
done
exit 0
