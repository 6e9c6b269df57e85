#!/bin/sh
# rdma-glue: tonic_rdma.ko's RoCEv2 device.  "rdma link add ... type tonic"
# loads the module (its rdma-link alias); tonic0 on vethA and tonic1 on
# vethB show sane attributes to rdma and ibv_devinfo (Debian's ipathverbs
# provider, uverbs ABI 1); ibv_rc_pingpong with data check (SEND/RECV of
# 4 KiB messages, 4 packets at MTU 1024) tonic0 <-> tonic1, polled and with
# completion events, then under 1 % and 5 % loss and with reordering
# (go-back-N); ib_write_bw, ib_send_bw, ib_send_lat; then tonic0 <-> rxe1
# (Soft-RoCE) in both roles; the module unloads once the links are gone.
# Each RC QP's send side is a Tonic flow of tonic.ko's default device
# (program rc): the flow shows in "tonic flow show" with segments sent
# during a transfer, every data packet was named by a flow (descriptor
# counters), and no flow is left once the QPs are gone.
# timeout: 600
. /tests/rdma-lib.sh
. /tests/netlink-lib.sh
RDMA_DEV_A=tonic0
RDMA_DEV_B=tonic1
$MODPROBE tonic || ksft_fail "modprobe tonic"
rdma_pair || ksft_fail "rdma_pair"
$MODPROBE ib_uverbs || ksft_fail "modprobe ib_uverbs"
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || ksft_fail "rdma link add tonic0"
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || ksft_fail "rdma link add tonic1"
$RDMA link add tonic9 type tonic netdev $RDMA_NETDEV_B 2>/dev/null &&
	ksft_fail "a second RDMA device on $RDMA_NETDEV_B was accepted"
rdma_wait_link tonic0 $RDMA_A G0 || ksft_fail "tonic0"
rdma_wait_link tonic1 $RDMA_B G1 || ksft_fail "tonic1"
$RDMA link show
echo "GID index tonic0 $G0, tonic1 $G1"

/usr/bin/ibv_devices
/usr/bin/ibv_devinfo -d tonic0 -v > /tmp/devinfo 2>&1 || { cat /tmp/devinfo; ksft_fail "ibv_devinfo"; }
grep -E "hca_id|transport|node_guid|max_qp:|max_cqe|phys_port|state|active_mtu|link_layer|GID\[" /tmp/devinfo
for want in "transport:.*InfiniBand" "state:.*PORT_ACTIVE" "active_mtu:.*1024" \
	    "link_layer:.*Ethernet" "::ffff:$RDMA_A, RoCE v2"; do
	grep -q "$want" /tmp/devinfo || ksft_fail "ibv_devinfo: no '$want'"
done


# tonic_rdma.ko needs tonic.ko (the device API), and modprobe knew it.
grep -q '^tonic_rdma ' /proc/modules || ksft_fail "tonic_rdma not loaded"
awk '$1 == "tonic" { print "tonic.ko used by: " $4 }' /proc/modules
awk '$1 == "tonic" { exit $4 ~ /tonic_rdma/ ? 0 : 1 }' /proc/modules ||
	ksft_fail "tonic_rdma does not depend on tonic"

pp pp-poll tonic1 $G1 tonic0 $G0 -n 200 || ksft_fail "ibv_rc_pingpong tonic0 <-> tonic1"
# The transfer's packets were the flows' decisions; the flows are gone with the QPs.
for d in tonic0 tonic1; do
	tx=$(rdma_counter $d tx_packets) descs=$(rdma_counter $d tonic_flow_descs) fl=$(rdma_counter $d tonic_flows)
	echo "$d: tx_packets $tx tonic_flow_descs $descs tonic_flows $fl"
	[ "$descs" -ge 200 ] || ksft_fail "$d: the QP's flow gave $descs descriptors"
	[ "$fl" = 0 ] || ksft_fail "$d: $fl flows left after the QPs were destroyed"
done
# A flow per QP while a transfer runs: program, segments sent and acked.
rdma_bg /tmp/pp-flow.res pp pp-flow tonic1 $G1 tonic0 $G0 -n 1000
seen=0 i=0
while [ $i -lt $((300 * TONIC_TIMEOUT_SCALE)) ] && ! rdma_bg_done /tmp/pp-flow.res; do
	OUT=$($TONIC -j flow show prog rc 2>/dev/null) || OUT='[]'
	n=$(jget '#' 2>/dev/null || echo 0)
	if [ "${n:-0}" -ge 2 ] && [ "$(jget '[0].segs-sent')" -gt 0 ] &&
	   [ "$(jget '[1].segs-sent')" -gt 0 ]; then
		seen=1
		$TONIC flow show prog rc
		# debugfs lists the sockets' flows: a QP's flow is not one.
		dbg=$(tail -n +2 /sys/kernel/debug/tonic/flows)
		[ -z "$dbg" ] || ksft_fail "QP flows in debugfs tonic/flows: $dbg"
		break
	fi
	i=$((i + 1))
	sleep 0.1
