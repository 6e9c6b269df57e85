#!/bin/sh
# irn-flows.sh VARIANT: print irn-base.conf plus the flows of one variant.
# gbn-fifo is gbn with the simulator's old host model: a NIC FIFO without
# bound in front of an engine that never stalls (nic_q 100000), where the
# 10 ns engine queued tens of MB under go-back-N.
# irn-dcqcn and gbn-dcqcn add DCQCN (the IRN paper's 4.3): the switch
# marks ECN as in the DCQCN scenarios (Kmin 5 KB, Kmax 200 KB, Pmax 1 %),
# receivers send a CNP per flow at most every 50 us; irn-dcqcn's BDP-FC is
# init_cwnd (25 packets, as irn's p0).
# The -pfc variants are RoCE as deployed, on PFC (pfc.c): the switch
# pauses a sender whose data in its buffer exceeds 30 KB and resumes it at
# 15 KB; 8 x (30 KB + a pause round trip's 12 KB) fits the 400 KB buffer,
# so nothing is dropped for congestion -- the random loss stays.
# gbn-dcqcn-lossless is RoCE + DCQCN on PFC without the random loss either:
# a lossless fabric (dcqcn's own 4 ms RTO never fires).
dir=$(dirname "$0")
nicq= sw=
case $1 in
irn)       args="prog=irn rx=irn rate_gbps=40 p0=25" ;;
irn-nobdp) args="prog=irn rx=irn rate_gbps=40 p0=0xffffffff" ;;
gbn)       args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320" ;;
gbn-fifo)  args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320"; nicq="nic_q 100000" ;;
gbn-pfc)   args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320"; sw=pfc ;;
irn-dcqcn) args="prog=irn-dcqcn rx=irn rate_gbps=40 init_cwnd=25 cnp=1 cnp_us=50"; sw=ecn ;;
gbn-dcqcn) args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320 cnp=1 cnp_us=50"; sw=ecn ;;
gbn-dcqcn-pfc)
	args="prog=dcqcn rx=gbn rate_gbps=40 rto_us=320 cnp=1 cnp_us=50"; sw="ecn pfc" ;;
gbn-dcqcn-lossless)
	args="prog=dcqcn rx=gbn rate_gbps=40 cnp=1 cnp_us=50"; sw="ecn pfc noloss" ;;
*) echo "usage: $0 irn|irn-nobdp|gbn|gbn-fifo|gbn-pfc|irn-dcqcn|gbn-dcqcn|gbn-dcqcn-pfc|gbn-dcqcn-lossless" >&2
   exit 2 ;;
esac
echo "name irn-$1"
[ -n "$nicq" ] && echo "$nicq"
ecn= pfc= noloss=
for k in $sw; do eval $k=1; done
sed -e "${ecn:+s/^switch .*/& ecn_kmin_kb=5 ecn_kmax_kb=200 ecn_pmax=0.01/}" \
    -e "${pfc:+s/^switch .*/& pfc_kb=30/}" \
    -e "${noloss:+s/ loss=[0-9.]*//}" "$dir/irn-base.conf"
for h in 0 1 2 3 4 5 6 7; do
	echo "flow src=$h dst=8 $args seg=1000 segs=500 count=20 every_us=1000 jitter_us=50"
done
