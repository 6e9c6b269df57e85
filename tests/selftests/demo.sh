#!/bin/sh
# `make demo`: two hosts with 10 ms of delay between them, the tonic module
# loaded, and unmodified programs (iperf3, busybox httpd + wget) whose TCP
# sends run on the soft Tonic device because the admin said so for one
# namespace -- with what the project's own tools report, and the same
# iperf3 run on the kernel's TCP for comparison.
# timeout: 180
. /tests/lib.sh
echo "== two hosts, h1 (10.0.0.1) and h2 (10.0.0.2), 10 ms each way"
tonic_hosts 2 || exit 1
tonic_netem h1 delay 10ms
tonic_netem h2 delay 10ms
on h1 ping -c 2 10.0.0.2 | tail -n 1

echo "== loading tonic.ko"
tonic_load || exit 1
grep '^tonic ' /proc/modules
dmesg | grep 'tonic:' | tail -n 3
tonic dev show

echo
echo "== iperf3 on the kernel's own TCP (cubic), h1 -> h2, 4 s"
on h2 $IPERF -s -D -p 5201
sleep 0.5
on h1 $IPERF -c 10.0.0.2 -t 4 -p 5201 -C cubic | grep -E 'sender|receiver'

echo
echo "== the admin turns offload on for namespace h1 only (no change to any program):"
echo "   ip netns exec h1 sysctl net.ipv4.tcp_congestion_control=tonic"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic
echo "   program, C and T for new flows in h1 (tonic set; net.tonic.* sysctls):"
on h1 tonic set prog cubic
on h1 tonic set | sed 's/^/   /'

echo
echo "== the same iperf3, unmodified, h1 -> h2, 4 s -- now offloaded"
on h1 $IPERF -c 10.0.0.2 -t 4 -p 5201 > /tmp/iperf.txt 2>&1 &
p=$!
sleep 2
echo "-- ss -ti in h1 while it runs (the kernel's view: congestion control and ULP 'tonic'):"
on h1 $SS -tniH dst 10.0.0.2 | awk '/^ESTAB/ { printf "   %s -> %s:", $4, $5; next }
	{ for (i = 1; i <= NF; i++) if ($i == "tonic" || $i ~ /^(bytes_sent|bytes_acked|tcp-ulp)/)
		printf " %s", $i; print "" }'

echo "-- tonic flow show in h1 (the device's view of the flow):"
on h1 tonic flow show | sed 's/^/   /'
wait $p
echo "-- iperf3's own report:"
grep -E 'sender|receiver' /tmp/iperf.txt
echo
echo "== Tonic's window is the device's bitmap, wnd_bits segments of C bytes (2048 here,"
echo "   256 in the paper's FPGA): with C = MSS and a 20 ms RTT that allows ~1.2 Gbit/s."
echo "   For longer, faster paths the admin makes C larger (GSO cuts each C-byte"
echo "   segment into MSS packets):"
echo "   ip netns exec h1 tonic set seg 14480"
on h1 tonic set seg 14480
on h1 $IPERF -c 10.0.0.2 -t 4 -p 5201 > /tmp/iperf.txt 2>&1 &
p=$!
sleep 2
on h1 tonic flow show | grep -A2 'seg_size 14480' | sed 's/^/   /'
wait $p
grep -E 'sender|receiver' /tmp/iperf.txt
on h1 tonic set seg 0

echo
echo "== busybox httpd in h2 serves a 16 MB file, wget in h1 fetches it"
echo "   (offload on in h2 this time: the server's sends go through Tonic)"
on h2 sysctl -qw net.ipv4.tcp_congestion_control=tonic
mkdir -p /tmp/www
dd if=/dev/urandom of=/tmp/www/file bs=1M count=16 2>/dev/null
on h2 busybox httpd -p 8080 -h /tmp/www
sleep 0.3
t0=$(date +%s)
on h1 busybox wget -q -O /tmp/file http://10.0.0.2:8080/file
echo "   fetched in $(( $(date +%s) - t0 )) s; sha256 sent     $(sha256sum < /tmp/www/file | cut -c1-16)..."
echo "                       sha256 received $(sha256sum < /tmp/file | cut -c1-16)..."

echo
echo "== the project's statistics (tonic stats: the device and the TCP integration)"
tonic stats
echo
echo "== and the transfers were really offloaded (debugfs, per device and socket counters):"
grep -E '^(installs|attaches|detaches|segs_tx|segs_rtx|acks_in|fallback_full) ' /sys/kernel/debug/tonic/stats |
	sed 's/^/   /'
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
on h2 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
