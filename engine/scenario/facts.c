// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "facts.h"
#include "macros.h"
#include "value.h"
#include "suggest.h"

static const char *const group_names[RS_FACT_GROUPS] = {
	[RS_FACT_DEVICE] = "device", [RS_FACT_PORT] = "port",
	[RS_FACT_GID] = "gid", [RS_FACT_MLX5] = "mlx5",
};

const char *rs_fact_group_name(enum rs_fact_group g)
{
	return (unsigned)g < RS_FACT_GROUPS ? group_names[g] : "?";
}

static void put_text(struct rs_fact_val *ret, const char *s)
{
	ret->text = true;
	snprintf(ret->str, sizeof(ret->str), "%s", s);
}

static void get_name(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	put_text(ret, s->name ? s->name : "");
}

static void get_atomic(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	switch (s->attr->orig_attr.atomic_cap) {
	case IBV_ATOMIC_HCA: put_text(ret, "hca"); break;
	case IBV_ATOMIC_GLOB: put_text(ret, "glob"); break;
	default: put_text(ret, "none"); break;
	}
}

static void get_comp_vectors(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	ret->num = s->num_comp_vectors;
}

/* ibv_port_state_str()'s spelling changed across rdma-core releases;
 * the names of the IB spec, as ibstat prints them. */
static void get_state(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	static const char *const names[] = {
		[IBV_PORT_NOP] = "NOP",
		[IBV_PORT_DOWN] = "DOWN",
		[IBV_PORT_INIT] = "INIT",
		[IBV_PORT_ARMED] = "ARMED",
		[IBV_PORT_ACTIVE] = "ACTIVE",
		[IBV_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
	};
	unsigned st = s->port->state;

	put_text(ret, st < RS_N(names) ? names[st] : "UNKNOWN");
}

static void get_phys_state(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	static const char *const names[] = {
		"NOP", "SLEEP", "POLLING", "DISABLED",
		"PORT_CONFIGURATION_TRAINING", "LINK_UP",
		"LINK_ERROR_RECOVERY", "PHY_TEST",
	};
	unsigned st = s->port->phys_state;

	put_text(ret, st < RS_N(names) ? names[st] : "UNKNOWN");
}

static void get_link_layer(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	put_text(ret, s->port->link_layer == IBV_LINK_LAYER_ETHERNET ?
		 "Ethernet" : s->port->link_layer == IBV_LINK_LAYER_INFINIBAND ?
		 "InfiniBand" : "unknown");
}

/* MTUs in bytes, not the enum's 1..5. */
static void get_active_mtu(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	ret->num = 128u << s->port->active_mtu;
}

static void get_max_mtu(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	ret->num = 128u << s->port->max_mtu;
}

static void get_gid_index(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	/* None (InfiniBand without a GRH): past any table. */
	ret->num = s->gid_index < 0 ? UINT64_MAX : (uint64_t)s->gid_index;
}

static void get_gid_type(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	if (s->gid_index < 0)
		put_text(ret, "none");
	else
		put_text(ret, s->gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" :
			 s->gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" :
			 "IB");
}

static void get_gid(const struct rs_fact *f,
			const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	char addr[INET6_ADDRSTRLEN] = "none";

	if (s->gid_index >= 0 && s->gid)
		inet_ntop(AF_INET6, s->gid->raw, addr, sizeof(addr));
	put_text(ret, addr);
}

/* As `devices -j` prints a GUID (and ibstat). */
static void put_guid(struct rs_fact_val *ret, __be64 be)
{
	uint64_t g = be64toh(be);

	ret->text = true;
	snprintf(ret->str, sizeof(ret->str), "%04x:%04x:%04x:%04x",
		 (unsigned)(g >> 48) & 0xffff, (unsigned)(g >> 32) & 0xffff,
		 (unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
}

static void get_node_guid(const struct rs_fact *f,
			  const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	put_guid(ret, s->attr->orig_attr.node_guid);
}

static void get_sys_image_guid(const struct rs_fact *f,
			       const struct rs_fact_src *s,
			       struct rs_fact_val *ret)
{
	put_guid(ret, s->attr->orig_attr.sys_image_guid);
}

static void get_fw_ver(const struct rs_fact *f, const struct rs_fact_src *s,
		       struct rs_fact_val *ret)
{
	put_text(ret, s->attr->orig_attr.fw_ver);
}

/* device_cap_flags_ex holds device_cap_flags' bits too, when the kernel
 * answers the extended query; either word is enough for a bit. */
static uint64_t dev_cap_word(const struct rs_fact_src *s)
{
	return s->attr->device_cap_flags_ex |
	       s->attr->orig_attr.device_cap_flags;
}

static void get_dev_caps(const struct rs_fact *f,
			 const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	ret->num = dev_cap_word(s);
}

static void get_dev_cap(const struct rs_fact *f, const struct rs_fact_src *s,
			struct rs_fact_val *ret)
{
	ret->num = !!(dev_cap_word(s) & f->bit);
}

static void get_port_cap(const struct rs_fact *f,
			 const struct rs_fact_src *s, struct rs_fact_val *ret)
{
	ret->num = !!(s->port->port_cap_flags & f->bit);
}

/*
 * An mlx5.* fact: the member of the "mlx5" object the mlx5 plugin
 * describes the device with, by its path ("striding_rq.max_strides"); a
 * name in a list of names ("flags.cqe_v1") is 1, else 0.  A device the
 * plugin does not describe (no mlx5dv, or no plugin) has 0 for each.
 */
static void get_mlx5(const struct rs_fact *f, const struct rs_fact_src *s,
		     struct rs_fact_val *ret)
{
	const struct rs_val *v = s->plugins ? rs_val_get(s->plugins, "mlx5") :
				 NULL;
	char key[64];
	const char *p = f->name;

	while (v && rs_val_type_of(v) == RS_VAL_OBJ) {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		v = rs_val_get(v, key);
		p += n + !!p[n];
		if (!*p)
			break;
	}
	if (!v)
		return;
	switch (rs_val_type_of(v)) {
	case RS_VAL_ARR:
		for (size_t i = 0; *p && i < rs_val_len(v); i++) {
			const char *e = rs_val_str_of(rs_val_at(v, i));

			if (e && !strcmp(e, p))
				ret->num = 1;
		}
		break;
	case RS_VAL_BOOL:
		ret->num = rs_val_bool_of(v);
		break;
	case RS_VAL_INT:
		ret->num = (uint64_t)rs_val_i64_of(v);
		break;
	case RS_VAL_UINT:
		ret->num = rs_val_u64_of(v);
		break;
	default:
		break;
	}
}

#define DEV(f, a) { #f, RS_FACT_DEVICE, false, true,                     \
	offsetof(struct ibv_device_attr_ex, orig_attr.f),                 \
	sizeof(((struct ibv_device_attr *)0)->f), NULL, a, NULL, 0 }
#define DEV_EX(f, a) { #f, RS_FACT_DEVICE, false, true,                  \
	offsetof(struct ibv_device_attr_ex, f),                           \
	sizeof(((struct ibv_device_attr_ex *)0)->f), NULL, a, NULL, 0 }
/* Beside the caps: `devices -j` prints them elsewhere, or the word. */
#define DEV_NC(f, a) { #f, RS_FACT_DEVICE, false, false,                 \
	offsetof(struct ibv_device_attr_ex, orig_attr.f),                 \
	sizeof(((struct ibv_device_attr *)0)->f), NULL, a, NULL, 0 }
