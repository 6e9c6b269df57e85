# Helpers for the byte-guarantee tests (49-51, issue 11); `. /tests/bytes-lib.sh`
# after lib.sh and xfer-lib.sh.  Every transfer is bounded in time, and a
# sender that SIGKILL cannot end (D state: a deadlock in the kernel) is
# reported as such instead of hanging the test.

BX_FAILS=0
BX_HUNG=
BX_RC=0

# bx_load [PARAM=VALUE...]: load tonic.ko (with tonic_load where lib.sh has
# it: "tonic" then also allowed as a namespace's default).
bx_load() {
	if command -v tonic_load > /dev/null 2>&1; then
		tonic_load "$@"
	else
		$MODPROBE tonic "$@"
	fi
}

# bx_state PID: the state letter of a process (R, S, D, Z, ...), empty if gone.
bx_state() {
	sed -n 's/^[0-9]* (.*) \(.\) .*/\1/p' "/proc/$1/stat" 2>/dev/null
}

# bounded SECS OUT HOST CMD...: run CMD in HOST (stdout and stderr to OUT)
# for at most SECS seconds.  Returns CMD's status; 137 when it had to be
# killed; 200 when it survived SIGKILL (still there, not a zombie: stuck
# in the kernel), with its stack.  (timeout -s KILL cannot do this:
# timeout(1) waits for ever for a child that SIGKILL does not end.)
bounded() {
	_bsecs=$1 _bout=$2 _bh=$3
	shift 3
	rm -f /tmp/bounded.pid
	# exec all the way down: no shell stays behind holding this test's
	# stdout (the harness's pipe) while waiting for a child stuck for ever.
	( exec $IP netns exec "$_bh" sh -c 'echo $$ > /tmp/bounded.pid; exec "$@"' sh "$@" ) \
		> "$_bout" 2>&1 < /dev/null &
	_bjob=$!
	_bi=0
	while [ ! -s /tmp/bounded.pid ] && [ $_bi -lt 50 ]; do
		sleep 0.1
		_bi=$((_bi + 1))
	done
	_bpid=$(cat /tmp/bounded.pid 2>/dev/null)
	_bend=$(( $(date +%s) + _bsecs ))
	while kill -0 $_bjob 2>/dev/null && [ "$(bx_state $_bjob)" != Z ]; do
		if [ "$(date +%s)" -ge $_bend ]; then
			echo "TIMEOUT: still running after $_bsecs s (pid $_bpid, state $(bx_state "$_bpid"), wchan $(cat "/proc/$_bpid/wchan" 2>/dev/null)): SIGKILL"
			sed 's/^/  flows: /' /sys/kernel/debug/tonic/flows 2>/dev/null
			kill -KILL "$_bpid" 2>/dev/null
			sleep 2
			_bst=$(bx_state "$_bpid")
			if [ -n "$_bst" ] && [ "$_bst" != Z ]; then
				echo "HANG: pid $_bpid survived SIGKILL in state '$_bst' (D: uninterruptible, in the kernel for ever)"
				[ -r "/proc/$_bpid/stack" ] && sed 's/^/  stack: /' "/proc/$_bpid/stack"
				BX_HUNG="$BX_HUNG $_bpid"
				return 200
			fi
			# ss only now, and only this port: tcp_get_info() takes the
			# socket lock, and a socket of a task stuck in D keeps it.
			if [ -n "$BX_PEER" ]; then
				on "$_bh" $SS -tniH "( dport = :$XFER_PORT )" 2>/dev/null | sed "s/^/  ss $_bh: /"
				on "$BX_PEER" $SS -tniH "( sport = :$XFER_PORT )" 2>/dev/null | sed "s/^/  ss $BX_PEER: /"
			fi
			wait $_bjob 2>/dev/null
			return 137
		fi
		sleep 0.1
	done
	wait $_bjob
}

# bx_glue: the TCP glue's counters that say where sockets went.
bx_glue() {
	grep -E '^(flows_in_use|installs|attaches|detaches|fallback_[a-z]*|drain_timeouts|closes_deferred|aborted|failed|rebases|acks_dropped) ' \
		/sys/kernel/debug/tonic/stats 2>/dev/null | tr '\n' ' '
	echo
}

# bx_server HOST: start tonic_xfer -s on the next port in HOST ($BX_SRV: its options).
bx_server() {
	XFER_PORT=$((XFER_PORT + 1))
	rm -f /tmp/bx.srv
	on "$1" tonic_xfer -s $XFER_PORT $BX_SRV > /tmp/bx.srv 2>&1 &
	BX_SRV_PID=$!
	_bi=0
	while ! grep -q listening /tmp/bx.srv 2>/dev/null && [ $_bi -lt 50 ]; do
		sleep 0.1
		_bi=$((_bi + 1))
	done
}

bx_server_stop() {
	kill $BX_SRV_PID 2>/dev/null
	wait $BX_SRV_PID 2>/dev/null
}

# bx NAME SECS FROM TO ADDR BYTES [tonic_xfer client options]: one bounded
# transfer FROM -> TO (server options in $BX_SRV); prints "ok NAME ..." or
# "FAIL NAME ..." (with both sides' output and the glue's counters) and
# returns the client's status (BX_RC too).
bx() {
	_bname=$1 _bsecs=$2 _bfrom=$3 _bto=$4 _baddr=$5 _bbytes=$6
	shift 6
	bx_server "$_bto"
	BX_PEER=$_bto
	_bt0=$(date +%s)
	bounded "$_bsecs" /tmp/bx.cli "$_bfrom" tonic_xfer -c "$_baddr" $XFER_PORT "$_bbytes" "$@"
	BX_RC=$?
	BX_PEER=
	_bdt=$(( $(date +%s) - _bt0 ))
	[ $BX_RC = 0 ] || sleep 0.5
	bx_server_stop
	_bsum=$(grep -E 'state before|zerocopy:|Mbit|soft errors|send error|then:|repair:|expected|info:' /tmp/bx.cli | tr '\n' ' ')
	if [ $BX_RC = 0 ]; then
		echo "ok   $_bname (${_bdt}s): $_bsum"
	else
		echo "FAIL $_bname (rc $BX_RC, ${_bdt}s): $_bsum"
		sed 's/^/    client: /' /tmp/bx.cli
		sed 's/^/    server: /' /tmp/bx.srv
		echo "    glue: $(bx_glue)"
	fi
	return $BX_RC
}

# bx_want_state WANT: the client's "state before the main send" was WANT.
bx_want_state() {
	_bgot=$(sed -n 's/^client: state before the main send: \([a-z]*\).*/\1/p' /tmp/bx.cli)
	[ "$_bgot" = "$1" ] && return 0
	echo "    (setup: the socket was to be '$1' before the main send, it was '${_bgot:-?}')"
	return 1
}

# bx_verdict: end of a test: the number of failed cases, the hung processes.
bx_verdict() {
	[ -n "$BX_HUNG" ] && echo "processes stuck in D state (SIGKILL cannot end them):$BX_HUNG"
	echo "glue: $(bx_glue)"
	[ "$BX_FAILS" = 0 ] || ksft_fail "$BX_FAILS case(s) failed"
}
