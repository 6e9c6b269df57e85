#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""plot.py RUNDIR RESULTDIR: the figures and numbers of Documentation/evaluation.rst
from the CSVs tonic-sim wrote (eval.sh runs it).  Writes PNGs and results.txt."""
import csv, math, os, sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

run, res = sys.argv[1], sys.argv[2]
os.makedirs(res, exist_ok=True)
out = []


def rows(name, f):
    with open(os.path.join(run, name, f)) as fp:
        return list(csv.DictReader(fp))


def summary(name):
    d = {}
    with open(os.path.join(run, name, "summary.txt")) as fp:
        for line in fp:
            k, _, v = line.strip().partition(" ")
            d[k] = v
    return d


def note(k, v):
    out.append("%s %s" % (k, v))


def series(samples, flow, key):
    t = [float(r["t_us"]) / 1000 for r in samples if r["flow"] == flow]
    v = [float(r[key]) for r in samples if r["flow"] == flow]
    return t, v


def thr_series(samples, flow):
    """Throughput (Gb/s) between consecutive samples of one flow."""
    pts = [(float(r["t_us"]), int(r["rx_bytes"])) for r in samples if r["flow"] == flow]
    t, v = [], []
    for (t0, b0), (t1, b1) in zip(pts, pts[1:]):
        t.append(t1 / 1000)
        v.append((b1 - b0) * 8 / ((t1 - t0) * 1e3))
    return t, v


def save(fig, name):
    fig.tight_layout()
    fig.savefig(os.path.join(res, name), dpi=110)
    plt.close(fig)


# (1) NewReno single flow: Tonic (flow 0) vs reference (flow 1), same losses.
s = rows("newreno-loss", "samples.csv")
fig, ax = plt.subplots(figsize=(8, 3.5))
for fl, lab, st in (("0", "Tonic newreno program", "-"), ("1", "reference NewReno (RFC 6582)", "--")):
    t, v = series(s, fl, "cwnd")
    ax.plot(t, v, st, label=lab, lw=1)
ax.set_xlabel("time (ms)")
ax.set_ylabel("cwnd (segments)")
ax.set_title("NewReno, 10 Gb/s, 10 us RTT, 0.1 % hashed loss (same pattern)")
ax.legend()
save(fig, "fig1-newreno-cwnd.png")
q = rows("newreno-loss", "seq.csv")
fig, axs = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
for ax, fl, lab in ((axs[0], "0", "Tonic"), (axs[1], "1", "reference")):
    pts = [r for r in q if r["flow"] == fl and 20000 <= float(r["t_us"]) <= 24000]
    ax.plot([float(r["t_us"]) / 1000 for r in pts if r["rtx"] == "0"],
            [int(r["seg"]) for r in pts if r["rtx"] == "0"], ",", color="C0")
    ax.plot([float(r["t_us"]) / 1000 for r in pts if r["rtx"] == "1"],
            [int(r["seg"]) for r in pts if r["rtx"] == "1"], "o", color="C3", ms=5, label="retransmission")
    ax.set_title(lab)
    ax.set_xlabel("time (ms)")
    ax.legend()
axs[0].set_ylabel("segment sent")
save(fig, "fig1-newreno-seq.png")
for fl, lab in (("0", "tonic"), ("1", "ref")):
    c = [float(r["cwnd"]) for r in s if r["flow"] == fl]
    note("newreno_loss_%s_mean_cwnd" % lab, "%.2f" % (sum(c) / len(c)))
fr = {r["flow"]: r for r in rows("newreno-loss", "flows.csv")}
for fl, lab in (("0", "tonic"), ("1", "ref")):
    note("newreno_loss_%s_thr_mbps" % lab, fr[fl]["thr_mbps"])
    note("newreno_loss_%s_rtx" % lab, fr[fl]["rtx_pkts"])
    note("newreno_loss_%s_timeouts" % lab, fr[fl]["timeouts"])

# (2) 200 NewReno flows: throughput CDFs.
fig, ax = plt.subplots(figsize=(6, 4))
for name, lab in (("newreno-200-tonic", "Tonic newreno, 832 ns cycle"),
                  ("newreno-200-ref", "reference NewReno"),
                  ("newreno-200-tonic-100ns", "Tonic newreno, 100 ns cycle")):
    thr = sorted(float(r["thr_mbps"]) for r in rows(name, "flows.csv"))
    ax.step(thr, [(i + 1) / len(thr) for i in range(len(thr))], where="post", label=lab)
    if name.endswith("100ns"):
        continue
    sm = summary(name)
    for k in ("jain", "thr_mean_mbps", "thr_std_mbps", "thr_min_mbps", "thr_max_mbps", "rtx_pkts", "timeouts"):
        note("%s_%s" % (name.replace("-", "_"), k), sm[k])
ax.set_xlabel("average throughput per flow, 0.5-5 s (Mb/s)")
ax.set_ylabel("CDF")
ax.set_title("200 NewReno flows, one 10 Gb/s bottleneck")
ax.legend()
save(fig, "fig2-newreno-200-cdf.png")

# (3a) DCQCN, two flows: Tonic's program and the reference (seed 1).
fig, axs = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
for ax, name, lab in ((axs[0], "dcqcn-2", "Tonic dcqcn"), (axs[1], "dcqcn-2-ref-s1", "reference DCQCN")):
    s = rows(name, "samples.csv")
    for fl in ("0", "1"):
        t, v = series(s, fl, "rate_mbps")
        ax.plot(t, [x / 1000 for x in v], lw=0.8, label="%s, flow %s: rate Rc" % (lab, fl))
    ax.set_ylabel("Gb/s")
    ax.set_ylim(0, 42)
    ax.legend(loc="lower right")
axs[1].set_xlabel("time (ms)")
axs[0].set_title("DCQCN, 2 flows, 40 Gb/s, 4 us RTT")
save(fig, "fig3a-dcqcn-2.png")
sm = summary("dcqcn-2")
for k in ("thr_mean_mbps", "thr_std_mbps", "jain", "thr_sum_mbps"):
    note("dcqcn_2_" + k, sm[k])


def seeds(names, key):
    """Mean and standard deviation over seeds of one summary figure."""
    v = [float(summary(n)[key]) for n in names]
    m = sum(v) / len(v)
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / len(v)), v


def share_gap(name):
    """Relative difference of the two flows' throughput: |a - b| / (a + b)."""
    sm = summary(name)
    a, b = float(sm["thr_min_mbps"]), float(sm["thr_max_mbps"])
    return (b - a) / (a + b)


