#!/bin/sh
# RDMA (RoCEv2) test bed for guest selftests; `. /tests/rdma-lib.sh`.
# A test that sources this file also gets the RDMA userspace in its
# initramfs (tests/qemu/mkinitramfs.sh looks for the name "rdma-lib.sh").
#
# Soft-RoCE (rdma_rxe) in Debian's 6.1 works in init_net only: its UDP
# tunnel socket and the netdevs it binds to must be in the initial network
# namespace.  So the two RDMA ends are the two ends of one veth pair, both
# in init_net:
#
#     rxe0 on vethA 10.99.0.1/24  <--- veth --->  vethB 10.99.0.2/24 rxe1
#
# The problem: both addresses are local, so the routing table "local" (rule
# preference 0, consulted before everything else) sends 10.99.0.1 ->
# 10.99.0.2 through the loopback device.  rxe takes its packets off the
# netdev they arrive on (rxe_udp_encap_recv looks the rxe device up from
# skb->dev): a RoCE packet that arrives on "lo" belongs to no rxe device
# and is dropped -- and nothing would cross the veth pair, so netem on it
# would do nothing.  The policy-routing trick:
#
#  * rule "lookup local" moves from preference 0 to 100;
#  * before it, at preference 10/11, locally generated traffic ("iif lo":
#    an output route lookup has iif = loopback) to the other end's address
#    looks up a table of its own, 100/101, whose one route sends it out of
#    the veth: "10.99.0.2 dev vethA src 10.99.0.1" and
#    "10.99.0.1 dev vethB src 10.99.0.2";
#  * a packet that arrives on a veth has iif vethA/vethB, not lo: rules
#    10/11 do not match it, "lookup local" at 100 does, and it is delivered
#    locally -- on vethB (resp. vethA), where rxe1 (rxe0) picks it up.
#
# The receiving side sees a packet whose source address is one of its own
# addresses.  The kernel calls that a martian unless accept_local=1 on the
# receiving interface; rp_filter=0 (on the interface and "all", the kernel
# takes the maximum) so that the reverse-path check cannot drop it either.
# ARP needs the same: vethA's request for 10.99.0.2 carries sender
# 10.99.0.1, a local address, as seen from vethB.
#
# rdma_pair checks that ping really crosses the pair (the veth counters
# move, the loopback's do not); rdma_counters lets a test check the same for
# its RDMA traffic.
. /tests/lib.sh
TIMEOUT=/usr/bin/timeout
RDMA_A=10.99.0.1
RDMA_B=10.99.0.2
RDMA_NETDEV_A=vethA
RDMA_NETDEV_B=vethB
RDMA_DEV_A=rxe0
RDMA_DEV_B=rxe1

_rdma_stat() {	# NETDEV tx_packets|rx_packets
	cat "/sys/class/net/$1/statistics/$2"
}

# rdma_counters: one line, the packet counters of the pair and of lo.
rdma_counters() {
	echo "$RDMA_NETDEV_A tx $(_rdma_stat $RDMA_NETDEV_A tx_packets) rx $(_rdma_stat $RDMA_NETDEV_A rx_packets)" \
	     "$RDMA_NETDEV_B tx $(_rdma_stat $RDMA_NETDEV_B tx_packets) rx $(_rdma_stat $RDMA_NETDEV_B rx_packets)" \
	     "lo tx $(_rdma_stat lo tx_packets)"
}

