/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_QP_H_PUBLIC
#define RDMASCN_QP_H_PUBLIC

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * What a plugin needs to offer the QP facet (struct rdmascn_qp in
 * rdmascn/kind.h) for a QP it makes itself (mlx5dv_create_qp()), and to
 * make it on the objects the core made (ABI 5 additions: new functions
 * and a structure that was only named before; no layout changed).
 */

/* A QP's runtime state, as the steps and connections read and move it.
 * The kind keeps one in its rt and points the facet's rt at it. */
struct rs_qp_rt {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;   /* ex QPs */
	struct ibv_qp_cap cap;   /* what the device granted */
	uint32_t qkey;           /* ud */
	enum ibv_qp_state state; /* as last set by the engine */
	bool posted;             /* a WR was posted on it: flush at teardown */
};

/* struct rdmascn_qp's type: how the steps treat its QP. */
enum rdmascn_qp_type {
	RDMASCN_QPT_RC,
	RDMASCN_QPT_UC,
	RDMASCN_QPT_UD,
	RDMASCN_QPT_XRC_SEND,
	RDMASCN_QPT_XRC_RECV,
	RDMASCN_QPT_RAW_PACKET,
};

/* A QP's cap: as declared (the fields ibv_qp_cap has). */
struct rdmascn_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

struct rs_run;
struct rs_live;
struct rs_obj;

/*
 * The caps a QP asks the device for, one rule for qps and a plugin's
 * QPs: each field cap: gives (bit RDMASCN_QP_CAP_* of @given), else
 * 16 WRs and 1 SGE on a queue the QP has (@sq, @rq), 0 on one it lacks,
 * no inline data.  rdmascn_qp_cap_given() reads which fields @obj's
 * cap: gives (ABI 6 additions).
 */
enum {
	RDMASCN_QP_CAP_MAX_SEND_WR = 1u << 0,
	RDMASCN_QP_CAP_MAX_RECV_WR = 1u << 1,
	RDMASCN_QP_CAP_MAX_SEND_SGE = 1u << 2,
	RDMASCN_QP_CAP_MAX_RECV_SGE = 1u << 3,
	RDMASCN_QP_CAP_MAX_INLINE_DATA = 1u << 4,
};
unsigned rdmascn_qp_cap_given(const struct rs_obj *obj);
void rdmascn_qp_caps(const struct rdmascn_qp_cap *cap, unsigned given,
		     bool sq, bool rq, struct ibv_qp_cap *ret);

/* The verbs object behind the object named @id (a pd or parent domain,
 * a cq, an srq); NULL when there is none (yet, or in a dry run). */
struct ibv_pd *rdmascn_live_pd(struct rs_run *run, const char *id);
struct ibv_cq *rdmascn_live_cq(struct rs_run *run, const char *id);
struct ibv_srq *rdmascn_live_srq(struct rs_run *run, const char *id);

/* The port the object's context uses and its GID (index -1: none), as
 * the probe chose them; in a dry run port 1, GID index 0, GID zero. */
struct rdmascn_port {
	uint8_t port;
	int gid_index;
	union ibv_gid gid;
};
void rdmascn_live_port(struct rs_run *run, struct rs_live *l,
		       struct rdmascn_port *ret);

#endif
