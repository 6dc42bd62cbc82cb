/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STEP_H
#define RDMASCN_STEP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "live.h"
#include "step_fields.h"

/*
 * The step executor's internal API (steps_run.c, step_tables.c,
 * completion_route.c, completion_wait.c, step_*.c).
 *
 * Each step runs on a libuv loop of its own (top-level steps in the
 * caller's thread; the steps of a parallel step and a pingpong's answering
 * side each in a thread of their own): a deadline timer, a uv_poll on
 * rs_signal_fd(), a uv_async to be woken from other threads, and per CQ
 * it waits on either a uv_idle spin (busy) or a uv_poll on the CQ's
 * completion channel (events).  A step type's start() posts and says
 * which CQs to watch; progress() runs after completions were reaped (or
 * on a wake-up) and posts more or finishes the step.  While threads run,
 * a CQ is reaped under its own lock.
 *
 * Completions are routed by wr_id, not by who polls: every WR carries its
 * owner (the step that posted it), a lane (one queue of that step) and a
 * sequence number.  Whoever reaps a CQ adds the completion to the owner's
 * lane; the owner reads its lanes.  So a recv step can finish at once and
 * have its receives reaped by a later send step that polls the peer's CQ.
 */

/* wr_id: owner slot (24 bits: the step's object index), lane (8 bits),
 * sequence (32 bits). */
#define RS_WR_SLOT_SHIFT 40
#define RS_WR_LANE_SHIFT 32
#define RS_MAX_LANES 256

static inline uint64_t rs_wr_id(uint32_t slot, unsigned lane, uint32_t seq)
{
	return (uint64_t)slot << RS_WR_SLOT_SHIFT |
	       (uint64_t)lane << RS_WR_LANE_SHIFT | seq;
}

/* What two threads write side by side goes on lines of its own. */
#define RS_CACHELINE 64

/*
 * One queue's WRs of one owner.  Send-queue lanes are cumulative: a
 * completion for seq s also completes every unsignalled WR before it (the
 * send queue completes in order).  Receive lanes count one per completion.
 * Only the reaper of the lane's CQ writes it (under that CQ's lock when
 * threads share it); the owner reads done/ok/errored.  A cache line each:
 * a pingpong's two threads write their lanes at once.
 */
struct rs_lane {
	_Alignas(RS_CACHELINE)
	uint32_t next;              /* cumulative: oldest seq not known done */
	bool per_wr;                /* a receive queue */
	const char *op;             /* "rdma_write": for messages */
	_Atomic uint64_t done;      /* WRs completed (any status) */
	_Atomic uint64_t ok;        /* ... with success */
	_Atomic bool errored;       /* a completion was not success */
	/* Who acts on it: woken when another thread reaped for it (unless
	 * it spins); NULL once it finished (st->lock to clear). */
	_Atomic(struct rs_step_run *) sr;
	_Atomic bool spins;
};

/*
 * What an extended CQ's completion says beyond struct ibv_wc: read with
 * ibv_wc_read_*() for each of the CQ's wc_flags (IBV_WC_EX_WITH_*, in
 * @have); the struct ibv_wc fields among them go into the ibv_wc.
 */
struct rs_wc_ext {
	uint64_t have;           /* IBV_WC_EX_WITH_* read */
	uint64_t ts;             /* completion_timestamp (device clock) */
	uint64_t ts_wall;        /* ..._wallclock (ns) */
	uint16_t cvlan;
	uint32_t flow_tag;
};

/* The `wc:` and `grh:` a step asks of each of its completions that
 * succeeded (wc_check.c); fields by RS_WCW_* bit. */
