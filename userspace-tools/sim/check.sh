#!/bin/sh
# check.sh: the quick scenarios as regression tests (make sim-check), TAP in
# $B/results/sim-check.tap.  Short runs of the eval scenarios; each test
# compares a simulated figure with a tolerance.  No wall-clock checks.
B=${B:-build}
SIM=${SIM:-$B/sim/tonic-sim}
D=$(dirname "$0")
SC=$D/scenarios
W=$B/sim-check
TAP=$B/results/sim-check.tap
rm -rf "$W"
mkdir -p "$W" "$(dirname "$TAP")"
: > "$TAP"
n=0
ok() {	# ok COND DESC
	n=$((n + 1))
	if [ "$1" = 1 ]; then echo "ok $n - $2" >> "$TAP"; else echo "not ok $n - $2" >> "$TAP"; fi
}
get() {	# get RUN KEY [FIELD]
	awk -v k="$2" -v f="${3:-2}" '$1 == k { print $f; exit }' "$W/$1/summary.txt"
}
tst() {	# tst EXPR -> 1/0
	awk "BEGIN { print ($1) ? 1 : 0 }"
}
run() {	# run NAME CONFIG ARGS...
	name=$1; conf=$2; shift 2
	if ! "$SIM" "$@" "$conf" "$W/$name" > "$W/$name.log" 2>&1; then
		ok 0 "$name: simulator failed"; sed 's/^/#   /' "$W/$name.log" >> "$TAP"
		return 1
	fi
}

# (1) NewReno vs the reference on one loss pattern.
if run nr1 $SC/newreno-loss.conf -t 50; then
	t=$(awk -F, '$1 == 0 { print $13 }' $W/nr1/flows.csv)
	r=$(awk -F, '$1 == 1 { print $13 }' $W/nr1/flows.csv)
	ok $(tst "$t > 0 && $r > 0 && ($t - $r) / $r < 0.15 && ($r - $t) / $r < 0.15") \
		"newreno-loss: Tonic $t Mb/s within 15 % of reference $r Mb/s"
	ok $(tst "$(awk -F, '$1 == 0 { print $11 }' $W/nr1/flows.csv) > 0") "newreno-loss: losses were retransmitted"
