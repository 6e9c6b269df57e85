#!/bin/sh
# check.sh SUITE...: run every suite (a make target that writes TAP to
# build/results/SUITE.tap), keep going past failures, then print one
# summary line and fail if anything failed.
B=${B:-$(pwd)/build}
rm -rf "$B/results"
mkdir -p "$B/results"
for s in "$@"; do
	echo "== $s"
	start=$(date +%s)
	make -s --no-print-directory "$s" > "$B/results/$s.log" 2>&1
	rc=$?
	if [ ! -s "$B/results/$s.tap" ]; then
		echo "not ok 1 - $s: suite produced no results (make exited $rc)" > "$B/results/$s.tap"
		tail -n 30 "$B/results/$s.log" | sed 's/^/#   /' >> "$B/results/$s.tap"
	fi
	grep -E '^(not ok|ok .*# SKIP)' "$B/results/$s.tap" | head -n 40
	# A failure's own diagnostics, so a CI log that keeps only this output
	# says why: the KTAP lines of a guest test come before its "not ok",
	# a host test's after it.
	awk '/^not ok / { for (i = c - 120; i < c; i++) if (i >= 0) print "   | " buf[i]
			  c = 0; after = 20; print "   | " $0; next }
	     /^ok |^# test: / { c = 0; after = 0 }
	     /^ok / { next }
	     /^#/ { if (after > 0) { print "   | " $0; after-- } else buf[c++] = $0 }' \
		"$B/results/$s.tap" | head -n 400
	p=$(grep -Ec '^ok ' "$B/results/$s.tap")
	f=$(grep -Ec '^not ok ' "$B/results/$s.tap")
	echo "   $s: $p ok, $f not ok ($(( $(date +%s) - start )) s; log: build/results/$s.log)"
done
cat "$B"/results/*.tap | awk '
	/^ok .*# [Ss][Kk][Ii][Pp]/ { skipped++; next }
	/^ok / { passed++ }
	/^not ok / { failed++ }
	END {
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
		exit failed > 0 || passed == 0
	}'
