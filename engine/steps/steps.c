// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "model.h"
#include "registry.h"
#include "steps.h"

/* Exactly one of the fields @a and @b is given. */
int rs_step_one_of(struct rs_obj *obj, struct rs_diag *d, const char *a,
		   const char *b)
{
	bool has_a = rs_obj_has(obj, a), has_b = rs_obj_has(obj, b);

	if (has_a && has_b) {
		rs_obj_error(d, obj, b, "exclusive with '%s'", a);
		return -EINVAL;
	}
	if (!has_a && !has_b) {
		rs_obj_error(d, obj, a, "one of %s and %s is required", a, b);
		return -EINVAL;
	}
	return 0;
}

/* What the schema cannot say about the traffic knobs: a window of @depth
 * WRs must see a signalled one, and a post list must fit in it. */
int rs_step_check_traffic(struct rs_obj *obj, struct rs_diag *d,
			  const struct rs_step_traffic *t)
{
	if (!t->depth)
		return 0;
	if (t->post_list > t->depth) {
		rs_obj_error(d, obj, "post_list",
			     "%u exceeds depth (%u)", t->post_list, t->depth);
		return -EINVAL;
	}
	if (t->signal_every > t->depth) {
		rs_obj_error(d, obj, "signal_every",
			     "%u exceeds depth (%u)", t->signal_every,
			     t->depth);
		return -EINVAL;
	}
	return 0;
}

/*
 * A local or remote invalidate (IBV_WR_LOCAL_INV, IBV_WR_SEND_WITH_INV)
 * takes the rkey of a type 2 MW, or of an MR registered for fast
 * registration; an MR from ibv_reg_mr() is neither, and a type 1 MW is
 * unbound only by binding it again: the device would fail the WR with a
 * completion error.  @field names an mr or an mw.
 */
int rs_step_check_invalidatable(struct rs_obj *obj, struct rs_diag *d,
				const char *field)
{
	const struct rs_obj *t = rs_obj_target(obj, field);
	int64_t type;

	if (!t)
		return 0;
	/* What a WR of its own registers (an mkey): LOCAL_INV undoes it. */
	if (rs_wr_reg_find(t->kind->name))
		return 0;
	if (rs_obj_field_int(t, "type", &type)) {
		if (type == IBV_MW_TYPE_2)
			return 0;
		rs_obj_error(d, obj, field, "%s is a type %lld mw; only a "
			     "type 2 mw can be invalidated", t->name,
			     (long long)type);
		return -EINVAL;
	}
	rs_obj_error(d, obj, field, "%s cannot be invalidated: ibv_reg_mr() "
		     "memory has no invalidatable rkey (invalidate a type 2 "
		     "mw bound to it)", t->name);
	return -EINVAL;
}

/* `dct:` and `ah:` of a send, write or read: required on a QP whose sends name
 * their destination (a DCI, as its kind registered it), refused on
 * others; `dct:` names a destination of that kind (a DCT). */
int rs_step_check_dest(struct rs_obj *obj, struct rs_diag *d,
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
