#!/usr/bin/python3
"""The run-record schema's per-QP counters: a record of a real run (one
the replay test keeps) with what a run on a device that binds adds put
in validates; each way of getting them wrong does not.

    qp_counters.py SCHEMA RECORD
"""
import copy
import json
import sys

import jsonschema


def main():
    schema, record = sys.argv[1:3]
    base = json.load(open(record))
    v = jsonschema.Draft7Validator(json.load(open(schema)))
    assert base["steps"], "the record has no step to put figures on"
    if not v.is_valid(base):
        print("%s is not valid as it is" % record)
        return 1

    good = copy.deepcopy(base)
    good["qp_counters"] = {
        "mlx5_0/1": {"bound": {"a": 5, "b": 6},
                     "not_bound": {"x": "binding a counter needs "
                                   "CAP_NET_ADMIN (EPERM from "
                                   "RDMA_NLDEV_CMD_STAT_SET)"},
                     "unbind_failed": {"b": "No such file or directory "
                                       "(ENOENT from "
                                       "RDMA_NLDEV_CMD_STAT_DEL)"}},
        "rxe0/1": {"skipped": "the driver could not allocate a counter "
                   "(rxe and siw have no per-QP counters) (ENOMEM from "
                   "RDMA_NLDEV_CMD_STAT_SET)", "errno": "ENOMEM"},
    }
    good["steps"][0].setdefault("figures", {})["qp_counters"] = {
        "a": {"out_of_sequence": 3, "rx_write_requests": 2000}}
    good["leaks"] = {"checked": True, "count": 1, "pid": 7, "devices": 1,
                     "resources": [{"device": "mlx5_0", "kind": "counter",
                                    "pid": 7, "fields": {
                                        "cntn": 6, "port": 1, "qpn": 18,
                                        "qp": "b"}}]}
    errs = list(v.iter_errors(good))
    if errs:
        for e in errs:
            print("valid record refused: %s: %s" %
                  ("/".join(map(str, e.path)), e.message))
        return 1

    bad = {
        "a skip that is not a string":
            lambda r: r["qp_counters"]["rxe0/1"].update(skipped=95),
        "an unknown key of a port":
            lambda r: r["qp_counters"]["rxe0/1"].update(why="x"),
        "a counter id below 0":
            lambda r: r["qp_counters"]["mlx5_0/1"]["bound"].update(a=-1),
        "a delta that is not a count":
            lambda r: r["steps"][0]["figures"]["qp_counters"]["a"].update(
                out_of_sequence=1.5),
        "a QP's deltas that are not an object":
            lambda r: r["steps"][0]["figures"]["qp_counters"].update(a=3),
        "a leaked counter's unknown field":
            lambda r: r["leaks"]["resources"][0]["fields"].update(cnt=6),
    }
    n = 0
    for what, spoil in bad.items():
        r = copy.deepcopy(good)
        spoil(r)
        if v.is_valid(r):
            print("not refused: %s" % what)
            return 1
        n += 1
    print("ok: a record with qp_counters validates; %d wrong ones do not"
          % n)
    return 0


sys.exit(main())
