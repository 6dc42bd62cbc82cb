#!/usr/bin/python3
"""Check JUnit XML written by `rdmascn run --junit` against the XSD and
against the run record of the same invocation, reading it back as CI does
(junitparser: GitLab and Jenkins take suite, classname, name and time):

    check.py XSD JUNIT.xml RECORD.json
    check.py XSD LIST          (lines "JUNIT.xml RECORD.json")

- xmllint validates it against the XSD;
- one testsuite per cell of the record (a matrix document has cells);
- each suite: "set-up" first, a testcase per step result and per planned
  step not run, "teardown" last; names are step ids (or "step N (type)"),
  unique in the suite; classname is the scenario file and the cell;
- across nodes (a record with "node"): those of the leader's record, then
  of each record in "node_runs", each node's classname ending in
  "@NODE", names unique per classname, and a property "node.NAME" per
  node;
- the suite's tests/failures/errors/skipped counts are its testcases';
- a failed or errored step's message is the step's FILE:LINE:COL and its
  message; a step not run is skipped; a passed step has no result element;
- an invalid run's set-up is an error whose message is the record's;
- a step's gates (held or not) are its testcase's system-out, a line
  "gate ..." each, naming the figure, in the record's order; the run's
  gates (the record's "gates") a testcase "run gates" (no id has a
  space) before "teardown",
  failed when one missed;
- system-out holds the human report.
Prints nothing and exits 0 when all hold; else says which and exits 1.
"""
import json
import subprocess
import sys

import junitparser


def step_name(no, typ, sid):
    return sid if sid else "step %s (%s)" % (no, typ)


def expected_cases(rec):
    """(name, result) for each testcase, result in passed/failure/error/
    skipped."""
    if rec.get("verdict") == "not run":  # a matrix cell never reached
        return [("cell", "skipped")]
    cases = [("set-up", None)]
    ran = set()
    for s in rec.get("steps", []):
        ran.add(s["no"])
        res = {"passed": None, "failed": "failure",
               "not run": "skipped",
               "skipped": "skipped"}.get(s["outcome"], "error")
        cases.append((step_name(s["no"], s["type"], s.get("id")), res))
    for p in rec.get("plan_steps", []):
        if p["no"] not in ran:
            cases.append((step_name(p["no"], p["type"], p.get("id")),
                          "skipped"))
    if "gates" in rec:
        missed = any(not g.get("passed") and not g.get("skipped")
                     for g in rec["gates"])
        cases.append(("run gates", "failure" if missed else None))
    cases.append(("teardown", None))
    return cases


def node_records(rec):
    """The records whose testcases a suite holds, each with its
    classname suffix."""
    if "node" not in rec:
        return [(rec, "")]
    return [(r, "@" + r["node"]["name"])
            for r in [rec] + rec.get("node_runs", [])]


