#!/bin/sh
# check.sh: the YNL spec, the uapi header and the kernel policies agree
# (host side; TAP in $B/results/ynl.tap).
#   - the spec validates against the 6.12 schema of the protocol it
#     declares, the YNL library resolves it, addresses have display hints
#     (spec_check.py);
#   - regenerating include/uapi/linux/tonic_nl.h and admin/netlink/tonic-nl-gen.[ch]
#     from the spec gives the committed files (scripts/ynl-gen.sh --check),
#     and that check does catch a spec that changed without them;
#   - nothing else defines the family's IDs or policies by hand.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
OUT=$B/results/ynl.tap
mkdir -p "$B/results"
: > "$OUT"
n=0
res() {	# res OK|FAIL DESCRIPTION [DIAG-FILE]
	n=$((n + 1))
	if [ "$1" = OK ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi >> "$OUT"
	[ -n "${3:-}" ] && [ -s "$3" ] && head -n 40 "$3" | sed 's/^/#   /' >> "$OUT"
	return 0
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SPEC=$TOP/Documentation/netlink/specs/tonic.yaml

if ! Y=$("$TOP"/scripts/ynl-src.sh 2> "$T/err"); then
	res FAIL "the 6.12 YNL tools are there (scripts/ynl-src.sh)" "$T/err"
	cat "$OUT"
	exit 1
fi

python3 "$TOP"/tests/ynl/spec_check.py "$Y" "$SPEC" > "$T/spec" 2>&1
# Renumber spec_check.py's lines.
while IFS= read -r l; do
	case $l in
	"ok - "*) n=$((n + 1)); echo "ok $n - ${l#ok - }" ;;
	"not ok - "*) n=$((n + 1)); echo "not ok $n - ${l#not ok - }" ;;
	"#"*) echo "$l" ;;
	*) echo "#   $l" ;;
	esac
done < "$T/spec" >> "$OUT"
grep -q '^ok - \|^not ok - ' "$T/spec" || res FAIL "spec_check.py ran" "$T/spec"

if "$TOP"/scripts/ynl-gen.sh --check > "$T/gen" 2>&1; then
	res OK "include/uapi/linux/tonic_nl.h, admin/netlink/tonic-nl-gen.[ch] are what the spec generates"
else
	res FAIL "include/uapi/linux/tonic_nl.h, admin/netlink/tonic-nl-gen.[ch] are what the spec generates" "$T/gen"
fi

# The check must notice drift: a spec with an attribute more (the uapi
# header changes), and one with another limit (a policy changes).
drift() {	# drift NAME SED-EXPR EXPECTED-DIFF-LINE
	sed "$2" "$SPEC" > "$T/$1.yaml"
	if cmp -s "$SPEC" "$T/$1.yaml"; then
		res FAIL "drift is caught: $1 (could not make the changed spec)"
	elif TONIC_YNL_SPEC=$T/$1.yaml "$TOP"/scripts/ynl-gen.sh --check > "$T/$1" 2>&1; then
		res FAIL "drift is caught: $1" "$T/$1"
	elif grep -q "^ *+$3" "$T/$1"; then
		res OK "drift is caught: $1"
	else
		res FAIL "drift is caught: $1 (but not by the expected difference)" "$T/$1"
	fi
}
drift "an attribute more (uapi header)" \
	's/^        name: all-netns$/        name: all-netns\n        type: flag\n      -\n        name: drift-probe/' \
	'[[:space:]]*TONIC_A_FLOW_DRIFT_PROBE,'
drift "another limit (kernel policy)" 's/^          max: 2047$/          max: 1023/' \
	'[[:space:]]*\[TONIC_A_FLOW_ID\] = NLA_POLICY_MAX(NLA_U32, 1023),'

# The counters: the spec's stats attribute sets carry exactly the counters
# of the tables (driver/counters.h, tonic-core/counters.h), with their
# docs, and Documentation/counters.rst is what the tables make.
if python3 "$TOP"/scripts/counters.py --check > "$T/counters" 2>&1; then
	res OK "every counter of the tables is in the spec (u64, its doc) and in Documentation/counters.rst"
else
	res FAIL "every counter of the tables is in the spec (u64, its doc) and in Documentation/counters.rst" \
		"$T/counters"
fi
# ... and a counter added to a table alone is caught.
mkdir -p "$T/cnt/driver" "$T/cnt/tonic-core"
cp "$TOP"/tonic-core/counters.h "$T/cnt/tonic-core/"
sed '/^#define TONIC_SOCK_COUNTERS(X)/a\
	X(drift_probe, DRIFT_PROBE, "A counter more.")			\\' \
	"$TOP"/driver/counters.h > "$T/cnt/driver/counters.h"
if ! grep -q drift_probe "$T/cnt/driver/counters.h"; then
	res FAIL "a counter missing from the spec is caught (could not make the changed table)"
elif python3 "$TOP"/scripts/counters.py --check --header "$T/cnt/driver/counters.h" \
	> "$T/cnt/out" 2>&1; then
	res FAIL "a counter missing from the spec is caught" "$T/cnt/out"
elif grep -q "sock-stats: no attribute drift-probe" "$T/cnt/out"; then
	res OK "a counter missing from the spec is caught"
else
	res FAIL "a counter missing from the spec is caught (but not as expected)" "$T/cnt/out"
fi

# IDs and policies only come from the generated files.
grep -nE '^[[:space:]]*(TONIC_A_|TONIC_CMD_|TONIC_SK_|TONIC_FLOW_OWNER_)|define TONIC_(GENL|MCGRP)_' \
	"$TOP"/include/uapi/linux/tonic.h > "$T/ids"
if [ -s "$T/ids" ]; then
	res FAIL "include/uapi/linux/tonic.h defines no netlink ID by hand" "$T/ids"
else
	res OK "include/uapi/linux/tonic.h defines no netlink ID by hand"
fi
grep -nE 'struct (nla_policy|genl_ops|genl_small_ops|genl_split_ops)[^;]*=' \
	$(ls "$TOP"/admin/netlink/*.c | grep -v tonic-nl-gen.c) > "$T/pol"
if [ -s "$T/pol" ]; then
	res FAIL "admin/netlink/*.c define no attribute policy or ops table by hand" "$T/pol"
elif grep -q '\.ops[[:space:]]*= tonic_nl_ops,' "$TOP"/admin/netlink/family.c; then
	res OK "admin/netlink/*.c define no attribute policy or ops table by hand; the family uses the generated ops"
else
	res FAIL "the family uses the generated ops table (tonic_nl_ops)"
fi

# The generated header is usable by userspace through tonic.h alone.
if printf '#include <linux/tonic.h>\nint x = TONIC_A_FLOW_ALL_NETNS + TONIC_SK_PENDING + TONIC_CMD_MAX;\n' |
   ${CC:-cc} -Wall -Werror -fsyntax-only -I"$TOP"/include/uapi -x c - > "$T/cc" 2>&1; then
	res OK "userspace compiles against include/uapi/linux/tonic.h (with tonic_nl.h)"
else
	res FAIL "userspace compiles against include/uapi/linux/tonic.h (with tonic_nl.h)" "$T/cc"
fi

echo "1..$n" >> "$OUT"
cat "$OUT"
! grep -q '^not ok' "$OUT"
