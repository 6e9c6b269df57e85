#!/bin/sh
# rdma-glue: InfiniBand congestion control (seed 001) end to end, and
# tenants.  An 8 Mb/s bottleneck (tbf) on vethA's egress whose queue is RED
# marking ECN-capable packets CE; ib_write_bw tonic0 -> tonic1 through it,
# one process pair per tenant, each in a cgroup of its own.  Program ibcc:
# a CE packet makes the receiving QP send a CNP (the BECN), every time
# (cnp_interval_us 0: IB answers each FECN), which moves the sending
# flow's CCTI up by CCTI_Increase; every CCTI_Timer without one moves it
# down by one.
#  * The seed's theorem: three flows whose CCTI_Increase are 1, 2 and 3
#    (tenants with a fixed value, one QP each) get CNPs 1 : 1/2 : 1/3
#    (within 15 %) and rates 1 : 1/2 : 1/3 (within 20 %, see below).
#  * Tenants, automatic: tenants of 1, 2 and 3 QPs; the device sets each
#    flow's CCTI_Increase to the number of its tenant's congested flows, so
#    the tenants' totals are equal within 10 %.
# The test bed (rdma_ibcc_bed in rdma-lib.sh): the CCT scaled x 512
# (ibcc's param 4) for an 8 Mb/s link, as a subnet manager programs a
# table for its links -- the reference table's slowest entry is 155 Mb/s
# with 1 KiB packets; CCTI_Min 25 caps a flow at 7.8 Mb/s, the link's
# rate; CCTI_Timer 20 ms.  In the guest the marks come in bursts about a
# second apart (the queue's sawtooth): a flow counts as congested for 3 s
# after a CNP (tonic.tenant_hold_ms, 500 by default).
# timeout: 600
. /tests/rdma-lib.sh
P=/sys/module/tonic_rdma/parameters

# within REF GOT PCT: |GOT / REF - 1| <= PCT %.
within() {
	awk -v r="$1" -v g="$2" -v p="$3" 'BEGIN { if (r <= 0) exit 1; d = g / r - 1; if (d < 0) d = -d; exit !(d * 100 <= p) }'
}

$MODPROBE tonic || ksft_fail "modprobe tonic"
rdma_pair || ksft_fail "rdma_pair"
rdma_ibcc_bed || ksft_fail "IB CC test bed (rdma_ibcc_bed)"
CG=$RDMA_CG

# By uid: the queue pairs of uid 65534's ibv_rc_pingpong join tenant N
# (both ends: the two QPs), root's do not; they leave when it ends.
chmod 666 /dev/infiniband/uverbs* || ksft_fail "uverbs devices"
/usr/bin/tonic tenant add N uid 65534 || ksft_fail "tonic tenant add N uid 65534"
rdma_bg /tmp/N.res rdma_run ppN 120 18520 \
	"/usr/bin/tonic_unpriv nobody /usr/bin/ibv_rc_pingpong -d tonic1 -g $G1 -p 18520 -n 4000" \
	"/usr/bin/tonic_unpriv nobody /usr/bin/ibv_rc_pingpong -d tonic0 -g $G0 -p 18520 -n 4000 $RDMA_B"
i=0 seen=
while [ $i -lt $((300 * TONIC_TIMEOUT_SCALE)) ] && ! rdma_bg_done /tmp/N.res; do
	seen=$(/usr/bin/tonic tenant show N | awk '{ print $7 }')
	[ "$seen" = 2 ] && break
	sleep 0.1
	i=$((i + 1))
done
members=$(/usr/bin/tonic flow show | grep -c ' tenant N')
wait
rdma_bg_ok /tmp/N.res || { cat /tmp/N.res; ksft_fail "ibv_rc_pingpong as uid 65534"; }
echo "uid 65534's pingpong: tenant N counted $seen flows, flow show listed $members in it"
[ "$seen" = 2 ] && [ "$members" = 2 ] || ksft_fail "tenant N: $seen flows counted, $members listed, not 2"
sleep 0.1
[ "$(/usr/bin/tonic tenant show N | awk '{ print $7 }')" = 0 ] ||
	ksft_fail "tenant N still counts flows after the pingpong: $(/usr/bin/tonic tenant show N)"
/usr/bin/tonic tenant del N || ksft_fail "tonic tenant del N"

