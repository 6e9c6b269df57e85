#!/bin/sh
# A device that refuses a push (it cannot take more work: the soft
# device's debugfs fail_push, as netdevsim's test knobs do): the socket
# goes back to software TCP with every byte -- those the device sent and
# those it never saw -- and the stream arrives intact.  At the first push
# of a connection, in the middle of a transfer, and for several of many
# parallel connections at once.  A push answered -ENODEV (the device lost
# the flow) is a failure, not a refusal: the socket fails over.
# timeout: 200
. /tests/lib.sh
. /tests/xfer-lib.sh
FAIL_PUSH=/sys/kernel/debug/tonic_soft0/fail_push
tonic_load || ksft_fail "modprobe tonic"
[ -w $FAIL_PUSH ] || ksft_fail "no $FAIL_PUSH"
tonic_hosts 2 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 5ms rate 100mbit
fails=0

# refused N: wait until N refusals armed in fail_push were used (5 s).
refused() {
	_i=0
	while [ "$(cat $FAIL_PUSH)" != 0 ] && [ $_i -lt $((50 * TONIC_TIMEOUT_SCALE)) ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	[ "$(cat $FAIL_PUSH)" = 0 ] || { echo "  fail_push still $(cat $FAIL_PUSH): the device was not asked"; return 1; }
}

# device_carried MIN MAX BYTES: the client's info line: the device sent MIN..MAX
# segments and its peer acked fewer bytes than the whole stream (TCP
# carried the rest).
device_carried() {
	_segs=$(sed -n 's/^info: .* segs \([0-9]*\) .*/\1/p' /tmp/xfer.cli)
	_acked=$(sed -n 's/^info: .* acked \([0-9]*\) .*/\1/p' /tmp/xfer.cli)
	[ -n "$_segs" ] && [ "$_segs" -ge "$1" ] && [ "$_segs" -le "$2" ] && [ "$_acked" -lt "$3" ] && return 0
	echo "  expected $1..$2 segments from the device and fewer than $3 bytes acked to it: $(grep '^info:' /tmp/xfer.cli)"
	return 1
}

echo "== the first push is refused: nothing was on the wire yet"
r0=$(glue_stat push_refused)
echo 1 > $FAIL_PUSH
xfer h1 h2 10.0.0.2 3000000 -C tonic -i || fails=$((fails + 1))
refused || fails=$((fails + 1))
device_carried 0 0 1 || fails=$((fails + 1))

# refuse_during PORT FLOWS DELAY N SRV_ARGS -- CLIENT_ARGS...: a transfer
# from h1 to h2:PORT; once FLOWS flows are on the device and DELAY seconds
# later, the device refuses the next N pushes; the transfer must end well.
refuse_during() {
	_port=$1 _flows=$2 _delay=$3 _n=$4
	shift 4
	_srv=
	while [ "$1" != -- ]; do _srv="$_srv $1"; shift; done
	shift
	xfer_server h2 $_port /tmp/refuse.srv $_srv || ksft_fail "no server on h2:$_port"
	on h1 tonic_xfer -c 10.0.0.2 $_port "$@" -C tonic -r > /tmp/xfer.cli 2>&1 & c=$!
	i=0
	while [ "$(glue_stat flows_in_use)" -lt $_flows ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	sleep $_delay
	echo $_n > $FAIL_PUSH
	wait $c; rc=$?
	wait
	echo "client rc $rc: $(grep -E 'Mbit|info:|connections' /tmp/xfer.cli | tr '\n' ' ')"
	[ $rc = 0 ] || { sed 's/^/  /' /tmp/xfer.cli /tmp/refuse.srv; fails=$((fails + 1)); }
	refused || fails=$((fails + 1))
}

# mid_transfer PORT: one push refused a second into a 30 MB offloaded
# transfer to h2:PORT; the stream must arrive intact.
mid_transfer() {
	refuse_during $1 1 1 1 -- 30000000 -i
}

echo "== a push in the middle of a transfer is refused"
mid_transfer 7541
device_carried 1 1000000 30000000 || fails=$((fails + 1))

echo "== 4 refusals among 8 parallel offloaded connections"
refuse_during 7542 8 0 4 -M 8 -- 4000000 -M 8

r1=$(glue_stat push_refused)
echo "glue: $(grep -E '^(attaches|detaches|handbacks|push_refused|aborted|failed) ' /sys/kernel/debug/tonic/stats | tr '\n' ' ')"
# One refusal per connection (1 + 1 + 4): a refused socket leaves the device, it does not push again.
[ $((r1 - r0)) = 6 ] || { echo "push_refused went $r0 -> $r1, expected +6"; fails=$((fails + 1)); }

echo "== a push answered -ENODEV: the device lost the flow (a PCIe Tonic in reset)"
# Not a refusal but a failure: the socket takes the failover path, as for
# the device's own FAILED note (here no other device takes it: TCP does).
f0=$(glue_stat failed)
echo 19 > ${FAIL_PUSH}_errno
mid_transfer 7543
echo 5 > ${FAIL_PUSH}_errno
f1=$(glue_stat failed)
[ $((f1 - f0)) = 1 ] ||
	{ echo "failed went $f0 -> $f1, expected +1 (the lost flow failed over)"; fails=$((fails + 1)); }
[ "$(glue_stat aborted)" = 0 ] || { echo "a connection was aborted"; fails=$((fails + 1)); }
wait_flows_gone 10 || { echo "flows left on the device"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
exit $KSFT_PASS
