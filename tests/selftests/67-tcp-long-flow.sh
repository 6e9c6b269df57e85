#!/bin/sh
# A flow of more than 4 GiB: past the wrap of the 32-bit sequence space
# (the glue sends isn + offset) and past 2 GiB from where it began.  The
# glue reads an ACK's sequence number as a 32-bit distance from its
# bursts' base, and a base that only moved with the bursts stood still
# for a flow that never cut a sub-segment: every ACK after 2 GiB would
# have been taken for an old one.  The base now follows the ACKs
# (carve.c: tonic_bursts_acked()).  Writes of 45 segments of the MSS
# leave no bytes over; the guest's sender still cuts sub-segments when it
# waits for room (the count is printed), so this flow need not be one
# that never does.  Kernel cubic carries the same bytes on the same path.
# timeout: 400
. /tests/lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}
stat() { awk -v k=$1 '$1 == k { print $2 }' /sys/kernel/debug/tonic/stats; }

BYTES=4400M
on h2 $IPERF -s -D -p 5201 || ksft_fail "iperf3 server"
wait_listen h2 5201 || ksft_fail "iperf3 server listens"
for cc in cubic tonic; do
	f0=$(stat failed) r0=$(stat rebases) s0=$(stat segs_tx) u0=$(stat sub_segments)
	# C = MSS = 1448 here (1500-byte MTU, timestamps): writes of 65160.
	timeout 150 $IP netns exec h1 $IPERF -c 10.0.0.2 -p 5201 -n $BYTES -l 65160 -C $cc -f m \
		> /tmp/iperf.67 2>&1
	rc=$?
	segs=$(($(stat segs_tx) - s0))
	echo "$cc: rc $rc, $(grep receiver /tmp/iperf.67 | awk '{ print $5, $6, $7, $8 }')," \
		"$segs segments sent by the offload, $(($(stat sub_segments) - u0)) of them short"
	[ $rc = 0 ] || sed 's/^/  iperf3: /' /tmp/iperf.67
	check "$cc: $BYTES delivered" test $rc = 0
	[ $cc = tonic ] || continue
	# 4400 MB in segments of at most 1448 bytes: over 3.18 M.
	check "tonic: the offload sent them ($segs segments >= 3180000)" test $segs -ge 3180000
	check "tonic: no flow failed ($(($(stat failed) - f0)))" test $(stat failed) = $f0
	check "tonic: no re-base ($(($(stat rebases) - r0)))" test $(stat rebases) = $r0
done
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
echo "ok: a flow past 4 GiB keeps its ACKs"
