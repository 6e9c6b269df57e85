#!/bin/sh
# The N-host helper: hosts reach each other over IPv4 and IPv6, netem adds
# the delay it is asked for, and kernel TCP moves data between them.
# timeout: 120
. /tests/lib.sh
tonic_hosts 3 || ksft_fail "tonic_hosts"
on h1 ping -c 1 -W 2 10.0.0.3 >/dev/null || ksft_fail "h1 -> h3 IPv4"
on h3 ping -c 1 -W 2 fd00::2 >/dev/null || ksft_fail "h3 -> h2 IPv6"
tonic_netem h1 delay 20ms || ksft_fail "netem"
rtt=$(on h1 ping -c 3 -i 0.2 10.0.0.2 | sed -n 's|.*= [0-9.]*/\([0-9]*\).*|\1|p')
echo "rtt with 20ms netem: ${rtt}ms"
[ "${rtt:-0}" -ge 20 ] || ksft_fail "netem delay not applied (rtt ${rtt}ms)"
on h2 $IPERF -s -1 -D
wait_listen h2 5201 || ksft_fail "no iperf3 server on h2:5201"
on h1 $IPERF -c 10.0.0.2 -t 2 -J > /tmp/iperf.json || ksft_fail "iperf3"
grep -q '"bits_per_second"' /tmp/iperf.json || ksft_fail "iperf3 output"
tonic_hosts_del
exit $KSFT_PASS