done
wait
cat /tmp/pp-flow.res
rdma_bg_ok /tmp/pp-flow.res || ksft_fail "ibv_rc_pingpong (flow shown)"
[ $seen = 1 ] || ksft_fail "no two rc flows with segments sent during the transfer"
# The flows say whose they are: owner rdma-qp, the RDMA device, the QP
# (one of the QPNs ibv_rc_pingpong printed as local) and its RoCEv2 UDP
# addresses and ports.
qpns=$(grep -ho 'local address: .*QPN 0x[0-9a-f]*' /tmp/pp-flow.server /tmp/pp-flow.client |
	sed 's/.*QPN //' | while read -r h; do printf '%d ' "$h"; done)
echo "ibv_rc_pingpong's local QPNs: $qpns"
for k in 0 1; do
	o=$(jget "[$k].owner") d=$(jget "[$k].rdma-dev") q=$(jget "[$k].qpn") rp=$(jget "[$k].remote-port")
	l=$(jget "[$k].local-ipv4") r=$(jget "[$k].remote-ipv4")
	echo "flow $k: owner $o rdma_dev $d qpn $q local $l remote $r rport $rp"
	[ "$o" = rdma-qp ] || ksft_fail "flow $k: owner $o, not rdma-qp"
	case $d in tonic0|tonic1) ;; *) ksft_fail "flow $k: rdma_dev '$d'" ;; esac
	case " $qpns" in *" $q "*) ;; *) ksft_fail "flow $k: qpn $q is none of $qpns" ;; esac
	[ "$rp" = 4791 ] || ksft_fail "flow $k: remote port $rp, not 4791"
	case "$l $r" in "$RDMA_A $RDMA_B"|"$RDMA_B $RDMA_A") ;;
	*) ksft_fail "flow $k: addresses $l -> $r" ;; esac
done
jrun flow show prog rc
assert_eq "rc flows after the QPs are gone" "$(jget '#')" 0
pp pp-events tonic1 $G1 tonic0 $G0 -n 100 -e || ksft_fail "ibv_rc_pingpong -e"
pp pp-small tonic1 $G1 tonic0 $G0 -n 100 -s 1 || ksft_fail "ibv_rc_pingpong -s 1"
pp pp-large tonic1 $G1 tonic0 $G0 -n 20 -s 65536 || ksft_fail "ibv_rc_pingpong -s 65536"
# wbw NAME SERVERDEV SERVERGID CLIENTDEV CLIENTGID: ib_write_bw, 64 KiB
# RDMA WRITEs (perftest does not check the data).
wbw() {
	rdma_run "$1" 120 18515 \
		"/usr/bin/ib_write_bw -d $2 -x $3 -F -s 65536 -n 100 --report_gbits" \
		"/usr/bin/ib_write_bw -d $4 -x $5 -F -s 65536 -n 100 --report_gbits $RDMA_B" \
		> /tmp/$1.out || { cat /tmp/$1.out; return 1; }
	echo "$1: ib_write_bw 64 KiB (bytes iters peak avg msgrate): $(perftest_figure /tmp/$1.client)"
}
wbw wbw tonic1 $G1 tonic0 $G0 || ksft_fail "ib_write_bw tonic0 -> tonic1"
# perf NAME TOOL ARGS SERVERDEV SERVERGID CLIENTDEV CLIENTGID: another
# perftest (ib_send_bw: MB/s; ib_send_lat -C: its times in us), its result
# line printed.
perf() {
	rdma_run "$1" 120 18515 "/usr/bin/$2 -d $4 -x $5 -F $3" \
		"/usr/bin/$2 -d $6 -x $7 -F $3 $RDMA_B" > /tmp/$1.out || { cat /tmp/$1.out; return 1; }
	case $2 in
	*_lat) echo "$1: $2 $3 (bytes iters min max typ avg stdev p99 p99.9 us): $(perftest_lat_us /tmp/$1.client)" ;;
	*) echo "$1: $2 $3 (bytes iters peak avg msgrate): $(perftest_figure /tmp/$1.client)" ;;
	esac
}
perf sbw ib_send_bw "-s 65536 -n 100" tonic1 $G1 tonic0 $G0 || ksft_fail "ib_send_bw tonic0 -> tonic1"
perf slat ib_send_lat "-s 2 -n 200 -C" tonic1 $G1 tonic0 $G0 || ksft_fail "ib_send_lat tonic0 <-> tonic1"
echo "tonic0: $(rdma_hw_counters tonic0)"

