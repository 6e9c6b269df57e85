#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""extract.py KTAP OUTDIR: decode the kernel NewReno trace that
trace-newreno.sh printed into the guest's KTAP, and write to OUTDIR

  kernel-seq.csv  t_us,seg,txn,rtx,lost   every data transmission
  kernel-ack.csv  t_us,una,nxt,cwnd,ssthresh,srtt_us   sender state on
                  each ACK (tcp:tcp_probe, before the ACK is processed);
                  una/nxt in segments
  losses.txt      `SEG TXN` for every transmission the path lost: the
                  loss list tonic-sim replays (loss_list=)
  meta.txt        `key value`: path parameters and summary figures

Time 0 is the first data segment.  Segment k is the k-th distinct
starting sequence number the sender used (all are one MSS but the
first, which carries the first, shorter write of nc).

Which transmissions were lost: the sender's transmissions (kprobe on
__tcp_transmit_skb) and the receiver's arrivals (kprobe on
tcp_rcv_established) are both in send order -- netem keeps FIFO order
-- so the arrivals are a subsequence of the transmissions.  A
transmission is matched to the next arrival with the same sequence
number that comes at least one one-way delay later; one that is not
matched is lost.  Transmissions after the last matched one are left out
(still in flight when tracing stopped)."""
import base64, bisect, gzip, os, re, sys

ktap, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
lines = [l.rstrip("\r\n") for l in open(ktap, errors="replace")]
b64 = "".join(l.split(" ", 2)[2] for l in lines if l.startswith("# kt-b64 "))
if not b64:
    sys.exit("extract.py: no kt-b64 lines in %s (did the guest run?)" % ktap)
raw = gzip.decompress(base64.b64decode(b64)).decode()
with open(os.path.join(out, "raw.txt"), "w") as fp:
    fp.write(raw)
info = [l[len("# kt: "):] for l in lines if l.startswith("# kt: ")]

meta = {}
for l in info:
    m = re.match(r"kernel (\S+) rate (\S+) owd (\S+) loss (\S+) limit (\d+) dur (\d+)s"
                 r"(?: rmem (\d+))?(?: drop-every (\d+))?", l)
    if m:
        meta.update(kernel=m[1], rate=m[2], owd=m[3], loss=m[4], limit=m[5], dur_s=m[6],
                    rmem=m[7] or "default", drop_every=m[8] or "0")
    m = re.match(r"kprobe\s+(\S+)\s+(\d+)\s+(\d+)", l)
    if m:
        meta["kprobe_%s_hits" % m[1]] = m[2]
        meta["kprobe_%s_missed" % m[1]] = m[3]
    m = re.match(r"qdisc\s+Sent (\d+) bytes (\d+) pkt \(dropped (\d+)", l)
    if m:
        meta.update(netem_pkts=m[2], netem_dropped=m[3])
    # The gact action's counters: what the path dropped on purpose.
    m = re.match(r"gact\s+Sent (\d+) bytes (\d+) pkt \(dropped (\d+)", l)
    if m:
        meta.update(gact_pkts=m[2], gact_dropped=m[3])


def unit(v, units):
    m = re.match(r"([0-9.]+)([a-zA-Z]*)", v)
    return float(m[1]) * units[m[2].lower()]


rate_bps = unit(meta["rate"], {"bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9})
owd_us = unit(meta["owd"], {"us": 1, "ms": 1e3, "s": 1e6})
meta["rate_bps"] = "%d" % rate_bps
meta["owd_us"] = "%d" % owd_us

T, R, P, X = [], [], [], []
for l in raw.splitlines():
    f = l.split()
    if f[0] == "T":
        T.append((float(f[1]), int(f[2]), int(f[3])))
    elif f[0] == "R":
        R.append((float(f[1]), int(f[2]), int(f[3])))
    elif f[0] == "P":
        P.append((float(f[1]), int(f[2], 16), int(f[3], 16), int(f[4]), int(f[5]), int(f[6])))
    elif f[0] == "X":
        X.append(float(f[1]))

M = 1 << 32
syn = T[0]
if syn[2] - syn[1] != 1:
    sys.exit("extract.py: first transmission is not a SYN")
isn = syn[1]


def rel(seq):
    return (seq - isn - 1) % M


# Every packet the sender sent (SYN and pure ACKs too), by time: what the
# path's every-Nth drop counts.
sent_at = sorted(t for t, s, e in T)
# Data only (pure ACKs carry no sequence space; the FIN is not reached).
T = [(t, rel(s), (e - s) % M) for t, s, e in T[1:] if (e - s) % M > 1]
R = [(t, rel(s), (e - s) % M) for t, s, e in R if (e - s) % M > 1]
# A kprobe can miss a hit (one that fires while another probe's handler
# runs on the same CPU: kprobe_profile's "missed").  An arrival whose
# transmission is missing gets one, dated by the delay of the arrival
# before it.
known = {}
for t, s, n in T:
    known.setdefault(s, []).append(t)
inferred, d = [], owd_us / 1e6
for t, s, n in R:
    if s in known and known[s][0] <= t:
        d = t - max(x for x in known[s] if x <= t)
    elif s not in known:
        inferred.append((t - d, s, n))
        known[s] = [t - d]
T = sorted(T + inferred)
meta["tx_inferred"] = len(inferred)
starts = sorted(set(s for _, s, _ in T))
mss = max(n for _, _, n in T)
t0 = T[0][0]


def seg(off):
    """Segment holding byte offset off (offsets past the last start count on in MSS)."""
    i = bisect.bisect_right(starts, off) - 1
    if i < 0:
        return 0
    if i == len(starts) - 1 and off - starts[i] >= mss:
        return i + (off - starts[i]) // mss
    return i


# Transmission numbers and retransmissions.
txn, top, seqrows = {}, 0, []
for t, s, n in T:
    k = seg(s)
    x = txn.get(k, -1) + 1
    txn[k] = x
    seqrows.append([t, k, x, 1 if s < top else 0, 0])
    top = max(top, s + n)

# Match each arrival to the transmission of the same segment that left
# last at least one one-way delay before it (transmissions of one segment
# are at least an RTT apart; arrivals may be reordered slightly by the
# guest's receive path, so FIFO order is not assumed).
owd = owd_us / 1e6
bytx = {}
for i, (t, s, n) in enumerate(T):
    bytx.setdefault(seqrows[i][1], []).append(i)
matched = [False] * len(T)
stray = 0
for t, s, n in R:
    cand = [i for i in bytx.get(seg(s), []) if not matched[i] and T[i][0] <= t - owd * 0.98]
    if not cand:
        stray += 1
        continue
    matched[cand[-1]] = True
if stray:
    sys.exit("extract.py: %d arrivals match no transmission: trace inconsistent" % stray)
# The tail was still in flight when tracing stopped: keep transmissions up
# to 200 before the last one that arrived.
last = max(i for i in range(len(T)) if matched[i]) - 200
# Lost: unmatched, and sent again later -- without SACK the sender must
# resend whatever did not arrive.  An unmatched transmission never sent
# again did arrive: the receiver's kprobe missed it (kprobe_rx_missed).
unmatched = [i for i in range(last + 1) if not matched[i]]
lost_idx = [i for i in unmatched if bytx[seqrows[i][1]][-1] > i]
meta["rx_missed_inferred"] = len(unmatched) - len(lost_idx)
# What the path dropped up to there, when it drops every Nth packet: the
# packets the sender sent until then (those the tx kprobe missed included).
n_every = int(meta.get("drop_every", "0"))
if n_every:
    upto = bisect.bisect_right(sent_at, T[last][0]) + sum(1 for x in inferred if x[0] <= T[last][0])
    meta["path_dropped_window"] = upto // n_every
for i in lost_idx:
    seqrows[i][4] = 1
seqrows = seqrows[: last + 1]
# Reordering as the receiver saw it: arrivals below one that came before
# them although sent after it (not retransmissions).
hi, reord = -1, 0
for t, s, n in sorted(R):
    k = seg(s)
    if k < hi and txn.get(k, 0) == 0:
        reord += 1
    hi = max(hi, k)
meta["rx_reordered"] = reord

with open(os.path.join(out, "kernel-seq.csv"), "w") as fp:
    fp.write("t_us,seg,txn,rtx,lost\n")
    for t, k, x, r, lo in seqrows:
        fp.write("%.1f,%d,%d,%d,%d\n" % ((t - t0) * 1e6, k, x, r, lo))
with open(os.path.join(out, "losses.txt"), "w") as fp:
    fp.write("# seg txn: transmissions lost in the kernel run (%s)\n" % ktap)
    for i in lost_idx:
        fp.write("%d %d\n" % (seqrows[i][1], seqrows[i][2]))
t_end = seqrows[-1][0]
acks = [p for p in P if p[0] <= t_end]
with open(os.path.join(out, "kernel-ack.csv"), "w") as fp:
    fp.write("t_us,una,nxt,cwnd,ssthresh,srtt_us\n")
    for t, una, nxt, cwnd, ssth, srtt in acks:
        if t < t0:
            continue
        fp.write("%.1f,%d,%d,%d,%d,%d\n" % ((t - t0) * 1e6, seg(rel(una)), seg(rel(nxt)), cwnd,
                                           min(ssth, 1 << 20), srtt))

# The path's RTT as the kernel saw it without a standing queue: median
# srtt while cwnd is under half the bandwidth-delay product (after the
# first 3 s).  Above netem's 2 x OWD it holds the guest's own latency
# (TCG), which the simulator's replay adds to its propagation delay.
bdp = rate_bps * 2 * owd_us / 1e6 / 8 / mss
base = sorted(p[5] for p in acks if p[0] > t0 + 3 and 0 < p[3] < bdp / 2)
meta["rtt_base_us"] = base[len(base) // 2] if base else 2 * owd_us
meta.update(mss=mss, first_seg_bytes=starts[1] - starts[0] if len(starts) > 1 else mss,
            tx_pkts=len(seqrows), rtx_pkts=sum(r[3] for r in seqrows),
            retransmit_skb_events=sum(1 for x in X if x <= t_end), lost=len(lost_idx),
            lost_rtx=sum(1 for i in lost_idx if seqrows[i][2] > 0),
            trace_s="%.3f" % (t_end - t0), acks=len(acks),
            min_srtt_us=min(p[5] for p in acks if p[5] > 0))
with open(os.path.join(out, "meta.txt"), "w") as fp:
    for k, v in meta.items():
        fp.write("%s %s\n" % (k, v))
print("extract: %d transmissions (%d retransmissions), %d lost, %.1f s, mss %d -> %s" %
      (len(seqrows), meta["rtx_pkts"], len(lost_idx), t_end - t0, mss, out))
