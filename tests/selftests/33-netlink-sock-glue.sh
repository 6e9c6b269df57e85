#!/bin/sh
# With the TCP glue: an offloaded transfer shows in tonic flow show (in its
# own netns only) with the 4-tuple and the device's counters, tonic sock
# offload off/on toggles it by 4-tuple, tonic monitor announces it, and
# tonic stats has the socket counters.  Skips until sock-glue is merged.
# timeout: 180
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"
if ! sockglue; then
	echo "SKIP: sock-glue (TCP ULP \"tonic\") is not in tonic.ko yet"
	$MODPROBE -r tonic
	exit $KSFT_SKIP
fi
tonic_hosts 2 || ksft_fail "hosts"
on h1 $TONIC -j monitor > /tmp/mon.json 2>/tmp/mon.err &
mon=$!
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic 2>/dev/null ||
	echo tonic > /dev/null
xfer_server h2 5001 /tmp/srv.5001 || ksft_fail "no server on h2:5001"
on h1 /usr/bin/tonic_xfer -c 10.0.0.2 5001 400000000 -C tonic > /tmp/xfer.out 2>&1 &
xfer=$!
i=0
while :; do
	OUT=$(on h1 $TONIC -j flow show)
	[ "$(jget '#')" -ge 1 ] 2>/dev/null && break
	i=$((i + 1)); [ $i -gt 100 ] && ksft_fail "no offloaded flow in h1"
	sleep 0.1
done
echo "$OUT"
assert_eq "socket flow layout" "$(jget '[0]?keys')" \
	"dev,id,owner,program,seg-size,sk-state,sub-delay-us,family,local-ipv4,local-port,remote-ipv4,remote-port,netns-inum,failed,cwnd,rate-kbps,credit,last-rtt-ns,bytes-sent,segs-sent,segs-rtx,segs-acked,timeouts,nacks,cnps,wnd-start,highest-sent,tail,param,prog-info"
assert_eq "the program shows its ssthresh" "$(jget '[0].prog-info[0].name')" ssthresh
# ... and its SRTT: the handshake's from the start (tonic_rto_init), then samples.
assert_eq "... and its srtt_us" "$(jget '[0].prog-info[1].name')" srtt_us
[ "$(jget '[0].prog-info[1].value')" -gt 0 ] || ksft_fail "srtt_us $(jget '[0].prog-info[1].value')"
assert_eq "owner" "$(jget '[0].owner')" socket
assert_eq "local" "$(jget '[0].local-ipv4')" 10.0.0.1
assert_eq "remote" "$(jget '[0].remote-ipv4')" 10.0.0.2
assert_eq "rport" "$(jget '[0].remote-port')" 5001
lport=$(jget '[0].local-port')
dev=$(jget '[0].dev'); id=$(jget '[0].id')
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "flow get" "$(jget '[0].local-port')" "$lport"
# Other namespaces do not see it.
OUT=$($TONIC -j flow show); assert_eq "init_net sees no socket flow" "$(printf '%s' "$OUT" | grep -c '"owner":"socket"')" 0
OUT=$(on h2 $TONIC -j flow show); assert_eq "h2 sees none" "$(jget '#')" 0
expect_err 1 "no such flow" on h2 $TONIC flow show dev "$dev" id "$id"

# A program parameter of the live flow: set by its namespace's admin only.
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "params as added" "$(jget '[0].param#') $(jget '[0].param[1]')" "8 0"
on h1 $TONIC flow set "$dev" "$id" param 1 77 || ksft_fail "flow set"
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "param 1 after flow set" "$(jget '[0].param[0]') $(jget '[0].param[1]')" "0 77"
on h1 $TONIC flow show dev "$dev" id "$id" | grep -q "param 0,77,0,0,0,0,0,0" || ksft_fail "text: param"
expect_err 1 "no such flow in this network namespace" on h2 $TONIC flow set "$dev" "$id" param 1 5
expect_err 1 "no such flow in this network namespace" $TONIC flow set "$dev" "$id" param 1 5
expect_err 1 "no such Tonic device" on h1 $TONIC flow set nosuch "$id" param 1 5
expect_err 2 "param index" on h1 $TONIC flow set "$dev" "$id" param 8 5
expect_err 1 "Operation not permitted" $UNPRIV nobody $TONIC flow set "$dev" "$id" param 1 5
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "refused sets changed nothing" "$(jget '[0].param[1]')" 77

