// SPDX-License-Identifier: MIT
/*
 * The fields that make a posting step's WRs differ (`sge:`, `stride:`,
 * `remote_stride:`, `wr_id:`, `max_msg_sz:`) and what can be checked of
 * them before anything runs: walking past an mr whose length is a number
 * in the file is an error here, not at the first WR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dom.h"
#include "macros.h"
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "vary.h"

static const cyaml_schema_field_t sge_fields[] = {
	RS_FIELD_REF("mr", struct rs_sge_spec, mr),
	RS_FIELD_UINT("offset", struct rs_sge_spec, offset),
	RS_FIELD_UINT("length", struct rs_sge_spec, length),
	CYAML_FIELD_END
};

const cyaml_schema_value_t rs_sge_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_sge_spec, sge_fields),
};

/* The @k'th object @obj refers to through @field (NULL: none). */
static const struct rs_obj *ref_target(const struct rs_obj *obj,
				       const char *field, unsigned k)
{
	for (unsigned i = 0; i < obj->n_edges; i++)
		if (!strcmp(rs_edge_field(obj, &obj->edges[i]), field) && !k--)
			return obj->edges[i].to;
	return NULL;
}

/* The `length:` @t declares, when it is a number in the file (an mr's;
 * a window has none).  False when not known before the run. */
static bool declared_length(const struct rs_obj *t, uint64_t *ret)
{
	const struct rs_node *n = t ? rs_node_get(t->node, "length") : NULL;
	char *end;

	if (!n || n->type != RS_NODE_SCALAR || !n->value || !*n->value)
		return false;
	*ret = strtoull(n->value, &end, 0);
	return !*end;
}

/*
 * @n messages of @len bytes at @offset, @stride apart, in @t (when its
 * length is known): the last must end inside it.  @at is the field the
 * error names: the stride when there is one to blame.
 */
static int check_walk(struct rs_obj *obj, struct rs_diag *d,
		      const struct rs_obj *t, const char *at, uint64_t offset,
		      uint64_t len, uint64_t n, uint64_t stride)
{
	uint64_t have, end;

	if (!declared_length(t, &have))
		return 0;
	end = rs_vary_end(offset, len, n, stride);
	if (end <= have)
		return 0;
	if (n > 1 && stride)
		rs_obj_error(d, obj, at,
			     "%llu messages of %llu bytes from offset %llu, "
			     "%llu apart, end at byte %llu, past the end of "
			     "%s (%llu bytes)", (unsigned long long)n,
			     (unsigned long long)len,
			     (unsigned long long)offset,
			     (unsigned long long)stride,
			     (unsigned long long)end, t->name,
			     (unsigned long long)have);
	else
		rs_obj_error(d, obj, at,
			     "%llu bytes at offset %llu end at byte %llu, past "
			     "the end of %s (%llu bytes)",
			     (unsigned long long)len,
			     (unsigned long long)offset,
			     (unsigned long long)end, t->name,
			     (unsigned long long)have);
	return -EINVAL;
}

static int check_sge(struct rs_obj *obj, struct rs_diag *d,
		     const struct rs_vary_check *c, uint64_t *ret_total)
{
	const struct rs_step_vary *v = c->v;
	static const char *const one[] = { "local", "offset", "length" };
	char at[64];

	*ret_total = 0;
	for (unsigned i = 0; i < RS_N(one); i++)
		if (rs_obj_has(obj, one[i])) {
			rs_obj_error(d, obj, one[i],
				     "exclusive with 'sge' (each entry has "
				     "its mr, offset and length)");
			return -EINVAL;
		}
	if (c->inline_data) {
		rs_obj_error(d, obj, "inline", "not with 'sge'");
		return -EINVAL;
	}
	if (rs_obj_has(obj, "max_msg_sz")) {
		rs_obj_error(d, obj, "max_msg_sz",
			     "splits one buffer, not an 'sge' list");
		return -EINVAL;
	}
	for (unsigned j = 0; j < v->sge_count; j++) {
		const struct rs_sge_spec *e = &v->sge[j];
		uint64_t len = e->length, have;

		snprintf(at, sizeof(at), "sge[%u].length", j);
		if (!rs_obj_has(obj, at)) {
			if (v->stride) {
				rs_obj_error(d, obj, at,
					     "needed with 'stride' (absent, "
					     "the entry takes the rest of the "
					     "mr)");
				return -EINVAL;
			}
			if (!declared_length(ref_target(obj, "sge", j),
					     &have) || e->offset > have) {
				*ret_total = UINT64_MAX;
				continue;
			}
			len = have - e->offset;
		}
		if (*ret_total != UINT64_MAX)
			*ret_total += len;
		if (check_walk(obj, d, ref_target(obj, "sge", j),
			       v->stride ? "stride" : at, e->offset, len,
			       c->n, v->stride))
			return -EINVAL;
	}
	return 0;
}

int rs_step_check_vary(struct rs_obj *obj, struct rs_diag *d,
		       const struct rs_vary_check *c)
{
	const struct rs_step_vary *v = c->v;
	bool has_len = rs_obj_has(obj, "length");
	uint64_t msg = c->length, n = c->n ? c->n : 1;

	if (rs_obj_has(obj, "sge")) {
		if (check_sge(obj, d, c, &msg))
			return -EINVAL;
	} else if (!rs_obj_has(obj, "local")) {
		rs_obj_error(d, obj, "local",
			     "one of local and sge is required");
		return -EINVAL;
	} else if (v->stride && !has_len) {
		rs_obj_error(d, obj, "length",
			     "needed with 'stride' (absent, a WR takes the "
			     "rest of the mr)");
		return -EINVAL;
	} else if (has_len && check_walk(obj, d, ref_target(obj, "local", 0),
					 v->stride ? "stride" : "length",
					 c->offset, c->length, c->n,
					 v->stride)) {
		return -EINVAL;
	}
	if (rs_obj_has(obj, "max_msg_sz")) {
		if (!v->max_msg_sz) {
			rs_obj_error(d, obj, "max_msg_sz", "must be at least 1");
			return -EINVAL;
		}
		if (c->inline_data) {
			rs_obj_error(d, obj, "max_msg_sz",
				     "not with 'inline' (an inline message "
				     "is one WR)");
			return -EINVAL;
		}
	}
	if (v->remote_stride && !has_len && !rs_obj_has(obj, "sge")) {
		rs_obj_error(d, obj, "length",
			     "needed with 'remote_stride'");
		return -EINVAL;
	}
	/* Past the end of the remote is a negative test, or a mistake. */
	if (c->remote && c->expect == IBV_WC_SUCCESS &&
	    msg != UINT64_MAX && (has_len || rs_obj_has(obj, "sge")) &&
	    check_walk(obj, d, ref_target(obj, "remote", 0),
		       v->remote_stride ? "remote_stride" : "length",
		       c->remote_offset, msg, c->n, v->remote_stride))
		return -EINVAL;
	if (rs_obj_has(obj, "wr_id") &&
	    (v->wr_id >= RS_USER_WR_ID_END ||
	     RS_USER_WR_ID_END - v->wr_id < n)) {
		rs_obj_error(d, obj, "wr_id",
			     "%llu and the %llu after it reach 2^40, where "
			     "the engine's own wr_ids begin",
			     (unsigned long long)v->wr_id,
			     (unsigned long long)(n - 1));
		return -EINVAL;
	}
	return 0;
}
