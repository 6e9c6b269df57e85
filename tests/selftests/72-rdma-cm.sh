#!/bin/sh
# rdma-glue: rdma_cm over tonic devices.  The GSI QP (QP1) and UD QPs send
# and receive (rdma-glue/ud.c), so the kernel's ib_mad/ib_cm exchange the
# CM MADs of rdma_cm with the peer: ucmatose (rdmacm-utils: connect, SENDs
# both ways over the RC QPs, disconnect) and udaddy (userspace UD QPs and
# address handles, resolved by SIDR) tonic0 <-> tonic1 in both roles, then
# tonic0 <-> rxe1 (Soft-RoCE) in both roles; ucmatose tonic0 -> tonic1 at
# 10 % loss.  Each run's packets crossed the veth pair (its counters and
# tonic0's rx/tx counters move, no bad packets).  Crafted datagrams (wrong
# Q_Key or P_Key, no such QP, QP0, a short DETH) are dropped and counted.
# rping -v -V (rdma_cm, then RDMA READ and WRITE, data checked) tonic0 ->
# tonic1 and tonic0 <-> rxe1 in both roles.  No Tonic flow is left after,
# and the module unloads.
# timeout: 600
. /tests/rdma-lib.sh
RDMA_DEV_A=tonic0
RDMA_DEV_B=tonic1
UCMATOSE=/usr/bin/ucmatose
UDADDY=/usr/bin/udaddy
PORT=7471



# cm NAME SERVERADDR CLIENTADDR ucmatose|udaddy: ucmatose (RC: connect, 10
# messages of 100 bytes each way, disconnect) or udaddy (UD QPs: SIDR
# through the GSI QPs, then 10 datagrams to the server and 10 replies);
# the veth pair and tonic0's counters must move, no bad packets.
cm() {
	_n=$1 _s=$2 _c=$3 _tool=$UCMATOSE _port=$PORT
	[ "$4" = udaddy ] && _tool=$UDADDY _port=7174
	_a0=$(_rdma_stat $RDMA_NETDEV_A tx_packets) _b0=$(_rdma_stat $RDMA_NETDEV_B tx_packets)
	# (not _t0, _t: rdma_run's)
	_ct0=$(rdma_counter tonic0 tx_packets) _cr0=$(rdma_counter tonic0 rx_packets)
	_cx0=$(rdma_counter tonic0 bad_packets)
	if [ $_tool = $UCMATOSE ]; then
		rdma_run "$_n" 120 $_port "$_tool -f ip -b $_s -p $_port -C 10 -S 100" \
			"$_tool -f ip -s $_s -b $_c -p $_port -C 10 -S 100" || return 1
	else
		rdma_run "$_n" 120 $_port "$_tool -f ip -b $_s -C 10 -S 100" \
			"$_tool -f ip -s $_s -b $_c -C 10 -S 100" || return 1
	fi
	_a=$(($(_rdma_stat $RDMA_NETDEV_A tx_packets) - _a0))
	_b=$(($(_rdma_stat $RDMA_NETDEV_B tx_packets) - _b0))
	_ct=$(($(rdma_counter tonic0 tx_packets) - _ct0)) _cr=$(($(rdma_counter tonic0 rx_packets) - _cr0))
	_cx=$(($(rdma_counter tonic0 bad_packets) - _cx0))
	echo "$_n: $RDMA_NETDEV_A tx +$_a, $RDMA_NETDEV_B tx +$_b; tonic0 tx_packets +$_ct rx_packets +$_cr bad_packets +$_cx"
	# 10 messages each way and a CM MAD (SIDR REQ or REP) at least.
	[ $_a -ge 11 ] && [ $_b -ge 11 ] || { echo "$_n: the run did not cross the veth pair"; return 1; }
	[ $_ct -ge 11 ] && [ $_cr -ge 11 ] || { echo "$_n: tonic0 did not send and receive it"; return 1; }
	[ $_cx = 0 ] || { echo "$_n: tonic0 dropped $_cx bad packets"; return 1; }
	grep -q 'return status 0' /tmp/$_n.client && grep -q 'return status 0' /tmp/$_n.server
}

