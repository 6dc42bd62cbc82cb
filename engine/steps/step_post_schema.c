// SPDX-License-Identifier: MIT
/* Steps that post one kind of work request, possibly many times. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "registry.h"
#include "vary.h"

/* `dct:` and `ah:` of a send, write or read: required on a QP whose sends name
 * their destination (a DCI, as its kind registered it), refused on
 * others; `dct:` names a destination of that kind (a DCT). */
static int check_dest(struct rs_obj *obj, struct rs_diag *d,
		      const char *dct, const char *ah)
{
	const struct rs_obj *q = rs_obj_ref(obj, "qp");
	const struct rdmascn_wr_dest *wd = q ? rs_wr_dest_find(q->kind->name) :
				       NULL;
	const struct rs_obj *t;

	if (wd && wd->needs_dest(q->data) && !dct) {
		rs_obj_error(d, obj, "qp", "qp '%s' is %s: each WR names "
			     "its destination: give dct: and ah:", q->id,
			     wd->sender);
		return -EINVAL;
	}
	if (!dct) {
		if (!ah)
			return 0;
		rs_obj_error(d, obj, "ah", "needs 'dct'");
		return -EINVAL;
	}
	if (!wd || !wd->needs_dest(q->data)) {
		rs_obj_error(d, obj, "dct", "qp '%s' does not name a "
			     "destination in each WR", q ? q->id : "?");
		return -EINVAL;
	}
	t = rs_obj_ref(obj, "dct");
	if (!t || strcmp(t->kind->name, wd->kind) || !wd->is_dest(t->data)) {
		rs_obj_error(d, obj, "dct", "'%s' is not %s", dct, wd->dest);
		return -EINVAL;
	}
	if (!ah) {
		rs_obj_error(d, obj, "dct", "needs 'ah' (the address handle "
			     "of the path to %s)", wd->dest);
		return -EINVAL;
	}
	return 0;
}

/* send */
#define S struct rs_step_send
static const cyaml_schema_field_t send_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("imm", S, imm),
	RS_FIELD_OPT_REF("ah", S, ah),
	RS_FIELD_OPT_REF("dct", S, dct),
	RS_FIELD_UINT("remote_qpn", S, remote_qpn),
	RS_FIELD_UINT("remote_qkey", S, remote_qkey),
	RS_FIELD_OPT_REF("invalidate_rkey_of", S, invalidate_rkey_of),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_SPLIT_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref send_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF("ah", S, ah, "ah"),
	RS_REF("dct", S, dct, RS_QP_KINDS),
	RS_REF("invalidate_rkey_of", S, invalidate_rkey_of, "mr", "mw"),
	RS_REF_END
};

