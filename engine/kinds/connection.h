/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CONNECTION_H
#define RDMASCN_CONNECTION_H

#include <stdint.h>

#include "kinds.h"
#include "live.h"
#include "peer.h"

/*
 * The connection kind's own parts: its ops (kind_connection.c) pick the
 * way, out of band (connection_oob.c) or via rdma_cm (connection_cm.c);
 * what both ways ask of a side or a connection is in connection.c.
 */

/* One end of the connection: its QP and where it lives. */
struct rs_conn_side {
	const char *name;        /* "a" or "b", as in the file */
	struct rs_live *l;
	/* Its QP facet (a core qp's, or a plugin's: an mlx5_qp), which q
	 * points at: the side reads no kind's data. */
	struct rdmascn_qp info;
	const struct rdmascn_qp *q;
	struct rs_qp_rt *rt;
	struct rs_dev *dev;      /* all zero in a dry run */
	const char *ctx_id;
	uint8_t port;
	uint32_t psn;            /* its sq_psn, the peer's rq_psn */
	bool psn_given;          /* psn or <side>_psn in the file */
	int access;              /* INIT qp_access_flags; -1: not given */
};

/* What @s tells its peer: its QP, the psn it sends from, its port and
 * device (none in a dry run). */
void rs_conn_side_peer(struct rs_run *run, struct rs_live *l,
		       const struct rs_conn_side *s, struct rs_peer *ret);

/*
 * Between nodes, before either QP leaves RESET: whether this side's
 * port (@self) and the other node's (@peer, as it came) can carry
 * connection @l (rs_peer_uniform()); 0, or -EPROTO reported naming
 * both nodes and values, side a's first whichever node says it.
 */
int rs_conn_uniform(struct rs_run *run, struct rs_live *l,
		    const struct rs_peer *self, const struct rs_peer *peer,
		    bool self_is_a);

/* The path connection @o's file asks for, defaults filled in. */
void rs_conn_path(const struct rs_obj *o, struct rs_path *ret);

/* Take @a's and @b's QPs to RTS towards each other; 0, or -errno
 * reported. */
int rs_conn_oob_connect(struct rs_run *run, struct rs_live *l,
			const struct rs_conn_side *a,
			const struct rs_conn_side *b);
/* Between nodes: take @mine's QP (this node's) to RTS towards @far's on
 * another node, their descriptions swapped through the rendezvous (in
 * a dry run, @far's as the file says it). */
int rs_conn_oob_side(struct rs_run *run, struct rs_live *l,
		     const struct rs_conn_side *mine,
		     const struct rs_conn_side *far);
/* Via rdma_cm: @a connects to @b, which listens; only the sides that
 * are here (@here_a, @here_b) are moved by this process, and between
 * nodes the sides swap their descriptions (b's port among them) once b
 * listens. */
int rs_conn_cm_connect(struct rs_run *run, struct rs_live *l,
		       const struct rs_conn_side *a,
		       const struct rs_conn_side *b, bool here_a, bool here_b);

/* The bit of event type @t in rs_connection_rt.seen[]. */
#define CM_BIT(t) ((unsigned)(t) < 32 ? 1u << (t) : 0)

/*
 * Wait for event @want on @id (for CONNECT_REQUEST: on listening @id),
 * acking every event on the way (connection_cm_wait.c); 0, or -errno
 * reported (in @teardown quietly, bounded by a second).
 */
int rs_cm_wait(struct rs_run *run, struct rs_live *l,
	       enum rdma_cm_event_type want, struct rdma_cm_id *id,
	       enum rs_cm_on on, const char *id_name,
	       struct rdma_cm_id **ret_id, bool teardown);

/*
 * Take the next event of rdma_cm connection @l's channel (O_NONBLOCK):
 * 0, or -errno (-EAGAIN: none came).  It is noted in @l's seen[] and
 * acked; a connect request that is not on @accept_on is refused and its
 * new id destroyed.
 */
int rs_cm_take(struct rs_live *l, struct rs_cm_event *e,
	       const struct rdma_cm_id *accept_on);
/* The on_readable op of an rdma_cm connection while steps run: every
 * event on its channel, to rs_cm_event(). */
void rs_conn_cm_readable(struct rs_step_run *sr, struct rs_live *l);

/* Teardown of an rdma_cm connection: disconnect, flush the QPs that are
 * here, destroy the cm ids and the channel; whatever is there, quietly
 * (connection_cm_down.c). */
void rs_conn_cm_destroy(struct rs_run *run, struct rs_live *l,
			const struct rs_conn_side *a,
			const struct rs_conn_side *b, bool here_a, bool here_b);

/* Teardown of one side: its QP to ERR, so that what is still posted
 * flushes. */
void rs_conn_flush(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s);

#endif
