// SPDX-License-Identifier: MIT
/* contexts: find the device (by name, GUID, netdev, index or the first
 * active port), the port and the GID; open it.  Or import another
 * context of the process (ibv_import_device()). */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "macros.h"
#include "plugin.h"
#include "value.h"

static bool port_active(struct ibv_context *ctx, uint8_t port,
			struct ibv_port_attr *pa)
{
	return !ibv_query_port(ctx, port, pa) && pa->state == IBV_PORT_ACTIVE;
}

/* "0x0002c90300a1b2c3" or "0002:c903:00a1:b2c3" (as ibv_devinfo prints). */
static bool parse_guid(const char *s, uint64_t *guid)
{
	char hex[17];
	unsigned n = 0;
	char *end;

	if (!strncmp(s, "0x", 2))
		s += 2;
	for (; *s && n < 16; s++) {
		if (*s == ':')
			continue;
		if (!strchr("0123456789abcdefABCDEF", *s))
			return false;
		hex[n++] = *s;
	}
	if (*s || n != 16)
		return false;
	hex[n] = '\0';
	*guid = strtoull(hex, &end, 16);
	return true;
}

static bool has_netdev(struct ibv_context *ctx, const char *ifname,
		       uint8_t *ret_port)
{
	unsigned idx = if_nametoindex(ifname);
	struct ibv_gid_entry ents[64];
	ssize_t n;

	if (!idx)
		return false;
	n = ibv_query_gid_table(ctx, ents, 64, 0);
	for (ssize_t i = 0; i < n; i++)
		if (ents[i].ndev_ifindex == idx) {
			*ret_port = ents[i].port_num;
			return true;
		}
	return false;
}

/*
 * The source GID when none was given: on Ethernet a RoCE v2 GID with an
 * IPv4-mapped address (what rdma_cm and perftest -x pick), else any RoCE
 * v2, else RoCE v1; on InfiniBand none (local traffic needs no GRH).
 */
static int pick_gid(struct ibv_context *ctx, struct rs_dev *dev)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	struct ibv_gid_entry ents[256];
	int best = -1, score = 0;
	ssize_t n;

	if (dev->port_attr.link_layer != IBV_LINK_LAYER_ETHERNET)
		return -1;
	n = ibv_query_gid_table(ctx, ents, 256, 0);
	for (ssize_t i = 0; i < n; i++) {
		int s;

		if (ents[i].port_num != dev->port)
			continue;
		if (ents[i].gid_type == IBV_GID_TYPE_ROCE_V2)
			s = memcmp(ents[i].gid.raw, v4mapped, 12) ? 2 : 3;
		else
			s = 1;
		if (s > score) {
			score = s;
			best = (int)ents[i].gid_index;
		}
	}
	return best;
}

/*
 * Is @index a GID of @dev's port?  The table may hold empty slots (rxe
 * has 1024, filled from the netdev's addresses): a slot without a GID is
 * as absent as one past gid_tbl_len.  When it is not, @gids says which
 * there are, as ranges: "0–1", "0–3, 6", "none".
 */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_gid(struct ibv_context *ctx, const struct rs_dev *dev,
		    uint32_t index, char *gids, size_t len)
{
	struct ibv_gid_entry ents[256];
	uint32_t idx[RS_N(ents)];
	size_t o = 0, k = 0;
	ssize_t n;

	n = ibv_query_gid_table(ctx, ents, RS_N(ents), 0);
	if (n < 0) {
		/* No table query (an old kernel): the table's length. */
		if (index < (uint32_t)dev->port_attr.gid_tbl_len)
			return true;
		snprintf(gids, len, "0\u2013%d", dev->port_attr.gid_tbl_len - 1);
		return false;
	}
	for (ssize_t i = 0; i < n; i++)
		if (ents[i].port_num == dev->port) {
			if (ents[i].gid_index == index)
				return true;
			idx[k++] = ents[i].gid_index;
		}
	qsort(idx, k, sizeof(*idx), cmp_u32);
	snprintf(gids, len, "none");
	for (size_t i = 0; i < k && o < len; i++) {
		size_t j = i;

		while (j + 1 < k && idx[j + 1] == idx[j] + 1)
			j++;
		o += j == i ? snprintf(gids + o, len - o, "%s%u",
				       o ? ", " : "", idx[i]) :
			      snprintf(gids + o, len - o, "%s%u\u2013%u",
				       o ? ", " : "", idx[i], idx[j]);
		i = j;
	}
	return false;
}

