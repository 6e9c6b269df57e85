#!/bin/sh
# run-tap.sh SUITE CMD...: run each test program, renumber their TAP lines
# into $B/results/SUITE.tap (one "ok"/"not ok" line per assertion, prefixed
# with the program's name), and fail a program that exits non-zero even if
# it printed no "not ok".
suite=$1; shift
out=${B:-build}/results/$suite.tap
mkdir -p "$(dirname "$out")"
: > "$out"
n=0
for t in "$@"; do
	name=$(basename "$t")
	log=$(mktemp)
	"$t" > "$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			st=${line%% [0-9]*}
			desc=${line#* - }
			echo "$st $n - $name: $desc" ;;
		"1.."*) ;;
		*) echo "# $line" ;;
		esac
	done < "$log" >> "$out"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log"; then
		n=$((n + 1))
		echo "not ok $n - $name: exited with status $rc" >> "$out"
	fi
	grep -q '^\(ok\|not ok\) ' "$log" || { n=$((n + 1)); echo "not ok $n - $name: printed no result" >> "$out"; }
	rm -f "$log"
done
echo "1..$n" >> "$out"
! grep -q '^not ok' "$out"
