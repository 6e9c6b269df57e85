#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The flows of tests/selftests/eval-conweave.sh (a guest's KTAP log) as
Documentation/results/conweave.{png,txt}.

usage: eval-conweave-plot.py KTAP OUTDIR

Per message size and arm (ECMP, spraying, ConWeave): every message's
completion time pooled over the runs' flows (mean, median, p99, nearest
rank), the runs' own means and p99s (median, min..max), for ECMP which
path its flows took, and per flow the request packets on the congested
path, NAK sequence errors, retransmitted packets, reroutes, packets held
and holds the resume timer ended.
"""
import math
import re
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

LINE = re.compile(r"^[# ]*cw (\d+) (\d+) (\d+) (\d+) (ecmp|spray|conweave) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$")
FCT = re.compile(r"^[# ]*fct-us:((?: \d+)+)$")
ARMS = ("ecmp", "spray", "conweave")
NAMES = {"ecmp": "ECMP", "spray": "spraying", "conweave": "ConWeave"}


def pct(xs, p):
    xs = sorted(xs)
    return xs[max(0, math.ceil(p * len(xs)) - 1)]


def mrange(xs, fmt):
    return (fmt + " (" + fmt + ".." + fmt + ")") % (statistics.median(xs), min(xs), max(xs))


def main(ktap, outdir):
    # ((delay, cutoff, size), run, arm, p0 permil, nak, rtx, reroutes, held, resumed, [fct])
    flows = []
    last = None
    for line in open(ktap, errors="replace"):
        m = LINE.match(line.strip())
        if m:
            last = [(int(m.group(1)), int(m.group(2)), int(m.group(3))), int(m.group(4)),
                    m.group(5)] + [int(m.group(i)) for i in range(6, 13)]
            continue
        m = FCT.match(line.strip())
        if m and last:
            flows.append(last[:3] + last[4:] + [[int(x) for x in m.group(1).split()]])
            last = None
    if not flows:
        sys.exit("eval-conweave-plot: no flow in " + ktap)
    sizes = sorted({f[0] for f in flows})
    out = ["ConWeave on the guest's two-path bed: message completion times (us)",
           "(tests/selftests/eval-conweave.sh; p0 carries a standing delay D, p1",
           "none; ConWeave's RTT cutoff C; compare arms within a table, not",
           "absolute times)", ""]
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.5 * len(sizes), 4), squeeze=False)
    for ax, s in zip(axes[0], sizes):
        out.append("D = %g ms, C = %g ms: %d B messages" % (s[0] / 1000, s[1] / 1000, s[2]))
        out.append("%-9s %5s %8s %8s %8s  %-26s %-26s %s" %
                   ("arm", "msgs", "mean", "p50", "p99", "run means", "run p99s", "per flow"))
        bars = []
        for arm in ARMS:
            fl = [f for f in flows if f[0] == s and f[2] == arm]
            if not fl:
                continue
            allf = [x for f in fl for x in f[-1]]
            runs = sorted({f[1] for f in fl})
            rmeans = [statistics.mean([x for f in fl if f[1] == r for x in f[-1]]) for r in runs]
            rp99 = [pct([x for f in fl if f[1] == r for x in f[-1]], 0.99) for r in runs]
            on_p0 = sum(1 for f in fl if f[3] > 500)
            per = "on p0 %.0f %%, nak %.0f, rtx %.0f" % (
                statistics.mean(f[3] for f in fl) / 10, statistics.mean(f[4] for f in fl),
                statistics.mean(f[5] for f in fl))
            if arm == "ecmp":
                per += ", %d of %d flows hashed to p0" % (on_p0, len(fl))
            if arm == "conweave":
                per += ", reroutes %.1f, held %.1f, resumed %.1f" % (
                    statistics.mean(f[6] for f in fl), statistics.mean(f[7] for f in fl),
                    statistics.mean(f[8] for f in fl))
            out.append("%-9s %5d %8.0f %8.0f %8.0f  %-26s %-26s %s" %
                       (NAMES[arm], len(allf), statistics.mean(allf), pct(allf, 0.5),
                        pct(allf, 0.99), mrange(rmeans, "%.0f"), mrange(rp99, "%.0f"), per))
            bars.append((NAMES[arm], statistics.mean(allf), pct(allf, 0.99)))
            if arm == "ecmp":
                # What the hash draw weighs: each path's flows apart.
                for path, sel in (("p0", lambda f: f[3] > 500), ("p1", lambda f: f[3] <= 500)):
                    xs = [x for f in fl if sel(f) for x in f[-1]]
                    if xs:
                        out.append("  on %s    %5d %8.0f %8.0f %8.0f" %
                                   (path, len(xs), statistics.mean(xs), pct(xs, 0.5),
                                    pct(xs, 0.99)))
        base = {b[0]: b for b in bars}.get("ECMP")
        cw = {b[0]: b for b in bars}.get("ConWeave")
        if base and cw:
            out.append("ConWeave vs ECMP: mean %+.0f %%, p99 %+.0f %% (seed: p99 up to -42..-66 %%)" %
                       (100 * (cw[1] / base[1] - 1), 100 * (cw[2] / base[2] - 1)))
        out.append("")
        x = range(len(bars))
        ax.bar([i - 0.2 for i in x], [b[1] / 1000 for b in bars], 0.4, label="mean")
        ax.bar([i + 0.2 for i in x], [b[2] / 1000 for b in bars], 0.4, label="p99")
        ax.set_xticks(list(x))
        ax.set_xticklabels([b[0] for b in bars])
        ax.set_ylabel("message completion time (ms)")
        ax.set_title("D %g ms, C %g ms, %d KiB" % (s[0] / 1000, s[1] / 1000, s[2] // 1024))
        ax.legend()
    fig.tight_layout()
    fig.savefig(outdir + "/conweave.png", dpi=100)
    open(outdir + "/conweave.txt", "w").write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
