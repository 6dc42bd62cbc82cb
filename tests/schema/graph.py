#!/usr/bin/python3
"""`rdmascn graph` of each tests/schema/valid/*.yaml.

The output is a digraph, the same on every run, accepted by `dot -Tsvg`
(when graphviz is installed), with a node for every object and step, a
cluster for every context, and for every reference a labelled edge from
the object to what it names.  References are found from the YAML itself:
a field (not `id`) whose value, or an item of whose list value, is a
declared id.

Usage: graph.py RDMASCN SOURCE_DIR
Needs Debian's python3-yaml (run with /usr/bin/python3).
"""
import glob
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError as e:
    sys.exit("FAIL: %s: install python3-yaml and run this with "
             "/usr/bin/python3" % e)

QSTR = r'"((?:[^"\\]|\\.)*)"'
NODE = re.compile(r'^\t+' + QSTR + r' \[label=' + QSTR + r'\];$')
EDGE = re.compile(r'^\t' + QSTR + ' -> ' + QSTR + r'(?: \[(.*)\])?;$')
LABEL = re.compile(r'label=' + QSTR)
TOP = ("scenario", "description", "params", "matrix", "requires", "steps")


def unq(s):
    return s.replace('\\"', '"')


def defaults(doc):
    out = {}
    for name, v in (doc.get("params") or {}).items():
        v = v.get("default") if isinstance(v, dict) else v
        out[name] = "" if v is None else str(v)
    return out


def subst(v, params):
    if isinstance(v, str):
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}",
                      lambda m: params[m.group(1)], v)
    if isinstance(v, list):
        return [subst(x, params) for x in v]
    return v


def declared(doc):
    """(objects, steps): lists of (id or the loader's name, mapping, kind)."""
    objs, steps = [], []
    for key, items in doc.items():
        if key not in TOP:
            objs += [(o["id"], o, key) for o in items]

    def walk(entries):
        for e in entries or []:
            ((kind, body),) = e.items()
            # the loader's name for a step without an id, numbered as here
            steps.append((body.get("id") or "step %d (%s)" % (
                len(steps) + 1, kind), body, kind))
            if kind == "parallel":
                walk(body.get("steps"))
    walk(doc.get("steps"))
    return objs, steps


def check(rdmascn, path):
    fails = []
    runs = [subprocess.run([rdmascn, "graph", path], capture_output=True)
            for _ in range(2)]
    if runs[0].returncode:
        return ["exit %d: %s" % (runs[0].returncode, runs[0].stderr)]
    if runs[0].stdout != runs[1].stdout:
        fails.append("two runs differ")
    text = runs[0].stdout.decode()
    if not text.startswith("digraph"):
        fails.append("does not start with 'digraph'")
    if shutil.which("dot"):
        r = subprocess.run(["dot", "-Tsvg"], input=runs[0].stdout,
                           capture_output=True)
        if r.returncode:
            fails.append("dot -Tsvg: %s" % r.stderr.decode().strip())

    nodes, edges, clusters = set(), set(), set()
    for line in text.splitlines():
        m = NODE.match(line)
        if m:
            nodes.add(unq(m.group(1)))
            continue
        m = EDGE.match(line)
        if m:
            lab = LABEL.search(m.group(3) or "")
            edges.add((unq(m.group(1)), unq(m.group(2)),
                       unq(lab.group(1)) if lab else None))
            continue
        m = re.match(r'^\tsubgraph (cluster_\w+) \{$', line)
        if m:
            clusters.add(m.group(1))

    with open(path) as f:
        doc = yaml.safe_load(f)
    params = defaults(doc)
    objs, steps = declared(doc)
    ids = {i for i, _, _ in objs + steps}
    if len(nodes) != len(objs) + len(steps):
        fails.append("%d nodes, want %d objects and steps" % (
            len(nodes), len(objs) + len(steps)))
    for i in sorted(ids - nodes):
        fails.append("no node for %r" % i)
    for i, _, kind in objs:
        if kind == "contexts" and "cluster_" + i not in clusters:
            fails.append("no cluster for context '%s'" % i)
    for a, b, _ in edges:
        if a not in nodes or b not in nodes:
            fails.append("edge %s -> %s: not between nodes" % (a, b))
    for i, body, _ in objs + steps:
        for field, v in body.items():
            if field == "id":
                continue
            v = subst(v, params)
            for t in v if isinstance(v, list) else [v]:
                if isinstance(t, str) and t in ids and \
                   (i, t, field) not in edges:
                    fails.append("no edge %s -> %s labelled %s" % (i, t,
                                                                   field))
    return fails


def main():
    rdmascn, src = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(src, "tests", "schema", "valid",
                                          "*.yaml")))
    if not files:
        sys.exit("FAIL: no tests/schema/valid/*.yaml")
    if not shutil.which("dot"):
        print("note: no graphviz 'dot': not rendering, structure only")
    bad = 0
    for path in files:
        fails = check(rdmascn, path)
        for f in fails:
            print("FAIL: %s: %s" % (path, f))
        if fails:
            bad += 1
        else:
            print("ok: %s" % os.path.basename(path))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
