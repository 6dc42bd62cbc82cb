/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RUN_H
#define RDMASCN_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <infiniband/verbs.h>

#include "diag.h"
#include "idmap.h"
#include "macros.h"
#include "model.h"
#include "record.h"
#include "signals.h"

/*
 * A run: the scenario's objects made real, in plan order, and taken down
 * in exact reverse.  Every object of the scenario has a struct rs_live;
 * its kind's ops (struct rdmascn_ops in rdmascn/kind.h) fill it.
 */
enum rs_live_state {
	RS_LIVE_PENDING,     /* not reached */
	RS_LIVE_CREATED,
	RS_LIVE_FAILED,      /* its create failed */
	RS_LIVE_DEPENDENT,   /* not created: something it needs failed */
	RS_LIVE_DESTROYED,
	RS_LIVE_EXPECTED,    /* its create failed, as expect: said */
};

/* An mr or a qp another node made (nodes/, rs_nodes_publish()): what a
 * step here posts to it with (a ud_send `to:` it: its QPN and Q_Key; its
 * port's GID, LID, number and GID type, which the step's ah must
 * address).  Apart from struct rs_live, in run->far, made when another
 * node sends one: a run on one node has none, and 40 bytes an object
 * were 15% of a dry run's own. */
struct rs_far {
	bool known;
	uint32_t rkey;
	uint64_t addr, length;
	bool qp_known;
	uint32_t qpn, qkey;
	uint8_t gid[16];
	uint16_t lid;
	uint8_t port;
	uint8_t gid_type;
};

struct rs_live {
	struct rs_obj *obj;
	enum rs_live_state state;
	/* expect: create: fail: the errno its create call failed with,
	 * which rs_call_done() left for the create path to judge. */
	int create_errno;
	void *rt;                /* the kind's runtime struct, ops->rt_size
				  * bytes, zeroed before create */
	struct rs_live *cause;   /* RS_LIVE_DEPENDENT: the failed object */
	double create_ms;
	struct rs_val *entry;    /* its entry in the run record */
};

/* Resources a device has a maximum of (limits.c). */
enum rs_limit { RS_LIM_QP, RS_LIM_CQ, RS_LIM_MR, RS_LIM_PD, RS_LIM_SRQ,
		RS_LIM_AH, RS_LIM_MW, RS_LIM_N };

/* What a context found on its device, before anything was created. */
struct rs_dev {
	char name[IBV_SYSFS_NAME_MAX];
	struct ibv_device *device;
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port_attr;
	uint8_t port;
	int gid_index;           /* -1: none (InfiniBand without GRH) */
	union ibv_gid gid;
	enum ibv_gid_type gid_type;
	uint32_t features;       /* requires.features bits, plugins' too */
	uint32_t num_comp_vectors;
	/* What the file takes of it, counted before anything is created
	 * (limits.c): how many, and the first object past the maximum. */
	struct {
		uint64_t used;
		struct rs_live *over;
	} lim[RS_LIM_N];
	/* Its maxima as the limits read them (max_qp, max_cqe...), each
	 * once: by the fact name's pointer (the callers' literals).  Read
	 * for every object, a snprintf() and a search of the fact table
	 * each time, they were a tenth of a real run's own instructions
	 * before its first create. */
	struct {
		const char *fact;
		uint64_t max;
		bool ok;             /* false: the device has no such fact */
	} maxima[12];
	unsigned n_maxima;
	/* The link step waiting for this context's port event, else NULL
	 * (the step's loop sets it, the loop that reads the context's
	 * events clears it when the event came: async_events.c). */
	struct rs_step_run *_Atomic port_waiter;
};

/* Where @dev's facts (scenario/facts.h) are read from. */
void rs_dev_fact_src(const struct rs_dev *dev, struct rs_fact_src *ret);
/* @f of @dev: an mlx5.* fact asks the plugins of the device. */
void rs_dev_fact_get(const struct rs_dev *dev, const struct rs_fact *f,
		     struct rs_fact_val *ret);

