// SPDX-License-Identifier: MIT
/*
 * devx objects on a device: the input built from the named fields (the
 * outputs of the objects they reference read from those objects' output
 * bytes), sent through the call wrapper so a dry run prints the bytes;
 * a failed command says its status and syndrome; a create is destroyed
 * with mlx5dv_devx_obj_destroy(), which sends the destroy the kernel
 * derives from it, the bytes we derive the same way printed beside it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devx.h"
#include "mlx5.h"
#include "res.h"
#include "rdmascn/value.h"

struct devx_rt {
	struct mlx5dv_devx_obj *obj;
	uint8_t *in, *out;
	size_t inlen, outlen;
	bool answered;           /* the command ran and out holds its answer */
};

/* The hex of a whole command input fits here. */
#define HEX_MAX (DEVX_MAX_IN * 2 + 1)

static struct devx_rt *rt_of(struct rdmascn_run *run, const char *id)
{
	struct rdmascn_live *t = rdmascn_live_find(run, id);

	return t ? rdmascn_live_rt(t) : NULL;
}

/* A UAR's, VAR's, PP's or UMEM's value: their rt starts with it. */
static struct mlx5_res_rt *rt_res(struct rdmascn_run *run, const char *id)
{
	struct rdmascn_live *t = rdmascn_live_find(run, id);

	return t ? rdmascn_live_rt(t) : NULL;
}

/* The values of the set: items; a reference reads its object's output
 * (zero in a dry run, where nothing answered). */
static int build_in(struct rdmascn_run *run, const struct devx_obj *d,
		    const struct prm_cmd *cmd, struct devx_rt *rt,
		    struct rdmascn_call *call)
{
	struct prm_val *vals = calloc(d->set_count + 1, sizeof(*vals));
	uint8_t (*wide)[64] = calloc(d->set_count + 1, sizeof(*wide));
	size_t bad = 0;
	int r = -ENOMEM;

	if (!vals || !wide)
		goto out;
	for (unsigned i = 0; i < d->set_count; i++) {
		const struct devx_set *s = &d->set[i];
		const char *res_id;

		vals[i].field = s->field;
		if (s->value) {
			prm_parse_value(s->value, &vals[i].v, wide[i],
					sizeof(wide[i]), &vals[i].n);
			vals[i].bytes = wide[i];
			rdmascn_call_arg(call, s->field, "%s", s->value);
		} else if (devx_set_res(s, &res_id) >= 0) {
			const struct mlx5_res_kind *rk =
				&mlx5_res_kinds[devx_set_res(s, &res_id)];
			struct mlx5_res_rt *res = rt_res(run, res_id);

			if (res && res->made) {
				vals[i].v = res->value;
				rdmascn_call_arg(call, s->field, "0x%llx",
						 (unsigned long long)res->value);
			} else {
				rdmascn_call_arg(call, s->field, "%s(%s)",
						 rk->out, res_id);
			}
		} else {
			struct rdmascn_live *tl =
				rdmascn_live_find(run, s->ref);
			const struct devx_obj *t = rdmascn_live_data(tl);
			const struct prm_cmd *tc = devx_cmd(t);
			const char *out = devx_out_name(t, s->out);
			struct devx_rt *trt = rt_of(run, s->ref);
			struct prm_loc from;

			prm_find(tc->out, out, &from);
			if (trt && trt->answered) {
				vals[i].v = prm_get(trt->out, trt->outlen,
						    from.off, from.width);
				rdmascn_call_arg(call, s->field, "0x%llx",
						 (unsigned long long)vals[i].v);
			} else {
				rdmascn_call_arg(call, s->field, "%s(%s)",
						 out, s->ref);
			}
		}
	}
	r = prm_encode(cmd, vals, d->set_count, rt->in, DEVX_MAX_IN,
		       &rt->inlen, &bad);
	/* check() refused what would fail here; should it not have. */
	if (r)
		rdmascn_call_hint(call, "set[%zu]: %s", bad, strerror(-r));
out:
	free(vals);
	free(wide);
	return r;
}

static const char *const how_call[] = {
	[DEVX_CREATE] = "mlx5dv_devx_obj_create",
	[DEVX_QUERY] = "mlx5dv_devx_obj_query",
	[DEVX_MODIFY] = "mlx5dv_devx_obj_modify",
	[DEVX_GENERAL] = "mlx5dv_devx_general_cmd",
};

static int send_cmd(enum devx_how how, struct ibv_context *ctx,
		    struct devx_rt *rt, struct devx_rt *target)
{
	int r;

	errno = 0;
	switch (how) {
	case DEVX_CREATE:
		rt->obj = mlx5dv_devx_obj_create(ctx, rt->in, rt->inlen,
						 rt->out, rt->outlen);
		return rt->obj ? 0 : errno ? errno : EIO;
	case DEVX_QUERY:
		r = mlx5dv_devx_obj_query(target->obj, rt->in, rt->inlen,
					  rt->out, rt->outlen);
		break;
	case DEVX_MODIFY:
		r = mlx5dv_devx_obj_modify(target->obj, rt->in, rt->inlen,
					   rt->out, rt->outlen);
		break;
	default:
		r = mlx5dv_devx_general_cmd(ctx, rt->in, rt->inlen, rt->out,
					    rt->outlen);
		break;
	}
	return r > 0 ? r : r < 0 ? (errno ? errno : -r) : 0;
}

static int devx_send(struct rdmascn_run *run, struct rdmascn_live *l);

/* What a failed create holds is released here: a dry run calls no
 * destroy after one. */
