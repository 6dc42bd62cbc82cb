// SPDX-License-Identifier: MIT
/*
 * DevX commands as data (plugins/mlx5/prm*.c), byte for byte and without
 * a device.  Three kinds of evidence:
 *  - hand-derived bytes, the offsets cited from the PRM layouts
 *    (mlx5_ifc.h's create_cq_in, cqc, alloc_pd_out, ...);
 *  - DEVX_SET from <infiniband/mlx5dv.h> on mlx5_ifc-like structures
 *    written out here from the same layouts, against our tables;
 *  - every leaf field of every command put with our encoder and with
 *    mlx5dv.h's _devx_set()/_devx_set64() at that offset, and read back.
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "list.h"
/* The engine's names for the plugin ABI's handles, before the plugin's
 * headers: this runner is both. */
#include "public_names.h"
#include "report.h"
#include "mlx5.h"
#include "prm.h"
#include "value.h"

typedef uint8_t u8;

/* alloc_pd_out, as mlx5_ifc.h lays it out (reserved fields named r_*). */
struct mlx5_ifc_t_alloc_pd_out_bits {
	u8 status[0x8];
	u8 r_8[0x18];
	u8 syndrome[0x20];
	u8 r_40[0x8];
	u8 pd[0x18];
	u8 r_60[0x20];
};

/* The first 0x80 bits of cqc. */
struct mlx5_ifc_t_cqc_bits {
	u8 status[0x4];
	u8 r_4[0x4];
	u8 cqe_sz[0x3];
	u8 cc[0x1];
	u8 r_c[0x1];
	u8 scqe_break_moderation_en[0x1];
	u8 oi[0x1];
	u8 cq_period_mode[0x2];
	u8 cqe_comp_en[0x1];
	u8 mini_cqe_res_format[0x2];
	u8 st[0x4];
	u8 r_18[0x8];
	u8 r_20[0x20];
	u8 r_40[0x14];
	u8 page_offset[0x6];
	u8 r_5a[0x6];
	u8 r_60[0x3];
	u8 log_cq_size[0x5];
	u8 uar_page[0x18];
};

static const uint8_t *encode(const char *name, const struct prm_val *v,
			     size_t n, size_t want_len)
{
	static uint8_t in[4096];
	const struct prm_cmd *cmd = prm_cmd_find(name);
	size_t len = 0, bad = 99;

	CHECK(cmd != NULL);
	CHECK_INT(prm_encode(cmd, v, n, in, sizeof(in), &len, &bad), 0);
	CHECK_UINT(len, want_len);
	return in;
}

/* ALLOC_PD: opcode 0x0800 big-endian in the first two bytes, 16 bytes
 * in, 16 out; DEALLOC_PD derived with the pd at bits 0x48..0x5f. */
TEST(devx, alloc_pd)
{
	static const uint8_t want_in[16] = { 0x08, 0x00 };
	static const uint8_t out[16] = { [9] = 0x12, 0x34, 0x56 };
	static const uint8_t want_destroy[16] = { 0x08, 0x01, [9] = 0x12,
						  0x34, 0x56 };
	const struct prm_cmd *cmd = prm_cmd_find("ALLOC_PD");
	const uint8_t *in = encode("ALLOC_PD", NULL, 0, 16);
	const struct prm_create *cr = prm_create_of(cmd);
	uint8_t din[64];
	struct prm_loc pd;
	size_t dlen = 0;

	CHECK_MEM(in, want_in, 16);
	CHECK_UINT(cmd->out->bits / 8, 16);
	CHECK(cr != NULL);
	CHECK_STR(cr->destroy, "DEALLOC_PD");
	CHECK_STR(cr->id, "pd");
	CHECK_INT(prm_find(cmd->out, "pd", &pd), 0);
	CHECK_UINT(pd.off, 0x48);
	CHECK_UINT(pd.width, 24);
	CHECK_UINT(prm_get(out, sizeof(out), pd.off, pd.width), 0x123456);
	CHECK_INT(prm_destroy_encode(cr, in, 16, out, 16, din, sizeof(din),
				     &dlen), 0);
	CHECK_UINT(dlen, 16);
	CHECK_MEM(din, want_destroy, 16);
}

