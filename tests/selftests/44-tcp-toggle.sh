#!/bin/sh
# Toggle: the offload switched off and on again many times during a
# transfer, by the application (SOL_TONIC TONIC_OFFLOAD) and by the admin
# (tonic sock offload, by 4-tuple), with loss; not a byte lost or
# reordered.  The module cannot be unloaded while flows are active, and
# unloads once they are gone.
# timeout: 300
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
fails=0
echo "== by the application, every 2 MB"
xfer h1 h2 10.0.0.2 20000000 -t 2000000 -i -r || fails=$((fails + 1))
grep -Eq 'attaches ([5-9]|[1-9][0-9])' /tmp/xfer.cli || { echo "too few re-attaches"; fails=$((fails + 1)); }
tonic_netem h1 delay 2ms loss 1%
xfer h1 h2 fd00::2 8000000 -t 1000000 -i -r -P sack || fails=$((fails + 1))
xfer h1 h2 10.0.0.2 4000000 -t 500000 -i -r -e || fails=$((fails + 1))
$TC -n h1 qdisc del dev eth0 root

echo "== by the admin over netlink, during a transfer"
tonic_netem h1 delay 2ms
xfer_server h2 6001 /tmp/srv.t || ksft_fail "no server on h2:6001"
on h1 tonic_xfer -c 10.0.0.2 6001 150000000 -i > /tmp/cli.t 2>&1 & c=$!
i=0
while :; do
	lport=$(on h1 $SS -Htn state established dst 10.0.0.2 | awk '{print $3; exit}')
	lport=${lport##*:}
	[ -n "$lport" ] && break
	i=$((i + 1)); [ $i -gt 50 ] && ksft_fail "no connection"
	sleep 0.1
done
echo "== unload refused while the flow is active"
$MODPROBE -r tonic 2>/dev/null && ksft_fail "the module unloaded with an active flow"
for n in 1 2 3 4 5; do
	on h1 tonic sock offload off 10.0.0.1 "$lport" 10.0.0.2 6001 || { echo "off $n failed"; fails=$((fails + 1)); }
	sleep 0.3
	on h1 tonic sock offload on 10.0.0.1 "$lport" 10.0.0.2 6001 || { echo "on $n failed"; fails=$((fails + 1)); }
	sleep 0.3
done
wait $c || fails=$((fails + 1))
wait
cat /tmp/cli.t /tmp/srv.t
grep -Eq 'attaches ([3-9]|[1-9][0-9])' /tmp/cli.t || { echo "the admin's toggles did not re-attach"; fails=$((fails + 1)); }
$TC -n h1 qdisc del dev eth0 root

echo "== off over netlink returns at once even when the peer stops reading"
xfer_server h2 6002 /tmp/srv.s -D 3000 || ksft_fail "no server on h2:6002"
on h1 tonic_xfer -c 10.0.0.2 6002 50000000 > /tmp/cli.s 2>&1 &
sleep 2
lport=$(on h1 $SS -Htn state established dst 10.0.0.2 | awk '{print $3; exit}')
lport=${lport##*:}
t0=$(date +%s)
on h1 tonic sock offload off 10.0.0.1 "$lport" 10.0.0.2 6002 || { echo "off failed"; fails=$((fails + 1)); }
[ $(( $(date +%s) - t0 )) -le 1 ] || { echo "off blocked for $(( $(date +%s) - t0 )) s"; fails=$((fails + 1)); }
# Off hands the bytes back at once (architecture.rst): no flow is left.
[ -z "$(on h1 tonic flow show)" ] ||
	{ on h1 tonic flow show; echo "a flow is left after off"; fails=$((fails + 1)); }
on h1 tonic sock offload on 10.0.0.1 "$lport" 10.0.0.2 6002 || { echo "on failed"; fails=$((fails + 1)); }
for p in $($IP netns pids h1) $($IP netns pids h2); do kill "$p" 2>/dev/null; done
wait
wait_flows_gone 10 || { echo "flows left"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
tonic_unload || ksft_fail "unload once the flows are gone"
exit $KSFT_PASS