# rdma_pair: the veth pair in init_net, addresses, sysctls, policy routing;
# verified with ping and the counters.  rdma_teardown runs at exit.
rdma_pair() {
	tonic_atexit rdma_teardown
	$MODPROBE veth || return 1
	$IP link add $RDMA_NETDEV_A type veth peer name $RDMA_NETDEV_B || return 1
	$IP addr add $RDMA_A/24 dev $RDMA_NETDEV_A
	$IP addr add $RDMA_B/24 dev $RDMA_NETDEV_B
	for d in all default $RDMA_NETDEV_A $RDMA_NETDEV_B; do
		sysctl -qw net.ipv4.conf.$d.rp_filter=0
	done
	for d in $RDMA_NETDEV_A $RDMA_NETDEV_B; do
		sysctl -qw net.ipv4.conf.$d.accept_local=1
	done
	$IP link set $RDMA_NETDEV_A up
	$IP link set $RDMA_NETDEV_B up
	$IP route add $RDMA_B dev $RDMA_NETDEV_A src $RDMA_A table 100
	$IP route add $RDMA_A dev $RDMA_NETDEV_B src $RDMA_B table 101
	$IP rule add pref 10 iif lo to $RDMA_B lookup 100
	$IP rule add pref 11 iif lo to $RDMA_A lookup 101
	$IP rule add pref 100 lookup local
	$IP rule del pref 0 lookup local
	$IP route get $RDMA_B from $RDMA_A | grep -q "dev $RDMA_NETDEV_A" ||
		{ echo "route to $RDMA_B is not via $RDMA_NETDEV_A:"; $IP route get $RDMA_B from $RDMA_A; return 1; }
	a0=$(_rdma_stat $RDMA_NETDEV_A tx_packets) b0=$(_rdma_stat $RDMA_NETDEV_B tx_packets)
	l0=$(_rdma_stat lo tx_packets)
	ping -c 3 -i 0.2 -W 2 -I $RDMA_A $RDMA_B > /dev/null ||
		{ echo "ping $RDMA_A -> $RDMA_B failed"; return 1; }
	a1=$(_rdma_stat $RDMA_NETDEV_A tx_packets) b1=$(_rdma_stat $RDMA_NETDEV_B tx_packets)
	l1=$(_rdma_stat lo tx_packets)
	echo "rdma_pair: ping x3 crossed the pair: $RDMA_NETDEV_A tx +$((a1 - a0)), $RDMA_NETDEV_B tx +$((b1 - b0)), lo tx +$((l1 - l0))"
	[ $((a1 - a0)) -ge 3 ] && [ $((b1 - b0)) -ge 3 ] && [ $((l1 - l0)) -eq 0 ] ||
		{ echo "ping did not cross the veth pair"; return 1; }
}