for lab, names in (("tonic", ["dcqcn-2"] + ["dcqcn-2-s%d" % i for i in range(2, 6)]),
                   ("ref", ["dcqcn-2-ref-s%d" % i for i in range(1, 6)])):
    for k in ("jain", "thr_sum_mbps"):
        m, sd, _ = seeds(names, k)
        note("dcqcn_2_%s_seeds1-5_%s" % (lab, k), "%.4f +- %.4f" % (m, sd))
    g = [share_gap(n) for n in names]
    note("dcqcn_2_%s_seeds1-5_share_gap" % lab, " ".join("%.3f" % x for x in g))

# (3b) DCQCN, 200 flows.
s = rows("dcqcn-200", "samples.csv")
per = defaultdict(list)
for r in s:
    per[r["flow"]].append((float(r["t_us"]), int(r["rx_bytes"])))
tt, mean, lo, hi = [], [], [], []
flows = sorted(per)
n = min(len(per[f]) for f in flows)
for i in range(1, n):
    vals = [(per[f][i][1] - per[f][i - 1][1]) * 8 / ((per[f][i][0] - per[f][i - 1][0]) * 1e3) * 1000 for f in flows]
    tt.append(per[flows[0]][i][0] / 1000)
    m = sum(vals) / len(vals)
    mean.append(m)
    sd = math.sqrt(sum((x - m) ** 2 for x in vals) / len(vals))
    lo.append(m - sd)
    hi.append(m + sd)