enum {
	RS_WCW_BYTE_LEN = 1u << 0,
	RS_WCW_IMM = 1u << 1,
	RS_WCW_QP_NUM = 1u << 2,
	RS_WCW_SRC_QP = 1u << 3,
	RS_WCW_SLID = 1u << 4,
	RS_WCW_SL = 1u << 5,
	RS_WCW_DLID_PATH_BITS = 1u << 6,
	RS_WCW_CVLAN = 1u << 7,
	RS_WCW_FLOW_TAG = 1u << 8,
	RS_WCW_GRH = 1u << 9,     /* the receive has a GRH */
	RS_WCW_SGID = 1u << 10,
	RS_WCW_DGID = 1u << 11,
	RS_WCW_TS_UP = 1u << 12,  /* timestamps never go back */
};

struct rs_wc_want {
	uint32_t mask;           /* RS_WCW_* */
	uint32_t byte_len, imm, qp_num, src_qp, slid, flow_tag;
	uint8_t sl, dlid_path_bits;
	uint16_t cvlan;
	uint8_t sgid[16], dgid[16];
	const uint8_t *grh;      /* the receive buffer's first 40 bytes */
};

/* What an owner's completions that succeeded said, bounded: how many,
 * the last of each field read, the timestamps' first and last and
 * whether they ever went back. */
struct rs_wc_seen {
	uint64_t n;
	uint64_t have;           /* IBV_WC_EX_WITH_* read */
	struct ibv_wc last;
	struct rs_wc_ext ext;    /* the last */
	uint64_t ts_first, ts_wall_first;
	uint64_t ts_back;        /* timestamps lower than the one before */
};

/* Does a completion meet @w, after those in @before?  true, or false
 * with the first difference in @why ("src_qp 0x12, expected 0x11"). */
bool rs_wc_check(const struct rs_wc_want *w, const struct rs_wc_seen *before,
		 const struct ibv_wc *wc, const struct rs_wc_ext *ext,
		 char *why, size_t len);
/* The source and destination GIDs of a UD receive's 40-byte GRH: an
 * IPv6 header, or on RoCE v2 over IPv4 20 bytes of zeros and the IPv4
 * header, whose addresses are given as IPv4-mapped GIDs.  0, or -EINVAL
 * when it is neither. */
int rs_grh_gids(const uint8_t grh[40], uint8_t ret_sgid[16],
		uint8_t ret_dgid[16]);
void rs_wc_seen_add(struct rs_wc_seen *s, const struct ibv_wc *wc,
		    const struct rs_wc_ext *ext);
/* @s into @v: n, the last of each field read, the timestamps. */
void rs_wc_seen_put(const struct rs_wc_seen *s, struct rs_val *v);

/* What a step owns in the wr_id space; lives until the steps end, since
 * its completions may be reaped after it finished (recv). */
struct rs_owner {
	const struct rs_obj *obj;
	const char *label;          /* the step's label */
	int expect;                 /* enum ibv_wc_status */
	_Atomic int claimed;        /* the first unexpected completion ... */
	_Atomic bool bad;           /* ... is in bad_wc */
	struct ibv_wc bad_wc;
	unsigned bad_lane;
	uint32_t bad_seq;           /* its WR's number in the lane */
	_Atomic bool saw_expect;    /* expect != success: one such came */
	struct rs_wc_want want;     /* `wc:`, `grh:`: set before posting */
	char bad_why[160];          /* bad_wc missed want: how */
	/* Written by the reaper of its completions, read once they are
	 * counted done (ln->done's release): */
	struct rs_wc_seen seen;
	unsigned n_lanes;
	struct rs_lane lanes[];
};

struct rs_cqi {
	struct rs_live *l;
	struct rs_cq_rt *rt;
	bool events;                /* waits on events unless a step says */
	_Atomic bool held;          /* its lock, while other threads run */
};

struct rs_qpi {
	struct rs_live *l;
	uint32_t qpn;
	struct rs_qp_rt *rt;
	struct rdmascn_qp info;     /* its QP facet */
	struct rs_cqi *send_cq;
	struct rs_cqi *recv_cq;     /* where its receives complete */
	struct rs_live *srq;        /* receives come from this SRQ */
	struct rs_qpi *peer;        /* the other end of its connection */
	const struct rdmascn_link *conn; /* that connection: NULL, or link */
	struct rdmascn_link link;
	_Atomic uint64_t recv_done; /* receive completions reaped for it */
	/* The step that counts recv_done (it owns no lane of those
	 * receives): woken when another thread reaps one (st->lock). */
	_Atomic(struct rs_step_run *) recv_waiter;
	_Atomic uint32_t last_recv_slot; /* owner of the last one */
	_Atomic uint32_t last_recv_seq;  /* its number among the owner's */
	_Atomic uint32_t last_recv_len;
};