struct rs_fault;
struct rs_qpc;
struct rs_rdv;

struct rs_wire;

struct rs_run {
	struct rs_scenario *s;
	const char *file;
	struct rs_live *live;    /* indexed by obj->index (objects only) */
	void *rt_block;          /* every live's rt, one allocation */
	struct rs_idmap ids;     /* object id -> index */
	struct rs_live **created;/* in creation order */
	unsigned n_created;
	/* While teardown destroys an object (one at a time): it, its
	 * entry's number and its entry as a tree once rs_live_down() made
	 * it; here, not in each struct rs_live, where 8 bytes were 2% of a
	 * dry run's memory. */
	struct rs_live *down_live;
	unsigned down_no;
	struct rs_val *down_tree;
	/* While an object is created late (rs_run_create_late(), one at a
	 * time): it, and the received completion and the receive's first
	 * 40 bytes a step creates it from (an ah `from_wc`).  Here, not in
	 * each struct rs_live: few objects are made late. */
	struct rs_live *late;
	const struct ibv_wc *late_wc;
	const void *late_grh;
	struct rs_diag diag;     /* errors: FILE:LINE:COL on stderr */
	/* Advice beyond the record (how to get a device): stderr, or
	 * under a launcher a stream that says the node on each line. */
	FILE *err;
	struct rs_record *rec;   /* what happened, for the reporters */
	bool dry_run;
	bool verbose;
	const char *device;      /* --device: every context opens this one */
	/* The node this process plays (`nodes:`): it makes only the
	 * objects on it (rs_obj_on()); RS_NODE_ANY: all of them. */
	int node;
	struct rs_rdv *rdv;      /* the other nodes; NULL: none, dry run */
	const struct rs_run_nodes *nodes; /* set with rdv */
	struct ibv_device **devices; /* ibv_get_device_list() */
	int n_devices;
	unsigned calls;          /* create and modify calls made so far */
	struct rs_fault *faults; /* RDMASCN_FAULT */
	unsigned n_faults;
	bool teardown_failed;
	/* An object's expect: create: fail did not hold (exit 1, not 3). */
	bool expect_unmet;
	uint64_t default_deadline_ms;
	/* --counters=off: no port counter is read around the steps. */
	bool counters_off;
	/* Nothing will read the objects' facts: not described. */
	bool facts_unread;
	/* > 0: every this many ms a running step says where it is
	 * (RS_REC_PROGRESS), for a terminal's progress line. */
	uint64_t progress_ms;
	/* Known deviations for this scenario (none with --strict); after
	 * the probe, rs_run_deviations() keeps those of its devices. */
	const struct rs_deviation **deviations;
	unsigned n_deviations;
	/* --samples: every latency sample, CSV; the invocation's (the
	 * CLI opens and checks it), not the run's. */
	FILE *samples;
	const char *cell;        /* a matrix cell's name, or NULL */
	/* The scenario loaded again with its devices' facts
	 * (rs_run_facts()): run->s is it; the caller's is kept. */
	struct rs_scenario *s_facts;
	/* What steps changed on the wire (exec/wire.h): undone in
	 * teardown, whatever ended the run; NULL until the first. */
	struct rs_wire *wire;
	/* The per-QP counters' binding state (qp_counters.h), from the
	 * steps to the leak check; none with counters_off. */
	struct rs_qpc *qpc;
	/* What other nodes made, indexed like live; NULL until one sent
	 * something (rs_nodes_publish()). */
	struct rs_far *far;
};

/* What another node published of @l (all zero when nothing). */
static inline const struct rs_far *rs_live_far(const struct rs_run *run,
					       const struct rs_live *l)
{
	static const struct rs_far none;

	return run->far ? &run->far[l->obj->index] : &none;
}

/* Whether this process makes @o (or runs its step), in part or whole
 * (a connection to another node: its own side). */