# rdma_gid_index DEV ADDR: the index of DEV's RoCEv2 GID for IPv4 ADDR
# (::ffff:a.b.c.d).  Index 0 is the default GID (fe80::, from the MAC).
rdma_gid_index() {
	_g=$(echo "$2" | awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4 }')
	for _f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		[ "$(cat "$_f" 2>/dev/null)" = "$_g" ] || continue
		_i=${_f##*/}
		[ "$(cat /sys/class/infiniband/"$1"/ports/1/gid_attrs/types/"$_i" 2>/dev/null)" = "RoCE v2" ] || continue
		echo "$_i"
		return 0
	done
	return 1
}

# rdma_wait_link DEV ADDR VAR: until DEV's port is ACTIVE and has its
# RoCEv2 GID for IPv4 ADDR (filled in by a work item); VAR = its index.
rdma_wait_link() {
	_i=0
	while :; do
		_g=$(rdma_gid_index "$1" "$2") &&
			$RDMA link show "$1/1" | grep -q 'state ACTIVE' && break
		_i=$((_i + 1))
		[ $_i -ge $((100 * TONIC_TIMEOUT_SCALE)) ] && {
			echo "$1 not ready:"; $RDMA link show; return 1; }
		sleep 0.1
	done
	eval "$3=$_g"
}

# rdma_counter DEV NAME: one of DEV's port counters (rdma statistic; 0 if
# it has none by that name).
rdma_counter() {
	$RDMA statistic show link "$1/1" | tr ' ' '\n' |
		awk -v n="$2" '$0 == n { getline v; print v + 0; f = 1; exit } END { if (!f) print 0 }'
}

# rdma_rxe_links: rxe0 on vethA, rxe1 on vethB, their ports ACTIVE; sets
# RDMA_GID_A/RDMA_GID_B.
rdma_rxe_links() {
	for m in rdma_rxe ib_uverbs rdma_ucm; do $MODPROBE $m || return 1; done
	$RDMA link add $RDMA_DEV_A type rxe netdev $RDMA_NETDEV_A || return 1
	$RDMA link add $RDMA_DEV_B type rxe netdev $RDMA_NETDEV_B || return 1
	rdma_wait_link $RDMA_DEV_A $RDMA_A RDMA_GID_A || return 1
	rdma_wait_link $RDMA_DEV_B $RDMA_B RDMA_GID_B || return 1
	$RDMA link show
	echo "rdma_rxe_links: GID index $RDMA_DEV_A $RDMA_GID_A, $RDMA_DEV_B $RDMA_GID_B"
}

# rdma_netem ARGS...: netem on both ends' egress (the pair carries both
# directions: data one way, ACKs/read responses the other), e.g. "loss 1%".
# rdma_netem_del: clean again.
rdma_netem() {
	$TC qdisc replace dev $RDMA_NETDEV_A root netem "$@" &&
	$TC qdisc replace dev $RDMA_NETDEV_B root netem "$@"
}
rdma_netem_del() {
	$TC qdisc del dev $RDMA_NETDEV_A root 2>/dev/null
	$TC qdisc del dev $RDMA_NETDEV_B root 2>/dev/null
	return 0
}

# rdma_bottleneck RATE [LIMIT]: vethA's egress (tonic0/rxe0 -> the other
# end) a RATE bottleneck, tbf, whose queue is RED marking ECN-capable
# packets CE (dropping the others) between 15 and 45 KB of average queue;
# its LIMIT bytes (400 KB) hold two QPs' first windows (2 x 128 packets)
# before a CNP is back.
# TCP between the two ends (perftest's side channel) goes through the
# loopback (rule pref 5), so that the bottleneck carries RoCE only.
rdma_bottleneck() {
	$MODPROBE sch_tbf && $MODPROBE sch_red || return 1
	[ -n "$($IP rule show pref 5)" ] || $IP rule add pref 5 ipproto 6 lookup local || return 1
	rdma_netem_del
	$TC qdisc add dev $RDMA_NETDEV_A root handle 1: tbf rate "$1" burst 16kb latency 500ms &&
	$TC qdisc add dev $RDMA_NETDEV_A parent 1:1 handle 10: red limit "${2:-400000}" min 15000 \
		max 45000 avpkt 1000 burst 20 bandwidth "$1" probability 1.0 ecn
}

# IB CC with tenants (test 77, make eval-rdma).  An 8 Mb/s bottleneck
# (rdma_bottleneck with a 1 MB queue: six flows starting at 7.8 Mb/s each
# overflowed 400 KB now and then) and program ibcc scaled to it: CCTI_Min
# 25 (7.8 Mb/s), CCTI_Timer 20 ms, CCT x 512; a CNP for every CE packet
# (IB answers every FECN); a flow counts as congested for 3 s after a CNP
# (the guest's marks come in bursts about a second apart).  Three tenants
# A, B, C, each a cgroup of its own ($RDMA_CG/A ...), one ib_write_bw
# process pair in each.
RDMA_CG=/sys/fs/cgroup
RDMA_IBCC_DUR=60	# seconds each ib_write_bw runs (> SETTLE + WIN: set-up, slow samples)
RDMA_IBCC_SETTLE=10	# seconds from the last flow's start to the first sample
RDMA_IBCC_WIN=30	# seconds sampled

# rdma_ibcc_bed: the above, with tonic0 and tonic1 (G0, G1) up.
rdma_ibcc_bed() {
	[ -f $RDMA_CG/cgroup.procs ] || mount -t cgroup2 none $RDMA_CG || return 1
	printf '#!/bin/sh\necho $$ > %s/$1/cgroup.procs || exit 1\nshift\nexec "$@"\n' \
		$RDMA_CG > /tmp/incg && chmod +x /tmp/incg || return 1
	for _t in A B C; do mkdir -p $RDMA_CG/$_t || return 1; done
	rdma_program ibcc 0,25,0,20000,512 &&
	echo 0 > /sys/module/tonic_rdma/parameters/cnp_interval_us &&
	echo 3000 > /sys/module/tonic/parameters/tenant_hold_ms || return 1
	RDMA_DEV_A=tonic0 RDMA_DEV_B=tonic1	# what rdma_teardown deletes
	$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A &&
	$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B &&
	rdma_wait_link tonic0 $RDMA_A G0 && rdma_wait_link tonic1 $RDMA_B G1
}

# _rdma_ibcc_wbw TENANT PORT QPS: ib_write_bw tonic0 -> tonic1 with QPS
# QPs for RDMA_IBCC_DUR s, both ends in cgroup TENANT (ib_write_bw's server
# leaves its QPs in RTR: no flow); QP timeout 2 s, more than a full queue.
_rdma_ibcc_wbw() {
	_o="-F -p $2 -q $3 -s 65536 -D $RDMA_IBCC_DUR -u 19 --report_gbits"
	rdma_run wbw-$1 $((RDMA_IBCC_DUR + 120)) $2 \
		"/tmp/incg $1 /usr/bin/ib_write_bw -d tonic1 -x $G1 $_o" \
		"/tmp/incg $1 /usr/bin/ib_write_bw -d tonic0 -x $G0 $_o $RDMA_B"
}

# rdma_tenant_segs: "TENANT segs_sent cnps flows" of the ibcc flows, per tenant.
rdma_tenant_segs() {
	/usr/bin/tonic flow show prog ibcc | awk '
		function out() { if (t != "") { s[t] += seg; c[t] += cn; n[t]++ } t = "" }
		/^dev / { out(); for (i = 1; i < NF; i++) if ($i == "tenant") t = $(i + 1) }
		{ for (i = 1; i < NF; i++) {
			if ($i == "segs_sent") seg = $(i + 1)
			if ($i == "cnps") cn = $(i + 1) } }
		END { out(); for (k in s) print k, s[k], c[k], n[k] }' | sort
}

# rdma_tenant_values: "TENANT flows congested value" per tenant.
rdma_tenant_values() {
	/usr/bin/tonic tenant show | awk '{ sub(/:$/, "", $1); print $1, $7, $9, $11 }'
}

# rdma_tenants_run A_QPS B_QPS C_QPS [SERIES]: tenants A, B, C's
# ib_write_bw at once, through a fresh bottleneck; once each client flow
# has sent, RDMA_IBCC_SETTLE s, then every second for RDMA_IBCC_WIN s the
# tenants' segments and CNPs (with SERIES, each sample as a line
# "# series SERIES T_MS SEGS_A CNPS_A SEGS_B CNPS_B SEGS_C CNPS_C").  Sets
# RATES and CNPS ("A B C", per second over the window), VALUES (the
# tenants' figures midway, rdma_tenant_values), CCTIS (the flows' CCTI
# then, as tonic flow show has it); returns 1 if an
# ib_write_bw failed.
rdma_tenants_run() {
	rdma_bottleneck 8mbit 1000000 || return 1
	_n=$(($1 + $2 + $3))
	rdma_bg /tmp/A.res _rdma_ibcc_wbw A 18515 $1
	rdma_bg /tmp/B.res _rdma_ibcc_wbw B 18516 $2
	rdma_bg /tmp/C.res _rdma_ibcc_wbw C 18517 $3
	_i=0
	while [ $_i -lt $((300 * TONIC_TIMEOUT_SCALE)) ]; do
		[ "$(/usr/bin/tonic flow show prog ibcc | grep -c 'segs_sent [1-9]')" -ge $_n ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep $RDMA_IBCC_SETTLE
	_s0=$(rdma_tenant_segs); _t0=$(rdma_uptime_ms) _t1=$_t0 VALUES=
	while [ $((_t1 - _t0)) -lt $((RDMA_IBCC_WIN * 1000)) ]; do
		sleep 1
		_s=$(rdma_tenant_segs); _t=$(rdma_uptime_ms)
		[ "$(echo "$_s" | grep -c .)" = 3 ] || break	# a transfer ended
		_s1=$_s _t1=$_t
		[ -n "${4:-}" ] && echo "# series $4 $((_t1 - _t0)) $(echo "$_s1" | awk '{ printf "%s %s ", $2, $3 }')"
		if [ -z "$VALUES" ] && [ $((_t1 - _t0)) -ge $((RDMA_IBCC_WIN * 500)) ]; then
			VALUES=$(rdma_tenant_values)
			CCTIS=$(/usr/bin/tonic flow show prog ibcc | awk '$1 == "ccti" { printf "%s ", $2 }')
		fi
	done
	wait
	echo "tenants (name flows congested value) midway: $(echo "$VALUES" | tr '\n' ' ')"
	echo "the flows' CCTI midway (tonic flow show): $CCTIS"
	echo "tenants (name segs_sent cnps flows) at t0:"; echo "$_s0" | sed 's/^/    /'
	echo "                            $((_t1 - _t0)) ms later:"; echo "$_s1" | sed 's/^/    /'
	RATES=$(printf '%s\n%s\n' "$_s0" "$_s1" | awk -v dt=$((_t1 - _t0)) '
		NR <= 3 { a[$1] = $2 } NR > 3 { d[$1] = ($2 - a[$1]) * 1000 / dt }
		END { printf "%.1f %.1f %.1f", d["A"], d["B"], d["C"] }')
	CNPS=$(printf '%s\n%s\n' "$_s0" "$_s1" | awk -v dt=$((_t1 - _t0)) '
		NR <= 3 { a[$1] = $3 } NR > 3 { d[$1] = ($3 - a[$1]) * 1000 / dt }
		END { printf "%.1f %.1f %.1f", d["A"], d["B"], d["C"] }')
	echo "tenant rates (segments/s) A B C: $RATES; CNPs/s: $CNPS; RED: sent $(rdma_red_stat sent) marked $(rdma_red_stat marked) dropped $(rdma_red_stat dropped)"
	for _t in A B C; do
		rdma_bg_ok /tmp/$_t.res || { cat /tmp/$_t.res; return 1; }
	done
}

# rdma_red_stat sent|marked|dropped|backlog: a counter of the bottleneck's
# RED queue (packets; backlog: bytes queued now).
rdma_red_stat() {
	$TC -s qdisc show dev $RDMA_NETDEV_A | awk -v k="$1" '
		/^qdisc red/ { r = 1; next } /^qdisc/ { r = 0 }
		r && k == "sent" && /Sent/ { for (i = 1; i < NF; i++) if ($i == "pkt") { print $(i - 1); exit } }
		r && k == "dropped" && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }
		r && k == "backlog" && /backlog/ { sub(/.*backlog /, ""); sub(/b .*/, ""); print; exit }
		r && k == "marked" && /marked/ { for (i = 1; i < NF; i++) if ($i == "marked") { print $(i + 1); exit } }'
}

# rdma_flows PROG: "segs_sent rate_kbps cnps" of each of PROG's flows, one
# line each, in flow order ("tonic flow show", parsed in one pass: cheap
# enough to sample often).
rdma_flows() {
	/usr/bin/tonic flow show prog "$1" 2>/dev/null | awk '
		function out() { if (f) print s, r, c; f = 0 }
		/^dev / { out(); f = 1 }
		{ for (i = 1; i < NF; i++) {
			if ($i == "segs_sent") s = $(i + 1)
			if ($i == "rate_kbps") r = $(i + 1)
			if ($i == "cnps") c = $(i + 1) } }
		END { out() }'
}

# /proc/uptime in ms (10 ms resolution), without a fork: eval-dcqcn.sh
# samples with it as often as it can.
rdma_uptime_ms() {
	read -r _u _ < /proc/uptime
	echo $((${_u%.*} * 1000 + 1${_u#*.}0 - 1000))
}

# rdma_program PROG PARAMS: tonic_rdma loaded, new RC QPs' flows run PROG
# with program_params PARAMS.  Written to the parameters, not given to
# modprobe: a module left loaded by an earlier test would ignore those.
rdma_program() {
	$MODPROBE tonic_rdma &&
	printf %s "$1" > /sys/module/tonic_rdma/parameters/program &&
	printf %s "$2" > /sys/module/tonic_rdma/parameters/program_params
}

# rdma_bg RES CMD...: CMD (a function too) in the background, its output
# in RES and then a line "rc N", N its exit status.  rdma_bg_done RES: it
# has ended; rdma_bg_ok RES: with 0.
rdma_bg() {
	_f=$1
	shift
	: > "$_f"
	( "$@" >> "$_f" 2>&1; echo "rc $?" >> "$_f" ) &
}
rdma_bg_done() {
	grep -q '^rc ' "$1"
}
rdma_bg_ok() {
	grep -q '^rc 0$' "$1"
}

# rdma_hw_counters DEV: rxe's own counters that are not zero, one line.
rdma_hw_counters() {
	$RDMA statistic show link "$1/1" 2>/dev/null |
		awk '{ for (i = 3; i < NF; i += 2) if ($(i + 1) != 0) printf "%s %s ", $i, $(i + 1) } END { print "" }'
}

# rdma_wait_listen PORT: until a TCP socket (perftest's and
# ibv_rc_pingpong's out-of-band exchange) or an rdma_cm ID (rping,
# perftest -R) listens on PORT; up to 10 s.
rdma_wait_listen() {
	_i=0
	while [ $_i -lt $((100 * TONIC_TIMEOUT_SCALE)) ]; do
		[ -n "$($SS -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
		$RDMA res show cm_id 2>/dev/null | grep -Eq "state LISTEN.*:$1( |\$)" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "nothing listens on port $1"
	return 1
}

# rdma_diag: what the RDMA side looks like now (a stuck transfer): QPs
# (state, PSNs), rxe's counters, whether packets still move (2 s), the
# tools' kernel stacks.
rdma_diag() {
	echo "--- rdma res show qp"
	$RDMA res show qp 2>&1 | grep -v 'type GSI'
	for d in $RDMA_DEV_A $RDMA_DEV_B; do echo "--- $d: $(rdma_hw_counters $d)"; done
	_c=$(rdma_counters); sleep 2
	echo "--- packets over 2 s: before: $_c"
	echo "---                    after:  $(rdma_counters)"
	for p in $(pidof ib_write_bw ib_read_bw ib_send_bw ib_send_lat rping ibv_rc_pingpong); do
		echo "--- $(cat /proc/$p/comm 2>/dev/null) [$p] $(sed -n 's/^State:\t*//p' /proc/$p/status 2>/dev/null)"
		sed 's/^/    /' /proc/$p/stack 2>/dev/null | head -8
	done
}

# rdma_run NAME SECONDS PORT "SERVER CMD" "CLIENT CMD": the server in the
# background, the client once it listens; both must exit within SECONDS
# (times TONIC_TIMEOUT_SCALE) of the client's start, else rdma_diag is
# printed and both are killed.  Outputs in /tmp/NAME.server and
# /tmp/NAME.client, printed indented with RDMA_QUIET unset.  Prints
# "NAME: ok|TIMEOUT|FAILED (...)", sets RDMA_VERDICT to ok, TIMEOUT or
# FAILED and RDMA_SECS to the run's seconds; returns 0 only for ok.
rdma_run() {
	_n=$1 _t=$(($2 * TONIC_TIMEOUT_SCALE)) _p=$3
	: > /tmp/$_n.client
	sh -c "exec $4" > /tmp/$_n.server 2>&1 &
	_sp=$!
	_cp=
	rdma_wait_listen "$_p" || { kill -KILL $_sp; }
	_t0=$(date +%s)
	if kill -0 $_sp 2>/dev/null; then
		sh -c "exec $5" > /tmp/$_n.client 2>&1 &
		_cp=$!
	fi
	_hung=0
	while kill -0 $_sp 2>/dev/null || { [ -n "$_cp" ] && kill -0 $_cp 2>/dev/null; }; do
		if [ $(($(date +%s) - _t0)) -ge $_t ]; then
			_hung=1
			echo "$_n: still running after ${_t}s ($(kill -0 $_sp 2>/dev/null && echo server) $([ -n "$_cp" ] && kill -0 $_cp 2>/dev/null && echo client))"
			rdma_diag
			kill -KILL $_sp $_cp 2>/dev/null
			break
		fi
		sleep 0.2
	done
	wait $_sp; _sr=$?
	_cr=1
	[ -n "$_cp" ] && { wait $_cp; _cr=$?; }
	RDMA_SECS=$(($(date +%s) - _t0))
	if [ -z "${RDMA_QUIET:-}" ] || [ $_hung = 1 ] || [ $_sr != 0 ] || [ $_cr != 0 ]; then
		sed 's/^/    server: /' /tmp/$_n.server
		sed 's/^/    client: /' /tmp/$_n.client
	fi
	if [ $_hung = 1 ]; then
		RDMA_VERDICT=TIMEOUT
	elif [ $_cr = 0 ] && [ $_sr = 0 ]; then
		RDMA_VERDICT=ok
	else
		RDMA_VERDICT=FAILED
	fi
	echo "$_n: $RDMA_VERDICT (client rc $_cr, server rc $_sr, ${RDMA_SECS}s)"
	[ $RDMA_VERDICT = ok ]
}

# pp NAME SERVERDEV SERVERGID CLIENTDEV CLIENTGID ARGS...: ibv_rc_pingpong,
# server on vethB's address.
pp() {
	_n=$1 _sd=$2 _sg=$3 _cd=$4 _cg=$5
	shift 5
	rdma_run "$_n" 120 18515 "/usr/bin/ibv_rc_pingpong -d $_sd -g $_sg -c $*" \
		"/usr/bin/ibv_rc_pingpong -d $_cd -g $_cg -c $* $RDMA_B" > /tmp/$_n.out
	_r=$?
	grep -E "bytes in|$_n:" /tmp/$_n.out
	[ $_r = 0 ] || cat /tmp/$_n.out
	return $_r
}

# pp_lossy NAME ...: pp on a lossy path, where one end of ibv_rc_pingpong
# may fail as RC must (pp_last_ack_lost).
pp_lossy() {
	pp "$@" || pp_last_ack_lost "$1"
}

# pp_last_ack_lost NAME: whether NAME failed only as RC
# must when the ACK of the last SEND is lost: ibv_rc_pingpong has no
# closing handshake, so the side that received its last message leaves
# and the other's retransmissions go unanswered until "transport retry
# counter exceeded" on that SEND (wr_id 2).  Then one side completed every
# iteration (it received, and with -c checked, all the other sent) and the
# other failed on nothing else.  At 5 % loss 14 runs in 105 ended so
# (tonic0 <-> tonic1, -n 50 -s 16384, in three batches: 2, 8 and 4).
pp_last_ack_lost() {
	[ "$RDMA_VERDICT" = FAILED ] || return 1
	for _f in server client; do
		case $_f in server) _o=client _orc=$_cr ;; *) _o=server _orc=$_sr ;; esac
		[ "$_orc" = 0 ] && grep -q "iters in" /tmp/$1.$_o || continue
		grep -q "iters in" /tmp/$1.$_f && continue
		grep -q "^Failed status transport retry counter exceeded (12) for wr_id 2$" /tmp/$1.$_f ||
			continue
		grep "Failed status" /tmp/$1.$_f | grep -qv "transport retry counter exceeded" && continue
		echo "$1: the $_f's last SEND went unacknowledged after the $_o had received it all and left (no closing handshake): delivered"
		return 0
	done
	return 1
}

# rdma_xfer NAME SERVERDEV SERVERGID CLIENTDEV CLIENTGID ARGS...: tonic_rdma_xfer,
# the server's side channel on vethB's address.
rdma_xfer() {
	_n=$1 _sd=$2 _sg=$3 _cd=$4 _cg=$5
	shift 5
	rdma_run "$_n" 240 18516 "/usr/bin/tonic_rdma_xfer -d $_sd -g $_sg $*" \
		"/usr/bin/tonic_rdma_xfer -d $_cd -g $_cg $* $RDMA_B" > /tmp/$_n.out
	_r=$?
	grep -h "data\|immediate" /tmp/$_n.client /tmp/$_n.server
	[ $_r = 0 ] || cat /tmp/$_n.out
	return $_r
}

# perftest_figure FILE: the result line's figures of a perftest run
# (bandwidth tests: "bytes iters peak avg msgrate"; latency tests:
# "bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9").
perftest_figure() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { $1 = $1; print; exit }' "$1"
}

# Latency tests run with -C (cycles): perftest's own conversion takes the
# MHz from /proc/cpuinfo and, when the guest's vCPUs there disagree (they
# do under TCG, now and then), prints every figure as "inf".  The cycles
# are the TSC's, whose rate the kernel measured at boot.
rdma_tsc_mhz() {
	dmesg | awk '/tsc: (Detected|Refined TSC clocksource calibration)/ {
		for (i = 1; i <= NF; i++) if ($i == "MHz") m = $(i - 1) } END { print m }'
}

# perftest_lat_us FILE: perftest_figure of a latency run made with -C,
# the times converted to microseconds.
perftest_lat_us() {
	perftest_figure "$1" | awk -v mhz="$(rdma_tsc_mhz)" '{
		printf "%s %s", $1, $2
		for (i = 3; i <= NF; i++) printf " %.2f", (mhz > 0 ? $i / mhz : -1)
		print "" }'
}

# perftest_error FILE: why a perftest run failed, in one line: the work
# completion status (ibv_wc_status numbers) or its last complaint.
perftest_error() {
	_s=$(sed -n 's/.*Failed status \([0-9]*\).*/\1/p' "$1" | head -n 1)
	if [ -n "$_s" ]; then
		case $_s in
		5) _w="flushed" ;; 7) _w="bad response" ;; 9) _w="remote invalid request" ;;
		10) _w="remote access error" ;; 11) _w="remote operation error" ;;
		12) _w="transport retry counter exceeded" ;; 13) _w="RNR retry counter exceeded" ;;
		*) _w="" ;;
		esac
		echo "completion status $_s${_w:+ ($_w)}"
	else
		grep -iE 'fail|error|couldn' "$1" | tail -n 1 | sed 's/^ *//'
	fi
}

