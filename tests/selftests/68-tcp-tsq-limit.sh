#!/bin/sh
# TCP Small Queues' byte limit at 0: net.ipv4.tcp_limit_output_bytes,
# which a namespace's root may set, is the limit of a socket that no qdisc
# paces (tcp_small_queue_check()).  Kernel TCP still sends -- always
# while no more than one skb of its is unacked -- and so must the
# offload: its TSQ check (sock-glue/tx.c, tonic_tsq_full()) read the
# socket's own count, which never goes below 1, as a queue above the
# limit, held the flow, and the device's RTOs failed it to software TCP.
# Here kernel cubic and the offload each send 2 MB from a namespace with
# the limit at 0: intact, and the offload's flow neither timed out nor
# was failed, nor left bytes for software TCP when it closed (a close
# hands every socket back: handback_bytes counts what it still owed).
# timeout: 180
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_limit_output_bytes=0 || ksft_fail "sysctl tcp_limit_output_bytes"
[ "$(on h1 sysctl -n net.ipv4.tcp_limit_output_bytes)" = 0 ] || ksft_fail "limit not 0"
XFER_TIMEOUT=$((60 * TONIC_TIMEOUT_SCALE))
fails=0

xfer h1 h2 10.0.0.2 2000000 -C cubic || { echo "FAIL cubic (reference)"; fails=$((fails + 1)); }

f0=$(glue_stat failed) h0=$(glue_stat handback_bytes)
if xfer h1 h2 10.0.0.2 2000000 -U -r -i; then
	echo "ok   offloaded: intact"
else
	echo "FAIL offloaded: not intact"; fails=$((fails + 1))
fi
info=$(grep 'info:' /tmp/xfer.cli)
case $info in
*" timeouts 0 "*) echo "ok   offloaded: no RTO" ;;
*) echo "FAIL offloaded: RTOs on a clean path: $info"; fails=$((fails + 1)) ;;
esac
f=$(($(glue_stat failed) - f0)) h=$(($(glue_stat handback_bytes) - h0))
if [ $f = 0 ] && [ $h = 0 ]; then
	echo "ok   offloaded: not failed, no byte left to software TCP"
else
	echo "FAIL offloaded: $f failed, $h bytes handed back"; fails=$((fails + 1))
fi
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
exit $KSFT_PASS
