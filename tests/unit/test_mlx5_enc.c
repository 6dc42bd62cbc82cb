// SPDX-License-Identifier: MIT
/*
 * The encodings the mlx5 kinds send that are not DevX commands, byte for
 * byte and without a device: mlx5dv_pp_alloc()'s rate-limit context, the
 * match parameters of mlx5dv_create_flow_matcher() and _flow() with the
 * match_criteria_enable they imply, and CREATE_CQ's UMEM fields.  The
 * offsets are cited from mlx5_ifc.h (set_pp_rate_limit_context,
 * fte_match_param, fte_match_set_lyr_2_4, fte_match_set_misc,
 * create_cq_in); DEVX_SET from <infiniband/mlx5dv.h> on the layouts
 * written out here agrees with our tables.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "list.h"
#include "prm.h"

typedef uint8_t u8;

/* set_pp_rate_limit_context (mlx5_ifc.h; rate_mode in what the kernel
 * keeps reserved, as DPDK's mlx5_prm.h names it). */
struct mlx5_ifc_t_pp_bits {
	u8 rate_limit[0x20];
	u8 burst_upper_bound[0x20];
	u8 r_40[0xc];
	u8 rate_mode[0x4];
	u8 typical_packet_size[0x10];
	u8 r_60[0x120];
};

static size_t pp(const struct prm_val *v, size_t n, uint8_t *buf)
{
	size_t bad = 99;

	memset(buf, 0xee, 64);
	CHECK_INT(prm_encode_struct(&prm_set_pp_rate_limit_context, v, n, buf,
				    48, &bad), 0);
	return bad;
}

/* pyverbs' README: (5).to_bytes(4, 'big'), then zeros to 48 bytes. */
TEST(mlx5_enc, pp_readme)
{
	static const struct prm_val v[] = { { .field = "rate_limit", .v = 5 } };
	uint8_t want[48] = { 0, 0, 0, 5 }, got[64];

	CHECK_UINT(prm_set_pp_rate_limit_context.bits, 0x180);
	pp(v, 1, got);
	CHECK_MEM(got, want, 48);
	CHECK_UINT(got[48], 0xee);          /* nothing past the layout */
}

/* rate_limit 0x0 (32), burst_upper_bound 0x20 (32), rate_mode 0x4c (4),
 * typical_packet_size 0x50 (16); and DEVX_SET agrees. */
TEST(mlx5_enc, pp_fields)
{
	static const struct prm_val v[] = {
		{ .field = "rate_limit", .v = 100 },
		{ .field = "burst_upper_bound", .v = 0x2000 },
		{ .field = "rate_mode", .v = 1 },
		{ .field = "typical_packet_size", .v = 1500 },
	};
	uint8_t want[48] = { 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x20, 0x00,
			     0x00, 0x01, 0x05, 0xdc };
	uint8_t dx[48] = { 0 }, got[64];

	pp(v, 4, got);
	CHECK_MEM(got, want, 48);
	DEVX_SET(t_pp, dx, rate_limit, 100);
	DEVX_SET(t_pp, dx, burst_upper_bound, 0x2000);
	DEVX_SET(t_pp, dx, rate_mode, 1);
	DEVX_SET(t_pp, dx, typical_packet_size, 1500);
	CHECK_MEM(got, dx, 48);
}

TEST(mlx5_enc, pp_errors)
{
	static const struct prm_val wide[] = {
		{ .field = "rate_limit", .v = 1 },
		{ .field = "rate_mode", .v = 16 },   /* 4 bits */
	};
	static const struct prm_val unknown[] = {
		{ .field = "rate", .v = 1 },
	};
	uint8_t buf[48];
	size_t bad = 99;

	CHECK_INT(prm_encode_struct(&prm_set_pp_rate_limit_context, wide, 2,
				    buf, sizeof(buf), &bad), -ERANGE);
	CHECK_UINT(bad, 1);
	CHECK_INT(prm_encode_struct(&prm_set_pp_rate_limit_context, unknown,
				    1, buf, sizeof(buf), &bad), -ENOENT);
	CHECK_UINT(bad, 0);
	CHECK_INT(prm_encode_struct(&prm_set_pp_rate_limit_context, wide, 1,
				    buf, 47, &bad), -ENOSPC);
}

/* fte_match_param: outer_headers at 0x0, misc_parameters at 0x200,
 * inner_headers at 0x400, 0x1000 bits in all; in fte_match_set_lyr_2_4
 * ethertype at 0x30 (16), dmac_47_16 at 0x40 (32), dmac_15_0 at 0x60
 * (16), ip_protocol at 0x80 (8), dst_ipv4_dst_ipv6 at 0x180 (ipv4 at
 * +0x60); in fte_match_set_misc vxlan_vni at 0xa0 (24). */