# rdma_teardown: at exit after rdma_pair (and from the runner after a
# test killed by its timeout): servers, rxe links, routing rules and the
# pair go; the modules are unloaded (a leak shows as a module that cannot
# be, and fails the test).
rdma_teardown() {
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rdma_netem_del
	$RDMA link del $RDMA_DEV_A 2>/dev/null
	$RDMA link del $RDMA_DEV_B 2>/dev/null
	$IP rule add pref 0 lookup local 2>/dev/null
	$IP rule del pref 100 lookup local 2>/dev/null
	$IP rule del pref 5 2>/dev/null		# a test's own (75)
	$IP rule del pref 10 2>/dev/null
	$IP rule del pref 11 2>/dev/null
	$IP route flush table 100 2>/dev/null
	$IP route flush table 101 2>/dev/null
	$IP link del $RDMA_NETDEV_A 2>/dev/null
	$IP link del $RDMA_NETDEV_B 2>/dev/null	# rdma_multipath's: not vethA's peer
	for m in rdma_ucm rdma_rxe; do
		$MODPROBE -r $m 2>/dev/null || { echo "rdma_teardown: $m cannot be unloaded"; TONIC_EXIT_RC=1; }
	done
}

# ConWeave's test bed (issue 15): the two RDMA ends in init_net as in
# rdma_pair, but between them two routers (namespaces r1, r2) joined by
# two equal-cost links, so that the UDP source port picks the path
# (fib_multipath_hash_policy=1: the L4 hash):
#
#   vethA 10.99.1.1 -- ra r1 p0 ==(10.98.0.0/30)== q0 r2 rb -- vethB 10.99.2.1
#                           p1 ==(10.98.1.0/30)== q1
#
# Locally generated traffic to the other end leaves by its own veth
# (rules 10/11, "lookup local" moved to 100, as rdma_pair explains).
# rdma_path SPORT: the path (0 or 1) r1 picks for RoCE from vethA with
# UDP source port SPORT (the mapping changes with the boot's hash key).
RDMA_MP_A=10.99.1.1
RDMA_MP_B=10.99.2.1
rdma_multipath() {
	tonic_atexit rdma_teardown
	$MODPROBE veth || return 1
	RDMA_A=$RDMA_MP_A RDMA_B=$RDMA_MP_B
	$IP netns add r1 && $IP netns add r2 || return 1
	$IP link add $RDMA_NETDEV_A type veth peer name ra netns r1 &&
	$IP link add $RDMA_NETDEV_B type veth peer name rb netns r2 &&
	$IP -n r1 link add p0 type veth peer name q0 netns r2 &&
	$IP -n r1 link add p1 type veth peer name q1 netns r2 || return 1
	$IP addr add $RDMA_A/24 dev $RDMA_NETDEV_A
	$IP addr add $RDMA_B/24 dev $RDMA_NETDEV_B
	$IP -n r1 addr add 10.99.1.2/24 dev ra
	$IP -n r2 addr add 10.99.2.2/24 dev rb
	$IP -n r1 addr add 10.98.0.1/30 dev p0
	$IP -n r2 addr add 10.98.0.2/30 dev q0
	$IP -n r1 addr add 10.98.1.1/30 dev p1
	$IP -n r2 addr add 10.98.1.2/30 dev q1
	for _r in r1 r2; do
		$IP netns exec $_r sysctl -qw net.ipv4.ip_forward=1
		$IP netns exec $_r sysctl -qw net.ipv4.fib_multipath_hash_policy=1
		for _d in $($IP -n $_r -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			$IP -n $_r link set "$_d" up
		done
	done
	$IP -n r1 route add 10.99.2.0/24 nexthop via 10.98.0.2 dev p0 nexthop via 10.98.1.2 dev p1 &&
	$IP -n r2 route add 10.99.1.0/24 nexthop via 10.98.0.1 dev q0 nexthop via 10.98.1.1 dev q1 ||
		return 1
	for _d in all default $RDMA_NETDEV_A $RDMA_NETDEV_B; do
		sysctl -qw net.ipv4.conf.$_d.rp_filter=0
	done
	for _d in $RDMA_NETDEV_A $RDMA_NETDEV_B; do
		sysctl -qw net.ipv4.conf.$_d.accept_local=1
	done
	$IP link set $RDMA_NETDEV_A up
	$IP link set $RDMA_NETDEV_B up
	$IP route add $RDMA_B via 10.99.1.2 dev $RDMA_NETDEV_A src $RDMA_A table 100
	$IP route add $RDMA_A via 10.99.2.2 dev $RDMA_NETDEV_B src $RDMA_B table 101
	$IP rule add pref 10 iif lo to $RDMA_B lookup 100
	$IP rule add pref 11 iif lo to $RDMA_A lookup 101
	$IP rule add pref 100 lookup local
	$IP rule del pref 0 lookup local
	ping -c 3 -i 0.2 -W 2 -I $RDMA_A $RDMA_B > /dev/null ||
		{ echo "ping $RDMA_A -> $RDMA_B through r1, r2 failed"; return 1; }
}

rdma_path() {
	$IP -n r1 route get $RDMA_MP_B from $RDMA_MP_A iif ra ipproto 17 sport "$1" dport 4791 |
		awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { sub(/^p/, "", $(i + 1)); print $(i + 1); exit } }'
}

# rdma_two_paths VAR0 VAR1: a UDP source port r1 sends on p0 and one on
# p1 (the first of 49152.. to take each).
rdma_two_paths() {
	_p0= _p1=
	for _p in $(seq 49152 49407); do
		case $(rdma_path $_p) in
		0) [ -z "$_p0" ] && _p0=$_p ;;
		1) [ -z "$_p1" ] && _p1=$_p ;;
		esac
		[ -n "$_p0" ] && [ -n "$_p1" ] && break
	done
	[ -n "$_p0" ] && [ -n "$_p1" ] || return 1
	eval "$1=$_p0 $2=$_p1"
}
