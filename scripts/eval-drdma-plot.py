#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The runs of tests/selftests/eval-drdma.sh (a guest's KTAP log) as
Documentation/results/drdma.{png,txt}.

usage: eval-drdma-plot.py KTAP OUTDIR

For each loss rate L (= failed-registration probability), over its runs
(median, min..max): the mean time of a 128 KiB write per arm (direct,
dynamic, control = direct again); the change of dynamic, and of control,
against direct (the control's: what two identical arms differ by); the
mean time to the data's start per arm and the change it alone makes to
the direct arm's time ((start direct - start dynamic) / time direct);
transfers that went indirect; the seed's figure (Fig. 6).
"""
import re
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

SEED = {1: -1.9, 5: -4.9, 10: -8.8}
LINE = re.compile(r"^[# ]*drdma (\d+) (\d+) (direct|dynamic|control) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$")
ARMS = ("direct", "dynamic", "control")


def mrange(xs, fmt):
    return (fmt + " (" + fmt + ".." + fmt + ")") % (statistics.median(xs), min(xs), max(xs))


def main(ktap, outdir):
    runs = {}
    for line in open(ktap):
        m = LINE.match(line.strip())
        if m:
            l, r, arm, n, mean, med, p90, ind, start = m.groups()
            runs.setdefault(int(l), {}).setdefault(int(r), {})[arm] = {
                "n": int(n), "mean": int(mean) / 1000, "ind": int(ind), "start": int(start) / 1000}
    if not runs:
        sys.exit("eval-drdma-plot: no drdma lines in " + ktap)
    out, plot = [], []
    for l in sorted(runs):
        rs = [v for v in runs[l].values() if all(a in v for a in ARMS)]
        tot = {a: [v[a]["mean"] for v in rs] for a in ARMS}
        st = {a: [v[a]["start"] for v in rs] for a in ARMS}
        dyn = [100 * (v["dynamic"]["mean"] / v["direct"]["mean"] - 1) for v in rs]
        ctl = [100 * (v["control"]["mean"] / v["direct"]["mean"] - 1) for v in rs]
        fst = [100 * (v["dynamic"]["start"] - v["direct"]["start"]) / v["direct"]["mean"] for v in rs]
        ind = sum(v["dynamic"]["ind"] for v in rs)
        n = sum(v["dynamic"]["n"] for v in rs)
        out.append("L = F = %d %%: %d runs x %d writes per arm; seed: %+.1f %%" % (
            l, len(rs), rs[0]["direct"]["n"], SEED[l]))
        out.append("  mean time, ms      direct %s  dynamic %s  control %s" % (
            mrange(tot["direct"], "%.1f"), mrange(tot["dynamic"], "%.1f"),
            mrange(tot["control"], "%.1f")))
        out.append("  vs direct          dynamic %s %%  control %s %%" % (
            mrange(dyn, "%+.1f"), mrange(ctl, "%+.1f")))
        out.append("  data starts, ms    direct %s  dynamic %s  control %s" % (
            mrange(st["direct"], "%.2f"), mrange(st["dynamic"], "%.2f"),
            mrange(st["control"], "%.2f")))
        out.append("  from the start     dynamic %s %%;  indirect %d/%d" % (
            mrange(fst, "%+.1f"), ind, n))
        plot.append((l, dyn, ctl, fst))
    with open(outdir + "/drdma.txt", "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))

    fig, ax = plt.subplots(figsize=(6, 3.4))
    xs = list(range(len(plot)))
    series = [("dynamic vs direct, time", 1), ("control vs direct, time", 2),
              ("dynamic vs direct, data start only", 3)]
    for k, (label, i) in enumerate(series):
        med = [statistics.median(p[i]) for p in plot]
        err = [[m - min(p[i]) for m, p in zip(med, plot)], [max(p[i]) - m for m, p in zip(med, plot)]]
        ax.bar([x - 0.3 + 0.2 * k for x in xs], med, 0.2, yerr=err, capsize=2, label=label)
    ax.bar([x + 0.3 for x in xs], [SEED[p[0]] for p in plot], 0.2, label="seed 003, Fig. 6")
    ax.set_xticks(xs)
    ax.set_xticklabels(["%d %%" % p[0] for p in plot])
    ax.set_xlabel("frame loss = failed registration probability")
    ax.set_ylabel("change of the mean time (%)")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(outdir + "/drdma.png", dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
