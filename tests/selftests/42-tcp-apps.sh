#!/bin/sh
# Unmodified programs offloaded by the admin, and seen offloaded: iperf3
# with the namespace's default congestion control "tonic" (both
# directions, IPv4 and IPv6), iperf3 over a route with `congctl tonic`,
# and busybox httpd serving a file to wget (the server's sends are
# offloaded; the file arrives intact).
# timeout: 240
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 1ms
fails=0
bad() { echo "FAILED: $*"; fails=$((fails + 1)); }

echo "== iperf3, net.ipv4.tcp_congestion_control=tonic in h1"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
on h2 $IPERF -s -D -p 5201
wait_listen h2 5201 || ksft_fail "no iperf3 server on h2:5201"
a0=$(glue_stat attaches)
on h1 $IPERF -c 10.0.0.2 -t 3 -p 5201 > /tmp/ip.txt 2>&1 & p=$!
sleep 1.5
on h1 $SS -tni dst 10.0.0.2 > /tmp/ss.txt
on h1 tonic flow show > /tmp/flows.txt
wait $p || { cat /tmp/ip.txt; bad "iperf3 v4"; }
tail -4 /tmp/ip.txt
grep -q 'tcp-ulp-tonic' /tmp/ss.txt || { cat /tmp/ss.txt; bad "ss -ti shows no tcp-ulp-tonic"; }
grep -q ' tonic ' /tmp/ss.txt || bad "ss -ti shows no congestion control tonic"
grep -q 'owner socket' /tmp/flows.txt || grep -q socket /tmp/flows.txt || { cat /tmp/flows.txt; bad "tonic flow show has no socket flow"; }
head -5 /tmp/flows.txt
[ "$(glue_stat attaches)" -gt "$a0" ] || bad "iperf3 was not attached"
echo "== iperf3 -R over IPv6: the server in h2 sends, offloaded there"
on h2 sysctl -qw net.ipv4.tcp_congestion_control=tonic
pkill_iperf() { for p in $(pidof iperf3); do kill $p; done; }
pkill_iperf; sleep 0.3
on h2 $IPERF -s -D -p 5202
wait_listen h2 5202 || ksft_fail "no iperf3 server on h2:5202"
a0=$(glue_stat attaches)
on h1 $IPERF -c fd00::2 -t 2 -p 5202 -R > /tmp/ip6.txt 2>&1 || { cat /tmp/ip6.txt; bad "iperf3 -R v6"; }
tail -3 /tmp/ip6.txt
[ "$(glue_stat attaches)" -gt "$a0" ] || bad "iperf3 -R was not attached"
on h2 sysctl -qw net.ipv4.tcp_congestion_control=cubic

echo "== iperf3 over a route with congctl tonic (namespace default cubic)"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
on h1 $IP route replace 10.0.0.0/24 dev eth0 congctl tonic || bad "ip route congctl tonic"
a0=$(glue_stat attaches)
on h1 $IPERF -c 10.0.0.2 -t 2 -p 5202 > /tmp/ipr.txt 2>&1 || { cat /tmp/ipr.txt; bad "iperf3 via route"; }
tail -3 /tmp/ipr.txt
[ "$(glue_stat attaches)" -gt "$a0" ] || bad "the route's congctl did not offload"
on h1 $IP route replace 10.0.0.0/24 dev eth0
pkill_iperf

echo "== busybox httpd -> wget, the server offloaded"
mkdir -p /tmp/www
dd if=/dev/urandom of=/tmp/www/f bs=1M count=24 2>/dev/null
on h2 sysctl -qw net.ipv4.tcp_congestion_control=tonic
on h2 busybox httpd -p 8080 -h /tmp/www
wait_listen h2 8080 || ksft_fail "no httpd on h2:8080"
a0=$(glue_stat attaches)
on h1 busybox wget -q -O /tmp/got4 http://10.0.0.2:8080/f || bad "wget v4"
on h1 busybox wget -q -O /tmp/got6 "http://[fd00::2]:8080/f" || bad "wget v6"
want=$(sha256sum < /tmp/www/f)
[ "$(sha256sum < /tmp/got4)" = "$want" ] || bad "the file over IPv4 differs"
[ "$(sha256sum < /tmp/got6)" = "$want" ] || bad "the file over IPv6 differs"
echo "sha256 $want"
[ "$(glue_stat attaches)" -ge $((a0 + 2)) ] || bad "httpd was not attached"
on h2 sysctl -qw net.ipv4.tcp_congestion_control=cubic
rm -rf /tmp/www /tmp/got4 /tmp/got6
cat /sys/kernel/debug/tonic/stats | head -12
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
