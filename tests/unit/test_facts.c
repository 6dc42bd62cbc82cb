// SPDX-License-Identifier: MIT
/*
 * ${...} expressions and device facts without a device: the evaluator
 * on its own (precedence, range, every error), the fact table against
 * attributes of our own making, requires.facts bounds, and a run's
 * reload of the file with its device's facts (the device faked by
 * filling the context's probe result).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "live.h"
#include "requires.h"
#include "run_fixture.h"
#include "expr.h"
#include "kinds.h"
#include "value.h"

/* size = 4096, dev = "any" and big = "99999999999999999999" (text: a
 * param too big to be read as a number), anything else unknown. */
static int lookup(void *arg, const char *name, size_t len,
		  struct rs_expr_val *ret, char *why, size_t why_len)
{
	(void)arg;
	if (len == 4 && !memcmp(name, "size", 4)) {
		ret->text = false;
		ret->num = 4096;
		return 0;
	}
	if (len == 3 && !memcmp(name, "dev", 3)) {
		ret->text = true;
		ret->str = "any";
		return 0;
	}
	if (len == 3 && !memcmp(name, "big", 3)) {
		ret->text = true;
		ret->str = "99999999999999999999";
		return 0;
	}
	snprintf(why, why_len, "unknown param '%.*s'", (int)len, name);
	return -EINVAL;
}

static char why[320];

/* The value of @e in decimal, or "error: WHY". */
static const char *ev(const char *e)
{
	static char out[400];
	struct rs_expr_val v;
	int r = rs_expr_eval(e, strlen(e), lookup, NULL, &v, why,
			     sizeof(why));

	if (r)
		snprintf(out, sizeof(out), "error: %s", why);
	else if (v.text)
		snprintf(out, sizeof(out), "text: %s", v.str);
	else
		rs_expr_num_text(v.num, out, sizeof(out));
	return out;
}

TEST(facts, expr_precedence)
{
	CHECK_STR(ev("1 + 2 * 3"), "7");
	CHECK_STR(ev("(1 + 2) * 3"), "9");
	CHECK_STR(ev("10 - 4 - 3"), "3");       /* left to right */
	CHECK_STR(ev("64 / 4 / 2"), "8");
	CHECK_STR(ev("17 % 5 * 2"), "4");
	CHECK_STR(ev("2 * -3"), "-6");
	CHECK_STR(ev("- -2 - -2"), "4");
	CHECK_STR(ev("-7 / 2"), "-3");          /* C's: toward zero */
	CHECK_STR(ev("7 / 2"), "3");
	CHECK_STR(ev("0x10 + 1"), "17");
	CHECK_STR(ev("size-1"), "4095");        /* '-' is not in a name */
	CHECK_STR(ev("  size * 2 + 40  "), "8232");
	CHECK_STR(ev("min(5, 3, 9)"), "3");
	CHECK_STR(ev("max(1, min(10, 4)) + 1"), "5");
	CHECK_STR(ev("min(size, 65536) / 2"), "2048");
	CHECK_STR(ev("max(7)"), "7");
	CHECK_STR(ev("dev"), "text: any");      /* a lone name keeps its text */
	CHECK_STR(ev("(size)"), "4096");
}

TEST(facts, expr_range)
{
	CHECK_STR(ev("18446744073709551615"), "18446744073709551615");
	CHECK_STR(ev("-9223372036854775808"), "-9223372036854775808");
	CHECK_STR(ev("18446744073709551615 + 1"),
		  "error: 18446744073709551615 + 1 overflows (the range is "
		  "-9223372036854775808 to 18446744073709551615)");
	CHECK_STR(ev("-9223372036854775808 - 1"),
		  "error: -9223372036854775808 - 1 overflows (the range is "
		  "-9223372036854775808 to 18446744073709551615)");
	CHECK_STR(ev("4294967296 * 4294967296"),
		  "error: 4294967296 * 4294967296 overflows (the range is "
		  "-9223372036854775808 to 18446744073709551615)");
	CHECK_STR(ev("18446744073709551616"),
		  "error: '18446744073709551616' is not an integer from "
		  "-9223372036854775808 to 18446744073709551615");
	CHECK_STR(ev("-18446744073709551615"),
		  "error: the value is below -9223372036854775808");
}

