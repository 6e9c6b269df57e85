#!/bin/sh
# Smoke: the congestion-control path offloads an unmodified iperf3 client
# (sysctl in its namespace) over IPv4 and IPv6, and the flows are seen on the
# device.
# timeout: 120
. /tests/lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl tonic"
on h2 $IPERF -s -D -p 5201
wait_listen h2 5201 || ksft_fail "no iperf3 server on h2:5201"
on h1 $IPERF -c 10.0.0.2 -t 3 -p 5201 > /tmp/ip4.txt 2>&1 & p=$!
sleep 1.5
on h1 $SS -tni | tee /tmp/ss.txt | head -20
wait $p || { cat /tmp/ip4.txt; ksft_fail "iperf3 v4"; }
tail -4 /tmp/ip4.txt
grep -q tonic /tmp/ss.txt || ksft_fail "ss does not show tonic"
on h1 $IPERF -c fd00::2 -t 2 -p 5201 > /tmp/ip6.txt 2>&1 || { cat /tmp/ip6.txt; ksft_fail "iperf3 v6"; }
tail -3 /tmp/ip6.txt
cat /sys/kernel/debug/tonic/stats
a=$(sed -n 's/^attaches *//p' /sys/kernel/debug/tonic/stats)
[ "${a:-0}" -ge 2 ] || ksft_fail "flows were not attached (attaches=$a)"
pkill iperf3
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
sleep 1
$MODPROBE -r tonic || ksft_fail "unload after the flows closed"
exit $KSFT_PASS
