#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""compare.py KDIR SIM RESULTDIR: replay the kernel run's loss pattern in
tonic-sim and draw the kernel beside Tonic.

KDIR holds what extract.py wrote (meta.txt, losses.txt, kernel-*.csv).
Writes KDIR/kernel-newreno.conf (the scenario: same MSS, rate, delay,
initial window, delayed ACKs and loss list as the kernel run; flow 0 is
Tonic's `newreno`, flow 1 the simulator's reference NewReno), runs it
into KDIR/sim, and writes RESULTDIR/fig1c-kernel-cwnd.png,
fig1d-kernel-seq.png and kernel-newreno.txt (the summary figures)."""
import csv, os, subprocess, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

kdir, sim, res = sys.argv[1:4]
os.makedirs(res, exist_ok=True)
meta = dict(l.rstrip("\n").split(" ", 1) for l in open(os.path.join(kdir, "meta.txt")))
rate = int(meta["rate_bps"])
owd_us = int(meta["owd_us"])
mss = int(meta["mss"])
hdr = 66			# Ethernet 14 + IPv4 20 + TCP 20 + timestamps 12: what netem's rate counts
wire = mss + hdr
dur_ms = float(meta["trace_s"]) * 1000
cycle_ps = wire * 8 * 10**12 // rate
losses = os.path.abspath(os.path.join(kdir, "losses.txt"))
buf_kb = int(meta["limit"]) * wire / 1000
# The kernel's RTO here: srtt + max(4 rttvar, 200 ms) ~ 240-250 ms (ss
# showed rto:0.25); Tonic's RTO is a fixed per-flow value.
rto_us = 250000
# Propagation delay per link (two links each way) so that the replay's
# base RTT -- propagation plus one data and one ACK serialisation per
# link -- equals the RTT the kernel measured without a standing queue.
ser_us = lambda b: b * 8 / rate * 1e6
rtt_base = int(meta.get("rtt_base_us", 2 * owd_us))
delay_us = (rtt_base - 2 * ser_us(wire) - 2 * ser_us(64)) / 4
conf = os.path.join(kdir, "kernel-newreno.conf")
with open(conf, "w") as fp:
    fp.write("""# written by userspace-tools/sim/kernel-trace/compare.py from %s
