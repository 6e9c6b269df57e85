#!/bin/sh
# A socket the device refuses holds no more memory than a kernel TCP
# socket.  Any user may ask for the offload (TCP_ULP "tonic"); a
# namespace at its flow quota (net.tonic.max_flows, here 0) refuses
# them all, and each refused socket once kept its descriptor ring and
# send-time stamps -- 48 KB at the window of 2048 -- for its lifetime,
# so the quota bounded nothing.  N connections from h1 to a listener
# that never reads, each with 1000 bytes sent and left open: MemAvailable
# falls by about as much with the offload asked for as with kernel cubic
# (3924 KB against 3728, least of two; 19680 KB more before), and on the
# debug kernel (7080 against 4984).
# timeout: 120
. /tests/lib.sh
. /tests/xfer-lib.sh
ulimit -n 4096
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.tonic.max_flows=0 || ksft_fail "net.tonic.max_flows=0"
N=400

avail_kb() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }

_conns() { [ "$(on h1 $SS -Htn state connected "dport = :$1" | wc -l)" -ge $N ]; }

# open_conns ULP_ARG: N connections held open (round $i); took: how many KB they took.
open_conns() {
	port=$((7400 + 10 * i + ${#1}))
	# The listener accepts one and sleeps: the rest wait in its backlog.
	on h2 tonic_xfer -s $port -M 1 -H 30000 > /dev/null 2>&1 &
	srv=$!
	wait_listen h2 $port || ksft_fail "listener on $port"
	sync
	a0=$(avail_kb)
	on h1 tonic_xfer -c 10.0.0.2 $port 1000 -M $N $1 > /dev/null 2>&1 &
	cli=$!
	wait_until 20 _conns $port || ksft_fail "$N connections on $port"
	sleep 1		# their 1000 bytes sent
	a1=$(avail_kb)
	kill $cli $srv 2>/dev/null
	wait $cli $srv 2>/dev/null
	took=$((a0 - a1))
}

# Each twice, in turn, and the smaller: what else the kernel frees late
# (a debug kernel's quarantine) only adds.
q0=$(glue_stat fallback_quota)
kernel= offload=
for i in 1 2; do
	open_conns ""
	[ -n "$kernel" ] && [ "$kernel" -le $took ] || kernel=$took
	open_conns -U
	[ -n "$offload" ] && [ "$offload" -le $took ] || offload=$took
done
refused=$(($(glue_stat fallback_quota) - q0))
echo "$N connections held open, least of two: kernel cubic took $kernel KB, the refused offload $offload KB;" \
	"$refused refusals at the quota"
[ "$refused" -ge $((2 * N)) ] || ksft_fail "the quota refused $refused of $((2 * N))"
# A tonic_sk is 1880 bytes; 16 KB a socket more would be a third of a ring and stamps.
[ "$offload" -le $((kernel + N * 16)) ] ||
	ksft_fail "the refused sockets took $((offload - kernel)) KB more than kernel TCP's"
echo "ok: refused sockets cost what kernel TCP's do"