fi
# At the Tonic paper's 100 ns cycle the two cwnd traces coincide once the
# hosts are the same model: NICs that hold the whole window (with a
# 2-packet NIC Tonic still has its ring of 16 addresses, the reference
# nothing: evaluation.rst (1a)).
{ echo "nic_q 1000"; sed 's/^cycle_ps .*/cycle_ps 100000/' $SC/newreno-loss.conf; } > $W/nr100.conf
if run nr100 $W/nr100.conf -t 50; then
	same=$(awk -F, 'NR > 1 { c[$1 "," $2] = $4; t[$1] = 1 }
		END { for (k in t) if ((k ",0") in c && (k ",1") in c) { n++; s += c[k ",0"] == c[k ",1"] }
		      printf "%.3f", s / n }' $W/nr100/samples.csv)
	ok $(tst "$same >= 0.85") "newreno-loss at 100 ns, equal NICs: cwnd identical in $same of the samples (>= 0.85)"
fi
# Determinism: the same seed gives the same bytes.
if run nr1b $SC/newreno-loss.conf -t 50; then
	ok $(cmp -s $W/nr1/seq.csv $W/nr1b/seq.csv && echo 1 || echo 0) \
		"newreno-loss: same seed, identical trace"
fi

# Loss-list replay (kernel-trace/): exactly the listed transmissions are
# lost, no others, for Tonic and the reference alike.
printf '# seg txn\n300 0\n301 0\n900 0\n2000 0\n2000 1\n' > $W/losses.txt
sed -e '/^port /d' -e "s|loss_key=7|loss_list=$W/losses.txt|" $SC/newreno-loss.conf > $W/replay.conf
if run replay $W/replay.conf -t 20; then
	l=$(awk '$1 == "port_sw1" { print $13 }' $W/replay/summary.txt)
	l3=$(awk '$1 == "port_sw3" { print $13 }' $W/replay/summary.txt)
	ok $(tst "$l == 5 && $l3 == 5") "newreno-loss replay: loss list of 5 gives $l / $l3 losses"
fi

# (2) 200 NewReno flows (Jain over 0.3-1 s).
if run nr200 $SC/newreno-200-tonic.conf -t 1000; then
	j=$(get nr200 jain); s=$(get nr200 thr_sum_mbps)
	ok $(tst "$j >= 0.93") "newreno-200: Jain index $j >= 0.93"
	ok $(tst "$s >= 9000") "newreno-200: bottleneck goodput $s Mb/s >= 9000"
fi

# (3) DCQCN: two flows share 40 Gb/s; 200 flows converge, to what the
# independent reference (refdcqcn.c) converges to.  The seed's 203 Mb/s
# is not reproduced by either (evaluation.rst (3)), so it is not tested.
for v in "" -ref; do
	run d2$v $SC/dcqcn-2$v.conf || continue
	a=$(get d2$v thr_min_mbps); b=$(get d2$v thr_max_mbps)
	ok $(tst "($b - $a) / ($a + $b) < 0.10") "dcqcn-2$v: shares $a / $b Mb/s within 10 % (50-100 ms)"
done
if run d200 $SC/dcqcn-200.conf -t 150 && run d200r $SC/dcqcn-200-ref.conf -t 150; then
	m=$(get d200 thr_mean_mbps); sd=$(get d200 thr_std_mbps); r=$(get d200r thr_mean_mbps)
	ok $(tst "$sd / $m < 0.05") "dcqcn-200: spread $sd Mb/s < 5 % of mean $m Mb/s"
	ok $(tst "($m - $r) / $r < 0.04 && ($r - $m) / $r < 0.04") \
		"dcqcn-200: mean $m Mb/s within 4 % of the reference's $r Mb/s"
fi
# The reference given the program's two differences (evaluation.rst (3))
# must land on Tonic: that is what explains the gap.
{ echo "ref_fr_at_f 1"; echo "ref_pacer_tb 1"; cat $SC/dcqcn-200-ref.conf; } > $W/d200all.conf
if run d200a $W/d200all.conf -t 150; then
	m=$(get d200 thr_mean_mbps); r=$(get d200a thr_mean_mbps)
	ok $(tst "($m - $r) / $r < 0.01 && ($r - $m) / $r < 0.01") \
		"dcqcn-200: mean $m Mb/s within 1 % of the reference with the program's differences, $r Mb/s"
fi

# (4) 128 B back to back saturate 100 Gb/s.
if run d128 $SC/dcqcn-128b.conf -t 1; then
	u=$(get d128 port_nic0 3)
	ok $(tst "$u >= 0.99") "dcqcn-128b: 100 Gb/s NIC utilisation $u >= 0.99"
fi

# (5) IRN beats IRN without BDP-FC beats go-back-N.
for v in irn irn-nobdp gbn; do
	$SC/irn-flows.sh $v > $W/irn-$v.conf
	run irn-$v $W/irn-$v.conf
done
i=$(get irn-irn fct_mean_us); nb=$(get irn-irn-nobdp fct_mean_us)
gd=$(get irn-gbn fct_done); id=$(get irn-irn fct_done); tot=$(get irn-irn fct_flows)
ok $(tst "$id == $tot") "irn: all $tot messages complete"
ok $(tst "$i < $nb") "irn: mean FCT $i us < without BDP-FC $nb us"
ok $(tst "${gd:-0} < $id") "irn: go-back-N completes fewer messages (${gd:-0} < $id)"
# The collapse is go-back-N's, not the host model's: the 10 ns engine's
# transmit module stalls while the NIC holds 2 packets (1040 B each on the
# wire), so nothing piles up in front of the link.
nq=$(awk '$1 ~ /^port_nic/ && $7 > m { m = $7 } END { print m + 0 }' $W/irn-gbn/summary.txt)
ok $(tst "$nq <= 2.08") "irn: go-back-N's NIC queue holds at most 2 packets (max $nq KB)"
ok $(tst "${gd:-0} < $id / 4") "irn: go-back-N with a bounded NIC collapses (${gd:-0} of $tot messages)"
# RoCE as deployed, on PFC: the switch pauses senders instead of dropping,
# so go-back-N completes -- and IRN without PFC is still faster (seed 002).
$SC/irn-flows.sh gbn-pfc > $W/irn-gbn-pfc.conf
if run irn-gbn-pfc $W/irn-gbn-pfc.conf; then
	pd=$(get irn-gbn-pfc fct_done); pm=$(get irn-gbn-pfc fct_mean_us)
	pdr=$(get irn-gbn-pfc port_sw8 5)
	pp=$(awk '$1 ~ /^port_nic/ { n += $11 } END { print n + 0 }' $W/irn-gbn-pfc/summary.txt)
	ok $(tst "$pd == $tot && $pdr == 0 && $pp > 0") \
		"irn: go-back-N on PFC completes $pd of $tot, $pdr switch drops, $pp pauses"
	ok $(tst "$i < $pm") "irn: IRN without PFC, mean FCT $i us < RoCE go-back-N on PFC $pm us"
fi
# IRN with DCQCN (irn-dcqcn): every message completes, faster than RoCE's
# go-back-N with DCQCN on the same lossy path and than RoCE + DCQCN on a
# lossless fabric (PFC, no random loss).
for v in irn-dcqcn gbn-dcqcn gbn-dcqcn-lossless; do
	$SC/irn-flows.sh $v > $W/irn-$v.conf
	run irn-$v $W/irn-$v.conf
done
idd=$(get irn-irn-dcqcn fct_done); idm=$(get irn-irn-dcqcn fct_mean_us)
gdm=$(get irn-gbn-dcqcn fct_mean_us); gdd=$(get irn-gbn-dcqcn fct_done)
glm=$(get irn-gbn-dcqcn-lossless fct_mean_us)
im=$(get irn-irn-dcqcn port_sw8 7)
ok $(tst "$idd == $tot && ${im:-0} > 0") "irn-dcqcn: all $tot messages complete, ECN marks $im (DCQCN active)"
ok $(tst "${gdd:-0} < $tot || $idm < ${gdm:-0}") \
	"irn-dcqcn: mean FCT $idm us beats go-back-N + DCQCN (${gdd:-0} done, mean ${gdm:-?} us)"
ok $(tst "$idm < ${glm:-0}") "irn-dcqcn: mean FCT $idm us < RoCE + DCQCN on PFC, no random loss, ${glm:-?} us"

# (6) IB CC: 1 : 1/2 : 1/3 and tenant fairness.
# The BECN ratio is the theorem's (timer equilibrium) and is held tight;
# the rate ratio is off by the marking (evaluation.rst (6): the slower QPs'
# packets are marked less often), so it is only held to the same order,
# and the slowest QP's marked fraction must stay below the fastest's.
if run ib $SC/ibcc-ratio.conf -t 150; then
	g0=$(get ib group0_mbps); g1=$(get ib group1_mbps); g2=$(get ib group2_mbps)
	b=$(awk -F, 'NR > 1 { c[$1] = $16 } END { printf "%.4f %.4f", c[1] / c[0], c[2] / c[0] }' $W/ib/flows.csv)
	b1=${b% *}; b2=${b#* }
	ok $(tst "($b1 - 0.5) < 0.03 && ($b1 - 0.5) > -0.03") "ibcc-ratio: inc 2 BECNs $b1 of inc 1's, within 0.03 of 1/2"
	ok $(tst "($b2 - 0.333) < 0.03 && ($b2 - 0.333) > -0.03") "ibcc-ratio: inc 3 BECNs $b2 of inc 1's, within 0.03 of 1/3"
	ok $(tst "($g1 / $g0 - 0.5) < 0.15 && ($g1 / $g0 - 0.5) > -0.15") "ibcc-ratio: inc 2 share $g1 / $g0 within 0.15 of 1/2"
	ok $(tst "($g2 / $g0 - 0.333) < 0.15 && ($g2 / $g0 - 0.333) > -0.15") "ibcc-ratio: inc 3 share $g2 / $g0 within 0.15 of 1/3"
	m=$(awk -F, 'NR > 1 { m[$1] = $17 / $10 } END { print (m[2] < m[0]) ? 1 : 0 }' $W/ib/flows.csv)
	ok $m "ibcc-ratio: the slowest QP's packets are marked less often than the fastest's"
fi
# Seed 001 Fig. 4: a QP held at one CCT entry runs at 4 x 1024 B per IRD.
if run ibc $SC/ibcc-cct.conf -t 20; then
	r=$(awk -F, '$1 == 1 { print $13 }' $W/ibc/flows.csv)
	ok $(tst "$r > 1600 && $r < 1670") "ibcc-cct: CCTI 39 (IRD 20.05 us) gives $r Mb/s (4 x 8192 b / 20.05 us = 1634)"
fi
if run ibt $SC/ibcc-tenant.conf; then
	# Mean Mb/s over the 250 ms run, from the bytes each tenant received.
	g0=$(awk -F, 'NR > 1 && $4 == 0 { s += $12 } END { printf "%.1f", s * 8 / 250000 }' $W/ibt/flows.csv)
	t2=$(awk -F, 'NR > 1 && $4 == 1 { s += $12 } END { printf "%.1f", s * 8 / 250000 }' $W/ibt/flows.csv)
	ok $(tst "$t2 / $g0 > 0.8 && $t2 / $g0 < 1.25") "ibcc-tenant: tenant 2 average $t2 Mb/s vs tenant 1 $g0 Mb/s within 25 %"
	p1=$(awk -F, 'NR > 1 && $4 == 1 { n++ } END { print n }' $W/ibt/flows.csv)
	ok $(tst "$p1 == 3") "ibcc-tenant: tenant 2's QPs are reconfigured, not replaced ($p1 QPs)"
fi

echo "1..$n" >> "$TAP"
cat "$TAP"
! grep -q '^not ok' "$TAP"
