/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_KIND_H_PUBLIC
#define RDMASCN_KIND_H_PUBLIC

#include <stdbool.h>
#include <stdint.h>

#include <cyaml/cyaml.h>

/*
 * An object kind (a section of the scenario, e.g. `qps:`) or a step type
 * (a key of a `steps:` entry, e.g. `write:`).  The schema is libcyaml
 * field data; the top-level schema is assembled from the registered kinds,
 * so a plugin adds sections the same way the core does.
 */
struct ibv_ah;
struct ibv_context;
struct ibv_pd;
struct ibv_srq;
struct rdmascn_call;

/*
 * The engine's objects, opaque: a plugin holds pointers to them and asks
 * about them through functions (rdmascn/plugin.h), so that the engine
 * may change them without a new ABI.
 */
struct rdmascn_obj;         /* an object or step as the scenario gives it */
struct rdmascn_diag;        /* where check() errors go */
struct rdmascn_run;         /* a run of a scenario */
struct rdmascn_live;        /* an object of a run, on a device */
struct rdmascn_step_run;    /* a step of a run */
struct rdmascn_val;         /* a tree of values (rdmascn/value.h) */
struct rdmascn_dev;         /* a device, the port and GID a run uses */
/* What the steps post on, poll and address, made for a plugin's object
 * by rdmascn_*_handle_new() (rdmascn/qp.h, rdmascn/mem.h). */
struct rdmascn_qp_handle;
struct rdmascn_cq_handle;
struct rdmascn_mem_handle;
struct rdmascn_mw_handle;

/*
 * Facets: an object seen as something the engine and the steps use,
 * whatever its kind, so that a plugin's QP is a QP to every step.  Each
 * is one op of the same shape: fill the view below and return 0, or
 * return -EOPNOTSUPP (not one of those, or not made yet) leaving it
 * untouched.  What the steps change as they run (a QP's state, a
 * window's rkey) is behind an opaque handle the engine made.
 */

/* As a verbs context: what the objects that stand on it are made on (a
 * core context's ibv_open_device(), mlx5's mlx5dv_open_device()).  A
 * reference whose kinds name "context" accepts any kind offering it. */
struct rdmascn_context {
	struct ibv_context *ctx;
};

/* As a device: what a context stands for (the core's contexts). */
struct rdmascn_device {
	struct rdmascn_dev *dev;
};

/* As a protection domain. */
struct rdmascn_pd {
	struct ibv_pd *pd;
};

/* As memory the steps name where an mr is asked for (rdmascn/mem.h). */
struct rdmascn_mem {
	struct rdmascn_mem_handle *rt;
};

/* As a memory window. */
struct rdmascn_mw {
	struct rdmascn_mw_handle *rt;
};

/* As an address handle: what a UD send names its destination by. */
struct rdmascn_ah {
	struct ibv_ah *ah;
};

/* As a QP: what steps post on, and where its work completes. */
struct rdmascn_qp {
	struct rdmascn_qp_handle *rt; /* rdmascn_qp_handle_new() */
	int type;                /* enum rdmascn_qp_type */
	bool ex;                 /* ibv_wr_* for the ops in send_ops */
	uint64_t send_ops;       /* IBV_QP_EX_WITH_* */
	uint8_t port;            /* 0: its context's */
	uint16_t pkey_index;
	const char *send_cq;     /* ids */
	const char *recv_cq;     /* where its receives complete */
	const char *srq;         /* where its receives come from; NULL:
				  * its own receive queue */
	bool srq_posts;          /* receives are posted to the srq */
	/* An xrc_recv QP: the XRC domain whose SRQ its receives come from
	 * and complete on the CQ of; the engine finds that SRQ and sets
	 * srq, srq_posts (false) and recv_cq.  NULL: none. */
	const char *recv_xrcd;
};

/*
 * A QP kind some of whose QPs address each send WR themselves (mlx5's
 * DCIs name a DCT in each), in its plugin's wr_dests (rdmascn/plugin.h)
 * so that `validate`
 * can say a send, write or read step on one needs `dct:` (and `ah:`),
 * and that what `dct:` names is a destination.  The object's data as
 * libcyaml filled it.
 */
