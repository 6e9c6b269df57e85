#!/bin/sh
# `make demo`: two hosts with 10 ms of delay between them, the tonic module
# loaded, an unmodified program (iperf3) across the link, and what the
# project's tools report.
# timeout: 120
. /tests/lib.sh
echo "== two hosts, h1 (10.0.0.1) and h2 (10.0.0.2), 10 ms each way"
tonic_hosts 2 || exit 1
tonic_netem h1 delay 10ms
tonic_netem h2 delay 10ms
on h1 ping -c 2 10.0.0.2 | tail -n 1

echo "== loading tonic.ko"
$MODPROBE tonic || exit 1
grep '^tonic ' /proc/modules
dmesg | grep tonic: | tail -n 3

echo "== iperf3, unmodified, h1 -> h2 (3 s)"
on h2 $IPERF -s -1 -D
sleep 0.5
on h1 $IPERF -c 10.0.0.2 -t 3 | tail -n 4
echo "== note: TCP offload is not in this build yet; this run used the kernel's own TCP"
