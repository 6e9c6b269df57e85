#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The series of tests/selftests/eval-rdma.sh (a guest's KTAP log) as
Documentation/results/rdma-irn.{png,txt}, rdma-dcqcn.{png,txt} and
rdma-ibcc.{png,txt}.

usage: eval-rdma-plot.py KTAP OUTDIR

IRN: for each loss rate and implementation (rxe, rc, irn), over its runs:
perftest's average goodput (the median, and min..max; runs that report 0
left out), its ratio to rxe's median, packets resent per data packet
dropped, and the client's wall-clock time (median, set-up included).

DCQCN (tests/selftests/eval-dcqcn.sh): for each run dcqcn-N[.R] and
dcqcn-join[.R], while every flow competed (from the start of the last
flow to the last sample before one had sent all it would): Jain's fairness
index of the flows' throughput over the first second, and over every
window of at least WIN_MS; when the flows became fair for good (the end of
the first window from which every window has Jain >= 0.95) and the lowest
index of a window ending after the first second; the RED queue's mean and
largest backlog. Plots of the first run of each N: the backlog and each
flow's throughput per window over time.

IB CC: for each mode (fixed CCTI_Increase 1:2:3; tenants of 1, 2, 3 QPs
with CCTI_Increase 1; the same tenants set by the device), over its runs:
the tenants' rates relative to tenant A's (median, min..max), Jain's index
of the three tenants' rates, and CNPs x CCTI_Increase; a plot of each
tenant's throughput over time in the first run of each mode.
"""
import re
import sys
from collections import OrderedDict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

SEG_KBIT = 1024 * 8 / 1000.0


def jain(xs):
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q else 0.0


def load(path):
    runs, summary = OrderedDict(), {}
    for line in open(path, errors="replace"):
        m = re.search(r"series (dcqcn-[\w.]+) (\d+) (\d+|-) (.*)", line)
        if m:
            v = [int(x) for x in m.group(4).split()]
            back = None if m.group(3) == "-" else int(m.group(3))
            runs.setdefault(m.group(1), []).append((int(m.group(2)), back, v[0::3], v[1::3]))
            continue
        m = re.search(r"summary (dcqcn-[\w.]+) (red_sent.*)", line)
        if m:
            summary[m.group(1)] = m.group(2).strip()
    return runs, summary


WIN_MS = 250


def sending(samples):
    """The samples in which every flow competed -- from the last sample
    before the last flow to start had sent (or had appeared; a series
    starts at the last poll that found no flow) to the last before a flow
    had sent all it would: the window in which one finishes is not a share
    of the link -- each with its time since that start."""
    n = max(len(x[2]) for x in samples)
    full = [x for x in samples if len(x[2]) == n]
    final = full[-1][2]
    origin, span = 0, []
    for x in samples:
        if len(x[2]) < n or min(x[2]) == 0:
            origin, span = x[0], []
        elif any(a >= b for a, b in zip(x[2], final)):
            break
        else:
            span.append((x[0] - origin, x[2]))
    return span


def windows(span, ms):
    """(end time, each flow's Mb/s) over consecutive windows of >= ms."""
    out, (t0, s0) = [], span[0]
    for t, segs in span[1:]:
        if t - t0 >= ms:
            out.append((t, [(b - a) * SEG_KBIT / (t - t0) for a, b in zip(s0, segs)]))
            t0, s0 = t, segs
    return out


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2.0


def irn(path, outdir):
    """The IRN runs: rdma-irn.txt and rdma-irn.png; False when there are none."""
    runs = OrderedDict()
    for line in open(path, errors="replace"):
        m = re.search(r"# irn (\S+) (\S+) (\d+) (\d+) (\S+) (\S+) (\d+)\s*$", line)
        if m:
            runs.setdefault((float(m.group(1)), m.group(2)), []).append(m.groups()[2:])
    if not runs:
        return False
    losses = sorted({k[0] for k in runs})
    impls = [i for i in ("rxe", "rc", "irn") if any(k[1] == i for k in runs)]
    good, lines = {}, []
    fmt = "%6s  %-4s  %4s  %-30s  %9s  %15s  %s"
    lines.append(fmt % ("loss %", "impl", "runs", "perftest Gb/s median (min..max)",
                        "vs rxe", "resent per drop", "wall s"))
    for loss in losses:
        for impl in impls:
            rs = runs.get((loss, impl), [])
            ok = [r for r in rs if r[2] != "failed" and float(r[2]) > 0]
            gb = [float(r[2]) for r in ok]
            resent = [(int(r[3]), int(r[4])) for r in ok if r[3] != "-"]
            good[(loss, impl)] = median(gb) if gb else None
            per = ("%.2f" % (sum(a for a, _ in resent) / max(1, sum(b for _, b in resent)))
                   if resent else "-")
            rel = ("%.2f" % (good[(loss, impl)] / good[(loss, "rxe")])
                   if gb and good.get((loss, "rxe")) else "-")
            lines.append(fmt % (
                "%g" % loss, impl, "%d/%d" % (len(ok), len(rs)),
                "%.4f (%.4f..%.4f)" % (median(gb), min(gb), max(gb)) if gb else "-",
                rel, per, "%.1f" % (median([int(r[1]) for r in ok]) / 1000.0) if ok else "-"))
    with open(outdir + "/rdma-irn.txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    fig, ax = plt.subplots(figsize=(6, 4))
    for impl in impls:
        pts = [(l, good[(l, impl)]) for l in losses if good.get((l, impl))]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=impl)
    ax.set_xscale("log")
    ax.set_xlabel("netem loss (%)")
    ax.set_ylabel("ib_write_bw goodput (Gb/s, perftest, median)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(outdir + "/rdma-irn.png", dpi=80)
    sys.stdout.write(open(outdir + "/rdma-irn.txt").read())
    return True


IBCC_MODES = (("fixed", "CCTI_Increase 1:2:3, 1 QP each", (1, 2, 3)),
              ("none", "1, 2, 3 QPs, CCTI_Increase 1", (1, 1, 1)),
              ("auto", "1, 2, 3 QPs, set by the device", None))


def ibcc(path, outdir):
    """The IB CC runs: rdma-ibcc.txt and rdma-ibcc.png; False when there are none."""
    runs, series = OrderedDict(), OrderedDict()
    for line in open(path, errors="replace"):
        m = re.search(r"# ibcc (\w+) (\d+) (\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\s*$", line)
        if m:
            runs.setdefault(m.group(1), []).append([float(x) for x in m.groups()[2:]])
            continue
        m = re.search(r"# series (ibcc-\w+-\d+) (\d+) (.*)", line)
        if m:
            v = [int(x) for x in m.group(3).split()]
            series.setdefault(m.group(1), []).append((int(m.group(2)), v[0::2]))
    if not runs:
        return False
    fmt = "%-36s  %4s  %-20s  %-20s  %-18s  %s"
    lines = [fmt % ("mode", "runs", "B / A median (range)", "C / A median (range)",
                    "Jain A,B,C median", "CNPs x CCTI_Increase A B C (median)")]
    for mode, title, inc in IBCC_MODES:
        rs = [r for r in runs.get(mode, []) if r[0] > 0]
        if not rs:
            continue
        b = [r[1] / r[0] for r in rs]
        c = [r[2] / r[0] for r in rs]
        j = [jain(r[:3]) for r in rs]
        bal = "-"
        if inc:
            bal = " ".join("%.1f" % median([r[3 + k] * inc[k] for r in rs]) for k in range(3))
        lines.append(fmt % (mode + ": " + title, "%d" % len(rs),
                            "%.3f (%.3f..%.3f)" % (median(b), min(b), max(b)),
                            "%.3f (%.3f..%.3f)" % (median(c), min(c), max(c)),
                            "%.3f" % median(j), bal))
    lines.append("theorem (fixed): B / A 0.500, C / A 0.333; equal shares: Jain 1.000")
    with open(outdir + "/rdma-ibcc.txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    modes = [m for m, _, _ in IBCC_MODES if ("ibcc-%s-1" % m) in series]
    if modes:
        fig, ax = plt.subplots(1, len(modes), figsize=(5 * len(modes), 3.5), squeeze=False)
        for col, mode in enumerate(modes):
            s = series["ibcc-%s-1" % mode]
            for k, name in enumerate("ABC"):
                pts = [(b[0], (b[1][k] - a[1][k]) * SEG_KBIT / (b[0] - a[0]))
                       for a, b in zip(s, s[1:]) if b[0] > a[0] and len(a[1]) == len(b[1]) == 3]
                ax[0][col].plot([p[0] / 1000.0 for p in pts], [p[1] for p in pts], label=name)
            ax[0][col].set_title("%s: %s" % (mode, dict((m, t) for m, t, _ in IBCC_MODES)[mode]),
                                 fontsize="small")
            ax[0][col].set_xlabel("s")
            ax[0][col].set_ylabel("tenant throughput (Mb/s)")
            ax[0][col].legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(outdir + "/rdma-ibcc.png", dpi=80)
    sys.stdout.write(open(outdir + "/rdma-ibcc.txt").read())
    return True


def main():
    have_irn = irn(sys.argv[1], sys.argv[2])
    have_irn = ibcc(sys.argv[1], sys.argv[2]) or have_irn
    runs, summary = load(sys.argv[1])
    outdir = sys.argv[2]
    if not runs:
        if have_irn:
            return
        sys.exit("eval-rdma-plot: no series in " + sys.argv[1])
    firsts = [name for name in runs if "." not in name]
    fig, ax = plt.subplots(2, len(firsts), figsize=(6 * len(firsts), 7), squeeze=False)
    rows = []
    for name, samples in runs.items():
        span = sending(samples)
        first = windows(span, 1000)[:1]
        wins = windows(span, WIN_MS)
        js = [jain(v) for _, v in wins]
        fair = None
        for k in range(len(js)):
            if all(j >= 0.95 for j in js[k:]):
                fair = wins[k][0] / 1000.0
                break
        late = [j for (t, _), j in zip(wins, js) if t > 1000]
        back = [x[1] for x in samples if x[1] is not None]
        rows.append((name, len(span[-1][1]), span[-1][0] / 1000.0,
                     jain(first[0][1]) if first else float("nan"), fair,
                     min(late) if late else float("nan"),
                     sum(back) / len(back) / 1000.0 if back else float("nan"),
                     max(back) / 1000.0 if back else float("nan"), summary.get(name, "")))
        if name not in firsts:
            continue
        col = firsts.index(name)
        t0 = samples[0][0]
        ax[0][col].plot([(x[0] - t0) / 1000.0 for x in samples if x[1] is not None], [b / 1000.0 for b in back])
        ax[0][col].set_title(name + ": RED backlog (KB)")
        ax[0][col].axhline(15, ls=":", c="grey")
        ax[0][col].axhline(45, ls=":", c="grey")
        ax[0][col].set_xlabel("s from the first flow")
        for k in range(rows[-1][1]):
            ax[1][col].plot([t / 1000.0 for t, _ in wins], [v[k] for _, v in wins], label="QP %d" % (k + 1))
        ax[1][col].set_title("%s: Mb/s per QP, %d ms windows" % (name, WIN_MS))
        ax[1][col].set_xlabel("s from the last flow's start")
        ax[1][col].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(outdir + "/rdma-dcqcn.png", dpi=80)
    with open(outdir + "/rdma-dcqcn.txt", "w") as f:
        f.write("run          QPs  shared s  Jain 1st s  fair (>= 0.95) from s  "
                "Jain min after 1 s  backlog mean/max KB\n")
        for r in rows:
            f.write("%-12s %3d  %8.1f  %10.3f  %21s  %18.3f  %7.1f / %.1f\n" % (
                r[0], r[1], r[2], r[3], "%.2f" % r[4] if r[4] is not None else "never",
                r[5], r[6], r[7]))
        f.write("(windows of >= %d ms; Jain 1st s: the first window of >= 1 s)\n" % WIN_MS)
        for r in rows:
            f.write("%s: %s\n" % (r[0], r[8]))
    sys.stdout.write(open(outdir + "/rdma-dcqcn.txt").read())


if __name__ == "__main__":
    main()
