#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tree's layout, checked (suite "layout", TAP on stdout).

1. The folder-level include graph has no cycle: every quoted #include (and
   the tree's own <linux/tonic*.h>, <uapi/...>, <trace/events/tonic.h>) is
   resolved as the compilers do (the including file's folder, then the
   -I folders: include/, include/uapi/, tonic-core/), and an edge A -> B is
   kept for files in different folders.  Imports must flow one way
   (glue -> driver -> tonic-core; admin surfaces register callbacks).
2. Imports flow down the layers: tonic-core (and include/) at the bottom,
   then driver/, the admin surface (admin/), the glues, the module's
   entry point; userspace tools on top.  No folder includes one of a
   higher layer (the device layer never calls up: admin registers hooks).
3. The README's layout table names only paths that exist, and every
   top-level folder of the tree (as git tracks it) is in it.
4. Documentation/core.rst's table of the engine's files names exactly the
   .c files of tonic-core/.
`layout.py --dot` prints the graph for Graphviz instead.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC_DIRS = ["tonic-core", "driver", "sock-glue", "admin", "rdma-glue", "drdma", "include",
            "userspace-tools", "."]
LAYER = {"tonic-core": 0, "include": 0, "driver": 1, "admin": 2, "sock-glue": 3,
         "rdma-glue": 3, "drdma": 3, ".": 4, "userspace-tools": 4}
IDIRS = ["include", "include/uapi", "tonic-core"]
INC = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def tracked():
    out = subprocess.run(["git", "-C", TOP, "ls-files"], capture_output=True, text=True)
    if out.returncode:
        # Not a git checkout (a release tarball): walk the tree.
        files = []
        for d, subs, names in os.walk(TOP):
            subs[:] = [s for s in subs if s not in ("build", ".git")]
            files += [os.path.relpath(os.path.join(d, n), TOP) for n in names]
        return files
    return out.stdout.split()


def sources(files):
    for f in files:
        if not f.endswith((".c", ".h")):
            continue
        top = f.split("/")[0] if "/" in f else "."
        if top in SRC_DIRS:
            yield f


def resolve(f, kind, name, present):
    cands = []
    if kind == '"':
        cands.append(os.path.normpath(os.path.join(os.path.dirname(f), name)))
    cands += [os.path.normpath(os.path.join(d, name)) for d in IDIRS]
    for c in cands:
        if c in present:
            return c
    return None


def graph(files):
    present = set(files)
    edges = {}
    for f in sources(files):
        with open(os.path.join(TOP, f), errors="replace") as fh:
            for line in fh:
                m = INC.match(line)
                if not m:
                    continue
                tgt = resolve(f, m.group(1), m.group(2), present)
                if not tgt:
                    continue
                a, b = os.path.dirname(f) or ".", os.path.dirname(tgt) or "."
                if a != b:
                    edges.setdefault((a, b), []).append(f"{f} -> {tgt}")
    return edges


def cycles(edges):
    """Strongly connected components with more than one folder (Tarjan)."""
    adj = {}
    for a, b in edges:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set())
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(adj):
        if v not in index:
            visit(v)
    return out


def readme_paths():
    with open(os.path.join(TOP, "README.md")) as fh:
        text = fh.read()
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    paths = []
    for row in table.splitlines():
        if not row.startswith("| `"):
            continue
        cell = row.split("|")[1]
        paths += re.findall(r"`([^`]+)`", cell)
    return paths


def core_doc_files():
    """The files of core.rst's "Files" table."""
    with open(os.path.join(TOP, "Documentation/core.rst")) as fh:
        text = fh.read()
    lines = text.split("\nFiles\n=====\n", 1)[1].splitlines()
    rules = [i for i, ln in enumerate(lines) if ln.startswith("====")][:2]
    return re.findall(r"^``([^`]+)``", "\n".join(lines[rules[0]:rules[1]]), re.M)


def main():
    files = tracked()
    edges = graph(files)
    if "--dot" in sys.argv:
        print("digraph include {")
        for (a, b), why in sorted(edges.items()):
            print(f'  "{a}" -> "{b}" [label="{len(why)}"];')
        print("}")
        return 0
    checks = []
    cyc = cycles(edges)
    detail = []
    for comp in cyc:
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                detail.append(f"{a} -> {b}: {why[0]}" + (f" (+{len(why) - 1})" if len(why) > 1 else ""))
    checks.append(("no include cycle between folders (%d folders, %d edges)"
                   % (len({x for e in edges for x in e}), len(edges)), not cyc, detail))
    def layer(d):
        return LAYER[d.split("/")[0]]
    up = [f"{a} -> {b}: {why[0]}" for (a, b), why in sorted(edges.items())
          if layer(a) < layer(b)]
    checks.append(("no folder includes one of a higher layer (tonic-core < driver < admin "
                   "< sock-glue, rdma-glue)", not up, up))
    paths = readme_paths()
    missing = [p for p in paths if not os.path.exists(os.path.join(TOP, p.rstrip("/")))]
    checks.append(("every path in the README layout table exists (%d)" % len(paths),
                   not missing, missing))
    named = {p.rstrip("/").split("/")[0] for p in paths}
    tops = sorted({f.split("/")[0] for f in files if "/" in f and not f.startswith(".")})
    unlisted = [t for t in tops if t not in named]
    checks.append(("every top-level folder is in the README layout table (%d)" % len(tops),
                   not unlisted, unlisted))
    # The engine's files, as a newcomer first meets them: core.rst names
    # each by what it does, and no other.
    core = sorted(os.path.basename(f) for f in files
                  if re.fullmatch(r"tonic-core/[^/]+\.c", f))
    doc = core_doc_files()
    diff = ([f"{f}: not in core.rst" for f in core if f not in doc] +
            [f"{f}: in core.rst, not in tonic-core/" for f in doc if f not in core])
    checks.append(("Documentation/core.rst lists exactly the files of tonic-core/ (%d)" % len(core),
                   not diff, diff))
    fails = 0
    for i, (name, ok, why) in enumerate(checks, 1):
        print(("ok %d - %s" if ok else "not ok %d - %s") % (i, name))
        for w in why if not ok else []:
            print("#   " + w)
        fails += not ok
    print("1..%d" % len(checks))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
