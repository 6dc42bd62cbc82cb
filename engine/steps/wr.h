/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_WR_H
#define RDMASCN_WR_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "step.h"

/*
 * Work requests as every posting step builds them (wr.c): a window of
 * send WRs on one QP, receives kept posted, and the checks of a QP's
 * limits they need.  Posting returns 0 or -errno: the verbs calls'
 * positive errno is negated where they are called.
 */

/* A verbs post call's result (0 or a positive errno) as 0 or -errno. */
static inline int rs_wr_err(int r)
{
	return r > 0 ? -r : r;
}

/* The QP @id names, created: NULL once the step failed ("qp '@id' does
 * not exist" when @named, else "the qp does not exist", at @field). */
struct rs_qpi *rs_wr_qp(struct rs_step_run *sr, const char *id,
			const char *field, bool named);

/*
 * What varies from WR to WR: message i (of a step's iterations, of a
 * recv step's count) is `stride` bytes further on in each of its SGEs
 * and `remote_stride` at the remote; a message longer than `piece`
 * bytes (one SGE) goes as `pieces` WRs, each the next `piece` bytes.
 * WR s is piece s % pieces of message s / pieces.
 */
struct rs_wr_vary {
	unsigned nsge;
	struct ibv_sge *sge;         /* message 0's, nsge of them */
	uint8_t **host;              /* our bytes of each; NULL: none */
	uint64_t stride, remote_stride;
	uint64_t len;                /* a message's bytes, all SGEs */
	uint64_t piece;              /* 0: not split */
	uint64_t pieces;             /* WRs a message (1 unless split) */
	uint64_t remote;             /* message 0's remote address ... */
	bool has_remote;             /* ... for an RDMA op */
	bool user_id;                /* `wr_id:` given: WR s has wr_id + s */
	uint64_t wr_id;
};

/* WR @s's SGEs into @sg (v->nsge of them) and its remote address. */
void rs_wr_vary_at(const struct rs_wr_vary *v, uint64_t s,
		   struct ibv_sge *sg, uint64_t *ret_remote);
/* Our bytes at @sg, one of the SGEs rs_wr_vary_at() made from SGE @j;
 * NULL: not in this process's memory. */
uint8_t *rs_wr_vary_host(const struct rs_wr_vary *v, unsigned j,
			 const struct ibv_sge *sg);
/* Split messages longer than @max (0: never) into pieces: 0, or the
 * message is an SGE list that cannot be split (-EINVAL). */
int rs_wr_vary_split(struct rs_wr_vary *v, uint64_t max);
/* Copy @nsge SGEs (and their @host bytes, NULL: none) into @v; 0 or
 * -ENOMEM. */
int rs_wr_vary_set(struct rs_wr_vary *v, const struct ibv_sge *sge,
		   uint8_t *const *host, unsigned nsge);
void rs_wr_vary_free(struct rs_wr_vary *v);

/*
 * A window of send WRs on one QP: at most `depth` in flight, `list` per
 * post call from a chain built once, a completion requested every
 * `sig`th WR and on the last; each WR's SGEs, remote address and wr_id
 * as `v` says.
 */
struct rs_wr_window {
	struct rs_qpi *qp;
	uint32_t depth, list, sig;
	unsigned flags;              /* IBV_SEND_INLINE */
	bool ex;                     /* through ibv_wr_* */
	uint64_t n;                  /* WRs to post */
	uint64_t posted;
	uint64_t sig_upto;           /* WRs up to the last signalled one */
	struct ibv_send_wr *wr;      /* list WRs, chained */
	struct ibv_sge *sge;         /* v.nsge for each */
	struct rs_wr_vary v;
	/* A QP whose WRs name their destination (its facet's set_wr_dest,
	 * through ibv_wr_*): `dct:` and `ah:`; NULL: none. */
	const struct rdmascn_wr_dest *dest_ops;
	struct rs_live *dest;
	struct ibv_ah *dest_ah;
	/* The step's `ah:` (UD, or a DCI's path), which -v names. */
	const char *ah_id;
};

/* Posts a chain another way than ibv_post_send() (a type 1 window's
 * bind): 0 or -errno, *@bad the first WR not posted. */
typedef int rs_wr_post_fn(struct rs_step_run *sr, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad);

/* The window's size on @qp: @depth (0: the QP's max_send_wr, which a
 * given one may not exceed), a chain of @post_list and a signal every
 * @signal_every that fit in it (0: 1).  0, or -EIO once the step
 * failed. */
