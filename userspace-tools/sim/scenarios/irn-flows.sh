#!/bin/sh
# irn-flows.sh VARIANT: print irn-base.conf plus the flows of one variant.
# gbn-fifo is gbn with the simulator's old host model: a NIC FIFO without
# bound in front of an engine that never stalls (nic_q 100000), where the
# 10 ns engine queued tens of MB under go-back-N.
# irn-dcqcn and gbn-dcqcn add DCQCN (the IRN paper's 4.3): the switch
# marks ECN as in the DCQCN scenarios (Kmin 5 KB, Kmax 200 KB, Pmax 1 %),
# receivers send a CNP per flow at most every 50 us; irn-dcqcn's BDP-FC is
# init_cwnd (25 packets, as irn's p0).  gbn-dcqcn-lossless stands in for
# RoCE + DCQCN with PFC, which the simulator lacks: a 32 MB buffer (as the
# DCQCN scenarios'), no random loss, and dcqcn's own 4 ms RTO.
dir=$(dirname "$0")
nicq= ecn= lossless=
case $1 in
irn)       args="prog=irn rx=irn rate_gbps=40 p0=25" ;;
irn-nobdp) args="prog=irn rx=irn rate_gbps=40 p0=0xffffffff" ;;
gbn)       args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320" ;;
gbn-fifo)  args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320"; nicq="nic_q 100000" ;;
irn-dcqcn) args="prog=irn-dcqcn rx=irn rate_gbps=40 init_cwnd=25 cnp=1 cnp_us=50"; ecn=1 ;;
gbn-dcqcn) args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320 cnp=1 cnp_us=50"; ecn=1 ;;
gbn-dcqcn-lossless)
	args="prog=dcqcn rx=gbn rate_gbps=40 cnp=1 cnp_us=50"; ecn=1 lossless=1 ;;
*) echo "usage: $0 irn|irn-nobdp|gbn|gbn-fifo|irn-dcqcn|gbn-dcqcn|gbn-dcqcn-lossless" >&2
   exit 2 ;;
esac
echo "name irn-$1"
[ -n "$nicq" ] && echo "$nicq"
if [ -n "$lossless" ]; then
	sed 's/^switch .*/switch buffer_kb=32000 ecn_kmin_kb=5 ecn_kmax_kb=200 ecn_pmax=0.01/
	     s/ loss=[0-9.]*//' "$dir/irn-base.conf"
elif [ -n "$ecn" ]; then
	sed 's/^switch .*/& ecn_kmin_kb=5 ecn_kmax_kb=200 ecn_pmax=0.01/' "$dir/irn-base.conf"
else
	cat "$dir/irn-base.conf"
fi
for h in 0 1 2 3 4 5 6 7; do
	echo "flow src=$h dst=8 $args seg=1000 segs=500 count=20 every_us=1000 jitter_us=50"
done
