// SPDX-License-Identifier: MIT
/*
 * What a completion says against a step's `wc:` and `grh:`, and what is
 * kept of it for the record (exec/wc_check.c), with completions and GRHs
 * of our own making: an IPv6 GRH, a RoCE v2 IPv4 one as rxe writes it
 * (20 zero bytes, then the IPv4 header), and bytes that are neither.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "step.h"
#include "value.h"

/* An IPv4 header at @grh + 20 from 10.99.0.1 to 10.99.0.2, its
 * checksum right when @csum. */
static void grh_v4(uint8_t grh[40], bool zero_front, bool csum)
{
	static const uint8_t ip[20] = {
		0x45, 0x00, 0x01, 0x28, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 10, 99, 0, 1, 10, 99, 0, 2,
	};
	uint32_t sum = 0;

	memset(grh, zero_front ? 0 : 0x60, 20);
	memcpy(grh + 20, ip, 20);
	for (unsigned i = 0; i < 20; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	if (!csum)
		sum ^= 1;
	grh[30] = (uint8_t)(sum >> 8);
	grh[31] = (uint8_t)sum;
}

static void gid(const char *text, uint8_t g[16])
{
	CHECK(inet_pton(AF_INET6, text, g) == 1);
}

TEST(wc, grh_ipv4_mapped)
{
	uint8_t grh[40], s[16], d[16], ws[16], wd[16];

	gid("::ffff:10.99.0.1", ws);
	gid("::ffff:10.99.0.2", wd);
	/* As rxe writes it: 20 zero bytes, then the IPv4 header (its
	 * checksum not consulted: no IPv6 version in front). */
	grh_v4(grh, true, false);
	CHECK_INT(rs_grh_gids(grh, s, d), 0);
	CHECK_MEM(s, ws, 16);
	CHECK_MEM(d, wd, 16);
	/* After a 6 in front, only a checksum that holds makes it IPv4. */
	grh_v4(grh, false, true);
	CHECK_INT(rs_grh_gids(grh, s, d), 0);
	CHECK_MEM(s, ws, 16);
	grh_v4(grh, false, false);
	CHECK_INT(rs_grh_gids(grh, s, d), 0);
	CHECK(memcmp(s, ws, 16));       /* read as IPv6: bytes 8..23 */
	CHECK_MEM(s, grh + 8, 16);
}

TEST(wc, grh_ipv6_and_neither)
{
	uint8_t grh[40] = { 0x60 }, s[16], d[16], ws[16], wd[16];

	gid("fe80::1", ws);
	gid("fe80::2", wd);
	memcpy(grh + 8, ws, 16);
	memcpy(grh + 24, wd, 16);
	CHECK_INT(rs_grh_gids(grh, s, d), 0);
	CHECK_MEM(s, ws, 16);
	CHECK_MEM(d, wd, 16);
	memset(grh, 0, sizeof(grh));
	CHECK_INT(rs_grh_gids(grh, s, d), -EINVAL);
}

/* Each field of wc: against a plain struct ibv_wc: the first that
 * differs is named with both values. */
TEST(wc, check_fields)
{
	struct rs_wc_want w = {
		.mask = RS_WCW_SRC_QP | RS_WCW_SL | RS_WCW_BYTE_LEN |
			RS_WCW_IMM,
		.src_qp = 0x11, .sl = 0, .byte_len = 296, .imm = 0x1234,
	};
	struct ibv_wc wc = {
		.src_qp = 0x11, .sl = 0, .byte_len = 296,
		.wc_flags = IBV_WC_WITH_IMM, .imm_data = htobe32(0x1234),
	};
	char why[160] = "";

	CHECK(rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	wc.src_qp = 0x12;
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "src_qp 0x12, expected 0x11");
	wc.src_qp = 0x11;
	wc.byte_len = 40;
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "byte_len 40, expected 296");
	wc.byte_len = 296;
	wc.wc_flags = 0;
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "imm expected 0x1234, but the completion has none");
}

/* On an extended CQ a field its wc_flags did not ask for was not read:
 * said so, not compared with a zero; cvlan and flow_tag exist only
 * there. */