/* Where a bind_mw step bound a window. */
struct rs_mwi {
	struct rs_live *l;
	struct rs_live *mr;         /* NULL: never bound by a step */
	uint64_t addr;              /* bind_info.addr */
	uint64_t length;
	uint64_t offset;            /* in mr */
	bool zero_based;
};

/*
 * wr_ids a step chose (`wr_id:`): the completions of base .. base+n-1 on
 * one queue (a QP's send or receive queue, or an SRQ) go to the owner in
 * `slot`, its `lane`, as sequence wr_id - base.  Added under st->lock,
 * never changed once `n_ranges` counts them; the newest match wins.
 */
struct rs_wr_range {
	const void *queue;           /* a struct rs_qpi, or an SRQ's live */
	bool recv;
	uint64_t base, n;
	uint32_t slot;
	unsigned lane;
};
#define RS_MAX_WR_RANGES 64

struct rs_steps {
	struct rs_run *run;
	pthread_mutex_t lock;       /* diag, out, rs_call, lane->sr */
	_Atomic int threads;        /* > 0: parallel steps run: lock CQs */
	struct rs_qpi *qps;
	unsigned n_qps;
	struct rs_cqi *cqs;
	unsigned n_cqs;
	struct rs_mwi *mws;
	unsigned n_mws;
	void **by_obj;              /* object index -> its qpi/cqi/mwi */
	struct rs_qpi **by_qpn;     /* open addressing on qp_num */
	unsigned qpn_mask;
	struct rs_owner **owners;   /* by object index */
	char **labels;              /* by object index: "step 2 (write) 'w'" */
	int id_width;               /* of the result lines' 'id' column */
	/* The objects top-level steps watch (a descriptor each), by index,
	 * found once: every step would otherwise look at every object. */
	unsigned *watch_objs;
	unsigned n_watch_objs;
	bool watch_known;
	unsigned n_objs;
	struct rs_wr_range ranges[RS_MAX_WR_RANGES];
	_Atomic unsigned n_ranges;
	/* The counter directories the steps read (counters.h); NULL:
	 * --counters=off. */
	struct rs_counters *ctrs;
};

enum rs_step_result {
	RS_STEP_NOT_RUN,
	RS_STEP_RUNNING,
	RS_STEP_PASSED,
	RS_STEP_FAILED,             /* an expectation failed, or a post */
	RS_STEP_CANTRUN,            /* could not start: set-up, limits */
	RS_STEP_INTERRUPTED,
	RS_STEP_SKIPPED,            /* a known deviation: not run, or failed */
};

struct rs_watch {
	struct rs_step_run *sr;
	struct rs_cqi *cq;
	bool events;
	uv_poll_t poll;
};

struct rs_step_run {
	struct rs_steps *st;
	struct rs_run *run;
	struct rs_obj *obj;
	const struct rdmascn_step_ops *ops;
	const char *label;
	const char *no;
	struct rs_step_run *parent;

	uv_loop_t loop;
	uv_timer_t deadline;
	uv_timer_t progress;        /* run->progress_ms: RS_REC_PROGRESS */
	uv_poll_t sig;
	uv_async_t wake;
	uv_idle_t idle;
	bool loop_ok;               /* loop initialised */
	bool idle_on;
	uint64_t deadline_ms;       /* 0: none */
	unsigned n_watch;
	struct rs_watch *watch;     /* grown before the waits start only:
				     * the loop holds their uv_polls */

