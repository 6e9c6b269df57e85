# Helpers for the TCP offload tests; `. /tests/xfer-lib.sh` after lib.sh.
# Transfers use tonic_xfer (tests/selftests/tonic_xfer.c): the receiver
# hashes the stream with SHA-256 and the sender compares with its own.

XFER_PORT=${XFER_PORT:-7100}

# xfer FROM TO ADDR BYTES [tonic_xfer client options...]
# One transfer FROM -> TO (hosts), to ADDR; prints one summary line and
# returns the client's exit status (0 = every byte arrived intact).
xfer() {
	_from=$1 _to=$2 _addr=$3 _bytes=$4
	shift 4
	XFER_PORT=$((XFER_PORT + 1))
	xfer_server "$_to" $XFER_PORT /tmp/xfer.srv $XFER_SRV_ARGS
	_srv=$XFER_SRV_PID
	on "$_from" /usr/bin/timeout "${XFER_TIMEOUT:-$((120 * TONIC_TIMEOUT_SCALE))}" \
		tonic_xfer -c "$_addr" $XFER_PORT "$_bytes" "$@" > /tmp/xfer.cli 2>&1
	_rc=$?
	[ $_rc = 0 ] || sleep 1
	kill $_srv 2>/dev/null
	wait $_srv 2>/dev/null
	echo "xfer $_addr $_bytes $* -> rc $_rc: $(grep -E 'Mbit|info:|reset|connections' /tmp/xfer.cli | tr '\n' ' ')"
	if [ $_rc != 0 ]; then
		sed 's/^/  client: /' /tmp/xfer.cli
		sed 's/^/  server: /' /tmp/xfer.srv
	fi
	return $_rc
}

# glue_stat NAME: one counter of /sys/kernel/debug/tonic/stats.
glue_stat() {
	sed -n "s/^$1 *//p" /sys/kernel/debug/tonic/stats
}

# wait_flows_gone SECONDS: wait until no flow is on any device.
wait_flows_gone() {
	_i=0
	while [ "$(glue_stat flows_in_use)" != 0 ] && [ $_i -lt $(($1 * 10 * TONIC_TIMEOUT_SCALE)) ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	[ "$(glue_stat flows_in_use)" = 0 ]
}
