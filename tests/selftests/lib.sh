#!/bin/sh
# Helpers for guest selftests; `. /tests/lib.sh`.
# Real binaries by absolute path: busybox's ip/tc applets would shadow them.
IP=/usr/bin/ip
TC=/usr/sbin/tc
SS=/usr/bin/ss
IPERF=/usr/bin/iperf3
MODPROBE=/usr/sbin/modprobe
RDMA=/usr/bin/rdma

# Set by the guest's init: slow kernels (make check-debug) wait N times longer.
TONIC_TIMEOUT_SCALE=${TONIC_TIMEOUT_SCALE:-1}

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# tonic_hosts N: hosts h1..hN, each a network namespace whose eth0 is
# plugged into a bridge in namespace "sw".  hI has 10.0.0.I/24 and
# fd00::I/64.  Idempotent per boot: removes any previous topology.
tonic_hosts() {
	tonic_hosts_del
	$MODPROBE veth && $MODPROBE bridge || return 1
	$IP netns add sw
	$IP -n sw link add br0 type bridge
	$IP -n sw link set br0 up
	$IP -n sw link set lo up
	i=1
	while [ "$i" -le "$1" ]; do
		$IP netns add "h$i"
		$IP -n "h$i" link set lo up
		$IP link add eth0 netns "h$i" type veth peer name "p$i" netns sw
		$IP -n sw link set "p$i" master br0 up
		$IP -n "h$i" addr add "10.0.0.$i/24" dev eth0
		$IP -n "h$i" addr add "fd00::$i/64" dev eth0 nodad
		$IP -n "h$i" link set eth0 up
		i=$((i + 1))
	done
	TONIC_NHOSTS=$1
}

tonic_hosts_del() {
	for ns in $($IP netns list | awk '{print $1}'); do
		# Processes left inside (servers, monitors) would keep the
		# namespace, its sockets and its sysctls alive after the del.
		for p in $($IP netns pids "$ns" 2>/dev/null); do
			kill "$p" 2>/dev/null
		done
		$IP netns del "$ns"
	done
}

# tonic_netem HOST ARGS...: netem on HOST's egress, e.g. "delay 5ms loss 1%".
tonic_netem() {
	h=$1; shift
	$TC -n "$h" qdisc replace dev eth0 root netem "$@"
}

# on HOST CMD...: run CMD inside HOST's namespace.
on() {
	h=$1; shift
	$IP netns exec "$h" "$@"
}

# trace_buf_kb: the trace buffer's size per CPU as it can be written back.
# Before its first use it reads "7 (expanded: 1408)": 7 is what is
# allocated, 1408 what the first use expands it to -- and writing back 7
# left every later test a buffer of 7 KB.
trace_buf_kb() {
	_b=$(cat /sys/kernel/tracing/buffer_size_kb)
	case $_b in *expanded:*) _b=${_b##*expanded: }; _b=${_b%)} ;; esac
	echo "${_b%% *}"
}

# wait_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds, for up
# to SECONDS (times TONIC_TIMEOUT_SCALE); the status of its last run.
wait_until() {
	_w=$(($1 * 10 * TONIC_TIMEOUT_SCALE)); shift
	while ! "$@"; do
		_w=$((_w - 1))
		[ $_w -le 0 ] && { "$@"; return; }
		sleep 0.1
	done
}

# xfer_server HOST PORT FILE [tonic_xfer server options...]: a receiver
# on HOST:PORT in the background, its output in FILE, its pid in
# XFER_SRV_PID; returns once it listens (status 1 if it never does).
xfer_server() {
	_h=$1 _p=$2 _f=$3
	shift 3
	# The background job truncates the file only when it starts: without
	# this, an earlier server's "listening" lets the client in too early.
	rm -f "$_f"
	on "$_h" tonic_xfer -s "$_p" "$@" > "$_f" 2>&1 &
	XFER_SRV_PID=$!
	wait_until 5 grep -q listening "$_f" 2>/dev/null
}