TEST(wc, check_unread_and_ex_only)
{
	struct rs_wc_want w = { .mask = RS_WCW_SL, .sl = 3 };
	struct rs_wc_ext ext = { .have = IBV_WC_EX_WITH_QP_NUM };
	struct ibv_wc wc = { .sl = 3 };
	char why[160] = "";

	CHECK(!rs_wc_check(&w, NULL, &wc, &ext, why, sizeof(why)));
	CHECK_STR(why, "sl was not read: the cq has no wc_flags sl");
	ext.have |= IBV_WC_EX_WITH_SL;
	CHECK(rs_wc_check(&w, NULL, &wc, &ext, why, sizeof(why)));
	w.mask = RS_WCW_CVLAN;
	w.cvlan = 7;
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "cvlan was not read: the cq has no wc_flags cvlan");
	ext.have |= IBV_WC_EX_WITH_CVLAN;
	ext.cvlan = 8;
	CHECK(!rs_wc_check(&w, NULL, &wc, &ext, why, sizeof(why)));
	CHECK_STR(why, "cvlan 8, expected 7");
}

TEST(wc, check_grh)
{
	uint8_t grh[40];
	struct rs_wc_want w = { .mask = RS_WCW_SGID | RS_WCW_DGID,
				.grh = grh };
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH };
	char why[160] = "";

	grh_v4(grh, true, true);
	gid("::ffff:10.99.0.1", w.sgid);
	gid("::ffff:10.99.0.2", w.dgid);
	CHECK(rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	gid("::ffff:10.99.0.9", w.dgid);
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "grh dgid ::ffff:10.99.0.2, expected ::ffff:10.99.0.9");
	wc.wc_flags = 0;
	CHECK(!rs_wc_check(&w, NULL, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "grh expected, but the receive has none");
}

/* Bounded: the last of each field read, the timestamps' first and last
 * and how often one went back; only what was read goes to the record. */
TEST(wc, seen_record)
{
	struct rs_wc_seen s = { 0 };
	struct rs_wc_ext ext = {
		.have = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			IBV_WC_EX_WITH_SRC_QP,
	};
	struct ibv_wc wc = { .src_qp = 0x11 };
	struct rs_val *v = rs_val_obj();
	static const uint64_t ts[] = { 100, 150, 140, 200 };

	CHECK(v);
	for (unsigned i = 0; i < 4; i++) {
		ext.ts = ts[i];
		rs_wc_seen_add(&s, &wc, &ext);
	}
	rs_wc_seen_put(&s, v);
	CHECK_UINT(rs_val_get_u64(v, "completions"), 4);
	CHECK_UINT(rs_val_get_u64(v, "src_qp"), 0x11);
	CHECK_UINT(rs_val_get_u64(v, "timestamp_first"), 100);
	CHECK_UINT(rs_val_get_u64(v, "timestamp_last"), 200);
	CHECK_UINT(rs_val_get_u64(v, "timestamp_backwards"), 1);
	CHECK(!rs_val_get(v, "sl"));
	CHECK(!rs_val_get(v, "wallclock_first_ns"));
	rs_val_free(v);
}

/* wc: {timestamps_increase: true}: each completion's timestamp at least
 * the one before it; not read is said so. */
TEST(wc, check_timestamps_increase)
{
	struct rs_wc_want w = { .mask = RS_WCW_TS_UP };
	struct rs_wc_ext ext = {
		.have = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, .ts = 100,
	};
	struct rs_wc_seen s = { 0 };
	struct ibv_wc wc = { 0 };
	char why[160] = "";

	CHECK(rs_wc_check(&w, &s, &wc, &ext, why, sizeof(why)));
	rs_wc_seen_add(&s, &wc, &ext);
	ext.ts = 100;
	CHECK(rs_wc_check(&w, &s, &wc, &ext, why, sizeof(why)));
	rs_wc_seen_add(&s, &wc, &ext);
	ext.ts = 99;
	CHECK(!rs_wc_check(&w, &s, &wc, &ext, why, sizeof(why)));
	CHECK_STR(why, "completion_timestamp 99 went back from 100");
	CHECK(!rs_wc_check(&w, &s, &wc, NULL, why, sizeof(why)));
	CHECK_STR(why, "completion_timestamp was not read: the cq has no "
		  "wc_flags completion_timestamp");
}
