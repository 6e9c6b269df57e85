#!/bin/sh
# `make bench-rdma`: RoCEv2 figures on the RDMA bed (rdma-lib.sh), one
# guest boot: perftest ib_write_bw 64 KiB, ib_read_bw 64 KiB and
# ib_send_lat 2 B, and tonic_rdma_xfer (WRITE and READ of 64 KiB work
# requests, 8 rounds of 1 MiB each way, data checked; Gb/s from its own
# wall-clock time), clean and with netem loss 1 % on both veth ends; the
# median of R runs each.  Columns: rxe (Soft-RoCE, rxe0 -> rxe1: the
# reference), tonic (tonic_rdma.ko, tonic0 -> tonic1, each RC QP a Tonic
# flow of program rc: go-back-N like rxe) and irn (the same with program
# irn: IRN's selective repeat, rdma.rst), and their ratios to rxe.  Prints figures; not a
# pass/fail timing.  Under TCG every figure is an emulated CPU's: compare
# the columns, not the absolute numbers.  perftest's bandwidth comes from
# the TSC and its idea of the CPU's MHz, which under TCG is sometimes
# wrong: a run that moved every byte can report 0.000000 Gb/s (seen in
# tonic0 -> tonic1 runs whose counters show every response delivered);
# the xfer row does not depend on it.
# timeout: 2400
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
		write_bw) t=ib_write_bw o="-F -u $PERF_U -s 65536 -n $BW_ITERS --report_gbits" ;;
		read_bw) t=ib_read_bw o="-F -u $PERF_U -s 65536 -n $BW_ITERS --report_gbits" ;;
		send_lat) t=ib_send_lat o="-F -u $PERF_U -s 2 -n $LAT_ITERS -C" ;;
		xfer) t=tonic_rdma_xfer o="-s 1048576 -m 65536 -n $XFER_ROUNDS" ;;
		esac
		case $5 in
		xfer) g=-g ;;
		*) g=-x ;;
		esac
		if rdma_run bench 60 18515 \
			"/usr/bin/$t -d $1 $g $2 -p 18515 $o" \
			"/usr/bin/$t -d $3 $g $4 -p 18515 $o $RDMA_B" > /tmp/cell.log; then
			case $5 in
			write_bw|read_bw) perftest_figure /tmp/bench.client | awk '{ print $4 }' ;;
			send_lat) perftest_lat_us /tmp/bench.client | awk '{ print $5 }' ;;
			xfer) awk -v n=$XFER_ROUNDS '/data ok/ { printf "%.3f\n", 2 * n * 1048576 * 8 / $(NF - 1) / 1e9 }' \
				/tmp/bench.client ;;
			esac >> /tmp/cell
		else
			fails=$((fails + 1))
			echo "  $3 -> $1 $5 run $i: $RDMA_VERDICT: $(perftest_error /tmp/bench.client)" >&2
		fi
	done
	printf '%s/%s' "$(median < /tmp/cell)" "$fails"
}

TESTS="write_bw read_bw send_lat xfer"
XFER_ROUNDS=8
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
echo "tonic0 (rc): $(rdma_hw_counters tonic0)"
echo "tonic1 (rc): $(rdma_hw_counters tonic1)"
for net in $NETS; do for test in $TESTS; do
	mv /tmp/col.$net.$test /tmp/rc.$net.$test
done; done
rdma_program irn 0,0,0,0 || exit 1
column tonic0 $G0 tonic1 $G1
echo "tonic0 (rc, then irn): $(rdma_hw_counters tonic0)"
echo "tonic1 (rc, then irn): $(rdma_hw_counters tonic1)"

ratio() {
	echo "${1%/*} ${2%/*}" | awk '$1 + 0 > 0 && $2 ~ /^[0-9.]+$/ { printf "%.2f", $2 / $1; exit } { print "-" }'
}

echo "== perftest, client -> server over the veth pair, median of $R (failed runs after /)"
printf '%-8s %-26s %10s %10s %10s %8s %8s\n' "" "" rxe tonic irn tonic/rxe irn/rxe
for net in $NETS; do
	for test in $TESTS; do
		case $test in
		write_bw) what="ib_write_bw 64 KiB Gb/s" ;;
		read_bw) what="ib_read_bw 64 KiB Gb/s" ;;
		send_lat) what="ib_send_lat 2 B us (typ)" ;;
		xfer) what="xfer W+R 64 KiB Gb/s" ;;
		esac
		rxe=$(cat /tmp/rxe.$net.$test) ton=$(cat /tmp/rc.$net.$test) irn=$(cat /tmp/col.$net.$test)
		printf '%-8s %-26s %10s %10s %10s %8s %8s\n' $net "$what" "$rxe" "$ton" "$irn" \
			"$(ratio "$rxe" "$ton")" "$(ratio "$rxe" "$irn")"
	done
done
exit 0
