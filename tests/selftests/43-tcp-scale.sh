#!/bin/sh
# Scale: 1000 concurrent offloaded connections, every one intact; then a
# device with a 16-flow table and 100 concurrent connections: the first
# ones are offloaded, the rest stay on software TCP (counted as
# fallback_full) and every one still completes intact.
# timeout: 240
. /tests/lib.sh
. /tests/xfer-lib.sh
ulimit -n 8192
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
on h1 sysctl -qw net.ipv4.ip_local_port_range="10000 60000"
XFER_SRV_ARGS="-M 1000" xfer h1 h2 10.0.0.2 200000 -M 1000 -r || ksft_fail "1000 connections"
grep -q '1000/1000 connections intact, 1000 offloaded' /tmp/xfer.cli || ksft_fail "not all 1000 were offloaded"
wait_flows_gone 20 || ksft_fail "flows left on the device"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
tonic_unload || ksft_fail "unload"

echo "== a 16-flow device, 100 connections"
tonic_load max_flows=16 || ksft_fail "modprobe max_flows=16"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
# h1's default quota is half the table (8): lift it, so that the table itself fills
# (37-netns-isolation tests the quota).
on h1 sysctl -qw net.tonic.max_flows=2048 || ksft_fail "net.tonic.max_flows=2048"
tonic_netem h1 delay 5ms
XFER_SRV_ARGS="-M 100" xfer h1 h2 10.0.0.2 1000000 -M 100 || ksft_fail "100 connections on 16 flows"
cat /sys/kernel/debug/tonic/stats | head -8
[ "$(glue_stat fallback_full)" -gt 0 ] || ksft_fail "no connection fell back to software TCP"
[ "$(glue_stat attaches)" -ge 16 ] || ksft_fail "fewer than 16 offloaded"
wait_flows_gone 20 || ksft_fail "flows left on the device"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