thr = sorted(float(r["thr_mbps"]) for r in rows("dcqcn-200", "flows.csv"))
fig, axs = plt.subplots(1, 2, figsize=(10, 3.8))
axs[0].plot(tt, mean, label="mean over 200 flows")
axs[0].fill_between(tt, lo, hi, alpha=0.3, label="+- 1 std dev")
axs[0].axhline(203, color="k", ls=":", label="paper: 203 Mb/s")
axs[0].set_ylim(0, 400)
axs[0].set_xlabel("time (ms)")
axs[0].set_ylabel("per-flow throughput, 1 ms bins (Mb/s)")
axs[0].legend()
axs[1].step(thr, [(i + 1) / len(thr) for i in range(len(thr))], where="post")
axs[1].set_xlabel("average throughput, 0.5-1 s (Mb/s)")
axs[1].set_ylabel("CDF")
fig.suptitle("DCQCN, 200 flows (2 senders x 100), 40 Gb/s, 4 us RTT")
save(fig, "fig3b-dcqcn-200.png")
sm = summary("dcqcn-200")
for k in ("thr_mean_mbps", "thr_std_mbps", "thr_min_mbps", "thr_max_mbps", "jain", "thr_sum_mbps"):
    note("dcqcn_200_" + k, sm[k])
# Over seeds 1-3: the mean per-flow throughput (its mean and spread over the
# seeds) and the spread between flows (mean over the seeds).
for lab, names in (("tonic", ["dcqcn-200", "dcqcn-200-s2", "dcqcn-200-s3"]),
                   ("tonic_nic_fifo", ["dcqcn-200-fifo-s%d" % i for i in range(1, 4)]),
                   ("ref", ["dcqcn-200-ref-s%d" % i for i in range(1, 4)]),
                   ("ref_fr_at_f", ["dcqcn-200-ref-fr-s%d" % i for i in range(1, 4)]),
                   ("ref_pacer_tb", ["dcqcn-200-ref-tb-s%d" % i for i in range(1, 4)]),
                   ("ref_both", ["dcqcn-200-ref-both-s%d" % i for i in range(1, 4)])):
    m, sd, _ = seeds(names, "thr_mean_mbps")
    fsd, _, _ = seeds(names, "thr_std_mbps")
    su, _, _ = seeds(names, "thr_sum_mbps")
    nicq = max(float(summary(n)["port_nic0"].split()[5]) for n in names)
    note("dcqcn_200_%s_seeds1-3" % lab,
         "mean %.2f +- %.2f Mb/s (flow std %.2f), sum %.0f Mb/s, max NIC queue %.0f KB"
         % (m, sd, fsd, su, nicq))

sm = summary("dcqcn-200-t300")
note("dcqcn_200_t300", "mean %s Mb/s, flow std %s" % (sm["thr_mean_mbps"], sm["thr_std_mbps"]))

# (4) 128 B back to back at 100 Gb/s.
sm = summary("dcqcn-128b")
eng = sm["engine0"].split()
cyc, busy = int(eng[1]), int(eng[3])
f0 = rows("dcqcn-128b", "flows.csv")[0]
note("dcqcn_128b_thr_mbps", sm["thr_mean_mbps"])
note("dcqcn_128b_cycles", cyc)
note("dcqcn_128b_descriptors", f0["tx_pkts"])
note("dcqcn_128b_desc_per_cycle", "%.4f" % (int(f0["tx_pkts"]) / cyc))
note("dcqcn_128b_nic_util", sm["port_nic0"].split()[1])

