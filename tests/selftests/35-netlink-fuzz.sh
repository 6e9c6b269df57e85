#!/bin/sh
# Netlink fuzzing: thousands of random and malformed "tonic" messages from
# root, from uid 65534 and from root without CAP_NET_ADMIN; every request
# gets a clean answer, the unprivileged ones change nothing, the CLI's
# requests still work afterwards and the module unloads cleanly (with the
# tenants and device parameters root's fuzzing may have added).
# timeout: 300
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"
F=/usr/bin/tonic_nlfuzz
before=$($TONIC -j set)
# A tenant the unprivileged fuzzing must leave alone (and none added).
$TONIC tenant add fz uid 4242 || ksft_fail "tonic tenant add fz"
tenants=$($TONIC -j tenant show)
# ... and a device parameter.
$TONIC dev set soft0 prog dcqcn param 1 2000 || ksft_fail "tonic dev set"
devs=$($TONIC -j dev show)
$UNPRIV nobody $F -n 6000 -s 1 -u || ksft_fail "fuzz as uid 65534"
$UNPRIV nocap $F -n 4000 -s 2 -u || ksft_fail "fuzz without CAP_NET_ADMIN"
assert_eq "defaults after unprivileged fuzzing" "$($TONIC -j set)" "$before"
assert_eq "tenants after unprivileged fuzzing" "$($TONIC -j tenant show)" "$tenants"
assert_eq "devices after unprivileged fuzzing" "$($TONIC -j dev show)" "$devs"
# Privileged, with dumps from a second process and a netns coming and going.
( i=0; while [ $i -lt 40 ]; do $TONIC -j flow show > /dev/null; $TONIC -j dev show > /dev/null
	i=$((i + 1)); done ) &
$IP netns add fz1
$IP netns exec fz1 $F -n 4000 -s 3 &
nsf=$!
$F -n 20000 -s 4 || ksft_fail "fuzz as root"
wait $nsf || ksft_fail "fuzz as root in a netns"
wait
$IP netns del fz1
$TONIC set prog newreno seg 0 delay 500 auto off || ksft_fail "set after fuzzing"
jrun dev show
jrun stats
$MODPROBE -r tonic || ksft_fail "unload after fuzzing"
exit $KSFT_PASS
