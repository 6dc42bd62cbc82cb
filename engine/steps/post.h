/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_POST_H
#define RDMASCN_POST_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "step.h"
#include "steps.h"
#include "wr.h"

/*
 * The posting steps' engine (step_post.c), which send, ud_send, write,
 * read, atomic, bind_mw and invalidate share: a window of WRs on one QP,
 * the step done when every WR is accounted for and, for traffic that
 * consumes receives, the peer has reaped as many receives as sends
 * succeeded; then the type's check.
 */
struct post_rt {
	struct rs_wr_window w;
	struct rs_lane *lane;
	const char *op;              /* its WRs in messages; NULL: the
				      * opcode's name */
	bool stopped;                /* an error came: post no more */
	struct ibv_send_wr tmpl;
	/* The buffer: w.v when the step set it (rs_step_bufs()), else this
	 * one SGE and our bytes of it. */
	struct ibv_sge tsge;
	uint8_t *host;
	const struct rs_step_vary *vary; /* its `max_msg_sz:` splits */
	/* The receives this traffic consumes, at the peer. */
	struct rs_qpi *peer;
	uint64_t peer_base;
	bool receiver;               /* the receiving half only: the
				      * sender is on another node */
	/* Checks once every WR completed. */
	uint8_t *dst;                /* verify: the remote's bytes (write,
				      * read); the local ones are w.v's */
	uint8_t *fetch;              /* atomic: where the value is fetched */
	/* bind_mw */
	struct rs_mwi *mw;
	struct rs_live *bind_mr;
	uint64_t bind_offset;
	uint32_t new_rkey;
	struct ibv_mw_bind bind1;
	/* register_layout: the kind that builds the WR, and its object */
	const struct rdmascn_wr_reg *reg;
	struct rs_live *reg_obj;
	rs_wr_post_fn *post;         /* NULL: rs_post_send_list() */
	int (*check)(struct rs_step_run *sr);
};

/*
 * Everything set in p->tmpl (sg_list/num_sge by the engine), the buffer
 * (p->w.v or p->tsge), p->w.qp, p->peer: split what exceeds max_msg_sz,
 * check the knobs against the QP, build the chain, watch the CQs and
 * post the first window.
 */
int rs_post_begin(struct rs_step_run *sr, struct post_rt *p,
		  const struct rs_step_traffic *t, bool has_data);
/*
 * The receiving half of traffic whose sender is on another node (a
 * ud_send `to:` a QP here): done once @to has reaped a receive for each
 * of the step's iterations; a lost datagram fails it at its deadline,
 * saying how many arrived.
 */
int rs_post_begin_receiver(struct rs_step_run *sr, struct post_rt *p,
			   struct rs_qpi *to,
			   const struct rs_step_traffic *t);
void rs_post_progress(struct rs_step_run *sr);
void rs_post_release(struct rs_step_run *sr);
/* A step's `dct:` and `ah:` (NULL: none): on a QP whose WRs name their
 * destination (a DCI), each WR of the window is addressed to @dct
 * through @ah by the QP kind's set_wr_dest, through ibv_wr_* (the QP's
 * send_ops must have @op).  After p->w.qp is set; 0 or -EIO (failed). */
int rs_post_dest(struct rs_step_run *sr, const char *dct, const char *ah,
		 enum ibv_wr_opcode op);
/* `length: 0` is a message without an SGE; absent is the whole buffer. */
bool rs_post_has_data(struct rs_step_run *sr, uint32_t length);
/* verify: the bytes @got against @want; 0, or -EIO once the step failed
 * (@what "differ at byte ..."). */
int rs_post_compare(struct rs_step_run *sr, const uint8_t *got,
		    const uint8_t *want, uint64_t len, const char *what);
/* A p->check for traffic that consumes a receive (send, ud_send): the
 * peer's last receive holds the bytes of the last WR. */
int rs_post_check_received(struct rs_step_run *sr);

/* One-sided (rdma.c), what write and read share: p->tmpl, p->w and the
 * verify: check set from the step's fields; 0, or -errno once the step
 * failed. */
int rs_rdma_start(struct rs_step_run *sr, const char *qp,
		  const struct rs_step_vary *vary, const char *local,
		  uint64_t offset, uint32_t length, const char *remote,
		  uint64_t remote_offset, uint32_t rkey_field,
		  const struct rs_step_traffic *t, bool read);
/* Its dry run: the WR @w (opcode set) as rs_rdma_start() would post it. */
void rs_rdma_dry(struct rs_run *run, struct rs_obj *obj, const char *qp,
		 const char *local, uint64_t offset, uint32_t length,
		 const char *remote, uint64_t remote_offset,
		 const struct rs_step_traffic *t,
		 const struct rs_step_vary *v, struct ibv_send_wr *w,
		 const char *dct, const char *ah);

#define RS_POST_OPS(name)                                                 \
	const struct rdmascn_step_ops rs_step_ops_##name = {              \
		.rt_size = sizeof(struct post_rt),                        \
		.start = name##_start,                                    \
		.progress = rs_post_progress,                             \
		.release = rs_post_release,                               \
		.dry_run = name##_dry,                                    \
	}

#endif