# The Linux kernel run of trace-newreno.sh replayed: %s bottleneck, %s one-way
# delay each way plus the guest's latency (base RTT %d us as the kernel
# measured it; two links per direction), netem's %s-packet queue, the
# kernel's own losses (loss_list), IW10, ACK every 2 segments / 40 ms.
name kernel-newreno
seed 1
duration_ms %.0f
sample_us 1000
cycle_ps %d
hosts count=4 gbps=%g delay_us=%g
switch buffer_kb=%.0f
flow src=0 dst=1 prog=newreno impl=tonic seg=%d hdr=%d rx=tcp delack=2 delack_us=40000 init_cwnd=10 rto_us=%d trace=1 loss_list=%s
flow src=2 dst=3 prog=newreno impl=ref   seg=%d hdr=%d rx=tcp delack=2 delack_us=40000 init_cwnd=10 rto_us=%d trace=1 loss_list=%s
""" % (kdir, meta["rate"], meta["owd"], rtt_base, meta["limit"], dur_ms, cycle_ps, rate / 1e9, delay_us,
       buf_kb, mss, hdr, rto_us, losses, mss, hdr, rto_us, losses))
out = os.path.join(kdir, "sim")
subprocess.run([sim, conf, out], check=True)


def rows(path):
    with open(path) as fp:
        return list(csv.DictReader(fp))


kseq = rows(os.path.join(kdir, "kernel-seq.csv"))
kack = rows(os.path.join(kdir, "kernel-ack.csv"))
sseq = rows(os.path.join(out, "seq.csv"))
ssam = rows(os.path.join(out, "samples.csv"))
sflows = {r["flow"]: r for r in rows(os.path.join(out, "flows.csv"))}
T = dur_ms * 1000		# us

# Traces as (t_ms, value) steps.
kc = [(float(r["t_us"]) / 1000, int(r["cwnd"])) for r in kack]
sc = {fl: [(float(r["t_us"]) / 1000, int(r["cwnd"])) for r in ssam if r["flow"] == fl]
      for fl in ("0", "1")}


def mean_step(pts, t_end, t_from=None):
    """Time-weighted mean of a step function sampled at pts (t, v), from
    t_from (default: its first sample) to t_end."""
    lo = pts[0][0] if t_from is None else t_from
    tot = 0.0
    for (t0, v), (t1, _) in zip(pts, pts[1:] + [(t_end, 0)]):
        a, b = max(t0, lo), min(t1, t_end)
        if b > a:
            tot += v * (b - a)
    return tot / (t_end - lo)


def episodes(seq):
    """Recovery episodes: a retransmission at or above `recover` (the highest
    segment sent when the previous episode began) starts a new one."""
    hi, recover, n = -1, -1, 0
    for t, s, rtx in seq:
        if rtx and s >= recover:
            n += 1
            recover = hi
        hi = max(hi, s)
    return n


kq = [(float(r["t_us"]), int(r["seg"]), int(r["rtx"])) for r in kseq]
sq = {fl: [(float(r["t_us"]), int(r["seg"]), int(r["rtx"])) for r in sseq if r["flow"] == fl]
      for fl in ("0", "1")}
kacked = int(kack[-1]["una"])
res_lines = []


def note(k, v):
    res_lines.append("%s %s" % (k, v))


note("kernel_run", "%s rate %s owd %s loss %s limit %s" % (meta["kernel"], meta["rate"], meta["owd"],
                                                           meta["loss"], meta["limit"]))
note("trace_s", meta["trace_s"])
note("kernel_losses", meta["lost"])
note("kernel_min_srtt_us", meta["min_srtt_us"])
note("kernel_rtt_base_us", rtt_base)
note("kernel_rx_reordered", meta["rx_reordered"])
note("kernel_tx_inferred", meta["tx_inferred"])
note("kernel_rx_missed_inferred", meta.get("rx_missed_inferred", "-"))
note("path_drop_every", meta.get("drop_every", "0"))
note("path_dropped", meta.get("gact_dropped", "-"))
note("path_dropped_window", meta.get("path_dropped_window", "-"))
figs = {}
for lab, cw, seq, gbps in (
        ("kernel", kc, kq, kacked * mss * 8 / (T / 1e6) / 1e6),
        ("tonic", sc["0"], sq["0"], float(sflows["0"]["thr_mbps"])),
        ("ref", sc["1"], sq["1"], float(sflows["1"]["thr_mbps"]))):
    figs[lab] = dict(cwnd=mean_step(cw, dur_ms), thr=gbps, tx=len(seq),
                     rtx=sum(r for _, _, r in seq), ep=episodes(seq))
    note("%s_mean_cwnd" % lab, "%.2f" % figs[lab]["cwnd"])
    # Without the start-up (slow start and the first recoveries).
    note("%s_mean_cwnd_from_3s" % lab, "%.2f" % mean_step(cw, dur_ms, 3000))
    note("%s_goodput_mbps" % lab, "%.3f" % gbps)
    note("%s_tx_pkts" % lab, figs[lab]["tx"])
    note("%s_rtx_pkts" % lab, figs[lab]["rtx"])
    note("%s_recovery_episodes" % lab, figs[lab]["ep"])
note("tonic_timeouts", sflows["0"]["timeouts"])
note("ref_timeouts", sflows["1"]["timeouts"])
note("kernel_cwnd1_acks", sum(1 for _, v in kc if v == 1))
with open(os.path.join(res, "kernel-newreno.txt"), "w") as fp:
    fp.write("# written by userspace-tools/sim/kernel-trace/compare.py (make eval-kernel)\n")
    fp.write("\n".join(res_lines) + "\n")
print("\n".join(res_lines))
# The losses the trace implies must be the ones the path made (every Nth
# packet, counted up to the last transmission the trace classifies).
if "path_dropped_window" in meta and int(meta["path_dropped_window"]) != int(meta["lost"]):
    sys.exit("compare.py: the trace implies %s losses, the path dropped %s"
             % (meta["lost"], meta["path_dropped_window"]))

# cwnd: whole run, and a zoom.
zoom = (10000, 16000)
fig, axs = plt.subplots(2, 1, figsize=(9, 6))
for ax, rng in ((axs[0], (0, dur_ms)), (axs[1], zoom)):
    for pts, lab, st in ((kc, "Linux 6.1 reno, no SACK (tcp_probe)", "-"),
                         (sc["0"], "Tonic newreno program", "-"),
                         (sc["1"], "simulator's reference NewReno", ":")):
        p = [x for x in pts if rng[0] <= x[0] <= rng[1]]
        ax.step([x[0] / 1000 for x in p], [x[1] for x in p], st, where="post", lw=0.9, label=lab)
    ax.set_xlim(rng[0] / 1000, rng[1] / 1000)
    ax.set_ylabel("cwnd (segments)")
axs[0].set_ylim(0, 100)
lossdesc = ("every %sth packet dropped" % meta["drop_every"] if meta.get("drop_every", "0") != "0"
            else "%s random loss" % meta["loss"])
axs[0].set_title("NewReno, %s, RTT %.0f ms, %s; same %s losses replayed in the simulator"
                 % (meta["rate"], 2 * owd_us / 1000, lossdesc, meta["lost"]), fontsize=9)
axs[0].legend(fontsize=8, loc="upper right")
axs[1].set_xlabel("time (s)")
save = lambda f, n: (f.tight_layout(), f.savefig(os.path.join(res, n), dpi=110), plt.close(f))
save(fig, "fig1c-kernel-cwnd.png")

# Sequence: one recovery episode with two losses in a window, each trace's
# time measured from the first transmission of the first lost segment (the
# traces reach a given segment at different times), segments relative to it.
lost_k = sorted(set(int(r["seg"]) for r in kseq if r["lost"] == "1" and r["txn"] == "0"))
pair = [(a, b) for a, b in zip(lost_k, lost_k[1:]) if b - a <= 60 and a > 2000]
k0 = pair[0][0] if pair else lost_k[len(lost_k) // 2]
fig, ax = plt.subplots(figsize=(9, 4.5))
for seq, lab, col, dy in ((kq, "Linux 6.1 reno (no SACK)", "C0", 0), (sq["0"], "Tonic newreno", "C1", 0),
                          (sq["1"], "reference NewReno", "C2", 0)):
    t0 = next(t for t, s_, r in seq if s_ == k0)
    p = [(t - t0, s_ - k0, r) for t, s_, r in seq if -0.1e6 <= t - t0 <= 0.35e6]
    ax.plot([x[0] / 1e3 for x in p if not x[2]], [x[1] for x in p if not x[2]], ".", ms=2, color=col, label=lab)
    ax.plot([x[0] / 1e3 for x in p if x[2]], [x[1] for x in p if x[2]], "o", ms=7, mfc="none", color=col)
lk = [s_ - k0 for s_ in lost_k if -100 <= s_ - k0 <= 200]
for y in lk:
    ax.axhline(y, color="k", lw=0.4, ls=":")
ax.set_xlabel("time since segment %d was first sent (ms)" % k0)
ax.set_ylabel("segment sent - %d" % k0)
ax.set_title("Sequence trace around the kernel's losses of segments %s (dotted lines; circles: retransmissions)"
             % ", ".join(str(s_ + k0) for s_ in lk if s_ >= 0)[:90], fontsize=9)
ax.legend(fontsize=8, loc="upper left", markerscale=4)
save(fig, "fig1d-kernel-seq.png")
