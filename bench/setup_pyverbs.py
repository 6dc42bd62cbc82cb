#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""setup_pyverbs.py N [DEVICE]: bench/setup.yaml's workload in pyverbs
(Debian's python3-pyverbs), for bench/setup.sh: the verbs calls of
bench/setup_c.c in the same order with the same attributes.  N x (a CQ of
16, a 4 KiB MR, an RC QP) on one PD, QP a[i] paired with b[i] and both
moved RESET -> INIT -> RTR -> RTS, then all closed in the reverse order
of creation.  Prints "create_ms C connect_ms K teardown_ms T".
"""
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context, get_device_list
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr


def pick_gid(ctx, port):
    """The GID rdmascn picks: RoCE v2 with an IPv4-mapped address first."""
    best, score = -1, 0
    for ent in ctx.query_gid_table(256):
        if ent.port_num != port:
            continue
        if ent.gid_type == e.IBV_GID_TYPE_ROCE_V2:
            s = 3 if ent.gid_str().startswith('::ffff:') else 2
        else:
            s = 1
        if s > score:
            best, score = ent.gid_index, s
    return best


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    want = sys.argv[2] if len(sys.argv) > 2 else None
    half = n // 2
    ms = lambda: time.monotonic() * 1e3

    t0 = ms()
    ctx = None
    for dev in get_device_list():
        name = dev.name.decode()
        if want and name != want:
            continue
        ctx = Context(name=name)
        port = ctx.query_port(1)
        if port.state == e.IBV_PORT_ACTIVE:
            break
        ctx.close()
        ctx = None
    if ctx is None:
        sys.exit('setup_pyverbs: no device with an active port 1')
    gid_index = -1
    if port.link_layer == e.IBV_LINK_LAYER_ETHERNET:
        gid_index = pick_gid(ctx, 1)
    gid = ctx.query_gid(1, gid_index) if gid_index >= 0 else None
    pd = PD(ctx)
    access = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE
    mrs = [MR(pd, 4096, access) for _ in range(n)]
    cqs = [CQ(ctx, 16, None, None, 0) for _ in range(n)]
    cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                max_recv_sge=1)
    qps = [QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))
           for cq in cqs]
    t1 = ms()
    init_mask = (e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT |
                 e.IBV_QP_ACCESS_FLAGS)
    rtr_mask = (e.IBV_QP_STATE | e.IBV_QP_AV | e.IBV_QP_PATH_MTU |
                e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN |
                e.IBV_QP_MAX_DEST_RD_ATOMIC | e.IBV_QP_MIN_RNR_TIMER)
    rts_mask = (e.IBV_QP_STATE | e.IBV_QP_TIMEOUT | e.IBV_QP_RETRY_CNT |
                e.IBV_QP_RNR_RETRY | e.IBV_QP_SQ_PSN |
                e.IBV_QP_MAX_QP_RD_ATOMIC)
    for i in range(half):
        side = (qps[i], qps[half + i])
        for s in range(2):
            a = QPAttr(qp_state=e.IBV_QPS_INIT)
            a.pkey_index = 0
            a.port_num = 1
            a.qp_access_flags = (e.IBV_ACCESS_REMOTE_WRITE |
                                 e.IBV_ACCESS_REMOTE_READ |
                                 e.IBV_ACCESS_REMOTE_ATOMIC)
            side[s].modify(a, init_mask)
        for s in range(2):
            a = QPAttr(qp_state=e.IBV_QPS_RTR)
            a.path_mtu = port.active_mtu
            a.dest_qp_num = side[1 - s].qp_num
            a.rq_psn = 0
            a.max_dest_rd_atomic = 0
            a.min_rnr_timer = 0
            if gid is not None:
                gr = GlobalRoute(dgid=gid, sgid_index=gid_index,
                                 hop_limit=64)
                a.ah_attr = AHAttr(is_global=1, port_num=1, gr=gr)
            else:
                a.ah_attr = AHAttr(dlid=port.lid, port_num=1)
            side[s].modify(a, rtr_mask)
        for s in range(2):
            a = QPAttr(qp_state=e.IBV_QPS_RTS)
            a.timeout = 0
            a.retry_cnt = 0
            a.rnr_retry = 0
            a.sq_psn = 0
            a.max_rd_atomic = 0
            side[s].modify(a, rts_mask)
    t2 = ms()
    for objs in (qps, cqs, mrs):
        for o in reversed(objs):
            o.close()
    pd.close()
    ctx.close()
    t3 = ms()
    print('create_ms %.3f connect_ms %.3f teardown_ms %.3f' %
          (t1 - t0, t2 - t1, t3 - t2))


if __name__ == '__main__':
    main()