static int devx_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct devx_rt *rt = rdmascn_live_rt(l);
	int r = devx_send(run, l);

	if (r && !rt->obj) {
		free(rt->in);
		free(rt->out);
		rt->in = rt->out = NULL;
	}
	return r;
}

static int devx_send(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct devx_obj *d = rdmascn_live_data(l);
	const struct prm_cmd *cmd = devx_cmd(d);
	enum devx_how how = devx_how(d, cmd);
	struct devx_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_live *cl = rdmascn_live_find(run, d->context);
	struct mlx5_context_rt *ctx = rdmascn_live_rt(cl);
	struct devx_rt *target = d->object ? rt_of(run, d->object) : NULL;
	struct rdmascn_call *call;
	char *hex = malloc(HEX_MAX);
	int r;

	rt->outlen = devx_outlen(d, cmd);
	rt->in = calloc(1, DEVX_MAX_IN);
	rt->out = calloc(1, rt->outlen);
	/* A query or general command is what makes this entry (its
	 * answer, which later ones reference): numbered as a create. */
	call = rdmascn_call_new(how == DEVX_MODIFY ? RDMASCN_CALL_MODIFY :
				RDMASCN_CALL_CREATE, how_call[how]);
	if (!hex || !rt->in || !rt->out) {
		free(hex);
		rdmascn_call_result(call, ENOMEM);
		return rdmascn_call_done(run, l, call);
	}
	rdmascn_call_arg(call, "context", "%s", d->context);
	if (d->object)
		rdmascn_call_arg(call, "object", "%s", d->object);
	rdmascn_call_arg(call, "command", "%s", cmd ? cmd->name : "raw");
	if (d->raw) {
		rt->inlen = (size_t)prm_unhex(d->raw, rt->in, DEVX_MAX_IN);
	} else {
		r = build_in(run, d, cmd, rt, call);
		if (r) {
			/* Not sent: reported as this call's failure. */
			free(hex);
			rdmascn_call_result(call, -r);
			return rdmascn_call_done(run, l, call);
		}
	}
	rdmascn_call_arg(call, "in", "%s", prm_hex(rt->in, rt->inlen, hex,
						   HEX_MAX));
	rdmascn_call_arg(call, "inlen", "%zu", rt->inlen);
	rdmascn_call_arg(call, "outlen", "%zu", rt->outlen);
	free(hex);
	if (rdmascn_call_go(run, l, call)) {
		r = send_cmd(how, ctx->ctx, rt, target);
		rdmascn_call_result(call, r);
		rt->answered = !r;
		/* The device's word for why, from the output's header. */
		if (r)
			rdmascn_call_hint(call, "status 0x%02x syndrome 0x%08x",
					  (unsigned)prm_get(rt->out, rt->outlen,
							    0, 8),
					  (unsigned)prm_get(rt->out, rt->outlen,
							    0x20, 32));
	}
	return rdmascn_call_done(run, l, call);
}

/* What the kernel sends to destroy it, derived as it derives it. */
static void derived_destroy(const struct devx_obj *d, struct devx_rt *rt,
			    struct rdmascn_call *call)
{
	const struct prm_create *cr = prm_create_of(devx_cmd(d));
	uint8_t din[64];
	char hex[160];
	size_t dlen;

	if (!cr || prm_destroy_encode(cr, rt->in, rt->inlen, rt->out,
				      rt->outlen, din, sizeof(din), &dlen)) {
		rdmascn_call_arg(call, "command", "derived by the kernel");
		return;
	}
	rdmascn_call_arg(call, "command", "%s", cr->destroy);
	rdmascn_call_arg(call, "in", "%s", prm_hex(din, dlen, hex,
						   sizeof(hex)));
}

static void devx_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct devx_obj *d = rdmascn_live_data(l);
	struct devx_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (devx_how(d, devx_cmd(d)) == DEVX_CREATE &&
	    (rt->obj || (rdmascn_dry_run(run) && rt->in))) {
		call = rdmascn_call_new(RDMASCN_CALL_DESTROY,
					"mlx5dv_devx_obj_destroy");
		rdmascn_call_arg(call, "devx_obj", "%s", d->id);
		derived_destroy(d, rt, call);
		if (rdmascn_call_go(run, l, call)) {
			int r = mlx5dv_devx_obj_destroy(rt->obj);

			rdmascn_call_result(call, r > 0 ? r : r < 0 ? -r : 0);
		}
		rt->obj = NULL;
		rdmascn_call_done(run, l, call);
	}
	free(rt->in);
	free(rt->out);
	rt->in = rt->out = NULL;
}

static void devx_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			  struct rdmascn_val *v)
{
	const struct devx_obj *d = rdmascn_live_data(l);
	const struct prm_cmd *cmd = devx_cmd(d);
	const char *id = devx_out_name(d, NULL);
	struct devx_rt *rt = rdmascn_live_rt(l);
	char hex[2 * DEVX_MAX_OUT + 1];
	struct prm_loc loc;

	(void)run;
	rdmascn_val_put_str(v, "command", cmd ? cmd->name : "raw");
	if (!rt->answered)
		return;
	if (id && cmd && !prm_find(cmd->out, id, &loc))
		rdmascn_val_put_u64(v, id, prm_get(rt->out, rt->outlen,
						   loc.off, loc.width));
	rdmascn_val_put_str(v, "out", prm_hex(rt->out, rt->outlen, hex,
					      sizeof(hex)));
}

const struct rdmascn_ops mlx5_devx_ops = {
	.rt_size = sizeof(struct devx_rt),
	.create = devx_create,
	.destroy = devx_destroy,
	.describe = devx_describe,
};
