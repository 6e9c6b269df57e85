#!/bin/sh
# tonic(8)'s command line against the live module, iproute2-style:
# unique-prefix abbreviations give what the full names give, an ambiguous
# prefix is a usage error; -n NETNS acts in /var/run/netns/NETNS; -j -p is
# indented JSON with the same values; -s is accepted; JSON booleans are
# true/false; plain output has no trailing blanks.
# timeout: 120
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"

# Abbreviations: the same output as the full names.
assert_eq "tonic fl sh = tonic flow show" "$($TONIC fl sh)" "$($TONIC flow show)"
assert_eq "tonic dev sh soft0 = tonic dev show soft0" "$($TONIC dev sh soft0)" \
	"$($TONIC dev show soft0)"
assert_eq "tonic dev = tonic device list" "$($TONIC dev)" "$($TONIC device list)"
assert_eq "tonic def s = tonic defaults show" "$($TONIC def s)" "$($TONIC defaults show)"
assert_eq "tonic se = tonic set" "$($TONIC se)" "$($TONIC set)"
assert_eq "tonic -j st sh d soft0: the stats keys" \
	"$($TONIC -j st sh d soft0 | $J '.devices[0]?keys')" \
	"$($TONIC -j stats dev soft0 | $J '.devices[0]?keys')"
expect_err 2 'object "d" is ambiguous: dev, defaults' $TONIC d sh
expect_err 2 'object "s" is ambiguous: stats, set, sock' $TONIC s
expect_err 2 'setting "s" is ambiguous: seg, sub_delay_us' $TONIC set s 1
expect_err 1 "no such Tonic device" $TONIC st d nosuch
expect_err 1 "no such flow in this network namespace" $TONIC fl sh d soft0 i 5
# Settings by prefix, then back.
$TONIC se p sack se 3000 de 100 a on || ksft_fail "tonic se p sack se 3000 de 100 a on"
jrun defaults show
assert_eq "set by prefixes" "$(jget .program) $(jget .seg-size) $(jget .sub-delay-us) $(jget .auto-offload)" \
	"sack 3000 100 true"
$TONIC set prog newreno seg 0 delay 500 auto off || ksft_fail "tonic set back"

# JSON booleans are JSON's true/false, not strings.
jrun defaults show
case "$OUT" in *'"auto-offload":false'*) ;; *) ksft_fail "auto-offload not a JSON false: $OUT" ;; esac
jrun stats
case "$OUT" in *'"host":true'*) ;; *) ksft_fail "host not a JSON true: $OUT" ;; esac
jrun dev show soft0
case "$OUT" in *'"default":true'*|*'"default":false'*) ;; *) ksft_fail "default not a boolean: $OUT" ;; esac

# -j -p: indented, the same values; -s is accepted.
OUT=$($TONIC -j -p dev show soft0) || ksft_fail "tonic -j -p dev show"
echo "$OUT"
printf '%s' "$OUT" | $J > /dev/null || ksft_fail "-j -p: invalid JSON"
[ "$(printf '%s\n' "$OUT" | wc -l)" -gt 5 ] || ksft_fail "-j -p: not indented"
printf '%s\n' "$OUT" | grep -q '^        "name": "soft0",$' || ksft_fail "-j -p: layout"
assert_eq "-p: same keys" "$(jget '[0]?keys')" "$($TONIC -j dev show soft0 | $J '[0]?keys')"
assert_eq "-pretty -json: same max_flows" "$($TONIC -pretty -json dev show soft0 | $J '[0].max-flows')" 2048
OUT=$($TONIC -j -p stats) || ksft_fail "tonic -j -p stats"
printf '%s' "$OUT" | $J > /dev/null || ksft_fail "-j -p stats: invalid JSON"
assert_eq "-s dev show" "$($TONIC -s dev show soft0)" "$($TONIC dev show soft0)"
assert_eq "-stats -j defaults" "$($TONIC -stats -j defaults show)" "$($TONIC -j defaults show)"

# No trailing blanks in plain output.
for c in "dev show" "stats" "set" "flow show" "sock show"; do
	# shellcheck disable=SC2086
	out=$($TONIC $c) || ksft_fail "tonic $c"
	printf '%s\n' "$out" | grep -n ' $' && ksft_fail "tonic $c: trailing blanks"
done

# -n NETNS: the namespace's own defaults, as under ip netns exec.
$IP netns add cli1 || ksft_fail "ip netns add"
init_ns=$($TONIC -j set | $J .netns-inum)
$TONIC -n cli1 set seg 1234 || ksft_fail "tonic -n cli1 set seg 1234"
assert_eq "-n: set in cli1" "$($IP netns exec cli1 $TONIC -j set | $J .seg-size)" 1234
assert_eq "-n: the initial namespace unchanged" "$($TONIC -j set | $J .seg-size)" 0
ns=$($TONIC -n cli1 -j set | $J .netns-inum)
assert_eq "-n: the namespace's inode" "$ns" "$($IP netns exec cli1 $TONIC -j set | $J .netns-inum)"
[ "$ns" != "$init_ns" ] || ksft_fail "-n: still the initial namespace"
assert_eq "-netns cli1 fl sh" "$($TONIC -netns cli1 fl sh)" "$($IP netns exec cli1 $TONIC flow show)"
assert_eq "-n by path" "$($TONIC -n /run/netns/cli1 -j set | $J .netns-inum)" "$ns"
expect_err 1 'cannot open network namespace "nosuch"' $TONIC -n nosuch dev show
# An unprivileged user cannot enter it.
expect_err 1 'setting the network namespace "cli1" failed' $UNPRIV nobody $TONIC -n cli1 set
exit $KSFT_PASS