static int send_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (rs_obj_has(obj, "imm") && s->invalidate_rkey_of) {
		rs_obj_error(d, obj, "invalidate_rkey_of",
			     "exclusive with 'imm'");
		return -EINVAL;
	}
	if (s->invalidate_rkey_of &&
	    rs_step_check_invalidatable(obj, d, "invalidate_rkey_of"))
		return -EINVAL;
	/* A DCI's send: its ah: is the path to the DCT, not a UD one. */
	if (check_dest(obj, d, s->dct, s->dct ? s->ah : NULL))
		return -EINVAL;
	if (s->dct && (rs_obj_has(obj, "remote_qpn") ||
		       rs_obj_has(obj, "remote_qkey"))) {
		rs_obj_error(d, obj, rs_obj_has(obj, "remote_qpn") ?
			     "remote_qpn" : "remote_qkey", "not with 'dct' "
			     "(the DCT's number and key are its own)");
		return -EINVAL;
	}
	if (s->ah && !s->dct && !rs_obj_has(obj, "remote_qpn")) {
		rs_obj_error(d, obj, "remote_qpn",
			     "required with 'ah'");
		return -EINVAL;
	}
	if (!s->ah) {
		const char *f = rs_obj_has(obj, "remote_qpn") ? "remote_qpn" :
				rs_obj_has(obj, "remote_qkey") ? "remote_qkey" :
								  NULL;

		if (f) {
			rs_obj_error(d, obj, f, "needs 'ah'");
			return -EINVAL;
		}
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_send = {
	.name = "send",
	.section = "send",
	.summary = "post sends (with imm or invalidate; UD or DC with ah)",
	.fields = send_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = send_refs,
	.step = true,
	.check = send_check,
	.step_ops = &rs_step_ops_send,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* recv */
static const cyaml_schema_field_t grh_fields[] = {
	RS_FIELD_STR("sgid", struct rs_step_grh, sgid),
	RS_FIELD_STR("dgid", struct rs_step_grh, dgid),
	RS_FIELD_OPT_REF("sgid_of", struct rs_step_grh, sgid_of),
	RS_FIELD_OPT_REF("dgid_of", struct rs_step_grh, dgid_of),
	CYAML_FIELD_END
};

/* A GID as text: IPv6, or IPv4 for its IPv4-mapped GID (RoCE v2). */
static int parse_gid(const char *text, uint8_t gid[16])
{
	uint8_t v4[4];

	if (inet_pton(AF_INET6, text, gid) == 1)
		return 0;
	if (inet_pton(AF_INET, text, v4) != 1)
		return -EINVAL;
	memset(gid, 0, 10);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, v4, 4);
	return 0;
}

#define S struct rs_step_recv
static const cyaml_schema_field_t recv_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_OPT_REF("qp", S, qp),
	RS_FIELD_OPT_REF("srq", S, srq),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("count", S, count),
	CYAML_FIELD_MAPPING("grh", CYAML_FLAG_OPTIONAL, S, grh, grh_fields),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref recv_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("srq", S, srq, "srq"),
	RS_REF("local", S, local, "mr"),
	RS_REF("grh.sgid_of", S, grh.sgid_of, "context"),
	RS_REF("grh.dgid_of", S, grh.dgid_of, "context"),
	RS_STEP_REF_SGE(S),
	RS_REF_END
};

static int recv_check(struct rs_obj *obj, struct rs_diag *d)
{
	S *s = obj->data;
	struct rs_step_grh *g = &s->grh;
	int r = rs_step_one_of(obj, d, "qp", "srq");

	if (!r && rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->count, .offset = s->offset,
			.length = s->length }))
		r = -EINVAL;

	if (!r && g->sgid && g->sgid_of) {
		rs_obj_error(d, obj, "grh.sgid_of", "exclusive with 'sgid'");
		r = -EINVAL;
	}
	if (!r && g->dgid && g->dgid_of) {
		rs_obj_error(d, obj, "grh.dgid_of", "exclusive with 'dgid'");
		r = -EINVAL;
	}
	if (!r && rs_obj_has(obj, "grh") && !g->sgid && !g->dgid &&
	    !g->sgid_of && !g->dgid_of) {
		rs_obj_error(d, obj, "grh", "give sgid, dgid, sgid_of or "
			     "dgid_of");
		r = -EINVAL;
	}
	if (!r && g->sgid && parse_gid(g->sgid, g->sgid_raw)) {
		rs_obj_error(d, obj, "grh.sgid", "'%s' is not a GID", g->sgid);
		r = -EINVAL;
	}
	if (!r && g->dgid && parse_gid(g->dgid, g->dgid_raw)) {
		rs_obj_error(d, obj, "grh.dgid", "'%s' is not a GID", g->dgid);
		r = -EINVAL;
	}
	return r;
}

const struct rdmascn_kind rs_step_kind_recv = {
	.name = "recv",
	.section = "recv",
	.summary = "post receives to a QP or an SRQ",
	.fields = recv_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = recv_refs,
	.step = true,
	.check = recv_check,
	.step_ops = &rs_step_ops_recv,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* write */
#define S struct rs_step_write
static const cyaml_schema_field_t write_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_REF("remote", S, remote),
	RS_FIELD_OPT_REF("dct", S, dct),
	RS_FIELD_OPT_REF("ah", S, ah),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("remote_offset", S, remote_offset),
	RS_FIELD_UINT("imm", S, imm),
	RS_FIELD_UINT("rkey", S, rkey),
	RS_STEP_WR_FIELDS(S),
	RS_FIELD_UINT("remote_stride", S, vary.remote_stride),
	RS_STEP_SPLIT_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref write_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF_SPANS("remote", S, remote, "mr", "mw"),
	RS_REF("dct", S, dct, RS_QP_KINDS),
	RS_REF("ah", S, ah, "ah"),
	RS_REF_END
};