#define DEV_EX_NC(f, a) { #f, RS_FACT_DEVICE, false, false,              \
	offsetof(struct ibv_device_attr_ex, f),                           \
	sizeof(((struct ibv_device_attr_ex *)0)->f), NULL, a, NULL, 0 }
#define PORT(f, a) { #f, RS_FACT_PORT, false, true,                      \
	offsetof(struct ibv_port_attr, f),                                \
	sizeof(((struct ibv_port_attr *)0)->f), NULL, a, NULL, 0 }
#define PORT_NC(f, a) { #f, RS_FACT_PORT, false, false,                  \
	offsetof(struct ibv_port_attr, f),                                \
	sizeof(((struct ibv_port_attr *)0)->f), NULL, a, NULL, 0 }
#define GET(g, f, text, caps, fn, a, at)                                 \
	{ #f, g, text, caps, 0, 0, fn, a, at, 0 }
#define DEV_CAP(b, n, a) { "cap_flags." #n, RS_FACT_DEVICE, false, false,  \
	0, 0, get_dev_cap, a, NULL, b },
#define PORT_CAP(b, n, a) { "cap_flags." #n, RS_FACT_PORT, false, false,   \
	0, 0, get_port_cap, a, NULL, b },
#define ASSUMED_BIT(b, n, a) | ((a) ? (uint64_t)(b) : 0)
#define MLX5(path) { #path, RS_FACT_MLX5, false, false, 0, 0, get_mlx5, 0,  \
	NULL, 0 }

/*
 * The order is `devices -j`'s: ibv_device_attr's limits in the header's
 * order, the context's completion vectors, then ibv_device_attr_ex's;
 * a port's as ibv_port_attr has them.  Assumed values are those of a
 * capable RoCE NIC (and what rxe has, where it has it), so that a dry
 * run of a file sized by the device plans what it would on one.
 */
