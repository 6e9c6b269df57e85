#!/bin/sh
# tonic flow show and tonic sock offload without the TCP glue: dumps are
# valid JSON (zero flows here, the exact layout when there are flows),
# filters and lookups answer with clear errors; a socket is found by its
# 4-tuple only in its own netns; the toggle says sock-glue is missing.
# timeout: 120
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"

jrun flow show
n=$(jget '#')
echo "flows: $n"
sockglue || assert_eq "flows without sock-glue" "$n" 0
jrun flow show dev soft0 prog newreno
jrun flow show dev nosuch
assert_eq "unknown dev filter" "$(jget '#')" 0
expect_err 1 "no such flow in this network namespace" $TONIC flow show dev soft0 id 5
expect_err 1 "no such Tonic device" $TONIC flow show dev nosuch id 5
expect_err 1 "Numerical result out of range" $TONIC flow show id 5000
$TONIC flow show || ksft_fail "text flow show"

# A TCP connection h1 -> h2 to look up.
tonic_hosts 2 || ksft_fail "hosts"
on h2 $IPERF -s -D -1 || ksft_fail "iperf3 server"
wait_listen h2 5201 || ksft_fail "no iperf3 server on h2:5201"
on h1 $IPERF -c 10.0.0.2 -t 6 > /dev/null 2>&1 &
i=0
while :; do
	tuple=$(on h1 $SS -Htn state established dst 10.0.0.2 | awk '{print $3, $4; exit}')
	[ -n "$tuple" ] && break
	i=$((i + 1)); [ $i -gt 50 ] && ksft_fail "no established connection"
	sleep 0.1
done
lport=${tuple%% *}; lport=${lport##*:}
rport=${tuple##*:}
echo "connection 10.0.0.1:$lport -> 10.0.0.2:$rport"

expect_err 2 "must be IPv4 or both IPv6" $TONIC sock offload on 10.0.0.1 "$lport" fd00::2 "$rport"
expect_err 2 "bad local port" $TONIC sock offload on 10.0.0.1 0 10.0.0.2 "$rport"
expect_err 2 "not an IP address" $TONIC sock offload on 10.0.0.x 1 10.0.0.2 2
expect_err 2 "\"on\" or \"off\"" $TONIC sock offload maybe 10.0.0.1 1 10.0.0.2 2
expect_err 1 "no such TCP connection in this network namespace" \
	on h1 $TONIC sock offload on 10.0.0.1 1 10.0.0.2 2
expect_err 1 "no such TCP connection in this network namespace" \
	on h1 $TONIC sock offload on fd00::1 1 fd00::2 2
# The connection lives in h1: not visible from init_net or h2.
expect_err 1 "no such TCP connection" $TONIC sock offload on 10.0.0.1 "$lport" 10.0.0.2 "$rport"
expect_err 1 "no such TCP connection" on h2 $TONIC sock offload on 10.0.0.1 "$lport" 10.0.0.2 "$rport"
# The peer's view of it from h2 exists there (local/remote swapped).
if sockglue; then
	echo "sock-glue present: the toggle itself is tested in 33-netlink-sock-glue.sh"
else
	expect_err 1 "sock-glue" on h1 $TONIC sock offload on 10.0.0.1 "$lport" 10.0.0.2 "$rport"
	expect_err 1 "Operation not supported" \
		on h2 $TONIC sock offload off 10.0.0.2 "$rport" 10.0.0.1 "$lport"
fi
wait
tonic_hosts_del
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
