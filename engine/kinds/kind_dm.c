// SPDX-License-Identifier: MIT
/* dms: device memory, ibv_alloc_dm() on the context. */
#include <errno.h>
#include <inttypes.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "schema.h"
#include "value.h"

static int dm_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_dm *d = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (!dev)
		return 0;
	if (!dev->attr.max_dm_size) {
		snprintf(why, len, "dm (%s is 0)",
			 rs_feature_source(RS_FEAT_DM));
		return -EOPNOTSUPP;
	}
	if (d->length > dev->attr.max_dm_size) {
		snprintf(why, len, "dm of %" PRIu64 " bytes (max_dm_size %"
			 PRIu64 ")", d->length, dev->attr.max_dm_size);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int dm_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_dm *d = l->obj->data;
	struct ibv_context *ctx = rs_as_context(rs_live_find(run, d->context));
	struct rs_dm_rt *rt = l->rt;
	struct ibv_alloc_dm_attr attr = {
		.length = d->length,
		.log_align_req = d->log_align_req,
	};
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_dm");
	rs_call_arg(&c, "context", "%s", d->context);
	rs_call_arg(&c, "length", "%" PRIu64, d->length);
	rs_call_arg(&c, "log_align_req", "%u", d->log_align_req);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->dm, ibv_alloc_dm(ctx, &attr));
	if (!c.ok && !c.hint[0] && (c.err == EINVAL || c.err == ENOMEM)) {
		const struct rs_dev *dev = rs_live_dev(run, l);

		if (dev && d->length > dev->attr.max_dm_size)
			rs_call_hint(&c, "length %" PRIu64 " exceeds "
				     "max_dm_size %" PRIu64, d->length,
				     dev->attr.max_dm_size);
		else if (c.err == ENOMEM)
			rs_call_hint(&c, "device memory is shared by all "
				     "users of the device; less may be free "
				     "than max_dm_size");
	}
	return rs_call_done(run, l, &c);
}

static void dm_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_dm_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_free_dm, rt->dm);
}

static void dm_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	const struct rs_dm *d = l->obj->data;
	struct rs_dm_rt *rt = l->rt;

	(void)run;
	rs_val_put_u64(v, "length", d->length);
	rs_val_put_u64(v, "handle", rt->dm->handle);
}

const struct rdmascn_ops rs_ops_dm = {
	.rt_size = sizeof(struct rs_dm_rt),
	.check_caps = dm_check_caps,
	.create = dm_create,
	.destroy = dm_destroy,
	.describe = dm_describe,
};
