#!/bin/sh
# irn-flows.sh VARIANT: print irn-base.conf plus the flows of one variant.
dir=$(dirname "$0")
case $1 in
irn)       args="prog=irn rx=irn rate_gbps=40 p0=25" ;;
irn-nobdp) args="prog=irn rx=irn rate_gbps=40 p0=0xffffffff" ;;
gbn)       args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320" ;;
*) echo "usage: $0 irn|irn-nobdp|gbn" >&2; exit 2 ;;
esac
echo "name irn-$1"
cat "$dir/irn-base.conf"
for h in 0 1 2 3 4 5 6 7; do
	echo "flow src=$h dst=8 $args seg=1000 segs=500 count=20 every_us=1000 jitter_us=50"
done
