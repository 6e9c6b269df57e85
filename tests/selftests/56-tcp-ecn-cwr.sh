#!/bin/sh
# ECN: the offloaded sender's CWR goes out as kernel TCP sends it -- on the
# first packet of a GSO burst only (tcp_ecn_send: SKB_GSO_TCP_ECN), never
# repeated over every segment of the burst.  h1's eth0 cannot segment
# ECN bursts itself (ethtool tx-tcp-ecn-segmentation off), so a burst
# marked SKB_GSO_TCP_ECN is cut into packets on h1, and one that is not
# reaches h2 whole with CWR set: h2's sniffer then sees a CWR packet longer
# than one MSS.  netem on h1 marks CE instead of dropping (loss 5% ecn):
# h2 echoes ECE, the sender reduces its window and sets CWR.  With C =
# MSS the device's CWR segment goes out alone; with C = 10 MSS it is a
# burst of its own.  Kernel cubic
# on the same path is the reference; the check is not vacuous: bursts
# larger than one MSS do reach the sniffer, and both senders set CWR.
# netem drops a SYN (it is not ECT) one time in twenty, and a retransmitted
# SYN no longer offers ECN (tcp_ecn_fallback): the connection then runs
# without ECN, every drop is a real loss and no CWR is ever sent.  h1 keeps
# ECN on its retransmitted SYNs (tcp_ecn_fallback=0), and each run checks
# that the sender's last SYN offered it.
# Then 1 % drops on top of the marks: the offload may take no more RTOs
# than kernel cubic on the same path (within noise).  Last, h1's own qdisc
# refuses segments: the device's program hears of it, as kernel TCP does.
# tcg: single (trace events turned on and off: tests/qemu/run.sh)
# timeout: 300
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/acks-lib.sh
ETHTOOL=/usr/sbin/ethtool
[ -x $ETHTOOL ] || ksft_fail "no ethtool in the guest (scripts/install-deps.sh installs it)"
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
for h in h1 h2; do on $h sysctl -qw net.ipv4.tcp_ecn=1 || ksft_fail "sysctl tcp_ecn"; done
on h1 sysctl -qw net.ipv4.tcp_ecn_fallback=0 || ksft_fail "sysctl tcp_ecn_fallback"
on h1 $ETHTOOL -K eth0 tx-tcp-ecn-segmentation off || ksft_fail "ethtool -K"
on h1 $ETHTOOL -k eth0 | grep -q 'tx-tcp-ecn-segmentation: off' ||
	ksft_fail "tx-tcp-ecn-segmentation still on"
tonic_netem h1 delay 2ms loss 5% ecn
BYTES=12000000
fails=0 summary=

# run CC [CLIENT_OPTS]: one transfer h1 -> h2 with h2 sniffing; checks the CWR packets.
run() {
	_cc=$1
	shift
	on h1 sysctl -qw net.ipv4.tcp_congestion_control=$_cc
	echo "== $_cc"
	sniff_start h2
	if [ $_cc = tonic ]; then
		xfer_watch h1 h2 10.0.0.2 $BYTES -r -i "$@"
	else
		xfer_watch h1 h2 10.0.0.2 $BYTES -i
	fi
	_rc=$?
	sniff_stop
	_l=$(grep 'largest data' /tmp/sniff.out)
	_mss=$(echo "$_l" | sed -n 's/.*; mss \([0-9]*\),.*/\1/p')
	_big=$(echo "$_l" | sed -n 's/.*largest data \([0-9]*\),.*/\1/p')
	_ncwr=$(echo "$_l" | sed -n 's/.*, \([0-9]*\) CWR (largest \([0-9]*\)).*/\1/p')
	_cwrmax=$(echo "$_l" | sed -n 's/.*, \([0-9]*\) CWR (largest \([0-9]*\)).*/\2/p')
	_syn=$(echo "$_l" | sed -n 's/.*; \([0-9]*\) SYN, ECN \(.*\)$/\1 SYN(s), ECN \2/p')
	_res="$_cc $*: $(xw_verdict $_rc), mss ${_mss:-?}, largest burst ${_big:-?}, ${_ncwr:-?} CWR packets (largest ${_cwrmax:-?}), ${_syn:-no SYN seen}"
	[ $_rc = 0 ] || fails=$((fails + 1))
	if [ -z "$_mss" ] || [ -z "$_cwrmax" ]; then
		_res="$_res: the sniffer saw nothing"
		fails=$((fails + 1))
	elif [ "${_syn##*ECN }" != offered ]; then
		_res="$_res: the connection did not negotiate ECN"
		fails=$((fails + 1))
	elif [ "$_ncwr" = 0 ]; then
		_res="$_res: no CWR at all (ECN not exercised)"
		fails=$((fails + 1))
	elif [ "$_big" -le "$_mss" ]; then
		_res="$_res: no burst larger than one MSS reached the sniffer (check vacuous)"
		fails=$((fails + 1))
	elif [ "$_cwrmax" -gt "$_mss" ]; then
		_res="$_res: CWR on a whole burst (not SKB_GSO_TCP_ECN)"
		fails=$((fails + 1))
	fi
	echo "  => $_res"
	summary="$summary
$_res"
}

