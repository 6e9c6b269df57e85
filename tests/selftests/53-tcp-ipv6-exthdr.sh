#!/bin/sh
# TCP send-path offload over IPv6 when the receiver's packets (its ACKs)
# carry an extension header: tonic_xfer -X dst / -X hop sets
# IPV6_DSTOPTS / IPV6_HOPOPTS on h2's listening socket, tonic_inject's
# sniff mode checks that h2's packets really carry it.  An 8 MB offloaded
# transfer h1 -> h2 must complete at a normal speed, not by timeouts: no
# more retransmission timeouts than the same transfer without extension
# headers, no stall (no new byte for 10 s); kernel cubic on the same path
# as the reference.
# timeout: 240
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/acks-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 2ms
BYTES=8000000
fails=0 summary=

# timeouts: the device's retransmission timeouts, from the client's info line.
timeouts() {
	echo "$XW_INFO" | sed -n 's/.* timeouts \([0-9]*\).*/\1/p'
}

# run CC EXT: one transfer, h2's packets with extension header EXT (or none).
run() {
	_cc=$1 _ext=$2
	on h1 sysctl -qw net.ipv4.tcp_congestion_control=$_cc
	if [ "$_ext" = none ]; then XFER_SRV_ARGS=; else XFER_SRV_ARGS="-X $_ext"; fi
	echo "== $_cc, h2's packets with extension header: $_ext"
	sniff_start h2
	if [ $_cc = tonic ]; then
		xfer_watch h1 h2 fd00::2 $BYTES -r -i
	else
		xfer_watch h1 h2 fd00::2 $BYTES -i
	fi
	_rc=$?
	sniff_stop
	_from=$(sed -n 's/.*, \([0-9]*\) from receiver (\([0-9]*\) with IPv6 ext.*/\1/p' /tmp/sniff.out)
	_ext_n=$(sed -n 's/.*, \([0-9]*\) from receiver (\([0-9]*\) with IPv6 ext.*/\2/p' /tmp/sniff.out)
	_res="$_cc ext $_ext: $(xw_verdict $_rc)"
	[ $_rc = 0 ] || fails=$((fails + 1))
	[ $_cc = tonic ] && [ $_rc = 0 ] && _res="$_res, device timeouts $(timeouts)"
	_res="$_res, h2 sent ${_ext_n:-?}/${_from:-?} packets with an extension header"
	# Not vacuous: h2's packets (its ACKs) carried the header.
	if [ "$_ext" != none ] &&
	   { [ "${_ext_n:-0}" = 0 ] || [ $((${_ext_n:-0} * 2)) -lt "${_from:-0}" ]; }; then
		_res="$_res (expected most)"
		fails=$((fails + 1))
	fi
	echo "  stats: $(stats_line)"
	echo "  => $_res"
	summary="$summary
$_res"
}

run tonic none
base=$(timeouts)
for ext in dst hop; do
	run cubic $ext
	run tonic $ext
	t=$(timeouts)
	if [ -n "$t" ] && [ -n "$base" ] && [ "$t" -gt $((base + 2)) ]; then
		echo "  $t retransmission timeouts, $base without the extension header"
		fails=$((fails + 1))
		summary="$summary (more timeouts than without: $t > $base + 2)"
	fi
done

$TC -n h1 qdisc del dev eth0 root
echo "== summary$summary"
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
wait_flows_gone 10 || ksft_fail "flows left on the device"
tonic_hosts_del
exit $KSFT_PASS