static inline bool rs_run_here(const struct rs_run *run, const struct rs_obj *o)
{
	return o->kind->step ? rs_step_on(o, run->node) :
	       rs_obj_on(o, run->node);
}

/* The most a crossing object tells the node on its other side. */
#define RS_CROSS_MAX 512

/*
 * One object that crosses nodes (a connection to a QP on another node),
 * in a phase of creation: made in two halves around the phase's one
 * exchange (rs_run_create()).  Its kind's rs_cross_ops wrote @mine;
 * the exchange fills @theirs (rs_malloc'd, @their_len bytes) with what
 * node @far wrote for it.
 */
struct rs_cross {
	struct rs_live *l;
	int far;                 /* the node on its other side */
	uint8_t mine[RS_CROSS_MAX];
	size_t len;
	void *theirs;
	size_t their_len;
};

/*
 * What a kind that can cross nodes offers besides its ops (the core's
 * connection): kept out of struct rdmascn_ops, whose every new member is
 * a new plugin ABI, as no plugin kind crosses nodes.  out: make this
 * node's half and write what the far node needs into @buf (@len bytes at
 * most): their number, or -errno reported.  in: finish with what the far
 * node's out wrote: 0, or -errno reported.
 */
struct rs_cross_ops {
	const struct rdmascn_ops *ops;      /* the kind's */
	int (*out)(struct rs_run *run, struct rs_live *l, void *buf,
		   size_t len);
	int (*in)(struct rs_run *run, struct rs_live *l, const void *far,
		  size_t far_len);
};
/* A kind's, from its constructor (cross.c holds a few); which @l's
 * kind has, or NULL: it cannot cross. */
void rs_cross_add(const struct rs_cross_ops *x);
const struct rs_cross_ops *rs_cross_of(const struct rs_live *l);

/*
 * What exec's phases say to the other nodes: create, the descriptions of
 * a phase's crossing objects (each to its far node only, and theirs
 * back); the step loop, a barrier before each step and an abort when one
 * fails.  The node's part of a run (nodes/nodes.h, a layer above)
 * answers, each as its rs_nodes_*() of the same name; its meeting sets
 * run->nodes along with run->rdv.  Every node calls flush at the same
 * plan positions, @n 0 where none of the phase's objects is its own.
 */
struct rs_run_nodes {
	int (*flush)(struct rs_run *run, unsigned phase, struct rs_cross *c,
		     unsigned n);
	int (*barrier)(struct rs_run *run, const char *what);
	void (*fail)(struct rs_run *run, int code, const char *why);
};


/* Keep the deviations that name a device of the run's contexts (after
 * rs_run_probe()); record them.  The first kept one for step @id, or for
 * the whole scenario when @id is NULL; a whole-scenario one answers for
 * every step too. */
void rs_run_deviations(struct rs_run *run);
const struct rs_deviation *rs_run_deviation(const struct rs_run *run,
					    const char *id);
/* What a deviation says in the record: reason, known, FILE:LINE:COL. */
void rs_deviation_put(struct rs_val *e, const struct rs_deviation *dv);

/* --- what kinds use --------------------------------------------------------- */

/* The live object a reference names (NULL for an absent reference);
 * these lookups are live.c. */
struct rs_live *rs_live_find(struct rs_run *run, const char *id);
/* The context an object belongs to, found through its references: the
 * core context whose device it is on. */
struct rs_live *rs_live_context(struct rs_run *run, struct rs_live *l);
/* A context's device facts. */
struct rs_dev *rs_live_dev(struct rs_run *run, struct rs_live *l);
/* The verbs context an object is made on: that of the first object on
 * its references that is one (the facet as_context: a core context, or
 * a plugin's context opened another way, such as mlx5dv_open_device());
 * NULL when none is open (a dry run).  rs_live_made_on(): that object. */