run cubic
run tonic
# A segment of C = 10 MSS is one GSO skb of its own: CWR lands on a burst.
run tonic -S 14480

# ECN marks and real drops together: h2 also drops 1 % of what arrives
# (gact), so holes open in windows an ECE has just cut and under tails of
# which only the last segment arrived.  Kernel TCP repairs those at once
# (its CWR state enters recovery, RACK calls a hole under a SACKed segment
# lost); an offload that waited for the RTO there (200 ms) took 8 in
# this check where kernel cubic took 1; now 2 to 5 where kernel cubic
# takes 0 to 4 (lost retransmissions, which Linux's RACK finds sooner).
# The bound is loose against that noise, not a target.  Counted: kernel
# cubic's TCPTimeouts in h1; the offload's tonic:tonic_timeout events
# whose backed-off rto is above the 200 ms base (a tail loss probe's
# expiry leaves it at the base).
$TC -n h2 qdisc add dev eth0 ingress || ksft_fail "ingress qdisc"
$TC -n h2 filter add dev eth0 ingress matchall action gact pass random netrand drop 100 ||
	ksft_fail "gact drop"
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || ksft_fail "mount tracefs"
# Enabled once: each switch patches the kernel's text on every CPU.
tonic_atexit 'echo 0 > $T/events/tonic/tonic_timeout/enable'
echo 1 > $T/events/tonic/tonic_timeout/enable || ksft_fail "enable tonic:tonic_timeout"
cps=$(/usr/bin/tonic dev show soft0 | sed -n 's/.* cycle_ps \([0-9]*\).*/\1/p')
[ -n "$cps" ] || ksft_fail "soft0's cycle_ps"
base=$((200000000000 / cps))
kernel_rtos() {
	on h1 awk '/^TcpExt:/ { if (!n) { for (i = 1; i <= NF; i++) if ($i == "TCPTimeouts") c = i; n = 1 }
		else print $c }' /proc/net/netstat
}
krto=0 orto=0
for i in 1 2 3; do
	on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
	k0=$(kernel_rtos)
	xfer h1 h2 10.0.0.2 4000000 || ksft_fail "cubic transfer with marks and drops"
	krto=$((krto + $(kernel_rtos) - k0))
	on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic
	echo > $T/trace
	xfer h1 h2 10.0.0.2 4000000 -r || ksft_fail "offloaded transfer with marks and drops"
	orto=$((orto + $(sed -n 's/.* rto_cycles=\([0-9]*\).*/\1/p' $T/trace |
		awk -v b=$base '$1 > b { n++ } END { print n + 0 }')))
