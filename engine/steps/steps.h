/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STEPS_H
#define RDMASCN_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "registry.h"
#include "schema.h"
#include "step_fields.h"
#include "step_types.h"
#include "wire.h"

struct rs_obj;
struct rs_diag;

/*
 * Core step types: the typed data libcyaml fills for each `steps:` entry.
 * Every struct starts with struct rs_step_common (id, after, deadline_ms).
 * Numbers that are absent read as 0; whether a field was given at all is
 * rs_obj_has(obj, "field").
 */

/* Kinds a reference field accepts. */
#define RS_QP_KINDS "qp"

/* One entry of `sge:`: @length bytes (absent: the rest of the mr) at
 * @offset of mr @mr. */
struct rs_sge_spec {
	char *mr;
	uint64_t offset;
	uint32_t length;
};

/* The most entries an `sge:` list takes (the QP's max_send_sge or
 * max_recv_sge decides at run). */
#define RS_SGE_MAX 64
/* `wr_id:` values stay below this: above are the engine's own ids (the
 * posting step's slot in the top bits). */
#define RS_USER_WR_ID_END (1ull << 40)

/*
 * What varies from one WR to the next (wr.c): an SGE list instead of
 * local/offset/length, a stride per iteration on the local (and, for
 * write and read, the remote) side, the first wr_id, and a cap on the
 * bytes a WR moves (a longer message is split into chained WRs).
 */
struct rs_step_vary {
	struct rs_sge_spec *sge;
	unsigned sge_count;
	uint64_t stride;         /* bytes added to each local address per
				  * iteration */
	uint64_t remote_stride;  /* ... to the remote address */
	uint64_t wr_id;          /* the first WR's, when given */
	uint32_t max_msg_sz;     /* when given: at most this per WR */
};

/* The steps that post WRs: send, recv, write, read, atomic, ud_send, bind_mw,
 * invalidate, register_layout. */
struct rs_step_send {
	struct rs_step_common common;
	char *qp;
	char *local;
	char *ah;                /* UD: address handle ... ; with dct:
				  * the address handle to it */
	char *dct;               /* a QP whose sends name their destination
				  * (a DCI): that one (a DCT) */
	char *invalidate_rkey_of; /* send_with_inv: an mr or mw */
	uint32_t length;
	uint32_t imm;            /* send_with_imm when given */
	uint32_t remote_qpn;     /* ... UD destination */
	uint32_t remote_qkey;
	uint64_t offset;
	struct rs_step_traffic traffic;
	struct rs_step_vary vary;
};

/* `grh:` of a UD recv: the GIDs its receives' GRH must carry, given as
 * text (sgid, dgid) or as the GID a context uses (sgid_of, dgid_of). */
struct rs_step_grh {
	char *sgid;
	char *dgid;
	char *sgid_of;
	char *dgid_of;
	uint8_t sgid_raw[16];    /* check() */
	uint8_t dgid_raw[16];
};

struct rs_step_recv {
	struct rs_step_common common;
	char *qp;                /* exactly one of qp, srq */
	char *srq;
	char *local;
	uint32_t length;
	uint32_t count;          /* receives to post */
	uint64_t offset;
	struct rs_step_grh grh;  /* in place: its references resolve */
	struct rs_step_traffic traffic; /* expect, completion, wc only */
	struct rs_step_vary vary;
};

struct rs_step_write {
	struct rs_step_common common;
	char *qp;
	char *local;
	char *remote;            /* an mr or mw */
	char *dct;               /* a QP whose sends name their destination
				  * (a DCI): that one (a DCT) ... */
	char *ah;                /* ... and the address handle to it */
	uint32_t length;
	uint32_t imm;            /* write_with_imm when given */
	uint32_t rkey;           /* override the remote key when given */
	uint64_t offset;
	uint64_t remote_offset;
	struct rs_step_traffic traffic;
	struct rs_step_vary vary;
};

struct rs_step_read {
	struct rs_step_common common;
	char *qp;
	char *local;
	char *remote;            /* an mr or mw */
	char *dct;               /* a QP whose sends name their destination
				  * (a DCI): that one (a DCT) ... */
	char *ah;                /* ... and the address handle to it */
	uint32_t length;
	uint32_t rkey;           /* override the remote key when given */
	uint64_t offset;
	uint64_t remote_offset;
	struct rs_step_traffic traffic;
	struct rs_step_vary vary;
};

enum rs_atomic_op { RS_ATOMIC_FETCH_ADD, RS_ATOMIC_CMP_SWAP };
static const cyaml_strval_t rs_atomic_op_names[] = {
	{ "fetch_add", RS_ATOMIC_FETCH_ADD },
	{ "cmp_swap", RS_ATOMIC_CMP_SWAP },
};

