// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/utsname.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "alloc.h"
#include "caps.h"
#include "devices.h"
#include "plugin.h"
#include "macros.h"

static const struct rs_bit_name dev_cap_flags[] = {
	{ IBV_DEVICE_RESIZE_MAX_WR, "resize_max_wr" },
	{ IBV_DEVICE_BAD_PKEY_CNTR, "bad_pkey_cntr" },
	{ IBV_DEVICE_BAD_QKEY_CNTR, "bad_qkey_cntr" },
	{ IBV_DEVICE_RAW_MULTI, "raw_multi" },
	{ IBV_DEVICE_AUTO_PATH_MIG, "auto_path_mig" },
	{ IBV_DEVICE_CHANGE_PHY_PORT, "change_phy_port" },
	{ IBV_DEVICE_UD_AV_PORT_ENFORCE, "ud_av_port_enforce" },
	{ IBV_DEVICE_CURR_QP_STATE_MOD, "curr_qp_state_mod" },
	{ IBV_DEVICE_SHUTDOWN_PORT, "shutdown_port" },
	{ IBV_DEVICE_INIT_TYPE, "init_type" },
	{ IBV_DEVICE_PORT_ACTIVE_EVENT, "port_active_event" },
	{ IBV_DEVICE_SYS_IMAGE_GUID, "sys_image_guid" },
	{ IBV_DEVICE_RC_RNR_NAK_GEN, "rc_rnr_nak_gen" },
	{ IBV_DEVICE_SRQ_RESIZE, "srq_resize" },
	{ IBV_DEVICE_N_NOTIFY_CQ, "n_notify_cq" },
	{ IBV_DEVICE_MEM_WINDOW, "mem_window" },
	{ IBV_DEVICE_UD_IP_CSUM, "ud_ip_csum" },
	{ IBV_DEVICE_XRC, "xrc" },
	{ IBV_DEVICE_MEM_MGT_EXTENSIONS, "mem_mgt_extensions" },
	{ IBV_DEVICE_MEM_WINDOW_TYPE_2A, "mem_window_type_2a" },
	{ IBV_DEVICE_MEM_WINDOW_TYPE_2B, "mem_window_type_2b" },
	{ IBV_DEVICE_RC_IP_CSUM, "rc_ip_csum" },
	{ IBV_DEVICE_RAW_IP_CSUM, "raw_ip_csum" },
	{ IBV_DEVICE_MANAGED_FLOW_STEERING, "managed_flow_steering" },
};

static const char *atomic_name(enum ibv_atomic_cap a)
{
	switch (a) {
	case IBV_ATOMIC_HCA: return "hca";
	case IBV_ATOMIC_GLOB: return "glob";
	default: return "none";
	}
}

static const char *link_layer_name(uint8_t ll)
{
	switch (ll) {
	case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
	default: return "unknown";
	}
}

static const char *gid_type_name(enum ibv_gid_type t)
{
	switch (t) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}

/* ibv_port_state_str()'s spelling changed across rdma-core releases;
 * print the names of the IB spec, as ibstat does. */
