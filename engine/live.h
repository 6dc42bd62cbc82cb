/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LIVE_H
#define RDMASCN_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rdmascn/kind.h"
#include "run.h"

/*
 * The runtime state of each core kind (struct rs_live.rt), one file per
 * kind under engine/kind_*.c holds its ops.  Other kinds and the steps
 * read these; only the kind's own file writes them.
 */
struct rs_context_rt {
	struct ibv_context *ctx;
	struct rs_dev dev;       /* copied from the probe */
};

struct rs_pd_rt {
	struct ibv_pd *pd;
};

struct rs_xrcd_rt {
	struct ibv_xrcd *xrcd;
	int fd;                  /* fd_path's descriptor, -1 if none */
};

struct rs_dm_rt {
	struct ibv_dm *dm;
};

struct rs_mr_rt {
	void *buf;               /* the bytes (NULL for a dm mr) */
	size_t length;           /* as declared */
	size_t map_length;       /* what was mmap()ed, 0 if allocated */
	struct ibv_mr *mr;
	uint64_t addr;           /* what the peer puts in remote_addr: the
				  * iova when given, else buf */
};

struct rs_mw_rt {
	struct ibv_mw *mw;
	uint32_t rkey;           /* current (changes on each bind) */
};

struct rs_cq_rt {
	struct ibv_comp_channel *channel;
	struct ibv_cq *cq;       /* ibv_cq_ex_to_cq() of cq_ex when ex */
	struct ibv_cq_ex *cq_ex;
	unsigned unacked;        /* events got, not yet acked */
};

struct rs_srq_rt {
	struct ibv_srq *srq;
	uint32_t srq_num;        /* xrc */
};

struct rs_parent_domain_rt {
	struct ibv_td *td;
	struct ibv_pd *pd;
};

struct rs_qp_rt {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;   /* ex QPs */
	struct ibv_qp_cap cap;   /* what the device granted */
	uint32_t qkey;           /* ud */
	enum ibv_qp_state state; /* as last set by the engine */
};

struct rs_ah_rt {
	struct ibv_ah *ah;
};

struct rs_flow_rt {
	struct ibv_flow *flow;
	void *attr;              /* ibv_flow_attr and its specs */
};

struct rs_connection_rt {
	struct rdma_event_channel *channel;
	struct rdma_cm_id *listen_id;
	struct rdma_cm_id *a_id;    /* a's side (connects) */
	struct rdma_cm_id *b_id;    /* b's side (accepted) */
	bool established;
};

/* The runtime state of the object a reference names, NULL if absent. */
static inline void *rs_rt(struct rs_run *run, const char *id)
{
	struct rs_live *l = rs_live_find(run, id);

	return l ? l->rt : NULL;
}

/* The verbs PD of a pd or parent_domain reference. */
struct ibv_pd *rs_live_pd(struct rs_run *run, const char *id);

extern const struct rdmascn_ops rs_ops_context;
extern const struct rdmascn_ops rs_ops_pd;
extern const struct rdmascn_ops rs_ops_xrcd;
extern const struct rdmascn_ops rs_ops_dm;
extern const struct rdmascn_ops rs_ops_mr;
extern const struct rdmascn_ops rs_ops_mw;
extern const struct rdmascn_ops rs_ops_cq;
extern const struct rdmascn_ops rs_ops_srq;
extern const struct rdmascn_ops rs_ops_parent_domain;
extern const struct rdmascn_ops rs_ops_qp;
extern const struct rdmascn_ops rs_ops_ah;
extern const struct rdmascn_ops rs_ops_flow;
extern const struct rdmascn_ops rs_ops_connection;

#endif