/* Our alloc_pd_out and cqc entries against DEVX_SET on the structures
 * above. */
TEST(devx, devx_set_agrees)
{
	uint8_t want[0x200 / 8] = { 0 }, got[0x200 / 8] = { 0 };
	const struct prm_cmd *cq = prm_cmd_find("CREATE_CQ");
	const struct prm_cmd *pd = prm_cmd_find("ALLOC_PD");
	struct prm_loc l;

	DEVX_SET(t_alloc_pd_out, want, status, 0x5);
	DEVX_SET(t_alloc_pd_out, want, syndrome, 0xdeadbeef);
	DEVX_SET(t_alloc_pd_out, want, pd, 0xabcdef);
	CHECK_INT(prm_find(pd->out, "status", &l), 0);
	CHECK_INT(prm_set(got, 16, l.off, l.width, 0x5), 0);
	CHECK_INT(prm_find(pd->out, "syndrome", &l), 0);
	CHECK_INT(prm_set(got, 16, l.off, l.width, 0xdeadbeef), 0);
	CHECK_INT(prm_find(pd->out, "pd", &l), 0);
	CHECK_INT(prm_set(got, 16, l.off, l.width, 0xabcdef), 0);
	CHECK_MEM(got, want, 16);

	memset(want, 0, sizeof(want));
	memset(got, 0, sizeof(got));
	DEVX_SET(t_cqc, want, cqe_sz, 1);
	DEVX_SET(t_cqc, want, cc, 1);
	DEVX_SET(t_cqc, want, cqe_comp_en, 1);
	DEVX_SET(t_cqc, want, mini_cqe_res_format, 2);
	DEVX_SET(t_cqc, want, page_offset, 0x2a);
	DEVX_SET(t_cqc, want, log_cq_size, 0x11);
	DEVX_SET(t_cqc, want, uar_page, 0x654321);
	{
		static const struct { const char *f; uint64_t v; } set[] = {
			{ "cq_context.cqe_sz", 1 }, { "cq_context.cc", 1 },
			{ "cq_context.cqe_comp_en", 1 },
			{ "cq_context.mini_cqe_res_format", 2 },
			{ "cq_context.page_offset", 0x2a },
			{ "cq_context.log_cq_size", 0x11 },
			{ "cq_context.uar_page", 0x654321 },
		};

		for (size_t i = 0; i < sizeof(set) / sizeof(*set); i++) {
			CHECK_INT(prm_find(cq->in, set[i].f, &l), 0);
			/* cq_context starts at bit 0x80 of create_cq_in. */
			CHECK_INT(prm_set(got, sizeof(got), l.off - 0x80,
					  l.width, set[i].v), 0);
		}
	}
	CHECK_MEM(got, want, 16);
}

/* CREATE_CQ from named fields: cq_context at 0x80 (byte 16); in cqc
 * cqe_sz at 0x8 (3 bits), log_cq_size at 0x63 (5), uar_page at 0x68
 * (24), c_eqn at 0xb8 (8); 0x880 bits, 272 bytes. */
TEST(devx, create_cq)
{
	static const struct prm_val v[] = {
		{ .field = "cq_context.cqe_sz", .v = 1 },
		{ .field = "cq_context.log_cq_size", .v = 6 },
		{ .field = "cq_context.uar_page", .v = 0xabc },
		{ .field = "cq_context.c_eqn", .v = 0x7 },
	};
	uint8_t want[272] = { 0x04, 0x00 };
	const uint8_t *in;

	want[17] = 0x20;                     /* bit 0x88: 001 then 00000 */
	want[28] = 0x06;                     /* bits 0xe3..0xe7 */
	want[29] = 0x00, want[30] = 0x0a, want[31] = 0xbc; /* 0xe8.. */
	want[39] = 0x07;                     /* bits 0x138..0x13f */
	in = encode("CREATE_CQ", v, 4, 272);
	CHECK_MEM(in, want, 272);
}

/* CREATE_FLOW_TABLE: table_type at 0x80, flow_table_context at 0xc0
 * (level +0x8, log_size +0x18); its destroy takes table_type from the
 * input and table_id (out 0x48) into DESTROY_FLOW_TABLE's 0xa8. */