struct rs_live *rs_live_made_on(struct rs_run *run, struct rs_live *l);
struct ibv_context *rs_live_ibv_context(struct rs_run *run,
					struct rs_live *l);

/*
 * A device's limits, from a kind's check_caps (limits.c).  @l takes one
 * of @what on its device; rs_run_check_caps() names the first object
 * past the device's maximum.  @field's @value against the device fact
 * @fact ("max_cqe"): 0, or -E2BIG, reported at @field with the limit and
 * the way past it, which check_caps returns (the run cannot go on:
 * exit 3).
 */
void rs_dev_limit_count(struct rs_run *run, struct rs_live *l,
			enum rs_limit what);
int rs_dev_limit_value(struct rs_run *run, struct rs_live *l,
		       const char *field, uint64_t value, const char *fact,
		       char *why, unsigned len);
/* Every device's counts against its maxima: 0, or -E2BIG reported. */
int rs_run_limits_report(struct rs_run *run);

/*
 * Verbs calls.  Every call that creates, changes or destroys something
 * goes through this, so that --dry-run and -v can print it with its
 * attributes, RDMASCN_FAULT can fail it, and a failure names the call,
 * the errno text, the object and where it is declared:
 *
 *	struct rs_call c;
 *
 *	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_pd");
 *	rs_call_arg(&c, "context", "%s", ctx->obj->id);
 *	if (rs_call_go(run, l, &c))
 *		RS_CALL_PTR(&c, pd->pd, ibv_alloc_pd(ctx->ctx));
 *	return rs_call_done(run, l, &c);
 *
 * Create and modify calls are numbered (the N of RDMASCN_FAULT=N:ERRNO);
 * queries and destroys are not, but can be named (ibv_destroy_qp:EBUSY).
 */
enum rs_call_class { RS_CALL_CREATE, RS_CALL_MODIFY, RS_CALL_QUERY,
		     RS_CALL_DESTROY };

/* More arguments than this are in the text, not in the entry's fields. */
#define RS_CALL_MAX_ARGS RS_REC_MAX_ARGS /* the record splits at as many */

struct rs_call {
	enum rs_call_class cls;
	const char *name;
	bool quiet;              /* no argument text: nothing will read it */
	bool ok;                 /* after the call */
	bool made;               /* rs_call_go() said make it */
	int err;                 /* errno when !ok */
	unsigned no;             /* its number; 0 for queries and destroys */
	size_t len;
	char args[1536];         /* "key=value key=value", as -v prints */
	unsigned n_at;
	uint16_t at[RS_CALL_MAX_ARGS]; /* where each key starts in args */
	char hint[256];          /* why, when the attributes tell */
	struct rs_rec_call *entry; /* in the run record (dry run, -v), or
				    * NULL */
	uint64_t t0, t1;         /* made, returned (ns); with an entry only */
};

/* The call as a plugin holds it (rdmascn/plugin.h's opaque struct
 * rdmascn_call): exec/plugin_api.c's, and a step's dry run's that a
 * plugin adds arguments to (struct rdmascn_wr_reg's dry). */
struct rdmascn_call {
	struct rs_call c;
};

/* Format calls' arguments from now on (dry run, -v) or not. */
void rs_call_want_args(bool want);
/* Whether they are (a caller whose argument is dear to format skips it:
 * rs_call_arg() would throw it away). */
bool rs_call_args_wanted(void);
void rs_call_init(struct rs_call *c, enum rs_call_class cls,
		  const char *name);
