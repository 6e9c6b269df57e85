#!/bin/sh
# Byte guarantees of the offloaded send path when the application lets go,
# next to kernel cubic (issue 11): close() with 10 MB in flight over a
# 1 Mbit/s link (about 80 s: every byte, then EOF -- no reset after a fixed
# drain limit); SO_LINGER 0 (reset), SO_LINGER 5 with close() and with
# exit() (data still delivered); the offload switched off after
# shutdown(SHUT_WR) (the FIN still goes); a sender blocked in sendmsg while
# the admin switches the offload off over netlink (no EPIPE, no SIGPIPE,
# every byte).
# timeout: 290
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/bytes-lib.sh
XFER_PORT=7510
fail() { BX_FAILS=$((BX_FAILS + 1)); }
bx_load || ksft_fail "modprobe tonic"
# h1 sends offloaded, h3 with cubic, each over its own link, both to h2.
tonic_hosts 3 || ksft_fail "tonic_hosts"

# srv PORT OUT [opts]: a receiver on h2, in the background ($! is its job).
srv() {
	_p=$1 _o=$2
	shift 2
	rm -f "$_o"
	on h2 tonic_xfer -s "$_p" -g "$@" > "$_o" 2>&1 &
	_i=0
	while ! grep -q listening "$_o" 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
}

