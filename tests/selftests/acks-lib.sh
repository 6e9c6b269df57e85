# Helpers for the tests that feed the sender bad or unusual ACKs (47, 48, 53, 56);
# `. /tests/acks-lib.sh` after lib.sh and xfer-lib.sh.

# rx_bytes HOST PORT: bytes the established connection on local port PORT
# of HOST has received in order (ss: bytes_received), 0 if there is none.
rx_bytes() {
	_n=$(on "$1" $SS -tinH state established "( sport = :$2 )" 2>/dev/null |
		sed -n 's/.*bytes_received:\([0-9]*\).*/\1/p' | head -n 1)
	echo "${_n:-0}"
}

# tcp_mib HOST NAME: a counter of the Tcp: lines of HOST's /proc/net/snmp
# (IPv4 and IPv6 share them), e.g. InCsumErrors.
tcp_mib() {
	on "$1" cat /proc/net/snmp | awk -v n="$2" '
		/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) col[$i] = i; h = 1 } else print $col[n] }'
}

# xfer_watch FROM TO ADDR BYTES [tonic_xfer client options...]
# One transfer as xfer() does, with a watchdog: the client is killed when
# the receiver got no new byte for XFER_STALL seconds (default 10: a
# stall, kernel TCP never pauses that long on these paths) or after
# XFER_LIMIT seconds in all (default 60).  Returns the client's exit status
# (0 = every byte arrived intact), 124 if the watchdog killed it; sets
# XW_SECS (whole seconds it ran), XW_GOT (bytes the receiver had then) and
# XW_INFO (the client's "info:" line, with -i).
xfer_watch() {
	_from=$1 _to=$2 _addr=$3 _bytes=$4
	shift 4
	XFER_PORT=$((XFER_PORT + 1))
	# Truncated here: the server's own redirection may come after the grep below.
	: > /tmp/xfer.srv
	: > /tmp/xfer.cli
	on "$_to" sh -c 'echo $$ > /tmp/xw.srv.pid; exec tonic_xfer -s "$@"' sh \
		$XFER_PORT $XFER_SRV_ARGS > /tmp/xfer.srv 2>&1 &
	_i=0
	while ! grep -q listening /tmp/xfer.srv 2>/dev/null && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	on "$_from" sh -c 'echo $$ > /tmp/xw.cli.pid; exec tonic_xfer -c "$@"' sh \
		"$_addr" $XFER_PORT "$_bytes" "$@" > /tmp/xfer.cli 2>&1 &
	_cli=$!
	_t0=$(date +%s)
	_t=0 _last=-1 _moved=$_t0 _why=
	while :; do
		sleep 1
		kill -0 $_cli 2>/dev/null || break
		_now=$(date +%s)
		_t=$((_now - _t0))
		XW_GOT=$(rx_bytes "$_to" $XFER_PORT)
		if [ "$XW_GOT" != "$_last" ]; then
			_last=$XW_GOT
			_moved=$_now
		fi
		if [ $((_now - _moved)) -ge "${XFER_STALL:-10}" ]; then
			_why="stalled: no new byte for ${XFER_STALL:-10} s, receiver has $XW_GOT of $_bytes"
		elif [ $_t -ge "${XFER_LIMIT:-60}" ]; then
			_why="not done after ${XFER_LIMIT:-60} s, receiver has $XW_GOT of $_bytes"
		else
			continue
		fi
		# Where the flow stood, before the kill takes it away.
		cp /sys/kernel/debug/tonic/flows /tmp/xw.flows 2>/dev/null
		kill "$(cat /tmp/xw.cli.pid)" 2>/dev/null
		break
	done
	wait $_cli
	_rc=$?
	[ -n "$_why" ] && _rc=124
	XW_SECS=$(($(date +%s) - _t0))
	XW_INFO=$(grep 'info:' /tmp/xfer.cli)
	[ $_rc = 0 ] || sleep 1
	kill "$(cat /tmp/xw.srv.pid)" 2>/dev/null
	echo "xfer $_addr $_bytes $* -> rc $_rc after ${XW_SECS}s:" \
		"$(grep -E 'Mbit|info:' /tmp/xfer.cli | tr '\n' ' ')${_why}"
	if [ $_rc != 0 ]; then
		sed 's/^/  client: /' /tmp/xfer.cli
		sed 's/^/  server: /' /tmp/xfer.srv
		[ -n "$_why" ] && sed 's/^/  flows: /' /tmp/xw.flows 2>/dev/null
	fi
	return $_rc
}

# xw_verdict RC: xfer_watch's outcome in words, for a case's summary line.
xw_verdict() {
	case $1 in
	0) echo "ok ${XW_SECS}s" ;;
	124) echo "STALLED (receiver had $XW_GOT)" ;;
	*) echo "FAILED rc $1" ;;
	esac
}

# stats_line: /sys/kernel/debug/tonic/stats on one line.
stats_line() {
	awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 } END { print "" }' \
		/sys/kernel/debug/tonic/stats
}

# sniff_start HOST: tonic_inject sniffs, on HOST's eth0, the connection of
# the next xfer_watch (port XFER_PORT + 1) into /tmp/sniff.out.
sniff_start() {
	: > /tmp/sniff.out
	on "$1" sh -c 'echo $$ > /tmp/sniff.pid; exec tonic_inject "$@"' sh \
		-i eth0 -p $((XFER_PORT + 1)) -k sniff -d 60000 > /tmp/sniff.out 2>&1 &
	SNIFF_JOB=$!
	_i=0
	while ! grep -q listening /tmp/sniff.out && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
}

# sniff_stop: the sniffer ends with the connection (both FINs), or here;
# prints its summary.
sniff_stop() {
	sleep 1
	kill "$(cat /tmp/sniff.pid)" 2>/dev/null
	wait $SNIFF_JOB
	sed -n 's/^inject: /  sniff: /p' /tmp/sniff.out | grep -v listening
}
