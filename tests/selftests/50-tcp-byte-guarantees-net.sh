#!/bin/sh
# Byte guarantees of the offloaded send path on a bad network, next to
# kernel cubic (issue 11): MSG_ZEROCOPY, vmsplice+splice, file splice and
# sendfile past EOF under delay, loss and reordering both ways, 5 runs
# each (odd runs attached by a plain prefix first, even runs with the mode
# as the first send) -- every run finishes in time with every byte, every
# zerocopy completion arrives, and no sender is left in D state.
# timeout: 250
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/bytes-lib.sh
XFER_PORT=7500
fail() { BX_FAILS=$((BX_FAILS + 1)); }
bx_load || ksft_fail "modprobe tonic"

echo "== MSG_ZEROCOPY, splice() and sendfile() past EOF under netem delay 1ms loss 1% reorder 10% 50% (both ways), 5 runs each"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 1ms loss 1% reorder 10% 50%
tonic_netem h2 delay 1ms loss 1% reorder 10% 50%
for m in -Z -p_v -p_f -F; do
	m=$(echo "$m" | tr _ ' ')
	for cc in tonic cubic; do
		n=0
		for run in 1 2 3 4 5; do
			# shellcheck disable=SC2086
			pre="-B 300000"
			[ $((run % 2)) = 0 ] && pre=
			bx "$m, $cc, run $run${pre:+ (after a $pre prefix)}" 40 h1 h2 10.0.0.2 4000000 -C $cc $pre $m -i &&
				n=$((n + 1))
			[ $BX_RC = 0 ] || fail
		done
		echo "-- $m, $cc: $n of 5 runs intact"
	done
done

bx_verdict
tonic_hosts_del
[ -n "$BX_HUNG" ] || tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
