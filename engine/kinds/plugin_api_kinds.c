// SPDX-License-Identifier: MIT
/*
 * What the kinds layer exports to plugins (rdmascn/plugin.h, ABI 6): how
 * the core kinds show access flags and ibv_modify_qp()'s attributes, so
 * a plugin's calls print as the core's do.
 */
#include "kinds.h"
#include "live.h"
#include "public_names.h"
#include "model.h"
#include "rdmascn/plugin.h"
#include "rdmascn/qp.h"

#define API __attribute__((visibility("default")))

API const char *rdmascn_access_text(uint64_t access, char *buf, size_t len)
{
	return rs_access_text(access, buf, len);
}

API const char *rdmascn_qp_state_name(int state)
{
	return rs_qp_state_name((enum ibv_qp_state)state);
}

API unsigned rdmascn_qp_cap_given(const struct rs_obj *obj)
{
	static const char *const fields[] = {
		"cap.max_send_wr", "cap.max_recv_wr", "cap.max_send_sge",
		"cap.max_recv_sge", "cap.max_inline_data",
	};
	unsigned given = 0;

	for (unsigned i = 0; i < sizeof(fields) / sizeof(*fields); i++)
		if (rs_obj_has(obj, fields[i]))
			given |= 1u << i;
	return given;
}

/* Queue sizes of a cap field not given (docs/scenario.md, qps), as
 * pyverbs' QPCap has them. */
#define QP_DEFAULT_WR 16
#define QP_DEFAULT_SGE 1

API void rdmascn_qp_caps(const struct rdmascn_qp_cap *cap, unsigned given,
			 bool sq, bool rq, struct ibv_qp_cap *ret)
{
#define QP_CAP(bit, field, dflt)                                          \
	ret->field = cap && given & RDMASCN_QP_CAP_##bit ? cap->field : (dflt)
	QP_CAP(MAX_SEND_WR, max_send_wr, sq ? QP_DEFAULT_WR : 0);
	QP_CAP(MAX_RECV_WR, max_recv_wr, rq ? QP_DEFAULT_WR : 0);
	QP_CAP(MAX_SEND_SGE, max_send_sge, sq ? QP_DEFAULT_SGE : 0);
	QP_CAP(MAX_RECV_SGE, max_recv_sge, rq ? QP_DEFAULT_SGE : 0);
	QP_CAP(MAX_INLINE_DATA, max_inline_data, 0);
#undef QP_CAP
}

API void rdmascn_qp_attr_args(struct rdmascn_call *c,
			      const struct ibv_qp_attr *attr, int mask)
{
	if (c)
		rs_qp_attr_args(&c->c, attr, mask, 0);
}