	struct rs_async_watch *async; /* one per context and rdma_cm
				       * connection (top level) */
	unsigned n_async;
	/* Across nodes: the rendezvous, watched while a top-level step
	 * runs, so that another node's failure or loss ends it. */
	uv_poll_t rdv_poll;
	bool rdv_watched;
	struct rs_owner *owner;     /* NULL: posts nothing */
	struct rs_owner *serves;    /* lanes of it may name this step (the
				     * owner's, or a helper's owner) */
	struct rs_owner *late_bad;  /* a finished step's completion failed */
	struct rs_qpi *counts_recv; /* it is that QP's recv_waiter */
	bool wakeable;              /* st->lock: wake is initialised ... */
	bool closing;               /* ... and not closing */
	_Atomic int stop_req;       /* set by another thread, then wake */
	char stop_why[160];

	int result;                 /* enum rs_step_result */
	bool finished;
	bool spin;                  /* busy: progress() on every spin */
	double t0, ms;
	uint64_t wrs;               /* WRs posted: on the result line */
	uint64_t done, total;       /* for the deadline message */
	const char *unit;           /* "completions" */
	uint64_t done2, total2;     /* a second count ("receives at ...") */
	char unit2[96];
	char why[768];              /* the failure, for the result line */
	const struct rs_deviation *deviation; /* that made it skipped */
	/* Skipped by rs_step_skip(): what it needs is not here, so the rest
	 * of the run cannot be what the file says either (77).  A skip by
	 * a deviation or a gate's missing: skip is the step's alone. */
	bool skip_ends_run;
	struct rs_val *figures;     /* numbers with units, by name (see
				     * rs_step_figures()) */
	struct rs_val *gates;       /* its gate, once checked */
	/* It failed an each: gate of its counted step, and no other way:
	 * the run fails but the other elements still run. */
	bool each_missed;
	struct rs_val *histogram;   /* of its latency samples */
	struct rs_ctr_snap *ctrs;   /* its ports' counters, read before it
				     * (top level only) */
	void *rt;                   /* the type's, ops->rt_size bytes */
	_Atomic bool over;          /* the loop closed (parallel joins) */
	/* A link step: the port events it provoked and waits for, one on
	 * each context whose port goes with its netdev (port_ctx, others
	 * open on the same port, those on the far end of its wire: a
	 * veth's peer loses its carrier too; their rs_dev's port_waiter);
	 * the top-level step that reads a context's events records them
	 * (provoked) and wakes this one when the last came
	 * (async_events.c). */
	struct rs_live *port_ctx;
	int port_want;              /* enum ibv_event_type */
	_Atomic unsigned port_left; /* events still to come */
	_Atomic bool port_seen;     /* the last one came */
	double port_seen_ms;        /* rs_now_ms() when port_ctx's came */
};

/* --- steps_run.c ---------------------------------------------------------- */

/* Run @sr (its obj, label, no, st, run set) on a new loop in this thread
 * until it finished and its loop closed. */
void rs_step_execute(struct rs_step_run *sr);
/* A thread's start routine: rs_step_execute() @arg (a step run with a
 * parent), then wake the parent's loop, which joins the thread. */
void *rs_step_thread(void *arg);
/* Before @sr starts threads of its own: from now on the record is shared
 * (rs_record_threads()) and CQs may be reaped by several threads
 * (st->threads, which the step gives back when they are joined).  0, or
 * -ENOMEM. */
int rs_step_threads_begin(struct rs_step_run *sr);
/* Prepare @sr for @obj. */
void rs_step_init(struct rs_step_run *sr, struct rs_steps *st,
		  struct rs_obj *obj, struct rs_step_run *parent);
/* The nested steps of @sr that run on this node, each prepared with @sr
 * as parent and bounded by @sr's deadline when it gives one: into *@ret
 * (room for one more), how many into *@n.  0, or -ENOMEM with those
 * made so far in *@ret and *@n, for the caller's release. */
int rs_step_kids(struct rs_step_run *sr, struct rs_step_run ***ret,
		 unsigned *n);
void rs_step_release(struct rs_step_run *sr);
/* The step's figures, an object to add to (latency, throughput, ...):
 * they go into its entry of the run record. */