int rs_wr_window_size(struct rs_step_run *sr, struct rs_wr_window *w,
		      struct rs_qpi *qp, uint32_t depth, uint32_t post_list,
		      uint32_t signal_every);
/* `inline:` on @qp for @len bytes: within its max_inline_data; the WRs
 * get IBV_SEND_INLINE in *@flags, and @sge our bytes @host (the CPU
 * copies them, not the device from the MR's iova).  0, or -EIO once the
 * step failed. */
int rs_wr_inline(struct rs_step_run *sr, struct rs_qpi *qp, uint32_t len,
		 uint8_t *host, struct ibv_sge *sge, unsigned *flags);
/* The chain: `list` copies of @tmpl, each with SGEs of its own (w->v's
 * count; @tmpl's num_sge 0: none).  0 or -ENOMEM. */
int rs_wr_window_build(struct rs_wr_window *w, const struct ibv_send_wr *tmpl);
void rs_wr_window_free(struct rs_wr_window *w);
/* How many WRs the next post takes with @done of them completed: what
 * is left, a chain at most, the room in the window, at most @limit.
 * 0: wait for completions. */
uint64_t rs_wr_next(const struct rs_wr_window *w, uint64_t done,
		    uint64_t limit);
/* Post the next @k WRs (wr_ids of @sr's slot and @lane), through @post
 * when not NULL.  0 or -errno; the WRs posted before a failed one count
 * as posted. */
int rs_wr_post(struct rs_step_run *sr, struct rs_wr_window *w,
	       unsigned lane, uint64_t k, rs_wr_post_fn *post);

/* The wr_id of WR @s of a window or recv step: `wr_id:` + @s when
 * given, else the routing id of @sr's slot, @lane and @s. */
uint64_t rs_wr_id_of(struct rs_step_run *sr, const struct rs_wr_vary *v,
		     unsigned lane, uint64_t s);
/* `wr_id:` given: route the completions of wr_id .. wr_id + @n - 1 on
 * @qp's send queue (@recv false), its receive queue or @srq (when not
 * NULL) to @sr's @lane.  0, or -EIO once the step failed (they overlap
 * the ids of a step whose WRs may still complete on that queue). */
int rs_wr_user_ids(struct rs_step_run *sr, const struct rs_wr_vary *v,
		   struct rs_qpi *qp, struct rs_live *srq, bool recv,
		   unsigned lane, uint64_t n);

/* Receives kept posted on one QP, one WR at a time. */
struct rs_recv_window {
	struct rs_qpi *qp;
	struct rs_lane *lane;
	unsigned lane_no;
	uint64_t posted;
	struct ibv_recv_wr wr;
	struct ibv_sge sge;
};

/* @lane (number @lane_no of @sr's owner) counts the receives of @w. */
void rs_recv_window_init(struct rs_step_run *sr, struct rs_recv_window *w,
			 struct rs_qpi *qp, unsigned lane_no,
			 const struct ibv_sge *sge, int num_sge);
/* A receive lane: one completion a WR. */
void rs_recv_lane(struct rs_lane *lane);
/* Post receives until @n were posted in all or @rx are outstanding.
 * 0, or -EIO once the step failed. */
int rs_recv_refill(struct rs_step_run *sr, struct rs_recv_window *w,
		   uint64_t n, uint32_t rx);
/* Receives @q can hold: its SRQ's, or its receive queue's. */
uint32_t rs_recv_room(struct rs_qpi *q);
/* Post a chain of receives to @srq when not NULL, else to @q's receive
 * queue.  0 or -errno; *@bad the first not posted. */
int rs_post_recv_list(struct ibv_srq *srq, struct rs_qpi *q,
		      struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);

/* What messages call a WR of @opcode: "rdma_write" (the table of send
 * operations, RS_SEND_OP_MAP in scenario/schema.h). */
const char *rs_wr_op_name(enum ibv_wr_opcode opcode);
/* Its word in a QP's `send_ops:` ("send_with_imm"). */
const char *rs_wr_send_op_word(enum ibv_wr_opcode opcode);
/* Has a QP's send_ops (IBV_QP_EX_WITH_*) @opcode's bit? */
bool rs_wr_send_ops_has(uint64_t send_ops, enum ibv_wr_opcode opcode);
/* Does a WR of @opcode on @qp go through ibv_wr_* (an ex QP created
 * with that op in send_ops)? */
