// SPDX-License-Identifier: MIT
/*
 * A recorded run told again: a reporter fed from a run record as --json
 * wrote it, so what each reporter makes of a device run is tested on a
 * host without one (rdmascn report).
 */
#include <errno.h>
#include <string.h>

#include "report.h"

/* Each entry of list @key of @rec, as @type. */
static void replay_list(struct rs_reporter *r, const struct rs_val *rec,
			const char *key, enum rs_rec_entry type)
{
	const struct rs_val *list = rs_val_get(rec, key);

	for (size_t i = 0; i < rs_val_len(list); i++)
		r->ops->entry(r, type, rs_val_at(list, i));
}

static void replay_phase(struct rs_reporter *r, const char *phase,
			 const char *count_key, size_t count)
{
	struct rs_val *e = rs_val_obj();

	if (!e)
		return;
	rs_val_put_str(e, "phase", phase);
	if (count_key)
		rs_val_put_u64(e, count_key, count);
	r->ops->entry(r, RS_REC_PHASE, e);
	rs_val_free(e);
}

/* The events read while step @no ran (@no NULL: those that say no
 * step, from records written before events said it). */
static void replay_events(struct rs_reporter *r, const struct rs_val *rec,
			  const char *no)
{
	const struct rs_val *list = rs_val_get(rec, "events");

	for (size_t i = 0; i < rs_val_len(list); i++) {
		const struct rs_val *e = rs_val_at(list, i);
		const char *at = rs_val_get_str(e, "step");

		if (no ? at && !strcmp(at, no) : !at)
			r->ops->entry(r, RS_REC_EVENT, e);
	}
}

/* The steps, each after the events read while it ran, as the run
 * printed them. */
static void replay_steps(struct rs_reporter *r, const struct rs_val *rec)
{
	const struct rs_val *list = rs_val_get(rec, "steps");

	replay_events(r, rec, NULL);
	for (size_t i = 0; i < rs_val_len(list); i++) {
		const struct rs_val *st = rs_val_at(list, i);
		const char *no = rs_val_get_str(st, "no");

		if (no)
			replay_events(r, rec, no);
		r->ops->entry(r, RS_REC_STEP, st);
	}
}

int rs_record_replay(const struct rs_val *rec, struct rs_reporter *r)
{
	const struct rs_val *leaks = rs_val_get(rec, "leaks");

	if (r->ops->begin)
		r->ops->begin(r, rec);
	if (r->ops->entry) {
		replay_phase(r, "create", NULL, 0);
		replay_list(r, rec, "objects", RS_REC_OBJECT);
		replay_phase(r, "steps", "steps",
			     rs_val_len(rs_val_get(rec, "plan_steps")));
		replay_steps(r, rec);
		replay_phase(r, "teardown", "objects",
			     rs_val_len(rs_val_get(rec, "teardown")));
		replay_list(r, rec, "teardown", RS_REC_DESTROYED);
		if (leaks)
			r->ops->entry(r, RS_REC_LEAKS, leaks);
		replay_list(r, rec, "warnings", RS_REC_WARNING);
		replay_list(r, rec, "errors", RS_REC_ERROR);
	}
	return r->ops->end ? r->ops->end(r, rec) : 0;
}
