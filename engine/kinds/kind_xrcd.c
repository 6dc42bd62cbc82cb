// SPDX-License-Identifier: MIT
/*
 * xrcds: ibv_open_xrcd() on the context.  With fd_path the domain is tied
 * to that file's inode, so another process opening the same file gets the
 * same domain; without it the domain is private (fd -1).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "schema.h"
#include "value.h"

static int xrcd_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			   unsigned len)
{
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (dev && !(rs_dev_features(&dev->attr) & 1u << RS_FEAT_XRC)) {
		snprintf(why, len, "xrc (%s in device_cap_flags)",
			 rs_feature_source(RS_FEAT_XRC));
		return -EOPNOTSUPP;
	}
	return 0;
}

static int xrcd_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_xrcd *x = l->obj->data;
	struct ibv_context *ctx = rs_as_context(rs_live_find(run, x->context));
	struct rs_xrcd_rt *rt = l->rt;
	struct ibv_xrcd_init_attr ia = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		/* With fd -1, O_CREAT is what asks for a new domain; with a
		 * file it creates one for the inode or joins the existing. */
		.oflags = O_CREAT,
	};
	struct rs_call c;

	rt->fd = -1;
	if (x->fd_path && !run->dry_run) {
		rt->fd = open(x->fd_path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		if (rt->fd < 0)
			return rs_live_error(run, l, errno, "fd_path: %s: %s",
					     x->fd_path, strerror(errno));
		ia.fd = rt->fd;
	}
	rs_call_init(&c, RS_CALL_CREATE, "ibv_open_xrcd");
	rs_call_arg(&c, "context", "%s", x->context);
	if (x->fd_path && run->dry_run)
		rs_call_arg(&c, "fd", "open(%s)", x->fd_path);
	else if (x->fd_path)
		rs_call_arg(&c, "fd", "%d (%s)", rt->fd, x->fd_path);
	else
		rs_call_arg(&c, "fd", "-1");
	rs_call_arg(&c, "oflags", "O_CREAT");
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->xrcd, ibv_open_xrcd(ctx, &ia));
	if (!c.ok && c.err == EOPNOTSUPP && !c.hint[0])
		rs_call_hint(&c, "the device has no XRC");
	return rs_call_done(run, l, &c);
}

static void xrcd_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_xrcd_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_close_xrcd, rt->xrcd);
	/* The domain lives on as long as some process has it open; our
	 * descriptor only names the inode. */
	if (rt->fd >= 0)
		close(rt->fd);
	rt->fd = -1;
}

static void xrcd_describe(struct rs_run *run, struct rs_live *l,
			  struct rs_val *v)
{
	const struct rs_xrcd *x = l->obj->data;
	struct rs_xrcd_rt *rt = l->rt;

	(void)run;
	rs_val_put_i64(v, "fd", rt->fd);
	if (x->fd_path)
		rs_val_put_str(v, "fd_path", x->fd_path);
}

const struct rdmascn_ops rs_ops_xrcd = {
	.rt_size = sizeof(struct rs_xrcd_rt),
	.check_caps = xrcd_check_caps,
	.create = xrcd_create,
	.destroy = xrcd_destroy,
	.describe = xrcd_describe,
};
