/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_QP_H_PUBLIC
#define RDMASCN_QP_H_PUBLIC

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * What a plugin needs to offer the QP and CQ facets (struct rdmascn_qp,
 * struct rdmascn_cq in rdmascn/kind.h) for a QP or CQ it makes itself
 * (mlx5dv_create_qp(), mlx5dv_create_cq()), and to make it on the
 * objects the core made.
 */
struct rdmascn_run;
struct rdmascn_live;
struct rdmascn_qp_handle;
struct rdmascn_cq_handle;

/* struct rdmascn_qp's type: how the steps treat its QP. */
enum rdmascn_qp_type {
	RDMASCN_QPT_RC,
	RDMASCN_QPT_UC,
	RDMASCN_QPT_UD,
	RDMASCN_QPT_XRC_SEND,
	RDMASCN_QPT_XRC_RECV,
	RDMASCN_QPT_RAW_PACKET,
};

/*
 * A QP as the steps and connections post on it and move it: @qp (NULL
 * in a dry run), @qpx for ibv_wr_*() (or NULL), the @cap the device
 * granted, the @qkey of a UD QP; in RESET.  Made once the create call
 * was made (or skipped, in a dry run), before the QP facet is asked;
 * NULL when out of memory.  Tell it each state the plugin moves the QP
 * to itself; free it after destroying the QP.
 */
struct rdmascn_qp_handle *rdmascn_qp_handle_new(struct ibv_qp *qp,
						struct ibv_qp_ex *qpx,
						const struct ibv_qp_cap *cap,
						uint32_t qkey);
void rdmascn_qp_handle_set_state(struct rdmascn_qp_handle *h,
				 enum ibv_qp_state state);
void rdmascn_qp_handle_free(struct rdmascn_qp_handle *h);

/*
 * A CQ as the steps poll it: @cq_ex (its ibv_cq through
 * ibv_cq_ex_to_cq()), @channel (non-blocking, or NULL), the @wc_flags it
 * was created with.  NULL when out of memory.  The free acks the events
 * the steps took and did not ack: call it before destroying the CQ.
 */
struct rdmascn_cq_handle *
rdmascn_cq_handle_new(struct ibv_cq_ex *cq_ex,
		      struct ibv_comp_channel *channel, uint64_t wc_flags);
void rdmascn_cq_handle_free(struct rdmascn_cq_handle *h);

/* A QP's cap: as declared (the fields ibv_qp_cap has). */
struct rdmascn_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

struct rdmascn_obj;

/*
 * The caps a QP asks the device for, one rule for qps and a plugin's
 * QPs: each field cap: gives (bit RDMASCN_QP_CAP_* of @given), else
 * 16 WRs and 1 SGE on a queue the QP has (@sq, @rq), 0 on one it lacks,
 * no inline data.  rdmascn_qp_cap_given() reads which fields @obj's
 * cap: gives.
 */
enum {
	RDMASCN_QP_CAP_MAX_SEND_WR = 1u << 0,
	RDMASCN_QP_CAP_MAX_RECV_WR = 1u << 1,
	RDMASCN_QP_CAP_MAX_SEND_SGE = 1u << 2,
	RDMASCN_QP_CAP_MAX_RECV_SGE = 1u << 3,
	RDMASCN_QP_CAP_MAX_INLINE_DATA = 1u << 4,
};
unsigned rdmascn_qp_cap_given(const struct rdmascn_obj *obj);
void rdmascn_qp_caps(const struct rdmascn_qp_cap *cap, unsigned given,
		     bool sq, bool rq, struct ibv_qp_cap *ret);

/* The verbs object behind the object named @id (a pd or parent domain,
 * a cq, an srq); NULL when there is none (yet, or in a dry run). */
struct ibv_pd *rdmascn_live_pd(struct rdmascn_run *run, const char *id);
struct ibv_cq *rdmascn_live_cq(struct rdmascn_run *run, const char *id);
struct ibv_srq *rdmascn_live_srq(struct rdmascn_run *run, const char *id);
/* The verbs QP of an object that is a QP (a core qp, a plugin's), a
 * flow's destination: NULL when it is none or not made (a dry run). */
struct ibv_qp *rdmascn_live_ibv_qp(struct rdmascn_run *run,
				   struct rdmascn_live *l);

/* The port the object's context uses and its GID (index -1: none), as
 * the probe chose them; in a dry run port 1, GID index 0, GID zero. */
struct rdmascn_port {
	uint8_t port;
	int gid_index;
	union ibv_gid gid;
};
void rdmascn_live_port(struct rdmascn_run *run, struct rdmascn_live *l,
		       struct rdmascn_port *ret);

#endif
