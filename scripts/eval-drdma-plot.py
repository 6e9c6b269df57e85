#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The runs of tests/selftests/eval-drdma.sh (a guest's KTAP log) as
Documentation/results/drdma.{png,txt}.

usage: eval-drdma-plot.py KTAP OUTDIR

For each loss rate L (= failed-registration probability): the mean time of
a 128 KiB write per policy (the median over runs, min..max), the dynamic
policy's change against the direct one in each run (median, min..max),
transfers that went indirect, and the seed's figure (Fig. 6).
"""
import re
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

SEED = {1: -1.9, 5: -4.9, 10: -8.8}
LINE = re.compile(r"^[# ]*drdma (\d+) (\d+) (direct|dynamic) (\d+) (\d+) (\d+) (\d+) (\d+)$")


def main(ktap, outdir):
    runs = {}
    for line in open(ktap):
        m = LINE.match(line.strip())
        if m:
            l, r, pol, n, mean, med, p90, ind = m.groups()
            runs.setdefault(int(l), {}).setdefault(int(r), {})[pol] = (
                int(n), int(mean), int(med), int(p90), int(ind))
    if not runs:
        sys.exit("eval-drdma-plot: no drdma lines in " + ktap)
    rows, hdr = [], ("L = FRP  runs x writes  direct mean ms  dynamic mean ms"
                     "  dynamic vs direct (median, range)  indirect  seed")
    plot = []
    for l in sorted(runs):
        rs = [v for v in runs[l].values() if "direct" in v and "dynamic" in v]
        d = [v["direct"][1] / 1000 for v in rs]
        y = [v["dynamic"][1] / 1000 for v in rs]
        ch = [100 * (b / a - 1) for a, b in zip(d, y)]
        ind = sum(v["dynamic"][4] for v in rs)
        n = sum(v["dynamic"][0] for v in rs)
        rows.append("%5d %%   %2d x %-4d      %6.1f (%.1f..%.1f)  %6.1f (%.1f..%.1f)"
                    "   %+5.1f %% (%+.1f..%+.1f)      %4d/%d   %+.1f %%" % (
                        l, len(rs), rs[0]["direct"][0], statistics.median(d), min(d), max(d),
                        statistics.median(y), min(y), max(y), statistics.median(ch),
                        min(ch), max(ch), ind, n, SEED[l]))
        plot.append((l, statistics.median(ch), min(ch), max(ch)))
    with open(outdir + "/drdma.txt", "w") as f:
        f.write(hdr + "\n" + "\n".join(rows) + "\n")
    print(hdr)
    print("\n".join(rows))

    fig, ax = plt.subplots(figsize=(5, 3.2))
    xs = range(len(plot))
    ax.bar([x - 0.2 for x in xs], [p[1] for p in plot], 0.4, label="measured (median of runs)",
           yerr=[[p[1] - p[2] for p in plot], [p[3] - p[1] for p in plot]], capsize=3)
    ax.bar([x + 0.2 for x in xs], [SEED[p[0]] for p in plot], 0.4, label="seed 003, Fig. 6")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(["%d %%" % p[0] for p in plot])
    ax.set_xlabel("frame loss = failed registration probability")
    ax.set_ylabel("dynamic vs direct, mean time (%)")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(outdir + "/drdma.png", dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