TEST(mlx5_enc, match_value)
{
	static const uint8_t v6[16] = { 0xfe, 0x80, [15] = 0x01 };
	static const struct prm_val v[] = {
		{ .field = "outer_headers.ethertype", .v = 0x86dd },
		{ .field = "outer_headers.dmac_47_16", .v = 0x02000a63 },
		{ .field = "outer_headers.dmac_15_0", .v = 0x0001 },
		{ .field = "outer_headers.dst_ipv4_dst_ipv6.ipv6_layout.ipv6",
		  .bytes = v6, .n = 16 },
		{ .field = "misc_parameters.vxlan_vni", .v = 0x123456 },
		{ .field = "inner_headers.ip_protocol", .v = 17 },
		{ .field = "inner_headers.dst_ipv4_dst_ipv6.ipv4_layout.ipv4",
		  .v = 0x0a000001 },
	};
	uint8_t want[512] = { 0 }, got[512];
	size_t bad = 99;

	CHECK_UINT(prm_fte_match_param.bits, 0x1000);
	want[6] = 0x86, want[7] = 0xdd;
	want[8] = 0x02, want[9] = 0x00, want[10] = 0x0a, want[11] = 0x63;
	want[12] = 0x00, want[13] = 0x01;
	memcpy(want + 0x180 / 8, v6, 16);
	want[64 + 0xa0 / 8] = 0x12;
	want[64 + 0xa0 / 8 + 1] = 0x34;
	want[64 + 0xa0 / 8 + 2] = 0x56;
	want[128 + 0x80 / 8] = 17;
	memcpy(want + 128 + (0x180 + 0x60) / 8, "\x0a\x00\x00\x01", 4);
	CHECK_INT(prm_encode_struct(&prm_fte_match_param, v, 7, got,
				    sizeof(got), &bad), 0);
	CHECK_MEM(got, want, 512);
	/* Outer headers, misc, inner headers: bits 0, 1, 2. */
	CHECK_UINT(prm_match_criteria(v, 7), 0x07);
	CHECK_UINT(prm_match_criteria(v, 3), 0x01);
	CHECK_UINT(prm_match_criteria(v + 4, 1), 0x02);
	CHECK_UINT(prm_match_criteria(v + 5, 2), 0x04);
}

/* A match's errors: a field it does not have, a value too wide, a
 * structure named as a field. */
TEST(mlx5_enc, match_errors)
{
	struct prm_val v[] = {
		{ .field = "outer_headers.ethertype", .v = 0x10000 },
	};
	struct prm_loc loc;
	uint8_t buf[512];
	size_t bad = 99;

	CHECK_INT(prm_encode_struct(&prm_fte_match_param, v, 1, buf,
				    sizeof(buf), &bad), -ERANGE);
	v[0].field = "outer_headers.ether_type";
	CHECK_INT(prm_encode_struct(&prm_fte_match_param, v, 1, buf,
				    sizeof(buf), &bad), -ENOENT);
	CHECK_UINT(prm_match_criteria(v, 1), 0);
	CHECK_INT(prm_find(&prm_fte_match_param, "outer_headers", &loc),
		  -EISDIR);
}

/* create_cq_in: cq_umem_offset at 0x280 (64), cq_umem_id at 0x2c0
 * (32), cq_umem_valid at 0x2e0 (1): what a UMEM-backed DevX CQ sets. */
TEST(mlx5_enc, create_cq_umem)
{
	static const struct prm_val v[] = {
		{ .field = "cq_umem_offset", .v = 0x1000 },
		{ .field = "cq_umem_id", .v = 0xabcdef01 },
		{ .field = "cq_umem_valid", .v = 1 },
	};
	uint8_t want[272] = { 0x04, 0x00 };
	static uint8_t in[4096];
	size_t len = 0, bad = 99;

	want[86] = 0x10;                     /* offset 0x1000: bytes 80..87 */
	want[88] = 0xab, want[89] = 0xcd, want[90] = 0xef, want[91] = 0x01;
	want[92] = 0x80;
	CHECK_INT(prm_encode(prm_cmd_find("CREATE_CQ"), v, 3, in, sizeof(in),
			     &len, &bad), 0);
	CHECK_UINT(len, 272);
	CHECK_MEM(in, want, 272);
}