static int write_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (check_dest(obj, d, s->dct, s->ah))
		return -EINVAL;
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data, .remote = true,
			.remote_offset = s->remote_offset,
			.expect = s->traffic.expect }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_write = {
	.name = "write",
	.section = "write",
	.summary = "post RDMA writes (with imm when imm is given)",
	.fields = write_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = write_refs,
	.step = true,
	.check = write_check,
	.step_ops = &rs_step_ops_write,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* read */
#define S struct rs_step_read
static const cyaml_schema_field_t read_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_REF("remote", S, remote),
	RS_FIELD_OPT_REF("dct", S, dct),
	RS_FIELD_OPT_REF("ah", S, ah),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("remote_offset", S, remote_offset),
	RS_FIELD_UINT("rkey", S, rkey),
	RS_STEP_WR_FIELDS(S),
	RS_FIELD_UINT("remote_stride", S, vary.remote_stride),
	RS_STEP_SPLIT_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref read_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF_SPANS("remote", S, remote, "mr", "mw"),
	RS_REF("dct", S, dct, RS_QP_KINDS),
	RS_REF("ah", S, ah, "ah"),
	RS_REF_END
};

static int read_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (check_dest(obj, d, s->dct, s->ah))
		return -EINVAL;
	if (s->traffic.inline_data) {
		rs_obj_error(d, obj, "inline",
			     "not possible for read");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data, .remote = true,
			.remote_offset = s->remote_offset,
			.expect = s->traffic.expect }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_read = {
	.name = "read",
	.section = "read",
	.summary = "post RDMA reads",
	.fields = read_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = read_refs,
	.step = true,
	.check = read_check,
	.step_ops = &rs_step_ops_read,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* atomic */
#define S struct rs_step_atomic
static const cyaml_schema_field_t atomic_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("local", S, local),
	RS_FIELD_REF("remote", S, remote),
	RS_FIELD_REQ_ENUM("op", S, op, rs_atomic_op_names),
	RS_FIELD_UINT("add", S, add),
	RS_FIELD_UINT("compare", S, compare),
	RS_FIELD_UINT("swap", S, swap),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("remote_offset", S, remote_offset),
	RS_FIELD_UINT("wr_id", S, vary.wr_id),
	RS_FIELD_UINT("expect_fetched", S, expect_fetched),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref atomic_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_REF_SPANS("remote", S, remote, "mr"),
	RS_REF_END
};

