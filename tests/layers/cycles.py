#!/usr/bin/python3
"""No circle of calls spans more than two files.

cycles.py GROUP=OBJ[:OBJ...]...: from each object file's defined and
undefined symbols (nm), file A depends on file B when A uses a symbol B
defines.  A circle (A -> B -> ... -> A) through more than two files is a
floor plan gone wrong: the files cannot be read, tested or moved apart.
Two files calling each other (a kind and its schema) are allowed.
Prints each circle with the calls that make it; exits 1 when there is
one, 0 with a count when there is none."""
import collections
import os
import re
import subprocess
import sys


def objects(args):
    for arg in args:
        group, _, objs = arg.partition("=")
        for o in filter(None, objs.split(":")):
            src = re.sub(r"\.o(bj)?$", "", os.path.basename(o))
            yield f"{group}/{src}", o


def main():
    names = dict((o, n) for n, o in objects(sys.argv[1:]))
    defs = {n: set() for n in names.values()}
    uses = {n: set() for n in names.values()}
    # One nm for all: "OBJ:VALUE TYPE NAME" or "OBJ:    U NAME".
    out = subprocess.run(["nm", "-A", *names], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        f = rest.split()
        if obj not in names:
            continue
        if len(f) == 3 and f[1] in "TDBRV":
            defs[names[obj]].add(f[2])
        elif len(f) == 2 and f[0] == "U":
            uses[names[obj]].add(f[1])
    owner = {s: f for f, d in defs.items() for s in d}
    graph = collections.defaultdict(set)
    for f, u in uses.items():
        graph[f].update(owner[s] for s in u if s in owner and owner[s] != f)

    # Tarjan's strongly connected components, iteratively.
    index, low, stack, on, comps = {}, {}, [], set(), []
    for root in sorted(defs):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    comps.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    bad = [c for c in comps if len(c) > 2]
    for c in bad:
        print(f"a circle of {len(c)} files:")
        for f in c:
            print(f"  {f} -> {', '.join(g for g in sorted(graph[f]) if g in c)}")
    if bad:
        return 1
    print(f"ok: no circle of calls spans more than two of {len(defs)} files")
    return 0


sys.exit(main())
