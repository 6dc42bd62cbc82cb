// SPDX-License-Identifier: MIT
/* verify: its fields, references and what validate checks. */
#include <errno.h>

#include <inttypes.h>

#include "literal.h"
#include "macros.h"
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

/* verify */
#define S struct rs_step_verify
static const cyaml_schema_field_t verify_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("mr", S, mr),
	RS_FIELD_OPT_REF("equals", S, equals),
	RS_FIELD_ENUM("pattern", S, pattern, rs_verify_pattern_names),
	RS_FIELD_UINT("byte", S, byte),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("equals_u64", S, equals_u64),
	RS_FIELD_STR("equals_text", S, equals_text),
	RS_FIELD_STR("equals_hex", S, equals_hex),
	RS_FIELD_STR("equals_file", S, equals_file),
	RS_FIELD_UINT("equals_offset", S, equals_offset),
	CYAML_FIELD_END
};

static const struct rdmascn_ref verify_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("mr", S, mr, "mr"),
	RS_REF("equals", S, equals, "mr"),
	RS_REF_END
};

/* The bytes `equals`/`equals_*` offer from equals_offset on (@avail of
 * them, called @what) against `offset`, `length` and the mr: all known
 * before anything runs. */
static int verify_bounds(struct rs_obj *obj, struct rs_diag *d,
			 const char *field, const char *what, uint64_t avail)
{
	const S *s = obj->data;
	const struct rs_obj *mo = rs_obj_target(obj, "mr");
	uint64_t mlen = 0;
	uint64_t n;

	if (mo && !rs_obj_uint(mo, "length", &mlen))
		mo = NULL;
	if (s->equals_offset >= avail && rs_obj_has(obj, "equals_offset")) {
		rs_obj_error(d, obj, "equals_offset", "%" PRIu64 " is past the "
			     "end of %s (%" PRIu64 " bytes)", s->equals_offset,
			     what, avail);
		return -EINVAL;
	}
	avail -= s->equals_offset;
	if (rs_obj_has(obj, "length") && s->length > avail) {
		rs_obj_error(d, obj, "length", "%" PRIu64 " bytes: %s has "
			     "%" PRIu64 " from equals_offset %" PRIu64,
			     s->length, what, avail, s->equals_offset);
		return -EINVAL;
	}
	/* A literal is compared whole; an mr as far as `mr` goes. */
	n = s->length ? s->length : avail;
	if (mo && s->literal && n > mlen - s->offset) {
		rs_obj_error(d, obj, field, "%" PRIu64 " bytes at offset %"
			     PRIu64 " do not fit in mr '%s' (%" PRIu64
			     " bytes)", n, s->offset, mo->id, mlen);
		return -EINVAL;
	}
	return 0;
}

static int verify_check(struct rs_obj *obj, struct rs_diag *d)
{
	static const char *const ways[] = {
		"equals", "equals_text", "equals_hex", "equals_file",
		"pattern", "equals_u64",
	};
	S *s = obj->data;
	const char *const lit[] = { NULL, s->equals_text, s->equals_hex,
				    s->equals_file };
	const struct rs_obj *mo = rs_obj_target(obj, "mr");
	const struct rs_obj *eo = rs_obj_target(obj, "equals");
	uint64_t mlen = 0, elen = 0;
	const char *first = NULL;
	unsigned way = 0;
	uint64_t n;

	/* The mrs' lengths, as their own check reads them. */
	if (mo && !rs_obj_uint(mo, "length", &mlen))
		mo = NULL;
	if (eo && !rs_obj_uint(eo, "length", &elen))
		eo = NULL;

	for (unsigned i = 0; i < RS_N(ways); i++) {
		if (!rs_obj_has(obj, ways[i]))
			continue;
		if (first) {
			rs_obj_error(d, obj, ways[i], "exclusive with '%s'",
				     first);
			return -EINVAL;
		}
		first = ways[i];
		way = i;
	}
	if (!first) {
		rs_obj_error(d, obj, "equals", "one of equals, equals_text, "
			     "equals_hex, equals_file, pattern and "
			     "equals_u64 is required");
		return -EINVAL;
	}
	if (rs_obj_has(obj, "byte") !=
	    (rs_obj_has(obj, "pattern") && s->pattern == RS_VERIFY_BYTE)) {
		rs_obj_error(d, obj, "byte",
			     "goes with 'pattern: byte', and only with it");
		return -EINVAL;
	}
	if (rs_obj_has(obj, "equals_offset") && way > 3) {
		rs_obj_error(d, obj, "equals_offset", "goes with equals, "
			     "equals_text, equals_hex and equals_file only");
		return -EINVAL;
	}
	if (mo && s->offset > mlen) {
		rs_obj_error(d, obj, "offset", "%" PRIu64 " is past the end "
			     "of mr '%s' (%" PRIu64 " bytes)", s->offset,
			     mo->id, mlen);
		return -EINVAL;
	}
	if (mo && rs_obj_has(obj, "length") && s->length > mlen - s->offset) {
		rs_obj_error(d, obj, "length", "%" PRIu64 " bytes at offset %"
			     PRIu64 " do not fit in mr '%s' (%" PRIu64
			     " bytes)", s->length, s->offset, mo->id, mlen);
		return -EINVAL;
	}
	if (way >= 1 && way <= 3) {
		char what[40];

		s->literal = (int)way;  /* RS_LIT_TEXT, _HEX, _FILE */
		s->literal_value = lit[way];
		s->literal_field = ways[way];
		if (rs_literal_check(obj, d, ways[way], s->literal, lit[way],
				     &n) < 0)
			return -EINVAL;
		snprintf(what, sizeof(what), "the %s%s",
			 rs_literal_form_name(s->literal),
			 s->literal == RS_LIT_HEX ? " bytes" : "");
		return verify_bounds(obj, d, ways[way], what, n);
	}
	if (way == 0 && eo) {
		char what[RS_ID_MAX + 8];

		snprintf(what, sizeof(what), "mr '%s'", eo->id);
		return verify_bounds(obj, d, "equals", what, elen);
	}
	return 0;
}

const struct rdmascn_kind rs_step_kind_verify = {
	.name = "verify",
	.section = "verify",
	.summary = "check an MR against another MR, literal bytes, a pattern or a u64",
	.fields = verify_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = verify_refs,
	.step = true,
	.check = verify_check,
	.step_ops = &rs_step_ops_verify,
	.figures = RDMASCN_FIGURES("bytes_equal"),
};
#undef S