done
dropped=$($TC -n h2 -s filter show dev eth0 ingress | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
echo "== marks and 1 % drops, 3 x 4 MB each: RTOs kernel cubic $krto, offload $orto; h2 dropped ${dropped:-?}"
[ "${dropped:-0}" -gt 0 ] || ksft_fail "gact dropped nothing: the check is vacuous"
[ $orto -le $((3 * (krto + 3))) ] ||
	ksft_fail "the offload took $orto RTOs where kernel cubic took $krto"
$TC -n h2 qdisc del dev eth0 ingress

# The host's own qdisc refuses segments: netem on h1 at 10 Mbit/s with
# room for 8 packets drops what overflows it (NET_XMIT_DROP), and kernel
# TCP enters CWR at each refusal (tcp_transmit_skb() -> tcp_enter_cwr()).
# The glue tells the device (a CNP), whose program cuts its window as for
# an ECE.  Checked: kernel cubic and the offload each deliver every byte;
# the glue counted the offload's refusals (tx_congested, at least the
# qdisc's drops in that run) and the offloaded flow's device took them
# (its cnps counter, read while the transfer runs).  Only TCP goes through
# that netem: h1's other packets (IPv6 router solicitations, ARP) take a
# band of their own, or the count of drops would include them -- one did,
# now and then, and the check failed by one.
echo "== the host's qdisc refuses segments"
$TC -n h1 qdisc replace dev eth0 root handle 1: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
	$TC -n h1 qdisc add dev eth0 parent 1:1 handle 10: netem rate 10mbit limit 8 &&
	$TC -n h1 filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip protocol 6 0xff flowid 1:1 ||
	ksft_fail "prio qdisc with TCP through netem"
qdrops() { $TC -n h1 -s qdisc show dev eth0 parent 1:1 | sed -n 's/.*dropped \([0-9]*\).*/\1/p'; }
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
d0=$(qdrops)
xfer h1 h2 10.0.0.2 3000000 || ksft_fail "cubic transfer through a refusing qdisc"
echo "kernel cubic: h1's qdisc dropped $(($(qdrops) - d0))"
d0=$(qdrops) c0=$(glue_stat tx_congested)
xfer_server h2 7300 /tmp/srv.56r
srv=$XFER_SRV_PID
on h1 tonic_xfer -c 10.0.0.2 7300 3000000 -U -i > /tmp/cli.56r 2>&1 & cli=$!
cnps=0 i=0
while kill -0 $cli 2>/dev/null && [ $i -lt $((300 * TONIC_TIMEOUT_SCALE)) ]; do
	set -- $(on h1 tonic sock show port 7300 | sed -n 's/.* dev \([a-z0-9]*\) flow \([0-9]*\).*/\1 \2/p')
	if [ $# = 2 ]; then
		n=$(on h1 tonic -j flow show dev "$1" id "$2" 2>/dev/null | sed -n 's/.*"cnps":\([0-9]*\).*/\1/p')
		[ "${n:-0}" -gt $cnps ] && cnps=$n
	fi
	i=$((i + 1)); sleep 0.1
done
wait $cli || { cat /tmp/cli.56r; ksft_fail "offloaded transfer through a refusing qdisc"; }
kill $srv 2>/dev/null; wait $srv 2>/dev/null
grep -q "attaches 1" /tmp/cli.56r || ksft_fail "the transfer was not offloaded"
d=$(($(qdrops) - d0)) c=$(($(glue_stat tx_congested) - c0))
echo "offload: h1's qdisc dropped $d, the glue counted $c refusals, the flow's device $cnps CNPs"
[ $d -gt 0 ] || ksft_fail "the qdisc dropped nothing of the offload's: the check is vacuous"
[ $c -ge $d ] || ksft_fail "the glue counted $c refusals of $d drops"
[ $cnps -gt 0 ] || ksft_fail "the device heard of no refusal"
$TC -n h1 qdisc del dev eth0 root
echo "== summary$summary"
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
wait_flows_gone 10 || ksft_fail "flows left on the device"
tonic_hosts_del
exit $KSFT_PASS