struct rdmascn_wr_dest {
	const char *kind;                    /* "mlx5_qp" */
	bool (*needs_dest)(const void *qp);  /* its sends name a dct: */
	bool (*is_dest)(const void *obj);    /* a dct: may name it */
	const char *sender;                  /* "a dci", in messages */
	const char *dest;                    /* "a dct" */
	/* While a step posts on such a QP @qp (its ibv_qp_ex),
	 * after each ibv_wr_<op>() and before the WR's data: address the
	 * WR to @dest (what the step's `dct:` names) through @ah (its
	 * `ah:`), e.g. with mlx5dv_wr_set_dc_addr(). */
	void (*set_wr_dest)(struct rdmascn_live *qp,
			    struct rdmascn_live *dest, struct ibv_ah *ah);
};

/*
 * Objects of a kind that a WR of their own registers onto memory (mlx5's
 * indirect mkeys: a UMR WR built with mlx5dv_wr_mr_list() or
 * mlx5dv_wr_mr_interleaved()), posted by the core's `register_layout`
 * step; in its plugin's wr_regs (rdmascn/plugin.h).  Object data as
 * libcyaml filled it.
 */
struct rdmascn_wr_reg {
	const char *kind;                /* "mlx5_mkey" */
	const char *op;                  /* "umr": its WRs in messages */
	/* validate: can the QP @qp (its kind @qp_kind's data) post @obj's
	 * registration?  0, or -EINVAL with the error said through
	 * rdmascn_obj_error() at @step's field "qp" or "mkey".  It may
	 * note in @qp's data what the QP's create must allow for (a WQE
	 * large enough). */
	int (*check)(struct rdmascn_obj *step, struct rdmascn_diag *d,
		     const char *qp_kind, void *qp, const void *obj);
	/* On a device, between ibv_wr_start() and ibv_wr_complete() on
	 * @qp (its ibv_qp_ex, wr_id and wr_flags set): build the WR
	 * that registers @obj (mlx5dv_wr_mr_list()); 0 or -errno (then
	 * the WR is aborted). */
	int (*build)(struct rdmascn_live *qp, struct rdmascn_live *obj);
	/* The flags it needs in wr_flags besides the engine's
	 * (IBV_SEND_INLINE for a UMR). */
	unsigned wr_flags;
	/* The opcode its signalled completion carries (MLX5DV_WC_UMR):
	 * a completion with another one fails the step. */
	int wc_opcode;
	const char *wc_opcode_name;      /* "MLX5DV_WC_UMR" */
	/* Dry run: the WR's arguments, with rdmascn_call_arg(). */
	void (*dry)(const void *obj, struct rdmascn_call *c);
};

/* As a CQ. */
struct rdmascn_cq {
	struct rdmascn_cq_handle *rt; /* rdmascn_cq_handle_new() */
	bool events;             /* waits on events unless a step says */
	/* Holds a completion channel, one file descriptor, from its
	 * creation on (told before it, from its settings).  The engine
	 * clears the struct before asking, so a plugin built before this
	 * member says none (it sat in the padding: same size). */
	bool channel;
};
_Static_assert(sizeof(struct rdmascn_cq) == 2 * sizeof(void *),
	       "struct rdmascn_cq grew: a new plugin ABI");

/* As an SRQ. */
struct rdmascn_srq {
	struct ibv_srq *srq;
	uint32_t srq_num;        /* xrc: what a sender names */
	uint32_t max_wr;         /* receives it can hold */
	const char *cq;          /* xrc: where its receives complete */
	const char *xrcd;        /* xrc: its domain; else NULL */
};

/* As what joins two QPs. */
struct rdmascn_link {
	const char *id;          /* NULL: none given */
	const char *a, *b;       /* the QPs */
	int mtu;                 /* IBV_MTU_*; 0: the port's */
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
};

