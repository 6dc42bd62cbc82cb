#!/usr/bin/python3
"""The JSON Schema and the loader agree.

Every scenarios/*.yaml and tests/schema/valid/*.yaml must validate against
schemas/rdmascn.schema.json; every tests/schema/invalid/*.yaml must not.
The files here must also pass `rdmascn validate` (valid) or fail it with
exit 2 (invalid).

Usage: validates.py RDMASCN SOURCE_DIR
Needs Debian's python3-jsonschema and python3-yaml (run with /usr/bin/python3).
"""
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit("FAIL: %s: install python3-jsonschema and python3-yaml, and "
             "run this with /usr/bin/python3" % e)


def main():
    rdmascn, src = sys.argv[1], sys.argv[2]
    here = os.path.join(src, "tests", "schema")
    with open(os.path.join(src, "schemas", "rdmascn.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator = cls(schema)

    valid = sorted(glob.glob(os.path.join(src, "scenarios", "*.yaml")))
    ours = sorted(glob.glob(os.path.join(here, "valid", "*.yaml")))
    invalid = sorted(glob.glob(os.path.join(here, "invalid", "*.yaml")))
    if len(ours) < 4 or len(invalid) < 4:
        sys.exit("FAIL: tests/schema/valid and invalid are missing files")
    fails = 0

    def load(path):
        with open(path) as f:
            return yaml.safe_load(f)

    for path in valid + ours:
        errors = sorted(validator.iter_errors(load(path)),
                        key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path)
            print("FAIL: %s: schema: at /%s: %s" % (path, where,
                                                    e.message[:300]))
        if errors:
            fails += 1
    for path in invalid:
        errors = list(validator.iter_errors(load(path)))
        if not errors:
            print("FAIL: %s: the schema accepts it" % path)
            fails += 1
        elif len(errors) > 1:
            # one mistake per file, so each shows the one thing it is for
            print("FAIL: %s: %d errors, want 1: %s" % (
                path, len(errors), "; ".join(e.message[:80] for e in errors)))
            fails += 1
        else:
            print("ok: %s: schema rejects it: %s" % (
                os.path.basename(path), errors[0].message[:120]))

    for path in ours + invalid:
        want = 0 if path in ours else 2
        r = subprocess.run([rdmascn, "validate", path], capture_output=True,
                           text=True)
        if r.returncode != want:
            print("FAIL: rdmascn validate %s: exit %d, want %d\n%s" % (
                path, r.returncode, want, r.stderr))
            fails += 1

    print("%d valid, %d invalid documents; %d failures" % (
        len(valid + ours), len(invalid), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
