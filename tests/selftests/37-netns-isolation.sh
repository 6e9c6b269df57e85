#!/bin/sh
# Isolation between network namespaces (issue 11): the per-namespace flow
# quota net.tonic.max_flows (default: half of a 16-flow table outside
# init_net; writable with CAP_NET_ADMIN over the namespace, raised above
# the share only from the initial user namespace, not by root of an
# unprivileged user namespace); two namespaces whose unprivileged users
# each try to fill the table with TCP_ULP "tonic" connections both get
# their share, the refusals are counted per namespace and every
# connection still delivers every byte; a namespace with max_flows=3
# offloads 3 of 4 connections; flow show / flow get / stats from one
# namespace show nothing of another; host-wide views (device use, engine
# counters, every namespace's flows) only for CAP_NET_ADMIN in init_net.
# timeout: 300
. /tests/lib.sh
. /tests/netlink-lib.sh
S=/proc/sys/net/tonic
tonic_load max_flows=16 || ksft_fail "modprobe tonic max_flows=16"

# stats_of NS PATH: one value of `tonic -j stats` in namespace NS ("-": init_net).
stats_of() {
	if [ "$1" = - ]; then OUT=$($TONIC -j stats); else OUT=$(on "$1" $TONIC -j stats); fi ||
		ksft_fail "tonic stats in $1"
	jget "$2"
}

echo "== the quota sysctl"
assert_eq "init_net max_flows" "$(cat $S/max_flows)" 2048
$IP netns add q1 || ksft_fail "netns q1"
assert_eq "q1 max_flows (half of 16)" "$(on q1 cat $S/max_flows)" 8
assert_eq "q1 stats max_flows" "$(stats_of q1 .netns.max-flows)" 8
assert_eq "init_net stats max_flows" "$(stats_of - .netns.max-flows)" 2048
on q1 sh -c "echo 3 > $S/max_flows" || ksft_fail "root sets max_flows in q1"
assert_eq "q1 max_flows set" "$(on q1 cat $S/max_flows)" 3
assert_eq "q1 stats after set" "$(stats_of q1 .netns.max-flows)" 3
on q1 sh -c "echo 100 > $S/max_flows" || ksft_fail "host root raises max_flows in q1"
assert_eq "q1 raised" "$(on q1 cat $S/max_flows)" 100
on q1 sh -c "echo 2049 > $S/max_flows" 2>/dev/null && ksft_fail "max_flows 2049 accepted"
$UNPRIV nobody sh -c "echo 5 > $S/max_flows" 2>/dev/null && ksft_fail "nobody wrote max_flows"
$UNPRIV nocap sh -c "echo 5 > $S/max_flows" 2>/dev/null && ksft_fail "root without CAP_NET_ADMIN wrote max_flows"
on q1 $UNPRIV nocap sh -c "echo 5 > $S/max_flows" 2>/dev/null &&
	ksft_fail "root without CAP_NET_ADMIN wrote q1's max_flows"
assert_eq "init_net unchanged" "$(cat $S/max_flows)" 2048
assert_eq "q1 unchanged" "$(on q1 cat $S/max_flows)" 100
# Root of a user namespace an unprivileged user made: its own netns, below the share only.
$UNPRIV userns sh -c "cat $S/max_flows; echo 4 > $S/max_flows && cat $S/max_flows
	echo 9 > $S/max_flows 2>/dev/null && echo raised; cat $S/max_flows
	$TONIC -j stats" > /tmp/userns.out 2>&1
rc=$?
cat /tmp/userns.out
if [ $rc = 4 ]; then
	echo "unprivileged user namespaces are disabled here: that part skipped"
else
	[ $rc = 0 ] || ksft_fail "userns: exit $rc"
	assert_eq "userns: share, lowered, not raised" "$(head -n 3 /tmp/userns.out | tr '\n' ' ')" "8 4 4 "
	OUT=$(tail -n 1 /tmp/userns.out)
	assert_eq "userns stats: its quota" "$(jget .netns.max-flows)" 4
	assert_eq "userns stats: no host view" "$(jget .host)" false
fi

