/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LIVE_H
#define RDMASCN_LIVE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "public_names.h"
#include "rdmascn/kind.h"
#include "rdmascn/mem.h"
#include "rdmascn/qp.h"
#include "run.h"

/*
 * The runtime state of each core kind (struct rs_live.rt), one file per
 * kind under engine/kind_*.c holds its ops.  Other kinds and the steps
 * read these; only the kind's own file writes them.
 */
struct rs_context_rt {
	struct ibv_context *ctx;
	struct rs_dev dev;       /* copied from the probe */
	struct rs_dev *shared;   /* an import: its original's dev */
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

struct rs_mw_rt {
	struct ibv_mw *mw;
	uint32_t rkey;           /* current (changes on each bind) */
};

struct rs_cq_rt {
	struct ibv_comp_channel *channel;
	struct ibv_cq *cq;       /* ibv_cq_ex_to_cq() of cq_ex when ex */
	struct ibv_cq_ex *cq_ex;
	uint64_t wc_flags;       /* cq_ex: what it was created with, which
				  * the polls read (ibv_wc_read_*()) */
	unsigned unacked;        /* events got, not yet acked */
};

struct rs_srq_rt {
	struct ibv_srq *srq;
	uint32_t srq_num;        /* xrc */
	struct ibv_srq_attr attr;/* granted max_wr, max_sge; srq_limit set */
};

struct rs_parent_domain_rt {
	struct ibv_td *td;
	struct ibv_pd *pd;
	int alloc;               /* enum rs_pd_alloc: what the callbacks do */
	uint64_t alloc_calls;    /* the provider asked for a buffer */
	uint64_t alloc_bytes;    /* ... of these many bytes in all */
	uint64_t alloc_default;  /* answered IBV_ALLOCATOR_USE_DEFAULT */
	uint64_t free_calls;     /* gave one of the engine's back */
};

/* A QP's runtime state, as the steps and connections read and move it:
 * a core qp's rt, or what a plugin's QP kind made with
 * rdmascn_qp_handle_new() (struct rdmascn_qp_handle to it). */
struct rs_qp_rt {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;   /* ex QPs */
	struct ibv_qp_cap cap;   /* what the device granted */
	uint32_t qkey;           /* ud */
	enum ibv_qp_state state; /* as last set by the engine */
	bool posted;             /* a WR was posted on it: flush at teardown */
};

/* Memory as the steps address it: a core mr's rt, or what a plugin made
 * with rdmascn_mem_handle_new() (struct rdmascn_mem_handle to it). */
struct rs_mr_rt {
	void *buf;               /* the bytes (NULL for a dm mr) */
	size_t length;           /* as declared */
	size_t map_length;       /* what was mmap()ed, 0 if allocated */
	struct ibv_mr *mr;
	uint64_t addr;           /* what the peer puts in remote_addr: the
				  * iova when given, else buf */
	bool imported;           /* buf is the original mr's */
	struct {                 /* a dma-buf mr's (map NULL: none) */
		void *map;       /* the memfd's pages; buf is in them */
		size_t size;
		int memfd, fd;   /* the memfd, the dma-buf */
	} dmabuf;
};

struct rs_ah_rt {
	struct ibv_ah *ah;
	struct ibv_ah_attr attr; /* what it was created with (defaults
				  * filled) */
};

struct rs_flow_rt {
	struct ibv_flow *flow;
	void *attr;              /* ibv_flow_attr and its specs */
};

/* Which cm id of a connection an rdma_cm event is on. */
enum rs_cm_on {
	RS_CM_ON_OTHER,             /* none of the connection's */
	RS_CM_ON_LISTEN,            /* listen_id (a connect request) */
	RS_CM_ON_A,
	RS_CM_ON_B,
	RS_CM_N_ON,
};

struct rs_connection_rt {
	struct rdma_event_channel *channel;
	struct rdma_cm_id *listen_id;
	struct rdma_cm_id *a_id;    /* a's side (connects) */
	struct rdma_cm_id *b_id;    /* b's side (accepted) */
	bool established;
	/* The events taken so far on each id (bit 1 << event type), by
	 * enum rs_cm_on, whoever took them (a wait or a step): teardown
	 * does not wait for one again, and after a DEVICE_REMOVAL it
	 * neither waits nor disconnects an id the device took away. */
	uint32_t seen[RS_CM_N_ON];
};

/* An rdma_cm event, taken off a connection's channel and acked. */
struct rs_cm_event {
	enum rdma_cm_event_type type;
	int status;
	enum rs_cm_on on;
	struct rdma_cm_id *id;        /* a refused request's: NULL */
	struct rdma_cm_id *listen_id; /* a connect request's */
};

/*
 * What a context's and an rdma_cm connection's on_readable ops do while
 * steps run (async_events.c, cm_events.c).  rs_async_events() takes
 * every async event of @ctx, records it, and fails @sr on one that means
 * something broke; @all: record every one, not only failures
 * (`async_events: true`).  The connection takes its own events (the
 * channel is its) and hands each to rs_cm_event(), which records it and
 * fails @sr: none is expected while steps run.  rs_cm_event_error():
 * taking one failed with -errno @r (-EAGAIN, -EINTR: the end, no error).
 */
void rs_async_events(struct rs_step_run *sr, struct rs_live *l,
		     struct ibv_context *ctx, bool all);
void rs_cm_event(struct rs_step_run *sr, struct rs_live *l,
		 const struct rs_cm_event *e);
void rs_cm_event_error(struct rs_step_run *sr, struct rs_live *l, int r);

/* The runtime state of the object a reference names, NULL if absent. */
static inline void *rs_rt(struct rs_run *run, const char *id)
{
	struct rs_live *l = rs_live_find(run, id);

	return l ? l->rt : NULL;
}

/*
 * An object's ops and facets (struct rdmascn_ops in rdmascn/kind.h), with
 * the fallbacks of a kind that has no ops or does not offer one: NULL,
 * or -EOPNOTSUPP with *ret untouched.
 */
static inline const struct rdmascn_ops *rs_live_ops(const struct rs_live *l)
{
	static const struct rdmascn_ops none;

	return l && l->obj->kind->ops ? l->obj->kind->ops : &none;
}

static inline int rs_probe(struct rs_run *run, struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	return ops->probe ? ops->probe(run, l) : 0;
}

static inline int rs_watch_fd(struct rs_live *l, const char **ret_what)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	return ops->watch_fd && ops->on_readable ?
	       ops->watch_fd(l, ret_what) : -1;
}

