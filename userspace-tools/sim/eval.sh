#!/bin/sh
# eval.sh: run every scenario in full and regenerate the plots and the
# numbers table in Documentation/results/ (make eval).  Deterministic:
# the same tree gives the same CSVs and numbers.
set -e
B=${B:-build}
SIM=${SIM:-$B/sim/tonic-sim}
D=$(dirname "$0")
SC=$D/scenarios
OUT=$B/eval
RES=Documentation/results
rm -rf "$OUT"
mkdir -p "$OUT" "$RES"
run() {	# run NAME CONFIG [ARGS]
	n=$1; c=$2; shift 2
	echo "eval: $n"
	"$SIM" "$@" "$c" "$OUT/$n"
}
run newreno-loss $SC/newreno-loss.conf
run newreno-200-tonic $SC/newreno-200-tonic.conf -t 5000
run newreno-200-ref $SC/newreno-200-ref.conf -t 5000
run dcqcn-2 $SC/dcqcn-2.conf
run dcqcn-200 $SC/dcqcn-200.conf
run dcqcn-128b $SC/dcqcn-128b.conf
for v in irn irn-nobdp gbn gbn-nic; do
	$SC/irn-flows.sh $v > "$OUT/irn-$v.conf"
	run irn-$v "$OUT/irn-$v.conf"
done
run ibcc-ratio $SC/ibcc-ratio.conf
run ibcc-tenant $SC/ibcc-tenant.conf
# Debian's python3-matplotlib lives in /usr/bin/python3 (not a pyenv one).
${PYTHON:-/usr/bin/python3} "$D/plot.py" "$OUT" "$RES"