# pair NAME SERVERADDR CLIENTADDR TOOL WHAT: cm, its summary line printed,
# the whole output and ksft_fail WHAT if it failed.
pair() {
	cm "$1" "$2" "$3" "$4" > /tmp/$1.out
	_pr=$?
	sed -n "/^$1: /p" /tmp/$1.out
	[ $_pr = 0 ] || { cat /tmp/$1.out; ksft_fail "$5"; }
}

# try_rping NAME SERVERADDR: rping -v -V -C 10 (each ping's data checked
# by the client), the client from the other end.
try_rping() {
	rdma_run "$1" 120 7174 "/usr/bin/rping -s -a $2 -v -V -C 10" \
		"/usr/bin/rping -c -a $2 -v -V -C 10" > /tmp/$1.out
	_r=$?
	cat /tmp/$1.out
	_p=$(grep -c '^ping data: rdma-ping-' /tmp/$1.client)
	echo "$1: $_p of 10 pings"
	[ $_r = 0 ] && [ "$_p" = 10 ]
}

$MODPROBE tonic || ksft_fail "modprobe tonic"
rdma_pair || ksft_fail "rdma_pair"
for m in ib_uverbs rdma_ucm; do $MODPROBE $m || ksft_fail "modprobe $m"; done
$RDMA link add tonic0 type tonic netdev $RDMA_NETDEV_A || ksft_fail "rdma link add tonic0"
$RDMA link add tonic1 type tonic netdev $RDMA_NETDEV_B || ksft_fail "rdma link add tonic1"
rdma_wait_link tonic0 $RDMA_A _gid || ksft_fail "tonic0"
rdma_wait_link tonic1 $RDMA_B _gid || ksft_fail "tonic1"
for m in ib_cm rdma_cm rdma_ucm; do
	grep -q "^$m " /proc/modules || ksft_fail "$m is not loaded"
done
echo "loaded: $(awk '$1 ~ /^(ib_core|ib_cm|iw_cm|rdma_cm|rdma_ucm|ib_uverbs|tonic_rdma)$/ { printf "%s ", $1 }' /proc/modules)"
# ib_mad made each device's GSI QP (QP1).
$RDMA res show qp link tonic0/1 | grep -q 'lqpn 1 .*type GSI' ||
	{ $RDMA res show qp; ksft_fail "tonic0 has no GSI QP"; }

pair cm-tonic $RDMA_B $RDMA_A ucmatose "ucmatose tonic0 -> tonic1"
pair cm-tonic-rev $RDMA_A $RDMA_B ucmatose "ucmatose tonic1 -> tonic0"
pair ud-tonic $RDMA_B $RDMA_A udaddy "udaddy tonic0 -> tonic1"
pair ud-tonic-rev $RDMA_A $RDMA_B udaddy "udaddy tonic1 -> tonic0"
# 10 % loss both ways: ib_cm resends lost CM MADs, the flows lost SENDs.
rdma_netem loss 10%
pair cm-loss10 $RDMA_B $RDMA_A ucmatose "ucmatose tonic0 -> tonic1 at 10 % loss"
rdma_netem_del
sed 's/^/    client: /' /tmp/cm-tonic.client
sed 's/^/    client: /' /tmp/ud-tonic.client

# Hostile datagrams at tonic0 (raw IPv4 from vethB's address, ICRC right):
# each of these must be dropped and counted as a bad packet, and a well-formed
# one to QP1 (a MAD ib_mad discards: base version 0) must not.
cat > /tmp/ud_inject.py <<'PYEOF'
import socket, struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]

def icrc(ip, udp, rest):
    ps = bytearray(ip + udp + rest[:12])
    ps[1] = 0xff; ps[8] = 0xff; ps[10:12] = b"\xff\xff"   # TOS, TTL, IP checksum
    ps[26:28] = b"\xff\xff"                               # UDP checksum
    ps[32] = 0xff                                         # BTH reserved byte
    return struct.pack("<I", zlib.crc32(bytes(ps) + rest[12:], 0xdebb20e3 ^ 0xffffffff))

def pkt(op, pkey, qpn, ext, pay=b""):
    bth = struct.pack("!BBHII", op, 0, pkey, qpn, 0)
    rest = bth + ext + pay
    tot = 20 + 8 + len(rest) + 4
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0x1234, 0x4000, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack("!HHHH", 0xc123, 4791, tot - 20, 0)
    return ip + udp + rest + icrc(ip, udp, rest)

