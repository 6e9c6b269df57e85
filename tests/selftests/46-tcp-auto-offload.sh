#!/bin/sh
# net.tonic.auto_offload: with it on in a namespace, the TCP integration
# adopts that namespace's established connections by itself (no congestion
# control change, no program change); off, they stay on software TCP.
# Both ends of a connection, IPv4 and IPv6.
# timeout: 120
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
fails=0
on h1 sysctl -qw net.tonic.auto_offload=1 || ksft_fail "sysctl net.tonic.auto_offload"
on h1 tonic set | grep -q 'auto_offload on' || ksft_fail "tonic set does not show auto_offload on"
a0=$(glue_stat auto_adopted)
echo "== auto_offload=1 in h1: the client's sends are offloaded"
xfer h1 h2 10.0.0.2 4000000 -r -i || fails=$((fails + 1))
xfer h1 h2 fd00::2 4000000 -r -i || fails=$((fails + 1))
echo "== and an accepted connection's sends (the server in h1)"
xfer h2 h1 10.0.0.1 100 || fails=$((fails + 1))
on h2 $IPERF -s -D -p 5201
wait_listen h2 5201 || ksft_fail "no iperf3 server on h2:5201"
on h1 $IPERF -c 10.0.0.2 -p 5201 -t 2 > /dev/null || fails=$((fails + 1))
[ "$(glue_stat auto_adopted)" -ge $((a0 + 3)) ] || { echo "too few adopted: $(glue_stat auto_adopted)"; fails=$((fails + 1)); }
echo "== auto_offload=0: software TCP"
on h1 sysctl -qw net.tonic.auto_offload=0
xfer h1 h2 10.0.0.2 2000000 -r
[ $? = 3 ] || { echo "offloaded (or broken) with auto_offload=0"; fails=$((fails + 1)); }
grep -E '^(installs|attaches|auto_adopted) ' /sys/kernel/debug/tonic/stats
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