def check_suite(suite, rec, errs):
    where = "suite %r" % suite.name
    cell = (rec.get("cell") or {}).get("name")
    base = rec["scenario"]["file"] + ("[%s]" % cell if cell else "")
    want = []
    for r, at in node_records(rec):
        want += [(n, res, base + at, r) for n, res in expected_cases(r)]
    got = list(suite)
    names = [c.name for c in got]
    if [n for n, _, _, _ in want] != names:
        errs.append("%s: testcases %s, want %s" %
                    (where, names, [n for n, _, _, _ in want]))
        return
    keys = [(c.classname, c.name) for c in got]
    if len(set(keys)) != len(keys):
        errs.append("%s: duplicate testcase names %s" % (where, names))
    if "node" in rec:
        props = {p.name: p.value for p in suite.properties()}
        for r, _ in node_records(rec):
            if "node." + r["node"]["name"] not in props:
                errs.append("%s: no property node.%s" %
                            (where, r["node"]["name"]))
    counts = {"failure": 0, "error": 0, "skipped": 0}
    for case, (name, res, classname, nrec) in zip(got, want):
        steps = {step_name(s["no"], s["type"], s.get("id")): s
                 for s in nrec.get("steps", [])}
        if case.classname != classname:
            errs.append("%s: %s: classname %r, want %r" %
                        (where, name, case.classname, classname))
        results = case.result
        kinds = [r._tag for r in results]
        if name in ("set-up", "teardown"):
            # Their results come from the run's verdict, objects, leaks.
            for k in kinds:
                counts[k] = counts.get(k, 0) + 1
            # An invalid run (a matrix cell that did not load) is an
            # error of its set-up, with its located message: a suite
            # without one would be green in CI.
            if (name == "set-up" and nrec.get("verdict") == "invalid" and
                    (kinds != ["error"] or
                     results[0].message != nrec.get("message"))):
                errs.append("%s: set-up of an invalid run: %s %r, want "
                            "an error %r" % (where, kinds,
                                             results[0].message
                                             if results else None,
                                             nrec.get("message")))
            continue
        if kinds != ([res] if res else []):
            errs.append("%s: %s: %s, want %s" % (where, name, kinds, res))
            continue
        if res:
            counts[res] += 1
        s = steps.get(name)
        gates = (s or {}).get("gates", [])
        if name == "run gates" and "gates" in nrec:
            gates = nrec["gates"]
        so = case._elem.find("system-out")
        lines = (so.text or "").splitlines() if so is not None else []
        if len(lines) != len(gates) or not all(
                ln.startswith("gate ") and g["figure"] in ln and
                ln.endswith("held" if g.get("passed") else
                            "skipped" if g.get("skipped") else "missed")
                for ln, g in zip(lines, gates)):
            errs.append("%s: %s: system-out %r for gates %r" %
                        (where, name, lines,
                         [g["figure"] for g in gates]))
        if res in ("failure", "error") and s:
            loc = "%s:%d:%d: " % (s["file"], s["line"], s["col"])
            msg = results[0].message or ""
            if not msg.startswith(loc) or s.get("message", "") not in msg:
                errs.append("%s: %s: message %r, want %r+%r" %
                            (where, name, msg, loc, s.get("message")))
    for attr, key in (("failures", "failure"), ("errors", "error"),
                      ("skipped", "skipped")):
        if int(getattr(suite, attr)) != counts[key]:
            errs.append("%s: %s=%s, its testcases have %d" %
                        (where, attr, getattr(suite, attr), counts[key]))
    if int(suite.tests) != len(got):
        errs.append("%s: tests=%s for %d testcases" %
                    (where, suite.tests, len(got)))
    node = suite._elem.find("system-out")
    out = node.text if node is not None and node.text else ""
    if rec["scenario"]["file"] not in out:
        errs.append("%s: system-out lacks the human report: %r" %
                    (where, out[:200]))


def check(xsd, xml, record):
    errs = []
    p = subprocess.run(["xmllint", "--noout", "--schema", xsd, xml],
                       capture_output=True, text=True)
    if p.returncode:
        return ["xmllint: " + p.stderr.strip()]
    doc = json.load(open(record))
    cells = doc["cells"] if "cells" in doc else [doc]
    suites = list(junitparser.JUnitXml.fromfile(xml))
    if len(suites) != len(cells):
        return ["%d testsuites for %d cells" % (len(suites), len(cells))]
    for suite, rec in zip(suites, cells):
        check_suite(suite, rec, errs)
    return errs


def main():
    xsd = sys.argv[1]
    if len(sys.argv) == 4:
        pairs = [(sys.argv[2], sys.argv[3])]
    else:
        pairs = [tuple(line.split()[:2]) for line in open(sys.argv[2])
                 if line.strip()]
    bad = 0
    for xml, record in pairs:
        for e in check(xsd, xml, record):
            print("%s: %s" % (xml, e))
            bad = 1
    sys.exit(bad)


main()
