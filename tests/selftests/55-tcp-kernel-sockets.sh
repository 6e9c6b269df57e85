#!/bin/sh
# In-kernel TCP users (NFS, iSCSI, ...; here tests/kmod/tonic_test_ksock)
# stay on software TCP whichever way they meet the offload: TCP_ULP
# "tonic" is refused (EOPNOTSUPP), TCP_CONGESTION "tonic" and
# net.tonic.auto_offload leave them alone -- each counted as
# fallback_repair or simply not adopted -- and every byte arrives intact.
# A user socket on the same path, asked the same ways, is offloaded (the
# checks are not vacuous).
# timeout: 150
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 2ms
dd if=/dev/urandom of=/tmp/ksock.data bs=1000 count=3000 2> /dev/null
want_sha=$(sha256sum /tmp/ksock.data | cut -d' ' -f1)
fails=0

# ksock HOW: the kernel socket in h1 sends the file to h2 (HOW: ulp, cc, plain).
ksock() {
	XFER_PORT=$((XFER_PORT + 1))
	rm -f /tmp/ks.srv
	on h2 tonic_xfer -s $XFER_PORT > /tmp/ks.srv 2>&1 &
	_srv=$!
	_i=0
	while ! grep -q listening /tmp/ks.srv 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	dmesg -c > /dev/null
	a0=$(glue_stat attaches) r0=$(glue_stat fallback_repair) ad0=$(glue_stat auto_adopted)
	on h1 $MODPROBE tonic_test_ksock addr=10.0.0.2 port=$XFER_PORT file=/tmp/ksock.data how=$1
	_rc=$?
	$MODPROBE -r tonic_test_ksock 2> /dev/null
	wait $_srv
	_log=$(dmesg | grep tonic_test_ksock | sed 's/^\[[ 0-9.]*\] //' | tr '\n' ' ')
	_got=$(sed -n 's/^server: \([0-9]*\) \([0-9a-f]*\).*/\2/p' /tmp/ks.srv)
	_res="kernel socket, $1: rc $_rc, attaches +$(($(glue_stat attaches) - a0)), fallback_repair +$(($(glue_stat fallback_repair) - r0)), auto_adopted +$(($(glue_stat auto_adopted) - ad0)); $_log"
	_bad=
	[ $_rc = 0 ] || _bad="$_bad load failed;"
	[ "$_got" = "$want_sha" ] || _bad="$_bad stream differs (server: $(cat /tmp/ks.srv | tr '\n' ' '));"
	[ "$(glue_stat attaches)" = "$a0" ] || _bad="$_bad offloaded;"
	echo "$_log" | grep -q 'ulp=none' || _bad="$_bad the socket has the tonic ULP;"
	case $1 in
	ulp) echo "$_log" | grep -q 'setsockopt=-95 ' || _bad="$_bad TCP_ULP not refused with EOPNOTSUPP;"
	     [ "$(glue_stat fallback_repair)" = $((r0 + 1)) ] || _bad="$_bad not counted once as fallback_repair;" ;;
	cc)  [ "$(glue_stat fallback_repair)" = $((r0 + 1)) ] || _bad="$_bad not counted once as fallback_repair;" ;;
	plain) [ "$(glue_stat auto_adopted)" = "$ad0" ] || _bad="$_bad adopted by auto_offload;" ;;
	esac
	if [ -n "$_bad" ]; then
		echo "FAIL $_res:$_bad"
		fails=$((fails + 1))
	else
		echo "ok   $_res"
	fi
}

echo "== a user socket asked the same ways is offloaded"
xfer h1 h2 10.0.0.2 2000000 -U -r || fails=$((fails + 1))
xfer h1 h2 10.0.0.2 2000000 -C tonic -r || fails=$((fails + 1))
echo "== a kernel socket is not"
ksock ulp
ksock cc
on h1 sysctl -qw net.tonic.auto_offload=1 || ksft_fail "sysctl net.tonic.auto_offload"
xfer h1 h2 10.0.0.2 2000000 -r || fails=$((fails + 1))
ksock plain
on h1 sysctl -qw net.tonic.auto_offload=0
wait_flows_gone 10 || { echo "flows left on the device"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
exit $KSFT_PASS
