#!/bin/sh
# Linux NewReno (reno without SACK) on one flow with netem delay and rate,
# and deterministic loss: every KT_DROP_EVERY-th packet towards the receiver
# is dropped (tc gact "random determ", on the switch port's clsact egress,
# counted there); traces every transmission, every arrival and every ACK's
# cwnd, for evaluation scenario (1).  Not a pass/fail test: the host
# (kernel-trace/extract.py) decodes the trace from the KTAP diagnostics.
# Run by `make eval-kernel`:
#   tests/qemu/run.sh --suite kernel-newreno userspace-tools/sim/kernel-trace/trace-newreno.sh
# timeout: 280
. /tests/lib.sh
RATE=${KT_RATE:-20mbit}	# bottleneck (switch port towards the receiver)
OWD=${KT_OWD:-20ms}	# one-way delay, each direction: RTT = 2 x OWD
LOSS=${KT_LOSS:-0%}	# netem random loss on the data path (none: see DROP)
DROP=${KT_DROP_EVERY:-500}	# drop every DROP-th data-path packet (0.2 %)
LIMIT=${KT_LIMIT:-1000}	# netem queue, packets
DUR=${KT_DUR:-30}	# seconds of traced transfer
RMEM=${KT_RMEM:-724000}	# receiver's tcp_rmem max: window cap ~250 segments
PORT=5001
T=/sys/kernel/tracing

mount -t tracefs nodev $T 2>/dev/null
[ -w $T/kprobe_events ] || { echo "no tracefs kprobe_events"; exit $KSFT_SKIP; }
tonic_hosts 2 || ksft_fail "tonic_hosts"
for m in sch_netem sch_ingress cls_matchall act_gact; do $MODPROBE $m || ksft_fail "$m"; done
for h in h1 h2; do
	# Per-netns sysctls.  reno without SACK: RFC 6582 NewReno recovery
	# (tcp_newreno_mark_lost / partial acks); no SACK also means no RACK
	# and no TLP.  Delayed ACKs, timestamps, IW10 stay at their defaults.
	on $h sysctl -qw net.ipv4.tcp_congestion_control=reno || ksft_fail "reno"
	on $h sysctl -qw net.ipv4.tcp_sack=0 || ksft_fail "tcp_sack"
	on $h sysctl -qw net.ipv4.tcp_no_metrics_save=1
done
# Tonic's window is a 256-segment bitmap, so cap the kernel flow's window
# near there too: the receiver's buffer limits the advertised window to
# about half of it (tcp_adv_win_scale 1), ~250 x 1448 B.  Without it,
# slow start overshoots to ~700 segments into netem's queue.
on h2 sysctl -qw net.ipv4.tcp_rmem="4096 131072 $RMEM" || ksft_fail "tcp_rmem"
# One MSS per skb: netem drops whole skbs, so a TSO/GSO burst would be
# lost as one.  (gso_max_segs caps tcp_tso_autosize.)
$IP -n h1 link set dev eth0 gso_max_segs 1 || echo "warning: gso_max_segs not settable"
$IP -n h2 link set dev eth0 gso_max_segs 1 2>/dev/null
# Bottleneck and loss on the switch port towards h2 (data), delay only
# towards h1 (ACKs).  The hosts' own qdiscs never queue (veth is fast).
$TC -n sw qdisc replace dev p2 root netem delay $OWD rate $RATE loss $LOSS limit $LIMIT ||
	ksft_fail "netem p2"
$TC -n sw qdisc replace dev p1 root netem delay $OWD limit $LIMIT || ksft_fail "netem p1"
echo "kt: kernel $(uname -r) rate $RATE owd $OWD loss $LOSS limit $LIMIT dur ${DUR}s rmem $RMEM drop-every $DROP"
echo "kt: h1 cc $(on h1 cat /proc/sys/net/ipv4/tcp_congestion_control) sack $(on h1 cat /proc/sys/net/ipv4/tcp_sack)" \
	"gso_max_segs $($IP -n h1 -d link show eth0 | sed -n 's/.*gso_max_segs \([0-9]*\).*/\1/p')"
on h1 ping -c 2 -i 0.3 10.0.0.2 | tail -n 1 | sed 's/^/kt: ping /'
# After the ping, so that the count starts with the connection's SYN.
$TC -n sw qdisc add dev p2 clsact || ksft_fail "clsact p2"
$TC -n sw filter add dev p2 egress protocol ip matchall \
	action gact ok random determ drop "$DROP" || ksft_fail "gact p2"

