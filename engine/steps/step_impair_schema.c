// SPDX-License-Identifier: MIT
/* impair: its fields, references, and its values into netem's units; the
 * loader recurses into steps. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_impair
static const cyaml_schema_field_t impair_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("context", S, context),
	RS_FIELD_STR("loss", S, loss),
	RS_FIELD_STR("loss_correlation", S, loss_correlation),
	RS_FIELD_STR("delay", S, delay),
	RS_FIELD_STR("jitter", S, jitter),
	RS_FIELD_STR("delay_correlation", S, delay_correlation),
	RS_FIELD_STR("reorder", S, reorder),
	RS_FIELD_STR("reorder_correlation", S, reorder_correlation),
	RS_FIELD_UINT("gap", S, gap),
	RS_FIELD_STR("duplicate", S, duplicate),
	RS_FIELD_STR("duplicate_correlation", S, duplicate_correlation),
	RS_FIELD_STR("corrupt", S, corrupt),
	RS_FIELD_STR("corrupt_correlation", S, corrupt_correlation),
	RS_FIELD_UINT("limit", S, limit),
	RS_FIELD_STR("rate", S, rate),
	RS_FIELD_UINT("duration_ms", S, duration_ms),
	CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     S, steps, &rs_step_entry_schema, 1,
			     CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const struct rdmascn_ref impair_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("context", S, context, "context"),
	RS_REF_END
};

/* A percent field: its probability, or an error at it. */
static int pct(struct rs_obj *obj, struct rs_diag *d, const char *field,
	       const char *v, uint32_t *ret)
{
	if (!v)
		return 0;
	if (!rs_wire_percent(v, ret))
		return 0;
	rs_obj_error(d, obj, field, "'%s' is not a percent from 0%% to 100%% "
		     "(e.g. 2%% or 0.5%%)", v);
	return -EINVAL;
}

static int usec(struct rs_obj *obj, struct rs_diag *d, const char *field,
		const char *v, uint32_t *ret)
{
	int r;

	if (!v)
		return 0;
	r = rs_wire_time_us(v, ret);
	if (!r)
		return 0;
	if (r == -ERANGE)
		rs_obj_error(d, obj, field, "'%s' is above netem's 4294 s",
			     v);
	else
		rs_obj_error(d, obj, field, "'%s' is not a time with its unit "
			     "(us, ms or s; e.g. 10ms)", v);
	return -EINVAL;
}

/* @field needs @base, which is absent. */
static int needs(struct rs_obj *obj, struct rs_diag *d, const char *field,
		 const char *base)
{
	if (!rs_obj_has(obj, field) || rs_obj_has(obj, base))
		return 0;
	rs_obj_error(d, obj, field, "needs '%s'", base);
	return -EINVAL;
}

static int impair_check(struct rs_obj *obj, struct rs_diag *d)
{
	S *s = obj->data;
	struct rs_netem *n = &s->netem;
	int r = 0;

	r |= pct(obj, d, "loss", s->loss, &n->loss);
	r |= pct(obj, d, "loss_correlation", s->loss_correlation,
		 &n->loss_corr);
	r |= usec(obj, d, "delay", s->delay, &n->delay_us);
	r |= usec(obj, d, "jitter", s->jitter, &n->jitter_us);
	r |= pct(obj, d, "delay_correlation", s->delay_correlation,
		 &n->delay_corr);
	r |= pct(obj, d, "reorder", s->reorder, &n->reorder);
	r |= pct(obj, d, "reorder_correlation", s->reorder_correlation,
		 &n->reorder_corr);
	r |= pct(obj, d, "duplicate", s->duplicate, &n->duplicate);
	r |= pct(obj, d, "duplicate_correlation", s->duplicate_correlation,
		 &n->duplicate_corr);
	r |= pct(obj, d, "corrupt", s->corrupt, &n->corrupt);
	r |= pct(obj, d, "corrupt_correlation", s->corrupt_correlation,
		 &n->corrupt_corr);
	if (r)
		return -EINVAL;
	/* Named rather than unknown: a user of tc expects it. */
	if (s->rate) {
		rs_obj_error(d, obj, "rate", "netem's rate cannot be set here: "
			     "libnl-route-3 has no setter for it "
			     "(docs/impairments.md)");
		return -EINVAL;
	}
	n->gap = s->gap;
	n->limit = s->limit;
	/* A correlation without its probability, jitter without delay:
	 * netem would take them and do nothing. */
	if (needs(obj, d, "loss_correlation", "loss") ||
	    needs(obj, d, "jitter", "delay") ||
	    needs(obj, d, "delay_correlation", "delay") ||
	    needs(obj, d, "reorder_correlation", "reorder") ||
	    needs(obj, d, "gap", "reorder") ||
	    needs(obj, d, "duplicate_correlation", "duplicate") ||
	    needs(obj, d, "corrupt_correlation", "corrupt"))
		return -EINVAL;
	/* netem reorders by sending some packets at once while the rest
	 * wait out the delay: without one nothing is reordered. */
	if (rs_obj_has(obj, "reorder") && !rs_obj_has(obj, "delay")) {
		rs_obj_error(d, obj, "reorder", "needs 'delay' (netem "
			     "reorders by delaying the other packets)");
		return -EINVAL;
	}
	if (!s->loss && !s->delay && !s->reorder && !s->duplicate &&
	    !s->corrupt) {
		rs_obj_error(d, obj, NULL, "nothing to impair: give at least "
			     "one of loss, delay, reorder, duplicate, "
			     "corrupt");
		return -EINVAL;
	}
	if (rs_obj_has(obj, "duration_ms") == (s->steps_count > 0)) {
		rs_obj_error(d, obj, s->steps_count ? "duration_ms" : NULL,
			     s->steps_count ? "exclusive with 'steps'" :
			     "one of steps and duration_ms is required");
		return -EINVAL;
	}
	return 0;
}

const struct rdmascn_kind rs_step_kind_impair = {
	.name = "impair",
	.section = "impair",
	.summary = "netem on a software device's netdev around nested steps "
		   "or for a time",
	.fields = impair_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = impair_refs,
	.check = impair_check,
	.step = true,
	.children_offset = offsetof(S, steps),
	.children_count_offset = offsetof(S, steps_count),
	.step_ops = &rs_step_ops_impair,
	.figures = RDMASCN_FIGURES("wire", "netem", "transport_timeout"),
};
#undef S