void rs_call_arg(struct rs_call *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set the explanation printed after the errno text. */
void rs_call_hint(struct rs_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Record (dry run, -v), count and maybe fail the call.  True: make it
 * now, then record the outcome with RS_CALL_PTR/RS_CALL_INT (or set c->ok
 * and c->err and call rs_call_returned()).  False: do not make it; c->ok
 * is true for a dry run, false with c->err set for an injected fault.
 */
bool rs_call_go(struct rs_run *run, struct rs_live *l, struct rs_call *c);
/* The call made by hand returned: its time ends here, not at
 * rs_call_done() (a failure's hint may query the device first). */
void rs_call_returned(struct rs_call *c);
/* 0 when the call succeeded; else report it and return -errno.  Destroy
 * failures are reported too and mark the teardown failed.  The outcome
 * goes into the call's record entry. */
int rs_call_done(struct rs_run *run, struct rs_live *l, struct rs_call *c);

/* Calls that return a pointer, NULL with errno on failure. */
#define RS_CALL_PTR(c, lhs, expr)                                         \
	do {                                                              \
		errno = 0;                                                \
		(lhs) = (expr);                                           \
		rs_call_returned(c);                                      \
		(c)->ok = (lhs) != NULL;                                  \
		(c)->err = (c)->ok ? 0 : (errno ? errno : EIO);           \
	} while (0)
/* Calls that return 0, or an errno value (positive, or negative, or -1
 * with errno set: libibverbs has all three). */
#define RS_CALL_INT(c, expr)                                              \
	do {                                                              \
		int r_;                                                   \
		errno = 0;                                                \
		r_ = (expr);                                              \
		rs_call_returned(c);                                      \
		(c)->ok = r_ == 0;                                        \
		(c)->err = r_ > 0 ? r_ : r_ < -1 ? -r_ :                  \
			   (errno ? errno : EIO);                         \
		if ((c)->ok)                                              \
			(c)->err = 0;                                     \
	} while (0)

/*
 * A step's call (ibv_post_send() of a WR list), for the record only: in a
 * dry run, and with -v before the step makes it itself.  Not counted,
 * not failed by RDMASCN_FAULT; nothing when calls are not wanted.
 */
void rs_step_call(struct rs_run *run, const struct rs_obj *step,
		  struct rs_call *c);

/*
 * Release @handle with @fn (an ibv_destroy_*-like call that takes it and
 * returns 0 or an errno) through the wrapper, and forget it.  Nothing
 * happens when it is NULL, except in a dry run, which prints the call.
 */
#define RS_CALL_RELEASE(run, l, fn, handle)                               \
	do {                                                              \
		struct rs_call c_;                                        \
		if (!(handle) && !(run)->dry_run)                         \
			break;                                            \
		rs_call_init(&c_, RS_CALL_DESTROY, #fn);                  \
		rs_call_arg(&c_, (l)->obj->kind->name, "%s",              \
			    (l)->obj->id);                                \
		if (rs_call_go((run), (l), &c_))                          \
			RS_CALL_INT(&c_, fn(handle));                     \
		(handle) = NULL;                                          \
		rs_call_done((run), (l), &c_);                            \
	} while (0)

/* The names of the bits set in @bits, '|'-separated, into @buf; "0"
 * when none is. */
const char *rs_bits_text(uint64_t bits, const struct rs_bit_name *names,
			 size_t n, char *buf, size_t len);

/* "0x" and @v in lower-case hex, at least @digits of them (zeros in
 * front), into @buf: "0x%0*" PRIx64 without a format to read, for the
 * facts each object of a real run puts (an mr's keys, a qp's number). */
#define RS_HEX_MAX 24
const char *rs_hex(uint64_t v, unsigned digits, char buf[RS_HEX_MAX]);

/* Report a problem about an object that is not a verbs call's errno
 * ("connection 'ab': qp 'u' is a ud qp"); returns -@err. */
int rs_live_error(struct rs_run *run, struct rs_live *l, int err,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The same about field @path of the object, located there ("context
 * 'ctx': gid_index: ..."). */
int rs_live_error_at(struct rs_run *run, struct rs_live *l, const char *path,
		     int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A warning about field @path of the object: the run goes on. */
void rs_live_warn_at(struct rs_run *run, struct rs_live *l, const char *path,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* --- phases (run.c) --------------------------------------------------------- */

/* Faults from RDMASCN_FAULT into @run, or with @run NULL only checked:
 * 0, -ENOMEM, or -EINVAL with what is wrong in @why (@len bytes) for the
 * caller to say. */
int rs_faults_parse(struct rs_run *run, const char *spec, char *why,
		    size_t len);
/* Resolve every context's device and port (not in a dry run). */
int rs_run_probe(struct rs_run *run);
/* After the probe: the facts ${CTX.GROUP.FIELD} names, into the
 * record; on a device, the scenario loaded again with them (run->s
 * becomes it).  0, or -EINVAL (reported: the file is invalid with these
 * values), or -errno. */
int rs_run_facts(struct rs_run *run);
/* requires: and each kind's needs; 0 or -EOPNOTSUPP (reported). */
int rs_run_check_caps(struct rs_run *run);
/* Count roughly the descriptors the run will hold; when the soft
 * RLIMIT_NOFILE is below that, raise it to the hard limit.  The record
 * gets "rlimit_nofile" (fd_limit.c); not in a dry run.  Also sets up
 * libuv's process-wide state while descriptors are free. */
void rs_run_fd_limit(struct rs_run *run);
int rs_run_create(struct rs_run *run);
/* Create @l now, during the steps: an object whose create said
 * RDMASCN_CREATE_LATER, from the completion @wc and the receive's first
 * 40 bytes @grh the step that needs it has (its create reads them with
 * rs_live_late()); one at a time.  It joins the end of the created
 * list, so teardown stays the exact reverse of creation.  0, or -errno
 * reported (-EALREADY: it was made already, or is not one made late). */
int rs_run_create_late(struct rs_run *run, struct rs_live *l,
		       const struct ibv_wc *wc, const void *grh);
/* While rs_run_create_late() creates @l: the completion it is made
 * from, its GRH bytes in *@ret_grh; NULL otherwise (at set-up). */
const struct ibv_wc *rs_live_late(const struct rs_run *run,
				  const struct rs_live *l,
				  const void **ret_grh);
void rs_run_teardown(struct rs_run *run);
/* While teardown destroys @l (not in a dry run): its teardown entry as
 * a tree, where a kind puts what it knows only at the end (`facts`),
 * made on the first call; NULL otherwise (the puts then do nothing).
 * An object no kind says more of is a struct in the record instead. */
struct rs_val *rs_live_down(struct rs_run *run, struct rs_live *l);

/* The steps, on libuv loops (steps_run.c): RS_EXIT_PASSED or
 * RS_EXIT_FAILED (reported), or RS_EXIT_CANTRUN. */
int rs_steps_run(struct rs_run *run);
/* After the steps: the scenario's `gates:` against the run's counter
 * totals (the record root's `counters`), judged into the root's `gates`;
 * RS_EXIT_FAILED when one missed (each named at its FILE:LINE:COL),
 * else 0 (gates.c). */
int rs_run_check_gates(struct rs_run *run);
/* Has @dev a counter named @name, in @root's (RS_CTR_ROOT's)
 * DEV/ports/PORT/counters, .../hw_counters or DEV/hw_counters?  The name
 * only: requires.counters reads no value. */
bool rs_dev_has_counter(const char *root, const char *dev, unsigned port,
			const char *name);
/* A dry run's steps: each one's dry_run op, in execution order (nested
 * ones after their parent), under a "steps" phase. */
void rs_steps_dry_run(struct rs_run *run);

/* Resources this process still owns in the kernel (leaks.c), into the
 * record's leaks entry @e ("resources"; "unchecked", the kinds an older
 * kernel does not list; "error", why the kernel could not be asked;
 * with -v "asked" and librdmacm's own context): how many, 0, or -errno
 * when the kernel cannot be asked; @n_devs: how many RDMA devices there
 * were to ask.  The text reporter prints them. */
int rs_leaks_check(const struct rs_run *run, struct rs_val *e,
		   unsigned *n_devs);

double rs_now_ms(void);

#endif
