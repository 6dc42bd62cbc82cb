#!/usr/bin/python3
"""Check run records (rdmascn run --json FILE) against
schemas/rdmascn-run.schema.json and against what a record promises:

    run_record.py SCHEMA RECORD.json [EXIT_CODE]
    run_record.py SCHEMA LIST    (lines "RECORD.json:EXIT_CODE WHAT")

- it is valid under the schema;
- its exit code is the one given (the process's own);
- its verdict is the one the exit code means;
- teardown took down exactly what was created, in exact reverse;
- a passed run created every object (or saw its create fail as its
  expect: said) and passed every planned step (or skipped it by a known
  deviation, or by a gate's missing: skip);
- a matrix document: each cell's record keeps the promises above, each
  cell is named for its params, and the document's exit code is the
  worst of its cells' (invalid > could not run > failed > skipped >
  passed); a cell the matrix was interrupted before is "not run", and
  the matrix counts those in not_run (an explore document's exit code
  is the search's own);
- each call's fields are its args, value for value, and a call that
  failed says its errno.
Prints nothing and exits 0 when all hold; else says which and exits 1.
"""
import json
import sys

import jsonschema

VERDICT = {0: "passed", 1: "failed", 2: "invalid", 3: "could not run",
           77: "skipped"}


WORST = [0, 77, 1, 3, 2]


def check(v, path, rc):
    doc = json.load(open(path))
    errs = []
    for e in sorted(v.iter_errors(doc), key=str):
        errs.append("schema: %s: %s" % ("/".join(map(str, e.path)),
                                        e.message))
    if errs or "cells" not in doc:
        return errs + check_run(doc, rc)
    codes = []
    nrun = 0
    for i, rec in enumerate(doc["cells"]):
        cell = rec.get("cell", {})
        name = ",".join("%s=%s" % kv for kv in cell.get("params", {}).items())
        if cell.get("name") != name:
            errs.append("cell %d: name %r for params %r" %
                        (i + 1, cell.get("name"), name))
        if rec.get("verdict") == "not run":
            nrun += 1
            continue
        codes.append(rec.get("exit_code"))
        errs += ["cell %d: %s" % (i + 1, e) for e in check_run(rec, None)]
    if nrun and doc["exit_code"] < 128:
        errs.append("%d cells not run, but the matrix was not "
                    "interrupted (exit %s)" % (nrun, doc["exit_code"]))
    if doc["matrix"].get("not_run", 0) != nrun:
        errs.append("matrix says %s cells not run, has %d" %
                    (doc["matrix"].get("not_run"), nrun))
    if doc["matrix"]["cells"] != len(doc["cells"]):
        errs.append("matrix says %d cells, has %d" %
                    (doc["matrix"]["cells"], len(doc["cells"])))
    worst = max(codes, key=lambda c: WORST.index(c) if c in WORST else 9,
                default=0)
    # rdmascn explore's document: its exit code is the search's (0 when
    # it ran to its end, whatever its cells did; docs/explore.md).
    if (doc["exit_code"] != worst and doc["exit_code"] < 128 and
            "explore" not in doc["matrix"]):
        errs.append("exit_code %s, the worst cell's is %s" %
                    (doc["exit_code"], worst))
    return errs + check_run(doc, rc, verdict_only=True)


def check_run(rec, rc, verdict_only=False):
    errs = []
    if rc is not None and rec.get("exit_code") != rc:
        errs.append("exit_code %s, the process exited %s" %
                    (rec.get("exit_code"), rc))
    code = rec.get("exit_code")
    want = VERDICT.get(code, "interrupted" if code and code > 128 else None)
    if rec.get("verdict") != want:
        errs.append("verdict %r for exit code %s" % (rec.get("verdict"),
                                                      code))
    if verdict_only:
        return errs
    created = sorted((o for o in rec.get("objects", [])
                      if o.get("outcome") == "created"),
                     key=lambda o: o["no"])
    down = [t["id"] for t in rec.get("teardown", [])]
    if down != [o["id"] for o in reversed(created)]:
        errs.append("teardown %s is not the reverse of creation %s" %
                    (down, [o["id"] for o in created]))
    for c in rec.get("calls", []):
        text = " ".join("%s=%s" % kv for kv in c.get("fields", {}).items())
        if text != c.get("args"):
            errs.append("call %s: fields say %r, args %r" %
                        (c.get("name"), text, c.get("args")))
        if c.get("ok") is False and "errno" not in c:
            errs.append("call %s failed without an errno" % c.get("name"))
    if rec.get("verdict") == "passed":
        # expect: {create: fail}: a create that failed as it said is
        # its object's pass.
        bad = [o["id"] for o in rec["objects"]
               if o["outcome"] not in ("created", "failed as expected")]
        if bad:
            errs.append("passed, but not created: %s" % bad)
        got = len(rec["steps"])
        if got != len(rec["plan_steps"]) and not rec["dry_run"]:
            errs.append("passed with %d step results for %d steps" %
                        (got, len(rec["plan_steps"])))
        # Skipped by a known deviation, or by a gate whose counter the
        # device lacks (missing: skip): not a failure.
        failed = [s["no"] for s in rec["steps"]
                  if s["outcome"] != "passed" and
                  not (s["outcome"] == "skipped" and
                       ("deviation" in s or
                        any(g.get("skipped") for g in s.get("gates", []))))]
        if failed:
            errs.append("passed, but steps %s did not" % failed)
    return errs


def main():
    v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
    if sys.argv[2].endswith(".json"):
        runs = [(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3
                 else None, "")]
    else:
        runs = []
        for line in open(sys.argv[2]):
            head, _, what = line.rstrip("\n").partition(" ")
            path, _, rc = head.rpartition(":")
            runs.append((path, int(rc), what))
    bad = 0
    for path, rc, what in runs:
        errs = check(v, path, rc)
        for e in errs:
            print("%s%s: %s" % (path, " (" + what + ")" if what else "", e))
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