echo "== netlink views"
jrun stats
assert_eq "host view for root in init_net" "$(jget .host)" true
[ "$(jget '.devices#')" -ge 1 ] || ksft_fail "root in init_net: no device counters"
jrun dev show soft0
assert_eq "root sees the device's use" "$(jget '[0].flows-in-use')" 0
jrun flow show netns all
for who in nobody nocap; do
	OUT=$($UNPRIV $who $TONIC -j stats) || ksft_fail "$who: stats"
	assert_eq "$who: no host view" "$(jget .host)" false
	assert_eq "$who: no device counters" "$(jget '.devices#')" 0
	assert_eq "$who: its namespace" "$(jget .netns.max-flows)" 2048
	OUT=$($UNPRIV $who $TONIC -j dev show soft0) || ksft_fail "$who: dev show"
	assert_eq "$who: device layout" "$(jget '[0]?keys')" \
		"name,backend,max-flows,wnd-bits,ring-depth,cycle-ps,default,program"
	expect_err 1 "initial network namespace" $UNPRIV $who $TONIC flow show netns all
done
OUT=$(on q1 $TONIC -j stats) || ksft_fail "q1: stats"
assert_eq "root in q1: no host view" "$(jget .host)" false
assert_eq "root in q1: no device counters" "$(jget '.devices#')" 0
expect_err 1 "initial network namespace" on q1 $TONIC flow show netns all
expect_err 2 "takes \"all\"" $TONIC flow show netns q1
$IP netns del q1

if ! sockglue; then
	echo "SKIP: the TCP offload is not in tonic.ko: quota enforcement not tested"
	$MODPROBE -r tonic
	exit $KSFT_SKIP
fi

echo "== two namespaces of unprivileged users try to fill a 16-flow table"
tonic_hosts 3 || ksft_fail "hosts"
tonic_netem h1 delay 10ms rate 10mbit
tonic_netem h2 delay 10ms rate 10mbit
xfer_server h3 7301 /tmp/s1 -M 16 || ksft_fail "no server on h3:7301"
xfer_server h3 7302 /tmp/s2 -M 16 || ksft_fail "no server on h3:7302"
xfer_server h3 7303 /tmp/s3 -M 4 || ksft_fail "no server on h3:7303"
# wait_flows NS N: until NS holds N flows (10 s).
wait_flows() {
	i=0
	while [ "$(stats_of "$1" .netns.flows)" != "$2" ]; do
		i=$((i + 1)); [ $i -gt 100 ] && return 1
		sleep 0.1
	done
}
on h1 $UNPRIV nobody tonic_xfer -c 10.0.0.3 7301 4000000 -M 16 -U > /tmp/c1 2>&1 &
c1=$!
wait_flows h1 8 || ksft_fail "h1 did not get 8 flows: $(stats_of h1 .netns.flows)"
sleep 0.5
OUT=$(on h1 $TONIC -j stats); echo "h1: $OUT"
assert_eq "h1 stays at its share" "$(jget .netns.flows)" 8
[ "$(jget .netns.refused-quota)" -ge 1 ] || ksft_fail "h1: no refusal counted"
assert_eq "h1: the table was never full" "$(jget .netns.refused-full)" 0
assert_eq "h1 as nobody: no host view" "$(on h1 $UNPRIV nobody $TONIC -j stats | $J .host)" false
on h2 $UNPRIV nobody tonic_xfer -c 10.0.0.3 7302 4000000 -M 16 -U > /tmp/c2 2>&1 &
c2=$!
wait_flows h2 8 || ksft_fail "h2 did not get its share: $(stats_of h2 .netns.flows) flows"
OUT=$(on h2 $TONIC -j stats); echo "h2: $OUT"
[ "$(jget .netns.refused-quota)" -ge 1 ] || ksft_fail "h2: no refusal counted"
assert_eq "h2: the table was never full" "$(jget .netns.refused-full)" 0
jrun dev show soft0
assert_eq "both shares on the device" "$(jget '[0].flows-in-use')" 16
inum1=$(stats_of h1 .netns.netns-inum)
inum2=$(stats_of h2 .netns.netns-inum)
OUT=$($TONIC -j flow show netns all) || ksft_fail "host view of every flow"
printf '%s' "$OUT" | grep -q "\"netns-inum\":$inum1[,}]" || ksft_fail "host view: no flow of h1"
printf '%s' "$OUT" | grep -q "\"netns-inum\":$inum2[,}]" || ksft_fail "host view: no flow of h2"