static const struct rs_fact facts[] = {
	GET(RS_FACT_DEVICE, name, true, false, get_name, 0, "any"),
	DEV(max_mr_size, UINT64_MAX),
	DEV(page_size_cap, 0xfffff000),
	DEV(max_qp, 131072),
	DEV(max_qp_wr, 16384),
	DEV(max_sge, 32),
	DEV(max_sge_rd, 32),
	DEV(max_cq, 16777216),
	DEV(max_cqe, 4194303),
	DEV(max_mr, 16777216),
	DEV(max_pd, 16777216),
	DEV(max_qp_rd_atom, 16),
	DEV(max_ee_rd_atom, 0),
	DEV(max_res_rd_atom, 2097152),
	DEV(max_qp_init_rd_atom, 16),
	DEV(max_ee_init_rd_atom, 0),
	GET(RS_FACT_DEVICE, atomic, true, true, get_atomic, 0, "hca"),
	DEV(max_ee, 0),
	DEV(max_rdd, 0),
	DEV(max_mw, 16777216),
	DEV(max_raw_ipv6_qp, 0),
	DEV(max_raw_ethy_qp, 0),
	DEV(max_mcast_grp, 2097152),
	DEV(max_mcast_qp_attach, 240),
	DEV(max_total_mcast_qp_attach, 503316480),
	DEV(max_ah, 2147483647),
	DEV(max_fmr, 0),
	DEV(max_map_per_fmr, 0),
	DEV(max_srq, 8388608),
	DEV(max_srq_wr, 32767),
	DEV(max_srq_sge, 31),
	DEV(max_pkeys, 128),
	DEV(local_ca_ack_delay, 16),
	GET(RS_FACT_DEVICE, num_comp_vectors, false, true, get_comp_vectors,
	    8, NULL),
	DEV_EX(max_wq_type_rq, 0),
	DEV_EX(max_dm_size, 131072),
	DEV_EX(completion_timestamp_mask, 0x7fffffffffffffff),
	DEV_EX(hca_core_clock, 156250),
	/* What identifies the device, as `devices -j` prints it. */
	GET(RS_FACT_DEVICE, fw_ver, true, false, get_fw_ver, 0, "0.0.0"),
	GET(RS_FACT_DEVICE, node_guid, true, false, get_node_guid, 0,
	    "0000:0000:0000:0000"),
	GET(RS_FACT_DEVICE, sys_image_guid, true, false, get_sys_image_guid,
	    0, "0000:0000:0000:0000"),
	DEV_NC(vendor_id, 0x02c9),
	DEV_NC(vendor_part_id, 4125),
	DEV_NC(hw_ver, 0),
	DEV_NC(phys_port_cnt, 1),
	DEV_EX_NC(rss_caps.supported_qpts, 1u << IBV_QPT_RAW_PACKET),
	DEV_EX_NC(rss_caps.max_rwq_indirection_tables, 65536),
	DEV_EX_NC(rss_caps.max_rwq_indirection_table_size, 2048),
	DEV_EX_NC(rss_caps.rx_hash_fields_mask, 0xff),
	DEV_EX_NC(rss_caps.rx_hash_function, IBV_RX_HASH_FUNC_TOEPLITZ),
	GET(RS_FACT_DEVICE, device_cap_flags, false, false, get_dev_caps,
	    0 RS_DEV_CAP_FLAGS(ASSUMED_BIT), NULL),
	RS_DEV_CAP_FLAGS(DEV_CAP)

	GET(RS_FACT_PORT, state, true, true, get_state, 0, "ACTIVE"),
	GET(RS_FACT_PORT, phys_state, true, true, get_phys_state, 0,
	    "LINK_UP"),
	GET(RS_FACT_PORT, link_layer, true, true, get_link_layer, 0,
	    "Ethernet"),
	GET(RS_FACT_PORT, active_mtu, false, true, get_active_mtu, 1024,
	    NULL),
	GET(RS_FACT_PORT, max_mtu, false, true, get_max_mtu, 4096, NULL),
	PORT(lid, 0),
	PORT(sm_lid, 0),
	PORT(lmc, 0),
	PORT(sm_sl, 0),
	PORT(active_speed, 128),
	PORT(active_width, 2),
	PORT(gid_tbl_len, 255),
	PORT(pkey_tbl_len, 1),
	PORT(max_msg_sz, 1073741824),
	PORT(max_vl_num, 1),
	PORT(subnet_timeout, 0),
	PORT(init_type_reply, 0),
	PORT(bad_pkey_cntr, 0),
	PORT(qkey_viol_cntr, 0),
	PORT_NC(port_cap_flags, 0 RS_PORT_CAP_FLAGS(ASSUMED_BIT)),
	RS_PORT_CAP_FLAGS(PORT_CAP)

	GET(RS_FACT_GID, index, false, false, get_gid_index, 1, NULL),
	GET(RS_FACT_GID, type, true, false, get_gid_type, 0, "RoCE v2"),
	GET(RS_FACT_GID, gid, true, false, get_gid, 0, "::ffff:192.0.2.1"),

	/* mlx5dv_query_device()'s, as `devices -j` prints them under
	 * "mlx5"; assumed 0, a device without mlx5dv. */
	MLX5(version), MLX5(devx),
	MLX5(flags.cqe_v1), MLX5(flags.mpw_allowed), MLX5(flags.enhanced_mpw),
	MLX5(flags.cqe_128b_comp), MLX5(flags.cqe_128b_pad),
	MLX5(flags.packet_based_credit_mode), MLX5(flags.real_time_ts),
	MLX5(cqe_compression.max_num), MLX5(cqe_compression.formats.hash),
	MLX5(cqe_compression.formats.csum),
	MLX5(cqe_compression.formats.csum_stridx),
	MLX5(sw_parsing.offloads.sw_parsing), MLX5(sw_parsing.offloads.csum),
	MLX5(sw_parsing.offloads.lso),
	MLX5(striding_rq.min_stride_bytes), MLX5(striding_rq.max_stride_bytes),
	MLX5(striding_rq.min_strides), MLX5(striding_rq.max_strides),
	MLX5(tunnel_offloads.vxlan), MLX5(tunnel_offloads.gre),
	MLX5(tunnel_offloads.geneve),
	MLX5(max_dynamic_bfregs), MLX5(max_clock_info_update_ns),
	MLX5(dc_odp.send), MLX5(dc_odp.recv), MLX5(dc_odp.write),
	MLX5(dc_odp.read), MLX5(dc_odp.atomic), MLX5(dc_odp.srq_recv),
	MLX5(num_lag_ports),
};