/* Open @d and fill @dev: port @port (0: the first active one), its
 * attributes and GID.  With @want_any, a device without an active port
 * is -ENODEV, so the search goes on.  A GID index the port does not
 * have is -ENOENT, with the ones it has in @gids. */
static int open_probe(const struct rs_context *c, struct ibv_device *d,
		      struct rs_dev *dev, uint8_t port, bool want_any,
		      char *gids, size_t gids_len)
{
	struct ibv_context *ctx = ibv_open_device(d);
	int ret = -ENODEV;

	if (!ctx)
		return -errno;
	if (ibv_query_device_ex(ctx, NULL, &dev->attr))
		goto out;
	dev->port = port;
	if (!dev->port) {
		/* The first active port; port 1 when none is. */
		for (uint8_t p = 1; p <= dev->attr.orig_attr.phys_port_cnt; p++)
			if (port_active(ctx, p, &dev->port_attr)) {
				dev->port = p;
				break;
			}
		if (!dev->port) {
			if (want_any)
				goto out;
			dev->port = 1;
		}
	}
	if (ibv_query_port(ctx, dev->port, &dev->port_attr)) {
		ret = -errno;
		goto out;
	}
	if (want_any && dev->port_attr.state != IBV_PORT_ACTIVE)
		goto out;
	snprintf(dev->name, sizeof(dev->name), "%s", ibv_get_device_name(d));
	dev->device = d;
	dev->gid_index = c->gid_index_given ? (int)c->gid_index :
			 pick_gid(ctx, dev);
	if (c->gid_index_given &&
	    !has_gid(ctx, dev, c->gid_index, gids, gids_len)) {
		ret = -ENOENT;
		goto out;
	}
	if (dev->gid_index >= 0) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(ctx, dev->port, dev->gid_index, &e, 0)) {
			ret = -errno ? -errno : -EINVAL;
			goto out;
		}
		dev->gid = e.gid;
		dev->gid_type = e.gid_type;
	}
	/* While the device is open: plugins look at it through it. */
	dev->features = rs_ctx_features(ctx, &dev->attr);
	dev->num_comp_vectors = ctx->num_comp_vectors;
	ret = 0;
out:
	ibv_close_device(ctx);
	return ret;
}

/* "rxe0, mlx5_0": the devices here, in ibv_get_device_list() order. */
static void device_names(const struct rs_run *run, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < run->n_devices; i++)
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				i ? ", " : "",
				ibv_get_device_name(run->devices[i]));
}

/* An import stands for its original's device: the same port and GID,
 * whichever of the two is probed first. */
static int probe_import(struct rs_run *run, struct rs_live *l)
{
	const struct rs_context *c = l->obj->data;
	struct rs_context_rt *rt = l->rt;
	struct rs_context_rt *orig = rs_rt(run, c->import);

	rt->shared = orig ? &orig->dev : NULL;
	return 0;
}

/* The GID index the file gives is not on the port: the file against
 * this machine, as a device it names that is not here (exit 3). */
static int no_gid(struct rs_run *run, struct rs_live *l, const char *dev,
		  unsigned port, const char *gids)
{
	const struct rs_context *c = l->obj->data;

	return rs_live_error_at(run, l, "gid_index", ENOENT, "%s port %u has "
				"no GID %u (%s)", dev, port, c->gid_index, gids);
}

/* The device @l opens: --device, else its own, else (where its own is
 * any) its node's `device:`. */
static const char *context_want(const struct rs_run *run,
				const struct rs_live *l)
{
	const struct rs_context *c = l->obj->data;
	const char *node = rs_node_device(run->s, l->obj->on);

	if (run->device)
		return run->device;
	if (node && (!c->device || !strcmp(c->device, "any")))
		return node;
	return c->device;
}

