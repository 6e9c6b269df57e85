#!/bin/sh
# eval-kernel.sh [--reuse]: evaluation scenario (1) against the Linux
# kernel's own NewReno (make eval-kernel; make eval runs it too).  Three
# runs, dropping every 500th, 450th and 550th packet of the data path
# (KT_DROP_EVERY: deterministic, so the loss process is the same in every
# run of the same tree; the kernel's timing is not); for each:
#   1. boots the installed kernel in QEMU and runs trace-newreno.sh: one
#      reno/no-SACK flow through netem's delay and rate and tc gact's
#      drops, traced with tcp_probe and kprobes
#      (build/qemu/kernel-newreno-N.ktap; about 70 s)
#   2. extract.py decodes the trace into build/kernel-trace-N/
#      (kernel-seq.csv, kernel-ack.csv, losses.txt, meta.txt)
#   3. compare.py replays the kernel's losses in tonic-sim (Tonic newreno
#      and the reference NewReno); it fails when the losses the trace
#      implies are not the packets gact dropped.  The 500 run writes
#      fig1c/fig1d and kernel-newreno.txt in Documentation/results/, the
#      others their own summary in build/kernel-trace-N/.
# Then kernel-newreno.txt gets each figure's mean and spread over the runs.
# --reuse skips step 1 and decodes the existing KTAPs.
set -e
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
B=${B:-$TOP/build}
SIM=${SIM:-$B/sim/tonic-sim}
D=$TOP/userspace-tools/sim/kernel-trace
RES=$TOP/Documentation/results
# Debian's python3-matplotlib lives in /usr/bin/python3 (not a pyenv one).
PY=${PYTHON:-/usr/bin/python3}
runs="500 450 550"
for n in $runs; do
	K=$B/kernel-trace-$n
	if [ "${1:-}" != --reuse ]; then
		# The guest sees only the script: the run's setting goes in it.
		mkdir -p "$B/kernel-trace-tests"
		t=$B/kernel-trace-tests/trace-newreno-$n.sh
		{ head -n 1 "$D/trace-newreno.sh"; echo "KT_DROP_EVERY=$n"
		  tail -n +2 "$D/trace-newreno.sh"; } > "$t"
		chmod +x "$t"
		B=$B "$TOP"/tests/qemu/run.sh --suite kernel-newreno-$n --timeout 400 "$t"
	fi
	rm -rf "$K"
	$PY "$D/extract.py" "$B/qemu/kernel-newreno-$n.ktap" "$K"
	if [ $n = 500 ]; then out=$RES; else out=$K/res; fi
	$PY "$D/compare.py" "$K" "$SIM" "$out"
done
# Mean and spread (sample standard deviation) of every numeric figure.
sums="$RES/kernel-newreno.txt"
for n in $runs; do [ $n = 500 ] || sums="$sums $B/kernel-trace-$n/res/kernel-newreno.txt"; done
echo "# over the runs dropping every $runs packets: mean, sample std" >> "$RES/kernel-newreno.txt"
$PY - $sums >> "$RES/kernel-newreno.txt" <<'PYEOF'
import statistics, sys
vals = {}
for r in sys.argv[1:]:
    for l in open(r):
        k, _, v = l.strip().partition(" ")
        try:
            vals.setdefault(k, []).append(float(v))
        except ValueError:
            pass
for k, v in vals.items():
    if len(v) == len(sys.argv) - 1 and k != "path_drop_every":
        print("%s_mean_std %.3f %.3f" % (k, statistics.mean(v), statistics.stdev(v)))
PYEOF
cat "$RES/kernel-newreno.txt"
