// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
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
#include "facts.h"
#include "plugin.h"
#include "macros.h"

/*
 * The names of the bits of each flag word of ibv_query_device_ex() and
 * ibv_query_port(): the header's enum names, prefix dropped, in lower case.
 * A bit the header does not name is shown in hex (put_flags()).
 */
#define BIT_NAME(b, n, a) { b, #n },
static const struct rs_bit_name dev_cap_flags[] = {
	RS_DEV_CAP_FLAGS(BIT_NAME)
};

static const struct rs_bit_name odp_general_caps[] = {
	{ IBV_ODP_SUPPORT, "support" },
	{ IBV_ODP_SUPPORT_IMPLICIT, "support_implicit" },
};

static const struct rs_bit_name odp_transport_caps[] = {
	{ IBV_ODP_SUPPORT_SEND, "send" },
	{ IBV_ODP_SUPPORT_RECV, "recv" },
	{ IBV_ODP_SUPPORT_WRITE, "write" },
	{ IBV_ODP_SUPPORT_READ, "read" },
	{ IBV_ODP_SUPPORT_ATOMIC, "atomic" },
	{ IBV_ODP_SUPPORT_SRQ_RECV, "srq_recv" },
};

/* supported_qpts of tso, rss and packet pacing: a bit per enum ibv_qp_type. */
static const struct rs_bit_name qp_types[] = {
	{ 1u << IBV_QPT_RC, "rc" },
	{ 1u << IBV_QPT_UC, "uc" },
	{ 1u << IBV_QPT_UD, "ud" },
	{ 1u << IBV_QPT_RAW_PACKET, "raw_packet" },
	{ 1u << IBV_QPT_XRC_SEND, "xrc_send" },
	{ 1u << IBV_QPT_XRC_RECV, "xrc_recv" },
};

static const struct rs_bit_name rx_hash_fields[] = {
	{ IBV_RX_HASH_SRC_IPV4, "src_ipv4" },
	{ IBV_RX_HASH_DST_IPV4, "dst_ipv4" },
	{ IBV_RX_HASH_SRC_IPV6, "src_ipv6" },
	{ IBV_RX_HASH_DST_IPV6, "dst_ipv6" },
	{ IBV_RX_HASH_SRC_PORT_TCP, "src_port_tcp" },
	{ IBV_RX_HASH_DST_PORT_TCP, "dst_port_tcp" },
	{ IBV_RX_HASH_SRC_PORT_UDP, "src_port_udp" },
	{ IBV_RX_HASH_DST_PORT_UDP, "dst_port_udp" },
	{ IBV_RX_HASH_IPSEC_SPI, "ipsec_spi" },
	{ IBV_RX_HASH_INNER, "inner" },
};

static const struct rs_bit_name rx_hash_functions[] = {
	{ IBV_RX_HASH_FUNC_TOEPLITZ, "toeplitz" },
};

static const struct rs_bit_name raw_packet_caps[] = {
	{ IBV_RAW_PACKET_CAP_CVLAN_STRIPPING, "cvlan_stripping" },
	{ IBV_RAW_PACKET_CAP_SCATTER_FCS, "scatter_fcs" },
	{ IBV_RAW_PACKET_CAP_IP_CSUM, "ip_csum" },
	{ IBV_RAW_PACKET_CAP_DELAY_DROP, "delay_drop" },
};

static const struct rs_bit_name tm_cap_flags[] = {
	{ IBV_TM_CAP_RC, "rc" },
};

static const struct rs_bit_name pci_atomic_sizes[] = {
	{ IBV_PCI_ATOMIC_OPERATION_4_BYTE_SIZE_SUP, "4_byte_size_sup" },
	{ IBV_PCI_ATOMIC_OPERATION_8_BYTE_SIZE_SUP, "8_byte_size_sup" },
	{ IBV_PCI_ATOMIC_OPERATION_16_BYTE_SIZE_SUP, "16_byte_size_sup" },
};

static const struct rs_bit_name port_cap_flags[] = {
	RS_PORT_CAP_FLAGS(BIT_NAME)
};

static const struct rs_bit_name port_cap_flags2[] = {
	{ IBV_PORT_SET_NODE_DESC_SUP, "set_node_desc_sup" },
	{ IBV_PORT_INFO_EXT_SUP, "info_ext_sup" },
	{ IBV_PORT_VIRT_SUP, "virt_sup" },
	{ IBV_PORT_SWITCH_PORT_STATE_TABLE_SUP, "switch_port_state_table_sup" },
	{ IBV_PORT_LINK_WIDTH_2X_SUP, "link_width_2x_sup" },
	{ IBV_PORT_LINK_SPEED_HDR_SUP, "link_speed_hdr_sup" },
	{ IBV_PORT_LINK_SPEED_NDR_SUP, "link_speed_ndr_sup" },
};

