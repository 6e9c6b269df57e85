#!/bin/sh
# The soft device runs one engine per CPU, each behind its own lock (issue
# 12: no global lock on the per-segment path): device flow f is flow f / n
# of engine f % n, so the ids device.c hands out, lowest free first,
# spread over the engines.  Concurrent offloaded flows land on every
# engine, each engine takes the pushes of its own flows, every byte
# arrives, and the device's counters are the sums of the engines'.  The
# module's "engines" sets n: 1 is the single engine of before, and n is
# at most the flow table's size.
# timeout: 240
. /tests/lib.sh
E=/sys/kernel/debug/tonic_soft0/engines
S=/sys/kernel/debug/tonic/stats
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}
# engine_ctr ENGINE NAME [FILE]: that engine's counter, now or in a copy of $E.
engine_ctr() {
	awk -v e="$1" -v k="$2" '$1 == "engine" && $2 == e {
		for (i = 3; i < NF; i += 2) if ($i == k) print $(i + 1) }' "${3:-$E}"
}
engines() {
	wc -l < $E
}
# every_engine_pushed N: each of the N engines took pushes since the
# snapshot in /tmp/e0.63.
every_engine_pushed() {
	_i=0
	while [ $_i -lt "$1" ]; do
		[ "$(engine_ctr $_i doorbells)" -gt "$(engine_ctr $_i doorbells /tmp/e0.63)" ] ||
			{ echo "engine $_i took no push"; return 1; }
		_i=$((_i + 1))
	done
}
# transfer PORT CONNS: CONNS offloaded connections at once, 4 MB each,
# every stream checked by the receiver.
transfer() {
	cp $E /tmp/e0.63
	on h2 tonic_xfer -s "$1" -M "$2" > /dev/null 2>&1 &
	wait_listen h2 "$1" || return 1
	on h1 tonic_xfer -c 10.0.0.2 "$1" $((4 << 20)) -U -r -M "$2"
	_rc=$?
	wait
	return $_rc
}

# Possible CPUs ("0-3,6,8-9"), and the engines that makes: at most 64.
cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } }
	END { print n }' /sys/devices/system/cpu/possible)
[ "$cpus" -ge 2 ] || { echo "SKIP: one CPU, one engine"; exit $KSFT_SKIP; }
n=$((cpus < 64 ? cpus : 64))
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
cat $E
check "one engine per possible CPU ($(engines) for $cpus)" test "$(engines)" -eq "$n"
check "$((2 * n)) connections at once, every byte intact" transfer 7400 $((2 * n))
cat $E
check "each engine took its flows' pushes" every_engine_pushed "$n"
sum=$(awk '$1 == "engine" { for (i = 3; i < NF; i += 2) if ($i == "doorbells") n += $(i + 1) } END { print n + 0 }' $E)
dev=$(awk '$1 == "soft.doorbells" { print $2 }' $S)
check "the device's doorbells are the engines' sum ($dev = $sum)" test "$dev" = "$sum"

# Not a power of two, and more engines than CPUs: 6 flows, 2 in each.
tonic_hosts_del
tonic_unload || ksft_fail "modprobe -r tonic"
tonic_load engines=3 || ksft_fail "modprobe tonic engines=3"
tonic_hosts 2 || ksft_fail "tonic_hosts"
check "engines=3: three engines ($(engines))" test "$(engines)" -eq 3
check "engines=3: 6 connections at once, every byte intact" transfer 7401 6
check "engines=3: each engine took its flows' pushes" every_engine_pushed 3

tonic_hosts_del
tonic_unload || ksft_fail "modprobe -r tonic"
tonic_load engines=1 || ksft_fail "modprobe tonic engines=1"
tonic_hosts 2 || ksft_fail "tonic_hosts"
check "engines=1: a single engine ($(engines))" test "$(engines)" -eq 1
check "engines=1: 4 connections at once, every byte intact" transfer 7402 4

# No engine without a flow to run: at most max_flows of them.
tonic_hosts_del
tonic_unload || ksft_fail "modprobe -r tonic"
tonic_load max_flows=2 engines=8 || ksft_fail "modprobe tonic max_flows=2 engines=8"
tonic_hosts 2 || ksft_fail "tonic_hosts"
check "max_flows=2 engines=8: two engines ($(engines))" test "$(engines)" -eq 2
check "max_flows=2: 2 connections at once, every byte intact" transfer 7403 2
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
echo "ok: flows spread over the soft device's engines, every byte intact"