static int atomic_check(struct rs_obj *obj, struct rs_diag *d)
{
	static const char *const cas[] = { "compare", "swap" };
	const S *s = obj->data;

	for (unsigned i = 0; i < 2; i++) {
		bool has = rs_obj_has(obj, cas[i]);

		if (s->op == RS_ATOMIC_FETCH_ADD && has) {
			rs_obj_error(d, obj, cas[i],
				     "for 'op: cmp_swap', not fetch_add");
			return -EINVAL;
		}
		if (s->op == RS_ATOMIC_CMP_SWAP && !has) {
			rs_obj_error(d, obj, cas[i],
				     "required with 'op: cmp_swap'");
			return -EINVAL;
		}
	}
	if (s->op == RS_ATOMIC_CMP_SWAP && rs_obj_has(obj, "add")) {
		rs_obj_error(d, obj, "add",
			     "for 'op: fetch_add', not cmp_swap");
		return -EINVAL;
	}
	if (s->remote_offset % 8) {
		rs_obj_error(d, obj, "remote_offset",
			     "must be 8-byte aligned");
		return -EINVAL;
	}
	if (s->traffic.inline_data) {
		rs_obj_error(d, obj, "inline",
			     "not possible for atomics");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = 8 }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_atomic = {
	.name = "atomic",
	.section = "atomic",
	.summary = "post 8-byte atomics: fetch_add or cmp_swap",
	.fields = atomic_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = atomic_refs,
	.step = true,
	.check = atomic_check,
	.step_ops = &rs_step_ops_atomic,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* ud_send */
#define S struct rs_step_ud_send
static const cyaml_schema_field_t ud_send_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("ah", S, ah),
	RS_FIELD_OPT_REF("to", S, to),
	RS_FIELD_OPT_REF("reply_to", S, reply_to),
	RS_FIELD_UINT("remote_qkey", S, remote_qkey),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref ud_send_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("ah", S, ah, "ah"),
	RS_REF_SPANS("to", S, to, RS_QP_KINDS),
	RS_REF("reply_to", S, reply_to, "recv"),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF_END
};

/* Whether the ah @obj names is made from a received completion. */
static bool ah_from_wc(const struct rs_obj *obj)
{
	const struct rs_obj *ah = rs_obj_target(obj, "ah");
	int64_t v = 0;

	return ah && rs_obj_field_int(ah, "from_wc", &v) && v;
}

static int ud_send_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (!s->to && !s->reply_to) {
		rs_obj_error(d, obj, NULL, "give 'to' (a QP) or 'reply_to' "
			     "(a recv step)");
		return -EINVAL;
	}
	if (s->to && s->reply_to) {
		rs_obj_error(d, obj, "reply_to", "exclusive with 'to'");
		return -EINVAL;
	}
	if (ah_from_wc(obj) != !!s->reply_to) {
		rs_obj_error(d, obj, "ah", s->reply_to ?
			     "'%s' has no 'from_wc: true': a reply's ah is "
			     "made from the completion it answers" :
			     "'%s' has 'from_wc: true': it exists only as "
			     "a reply (give 'reply_to', not 'to')", s->ah);
		return -EINVAL;
	}
	if (s->to && rs_obj_has(obj, "remote_qkey")) {
		rs_obj_error(d, obj, "remote_qkey", "needs 'reply_to' (with "
			     "'to', the Q_Key is that QP's)");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_ud_send = {
	.name = "ud_send",
	.section = "ud_send",
	.summary = "post UD sends to a QP through an address handle",
	.fields = ud_send_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = ud_send_refs,
	.step = true,
	.check = ud_send_check,
	.step_ops = &rs_step_ops_ud_send,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S

/* bind_mw */
#define S struct rs_step_bind_mw
static const cyaml_schema_field_t bind_mw_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("mw", S, mw),
	RS_FIELD_REF("mr", S, mr),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_FLAGS("access", S, access, rs_mw_access_names),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref bind_mw_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("mw", S, mw, "mw"),
	RS_REF("mr", S, mr, "mr"),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_bind_mw = {
	.name = "bind_mw",
	.section = "bind_mw",
	.summary = "bind a memory window to a range of an MR",
	.fields = bind_mw_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = bind_mw_refs,
	.step = true,
	.step_ops = &rs_step_ops_bind_mw,
	.figures = RDMASCN_FIGURES("rkey"),
};
#undef S

/* invalidate */
#define S struct rs_step_invalidate
static const cyaml_schema_field_t invalidate_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("mw", S, mw),
	RS_FIELD_OPT_REF("mr", S, mr),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref invalidate_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("mw", S, mw, "mw"),
	RS_REF("mr", S, mr, "mr"),
	RS_REF_END
};

static int invalidate_check(struct rs_obj *obj, struct rs_diag *d)
{
	int r = rs_step_one_of(obj, d, "mw", "mr");

	if (r)
		return r;
	return rs_step_check_invalidatable(obj, d, rs_obj_has(obj, "mw") ?
					   "mw" : "mr");
}

const struct rdmascn_kind rs_step_kind_invalidate = {
	.name = "invalidate",
	.section = "invalidate",
	.summary = "post a local invalidate of an MW's or MR's rkey",
	.fields = invalidate_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = invalidate_refs,
	.step = true,
	.check = invalidate_check,
	.step_ops = &rs_step_ops_invalidate,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