struct rs_step_atomic {
	struct rs_step_common common;
	char *qp;
	char *local;
	char *remote;
	int op;                  /* enum rs_atomic_op, required */
	uint64_t add;
	uint64_t compare;
	uint64_t swap;
	uint64_t offset;         /* of the fetched value in local */
	uint64_t remote_offset;  /* 8-byte aligned */
	uint64_t expect_fetched; /* checked when given */
	struct rs_step_traffic traffic;
	struct rs_step_vary vary;
};

struct rs_step_ud_send {
	struct rs_step_common common;
	char *qp;
	char *ah;
	char *to;                /* the destination UD QP: its QPN, qkey */
	char *reply_to;          /* or: a recv step, whose last receive's
				  * sender is answered (ah `from_wc`) */
	uint32_t remote_qkey;    /* reply_to: the Q_Key */
	char *local;
	uint32_t length;
	uint64_t offset;
	struct rs_step_traffic traffic;
	struct rs_step_vary vary;
};

/* `access:` of bind_mw: IBV_ACCESS_* bits. */
static const cyaml_strval_t rs_mw_access_names[] = {
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
	{ "zero_based", IBV_ACCESS_ZERO_BASED },
};

struct rs_step_bind_mw {
	struct rs_step_common common;
	char *qp;
	char *mw;
	char *mr;
	uint32_t access;         /* IBV_ACCESS_* */
	uint64_t offset;
	uint64_t length;
	struct rs_step_traffic traffic; /* expect, completion only */
};

struct rs_step_invalidate {
	struct rs_step_common common;
	char *qp;
	char *mw;                /* exactly one of mw, mr */
	char *mr;
	struct rs_step_traffic traffic; /* expect, completion only */
};

struct rs_step_register_layout {
	struct rs_step_common common;
	char *qp;
	char *mkey;
	struct rs_step_traffic traffic; /* expect, completion, wc */
};

/* Measured traffic: pingpong, stream. */
enum rs_pingpong_op { RS_PINGPONG_SEND, RS_PINGPONG_WRITE };
static const cyaml_strval_t rs_pingpong_op_names[] = {
	{ "send", RS_PINGPONG_SEND }, { "write", RS_PINGPONG_WRITE },
};

struct rs_step_pingpong {
	struct rs_step_common common;
	char *qp;
	char *peer;
	char *local;
	char *peer_local;
	int op;                  /* enum rs_pingpong_op; default send */
	int completion;          /* enum rs_completion */
	uint32_t size;
	bool inline_data;
	uint64_t iterations;
	uint64_t warmup;
};

/* The default, write, is 0. */
enum rs_stream_op { RS_STREAM_WRITE, RS_STREAM_SEND, RS_STREAM_READ };
static const cyaml_strval_t rs_stream_op_names[] = {
	{ "write", RS_STREAM_WRITE }, { "send", RS_STREAM_SEND },
	{ "read", RS_STREAM_READ },
};

struct rs_step_stream {
	struct rs_step_common common;
	char *qp;                /* exactly one of qp, qps */
	char **qps;
	unsigned qps_count;
	char *local;
	char *remote;            /* write, read */
	char *peer;              /* send: the receiving QP */
	int op;                  /* enum rs_stream_op; default write */
	int completion;          /* enum rs_completion */
	uint32_t size;
	uint32_t depth;
	uint32_t post_list;
	uint32_t signal_every;
	bool inline_data;
	uint64_t iterations;     /* not with duration_ms */
	uint64_t duration_ms;
};

/* Steps that check, nest, wait or change state: verify, parallel,
 * sleep, modify_qp. */
enum rs_verify_pattern { RS_VERIFY_ZERO, RS_VERIFY_PATTERN, RS_VERIFY_BYTE };
static const cyaml_strval_t rs_verify_pattern_names[] = {
	{ "zero", RS_VERIFY_ZERO }, { "pattern", RS_VERIFY_PATTERN },
	{ "byte", RS_VERIFY_BYTE },
};

struct rs_step_verify {
	struct rs_step_common common;
	char *mr;
	char *equals;            /* one of equals, pattern, equals_u64, */
	int pattern;             /* enum rs_verify_pattern */
	uint8_t byte;            /* pattern: byte */
	uint64_t offset;
	uint64_t length;
	uint64_t equals_u64;     /* first 8 bytes, little-endian */
	char *equals_text;       /* equals_text, equals_hex, equals_file */
	char *equals_hex;
	char *equals_file;
	uint64_t equals_offset;  /* where in equals (mr or literal) */
	int literal;             /* check(): enum rs_literal_form */
	const char *literal_value; /* check(): the one given */
	const char *literal_field; /* check(): its field */
};

/* Nested steps: the loader recurses into `steps`. */
struct rs_step_parallel {
	struct rs_step_common common;
	struct rs_step_entry *steps;
	unsigned steps_count;
};