static int context_probe(struct rs_run *run, struct rs_live *l)
{
	const struct rs_context *c = l->obj->data;
	struct rs_dev *dev = &((struct rs_context_rt *)l->rt)->dev;
	const char *want = context_want(run, l);
	bool any = !want || !strcmp(want, "any");
	bool by_index = c->index_given && !run->device;
	char names[256], gids[128] = "";
	/* With any: the first device whose port lacks the GID. */
	char miss_dev[IBV_SYSFS_NAME_MAX] = "", miss_gids[sizeof(gids)];
	unsigned miss_port = 0;
	/* With any: the first device that could not be opened, and why. */
	char fail_dev[IBV_SYSFS_NAME_MAX] = "", err[128];
	int fail = 0;
	uint64_t guid = 0;
	bool by_guid = !any && parse_guid(want, &guid);
	int r = -ENODEV;

	if (c->import)
		return probe_import(run, l);
	device_names(run, names, sizeof(names));
	if (by_index) {
		if ((int64_t)c->index >= run->n_devices)
			return rs_live_error(run, l, ENODEV, "index: %u is out "
				"of range: %d device%s here (%s)", c->index,
				run->n_devices, run->n_devices == 1 ? "" : "s",
				run->n_devices ? names : "none");
		r = open_probe(c, run->devices[c->index], dev, c->port, false,
			       gids, sizeof(gids));
		any = false;
		want = ibv_get_device_name(run->devices[c->index]);
	}
	for (int i = 0; i < run->n_devices && !by_index; i++) {
		struct ibv_device *d = run->devices[i];
		const char *name = ibv_get_device_name(d);

		if (any) {
			r = open_probe(c, d, dev, c->port, true, gids,
				       sizeof(gids));
			if (!r)
				return 0;
			if (r == -ENOENT && !miss_dev[0]) {
				snprintf(miss_dev, sizeof(miss_dev), "%s",
					 dev->name);
				snprintf(miss_gids, sizeof(miss_gids), "%s", gids);
				miss_port = dev->port;
			} else if (r != -ENODEV && !fail) {
				snprintf(fail_dev, sizeof(fail_dev), "%s", name);
				fail = r;
			}
			r = -ENODEV;
			continue;
		}
		if (by_guid ? be64toh(ibv_get_device_guid(d)) == guid :
		    !strncmp(want, "netdev:", 7) ? false : !strcmp(want, name)) {
			r = open_probe(c, d, dev, c->port, false, gids,
				       sizeof(gids));
			break;
		}
		if (!strncmp(want, "netdev:", 7)) {
			struct ibv_context *ctx = ibv_open_device(d);
			uint8_t port = 0;
			bool found = ctx && has_netdev(ctx, want + 7, &port);

			if (ctx)
				ibv_close_device(ctx);
			if (found) {
				/* The netdev's port unless one was given. */
				r = open_probe(c, d, dev, c->port ? c->port : port,
					       false, gids, sizeof(gids));
				break;
			}
		}
	}
	if (r == -ENODEV && miss_dev[0])
		return no_gid(run, l, miss_dev, miss_port, miss_gids);
	if (r == -ENODEV && fail)
		return rs_live_error(run, l, -fail, "%s: %s", fail_dev,
				     rs_errno_text(-fail, err, sizeof(err)));
	if (r == -ENODEV) {
		if (any)
			return rs_live_error(run, l, ENODEV, "no RDMA device "
				"with an active port (devices here: %s)",
				run->n_devices ? names : "none; try "
				"`rdmascn run --softroce`");
		return rs_live_error(run, l, ENODEV, "device: no RDMA device "
				     "'%s' (devices here: %s)", want,
				     run->n_devices ? names : "none");
	}
	if (r == -ENOENT)
		return no_gid(run, l, dev->name, dev->port, gids);
	if (r)
		return rs_live_error(run, l, -r, "%s: %s", dev->name[0] ?
				     dev->name : want,
				     rs_errno_text(-r, err, sizeof(err)));
	if (dev->port_attr.state != IBV_PORT_ACTIVE)
		return rs_live_error(run, l, ENETDOWN, "%s port %u is %s, not "
				     "active", dev->name, dev->port,
				     ibv_port_state_str(dev->port_attr.state));
	return 0;
}

static int context_check_caps(struct rs_run *run, struct rs_live *l,
			      char *why, unsigned len)
{
	const struct rs_context *c = l->obj->data;

	return c->import ? rs_import_trial(rs_live_dev(run, l), "context",
					   why, len) : 0;
}

/* ibv_import_device() on a dup of the original's cmd_fd: the new
 * context owns the dup, and closes it with ibv_close_device(). */
