// SPDX-License-Identifier: MIT
/*
 * Device facts in the file (${ctx.port.max_msg_sz}): the loader
 * substituted assumed values; once the run probed its contexts' devices,
 * the file is loaded again with theirs, and the run goes on with that
 * scenario.  Its objects are the same (same ids, kinds, order) but for
 * the values, so the live objects are pointed at the new ones.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "live.h"
#include "plugin.h"
#include "run.h"
#include "value.h"

void rs_dev_fact_src(const struct rs_dev *dev, struct rs_fact_src *ret)
{
	*ret = (struct rs_fact_src){
		.name = dev->name, .attr = &dev->attr, .port = &dev->port_attr,
		.num_comp_vectors = dev->num_comp_vectors,
		.gid_index = dev->gid_index, .gid_type = dev->gid_type,
		.gid = &dev->gid,
	};
}

void rs_dev_fact_get(const struct rs_dev *dev, const struct rs_fact *f,
		     struct rs_fact_val *ret)
{
	struct rs_val *plugins = NULL;
	struct rs_fact_src src;

	rs_dev_fact_src(dev, &src);
	/* What the plugins say of it: asked of the device opened again,
	 * as `devices` asks (the probe closed it; few files ask). */
	if (f->group == RS_FACT_MLX5 && dev->device) {
		struct ibv_context *ctx = ibv_open_device(dev->device);

		if (ctx) {
			plugins = rs_val_obj();
			if (plugins)
				rs_plugins_describe_device(ctx, plugins);
			ibv_close_device(ctx);
		}
		src.plugins = plugins;
	}
	rs_fact_get(f, &src, ret);
	rs_val_free(plugins);
}

/* A context's device, or that of the context an mlx5 context opens. */
static struct rs_dev *fact_dev(struct rs_run *run, const char *ctx)
{
	struct rs_live *l = rs_live_find(run, ctx);
	struct rs_dev *dev = rs_as_dev(l);

	return dev ? dev : rs_live_dev(run, l);
}

static int get_fact(void *arg, const char *ctx, const struct rs_fact *f,
		    struct rs_fact_val *ret)
{
	struct rs_run *run = arg;
	struct rs_dev *dev = fact_dev(run, ctx);

	if (!dev)
		return -ENODEV;
	rs_dev_fact_get(dev, f, ret);
	return 0;
}

static void record_facts(struct rs_run *run)
{
	const struct rs_scenario *s = run->s;
	struct rs_val *list = rs_val_put_arr(run->rec->root, "device_facts");

	for (unsigned i = 0; i < s->n_fact_uses; i++) {
		const struct rs_fact_use *u = &s->fact_uses[i];
		struct rs_val *e = rs_val_push_obj(list);
		struct rs_dev *dev = u->assumed ? NULL :
				     fact_dev(run, u->ctx);
		char path[64];

		rs_val_put_str(e, "context", u->ctx);
		rs_val_put_str(e, "fact", rs_fact_path(u->fact, path,
						       sizeof(path)));
		if (u->val.text)
			rs_val_put_str(e, "value", u->val.str);
		else
			rs_val_put_u64(e, "value", u->val.num);
		rs_val_put_bool(e, "assumed", u->assumed);
		if (dev)
			rs_val_put_str(e, "device", dev->name);
		rs_val_put_loc(e, &u->loc);
	}
}

/*
 * The record's head named the params as the loader made them, from the
 * assumed facts (${min(100000, ctx.device.max_cqe)} is 100000); the run
 * goes on with the device's, so the record says those (32767 on rxe).
 */
static void record_params(struct rs_run *run)
{
	struct rs_val *scn = rs_val_get_mut(run->rec->root, "scenario");
	struct rs_val *params = rs_val_put_obj(scn, "params");

	for (unsigned i = 0; i < run->s->n_params; i++)
		rs_val_put_str(params, run->s->params[i].name,
			       run->s->params[i].value);
}

/* The reloaded scenario has the objects the run was built for. */
static bool same_objects(const struct rs_scenario *a,
			 const struct rs_scenario *b)
{
	if (a->n_objs != b->n_objs || a->n_objects != b->n_objects)
		return false;
	for (unsigned i = 0; i < a->n_objs; i++)
		if (a->objs[i].kind != b->objs[i].kind ||
		    !a->objs[i].id != !b->objs[i].id ||
		    (a->objs[i].id && strcmp(a->objs[i].id, b->objs[i].id)))
			return false;
	return true;
}

int rs_run_facts(struct rs_run *run)
{
	struct rs_fact_resolver res = { get_fact, run };
	struct rs_scenario *s = NULL;
	int r;

	if (!run->s->n_fact_uses)
		return 0;
	if (run->dry_run) {
		record_facts(run);
		return 0;
	}
	r = rs_scenario_reload(run->s, &res, &run->diag, &s);
	if (r)
		return r;
	if (!same_objects(run->s, s)) {
		struct rs_loc at = { s->doc.file, 1, 1 };

		rs_diag_error(&run->diag, &at, "the device's facts change "
			      "which objects the scenario declares; a fact "
			      "may size them, not name or add them");
		rs_scenario_free(s);
		return -EINVAL;
	}
	for (unsigned i = 0; i < s->n_objects; i++)
		run->live[i].obj = &s->objs[i];
	rs_idmap_free(&run->ids);
	if (s->n_objects &&
	    rs_idmap_build_stride(&run->ids, &s->objs[0].id,
				  sizeof(s->objs[0]), s->n_objects)) {
		rs_scenario_free(s);
		return -ENOMEM;
	}
	run->s = s;
	run->s_facts = s;
	record_params(run);
	record_facts(run);
	return 0;
}