deth = lambda qkey, sqpn: struct.pack("!II", qkey, sqpn)
QP1 = 0x80010000
cases = [
    ("wrong Q_Key to QP1", pkt(0x64, 0xffff, 1, deth(0x12345678, 1), bytes(256))),
    ("P_Key 0", pkt(0x64, 0x0000, 1, deth(QP1, 1), bytes(256))),
    ("no such QP", pkt(0x64, 0xffff, 0x123456, deth(QP1, 1), bytes(256))),
    ("QP0", pkt(0x64, 0xffff, 0, deth(QP1, 1), bytes(256))),
    ("DETH cut short", pkt(0x65, 0xffff, 1, deth(QP1, 1))),
    ("good MAD to QP1", pkt(0x64, 0xffff, 1, deth(QP1, 1), bytes(256))),
]
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
for name, p in cases:
    s.sendto(p, (dst, 0))
    print("sent:", name, len(p), "bytes")
PYEOF
x0=$(rdma_counter tonic0 bad_packets) r0=$(rdma_counter tonic0 rx_packets) i0=$(rdma_counter tonic0 icrc_errors)
/usr/bin/python3 /tmp/ud_inject.py $RDMA_B $RDMA_A || ksft_fail "ud_inject.py"
sleep 1
x=$(($(rdma_counter tonic0 bad_packets) - x0)) r=$(($(rdma_counter tonic0 rx_packets) - r0))
i=$(($(rdma_counter tonic0 icrc_errors) - i0))
echo "ud-inject: tonic0 rx_packets +$r bad_packets +$x icrc_errors +$i"
[ $i = 0 ] || ksft_fail "the injected packets' ICRC was wrong"
[ $r = 6 ] && [ $x = 5 ] || ksft_fail "5 of the 6 injected datagrams should count as bad"

# rping: rdma_cm, then the server RDMA-READs the client's ping and WRITEs it back.
try_rping rping-tonic $RDMA_B || ksft_fail "rping tonic0 -> tonic1"
echo "tonic0: $(rdma_hw_counters tonic0)"
echo "tonic1: $(rdma_hw_counters tonic1)"
[ "$(rdma_counter tonic0 tonic_flows)" = 0 ] || ksft_fail "tonic0: flows left after the tonic runs"
[ "$(rdma_counter tonic1 tonic_flows)" = 0 ] || ksft_fail "tonic1: flows left after the tonic runs"

# Against Soft-RoCE: rxe1 on vethB instead of tonic1.
$RDMA link del tonic1 || ksft_fail "rdma link del tonic1"
$MODPROBE rdma_rxe || ksft_fail "modprobe rdma_rxe"
RDMA_DEV_B=rxe1
$RDMA link add rxe1 type rxe netdev $RDMA_NETDEV_B || ksft_fail "rdma link add rxe1"
rdma_wait_link rxe1 $RDMA_B _gid || ksft_fail "rxe1"
pair cm-rxe-srv $RDMA_B $RDMA_A ucmatose "ucmatose tonic0 -> rxe1 (rxe server)"
pair cm-tonic-srv $RDMA_A $RDMA_B ucmatose "ucmatose rxe1 -> tonic0 (tonic server)"
pair ud-rxe-srv $RDMA_B $RDMA_A udaddy "udaddy tonic0 -> rxe1 (rxe server)"
pair ud-tonic-srv $RDMA_A $RDMA_B udaddy "udaddy rxe1 -> tonic0 (tonic server)"
try_rping rping-rxe-srv $RDMA_B || ksft_fail "rping tonic0 -> rxe1 (rxe server)"
try_rping rping-tonic-srv $RDMA_A || ksft_fail "rping rxe1 -> tonic0 (tonic server)"
echo "tonic0: $(rdma_hw_counters tonic0)"
echo "rxe1: $(rdma_hw_counters rxe1)"
[ "$(rdma_counter tonic0 tonic_flows)" = 0 ] || ksft_fail "tonic0: flows left after the rxe runs"
$RDMA res show qp 2>&1 | grep -v 'type GSI' | grep -q 'type RC' &&
	{ $RDMA res show qp; ksft_fail "RC QPs left"; }

$RDMA link del rxe1
$RDMA link del tonic0 || ksft_fail "rdma link del tonic0"
$MODPROBE -r tonic_rdma || ksft_fail "tonic_rdma does not unload"
exit $KSFT_PASS