const struct rs_fact *rs_fact_at(unsigned i)
{
	return i < RS_N(facts) ? &facts[i] : NULL;
}

const struct rs_fact *rs_fact_find(const char *name, size_t len)
{
	const char *dot = memchr(name, '.', len);

	if (!dot)
		return NULL;
	for (size_t i = 0; i < RS_N(facts); i++) {
		const char *g = group_names[facts[i].group];
		const char *n = facts[i].name;

		if ((size_t)(dot - name) == strlen(g) &&
		    !memcmp(name, g, dot - name) &&
		    len - (dot + 1 - name) == strlen(n) &&
		    !memcmp(dot + 1, n, strlen(n)))
			return &facts[i];
	}
	return NULL;
}

size_t rs_fact_near(const char *name, size_t name_len, char *buf, size_t len)
{
	char word[RS_SUGGEST_NAME], path[RS_SUGGEST_NAME];
	struct rs_suggest sg;

	snprintf(word, sizeof(word), "%.*s", (int)name_len, name);
	rs_suggest_init(&sg, word);
	/* Edits within the field's name, not bought by "device.". */
	if (strchr(word, '.')) {
		struct rs_suggest field;

		rs_suggest_init(&field, strchr(word, '.') + 1);
		sg.limit = field.limit;
		sg.best = sg.limit + 1;
	}
	for (size_t i = 0; i < RS_N(facts); i++)
		rs_suggest_add(&sg, rs_fact_path(&facts[i], path,
						 sizeof(path)));
	return rs_suggest_fmt(&sg, false, buf, len);
}

const char *rs_fact_path(const struct rs_fact *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", group_names[f->group], f->name);
	return buf;
}

void rs_fact_get(const struct rs_fact *f, const struct rs_fact_src *src,
		 struct rs_fact_val *ret)
{
	const unsigned char *base = f->group == RS_FACT_DEVICE ?
		(const void *)src->attr : (const void *)src->port;
	const unsigned char *p = base + f->off;

	memset(ret, 0, sizeof(*ret));
	if (f->get) {
		f->get(f, src, ret);
		return;
	}
	switch (f->size) {
	case 1: ret->num = *p; break;
	case 2: { uint16_t v; memcpy(&v, p, 2); ret->num = v; break; }
	case 4: { uint32_t v; memcpy(&v, p, 4); ret->num = v; break; }
	default: memcpy(&ret->num, p, 8); break;
	}
}

void rs_fact_assumed(const struct rs_fact *f, struct rs_fact_val *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (f->text)
		put_text(ret, f->assumed_text);
	else
		ret->num = f->assumed;
}

bool rs_fact_text_eq(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a == ' ' ? '_' : tolower((unsigned char)*a);
		char y = *b == ' ' ? '_' : tolower((unsigned char)*b);

		if (x != y)
			return false;
		if (!x)
			return true;
	}
}