TEST(devx, flow_table_destroy_derived)
{
	static const struct prm_val v[] = {
		{ .field = "table_type", .v = 1 },
		{ .field = "flow_table_context.level", .v = 2 },
		{ .field = "flow_table_context.log_size", .v = 10 },
	};
	static const uint8_t out[16] = { [9] = 0x00, 0x00, 0x2a };
	const struct prm_cmd *cmd = prm_cmd_find("CREATE_FLOW_TABLE");
	uint8_t want[64] = { 0x09, 0x30 }, din[64];
	uint8_t want_d[64] = { 0x09, 0x31 };
	const uint8_t *in;
	size_t dlen = 0;

	want[16] = 1;
	want[25] = 2;
	want[27] = 10;
	in = encode("CREATE_FLOW_TABLE", v, 3, 64);
	CHECK_MEM(in, want, 64);
	want_d[16] = 1;
	want_d[23] = 0x2a;
	CHECK_INT(prm_destroy_encode(prm_create_of(cmd), in, 64, out, 16, din,
				     sizeof(din), &dlen), 0);
	CHECK_UINT(dlen, 64);
	CHECK_MEM(din, want_d, 64);
}

/* An array at the end of the input: SET_FLOW_TABLE_ENTRY's
 * flow_context (0x200) destination list (+0x1800, 0x40 bits an item):
 * destination[1].destination_id is bits 0x1a48..0x1a5f, so the input
 * grows to 844 bytes.  Its delete copies table_type, table_id and
 * flow_index from the input. */
TEST(devx, fte_destinations)
{
	static const struct prm_val v[] = {
		{ .field = "table_id", .v = 0x2a },
		{ .field = "flow_index", .v = 3 },
		{ .field = "flow_context.action", .v = 4 },
		{ .field = "flow_context.destination_list_size", .v = 2 },
		{ .field = "flow_context.destination[1].destination_type",
		  .v = 2 },
		{ .field = "flow_context.destination[1].destination_id",
		  .v = 0x123 },
	};
	const struct prm_cmd *cmd = prm_cmd_find("SET_FLOW_TABLE_ENTRY");
	uint8_t din[64], want_d[64] = { 0x09, 0x38 };
	const uint8_t *in = encode("SET_FLOW_TABLE_ENTRY", v, 6, 844);
	size_t dlen = 0;

	CHECK_UINT(in[0], 0x09);
	CHECK_UINT(in[1], 0x36);
	CHECK_UINT(in[23], 0x2a);                /* table_id, 0xa8 */
	CHECK_UINT(in[35], 3);                   /* flow_index, 0x100 */
	CHECK_UINT(in[0x40 + 15], 4);            /* action, 0x200+0x70 */
	CHECK_UINT(in[0x348], 2);                /* 0x1a40 */
	CHECK_UINT(in[0x349], 0x00);
	CHECK_UINT(in[0x34a], 0x01);
	CHECK_UINT(in[0x34b], 0x23);
	CHECK_INT(prm_destroy_encode(prm_create_of(cmd), in, 844, NULL, 0,
				     din, sizeof(din), &dlen), 0);
	want_d[23] = 0x2a;
	want_d[35] = 3;
	CHECK_MEM(din, want_d, 64);
}

/* Unknown fields, structures, values too wide, indexes past an array,
 * and the opcode (the command's name sets it). */
TEST(devx, errors)
{
	const struct prm_cmd *cq = prm_cmd_find("CREATE_CQ");
	const struct prm_cmd *fte = prm_cmd_find("SET_FLOW_TABLE_ENTRY");
	struct prm_val v = { .field = "cq_context.log_cq_size", .v = 32 };
	uint8_t in[4096];
	size_t len, bad = 9;
	struct prm_loc l;

	CHECK(prm_cmd_find("CREATE_NOTHING") == NULL);
	CHECK_INT(prm_find(cq->in, "cq_context.log_cq_sz", &l), -ENOENT);
	CHECK_INT(prm_find(cq->in, "cq_context", &l), -EISDIR);
	CHECK_INT(prm_find(cq->in, "cq_context.log_cq_size.x", &l), -ENOENT);
	CHECK_INT(prm_find(fte->in, "flow_context.destination[8]."
			   "destination_id", &l), -ERANGE);
	CHECK_INT(prm_encode(cq, &v, 1, in, sizeof(in), &len, &bad), -ERANGE);
	CHECK_UINT(bad, 0);
	v.v = 31;
	CHECK_INT(prm_encode(cq, &v, 1, in, sizeof(in), &len, &bad), 0);
	v.field = "opcode";
	CHECK_INT(prm_encode(cq, &v, 1, in, sizeof(in), &len, &bad), -EPERM);
	CHECK_INT(prm_set(in, 4, 24, 16, 1), -ENOSPC);
}

