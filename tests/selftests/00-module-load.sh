#!/bin/sh
# The module loads, shows up, and unloads cleanly (twice, to catch leaks
# that only bite on re-registration).
# timeout: 60
. /tests/lib.sh
for round in 1 2; do
	tonic_load || ksft_fail "modprobe tonic (round $round)"
	grep -q '^tonic ' /proc/modules || ksft_fail "tonic not in /proc/modules"
	$MODPROBE -r tonic || ksft_fail "modprobe -r tonic (round $round)"
	grep -q '^tonic ' /proc/modules && ksft_fail "tonic still loaded"
done
echo "loaded and unloaded twice"
exit $KSFT_PASS