echo "== one namespace's flows are invisible from another"
OUT=$(on h2 $TONIC -j flow show) || ksft_fail "flow show in h2"
n2=$(jget '#')
[ "$n2" -ge 1 ] && [ "$n2" -le 8 ] || ksft_fail "h2 sees $n2 flows"
i=0
while [ $i -lt "$n2" ]; do
	assert_eq "h2's flow $i is h2's" "$(jget "[$i].netns-inum")" "$inum2"
	i=$((i + 1))
done
OUT=$(on h1 $TONIC -j flow show) || ksft_fail "flow show in h1"
dev1=$(jget '[0].dev'); id1=$(jget '[0].id')
assert_eq "h1's flow" "$(jget '[0].netns-inum')" "$inum1"
on h1 $TONIC flow show dev "$dev1" id "$id1" > /dev/null || echo "(flow $id1 already gone)"
expect_err 1 "no such flow in this network namespace" on h2 $TONIC flow show dev "$dev1" id "$id1"
expect_err 1 "no such flow" on h3 $TONIC flow show dev "$dev1" id "$id1"
expect_err 1 "no such flow" $TONIC flow show dev "$dev1" id "$id1"
OUT=$(on h1 $UNPRIV nobody $TONIC -j flow show) || ksft_fail "nobody: flow show in h1"
[ "$(jget '#')" -ge 1 ] || ksft_fail "nobody in h1 does not see h1's flows"
assert_eq "h3 sees no flow" "$(on h3 $TONIC -j flow show | $J '#')" 0
assert_eq "h3 holds none" "$(stats_of h3 .netns.flows)" 0
assert_eq "h3 refused none" "$(stats_of h3 .netns.refused-quota)" 0
assert_eq "init_net sees no socket flow" "$($TONIC -j flow show | grep -c '"owner":"socket"')" 0

wait $c1 || ksft_fail "h1's transfer: $(cat /tmp/c1)"
wait $c2 || ksft_fail "h2's transfer: $(cat /tmp/c2)"
cat /tmp/c1 /tmp/c2
grep -q '16/16 connections intact, 8 offloaded' /tmp/c1 || ksft_fail "h1: $(cat /tmp/c1)"
grep -q '16/16 connections intact, 8 offloaded' /tmp/c2 || ksft_fail "h2: $(cat /tmp/c2)"
assert_eq "h1 refusals" "$(stats_of h1 .netns.refused-quota)" 8
assert_eq "h2 refusals" "$(stats_of h2 .netns.refused-quota)" 8
assert_eq "h1 flows added" "$(stats_of h1 .netns.flows-added)" 8
# sock-glue counts the -EDQUOT refusals host-wide (debugfs).
q=$(sed -n 's/^fallback_quota *//p' /sys/kernel/debug/tonic/stats)
[ -z "$q" ] || [ "$q" = 16 ] || ksft_fail "sock-glue's fallback_quota: $q, expected 16"
wait_flows h1 0 || ksft_fail "h1 still holds flows"
wait_flows h2 0 || ksft_fail "h2 still holds flows"

echo "== net.tonic.max_flows=3: the 4th connection stays on software TCP, intact"
on h1 sh -c "echo 3 > $S/max_flows" || ksft_fail "max_flows=3 in h1"
before=$(stats_of h1 .netns.refused-quota)
on h1 $UNPRIV nobody tonic_xfer -c 10.0.0.3 7303 1000000 -M 4 -U > /tmp/c3 2>&1 ||
	ksft_fail "4 connections with max_flows=3: $(cat /tmp/c3)"
cat /tmp/c3
grep -q '4/4 connections intact, 3 offloaded' /tmp/c3 || ksft_fail "max_flows=3: $(cat /tmp/c3)"
assert_eq "one more refusal" "$(stats_of h1 .netns.refused-quota)" $((before + 1))
wait
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
