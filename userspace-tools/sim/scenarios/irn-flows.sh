#!/bin/sh
# irn-flows.sh VARIANT: print irn-base.conf plus the flows of one variant.
# gbn-nic is gbn with one engine cycle per wire-packet time (200 ns for
# 1000 B at 40 Gb/s): the engine then emits at most what the NIC sends, so
# the NIC queue stays at one packet -- the bounded, back-pressured NIC that
# the 10 ns runs lack (their NIC FIFO grows to tens of MB under go-back-N).
# The go-back-N program (dcqcn, never cut here) keeps its times in
# microseconds and the RTO is given in us, so the cycle changes nothing else.
dir=$(dirname "$0")
cycle=
case $1 in
irn)       args="prog=irn rx=irn rate_gbps=40 p0=25" ;;
irn-nobdp) args="prog=irn rx=irn rate_gbps=40 p0=0xffffffff" ;;
gbn)       args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320" ;;
gbn-nic)   args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320"; cycle="cycle_ps 200000" ;;
*) echo "usage: $0 irn|irn-nobdp|gbn|gbn-nic" >&2; exit 2 ;;
esac
echo "name irn-$1"
[ -n "$cycle" ] && echo "$cycle"
cat "$dir/irn-base.conf"
for h in 0 1 2 3 4 5 6 7; do
	echo "flow src=$h dst=8 $args seg=1000 segs=500 count=20 every_us=1000 jitter_us=50"
done