# wait_jobs SECS PID...: wait for background jobs, at most SECS in all; kill the rest.
wait_jobs() {
	_s=$1
	shift
	_i=0
	for _j in "$@"; do
		while kill -0 "$_j" 2>/dev/null && [ "$(bx_state "$_j")" != Z ] && [ $_i -lt $((_s * 10)) ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill "$_j" 2>/dev/null
		wait "$_j" 2>/dev/null
	done
}

# delivered NAME CLI SRV: the receiver got exactly what the client sent, then EOF.
delivered() {
	_want=$(sed -n 's/^client: sent //p' "$2")
	_got=$(sed -n 's/^server: \([0-9]* [0-9a-f]*\)$/\1/p' "$3")
	if [ -n "$_want" ] && [ "$_want" = "$_got" ]; then
		echo "ok   $1: every byte, then EOF ($_got)"
		return 0
	fi
	echo "FAIL $1: sent '$_want', the receiver got '${_got:-nothing}'"
	sed 's/^/    client: /' "$2"
	sed 's/^/    server: /' "$3"
	echo "    glue: $(bx_glue)"
	return 1
}

# reset NAME SRV: the receiver saw the connection reset.
was_reset() {
	if grep -q 'reset by peer' "$2"; then
		echo "ok   $1: the receiver saw the reset: $(grep -m1 '^server:' "$2")"
		return 0
	fi
	echo "FAIL $1: no reset seen by the receiver"
	sed 's/^/    server: /' "$2"
	return 1
}

echo "== close() with 10 MB in flight at 1 Mbit/s: every byte, then EOF (about 85 s)"
tonic_netem h1 rate 1mbit delay 1ms
tonic_netem h3 rate 1mbit delay 1ms
srv 7511 /tmp/c5.srv.tonic
s1=$!
srv 7512 /tmp/c5.srv.cubic
s2=$!
t0=$(date +%s)
on h1 tonic_xfer -c 10.0.0.2 7511 10000000 -C tonic -b 12000000 -x -i -r > /tmp/c5.cli.tonic 2>&1
on h3 tonic_xfer -c 10.0.0.2 7512 10000000 -C cubic -b 12000000 -x > /tmp/c5.cli.cubic 2>&1
t1=$(date +%s)
[ $((t1 - t0)) -le 3 ] || { echo "FAIL close() blocked for $((t1 - t0)) s"; fail; }
wait_jobs 150 $s1 $s2
echo "the receivers finished after $(( $(date +%s) - t0 )) s"
delivered "close in flight, offloaded" /tmp/c5.cli.tonic /tmp/c5.srv.tonic || fail
delivered "close in flight, cubic" /tmp/c5.cli.cubic /tmp/c5.srv.cubic || fail

echo "== SO_LINGER (2 MB at 1 Mbit/s: about 17 s on the wire)"
# linger CASE CLIENT_OPTS: offloaded on h1 and cubic on h3, at the same time.
linger() {
	srv 7521 /tmp/l.srv.tonic
	l1=$!
	srv 7522 /tmp/l.srv.cubic
	l2=$!
	t0=$(date +%s)
	on h1 tonic_xfer -c 10.0.0.2 7521 2000000 -C tonic -b 4000000 -x $2 > /tmp/l.cli.tonic 2>&1 &
	c1=$!
	on h3 tonic_xfer -c 10.0.0.2 7522 2000000 -C cubic -b 4000000 -x $2 > /tmp/l.cli.cubic 2>&1 &
	c2=$!
	wait_jobs 30 $c1 $c2
	echo "$1: the senders were done after $(( $(date +%s) - t0 )) s; $(grep -h 'close()' /tmp/l.cli.tonic /tmp/l.cli.cubic | tr '\n' ' ')"
	wait_jobs 60 $l1 $l2
}
linger "SO_LINGER 0, close()" "-L 0"
was_reset "SO_LINGER 0, offloaded" /tmp/l.srv.tonic || fail
was_reset "SO_LINGER 0, cubic" /tmp/l.srv.cubic || fail
linger "SO_LINGER 5, close()" "-L 5"
delivered "SO_LINGER 5, close(), offloaded" /tmp/l.cli.tonic /tmp/l.srv.tonic || fail
delivered "SO_LINGER 5, close(), cubic" /tmp/l.cli.cubic /tmp/l.srv.cubic || fail
for side in tonic cubic; do
	sed -n 's/.*returned after \([0-9]*\).*/\1/p' /tmp/l.cli.$side > /tmp/l.t
	t=$(cat /tmp/l.t)
	[ -n "$t" ] && [ "$t" -ge 4 ] && [ "$t" -le 6 ] ||
		{ echo "FAIL SO_LINGER 5, $side: close() returned after '${t:-?}' s, not about 5"; fail; }
done
linger "SO_LINGER 5, exit() without close()" "-L 5 -q"
delivered "SO_LINGER 5, exit(), offloaded" /tmp/l.cli.tonic /tmp/l.srv.tonic || fail
delivered "SO_LINGER 5, exit(), cubic" /tmp/l.cli.cubic /tmp/l.srv.cubic || fail
$TC -n h1 qdisc del dev eth0 root
$TC -n h3 qdisc del dev eth0 root

echo "== offload off after shutdown(SHUT_WR) with data in flight: the FIN still goes"
tonic_netem h1 delay 5ms rate 20mbit
bx "SHUT_WR then TONIC_OFFLOAD 0, offloaded" 25 h1 h2 10.0.0.2 4000000 -C tonic -k -i -r || fail
bx "SHUT_WR, cubic (reference)" 40 h1 h2 10.0.0.2 4000000 -C cubic || fail
$TC -n h1 qdisc del dev eth0 root

echo "== a sender blocked in sendmsg while the admin switches the offload off over netlink"
tonic_netem h1 delay 2ms
# slow reader + 1 MB writes; slow reader + 1000-byte writes; a reader that
# stops for 4 s (zero window: the sender blocked at the start of a write)
for v in "-D 20|-w 1000000" "-D 20|-w 1000" "-H 4000 -D 5|-w 65536" "-H 4000 -D 5|-w 65536 -g"; do
	BX_SRV=${v%%|*}
	cli=${v#*|}
	bx_server h2
	rm -f /tmp/nl.pid
	on h1 sh -c 'echo $$ > /tmp/nl.pid; exec tonic_xfer -c 10.0.0.2 '$XFER_PORT' 20000000 -C tonic -i -r '"$cli" > /tmp/nl.cli 2>&1 &
	c=$!
	sleep 2
	lport=$(on h1 $SS -Htn state established dst 10.0.0.2 | awk '{print $3; exit}')
	lport=${lport##*:}
	echo "sender blocked in: $(cat /proc/$(cat /tmp/nl.pid)/wchan 2>/dev/null)"
	on h1 tonic sock offload off 10.0.0.1 "$lport" 10.0.0.2 $XFER_PORT || echo "offload off failed"
	i=0
	while kill -0 $c 2>/dev/null && [ "$(bx_state $c)" != Z ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 600 ] || { echo "the sender is still running after 60 s"; kill -KILL "$(cat /tmp/nl.pid)"; }
	wait $c
	rc=$?
	bx_server_stop
	BX_SRV=
	name="netlink off while blocked (server $BX_SRV${v%%|*}, client $cli)"
	if [ $rc = 0 ]; then
		echo "ok   $name: $(grep -E 'Mbit|info:' /tmp/nl.cli | tr '\n' ' ')"
	else
		echo "FAIL $name: rc $rc$( [ $rc = 141 ] && echo ' (killed by SIGPIPE)')"
		sed 's/^/    client: /' /tmp/nl.cli
		sed 's/^/    server: /' /tmp/bx.srv
		echo "    glue: $(bx_glue)"
		fail
	fi
done

bx_verdict
tonic_hosts_del
[ -n "$BX_HUNG" ] || tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
