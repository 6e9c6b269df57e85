#!/bin/sh
# Byte guarantees of the offloaded send path next to kernel cubic (issue 11):
# sendfile() (exact, and past EOF: the socket's splice_eof) and splice()
# (file -> pipe -> socket, vmsplice) into a socket with the tonic ULP in
# each state -- offloaded, pending (the first send), fallback (table full;
# an urgent byte), software (toggled off) -- finish, intact, never stuck in
# D state; after the peer's RST every send path (blocked in sendmsg, send,
# sendfile, splice) gives cubic's errno, and MSG_NOSIGNAL / SIG_IGN keep
# the process alive as with cubic; a CRIU-style TCP_REPAIR checkpoint of a
# live connection sees the send queue the kernel reports, and the stream
# carries on intact.
# timeout: 290
. /tests/lib.sh
. /tests/xfer-lib.sh
. /tests/bytes-lib.sh
XFER_PORT=7490
fail() { BX_FAILS=$((BX_FAILS + 1)); }

# A table of two flows: the table-full case fills it; everything else
# uses one flow at a time.
bx_load max_flows=2 || ksft_fail "modprobe tonic max_flows=2"
tonic_hosts 3 || ksft_fail "tonic_hosts"
tonic_netem h1 delay 2ms

MODES="-f -F -p_f -p_v"
# per_state NAME WANT_STATE CLIENT_OPTS...: every send mode in one socket state.
per_state() {
	_st=$1 _want=$2
	shift 2
	for m in $MODES; do
		m=$(echo "$m" | tr _ ' ')
		# shellcheck disable=SC2086
		bx "$_st: $m" 15 h1 h2 10.0.0.2 3000001 "$@" $m -i || fail
		[ "$BX_RC" = 0 ] && { bx_want_state "$_want" || fail; }
	done
}