# (5) IRN FCTs.
fig, ax = plt.subplots(figsize=(6, 4))
for v, lab in (("irn", "IRN (BDP-FC 25 pkts)"), ("irn-nobdp", "IRN without BDP-FC"),
               ("gbn", "RoCE go-back-N"), ("gbn-fifo", "go-back-N, unbounded NIC FIFO (old host model)"),
               ("gbn-pfc", "RoCE go-back-N on PFC"),
               ("irn-dcqcn", "IRN + DCQCN"), ("gbn-dcqcn", "RoCE go-back-N + DCQCN"),
               ("gbn-dcqcn-pfc", "RoCE + DCQCN on PFC"),
               ("gbn-dcqcn-lossless", "RoCE + DCQCN on PFC, no random loss")):
    fr = rows("irn-" + v, "flows.csv")
    fct = sorted(float(r["fct_us"]) for r in fr if float(r["fct_us"]) >= 0)
    if fct:
        ax.step(fct, [(i + 1) / len(fr) for i in range(len(fct))], where="post", label=lab)
    sm = summary("irn-" + v)
    for k in ("fct_done", "fct_flows", "fct_mean_us", "fct_p99_us", "rtx_pkts", "timeouts"):
        note("irn_%s_%s" % (v.replace("-", "_"), k), sm.get(k, "-"))
    names = ("irn-" + v, "irn-%s-s2" % v, "irn-%s-s3" % v)
    for k in ("fct_done", "fct_mean_us"):
        note("irn_%s_seeds1-3_%s" % (v.replace("-", "_"), k), " ".join(
            summary(n).get(k, "-") for n in names))
    note("irn_%s_seeds1-3_max_nic_queue_kb" % v.replace("-", "_"), " ".join(
        "%.1f" % max(float(x.split()[5]) for k2, x in summary(n).items() if k2.startswith("port_nic"))
        for n in names))
    nicq = max(float(v2.split()[5]) for k2, v2 in sm.items() if k2.startswith("port_nic"))
    note("irn_%s_max_nic_queue_kb" % v.replace("-", "_"), "%.1f" % nicq)
ax.set_xscale("log")
ax.set_xlabel("flow completion time of 500 KB messages (us)")
ax.set_ylabel("fraction of messages completed")
ax.set_title("8-to-1 incast, 40 Gb/s, 0.1 % loss, no PFC")
ax.legend(fontsize="small")
save(fig, "fig5-irn-fct.png")
for v in ("gbn-pfc", "irn-dcqcn", "gbn-dcqcn", "gbn-dcqcn-pfc", "gbn-dcqcn-lossless"):
    sm = summary("irn-" + v)
    note("irn_%s_pfc_pauses" % v.replace("-", "_"), sum(
        int(x.split()[9]) for k2, x in sm.items() if k2.startswith("port_nic")))
    note("irn_%s_ecn_marks_drops" % v.replace("-", "_"), "%s %s" % (
        sm["port_sw8"].split()[5], sm["port_sw8"].split()[3]))
# The IRN programs at the Tonic paper's 100 ns cycle.
for v in ("irn", "irn-dcqcn"):
    sm = summary("irn-%s-100ns" % v)
    note("cycle_irn_%s_100ns_fct_done_mean_p99" % v.replace("-", "_"), "%s %s %s" % (
        sm["fct_done"], sm["fct_mean_us"], sm["fct_p99_us"]))

# (6a) IB-CC CCTI_Increase 1:2:3.
s = rows("ibcc-ratio", "samples.csv")
fig, ax = plt.subplots(figsize=(8, 3.5))
for fl in ("0", "1", "2"):
    t, v = thr_series(s, fl)
    ax.plot(t, v, lw=0.8, label="CCTI_Increase %d" % (int(fl) + 1))
ax.set_xlabel("time (ms)")
ax.set_ylabel("Gb/s (1 ms bins)")
ax.set_title("IB CC, three QPs, 10 Gb/s bottleneck")
ax.legend()
save(fig, "fig6a-ibcc-ratio.png")
sm = summary("ibcc-ratio")
g = [float(sm["group%d_mbps" % i]) for i in range(3)]
fr = rows("ibcc-ratio", "flows.csv")
note("ibcc_ratio_shares", " : ".join("%.3f" % (x / g[0]) for x in g))
note("ibcc_ratio_becn", " : ".join("%.3f" % (int(r["cnps"]) / int(fr[0]["cnps"])) for r in fr))
note("ibcc_ratio_util", sm["port_sw3"].split()[1])

