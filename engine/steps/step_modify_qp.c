// SPDX-License-Identifier: MIT
/* modify_qp: through rs_call, like every modify. */
#include <errno.h>
#include <string.h>

#include "step.h"
#include "steps.h"
#include "value.h"

static int modify_qp_start(struct rs_step_run *sr)
{
	const struct rs_step_modify_qp *m = sr->obj->data;
	struct rs_qpi *q = rs_step_qp(sr, m->qp);
	struct ibv_qp_attr attr = { .qp_state = m->state };
	struct rs_val *fig;
	int mask = IBV_QP_STATE;
	struct rs_call c;
	bool go;

	if (!q || !q->rt->qp)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "qp",
				    "the qp does not exist");
	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", m->qp);
	rs_call_arg(&c, "qp_state", "%s", rs_qp_state_name(m->state));
	/* RESET -> INIT needs the port and access too: the QP's own. */
	if (m->state == IBV_QPS_INIT) {
		struct rs_dev *dev = rs_live_dev(sr->run, q->l);

		attr.pkey_index = q->info.pkey_index;
		attr.port_num = q->info.port ? q->info.port :
				dev ? dev->port : 1;
		mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT;
		if (q->info.type == RS_QPT_UD) {
			attr.qkey = q->rt->qkey;
			mask |= IBV_QP_QKEY;
		} else {
			attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_REMOTE_ATOMIC;
			mask |= IBV_QP_ACCESS_FLAGS;
		}
		rs_call_arg(&c, "port_num", "%u", attr.port_num);
	}
	/* rs_call counts and prints: one thread at a time. */
	pthread_mutex_lock(&sr->st->lock);
	go = rs_call_go(sr->run, q->l, &c);
	pthread_mutex_unlock(&sr->st->lock);
	if (go)
		RS_CALL_INT(&c, ibv_modify_qp(q->rt->qp, &attr, mask));
	if (!c.ok) {
		if (!c.err)
			c.err = EIO;
		if (!c.hint[0] && (m->state == IBV_QPS_RTR ||
				   m->state == IBV_QPS_RTS))
			rs_call_hint(&c, "rtr and rts need the path and "
				     "sequence attributes a connection sets; "
				     "modify_qp gives only the state");
		return rs_step_fail(sr, RS_STEP_FAILED, "state",
				    "ibv_modify_qp(qp '%s', %s -> %s): "
				    "%s%s%s%s",
				    m->qp, rs_qp_state_name(q->rt->state),
				    rs_qp_state_name(m->state), strerror(c.err),
				    c.hint[0] ? " (" : "", c.hint,
				    c.hint[0] ? ")" : "");
	}
	q->rt->state = m->state;
	fig = rs_val_put_obj(rs_step_figures(sr), "qp_state");
	rs_val_put_str(fig, "qp", m->qp);
	rs_val_put_str(fig, "state", rs_qp_state_name(m->state));
	rs_step_pass(sr);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_modify_qp = {
	.start = modify_qp_start,
};