bool rs_qp_use_ex(const struct rs_qpi *qp, enum ibv_wr_opcode opcode);
/* Post a chain of WRs, through ibv_wr_* when @ex.  0 or -errno; *@bad
 * is the first WR not posted. */
int rs_post_send_list(struct rs_qpi *qp, bool ex, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad);
/* The same, each WR addressed to @dest through @ah by @d's set_wr_dest
 * (the QP's kind's) after its ibv_wr_<op>(); @d NULL: as above. */
int rs_post_send_dest(struct rs_qpi *qp, bool ex, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad,
		      const struct rdmascn_wr_dest *d, struct rs_live *dest,
		      struct ibv_ah *ah);
/* Reads and atomics on @q can be answered (its connection's
 * max_rd_atomic and max_dest_rd_atomic); 0 or -EIO once failed. */
int rs_step_check_rd_atomic(struct rs_step_run *sr, struct rs_qpi *q,
			    int expect);
/* A message of @len bytes on @qp above its port's max_msg_sz: a warning
 * at @field (rxe sends it all the same; others fail the WR).  For a step
 * that posts it in one WR (not one that splits it). */
void rs_wr_check_msg_sz(struct rs_step_run *sr, struct rs_qpi *qp,
			uint64_t len, const char *field);
/*
 * The post calls, shown (-v, --dry-run), one code for both: each WR's
 * wr_id, opcode, send_flags, SGEs, remote address and key, UD address
 * and chaining as ibv_post_send() takes them; on a QP that posts through
 * ibv_wr_* the calls as wr.c makes them (ibv_wr_start(), per WR its
 * ibv_wr_<op>(), its destination: ibv_wr_set_ud_addr() or
 * mlx5dv_wr_set_dc_addr(), its data: ibv_wr_set_sge(), then
 * ibv_wr_complete()).  In a dry run what a device gives is named after
 * the object it comes from: addresses are offsets into @local/@remote
 * ("addr(src)+0"), keys are "lkey(src)", "rkey(dst)".
 */
struct rs_step_vary;

struct rs_wr_sym {
	const char *local;       /* the mr of sg_list */
	const char *remote;      /* the mr or mw of remote_addr and rkey */
	const char *inv;         /* whose rkey invalidate_rkey is */
	const char *mw, *bind_mr;/* bind_mw */
	const char *ah;          /* ud: the ah, and the QPN's owner */
	const char *remote_qpn;
	const char *remote_qkey; /* NULL: the WR's number */
	const char *dct, *dc_ah;  /* a DCI's: its WRs' destination */
	bool whole;              /* the length is the rest of local's */
	/* What varies from WR to WR (NULL: nothing): an `sge:` list, each
	 * entry naming its mr; strides; a chosen first wr_id. */
	const struct rs_step_vary *vary;
	bool user_wr_id;
};

/* With -v: the chain @wr about to be posted on @w's QP. */
void rs_wr_show_post(struct rs_step_run *sr, const struct rs_wr_window *w,
		     const struct ibv_send_wr *wr);
/* Dry run: the posts a step of @t's knobs would make on @qp, its WRs
 * @tmpl with @sge (addr: the offset into @sym->local): how many WRs, the
 * chain length, the window, how many signalled, and the first chain. */
void rs_wr_dry_post(struct rs_run *run, struct rs_obj *obj, const char *qp,
		    const struct rs_step_traffic *t, struct ibv_send_wr *tmpl,
		    const struct ibv_sge *sge, const struct rs_wr_sym *sym);
/* Dry run: a recv step's first ibv_post_recv() (ibv_post_srq_recv()
 * when @srq) on @q of @n receives in chains of @chain, each into @sge
 * (addr: the offset into @sym->local) or @sym->vary's list, moved by its
 * stride, wr_ids as the step numbers them. */
void rs_wr_dry_recv(struct rs_run *run, struct rs_obj *obj, const char *q,
		    bool srq, uint64_t n, unsigned chain,
		    const struct ibv_sge *sge, const struct rs_wr_sym *sym);

/* The path MTU of a QP's port, in bytes. */
uint32_t rs_qp_mtu_bytes(struct rs_step_run *sr, struct rs_qpi *qp);

/* The step's `wc:` into @o->want, QP ids as their numbers (before it
 * posts); 0, or -EIO once the step failed. */
int rs_step_want(struct rs_step_run *sr, struct rs_owner *o,
		 const struct rs_step_wc *wc);

#endif