/* Wide fields take bytes, right-aligned; hex parsing. */
TEST(devx, wide_values)
{
	uint8_t b[64], in[4096];
	const struct prm_cmd *tir = prm_cmd_find("CREATE_TIR");
	struct prm_val v = { .field = "ctx.rx_hash_toeplitz_key" };
	struct prm_loc l;
	uint64_t u;
	size_t n, len, bad;

	CHECK_INT(prm_parse_value("0x1f", &u, b, sizeof(b), &n), 0);
	CHECK_UINT(u, 0x1f);
	CHECK_UINT(n, 0);
	CHECK_INT(prm_parse_value("42", &u, b, sizeof(b), &n), 0);
	CHECK_UINT(u, 42);
	CHECK_INT(prm_parse_value("4x2", &u, b, sizeof(b), &n), -EINVAL);
	CHECK_INT(prm_parse_value("0x0102030405060708091", &u, b, sizeof(b),
				  &n), 0);
	CHECK_UINT(n, 10);
	CHECK_UINT(b[0], 0x00);
	CHECK_UINT(b[1], 0x10);
	CHECK_UINT(b[9], 0x91);
	v.bytes = b;
	v.n = n;
	CHECK_INT(prm_find(tir->in, v.field, &l), 0);
	CHECK_UINT(l.off, 0x100 + 0x140);
	CHECK_UINT(l.width, 0x140);
	CHECK_INT(prm_encode(tir, &v, 1, in, sizeof(in), &len, &bad), 0);
	/* 40 bytes of key from byte 0x48: the last 10 are ours. */
	CHECK_UINT(in[0x48 + 29], 0x00);
	CHECK_UINT(in[0x48 + 30], 0x00);
	CHECK_UINT(in[0x48 + 31], 0x10);
	CHECK_UINT(in[0x48 + 39], 0x91);
}

struct walk_state {
	const struct prm_layout *l;
	unsigned n;
};

/* Each leaf: inside its layout (or the array at its end), found again
 * by its path, and put by our encoder as _devx_set()/_devx_set64() put
 * it (a 48-bit field, byte-aligned: as its big-endian bytes). */
static int leaf(const char *path, const struct prm_loc *loc, void *arg)
{
	struct walk_state *w = arg;
	size_t len = w->l->bits / 8 + 64;
	uint8_t got[4200] = { 0 }, want[4200] = { 0 };
	struct prm_loc again;
	uint64_t v;

	w->n++;
	CHECK(len <= sizeof(got));
	CHECK(loc->off + loc->width <= w->l->bits + 8 * 0x40 * 7);
	CHECK_INT(prm_find(w->l, path, &again), 0);
	CHECK_UINT(again.off, loc->off);
	CHECK_UINT(again.width, loc->width);
	if (loc->width > 64)
		return 0;
	v = loc->width == 64 ? 0xa5a5a5a55a5a5a5aull :
	    0x5a5a5a5a5a5a5a5aull & ((1ull << loc->width) - 1);
	if (!v)
		v = 1;
	if (loc->width <= 32 &&
	    loc->off / 32 == (loc->off + loc->width - 1) / 32)
		_devx_set(want, (uint32_t)v, loc->off, loc->width);
	else if (loc->width == 64 && loc->off % 64 == 0)
		_devx_set64(want, v, loc->off);
	else if (loc->off % 8 == 0 && loc->width % 8 == 0)
		/* What DEVX_ADDR_OF and a big-endian copy would do. */
		for (uint32_t b = 0; b < loc->width / 8; b++)
			want[loc->off / 8 + b] =
				(uint8_t)(v >> (loc->width - 8 - 8 * b));
	else
		CHECK(!"a field mlx5dv.h cannot set");
	CHECK_INT(prm_set(got, len, loc->off, loc->width, v), 0);
	CHECK_MEM(got, want, len);
	CHECK_UINT(prm_get(got, len, loc->off, loc->width), v);
	return 0;
}