static const char *port_state_name(enum ibv_port_state s)
{
	static const char *const names[] = {
		[IBV_PORT_NOP] = "NOP",
		[IBV_PORT_DOWN] = "DOWN",
		[IBV_PORT_INIT] = "INIT",
		[IBV_PORT_ARMED] = "ARMED",
		[IBV_PORT_ACTIVE] = "ACTIVE",
		[IBV_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
	};

	return (unsigned)s < RS_N(names) ? names[s] : "UNKNOWN";
}

static const char *phys_state_name(uint8_t s)
{
	static const char *const names[] = {
		"NOP", "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION_TRAINING",
		"LINK_UP", "LINK_ERROR_RECOVERY", "PHY_TEST",
	};

	return s < RS_N(names) ? names[s] : "UNKNOWN";
}

static void guid_str(char buf[20], __be64 be)
{
	uint64_t g = be64toh(be);

	snprintf(buf, 20, "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff,
		 (unsigned)g & 0xffff);
}

static void describe_gids(struct ibv_context *ctx, uint8_t port,
			  int tbl_len, struct rs_val *pobj)
{
	struct rs_val *gids = rs_val_put_arr(pobj, "gids");
	struct ibv_gid_entry *ents;
	ssize_t n;

	if (tbl_len <= 0)
		return;
	ents = rs_calloc(tbl_len, sizeof(*ents));
	if (!ents) {
		rs_val_push(gids, NULL); /* marks it: out of memory */
		return;
	}
	/* The table is per device; keep this port's valid entries. */
	n = ibv_query_gid_table(ctx, ents, tbl_len, 0);
	for (ssize_t i = 0; i < n; i++) {
		char addr[INET6_ADDRSTRLEN], ifname[IF_NAMESIZE];
		struct rs_val *g;

		if (ents[i].port_num != port)
			continue;
		g = rs_val_push_obj(gids);
		rs_val_put_u64(g, "index", ents[i].gid_index);
		inet_ntop(AF_INET6, ents[i].gid.raw, addr, sizeof(addr));
		rs_val_put_str(g, "gid", addr);
		rs_val_put_str(g, "type", gid_type_name(ents[i].gid_type));
		if (ents[i].ndev_ifindex &&
		    if_indextoname(ents[i].ndev_ifindex, ifname))
			rs_val_put_str(g, "netdev", ifname);
	}
	rs_free(ents);
}

static void describe_port(struct ibv_context *ctx, uint8_t port,
			  struct rs_val *ports)
{
	struct ibv_port_attr pa;
	struct rs_val *p = rs_val_push_obj(ports);

	rs_val_put_u64(p, "port", port);
	if (ibv_query_port(ctx, port, &pa)) {
		rs_val_put_strf(p, "error", "ibv_query_port: %s", strerror(errno));
		return;
	}
	rs_val_put_str(p, "state", port_state_name(pa.state));
	rs_val_put_str(p, "phys_state", phys_state_name(pa.phys_state));
	rs_val_put_str(p, "link_layer", link_layer_name(pa.link_layer));
	rs_val_put_u64(p, "active_mtu", 128u << pa.active_mtu);
	rs_val_put_u64(p, "max_mtu", 128u << pa.max_mtu);
	rs_val_put_u64(p, "lid", pa.lid);
	rs_val_put_u64(p, "sm_lid", pa.sm_lid);
	rs_val_put_u64(p, "active_speed", pa.active_speed);
	rs_val_put_u64(p, "active_width", pa.active_width);
	rs_val_put_u64(p, "gid_tbl_len", pa.gid_tbl_len);
	rs_val_put_u64(p, "pkey_tbl_len", pa.pkey_tbl_len);
	rs_val_put_u64(p, "max_msg_sz", pa.max_msg_sz);
	describe_gids(ctx, port, pa.gid_tbl_len, p);
}

static void describe_caps(struct ibv_context *ctx,
			  const struct ibv_device_attr_ex *ax,
			  struct rs_val *dev)
{
	const struct ibv_device_attr *a = &ax->orig_attr;
	struct rs_val *caps = rs_val_put_obj(dev, "caps");
	struct rs_val *flags, *feat;
	uint32_t bits;

	rs_val_put_u64(caps, "max_qp", a->max_qp);
	rs_val_put_u64(caps, "max_qp_wr", a->max_qp_wr);
	rs_val_put_u64(caps, "max_sge", a->max_sge);
	rs_val_put_u64(caps, "max_cq", a->max_cq);
	rs_val_put_u64(caps, "max_cqe", a->max_cqe);
	rs_val_put_u64(caps, "max_mr", a->max_mr);
	rs_val_put_u64(caps, "max_mr_size", a->max_mr_size);
	rs_val_put_u64(caps, "max_pd", a->max_pd);
	rs_val_put_u64(caps, "max_mw", a->max_mw);
	rs_val_put_u64(caps, "max_srq", a->max_srq);
	rs_val_put_u64(caps, "max_srq_wr", a->max_srq_wr);
	rs_val_put_u64(caps, "max_ah", a->max_ah);
	rs_val_put_u64(caps, "max_qp_rd_atom", a->max_qp_rd_atom);
	rs_val_put_u64(caps, "max_qp_init_rd_atom", a->max_qp_init_rd_atom);
	rs_val_put_u64(caps, "max_mcast_grp", a->max_mcast_grp);
	rs_val_put_u64(caps, "max_pkeys", a->max_pkeys);
	rs_val_put_str(caps, "atomic", atomic_name(a->atomic_cap));
	rs_val_put_u64(caps, "max_dm_size", ax->max_dm_size);
	rs_val_put_u64(caps, "completion_timestamp_mask",
		   ax->completion_timestamp_mask);

	flags = rs_val_put_arr(caps, "device_cap_flags");
	for (size_t i = 0; i < RS_N(dev_cap_flags); i++)
		if (a->device_cap_flags & dev_cap_flags[i].bit)
			rs_val_push_str(flags, dev_cap_flags[i].name);

	/* What a scenario's requires: asks about, decided where run
	 * decides it. */
	feat = rs_val_put_arr(dev, "features");
	bits = rs_ctx_features(ctx, ax);
	for (unsigned f = 0; f < 32; f++)
		if (bits & 1u << f)
			rs_val_push_str(feat, rs_feature_name(f));
}

static void describe_device(struct ibv_device *ibdev, struct rs_val *devs)
{
	struct rs_val *dev = rs_val_push_obj(devs), *ports;
	struct ibv_device_attr_ex ax = {};
	struct ibv_context *ctx;
	char guid[20];

	rs_val_put_str(dev, "name", ibv_get_device_name(ibdev));
	guid_str(guid, ibv_get_device_guid(ibdev));
	rs_val_put_str(dev, "node_guid", guid);
	rs_val_put_str(dev, "node_type", ibv_node_type_str(ibdev->node_type));

	ctx = ibv_open_device(ibdev);
	if (!ctx) {
		rs_val_put_strf(dev, "error", "ibv_open_device: %s",
			    strerror(errno));
		return;
	}
	if (ibv_query_device_ex(ctx, NULL, &ax)) {
		rs_val_put_strf(dev, "error", "ibv_query_device_ex: %s",
			    strerror(errno));
		goto out;
	}
	guid_str(guid, ax.orig_attr.sys_image_guid);
	rs_val_put_str(dev, "sys_image_guid", guid);
	rs_val_put_str(dev, "fw_ver", ax.orig_attr.fw_ver);
	rs_val_put_strf(dev, "vendor_id", "0x%04x", ax.orig_attr.vendor_id);
	rs_val_put_u64(dev, "vendor_part_id", ax.orig_attr.vendor_part_id);
	rs_val_put_u64(dev, "hw_ver", ax.orig_attr.hw_ver);
	rs_val_put_u64(dev, "phys_port_cnt", ax.orig_attr.phys_port_cnt);
	describe_caps(ctx, &ax, dev);
	ports = rs_val_put_arr(dev, "ports");
	for (uint8_t p = 1; p <= ax.orig_attr.phys_port_cnt; p++)
		describe_port(ctx, p, ports);
	rs_plugins_describe_device(ctx, dev);
out:
	ibv_close_device(ctx);
}

int rs_devices_describe(const char *name, struct rs_val **ret_devices)
{
	struct ibv_device **list;
	struct rs_val *devs;
	int n, r;

	list = ibv_get_device_list(&n);
	if (!list)
		/* ENOSYS: no kernel support at all; same thing for the user. */
		return errno == ENOSYS ? -ENODEV : -errno;
	devs = rs_val_arr();
	if (!devs) {
		ibv_free_device_list(list);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		if (!name || !strcmp(name, ibv_get_device_name(list[i])))
			describe_device(list[i], devs);
	ibv_free_device_list(list);

	r = rs_val_check(devs);
	if (!r && rs_val_len(devs) == 0)
		r = -ENODEV;
	if (r < 0) {
		rs_val_free(devs);
		return r;
	}
	*ret_devices = devs;
	return 0;
}

static void print_caps(FILE *f, const struct rs_val *dev)
{
	static const char *const keys[] = {
		"max_qp", "max_qp_wr", "max_cq", "max_cqe", "max_mr",
		"max_mr_size", "max_pd", "max_mw", "max_srq", "max_ah",
		"max_sge", "max_qp_rd_atom",
	};
	const struct rs_val *caps = rs_val_get(dev, "caps");
	const struct rs_val *feat = rs_val_get(dev, "features");
	int col = 0;

	if (!caps)
		return;
	fputs("  caps:", f);
	col = 7;
	for (size_t i = 0; i < RS_N(keys); i++) {
		char item[64];
		int len = snprintf(item, sizeof(item), " %s %llu", keys[i],
				   (unsigned long long)rs_val_get_u64(caps, keys[i]));

		if (col + len > 78) {
			fputs("\n       ", f);
			col = 7;
		}
		fputs(item, f);
		col += len;
	}
	fprintf(f, "\n  atomic: %s", rs_val_get_str(caps, "atomic"));
	fputs("  features:", f);
	for (size_t i = 0; feat && i < rs_val_len(feat); i++)
		fprintf(f, " %s",
			json_object_get_string(rs_val_json(rs_val_at(feat, i))));
	if (!feat || !rs_val_len(feat))
		fputs(" -", f);
	fputc('\n', f);
}

void rs_devices_print(FILE *f, const struct rs_val *devs)
{
	for (size_t d = 0; d < rs_val_len(devs); d++) {
		const struct rs_val *dev = rs_val_at(devs, d);
		const struct rs_val *ports = rs_val_get(dev, "ports");
		const char *err = rs_val_get_str(dev, "error");

		if (d)
			fputc('\n', f);
		fprintf(f, "%s: %s, node_guid %s", rs_val_get_str(dev, "name"),
			rs_val_get_str(dev, "node_type"),
			rs_val_get_str(dev, "node_guid"));
		if (err) {
			fprintf(f, "\n  error: %s\n", err);
			continue;
		}
		fprintf(f, ", fw %s, vendor %s part %llu\n",
			rs_val_get_str(dev, "fw_ver"),
			rs_val_get_str(dev, "vendor_id"),
			(unsigned long long)rs_val_get_u64(dev, "vendor_part_id"));
		print_caps(f, dev);
		fprintf(f, "  %-4s %-8s %-10s %-5s %-5s %-5s %-40s %-8s %s\n",
			"PORT", "STATE", "LINK", "MTU", "LID", "GID#", "GID",
			"TYPE", "NETDEV");
		for (size_t p = 0; ports && p < rs_val_len(ports); p++) {
			const struct rs_val *port = rs_val_at(ports, p);
			const struct rs_val *gids = rs_val_get(port, "gids");
			size_t ng = gids ? rs_val_len(gids) : 0;

			for (size_t g = 0; g < (ng ? ng : 1); g++) {
				const struct rs_val *gid = ng ? rs_val_at(gids, g) : NULL;
				const char *nd = gid ? rs_val_get_str(gid, "netdev") : NULL;

				if (g == 0)
					fprintf(f, "  %-4llu %-8s %-10s %-5llu %-5llu ",
						(unsigned long long)rs_val_get_u64(port, "port"),
						rs_val_get_str(port, "state"),
						rs_val_get_str(port, "link_layer"),
						(unsigned long long)rs_val_get_u64(port, "active_mtu"),
						(unsigned long long)rs_val_get_u64(port, "lid"));
				else
					fprintf(f, "  %-4s %-8s %-10s %-5s %-5s ",
						"", "", "", "", "");
				if (!gid) {
					fputs("-\n", f);
					continue;
				}
				fprintf(f, "%-5llu %-40s %-8s %s\n",
					(unsigned long long)rs_val_get_u64(gid, "index"),
					rs_val_get_str(gid, "gid"),
					rs_val_get_str(gid, "type"), nd ? nd : "-");
			}
		}
	}
}

static bool host_has_rxe(void)
{
	struct utsname u;
	char pat[PATH_MAX];
	glob_t g;
	bool found;

	if (access("/sys/module/rdma_rxe", F_OK) == 0)
		return true;
	if (uname(&u) < 0)
		return false;
	snprintf(pat, sizeof(pat), "/lib/modules/%s/kernel/drivers/infiniband/"
		 "sw/rxe/rdma_rxe.ko*", u.release);
	found = glob(pat, 0, NULL, &g) == 0;
	globfree(&g);
	return found;
}

void rs_devices_explain_none(FILE *f, const char *retry)
{
	fprintf(f, "rdmascn: no RDMA device found.\n"
		"  To get a real Soft-RoCE device in a throwaway VM (no root or "
		"kernel support needed):\n"
		"    %s\n", retry);
	if (host_has_rxe())
		fputs("  This kernel has rdma_rxe: as root you can use it "
		      "directly:\n"
		      "    modprobe rdma_rxe && rdma link add rxe0 type rxe "
		      "netdev <interface>\n", f);
}
