#!/bin/sh
# BPF enablement: a cgroup sock_ops program (tests/selftests/bpf/
# tonic_cc.bpf.c, the admin guide's example) that calls
# bpf_setsockopt(TCP_CONGESTION, "tonic") when a connection is
# established offloads the connections of its cgroup, and only those; the
# bytes arrive intact.  The program is built by clang -target bpf and
# attached with tonic_bpf_load (raw bpf(), no libbpf).
# timeout: 180
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
CG=/sys/fs/cgroup
[ -f $CG/cgroup.procs ] || mount -t cgroup2 none $CG || ksft_fail "mount cgroup2"
G=$CG/tonic60
mkdir -p $G || ksft_fail "mkdir $G"
tonic_atexit 'tonic_bpf_load detach $G 2>/dev/null; rmdir $G 2>/dev/null'
fails=0
check() {
	_what=$1; shift
	if "$@"; then echo "ok   $_what"; else echo "FAIL $_what"; fails=$((fails + 1)); fi
}
for h in h1 h2; do
	[ "$(on $h sysctl -n net.ipv4.tcp_congestion_control)" != tonic ] ||
		ksft_fail "$h's default congestion control is tonic already"
done
tonic_bpf_load attach /usr/bin/tonic_cc.bpf.o sockops $G || ksft_fail "attach the sock_ops program"

# xfer_in_cg ADDR: a transfer whose client runs in the cgroup, the server outside.
XFER_PORT=6060
xfer_in_cg() {
	rm -f /tmp/srv.60
	on h2 tonic_xfer -s $XFER_PORT > /tmp/srv.60 2>&1 & s=$!
	i=0
	while ! grep -q listening /tmp/srv.60 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 50 ] && break; sleep 0.1
	done
	# A subshell joins the cgroup ("0": the writer itself), then runs the client.
	(echo 0 > $G/cgroup.procs && on h1 tonic_xfer -c "$1" $XFER_PORT 20000000 -i -r) > /tmp/cli.60 2>&1
	rc=$?
	wait $s
	cat /tmp/cli.60 /tmp/srv.60
	XFER_PORT=$((XFER_PORT + 1))
	return $rc
}

for addr in 10.0.0.2 fd00::2; do
	echo "== $addr: client outside the cgroup (the control)"
	a0=$(glue_stat attaches); i0=$(glue_stat installs)
	xfer h1 h2 $addr 5000000 || fails=$((fails + 1))
	check "$addr: outside the cgroup nothing is offloaded" \
		test "$(glue_stat attaches) $(glue_stat installs)" = "$a0 $i0"
	echo "== $addr: client in the cgroup"
	a0=$(glue_stat attaches); i0=$(glue_stat installs)
	check "$addr: in the cgroup, every byte arrives intact and the socket was offloaded (-r)" \
		xfer_in_cg $addr
	check "$addr: the client socket got the ULP, the server's did not (installs +1)" \
		test "$(glue_stat installs)" = $((i0 + 1))
	check "$addr: the client's flow attached (attaches +1)" \
		test "$(glue_stat attaches)" = $((a0 + 1))
	check "$addr: TONIC_INFO: offloaded once, bytes acked" \
		grep -Eq "info: state [0-9] prog [a-z]+ .* acked [1-9][0-9]* .* attaches 1" /tmp/cli.60
done
tonic_bpf_load detach $G || { echo "detach failed"; fails=$((fails + 1)); }
[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
exit $KSFT_PASS