TEST(facts, expr_errors)
{
	char deep[200];

	CHECK_STR(ev("1 / 0"), "error: 1 / 0: division by zero");
	CHECK_STR(ev("size % (2 - 2)"), "error: 4096 % 0: division by zero");
	CHECK_STR(ev(""), "error: an empty expression");
	CHECK_STR(ev("1 +"), "error: expected a number, a name or '(' at "
		  "the end");
	CHECK_STR(ev("(1 + 2"), "error: expected ')'");
	CHECK_STR(ev("1 2"), "error: unexpected '2' after the expression");
	CHECK_STR(ev("12ab"), "error: '12ab' is not an integer from "
		  "-9223372036854775808 to 18446744073709551615");
	CHECK_STR(ev("#"), "error: unexpected '#'");
	CHECK_STR(ev("dev * 2"), "error: dev is 'any', not a number");
	CHECK_STR(ev("2 + -dev"), "error: dev is 'any', not a number");
	CHECK_STR(ev("min(1, dev)"), "error: dev is 'any', not a number");
	/* A number, but out of range: said so, with the range. */
	CHECK_STR(ev("big / 2"), "error: big is '99999999999999999999', not "
		  "an integer from -9223372036854775808 to "
		  "18446744073709551615");
	CHECK_STR(ev("nosuch + 1"), "error: unknown param 'nosuch'");
	CHECK_STR(ev("min(1; 2)"), "error: expected ',' or ')' in min()");
	CHECK_STR(ev("min()"), "error: unexpected ')'");
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	CHECK_STR(ev(deep), "error: nested deeper than 64");
	memset(deep, '-', sizeof(deep) - 2);
	deep[sizeof(deep) - 2] = '1';
	CHECK_STR(ev(deep), "error: nested deeper than 64");
}

TEST(facts, table)
{
	struct ibv_device_attr_ex ax = { 0 };
	struct ibv_port_attr pa = { 0 };
	union ibv_gid gid = { 0 };
	struct rs_fact_src src = { .name = "rxe0", .attr = &ax, .port = &pa,
				   .num_comp_vectors = 3, .gid_index = 1,
				   .gid_type = IBV_GID_TYPE_ROCE_V2,
				   .gid = &gid };
	const struct rs_fact *f;
	struct rs_fact_val v;
	char path[64];

	ax.max_dm_size = 131072;
	ax.orig_attr.max_cqe = 32767;
	ax.orig_attr.atomic_cap = IBV_ATOMIC_HCA;
	pa.max_msg_sz = 0x800000;
	pa.active_mtu = IBV_MTU_1024;
	pa.link_layer = IBV_LINK_LAYER_ETHERNET;

	CHECK(!rs_fact_find("port.nosuch", 11));
	CHECK(!rs_fact_find("max_cqe", 7));
	CHECK(!rs_fact_find("port.max_cqe", 12)); /* a device fact */
	f = rs_fact_find("device.max_dm_size", 18);
	CHECK(f);
	CHECK_STR(rs_fact_path(f, path, sizeof(path)), "device.max_dm_size");
	rs_fact_get(f, &src, &v);
	CHECK(!v.text);
	CHECK_UINT(v.num, 131072);
	rs_fact_get(rs_fact_find("device.max_cqe", 14), &src, &v);
	CHECK_UINT(v.num, 32767);
	rs_fact_get(rs_fact_find("device.num_comp_vectors", 23), &src, &v);
	CHECK_UINT(v.num, 3);
	rs_fact_get(rs_fact_find("device.atomic", 13), &src, &v);
	CHECK_STR(v.str, "hca");
	rs_fact_get(rs_fact_find("device.name", 11), &src, &v);
	CHECK_STR(v.str, "rxe0");
	rs_fact_get(rs_fact_find("port.max_msg_sz", 15), &src, &v);
	CHECK_UINT(v.num, 0x800000);
	rs_fact_get(rs_fact_find("port.active_mtu", 15), &src, &v);
	CHECK_UINT(v.num, 1024);              /* bytes, not the enum */
	rs_fact_get(rs_fact_find("port.link_layer", 15), &src, &v);
	CHECK_STR(v.str, "Ethernet");
	rs_fact_get(rs_fact_find("gid.type", 8), &src, &v);
	CHECK(v.text);
	CHECK_STR(v.str, "RoCE v2");
	CHECK(rs_fact_text_eq(v.str, "roce_v2"));
	CHECK(!rs_fact_text_eq(v.str, "roce_v1"));
	CHECK(!rs_fact_text_eq(v.str, "roce_v"));
	rs_fact_get(rs_fact_find("gid.index", 9), &src, &v);
	CHECK_UINT(v.num, 1);
	/* Every fact has a name, and no two the same in a group. */
	for (unsigned i = 0; (f = rs_fact_at(i)); i++) {
		rs_fact_path(f, path, sizeof(path));
		CHECK_PTR(rs_fact_find(path, strlen(path)), f);
		rs_fact_assumed(f, &v);
		CHECK(v.text == f->text);
	}
}

