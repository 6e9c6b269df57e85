#!/bin/sh
# `make bench-rdma`: RoCEv2 figures on the RDMA bed (rdma-lib.sh), one
# guest boot: perftest ib_write_bw 64 KiB and ib_send_lat 2 B, clean and
# with netem loss 1 % on both veth ends; the median of R runs each.
# Columns: rxe (Soft-RoCE, rxe0 -> rxe1: the reference) and tonic0 (the
# project's tonic_rdma.ko, issue 13: not written yet, its column prints
# "-").  Prints figures; not a pass/fail timing.  Under TCG every figure is
# an emulated CPU's: compare the columns, not the absolute numbers.
# timeout: 600
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
		send_lat) t=ib_send_lat o="-s 2 -n $LAT_ITERS -C" ;;
		esac
		if rdma_run bench 60 18515 \
			"/usr/bin/$t -d $1 -x $2 -F -u $PERF_U $o" \
			"/usr/bin/$t -d $3 -x $4 -F -u $PERF_U $o $RDMA_B" > /tmp/cell.log; then
			case $5 in
			write_bw) perftest_figure /tmp/bench.client | awk '{ print $4 }' ;;
			send_lat) perftest_lat_us /tmp/bench.client | awk '{ print $5 }' ;;
			esac >> /tmp/cell
		else
			fails=$((fails + 1))
			echo "  $3 -> $1 $5 run $i: $RDMA_VERDICT: $(perftest_error /tmp/bench.client)" >&2
		fi
	done
	printf '%s/%s' "$(median < /tmp/cell)" "$fails"
}

# column_rxe NET TEST: rxe0 -> rxe1.
column_rxe() {
	cell $RDMA_DEV_B $RDMA_GID_B $RDMA_DEV_A $RDMA_GID_A "$2"
}

# column_tonic0 NET TEST: the tonic_rdma.ko cell.  To fill in when
# rdma-glue/ has a device: load tonic_rdma, add tonic0 on vethA in
# place of rxe0 (rxe1 stays the peer on vethB: the interoperability
# the issue asks for), find its GID index (rdma_gid_index tonic0 $RDMA_A),
# and return
#   cell $RDMA_DEV_B $RDMA_GID_B tonic0 "$TONIC_GID" "$2"
column_tonic0() {
	[ -d /sys/class/infiniband/tonic0 ] || { printf -- '-'; return; }
	printf -- '-'
}

echo "== perftest, client -> server rxe1 over the veth pair, median of $R (failed runs after /)"
printf '%-28s %14s %14s\n' "" rxe tonic0
for net in clean "loss 1%"; do
	rdma_netem_del
	[ "$net" = clean ] || rdma_netem $net
	for test in write_bw send_lat; do
		case $test in
		write_bw) what="ib_write_bw 64 KiB Gb/s" ;;
		send_lat) what="ib_send_lat 2 B us (typ)" ;;
		esac
		rxe=$(column_rxe "$net" $test)
		ton=$(column_tonic0 "$net" $test)
		printf '%-8s %-19s %14s %14s\n' "$(echo $net | tr -d ' ')" "$what" "$rxe" "$ton"
	done
done
rdma_netem_del
echo "rxe0: $(rdma_hw_counters $RDMA_DEV_A)"
echo "rxe1: $(rdma_hw_counters $RDMA_DEV_B)"
exit 0