# The device's parameters for the flow's program: the host's to set; a live
# flow takes those it did not set itself, and one it sets to 0 goes back
# to the device's.
prog=$(jget '[0].program')
$TONIC dev set "$dev" prog "$prog" param 1 5 || ksft_fail "dev set param 1"
$TONIC dev set "$dev" prog "$prog" param 2 9 || ksft_fail "dev set param 2"
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "its own param 1 kept, the device's param 2 taken" \
	"$(jget '[0].param[1]') $(jget '[0].param[2]')" "77 9"
on h1 $TONIC flow set "$dev" "$id" param 1 0 || ksft_fail "flow set param 1 0"
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "param 1 set to 0: the device's again" "$(jget '[0].param[1]')" 5
jrun dev show "$dev"
assert_eq "dev show: one program's parameters" \
	"$(jget '[0].prog-param#') $(jget '[0].prog-param[0].program')" "1 $prog"
OUT=$(printf '%s' "$OUT" | $J '[0].prog-param[0].param[1]' '[0].prog-param[0].param[2]' \
	'[0].prog-param[0].param#' | tr '\n' ' ')
assert_eq "dev show: its values" "$OUT" "5 9 8 "
$TONIC dev show "$dev" | grep -q "params $prog 0,5,9,0,0,0,0,0" || ksft_fail "text: dev params"
expect_err 1 "devices are the host's" on h1 $TONIC dev set "$dev" prog "$prog" param 1 6
expect_err 1 "Operation not permitted" $UNPRIV nobody $TONIC dev set "$dev" prog "$prog" param 1 6
expect_err 1 "does not run this program" $TONIC dev set "$dev" prog nosuch param 1 6
expect_err 1 "no such Tonic device" $TONIC dev set nosuch prog "$prog" param 1 6
expect_err 2 "param index" $TONIC dev set "$dev" prog "$prog" param 8 6
expect_err 2 "dev set: DEV prog PROGRAM param INDEX VALUE" $TONIC dev set "$dev" prog "$prog"
OUT=$(on h1 $TONIC -j flow show dev "$dev" id "$id") || ksft_fail "flow get"
assert_eq "refused device sets changed nothing" "$(jget '[0].param[1]') $(jget '[0].param[2]')" "5 9"

# Toggle by 4-tuple: off (drains to software TCP), then on again: the
# flow added anew starts with the device's parameters.
on h1 $TONIC sock offload off 10.0.0.1 "$lport" 10.0.0.2 5001 || ksft_fail "offload off"
sleep 1
on h1 $TONIC sock offload on 10.0.0.1 "$lport" 10.0.0.2 5001 || ksft_fail "offload on"
OUT=$(on h1 $TONIC -j flow show) || ksft_fail "flow show"
assert_eq "the re-added flow: the device's parameters" \
	"$(jget '[0].param[0]'),$(jget '[0].param[1]'),$(jget '[0].param[2]')" "0,5,9"
$TONIC dev set "$dev" prog "$prog" param 1 0 || ksft_fail "dev set param 1 0"
$TONIC dev set "$dev" prog "$prog" param 2 0 || ksft_fail "dev set param 2 0"
jrun dev show "$dev"
assert_eq "all back to the program's defaults: no parameters shown" "$(jget '[0].prog-param#')" ""
OUT=$(on h1 $TONIC -j flow show) || ksft_fail "flow show"
assert_eq "...and the flow's are 0 again" "$(jget '[0].param[1]'),$(jget '[0].param[2]')" "0,0"
jrun stats
jget '.sockets.offloaded' > /dev/null || ksft_fail "socket counters"
wait $xfer || ksft_fail "transfer: $(cat /tmp/xfer.out)"
sleep 0.5
# $mon is the subshell running `on`: the monitor itself is its child.
kill $mon $(pidof tonic) 2>/dev/null
wait $mon 2>/dev/null
cat /tmp/mon.json
printf '%s' "$(cat /tmp/mon.json)" | $J -l > /dev/null || ksft_fail "monitor output is not JSON lines"
grep -q '"event":"added"' /tmp/mon.json || ksft_fail "no added event"
grep -q '"event":"removed"' /tmp/mon.json || ksft_fail "no removed event"
tonic_hosts_del
tonic_unload || ksft_fail "unload"
exit $KSFT_PASS