/* What identifies the device and its flag words, as rxe reports them:
 * GUIDs as ibstat prints them, each named cap bit a 0/1 fact. */
#define FACT(name) rs_fact_find(name, strlen(name))
TEST(facts, ids_and_flags)
{
	struct ibv_device_attr_ex ax = { 0 };
	struct ibv_port_attr pa = { 0 };
	struct rs_fact_src src = { .name = "rxe0", .attr = &ax, .port = &pa };
	struct rs_fact_val v;

	snprintf(ax.orig_attr.fw_ver, sizeof(ax.orig_attr.fw_ver), "0.0.0");
	ax.orig_attr.node_guid = htobe64(0x505400fffe123456ull);
	ax.orig_attr.sys_image_guid = htobe64(0x0002c90300a1b2c3ull);
	ax.orig_attr.vendor_id = 0xffffff;
	ax.orig_attr.vendor_part_id = 0;
	ax.orig_attr.hw_ver = 7;
	ax.orig_attr.phys_port_cnt = 1;
	ax.orig_attr.device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN;
	ax.device_cap_flags_ex = IBV_DEVICE_RAW_SCATTER_FCS;
	ax.rss_caps.max_rwq_indirection_table_size = 512;
	ax.rss_caps.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ;
	pa.port_cap_flags = IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS;

	rs_fact_get(FACT("device.fw_ver"), &src, &v);
	CHECK(v.text);
	CHECK_STR(v.str, "0.0.0");
	rs_fact_get(FACT("device.node_guid"), &src, &v);
	CHECK_STR(v.str, "5054:00ff:fe12:3456");
	rs_fact_get(FACT("device.sys_image_guid"), &src, &v);
	CHECK_STR(v.str, "0002:c903:00a1:b2c3");
	rs_fact_get(FACT("device.vendor_id"), &src, &v);
	CHECK_UINT(v.num, 0xffffff);
	rs_fact_get(FACT("device.hw_ver"), &src, &v);
	CHECK_UINT(v.num, 7);
	rs_fact_get(FACT("device.phys_port_cnt"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("device.rss_caps.max_rwq_indirection_table_size"),
		    &src, &v);
	CHECK_UINT(v.num, 512);
	rs_fact_get(FACT("device.rss_caps.rx_hash_function"), &src, &v);
	CHECK_UINT(v.num, IBV_RX_HASH_FUNC_TOEPLITZ);
	/* A bit of either word counts: _ex holds the extended ones. */
	rs_fact_get(FACT("device.cap_flags.rc_rnr_nak_gen"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("device.cap_flags.raw_scatter_fcs"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("device.cap_flags.xrc"), &src, &v);
	CHECK_UINT(v.num, 0);
	rs_fact_get(FACT("device.device_cap_flags"), &src, &v);
	CHECK_UINT(v.num, IBV_DEVICE_RC_RNR_NAK_GEN |
		   IBV_DEVICE_RAW_SCATTER_FCS);
	rs_fact_get(FACT("port.cap_flags.cm_sup"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("port.cap_flags.sm"), &src, &v);
	CHECK_UINT(v.num, 0);
	rs_fact_get(FACT("port.port_cap_flags"), &src, &v);
	CHECK_UINT(v.num, IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS);
	CHECK(!FACT("device.cap_flags.nosuch"));
	CHECK(!FACT("port.cap_flags.rc_rnr_nak_gen"));

	/* Assumed: a capable RoCE NIC's. */
	rs_fact_assumed(FACT("device.cap_flags.rc_rnr_nak_gen"), &v);
	CHECK_UINT(v.num, 1);
	rs_fact_assumed(FACT("port.cap_flags.ip_based_gids"), &v);
	CHECK_UINT(v.num, 1);
	rs_fact_assumed(FACT("device.vendor_id"), &v);
	CHECK_UINT(v.num, 0x02c9);
	rs_fact_assumed(FACT("device.fw_ver"), &v);
	CHECK_STR(v.str, "0.0.0");
}

/* mlx5.*: what the mlx5 plugin says of the device under "mlx5", by path;
 * a name in a list is 1; a device it does not describe has 0. */
TEST(facts, mlx5_described)
{
	struct rs_val *plugins = rs_val_obj(), *m, *g, *flags;
	struct rs_fact_src src = { .plugins = plugins };
	struct rs_fact_val v;

	CHECK(plugins);
	m = rs_val_put_obj(plugins, "mlx5");
	rs_val_put_u64(m, "version", 1);
	rs_val_put_bool(m, "devx", true);
	flags = rs_val_put_arr(m, "flags");
	rs_val_push_str(flags, "cqe_v1");
	rs_val_push_str(flags, "enhanced_mpw");
	g = rs_val_put_obj(m, "striding_rq");
	rs_val_put_u64(g, "max_strides", 65536);
	g = rs_val_put_obj(m, "cqe_compression");
	rs_val_put_u64(g, "max_num", 64);
	rs_val_push_str(rs_val_put_arr(g, "formats"), "csum");

	rs_fact_get(FACT("mlx5.version"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("mlx5.devx"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("mlx5.flags.cqe_v1"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("mlx5.flags.mpw_allowed"), &src, &v);
	CHECK_UINT(v.num, 0);
	rs_fact_get(FACT("mlx5.striding_rq.max_strides"), &src, &v);
	CHECK_UINT(v.num, 65536);
	rs_fact_get(FACT("mlx5.cqe_compression.max_num"), &src, &v);
	CHECK_UINT(v.num, 64);
	rs_fact_get(FACT("mlx5.cqe_compression.formats.csum"), &src, &v);
	CHECK_UINT(v.num, 1);
	rs_fact_get(FACT("mlx5.cqe_compression.formats.hash"), &src, &v);
	CHECK_UINT(v.num, 0);
	/* Not reported (no DYN_BFREGS in its comp_mask): 0. */
	rs_fact_get(FACT("mlx5.max_dynamic_bfregs"), &src, &v);
	CHECK_UINT(v.num, 0);
	CHECK(!FACT("mlx5.nosuch"));
	/* rxe: the plugin says nothing of it. */
	src.plugins = NULL;
	rs_fact_get(FACT("mlx5.version"), &src, &v);
	CHECK_UINT(v.num, 0);
	rs_fact_assumed(FACT("mlx5.striding_rq.max_strides"), &v);
	CHECK_UINT(v.num, 0);
	rs_val_free(plugins);
}

TEST(facts, requires_bounds)
{
	uint64_t k4 = 4096, k1 = 1024;
	struct rs_fact_bound min = { .fact = "device.max_dm_size", .min = &k4 };
	struct rs_fact_bound max = { .fact = "port.active_mtu", .max = &k1 };
	struct rs_fact_bound eq = { .fact = "gid.type", .equals = "roce_v2" };
	struct rs_fact_bound eqn = { .fact = "port.active_mtu",
				     .equals = "1024" };
	struct rs_fact_val v = { 0 };
	char w[192];

	min.f = rs_fact_find(min.fact, strlen(min.fact));
	max.f = rs_fact_find(max.fact, strlen(max.fact));
	eq.f = rs_fact_find(eq.fact, strlen(eq.fact));
	eqn.f = max.f;
	CHECK(!rs_requires_fact_met(&min, &v, w, sizeof(w)));
	CHECK_STR(w, "device.max_dm_size of at least 4096 (it has 0");
	v.num = 4096;
	CHECK(rs_requires_fact_met(&min, &v, w, sizeof(w)));
	CHECK(!rs_requires_fact_met(&max, &v, w, sizeof(w)));
	CHECK_STR(w, "port.active_mtu of at most 1024 (it has 4096");
	CHECK(!rs_requires_fact_met(&eqn, &v, w, sizeof(w)));
	CHECK_STR(w, "port.active_mtu 1024 (it has 4096");
	v.num = 1024;
	CHECK(rs_requires_fact_met(&eqn, &v, w, sizeof(w)));
	v.text = true;
	snprintf(v.str, sizeof(v.str), "RoCE v1");
	CHECK(!rs_requires_fact_met(&eq, &v, w, sizeof(w)));
	CHECK_STR(w, "gid.type roce_v2 (it has RoCE v1");
	snprintf(v.str, sizeof(v.str), "RoCE v2");
	CHECK(rs_requires_fact_met(&eq, &v, w, sizeof(w)));
}

static const char yaml[] =
	"params:\n"
	"  size: 65536\n"
	"  chunk: \"${min(size, ctx.port.max_msg_sz)}\"\n"
	"contexts: [{id: ctx, device: any, port: 1}]\n"
	"pds: [{id: pd, context: ctx}]\n"
	"cqs: [{id: cq, context: ctx, cqe: \"${min(ctx.device.max_cqe, 256)}\"}]\n"
	"mrs:\n"
	"  - {id: m, pd: pd, length: \"${chunk * 2}\", access: [local_write]}\n";

/* Without a device the assumed values size things; a run loads the file
 * again with its device's and goes on with those. */
TEST(facts, reload)
{
	struct rs_scenario *s;
	struct rs_record rec;
	struct rs_run run;
	struct rs_context_rt *ctx;
	const struct rs_val *facts, *f;

	fixture_run_open("facts.yaml", yaml, &s, &run, &rec);
	CHECK_UINT(s->n_fact_uses, 2);
	CHECK(s->fact_uses[0].assumed);
	CHECK_STR(s->fact_uses[0].ctx, "ctx");
	CHECK_UINT(s->fact_uses[0].loc.line, 3);
	/* min(65536, assumed 1073741824) * 2; min(assumed 4194303, 256) */
	CHECK_UINT(((struct rs_mr *)rs_live_find(&run, "m")->obj->data)->length,
		   131072);
	CHECK_UINT(((struct rs_cq *)rs_live_find(&run, "cq")->obj->data)->cqe,
		   256);

	ctx = rs_live_find(&run, "ctx")->rt;
	snprintf(ctx->dev.name, sizeof(ctx->dev.name), "fake0");
	ctx->dev.port_attr.max_msg_sz = 4096;
	ctx->dev.attr.orig_attr.max_cqe = 100;
	ctx->dev.gid_index = -1;
	run.dry_run = false;
	CHECK_INT(rs_run_facts(&run), 0);
	CHECK(run.s != s);
	CHECK_PTR(run.s, run.s_facts);
	CHECK_PTR(rs_live_find(&run, "m")->obj, &run.s->objs[
		  rs_live_find(&run, "m") - run.live]);
	CHECK_UINT(run.s->n_fact_uses, 2);
	CHECK(!run.s->fact_uses[0].assumed);
	CHECK_UINT(run.s->fact_uses[0].val.num, 4096);
	for (unsigned i = 0; i < run.s->n_params; i++)
		if (!strcmp(run.s->params[i].name, "chunk"))
			CHECK_STR(run.s->params[i].value, "4096");
	/* The live objects are the reloaded file's, sized by the device. */
	CHECK_UINT(((struct rs_mr *)rs_live_find(&run, "m")->obj->data)->length,
		   8192);
	CHECK_UINT(((struct rs_cq *)rs_live_find(&run, "cq")->obj->data)->cqe,
		   100);
	facts = rs_val_get(rec.root, "device_facts");
	CHECK_UINT(rs_val_len(facts), 2);
	f = rs_val_at(facts, 0);
	CHECK_STR(rs_val_get_str(f, "fact"), "port.max_msg_sz");
	CHECK_UINT(rs_val_get_u64(f, "value"), 4096);
	CHECK_STR(rs_val_get_str(f, "device"), "fake0");
	f = rs_val_at(facts, 1);
	CHECK_STR(rs_val_get_str(f, "fact"), "device.max_cqe");
	CHECK_UINT(rs_val_get_u64(f, "value"), 100);
	rs_scenario_free(run.s_facts);
	run.s = s;
	fixture_run_close(s, &run, &rec);
}