# The theorem: CCTI_Increase 1 : 2 : 3, fixed per tenant.
/usr/bin/tonic tenant add A cgroup $CG/A fixed 1 &&
/usr/bin/tonic tenant add B cgroup $CG/B fixed 2 &&
/usr/bin/tonic tenant add C cgroup $CG/C fixed 3 || ksft_fail "tonic tenant add (fixed)"
rdma_tenants_run 1 1 1 || ksft_fail "ib_write_bw of the tenants (fixed)"
set -- $RATES $CNPS
echo "fixed CCTI_Increase 1:2:3: rates 1 : $(awk -v a=$1 -v b=$2 -v c=$3 'BEGIN { printf "%.3f : %.3f", b / a, c / a }') (theorem 1 : 0.500 : 0.333); CNPs x CCTI_Increase $4 $(awk -v b=$5 -v c=$6 'BEGIN { printf "%.1f %.1f", 2 * b, 3 * c }') per s"
# The theorem's balance: each flow's BECNs x CCTI_Increase = its CCTI_Timer
# steps, the same for all.  Then rates 1 : 1/2 : 1/3 if every packet is as
# likely to be marked; in the guest the higher-increase flows' packets are
# marked less often (they back off more at each burst of marks) and get
# 5-16 % more than the theorem (Documentation/rdma.rst): within 20 %.
for x in "$(awk -v b=$5 'BEGIN { print 2 * b }')" "$(awk -v c=$6 'BEGIN { print 3 * c }')"; do
	within $4 $x 15 || ksft_fail "CNPs x CCTI_Increase $4 / $x per s: not equal within 15 %"
done
within $(awk -v a=$1 'BEGIN { print a / 2 }') $2 20 ||
	ksft_fail "CCTI_Increase 2: rate $2 segments/s, not half of $1 within 20 %"
within $(awk -v a=$1 'BEGIN { print a / 3 }') $3 20 ||
	ksft_fail "CCTI_Increase 3: rate $3 segments/s, not a third of $1 within 20 %"
awk -v a=$1 -v b=$2 -v c=$3 'BEGIN { exit !(a > b && b > c && c > 0) }' ||
	ksft_fail "rates not ordered by CCTI_Increase: $1 $2 $3"
# Each flow shows its CCTI (the program's get_info): congested, between
# CCTI_Min (25 here) and CCTI_Limit (127).
[ "$(echo $CCTIS | wc -w)" = 3 ] || ksft_fail "CCTI of 3 flows shown: $CCTIS"
for x in $CCTIS; do
	[ "$x" -ge 25 ] && [ "$x" -le 127 ] ||
		ksft_fail "a flow's CCTI is $x (CCTI_Min 25, CCTI_Limit 127)"
done
for t in A B C; do /usr/bin/tonic tenant del $t || ksft_fail "tonic tenant del $t"; done

# Automatic: tenants of 1, 2 and 3 QPs get equal shares.
for t in A B C; do /usr/bin/tonic tenant add $t cgroup $CG/$t || ksft_fail "tonic tenant add $t"; done
rdma_tenants_run 1 2 3 || ksft_fail "ib_write_bw of the tenants (automatic)"
set -- $RATES
echo "automatic, tenants of 1, 2, 3 QPs: totals $1 $2 $3 segments/s"
echo "$VALUES" | awk '$1 == "A" && $4 == 1 { a = 1 } $1 == "B" && $4 == 2 { b = 1 } $1 == "C" && $4 == 3 { c = 1 }
	END { exit !(a && b && c) }' || ksft_fail "tenant values midway are not 1, 2, 3: $VALUES"
m=$(awk -v a=$1 -v b=$2 -v c=$3 'BEGIN { print (a + b + c) / 3 }')
for r in $1 $2 $3; do
	within $m $r 10 || ksft_fail "tenant totals $1 $2 $3 segments/s: not equal within 10 %"
done

rdma_netem_del
for t in A B C; do /usr/bin/tonic tenant del $t || ksft_fail "tonic tenant del $t"; done
echo 50 > $P/cnp_interval_us
echo 500 > /sys/module/tonic/parameters/tenant_hold_ms
$RDMA link del tonic0 && $RDMA link del tonic1 || ksft_fail "rdma link del tonic"
# Unloading with tenants left frees them (and their cgroup references:
# the cgroups can go).
/usr/bin/tonic tenant add X cgroup $CG/A && /usr/bin/tonic tenant add Y uid 1 ||
	ksft_fail "tonic tenant add before unloading"
$MODPROBE -r tonic_rdma && $MODPROBE -r tonic || ksft_fail "unload with tenants"
for t in A B C; do rmdir $CG/$t || ksft_fail "rmdir $CG/$t"; done
$MODPROBE tonic || ksft_fail "modprobe tonic again"
[ -z "$(/usr/bin/tonic tenant show)" ] || ksft_fail "tenants after reloading: $(/usr/bin/tonic tenant show)"
exit $KSFT_PASS