struct rs_val *rs_step_figures(struct rs_step_run *sr);
/* After a step passed: its figures against its gate (gates.c); a miss
 * fails it (only an each: one: each_missed too). */
void rs_step_check_gates(struct rs_step_run *sr);
/* --- step_counters.c ---------------------------------------------------- */

/* The first read of the counters of the ports top-level step @o's QPs
 * use: a snapshot for its run's ctrs, or NULL (none to read, off, or out
 * of memory: a warning, the step goes on).  Taken before the step's
 * barrier, so that no node starts its half later for it. */
struct rs_ctr_snap *rs_step_counters_read(struct rs_steps *st,
					  const struct rs_obj *o);
void rs_step_counters_drop(struct rs_ctr_snap *s);
/* Around a top-level step: its snapshot (read now when it was not),
 * and after it the deltas into its figures as "counters". */
void rs_step_counters_begin(struct rs_step_run *sr);
void rs_step_counters_end(struct rs_step_run *sr);
/* Around the steps phase: every QP's port on this node into @s, and
 * the deltas into the record's root "counters"; end also frees
 * st->ctrs.  Nothing with run->counters_off.  0 or -ENOMEM. */
struct rs_ctr_snap;
int rs_steps_counters_begin(struct rs_steps *st, struct rs_ctr_snap *s);
int rs_steps_counters_end(struct rs_steps *st, struct rs_ctr_snap *s);

/* --- samples.c ------------------------------------------------------------ */

/* A step's latency samples, @n of them in the order measured, in ns
 * (@ns_per_usec of them make a usec of the figure: 2000 for one way of
 * a round trip): their histogram goes into its latency figures, and
 * each a row of the samples file when there is one. */
void rs_step_samples(struct rs_step_run *sr, const uint64_t *ns, uint64_t n,
		     double ns_per_usec);

/* --- step_life.c ---------------------------------------------------------- */

/* End the step: every handle of its loop is closed, the loop ends. */
void rs_step_finish(struct rs_step_run *sr, int result);
void rs_step_pass(struct rs_step_run *sr);
/* Fail the step with a message at the step's (or @field's) FILE:LINE:COL.
 * @result is RS_STEP_FAILED or RS_STEP_CANTRUN.  Returns -EIO. */