# Tracing.  Offsets: TCP_SKB_CB(skb) is skb->cb (offset 40 on x86-64),
# seq and end_seq its first two u32.  __tcp_transmit_skb(sk, skb, ...)
# sees every transmission (new data and retransmissions) before the IP
# layer; tcp_rcv_established(sk, skb) every arrival at an established
# socket, after tcp_v4_rcv filled the cb.  skc_num (sk + 14) is the local
# port: tx keeps the sender's socket, rx the receiver's (the ftrace filter
# cannot compare two fields, so pure ACKs are dropped on the host).
# tcp_probe gives the sender's state on each ACK, before it is processed.
cd $T || exit 1
echo 0 > tracing_on
echo > trace
echo 32768 > buffer_size_kb
echo mono > trace_clock
echo > kprobe_events
echo 'p:kt/tx __tcp_transmit_skb seq=+40(%si):u32 end=+44(%si):u32 lport=+14(%di):u16' >> kprobe_events ||
	ksft_fail "kprobe on __tcp_transmit_skb"
echo 'p:kt/rx tcp_rcv_established seq=+40(%si):u32 end=+44(%si):u32 lport=+14(%di):u16' >> kprobe_events ||
	ksft_fail "kprobe on tcp_rcv_established"
echo "lport != $PORT" > events/kt/tx/filter || ksft_fail "tx filter"
echo "lport == $PORT" > events/kt/rx/filter || ksft_fail "rx filter"
echo "dport == $PORT" > events/tcp/tcp_probe/filter
echo "dport == $PORT" > events/tcp/tcp_retransmit_skb/filter
echo 1 > events/kt/enable
echo 1 > events/tcp/tcp_probe/enable
echo 1 > events/tcp/tcp_retransmit_skb/enable
cd /tmp

# busybox nc quits at EOF on its stdin: the receiver's is a FIFO this
# script holds open.  `ip netns exec` execs nc, so $! is nc itself.
mkfifo /tmp/kt.fifo
exec 3<> /tmp/kt.fifo
on h2 nc -l -p $PORT < /tmp/kt.fifo > /dev/null 2>&1 &
rpid=$!
sleep 0.5
echo 1 > $T/tracing_on
on h1 nc 10.0.0.2 $PORT < /dev/zero > /dev/null 2>&1 &
spid=$!
sleep "$DUR"
echo 0 > $T/tracing_on
on h1 $SS -tin dst 10.0.0.2 | sed 's/^/kt: ss /'
kill $spid $rpid 2>/dev/null
wait $spid $rpid 2>/dev/null
exec 3>&-
$TC -n sw -s qdisc show dev p2 root | sed 's/^/kt: qdisc /'
$TC -n sw -s filter show dev p2 egress | sed 's/^/kt: gact /'
awk '{ print "kt: kprobe", $0 }' $T/kprobe_profile
echo "kt: entries $(grep -c . $T/trace) lost-events $(cat $T/per_cpu/cpu*/stats | awk '/overrun/ { n += $2 } END { print n }')"

# Compact lines: T time seq end | R time seq end | P time una nxt cwnd
# ssthresh srtt | X time (tcp_retransmit_skb); gzip + base64 so the
# serial console carries ~1/10 of the raw trace.
awk '
/^#/ { next }
{
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1); ev = $(i + 1); break }
	delete kv
	for (j = i + 2; j <= NF; j++) { n = index($j, "="); if (n) kv[substr($j, 1, n - 1)] = substr($j, n + 1) }
	if (ev == "tx:") print "T", t, kv["seq"], kv["end"]
	else if (ev == "rx:") print "R", t, kv["seq"], kv["end"]
	else if (ev == "tcp_probe:") print "P", t, kv["snd_una"], kv["snd_nxt"], kv["snd_cwnd"], kv["ssthresh"], kv["srtt"], kv["data_len"]
	else if (ev == "tcp_retransmit_skb:") print "X", t
}' $T/trace > /tmp/kt.txt
echo "kt: compact lines $(wc -l < /tmp/kt.txt)"
echo "kt-begin"
gzip -9 -c /tmp/kt.txt | base64 | sed 's/^/kt-b64 /'
echo "kt-end"
echo 0 > $T/events/kt/enable; echo > $T/kprobe_events 2>/dev/null
tonic_hosts_del
exit $KSFT_PASS