/*
 * What a kind does on a device.  Missing ops are fine: the engine treats
 * a missing check_caps as "nothing needed", a missing create as "cannot
 * be created here" (-EOPNOTSUPP), a missing describe as nothing to say,
 * a missing facet as "not one of those" (the engine's callers never test
 * for NULL).
 */
#define RDMASCN_CREATE_LATER 1

struct rdmascn_ops {
	/* Bytes of the kind's runtime state (rdmascn_live_rt()), zeroed
	 * before create and freed after destroy. */
	uint32_t rt_size;
	/* Before anything is created: 0, or -EOPNOTSUPP with the missing
	 * capability named in @why ("xrc (IBV_DEVICE_XRC)"). */
	int (*check_caps)(struct rdmascn_run *run, struct rdmascn_live *l,
			  char *why, unsigned len);
	/* Make it, through rdmascn_call_go()/_done(); 0 or -errno, the
	 * failure already reported; or RDMASCN_CREATE_LATER: made during
	 * the steps, by the step that has what it needs (an address
	 * handle from a received completion), when create is called
	 * again. */
	int (*create)(struct rdmascn_run *run, struct rdmascn_live *l);
	/* Release whatever rt holds, also after a create that failed half
	 * way: every member NULL-checked. */
	void (*destroy)(struct rdmascn_run *run, struct rdmascn_live *l);
	/* Facts for the report: qpn, lkey, cqe granted, ... */
	void (*describe)(struct rdmascn_run *run, struct rdmascn_live *l,
			 struct rdmascn_val *obj);
	/* Before check_caps: find the device it stands for; 0, or -errno
	 * reported. */
	int (*probe)(struct rdmascn_run *run, struct rdmascn_live *l);
	/* While steps run: a descriptor to watch (-1: none), what to call
	 * it in messages, and what to do when it is readable (read until
	 * EAGAIN, fail @sr on what means something broke). */
	int (*watch_fd)(struct rdmascn_live *l, const char **ret_what);
	void (*on_readable)(struct rdmascn_step_run *sr,
			    struct rdmascn_live *l);
	/* librdmacm was used for it (and keeps a device context of its
	 * own open until exit: not a leak). */
	bool (*uses_rdma_cm)(const struct rdmascn_live *l);

	/* Facets (above): 0 and the view filled, or -EOPNOTSUPP. */
	int (*as_context)(struct rdmascn_live *l, struct rdmascn_context *ret);
	int (*as_dev)(struct rdmascn_live *l, struct rdmascn_device *ret);
	int (*as_pd)(struct rdmascn_live *l, struct rdmascn_pd *ret);
	int (*as_mem)(struct rdmascn_live *l, struct rdmascn_mem *ret);
	int (*as_mw)(struct rdmascn_live *l, struct rdmascn_mw *ret);
	int (*as_ah)(struct rdmascn_live *l, struct rdmascn_ah *ret);
	int (*as_qp)(struct rdmascn_live *l, struct rdmascn_qp *ret);
	int (*as_cq)(struct rdmascn_live *l, struct rdmascn_cq *ret);
	int (*as_srq)(struct rdmascn_live *l, struct rdmascn_srq *ret);
	int (*as_link)(struct rdmascn_live *l, struct rdmascn_link *ret);
};

/* What a step type does: start on the step's loop, finish through
 * the engine; stop (deadline, signal) must end it promptly. */
struct rdmascn_step_ops {
	/* Bytes of the step's runtime state (sr->rt), zeroed. */
	uint32_t rt_size;
	/* Post, watch CQs, start timers; or finish at once.  0, or -errno
	 * once the step failed. */
	int (*start)(struct rdmascn_step_run *sr);
	/* Completions were reaped or the step was woken: post more, or
	 * finish.  Optional. */
	void (*progress)(struct rdmascn_step_run *sr);
	/* Deadline or signal: stop posting, stop children; the engine then
	 * closes every handle.  Optional. */
	void (*stop)(struct rdmascn_step_run *sr);
	/* Release what start() allocated in rt, after the loop closed. */
	void (*release)(struct rdmascn_step_run *sr);
	/* A step that posts receives: the mr @obj's land in, and where in
	 * it: *@ret_offset is, in, which of its receives (0: the first) and,
	 * out, that one's offset (a sender's verify: reads them there).
	 * NULL: it posts none, or not into one buffer.  Optional. */
	const char *(*receives_into)(const struct rdmascn_obj *obj,
				     uint64_t *ret_offset);
	/* A step that runs others (parallel): their runs, after it ran, in
	 * *@ret; how many.  Optional: none. */
	unsigned (*children)(struct rdmascn_step_run *sr,
			     struct rdmascn_step_run ***ret);
	/* In a dry run, instead of start: the verbs calls the step would
	 * make, through the engine, with what only a device knows named
	 * ("lkey(src)").  Optional: it makes none worth showing. */
	void (*dry_run)(struct rdmascn_run *run, struct rdmascn_obj *obj);
};