int rs_step_fail(struct rs_step_run *sr, int result, const char *field,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The step cannot be what it says here (impair on a hardware NIC,
 * without CAP_NET_ADMIN): skipped, the reason at the step's
 * FILE:LINE:COL; the run stops and exits 77.  Returns -EOPNOTSUPP. */
int rs_step_skip(struct rs_step_run *sr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A warning at @field (when the step gives it) or at the step: the step
 * goes on. */
void rs_step_warn(struct rs_step_run *sr, const char *field,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A signal came or a stop was asked for: the step ended (true). */
bool rs_step_check_stop(struct rs_step_run *sr);
/* A signal came: stop the step and end it as interrupted. */
void rs_step_interrupt(struct rs_step_run *sr);
/* From now until it finishes, wake @sr when another thread reaps a
 * receive completion of @q (one such step per QP at a time). */
void rs_step_count_recv(struct rs_step_run *sr, struct rs_qpi *q);
/* Ask a step running on another thread to stop. */
void rs_step_request_stop(struct rs_step_run *sr, const char *why);

/* Milliseconds since the step started. */
double rs_step_elapsed(const struct rs_step_run *sr);

/* --- step_tables.c -------------------------------------------------------- */

int rs_steps_setup(struct rs_steps *st, struct rs_run *run);
void rs_steps_free(struct rs_steps *st);

struct rs_qpi *rs_step_qp(struct rs_step_run *sr, const char *id);
struct rs_cqi *rs_step_cq(struct rs_step_run *sr, const char *id);
struct rs_mwi *rs_step_mw(struct rs_step_run *sr, const char *id);
struct rs_qpi *rs_qp_by_num(struct rs_steps *st, uint32_t qpn);
/* @o's QP record, or NULL when @o is not a QP of the tables. */
struct rs_qpi *rs_step_qp_of(const struct rs_steps *st,
			    const struct rs_obj *o);

/* The step's owner record with @n_lanes lanes; lanes are send-queue
 * (cumulative) lanes unless set per_wr. */
struct rs_owner *rs_step_owner(struct rs_step_run *sr, unsigned n_lanes,
			       int expect);
static inline uint32_t rs_step_slot(const struct rs_step_run *sr)
{
	return sr->obj->index;
}

/* --- completion_wait.c, completion_route.c -------------------------------- */

/*
 * Wait on @cq: @completion is the step's `completion:` value, used when
 * the step gives it; else the CQ's mode decides (events with a channel,
 * unless `mode: busy`).  Events on a CQ without a channel fail the step.
 * Returns 0 or -errno (the step failed).
 */
int rs_step_watch(struct rs_step_run *sr, struct rs_cqi *cq, int completion);
/* Add @wc, reaped from @c by @sr, to the lane its wr_id names; one that
 * no step posted fails @sr.  (The polls call it; so do the unit tests,
 * with completions of their own making.) */
void rs_step_route(struct rs_step_run *sr, struct rs_cqi *c,
		   const struct ibv_wc *wc);
/* The same with what an extended CQ said besides (NULL: nothing). */
void rs_step_route_ex(struct rs_step_run *sr, struct rs_cqi *c,
		      const struct ibv_wc *wc, const struct rs_wc_ext *ext);
/* Poll every watched CQ once (busy and events alike) and route what came;
 * returns how many completions. */
unsigned rs_step_reap(struct rs_step_run *sr, bool busy_only);
/* Start waiting: arm events CQs, start the uv_polls and the idle spin. */
int rs_step_watch_start(struct rs_step_run *sr);
/* What a top-level step watches besides its own waits: the descriptor
 * an object's kind names (watch_fd: a context's async_fd, an rdma_cm
 * connection's event channel), read by its on_readable op. */
struct rs_async_watch {
	uv_poll_t poll;
	struct rs_step_run *sr;
	struct rs_live *l;
};

/* Watch what every created object's kind wants watched (watch_fd) on
 * @sr's loop (top-level steps only): an event that means something
 * broke fails the step (async_events.c). */
int rs_step_async_start(struct rs_step_run *sr);

/* Route the completions of wr_id @base .. @base + @n - 1 on @queue (a
 * struct rs_qpi; with @recv its receive queue, or an SRQ's live) to
 * @sr's @lane.  0; -EBUSY when they overlap the ids of a step whose WRs
 * may still complete there (*@ret_other: its label); -ENOSPC when there
 * are RS_MAX_WR_RANGES already. */
int rs_step_wr_range(struct rs_step_run *sr, const void *queue, bool recv,
		     uint64_t base, uint64_t n, unsigned lane,
		     const char **ret_other);

/* The owner's first unexpected completion, as a failure of @sr. */
void rs_step_fail_wc(struct rs_step_run *sr, struct rs_owner *o);
/* After completions or a wake-up: fail on a bad completion, else let
 * the type progress. */
void rs_step_advance(struct rs_step_run *sr);

/* "rem_access_err": the `expect:` name of a status. */
const char *rs_wc_status_name(int status);

/*
 * A step type's optional ops (struct rdmascn_step_ops), with the
 * fallbacks of a type that has no ops or does not offer one.
 */
static inline const char *rs_step_receives_into(const struct rs_obj *obj,
						uint64_t *ret_offset)
{
	const struct rdmascn_step_ops *ops = obj->kind->step_ops;

	return ops && ops->receives_into ?
	       ops->receives_into(obj, ret_offset) : NULL;
}

static inline unsigned rs_step_children(struct rs_step_run *sr,
					struct rs_step_run ***ret)
{
	*ret = NULL;
	return sr->ops && sr->ops->children ? sr->ops->children(sr, ret) : 0;
}

#endif
