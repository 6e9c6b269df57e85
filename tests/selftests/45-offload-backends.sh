#!/bin/sh
# The TCP offload on whichever Tonic device is the default: the soft one in
# the guest suite, the PCIe device (device model over ivshmem) in
# guest-pci.  IPv4 and IPv6, newreno and sack, loss and reordering,
# sendfile, close() in flight, toggles: every byte arrives (SHA-256), and
# the default device really carried the flows.
# timeout: 240
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
dev=$(glue_stat dev)
added0=$(glue_stat flows_added)
echo "default device: $dev"
fails=0
ok() { "$@" || { fails=$((fails + 1)); echo "FAILED: $*"; }; }
ok xfer h1 h2 10.0.0.2 5000000 -r -i
ok xfer h1 h2 fd00::2 3000000 -r -P sack
tonic_netem h1 delay 2ms loss 1%
ok xfer h1 h2 10.0.0.2 3000000 -r -P newreno -i
ok xfer h1 h2 fd00::2 2000000 -r -P sack -i
tonic_netem h1 delay 2ms reorder 20% 50% duplicate 1%
ok xfer h1 h2 10.0.0.2 3000000 -r -f
ok xfer h1 h2 10.0.0.2 3000000 -r -t 700000 -e
tonic_netem h1 delay 10ms rate 50mbit
XFER_PORT=$((XFER_PORT + 1))
xfer_server h2 $XFER_PORT /tmp/srv.x || ksft_fail "no server on h2:$XFER_PORT"
on h1 tonic_xfer -c 10.0.0.2 $XFER_PORT 2000000 -x > /tmp/cli.x 2>&1 || fails=$((fails + 1))
wait
want=$(sed -n 's/^client: sent //p' /tmp/cli.x); got=$(sed -n 's/^server: //p' /tmp/srv.x)
[ -n "$want" ] && [ "$want" = "$got" ] || { echo "close in flight: sent '$want' got '$got'"; fails=$((fails + 1)); }
$TC -n h1 qdisc del dev eth0 root
added=$(( $(glue_stat flows_added) - added0 ))
echo "flows added on $dev: $added"
[ "$added" -ge 7 ] || { echo "the default device $dev carried $added flows"; fails=$((fails + 1)); }
[ "$(glue_stat failovers)" = 0 ] && [ "$(glue_stat rebases)" = 0 ] || { echo "failovers or re-bases without a fault"; fails=$((fails + 1)); }
wait_flows_gone 10 || { echo "flows left"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