/* What a step does to the layout of what its reference names. */
enum rdmascn_layout {
	RDMASCN_LAYOUT_KEEPS = 0,    /* nothing */
	RDMASCN_LAYOUT_SETS,         /* registers it (register_layout's mkey) */
	RDMASCN_LAYOUT_DROPS,        /* takes it away (a local invalidate, a
				      * send with invalidate) */
};

/* A field of the object that names other objects by id. */
struct rdmascn_ref {
	const char *field;           /* dotted path, for messages and graph labels */
	uint32_t offset;             /* of a char * (or char ** when listed) */
	int32_t count_offset;        /* -1: one id; else offset of an unsigned count */
	const char *const *kinds;    /* accepted target kinds, NULL-terminated; NULL: any */
	bool after;                  /* an ordering edge only (`after:`) */
	/* It may name an object on another node (`nodes:`): a connection's
	 * QPs, a step's remote MR or peer. */
	bool spans;
	/* What it names must be on the verbs context that the object's
	 * other such references are on (a QP's pd, CQs and SRQ: a handle
	 * of one uverbs file means nothing, or something else, in
	 * another's).  validate refuses two. */
	bool one_context;
	/* Steps: what the step does to the memory layout of the object
	 * this reference names (an mkey a WR registers), an enum
	 * rdmascn_layout: a step that sets a layout still in place, with
	 * no step that drops it in between, is refused. */
	uint8_t layout;
	/* Listed structures: @offset is that of a pointer to an
	 * array of items @stride bytes each, with the char * id at
	 * @item_offset in each (NULL: that item names nothing), written as
	 * @item_key ("ref" of `set: [{field: pd, ref: pd0}]`, "mr" of
	 * `sge: [{mr: a, ...}]`).  0: a list of ids. */
	uint32_t stride;
	uint32_t item_offset;
	const char *item_key;
};

#define RDMASCN_KINDS(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* A step type's figure groups (`figures`): some, or none. */
#define RDMASCN_FIGURES(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define RDMASCN_NO_FIGURES ((const char *const[]){ NULL })

/* The longest id, in bytes. */
#define RDMASCN_ID_MAX 64

struct rdmascn_kind {
	const char *name;            /* "qp": used in messages */
	const char *section;         /* "qps" for objects; the key for steps */
	const char *summary;
	const cyaml_schema_field_t *fields;
	uint32_t size;               /* of the struct the fields fill */
	uint32_t id_offset;          /* of `char *id` */
	const struct rdmascn_ref *refs; /* ends with { NULL } */
	bool step;
	/* Checks the schema cannot express; errors through
	 * rdmascn_obj_error(). */
	int (*check)(struct rdmascn_obj *obj, struct rdmascn_diag *d);
	/* Step types that hold steps (`parallel:`): where the nested
	 * steps' array and its unsigned count are; 0 if none. */
	uint32_t children_offset;
	uint32_t children_count_offset;
	/* On a device: objects have ops, steps step_ops. */
	const struct rdmascn_ops *ops;
	const struct rdmascn_step_ops *step_ops;
	/* Steps: the figure groups its steps record ("latency"), ending
	 * with NULL, so that a `gate:` on a figure it never records is an
	 * error at validate time; NULL: it does not say (any is taken). */
	const char *const *figures;
};

#endif