rdma_netem loss 1%
pp_lossy pp-loss1 tonic1 $G1 tonic0 $G0 -n 200 -s 16384 || ksft_fail "ibv_rc_pingpong at 1 % loss"
rdma_netem loss 5%
pp_lossy pp-loss5 tonic1 $G1 tonic0 $G0 -n 50 -s 16384 || ksft_fail "ibv_rc_pingpong at 5 % loss"
rdma_netem loss 1% delay 1ms 1ms reorder 5%
pp_lossy pp-reorder tonic1 $G1 tonic0 $G0 -n 100 -s 16384 ||
	ksft_fail "ibv_rc_pingpong at 1 % loss with reordering"
rdma_netem_del
echo "tonic0: $(rdma_hw_counters tonic0)"
echo "tonic1: $(rdma_hw_counters tonic1)"
r=$($RDMA statistic show link tonic0/1 | tr ' ' '\n' | awk '/^(timeouts|nak_seq_rcvd)$/ { getline v; s += v } END { print s + 0 }')
[ "$r" -gt 0 ] || ksft_fail "no retransmission was counted at 1 % loss"
# ... and the flows resent (go-back-N is the program's decision now).
r=$(($(rdma_counter tonic0 retrans_packets) + $(rdma_counter tonic1 retrans_packets)))
[ "$r" -gt 0 ] || ksft_fail "no flow retransmission (TONIC_DESC_RTX) at 1 % loss"

# Against Soft-RoCE: rxe1 on vethB instead of tonic1.
$RDMA link del tonic1 || ksft_fail "rdma link del tonic1"
$MODPROBE rdma_rxe || ksft_fail "modprobe rdma_rxe"
RDMA_DEV_B=rxe1
$RDMA link add rxe1 type rxe netdev $RDMA_NETDEV_B || ksft_fail "rdma link add rxe1"
rdma_wait_link rxe1 $RDMA_B GR || ksft_fail "rxe1"
pp pp-rxe-srv rxe1 $GR tonic0 $G0 -n 200 || ksft_fail "ibv_rc_pingpong tonic0 -> rxe1 (rxe server)"
pp pp-tonic-srv tonic0 $G0 rxe1 $GR -n 200 ||
	ksft_fail "ibv_rc_pingpong rxe1 -> tonic0 (tonic server)"
wbw wbw-rxe rxe1 $GR tonic0 $G0 || ksft_fail "ib_write_bw tonic0 -> rxe1"
wbw wbw-rxe-tonic tonic0 $G0 rxe1 $GR || ksft_fail "ib_write_bw rxe1 -> tonic0"
perf sbw-rxe ib_send_bw "-s 65536 -n 100" rxe1 $GR tonic0 $G0 || ksft_fail "ib_send_bw tonic0 -> rxe1"
perf sbw-rxe-tonic ib_send_bw "-s 65536 -n 100" tonic0 $G0 rxe1 $GR ||
	ksft_fail "ib_send_bw rxe1 -> tonic0"
perf slat-rxe ib_send_lat "-s 2 -n 200 -C" rxe1 $GR tonic0 $G0 || ksft_fail "ib_send_lat tonic0 <-> rxe1"
perf slat-rxe-tonic ib_send_lat "-s 2 -n 200 -C" tonic0 $G0 rxe1 $GR ||
	ksft_fail "ib_send_lat rxe1 <-> tonic0"
# Not ibv_rc_pingpong with rxe at 5 % loss: both ends send, and rxe's own
# requester does not finish it (70: rxe0 <-> rxe1 times out there too);
# 74 has tonic0 -> rxe1 at 5 %, where rxe only responds.
echo "tonic0: $(rdma_hw_counters tonic0)"
echo "rxe1: $(rdma_hw_counters rxe1)"

[ "$(rdma_counter tonic0 tonic_flows)" = 0 ] || ksft_fail "tonic0: flows left after the rxe runs"
$RDMA link del rxe1
$RDMA link del tonic0 || ksft_fail "rdma link del tonic0"
$MODPROBE -r tonic_rdma || ksft_fail "tonic_rdma does not unload"
exit $KSFT_PASS