static int import_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_context *c = l->obj->data;
	struct rs_context_rt *rt = l->rt;
	struct rs_context_rt *orig = rs_rt(run, c->import);
	struct rs_call call;
	int fd;

	rs_call_init(&call, RS_CALL_CREATE, "ibv_import_device");
	rs_call_arg(&call, "cmd_fd", "dup(%s.cmd_fd)", c->import);
	if (rs_call_go(run, l, &call)) {
		fd = dup(orig->ctx->cmd_fd);
		if (fd < 0) {
			call.ok = false;
			call.err = errno;
			rs_call_returned(&call);
			rs_call_hint(&call, "dup() of the cmd_fd failed");
		} else {
			RS_CALL_PTR(&call, rt->ctx, ibv_import_device(fd));
			if (!rt->ctx)
				close(fd);
		}
	}
	return rs_call_done(run, l, &call);
}

static int context_create(struct rs_run *run, struct rs_live *l)
{
	struct rs_context_rt *rt = l->rt;
	struct rs_call c;

	if (((const struct rs_context *)l->obj->data)->import)
		return import_create(run, l);
	rs_call_init(&c, RS_CALL_CREATE, "ibv_open_device");
	if (run->dry_run) {
		const struct rs_context *ctx = l->obj->data;
		const char *want = context_want(run, l);

		if (ctx->index_given && !run->device)
			rs_call_arg(&c, "device", "#%u", ctx->index);
		else
			rs_call_arg(&c, "device", "%s", want ? want : "any");
		rs_call_arg(&c, "port", "%u", ctx->port ? ctx->port : 1);
		if (ctx->gid_index_given)
			rs_call_arg(&c, "gid_index", "%u", ctx->gid_index);
	} else {
		rs_call_arg(&c, "device", "%s", rt->dev.name);
	}
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->ctx, ibv_open_device(rt->dev.device));
	return rs_call_done(run, l, &c);
}

static void context_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_context_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_close_device, rt->ctx);
}

static int context_as_dev(struct rs_live *l, struct rdmascn_device *ret)
{
	struct rs_context_rt *rt = l->rt;

	ret->dev = rt->shared ? rt->shared : &rt->dev;
	return 0;
}

static int context_as_context(struct rs_live *l, struct rdmascn_context *ret)
{
	ret->ctx = ((struct rs_context_rt *)l->rt)->ctx;
	return 0;
}

static void context_describe(struct rs_run *run, struct rs_live *l,
			     struct rs_val *v)
{
	const struct rs_context *c = l->obj->data;
	const struct rs_dev *dev = rs_as_dev(l);
	char gid[INET6_ADDRSTRLEN];

	rs_val_put_str(v, "device", dev->name);
	if (c->import)
		rs_val_put_str(v, "import", c->import);
	else if (c->index_given && !run->device)
		rs_val_put_u64(v, "index", c->index);
	rs_val_put_u64(v, "port", dev->port);
	if (dev->gid_index >= 0) {
		inet_ntop(AF_INET6, dev->gid.raw, gid, sizeof(gid));
		rs_val_put_u64(v, "gid_index", dev->gid_index);
		rs_val_put_str(v, "gid", gid);
	}
	rs_val_put_str(v, "mtu", dev->port_attr.active_mtu == IBV_MTU_4096 ? "4096" :
		   dev->port_attr.active_mtu == IBV_MTU_2048 ? "2048" :
		   dev->port_attr.active_mtu == IBV_MTU_1024 ? "1024" :
		   dev->port_attr.active_mtu == IBV_MTU_512 ? "512" : "256");
}

/* Its asynchronous events, while steps run. */
static int context_watch_fd(struct rs_live *l, const char **ret_what)
{
	struct rs_context_rt *rt = l->rt;

	if (!rt->ctx)
		return -1;
	*ret_what = "the async_fd";
	return rt->ctx->async_fd;
}

static void context_on_readable(struct rs_step_run *sr, struct rs_live *l)
{
	const struct rs_context *c = l->obj->data;

	rs_async_events(sr, l, ((struct rs_context_rt *)l->rt)->ctx,
			c->async_events);
}

const struct rdmascn_ops rs_ops_context = {
	.rt_size = sizeof(struct rs_context_rt),
	.check_caps = context_check_caps,
	.create = context_create,
	.destroy = context_destroy,
	.describe = context_describe,
	.probe = context_probe,
	.watch_fd = context_watch_fd,
	.on_readable = context_on_readable,
	.as_dev = context_as_dev,
	.as_context = context_as_context,
};