# wait_listen HOST PORT: until a TCP socket listens on PORT in HOST (5 s).
wait_listen() {
	wait_until 5 _listens "$1" "$2"
}
_listens() {
	[ -n "$(on "$1" $SS -Hltn "sport = :$2")" ]
}

# ksft_fail MSG: print a diagnostic and exit as a failure.
ksft_fail() {
	echo "FAIL: $*"
	exit $KSFT_FAIL
}

# tonic_unload: modprobe -r tonic, retried for up to 5 s (times
# TONIC_TIMEOUT_SCALE).  Deleting a namespace is asynchronous in the kernel
# (cleanup_net): a namespace whose default congestion control was "tonic",
# or a closing socket's ULP, holds the module for a moment after
# `ip netns del` returns.
tonic_unload() {
	_i=0
	while ! $MODPROBE -r tonic 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -ge $((50 * TONIC_TIMEOUT_SCALE)) ] && { $MODPROBE -r tonic; return 1; }
		sleep 0.1
	done
}

# Every test leaves the guest as a fresh boot has it, whatever happened, so
# that the next one starts from there: a module left loaded would ignore
# the next test's parameters, a namespace or a server its ports.  On exit
# (the trap below) and from the runner after a test its timeout killed
# (tests/qemu/guest-init.sh: no trap runs then).
#
# tonic_atexit CMD: run CMD on exit too, before the common part; the last
# added runs first.  A step that finds a leak sets TONIC_EXIT_RC=1.
TONIC_ATEXIT=${TONIC_ATEXIT-}
tonic_atexit() {
	TONIC_ATEXIT="$1
$TONIC_ATEXIT"
}

tonic_exit() {
	TONIC_EXIT_RC=$?
	trap - EXIT
	eval "$TONIC_ATEXIT"
	tonic_reset
	exit $TONIC_EXIT_RC
}
trap tonic_exit EXIT
trap 'exit 1' INT TERM

# jobs_ended PID...: each has exited (a zombie until wait reaps it).
jobs_ended() {
	for _p in "$@"; do
		[ -r /proc/$_p/stat ] || continue
		read -r _s < /proc/$_p/stat
		_s=${_s##*) }
		[ "${_s%% *}" = Z ] || return 1
	done
}

# tonic_reset: the common part: the test's background jobs, every
# namespace with what runs in it, RDMA links, init_net's congestion
# control, and the modules tests load.
tonic_reset() {
	_jobs=$(jobs -p)
	for _p in $_jobs; do kill "$_p" 2>/dev/null; done
	# A job may ignore SIGTERM, or miss it between fork and exec: wait
	# would block on it for good.
	wait_until 2 jobs_ended $_jobs || for _p in $_jobs; do kill -KILL "$_p" 2>/dev/null; done
	wait 2>/dev/null
	tonic_hosts_del
	sysctl -qw net.ipv4.tcp_congestion_control=cubic 2>/dev/null
	for _l in $($RDMA link show 2>/dev/null | awk '$1 == "link" { sub("/.*", "", $2); print $2 }'); do
		$RDMA link del "$_l"
	done
	for _m in $(awk '$1 ~ /^tonic_test_/ { print $1 }' /proc/modules) rdma_ucm tonic_rdma rdma_rxe tonic_drdma tonic; do
		grep -q "^$_m " /proc/modules || continue
		wait_until 5 $MODPROBE -r "$_m" 2>/dev/null || echo "cleanup: $_m stays loaded"
	done
}

# tonic_load [PARAM=VALUE...]: load the module and let every namespace pick
# the congestion control "tonic" as its default.  Like any algorithm not
# listed in net.ipv4.tcp_allowed_congestion_control it is restricted: only
# init_net and CAP_NET_ADMIN may select it until the admin lists it.
tonic_load() {
	$MODPROBE tonic "$@" || return 1
	_a=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
	case " $_a " in
	*" tonic "*) ;;
	*) sysctl -qw net.ipv4.tcp_allowed_congestion_control="$_a tonic" ;;
	esac
}
