#!/usr/bin/python3
"""The run-record schema's `figures` is the engine's figure table.

figures.py RDMASCN SCHEMA [--write]: compare what `rdmascn schema
--figures` prints with SCHEMA's definitions.run...steps.items.figures;
--write puts it there instead (after a row was added to figures.h)."""
import json
import subprocess
import sys


def main():
    rdmascn, path = sys.argv[1], sys.argv[2]
    write = "--write" in sys.argv[3:]
    made = json.loads(subprocess.run([rdmascn, "schema", "--figures"],
                                     check=True, capture_output=True,
                                     text=True).stdout)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    step = doc["definitions"]["run"]["properties"]["steps"]["items"]
    have = step["properties"]["figures"]
    if write:
        step["properties"]["figures"] = made
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return 0
    if have != made:
        for g in sorted(set(have["properties"]) | set(made["properties"])):
            a = have["properties"].get(g)
            b = made["properties"].get(g)
            if a != b:
                print(f"figures.{g}: the schema has {json.dumps(a)}\n"
                      f"  the figure table makes {json.dumps(b)}")
        print(f"{path} drifted from engine/scenario/figures.h: run "
              f"{sys.argv[0]} {rdmascn} {path} --write")
        return 1
    groups = sorted(made["properties"])
    print(f"ok: figures {', '.join(groups)} as the table says")
    return 0


sys.exit(main())