TEST(devx, every_field_as_devx_set)
{
	unsigned total = 0;

	for (size_t i = 0; i < prm_n_cmds; i++) {
		const struct prm_cmd *c = &prm_cmds[i];
		struct walk_state in = { .l = c->in }, out = { .l = c->out };

		CHECK_INT(prm_walk(c->in, leaf, &in), 0);
		CHECK_INT(prm_walk(c->out, leaf, &out), 0);
		CHECK(in.n >= 2);           /* opcode, op_mod at least */
		CHECK(out.n >= 2);          /* status, syndrome */
		total += in.n + out.n;
	}
	/* Every create names a create and a destroy we have. */
	for (size_t i = 0; i < prm_n_creates; i++) {
		CHECK(prm_cmd_find(prm_creates[i].create) != NULL);
		CHECK(prm_cmd_find(prm_creates[i].destroy) != NULL);
	}
	CHECK(total > 1000);
}

/* What the issue lists, each with its query, modify or destroy. */
TEST(devx, commands_listed)
{
	static const char *const names[] = {
		"ALLOC_PD", "DEALLOC_PD", "QUERY_HCA_CAP",
		"ALLOC_TRANSPORT_DOMAIN", "DEALLOC_TRANSPORT_DOMAIN",
		"CREATE_CQ", "QUERY_CQ", "MODIFY_CQ", "DESTROY_CQ",
		"CREATE_MKEY", "QUERY_MKEY", "DESTROY_MKEY",
		"CREATE_TIS", "QUERY_TIS", "MODIFY_TIS", "DESTROY_TIS",
		"CREATE_TIR", "QUERY_TIR", "MODIFY_TIR", "DESTROY_TIR",
		"CREATE_SQ", "QUERY_SQ", "MODIFY_SQ", "DESTROY_SQ",
		"CREATE_RQ", "QUERY_RQ", "MODIFY_RQ", "DESTROY_RQ",
		"CREATE_FLOW_TABLE", "QUERY_FLOW_TABLE", "MODIFY_FLOW_TABLE",
		"DESTROY_FLOW_TABLE", "CREATE_FLOW_GROUP", "QUERY_FLOW_GROUP",
		"DESTROY_FLOW_GROUP", "SET_FLOW_TABLE_ENTRY",
		"QUERY_FLOW_TABLE_ENTRY", "DELETE_FLOW_TABLE_ENTRY",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		CHECK_STR(prm_cmd_find(names[i]) ?
			  prm_cmd_find(names[i])->name : NULL, names[i]);
	CHECK_UINT(prm_cmd_find("QUERY_HCA_CAP")->opcode, 0x100);
	CHECK_UINT(prm_cmd_by_opcode(0x936)->opcode, 0x936);
	CHECK(prm_create_of(prm_cmd_find("QUERY_CQ")) == NULL);
}

/* What `rdmascn devices` shows of an mlx5 device, from an answer of
 * mlx5dv_query_device() (there is no ConnectX here): each group its
 * comp_mask fills, by name, in JSON and in -v's text, which print the
 * same tree. */
TEST(devx, device_description)
{
	struct mlx5dv_context a = {
		.version = 1,
		.flags = MLX5DV_CONTEXT_FLAGS_CQE_V1 |
			 MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP,
		.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION |
			     MLX5DV_CONTEXT_MASK_STRIDING_RQ |
			     MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS |
			     MLX5DV_CONTEXT_MASK_DYN_BFREGS |
			     MLX5DV_CONTEXT_MASK_DC_ODP_CAPS,
		.cqe_comp_caps = {
			.max_num = 64,
			.supported_format = MLX5DV_CQE_RES_FORMAT_HASH |
					    MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX,
		},
		.striding_rq_caps = { 6, 13, 9, 16,
				      1u << IBV_QPT_RAW_PACKET },
		.tunnel_offloads_caps =
			MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_VXLAN,
		.max_dynamic_bfregs = 1024,
		.dc_odp_caps = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_READ,
		/* Not in comp_mask: not said. */
		.flow_action_flags = MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM,
	};
	struct rs_val *devs = rs_val_arr(), *dev = rs_val_push_obj(devs);
	struct rs_val *m;
	const struct rs_val *g;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	rs_val_put_str(dev, "name", "mlx5_0");
	rs_val_put_str(dev, "node_type", "CA");
	rs_val_put_str(dev, "node_guid", "0000:0000:0000:0001");
	rs_val_put_str(dev, "fw_ver", "1.0");
	rs_val_put_str(dev, "vendor_id", "0x02c9");
	rs_val_put_u64(dev, "vendor_part_id", 4123);
	m = rs_val_put_obj(dev, "mlx5");
	mlx5_attr_describe(&a, m);
	CHECK_INT(rs_val_check(devs), 0);
	CHECK_UINT(rs_val_get_u64(m, "version"), 1);
	CHECK_UINT(rs_val_len(rs_val_get(m, "flags")), 2);
	CHECK_STR(rs_val_type_of(rs_val_at(rs_val_get(m, "flags"), 1)) ==
		  RS_VAL_STR ? "str" : "?", "str");
	g = rs_val_get(m, "cqe_compression");
	CHECK_UINT(rs_val_get_u64(g, "max_num"), 64);
	CHECK_UINT(rs_val_len(rs_val_get(g, "formats")), 2);
	g = rs_val_get(m, "striding_rq");
	CHECK_UINT(rs_val_get_u64(g, "min_stride_bytes"), 64);
	CHECK_UINT(rs_val_get_u64(g, "max_strides"), 65536);
	CHECK_UINT(rs_val_get_u64(m, "max_dynamic_bfregs"), 1024);
	CHECK_UINT(rs_val_len(rs_val_get(m, "dc_odp")), 2);
	CHECK(rs_val_get(m, "flow_actions") == NULL);
	CHECK(rs_val_get(m, "sw_parsing") == NULL);

	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	rs_devices_text(f, devs, true);
	fclose(f);
	CHECK(strstr(text, "\n  mlx5:\n    version  ") != NULL ||
	      strstr(text, "\n  mlx5:\n    version ") != NULL);
	CHECK(strstr(text, "cqe_v1") != NULL);
	CHECK(strstr(text, "    cqe_compression:\n      max_num") != NULL);
	CHECK(strstr(text, "hash") && strstr(text, "csum_stridx"));
	CHECK(strstr(text, "    striding_rq:\n") != NULL);
	CHECK(strstr(text, "vxlan") != NULL);
	CHECK(strstr(text, "esp_aes_gcm") == NULL);
	free(text);
	rs_val_free(devs);
}

/* The dry run's hex: runs of 16 or more zero bytes as <N*00>, read back
 * by raw: as written. */
TEST(devx, hex_round_trip)
{
	uint8_t b[64] = { 0x09, 0x12, [33] = 0x03, [63] = 0x80 }, back[64];
	char hex[200];

	CHECK_STR(prm_hex(b, 64, hex, sizeof(hex)),
		  "0912<31*00>03<29*00>80");
	CHECK_INT(prm_unhex(hex, back, sizeof(back)), 64);
	CHECK_MEM(back, b, 64);
	CHECK_INT(prm_unhex("0x0800 0000_0000 0000", back, sizeof(back)), 8);
	CHECK_UINT(back[0], 0x08);
	CHECK_INT(prm_unhex("080", back, sizeof(back)), -EINVAL);
	CHECK_INT(prm_unhex("08zz", back, sizeof(back)), -EINVAL);
	CHECK_INT(prm_unhex("<65*00>", back, sizeof(back)), -ENOSPC);
	/* Short of room: cut, and said so. */
	CHECK_STR(prm_hex(b, 64, hex, 8), "0912...");
	/* Fifteen zeros stay digits. */
	memset(b, 0, 16);
	b[15] = 1;
	CHECK_STR(prm_hex(b, 16, hex, sizeof(hex)),
		  "00000000000000000000000000000001");
}