static const struct rs_bit_name port_flags[] = {
	{ IBV_QPF_GRH_REQUIRED, "grh_required" },
};

/*
 * A flag word as the names of its bits (the bits the header does not
 * name as one hex entry, so nothing is lost) and, beside it as KEY_raw,
 * the word itself.
 */
static void put_flags(struct rs_val *obj, const char *key, uint64_t word,
		      const struct rs_bit_name *names, size_t n)
{
	struct rs_val *arr = rs_val_put_arr(obj, key);
	uint64_t rest = word;
	char buf[64];

	for (size_t i = 0; i < n; i++)
		if (word & names[i].bit) {
			rs_val_push_str(arr, names[i].name);
			rest &= ~names[i].bit;
		}
	if (rest) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, rest);
		rs_val_push_str(arr, buf);
	}
	snprintf(buf, sizeof(buf), "%s_raw", key);
	rs_val_put_u64(obj, buf, word);
}

#define PUT_FLAGS(obj, key, word, table) \
	put_flags(obj, key, word, table, RS_N(table))

static const char *transport_name(enum ibv_transport_type t)
{
	switch (t) {
	case IBV_TRANSPORT_IB: return "InfiniBand";
	case IBV_TRANSPORT_IWARP: return "iWARP";
	case IBV_TRANSPORT_USNIC: return "usNIC";
	case IBV_TRANSPORT_USNIC_UDP: return "usNIC UDP";
	case IBV_TRANSPORT_UNSPECIFIED: return "unspecified";
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

static void guid_str(char buf[20], __be64 be)
{
	uint64_t g = be64toh(be);

	snprintf(buf, 20, "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff,
		 (unsigned)g & 0xffff);
}

/* A fact of the table ${CTX.GROUP.FIELD} reads (scenario/facts.h),
 * under its name there. */
static void put_fact(struct rs_val *obj, const struct rs_fact *f,
		     const struct rs_fact_src *src)
{
	struct rs_fact_val v;

	rs_fact_get(f, src, &v);
	if (v.text)
		rs_val_put_str(obj, f->name, v.str);
	else
		rs_val_put_u64(obj, f->name, v.num);
}

/* The device's facts, which a scenario's ${ctx.device.FIELD} reads:
 * ibv_device_attr's limits in the header's order, the context's
 * completion vectors, ibv_device_attr_ex's numbers. */
static void describe_limits(struct ibv_context *ctx,
			    const struct ibv_device_attr_ex *ax,
			    struct rs_val *caps)
{
	struct rs_fact_src src = { .attr = ax,
				   .num_comp_vectors = ctx->num_comp_vectors };
	const struct rs_fact *f;

	for (unsigned i = 0; (f = rs_fact_at(i)); i++)
		if (f->group == RS_FACT_DEVICE && f->in_caps)
			put_fact(caps, f, &src);
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
	struct rs_fact_src src = { .port = &pa };
	struct rs_val *p = rs_val_push_obj(ports);
	const struct rs_fact *f;

	rs_val_put_u64(p, "port", port);
	if (ibv_query_port(ctx, port, &pa)) {
		rs_val_put_strf(p, "error", "ibv_query_port: %s", strerror(errno));
		return;
	}
	for (unsigned i = 0; (f = rs_fact_at(i)); i++)
		if (f->group == RS_FACT_PORT && f->in_caps)
			put_fact(p, f, &src);
	PUT_FLAGS(p, "port_cap_flags", pa.port_cap_flags, port_cap_flags);
	PUT_FLAGS(p, "port_cap_flags2", pa.port_cap_flags2, port_cap_flags2);
	PUT_FLAGS(p, "flags", pa.flags, port_flags);
	describe_gids(ctx, port, pa.gid_tbl_len, p);
}

/* What ibv_device_attr_ex adds, a sub-object per struct of the header. */
static void describe_ex(const struct ibv_device_attr_ex *ax,
			struct rs_val *caps)
{
	struct rs_val *o, *t;

	PUT_FLAGS(caps, "device_cap_flags", ax->orig_attr.device_cap_flags,
		  dev_cap_flags);
	PUT_FLAGS(caps, "device_cap_flags_ex", ax->device_cap_flags_ex,
		  dev_cap_flags);
	PUT_FLAGS(caps, "raw_packet_caps", ax->raw_packet_caps,
		  raw_packet_caps);
	PUT_FLAGS(caps, "xrc_odp_caps", ax->xrc_odp_caps, odp_transport_caps);

	o = rs_val_put_obj(caps, "odp_caps");
	PUT_FLAGS(o, "general_caps", ax->odp_caps.general_caps,
		  odp_general_caps);
	t = rs_val_put_obj(o, "per_transport_caps");
	PUT_FLAGS(t, "rc_odp_caps", ax->odp_caps.per_transport_caps.rc_odp_caps,
		  odp_transport_caps);
	PUT_FLAGS(t, "uc_odp_caps", ax->odp_caps.per_transport_caps.uc_odp_caps,
		  odp_transport_caps);
	PUT_FLAGS(t, "ud_odp_caps", ax->odp_caps.per_transport_caps.ud_odp_caps,
		  odp_transport_caps);

	o = rs_val_put_obj(caps, "tso_caps");
	rs_val_put_u64(o, "max_tso", ax->tso_caps.max_tso);
	PUT_FLAGS(o, "supported_qpts", ax->tso_caps.supported_qpts, qp_types);

	o = rs_val_put_obj(caps, "rss_caps");
	PUT_FLAGS(o, "supported_qpts", ax->rss_caps.supported_qpts, qp_types);
	rs_val_put_u64(o, "max_rwq_indirection_tables",
		       ax->rss_caps.max_rwq_indirection_tables);
	rs_val_put_u64(o, "max_rwq_indirection_table_size",
		       ax->rss_caps.max_rwq_indirection_table_size);
	PUT_FLAGS(o, "rx_hash_fields_mask", ax->rss_caps.rx_hash_fields_mask,
		  rx_hash_fields);
	PUT_FLAGS(o, "rx_hash_function", ax->rss_caps.rx_hash_function,
		  rx_hash_functions);

	o = rs_val_put_obj(caps, "packet_pacing_caps");
	rs_val_put_u64(o, "qp_rate_limit_min",
		       ax->packet_pacing_caps.qp_rate_limit_min);
	rs_val_put_u64(o, "qp_rate_limit_max",
		       ax->packet_pacing_caps.qp_rate_limit_max);
	PUT_FLAGS(o, "supported_qpts", ax->packet_pacing_caps.supported_qpts,
		  qp_types);

	o = rs_val_put_obj(caps, "tm_caps");
	rs_val_put_u64(o, "max_rndv_hdr_size", ax->tm_caps.max_rndv_hdr_size);
	rs_val_put_u64(o, "max_num_tags", ax->tm_caps.max_num_tags);
	PUT_FLAGS(o, "flags", ax->tm_caps.flags, tm_cap_flags);
	rs_val_put_u64(o, "max_ops", ax->tm_caps.max_ops);
	rs_val_put_u64(o, "max_sge", ax->tm_caps.max_sge);

	o = rs_val_put_obj(caps, "cq_mod_caps");
	rs_val_put_u64(o, "max_cq_count", ax->cq_mod_caps.max_cq_count);
	rs_val_put_u64(o, "max_cq_period", ax->cq_mod_caps.max_cq_period);

	o = rs_val_put_obj(caps, "pci_atomic_caps");
	PUT_FLAGS(o, "fetch_add", ax->pci_atomic_caps.fetch_add,
		  pci_atomic_sizes);
	PUT_FLAGS(o, "swap", ax->pci_atomic_caps.swap, pci_atomic_sizes);
	PUT_FLAGS(o, "compare_swap", ax->pci_atomic_caps.compare_swap,
		  pci_atomic_sizes);
}

static void describe_caps(struct ibv_context *ctx,
			  const struct ibv_device_attr_ex *ax,
			  struct rs_val *dev)
{
	struct rs_val *caps = rs_val_put_obj(dev, "caps");
	struct rs_val *feat;
	uint32_t bits;

	describe_limits(ctx, ax, caps);
	describe_ex(ax, caps);

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
	rs_val_put_u64(dev, "phys_port_cnt_ex", ax.phys_port_cnt_ex);
	rs_val_put_u64(dev, "comp_mask", ax.comp_mask);
	rs_val_put_str(dev, "transport",
		       transport_name(ibdev->transport_type));
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

int rs_devices_advice(char *buf, size_t len, const char *retry)
{
	return snprintf(buf, len, "rdmascn: no RDMA device found.\n"
			"  To get a real Soft-RoCE device in a throwaway VM (no "
			"root or kernel support needed):\n"
			"    %s\n%s", retry, !host_has_rxe() ? "" :
			"  This kernel has rdma_rxe: as root you can use it "
			"directly:\n"
			"    modprobe rdma_rxe && rdma link add rxe0 type rxe "
			"netdev <interface>\n");
}