# (6a) like with like: the rate ratio and the BECN ratio of the same run,
# and the fraction of each QP's packets marked (the theorem assumes equal).
for name in ("ibcc-ratio", "ibcc-ratio-s2", "ibcc-ratio-s3", "ibcc-ratio-fecn4", "ibcc-ratio-fecn64",
             "ibcc-ratio-100ns"):
    fr = rows(name, "flows.csv")
    thr = [float(r["thr_mbps"]) for r in fr]
    becn = [int(r["cnps"]) for r in fr]
    frac = [int(r["fecn"]) / int(r["tx_pkts"]) for r in fr]
    note(name.replace("-", "_"), "rate 1 : %.3f : %.3f  becn 1 : %.3f : %.3f  marked %s  util %s"
         % (thr[1] / thr[0], thr[2] / thr[0], becn[1] / becn[0], becn[2] / becn[0],
            " ".join("%.4f" % x for x in frac), summary(name)["port_sw3"].split()[1]))

# (6c) seed Fig. 4: a QP held at one CCT entry.
for r in rows("ibcc-cct", "flows.csv"):
    note("ibcc_cct_flow%s_mbps" % r["flow"], r["thr_mbps"])

# (6d) seed Fig. 3(b): four QPs joining and leaving, same parameters.
s = rows("ibcc-fair", "samples.csv")
fig, ax = plt.subplots(figsize=(8, 3.5))
for fl in ("0", "1", "2", "3"):
    t, v = thr_series(s, fl)
    ax.plot(t, v, lw=0.8, label="QP %d" % (int(fl) + 1))
ax.set_xlabel("time (ms)")
ax.set_ylabel("Gb/s (1 ms bins)")
ax.set_title("IB CC, same CCT parameters, QPs join every 50 ms (seed 001 Fig. 3b)")
ax.legend()
save(fig, "fig6c-ibcc-fair.png")
for a, b in ((10, 50), (60, 100), (110, 150), (160, 245), (260, 300), (310, 345), (360, 400)):
    per = []
    for fl in ("0", "1", "2", "3"):
        t, v = thr_series(s, fl)
        x = [y for tt, y in zip(t, v) if a < tt <= b]
        if len(x) == b - a:
            per.append(sum(x) / len(x))
    note("ibcc_fair_%d_%d_ms_gbps" % (a, b), " ".join("%.2f" % x for x in per))

# (6b) tenants.
def tenant_bins(name):
    """Per tenant (group), its flows' throughput summed per 1 ms bin."""
    s = rows(name, "samples.csv")
    fr = {r["flow"]: r for r in rows(name, "flows.csv")}
    bins = defaultdict(lambda: defaultdict(float))
    for fl in fr:
        t, v = thr_series(s, fl)
        for a, b in zip(t, v):
            bins[fr[fl]["group"]][a] += b
    return s, fr, bins


def tenant_phases(bins):
    """Each tenant's mean throughput in the five phases, from 10 ms after each boundary."""
    out = []
    for ph in range(5):
        a, b = ph * 50 + 10, (ph + 1) * 50
        out.append({g: sum(v for t, v in bins[g].items() if a < t <= b)
                    / max(1, len([t for t in bins[g] if a < t <= b])) for g in ("0", "1")})
    return out


s, fr, bins = tenant_bins("ibcc-tenant")
fig, ax = plt.subplots(figsize=(8, 3.5))
for gname, lab in (("0", "tenant 1 (1 QP)"), ("1", "tenant 2 (1,2,3,2,1 QPs)")):
    ts = sorted(bins[gname])
    ax.plot(ts, [bins[gname][x] for x in ts], lw=0.9, label=lab)
for x in (50, 100, 150, 200):
    ax.axvline(x, color="grey", ls=":")
ax.set_xlabel("time (ms)")
ax.set_ylabel("tenant throughput, Gb/s")
ax.set_title("IB CC tenant fairness: CCTI_Increase = tenant's QP count")
ax.legend()
save(fig, "fig6b-ibcc-tenant.png")
for ph, tot in enumerate(tenant_phases(bins)):
    note("ibcc_tenant_phase%d_gbps" % (ph + 1), "%.3f %.3f" % (tot["0"], tot["1"]))
for sd in (2, 3):
    for ph, tot in enumerate(tenant_phases(tenant_bins("ibcc-tenant-s%d" % sd)[2])):
        note("ibcc_tenant_s%d_phase%d_gbps" % (sd, ph + 1), "%.3f %.3f" % (tot["0"], tot["1"]))
