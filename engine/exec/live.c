// SPDX-License-Identifier: MIT
/*
 * A run's live objects, found: by id, and through an object's references
 * its context, the verbs context it is made on, its device and its PD.
 * The run's phases (run.c), the device limits (limits.c), the device
 * facts (run_facts.c) and the kinds all look objects up here.
 */
#include "live.h"
#include "schema.h"

struct rs_live *rs_live_find(struct rs_run *run, const char *id)
{
	unsigned i = rs_idmap_get(&run->ids, id);

	return i == RS_IDMAP_NONE ? NULL : &run->live[i];
}

/* The live object of @o, found from @l's: @l itself, or the run's. */
static struct rs_live *live_of(struct rs_run *run, struct rs_live *l,
			       const struct rs_obj *o)
{
	if (o == l->obj)
		return l;
	return o && o->index < run->s->n_objects ? &run->live[o->index] :
	       NULL;
}

struct rs_live *rs_live_context(struct rs_run *run, struct rs_live *l)
{
	return l ? live_of(run, l, rs_obj_on_device(l->obj)) : NULL;
}

struct rs_live *rs_live_made_on(struct rs_run *run, struct rs_live *l)
{
	return l ? live_of(run, l, rs_obj_made_on(l->obj)) : NULL;
}

struct ibv_context *rs_live_ibv_context(struct rs_run *run, struct rs_live *l)
{
	return rs_as_context(rs_live_made_on(run, l));
}

struct rs_dev *rs_live_dev(struct rs_run *run, struct rs_live *l)
{
	struct rs_live *c = rs_live_context(run, l);

	return c ? rs_as_dev(c) : NULL;
}

struct ibv_pd *rs_live_pd(struct rs_run *run, const char *id)
{
	return rs_as_pd(rs_live_find(run, id));
}
