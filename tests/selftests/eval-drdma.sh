#!/bin/sh
# `make eval-rdma`, Dynamic RDMA (issue 15, seed 003's Fig. 6): the time of
# a 128 KiB write, traditional (policy direct) vs dynamic, where frames are
# lost with probability L (netem on both hosts' egress: requests, answers,
# data and ACKs alike) and a registration fails with probability F = L
# (tonic-drdma serve refuse F), for L = 1, 5 and 10 %.  R runs of N
# transfers per arm; three arms, direct, dynamic and control (direct
# again: what two identical arms differ by), alternating transfer by
# transfer in a rotating order (the same minute of a shared host for all).
# One line per run and arm
#     # drdma L RUN ARM N MEAN_US MEDIAN_US P90_US INDIRECT START_US
# INDIRECT: transfers that went indirect; START_US: the mean time from the
# request to the data's start, where the policies differ.  Figures of an
# emulated guest: compare the arms within a run, not absolute times.
# timeout: 1800
. /tests/lib.sh
D=/usr/bin/tonic-drdma
R=${R:-5}
N=${N:-100}

$MODPROBE tonic_drdma || ksft_fail "modprobe tonic_drdma"
tonic_hosts 2 || ksft_fail "hosts"
M2=$(on h2 cat /sys/class/net/eth0/address)
head -c 131072 /dev/urandom > /tmp/src

for l in 1 5 10; do
	tonic_netem h1 loss $l%
	tonic_netem h2 loss $l%
	run=1
	while [ $run -le $R ]; do
		$IP netns exec h2 $D serve eth0 /tmp/mem 4194304 count $((3 * N)) \
			refuse 0.$(printf %02d $l) seed $run > /tmp/serve.out 2>&1 &
		srv=$!
		wait_until 10 grep -q lending /tmp/serve.out || ksft_fail "serve: $(cat /tmp/serve.out)"
		: > /tmp/direct.j; : > /tmp/dynamic.j; : > /tmp/control.j
		i=0
		while [ $i -lt $N ]; do
			case $((i % 3)) in
			0) order="direct dynamic control" ;;
			1) order="dynamic control direct" ;;
			2) order="control direct dynamic" ;;
			esac
			for arm in $order; do
				pol=$arm
				[ $arm = control ] && pol=direct
				on h1 $D -j write eth0 $M2 0 /tmp/src $pol >> /tmp/$arm.j ||
					ksft_fail "write $pol at $l %: $(tail -1 /tmp/$arm.j)"
			done
			i=$((i + 1))
		done
		wait $srv || ksft_fail "serve: $(cat /tmp/serve.out)"
		for arm in direct dynamic control; do
			sed 's/.*"mode":"\([a-z]*\)".*"start_ns":\([0-9]*\),"ns":\([0-9]*\).*/\3 \1 \2/' /tmp/$arm.j |
				sort -n | awk -v l=$l -v r=$run -v a=$arm '
				{ t[NR] = $1; s += $1; st += $3; if ($2 == "indirect") ind++ }
				END { printf "# drdma %d %d %s %d %.0f %.0f %.0f %d %.0f\n", l, r, a, NR,
					s / NR / 1000, t[int((NR + 1) / 2)] / 1000, t[int(NR * 0.9)] / 1000,
					ind, st / NR / 1000 }'
		done
		run=$((run + 1))
	done
done
$D stats
exit $KSFT_PASS