struct rs_step_sleep {
	struct rs_step_common common;
	uint64_t ms;
};

/* impair: netem on the netdev under a context's port, around nested
 * steps (run one after another) or for duration_ms.  The values as
 * written ("2%", "10ms"); check() puts them in netem's units. */
struct rs_step_impair {
	struct rs_step_common common;
	char *context;
	char *loss, *loss_correlation;
	char *delay, *jitter, *delay_correlation;
	char *reorder, *reorder_correlation;
	char *duplicate, *duplicate_correlation;
	char *corrupt, *corrupt_correlation;
	uint32_t gap;
	uint32_t limit;
	char *rate;              /* refused: libnl-route-3 cannot set it */
	uint64_t duration_ms;
	struct rs_step_entry *steps;
	unsigned steps_count;
	struct rs_netem netem;   /* check() */
};

/* link: the netdev under a context's port down or up; the step ends
 * when the port's event (IBV_EVENT_PORT_ERR, _ACTIVE) came. */
enum rs_link_state { RS_LINK_DOWN, RS_LINK_UP };
static const cyaml_strval_t rs_link_state_names[] = {
	{ "down", RS_LINK_DOWN }, { "up", RS_LINK_UP },
};

struct rs_step_link {
	struct rs_step_common common;
	char *context;
	int state;               /* enum rs_link_state */
};

struct rs_step_run;
struct rs_live;
/* The netdev under context @ctx_id's port (step_wire.c): 0 with its
 * name and the context, the "wire" figure put; or the step
 * ended: skipped where netem cannot reach the device's traffic or this
 * process lacks CAP_NET_ADMIN (-EOPNOTSUPP), failed (-EIO). */
int rs_step_netdev(struct rs_step_run *sr, const char *ctx_id,
		   struct rs_live **ret_ctx, char *ret_ifname, size_t len);

static const cyaml_strval_t rs_qp_state_names[] = {
	{ "reset", IBV_QPS_RESET }, { "init", IBV_QPS_INIT },
	{ "rtr", IBV_QPS_RTR },     { "rts", IBV_QPS_RTS },
	{ "sqd", IBV_QPS_SQD },     { "sqe", IBV_QPS_SQE },
	{ "err", IBV_QPS_ERR },
};

struct rs_step_modify_qp {
	struct rs_step_common common;
	char *qp;
	int state;               /* enum ibv_qp_state, required */
};

/* `sge:`, `stride:` and `wr_id:` (every posting step), `remote_stride:`
 * (write, read), `max_msg_sz:` (send, write, read). */
extern const cyaml_schema_value_t rs_sge_schema;
#define RS_STEP_WR_FIELDS(s)                                              \
	CYAML_FIELD_SEQUENCE("sge", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			     s, vary.sge, &rs_sge_schema, 1, RS_SGE_MAX),    \
	RS_FIELD_UINT("stride", s, vary.stride),                          \
	RS_FIELD_UINT("wr_id", s, vary.wr_id)
#define RS_STEP_SPLIT_FIELDS(s)                                           \
	RS_FIELD_UINT("max_msg_sz", s, vary.max_msg_sz)
#define RS_STEP_REF_SGE(s)                                                \
	RS_REF_ITEMS("sge", s, vary.sge, struct rs_sge_spec, mr, "mr")
/* What write and read reference alike: the QP, the local mr (or an
 * sge: list), the remote mr or mw, a DCT and the ah to it. */
#define RS_STEP_ONE_SIDED_REFS(s)                                         \
	RS_STEP_REF_AFTER(s),                                             \
	RS_STEP_WC_REFS(s),                                               \
	RS_REF("qp", s, qp, RS_QP_KINDS),                                 \
	RS_REF("local", s, local, "mr"),                                  \
	RS_STEP_REF_SGE(s),                                               \
	RS_REF_SPANS("remote", s, remote, "mr", "mw"),                    \
	RS_REF("dct", s, dct, RS_QP_KINDS),                               \
	RS_REF("ah", s, ah, "ah"),                                        \
	RS_REF_END


/* Shared checks (steps.c).  Each returns 0 or -EINVAL after an error. */
int rs_step_one_of(struct rs_obj *obj, struct rs_diag *d, const char *a,
		   const char *b);
/* The mr or mw @field names can be invalidated (a type 2 mw): else an
 * error at @field. */
int rs_step_check_invalidatable(struct rs_obj *obj, struct rs_diag *d,
				const char *field);
int rs_step_check_traffic(struct rs_obj *obj, struct rs_diag *d,
			  const struct rs_step_traffic *t);
/* `dct:` and `ah:` of a send, write or read (@dct, @ah: NULL when
 * absent), against what the QP's kind registered of its WRs'
 * destinations. */
int rs_step_check_dest(struct rs_obj *obj, struct rs_diag *d,
		       const char *dct, const char *ah);

#endif
