#!/bin/sh
# eval-kernel.sh [--reuse]: evaluation scenario (1) against the Linux
# kernel's own NewReno (make eval-kernel; make eval runs it too).
#   1. boots the installed kernel in QEMU and runs trace-newreno.sh: one
#      reno/no-SACK flow through netem, traced with tcp_probe and kprobes
#      (build/qemu/kernel-newreno.ktap; about 70 s)
#   2. extract.py decodes the trace into build/kernel-trace/ (kernel-seq.csv,
#      kernel-ack.csv, losses.txt, meta.txt)
#   3. compare.py replays the kernel's losses in tonic-sim (Tonic newreno
#      and the reference NewReno) and writes fig1c/fig1d and
#      kernel-newreno.txt in Documentation/results/
# --reuse skips step 1 and decodes the existing KTAP.  netem's loss is
# random, so every guest run gives a new loss pattern (and new numbers);
# the replay of one pattern is deterministic.
set -e
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
B=${B:-$TOP/build}
SIM=${SIM:-$B/sim/tonic-sim}
D=$TOP/userspace-tools/sim/kernel-trace
K=$B/kernel-trace
if [ "${1:-}" != --reuse ]; then
	B=$B "$TOP"/tests/qemu/run.sh --suite kernel-newreno --timeout 400 "$D/trace-newreno.sh"
fi
rm -rf "$K"
# Debian's python3-matplotlib lives in /usr/bin/python3 (not a pyenv one).
PY=${PYTHON:-/usr/bin/python3}
$PY "$D/extract.py" "$B/qemu/kernel-newreno.ktap" "$K"
$PY "$D/compare.py" "$K" "$SIM" "$TOP/Documentation/results"