static inline void rs_on_readable(struct rs_step_run *sr, struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	if (ops->on_readable)
		ops->on_readable(sr, l);
}

static inline bool rs_uses_rdma_cm(const struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	return ops->uses_rdma_cm && ops->uses_rdma_cm(l);
}

static inline struct rs_dev *rs_as_dev(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_device v = { 0 };

	return ops->as_dev && !ops->as_dev(l, &v) ? v.dev : NULL;
}

static inline struct ibv_pd *rs_as_pd(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_pd v = { 0 };

	return ops->as_pd && !ops->as_pd(l, &v) ? v.pd : NULL;
}

static inline struct rs_mr_rt *rs_as_mem(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_mem v = { 0 };

	return ops->as_mem && !ops->as_mem(l, &v) ? v.rt : NULL;
}

static inline struct rs_mw_rt *rs_as_mw(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_mw v = { 0 };

	return ops->as_mw && !ops->as_mw(l, &v) ? v.rt : NULL;
}

static inline struct ibv_ah *rs_as_ah(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_ah v = { 0 };

	return ops->as_ah && !ops->as_ah(l, &v) ? v.ah : NULL;
}

static inline struct ibv_context *rs_as_context(struct rs_live *l)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_context v = { 0 };

	return ops->as_context && !ops->as_context(l, &v) ? v.ctx : NULL;
}

static inline int rs_as_cq(struct rs_live *l, struct rdmascn_cq *ret)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	if (!ops->as_cq)
		return -EOPNOTSUPP;
	/* (struct rdmascn_cq's channel: a plugin may not set it.) */
	memset(ret, 0, sizeof(*ret));
	return ops->as_cq(l, ret);
}

static inline int rs_as_srq(struct rs_live *l, struct rdmascn_srq *ret)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	return ops->as_srq ? ops->as_srq(l, ret) : -EOPNOTSUPP;
}

static inline int rs_as_link(struct rs_live *l, struct rdmascn_link *ret)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);

	return ops->as_link ? ops->as_link(l, ret) : -EOPNOTSUPP;
}

/* The QP facet, with an xrc_recv QP's receives found where they come
 * from: its domain's XRC SRQ (facets.c).  Needs the run for that. */
int rs_as_qp(struct rs_run *run, struct rs_live *l, struct rdmascn_qp *ret);

/* The verbs PD of a reference to what offers one (a pd, a parent
 * domain). */
struct ibv_pd *rs_live_pd(struct rs_run *run, const char *id);

/* `fill: pattern`: byte i is i & 0xff.  The mr kind fills it, the
 * verify step checks against the same bytes. */
static inline void rs_mr_pattern(void *buf, size_t len)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)i;
}

/* "RTS": a QP state's name in calls and messages (names.c). */
const char *rs_qp_state_name(enum ibv_qp_state s);

#endif