# BECNs of tenant 2's first QP (host 1, reconfigured at each phase) per phase.
q1 = [r["flow"] for r in fr.values() if r["group"] == "1" and r["src"] == "1"][0]
cn = [(float(r["t_us"]) / 1000, int(r["cnps"])) for r in s if r["flow"] == q1]
def cn_at(t):
    return max([c for x, c in cn if x <= t] or [0])
note("ibcc_tenant_becn_host1_per_phase",
     " ".join(str(cn_at((ph + 1) * 50) - cn_at(ph * 50)) for ph in range(5)))

# Finding 1: the same runs at 100 ns cycles (the Tonic paper's).
for base in ("newreno-loss", "newreno-200-tonic", "newreno-200-ref", "dcqcn-2", "dcqcn-200"):
    for name in (base, base + "-100ns"):
        sm = summary(name)
        nicq = max(float(v.split()[5]) for k, v in sm.items() if k.startswith("port_nic"))
        note("cycle_%s" % name.replace("-", "_"),
             "thr_mean %s thr_std %s jain %s rtx %s timeouts %s max_nic_queue_kb %.1f"
             % (sm.get("thr_mean_mbps"), sm.get("thr_std_mbps"), sm.get("jain"),
                sm["rtx_pkts"], sm["timeouts"], nicq))
for c in ("newreno-200-tonic", "newreno-200-ref", "newreno-200-tonic-100ns", "newreno-200-ref-100ns"):
    names = [c] + ["%s-s%d" % (c, i) for i in (2, 3)]
    m, sd, v = seeds(names, "jain")
    note("cycle_%s_seeds1-3_jain" % c.replace("-", "_"),
         "%.4f +- %.4f (%s)" % (m, sd, " ".join("%.4f" % x for x in v)))


def cwnd_overlap(name):
    """Share of samples where Tonic's and the reference's cwnd are equal, mean |difference|."""
    c = defaultdict(dict)
    for r in rows(name, "samples.csv"):
        c[r["flow"]][r["t_us"]] = int(r["cwnd"])
    ts = [t for t in c["0"] if t in c["1"]]
    d = [abs(c["0"][t] - c["1"][t]) for t in ts]
    return sum(1 for x in d if x == 0) / len(d), sum(d) / len(d)


for name in ("newreno-loss", "newreno-loss-100ns", "newreno-loss-100ns-nic",
             "newreno-loss-s2", "newreno-loss-s3", "newreno-loss-100ns-nic-s2", "newreno-loss-100ns-nic-s3"):
    same, md = cwnd_overlap(name)
    fr = rows(name, "flows.csv")
    note("cwnd_overlap_%s" % name.replace("-", "_"),
         "identical in %.1f %% of samples, mean |diff| %.2f segments; Mb/s %s %s, rtx %s %s"
         % (100 * same, md, fr[0]["thr_mbps"], fr[1]["thr_mbps"], fr[0]["rtx_pkts"], fr[1]["rtx_pkts"]))
s = rows("newreno-loss-100ns-nic", "samples.csv")
fig, ax = plt.subplots(figsize=(8, 3.5))
for fl, lab, st in (("0", "Tonic newreno program", "-"), ("1", "reference NewReno (RFC 6582)", "--")):
    t, v = series(s, fl, "cwnd")
    ax.plot(t, v, st, label=lab, lw=1)
ax.set_xlabel("time (ms)")
ax.set_ylabel("cwnd (segments)")
ax.set_title("As fig. 1, at 100 ns cycles, both NICs 1000 packets deep")
ax.legend()
save(fig, "fig1e-newreno-cwnd-100ns.png")
fr = rows("newreno-loss-100ns", "flows.csv")
note("cycle_newreno_loss_100ns_tonic_ref_mbps", "%s %s" % (fr[0]["thr_mbps"], fr[1]["thr_mbps"]))

with open(os.path.join(res, "results.txt"), "w") as fp:
    fp.write("# written by userspace-tools/sim/plot.py (make eval)\n")
    fp.write("\n".join(out) + "\n")
print("\n".join(out))