echo "== sendfile()/splice() into a socket in each state (3000001 bytes; -F: sendfile past EOF)"
per_state "cubic (reference)" none -C cubic -B 200000
per_state "offloaded" offloaded -C tonic -B 200000 -r
per_state "pending (first send)" pending -C cubic -U -r
per_state "fallback (urgent byte)" fallback -C tonic -B 200000 -O
per_state "software (toggled off)" software -C tonic -B 200000 -K
if [ "$(sed -n 's/^max_flows *//p' /sys/kernel/debug/tonic/stats)" = 2 ]; then
	# Holders take what is left of the table: 1 MB sent, then asleep, attached.
	for h in 1 2; do
		[ "$(glue_stat flows_in_use)" -ge 2 ] && break
		xfer_server h3 $((7480 + h)) /tmp/hold.srv$h || ksft_fail "no server on h3"
		on h1 tonic_xfer -c 10.0.0.3 $((7480 + h)) 2000000 -C tonic -B 1000000 -y 600000 > /tmp/hold.cli$h 2>&1 &
		i=0
		while [ "$(glue_stat flows_in_use)" -lt $h ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	done
	echo "holders keep the table full: flows_in_use $(glue_stat flows_in_use)"
	per_state "fallback (table full)" fallback -C tonic -B 200000
	for p in $($IP netns pids h1) $($IP netns pids h3); do kill "$p" 2>/dev/null; done
	wait_flows_gone 10 || echo "flows are left on the device: $(glue_stat flows_in_use)"
else
	echo "SKIP table full: tonic.ko was already loaded with another max_flows"
fi

echo "== the peer resets: every send path gives cubic's errno; MSG_NOSIGNAL / SIG_IGN keep the process alive"
# rst NAME SERVER_OPTS CLIENT_OPTS: the same with cubic and offloaded, compared.
rst() {
	_n=$1 _srv=$2 _cli=$3
	for cc in cubic tonic; do
		BX_SRV=$_srv
		# shellcheck disable=SC2086
		bx "$_n, $cc" 25 h1 h2 10.0.0.2 20000000 -C $cc -E -j $_cli > /tmp/rst.$cc 2>&1
		BX_SRV=
		grep -E '^client: (send error|then)' /tmp/bx.cli |
			sed 's/ after [0-9]* bytes//' > /tmp/rst.$cc.key
		echo "rc $BX_RC" >> /tmp/rst.$cc.key
	done
	if cmp -s /tmp/rst.cubic.key /tmp/rst.tonic.key; then
		echo "ok   $_n: as cubic: $(tr '\n' ' ' < /tmp/rst.tonic.key)"
	else
		echo "FAIL $_n: cubic: $(tr '\n' ' ' < /tmp/rst.cubic.key)"
		echo "     $_n: tonic: $(tr '\n' ' ' < /tmp/rst.tonic.key)"
		sed 's/^/    /' /tmp/rst.tonic
		fail
	fi
	# Either way, a process with MSG_NOSIGNAL or SIG_IGN must not die of SIGPIPE.
	case "$_cli" in *-N*|*-g*)
		grep -q '^rc 141' /tmp/rst.tonic.key && { echo "FAIL $_n: offloaded, killed by SIGPIPE despite ${_cli}"; fail; } ;;
	esac
}
# Blocked in sendmsg (the receiver does not read for 2 s, then resets).
rst "blocked in send(MSG_NOSIGNAL) when the RST comes" "-H 2000 -R 1" "-w 1000000 -N"
rst "blocked in write(), SIGPIPE ignored" "-H 2000 -R 1" "-w 1000000 -g"
rst "blocked in sendfile(), SIGPIPE ignored" "-H 2000 -R 1" "-w 1000000 -f -g"
# The peer read the first 300000 bytes and reset; the sender sends 1 s later.
rst "send(MSG_NOSIGNAL) after the RST" "-R 300000" "-B 300000 -y 1000 -N"
rst "write() after the RST, SIGPIPE ignored" "-R 300000" "-B 300000 -y 1000 -g"
rst "write() after the RST, SIGPIPE default" "-R 300000" "-B 300000 -y 1000"
rst "sendfile() after the RST, SIGPIPE ignored" "-R 300000" "-B 300000 -y 1000 -f -g"
rst "sendfile() after the RST, SIGPIPE default" "-R 300000" "-B 300000 -y 1000 -f"
rst "sendfile() past EOF after the RST, SIGPIPE ignored" "-R 300000" "-B 300000 -y 1000 -F -g"
rst "splice() after the RST, SIGPIPE ignored" "-R 300000" "-B 300000 -y 1000 -p f -g"
rst "vmsplice+splice() after the RST, SIGPIPE default" "-R 300000" "-B 300000 -y 1000 -p v"
rst "MSG_ZEROCOPY after the RST, MSG_NOSIGNAL" "-R 300000" "-B 300000 -y 1000 -Z -N"

echo "== TCP_REPAIR: a CRIU-style checkpoint of a live connection (slow reader: data queued)"
# The namespace's default congestion control is tonic: an unmodified
# checkpointing tool meets the offload without asking for it.
dflt="namespace default"
cc_opt=
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || { dflt="TCP_CONGESTION"; cc_opt="-C tonic"; }
BX_SRV="-D 20"
bx "TCP_REPAIR checkpoint, cubic" 60 h1 h2 10.0.0.2 8000000 -C cubic -B 3000000 -A -i || fail
# shellcheck disable=SC2086
bx "TCP_REPAIR checkpoint, tonic ($dflt)" 60 h1 h2 10.0.0.2 8000000 $cc_opt -B 3000000 -A -i || fail
BX_SRV=

bx_verdict
on h1 sysctl -qw net.ipv4.tcp_congestion_control=cubic
tonic_hosts_del
[ -n "$BX_HUNG" ] || tonic_unload || ksft_fail "unload after the connections closed"
exit $KSFT_PASS
