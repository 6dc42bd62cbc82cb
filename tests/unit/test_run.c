// SPDX-License-Identifier: MIT
/*
 * The engine's run (run/run_scenario.h) called as the CLI calls it, with
 * a reporter of the test's own: a dry run, reporters that could not be
 * made, a matrix cell that did not load.  And rs_role_pick(), which says
 * why it refuses into the caller's buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cmd_run.h"
#include "exit.h"
#include "list.h"
#include "model.h"
#include "nodes.h"
#include "run.h"
#include "run_fixture.h"
#include "run_scenario.h"
#include "value.h"

static const char yaml[] =
	"scenario: run_unit\n"
	"contexts:\n"
	"  - {id: ctx, device: any, port: 1}\n"
	"pds:\n"
	"  - {id: pd, context: ctx}\n";

static const char yaml_nodes[] =
	"nodes:\n"
	"  - {id: a}\n"
	"  - {id: b}\n"
	"contexts:\n"
	"  - {id: ctx_a, node: a, device: any, port: 1}\n"
	"  - {id: ctx_b, node: b, device: any, port: 1}\n";

/* What a reporter saw: each op counted, the verdict at the end. */
struct seen {
	struct rs_reporter r;
	unsigned begin, entries, end, freed;
	char verdict[32], cell[64];
};

static void seen_begin(struct rs_reporter *r, const struct rs_val *rec)
{
	(void)rec;
	((struct seen *)r)->begin++;
}

static void seen_entry(struct rs_reporter *r, enum rs_rec_entry type,
		       const struct rs_val *e)
{
	(void)type;
	(void)e;
	((struct seen *)r)->entries++;
}

static int seen_end(struct rs_reporter *r, const struct rs_val *rec)
{
	struct seen *s = (struct seen *)r;
	const struct rs_val *cell = rs_val_get(rec, "cell");

	s->end++;
	snprintf(s->verdict, sizeof(s->verdict), "%s",
		 rs_val_text(rec, "verdict"));
	if (cell)
		snprintf(s->cell, sizeof(s->cell), "%s",
			 rs_val_text(cell, "name"));
	return 0;
}

/* The reporter's memory is the test's: freeing counts. */
static void seen_free(struct rs_reporter *r)
{
	((struct seen *)r)->freed++;
}

static const struct rs_reporter_ops seen_ops = {
	.begin = seen_begin, .entry = seen_entry, .end = seen_end,
	.free = seen_free,
};


static void conf_dry(struct rs_run_conf *c)
{
	*c = (struct rs_run_conf){
		.file = "run_unit.yaml",
		.dry_run = true,
		.err = stderr,
		.role = { .node = RS_NODE_ANY, .rank = -1 },
	};
}

/* A dry run passes, and its reporter sees it whole, once, and is freed. */
TEST(run, dry_run_reporters)
{
	struct rs_scenario *s = fixture_load("dry", yaml);
	struct seen a = { .r.ops = &seen_ops };
	struct rs_reporter *r[] = { &a.r };
	struct rs_run_conf c;

	conf_dry(&c);
	CHECK_INT(rs_run_scenario(s, &c, r, 1), RS_EXIT_PASSED);
	CHECK_UINT(a.begin, 1);
	CHECK(a.entries > 0);
	CHECK_UINT(a.end, 1);
	CHECK_STR(a.verdict, "passed");
	CHECK_UINT(a.freed, 1);
	rs_scenario_free(s);
}

/* A reporter that could not be made (NULL) is out of memory: said to
 * the caller, nothing run, and every reporter given is freed once. */
TEST(run, reporter_missing)
{
	struct rs_scenario *s = fixture_load("oom", yaml);
	struct seen a = { .r.ops = &seen_ops }, b = { .r.ops = &seen_ops };
	struct rs_reporter *r[] = { &a.r, NULL, &b.r };
	struct rs_run_conf c;

	conf_dry(&c);
	CHECK_INT(rs_run_scenario(s, &c, r, 3), -ENOMEM);
	CHECK_UINT(a.begin + b.begin, 0);
	CHECK_UINT(a.freed, 1);
	CHECK_UINT(b.freed, 1);
	rs_scenario_free(s);
}

/* A matrix cell that did not load: a record of its own, verdict
 * invalid, naming the cell. */
TEST(run, invalid_cell)
{
	struct rs_scenario *s = fixture_load("cell", yaml);
	struct seen a = { .r.ops = &seen_ops };
	struct rs_reporter *r[] = { &a.r };
	struct rs_cell cell = { .name = "size=0" };
	struct rs_val *errors = rs_val_arr(), *e = rs_val_push_obj(errors);
	struct rs_run_conf c;

	rs_val_put_str(e, "message", "size: 0 is below 1");
	conf_dry(&c);
	c.cell = &cell;
	CHECK_INT(rs_run_invalid_cell(s, &c, errors, r, 1), RS_EXIT_INVALID);
	CHECK_UINT(a.end, 1);
	CHECK_STR(a.verdict, "invalid");
	CHECK_STR(a.cell, "size=0");
	CHECK_UINT(a.freed, 1);
	rs_val_free(errors);
	rs_scenario_free(s);
}

/* rs_role_pick(): --node picks; an unknown one is refused with the
 * reason in the buffer, cut to its size, for the CLI to say. */
TEST(run, role_pick)
{
	struct rs_scenario *s = fixture_load("roles", yaml_nodes);
	struct rs_role role;
	char why[512], tiny[8];

	CHECK_INT(rs_role_pick(s, "f.yaml", "b", false, &role, why,
			       sizeof(why)), 0);
	CHECK_INT(role.node, 1);
	CHECK_STR(role.from, "--node");
	CHECK_INT(rs_role_pick(s, "f.yaml", "c", false, &role, why,
			       sizeof(why)), -EINVAL);
	CHECK_STR(why, "--node c: f.yaml has no such node (nodes: a, b).");
	CHECK_INT(rs_role_pick(s, "f.yaml", "c", false, &role, tiny,
			       sizeof(tiny)), -EINVAL);
	CHECK_STR(tiny, "--node ");
	/* A dry run without a role shows every node's calls. */
	CHECK_INT(rs_role_pick(s, "f.yaml", NULL, true, &role, why,
			       sizeof(why)), 0);
	CHECK_INT(role.node, RS_NODE_ANY);
	rs_scenario_free(s);
}

/* A run that keeps no calls formats no arguments, and says so to those
 * whose argument costs to make (an mr's access flags). */
/* rs_hex() writes what "0x%0*" PRIx64 would (the facts' bytes stay as
 * they were when they were formatted). */
TEST(run, hex_as_printf)
{
	static const uint64_t vals[] = {
		0, 1, 0xf, 0x10, 0x7e97c, 0x0007f8, 0xffffff, 0x1000000,
		0x55ad479ef000, UINT32_MAX, UINT64_MAX,
	};
	char got[RS_HEX_MAX], want[64];

	for (size_t i = 0; i < RS_N(vals); i++) {
		for (unsigned d = 0; d <= 8; d++) {
			snprintf(want, sizeof(want), "0x%0*" PRIx64, (int)d,
				 vals[i]);
			CHECK_STR(rs_hex(vals[i], d, got), want);
		}
	}
	/* As wide as the buffer holds, never past it. */
	CHECK_UINT(strlen(rs_hex(0, 100, got)), RS_HEX_MAX - 1);
}

/* rs_bits_text() copies what its snprintf() wrote, cut the same way
 * when the buffer is short. */
TEST(run, bits_text_as_printf)
{
	static const struct rs_bit_name names[] = {
		{ 1, "local_write" }, { 2, "remote_write" },
		{ 4, "remote_read" }, { 8, "remote_atomic" },
	};
	static const uint64_t bits[] = { 0, 1, 2, 6, 14, 15, 16 };
	char got[64], want[64];

	for (size_t b = 0; b < RS_N(bits); b++) {
		for (size_t len = 1; len <= sizeof(got); len++) {
			size_t used = 0;

			/* The way it was written before. */
			want[0] = '\0';
			for (size_t i = 0; i < RS_N(names); i++)
				if (bits[b] & names[i].bit && used < len)
					used += snprintf(want + used,
							 len - used, "%s%s",
							 used ? "|" : "",
							 names[i].name);
			if (!used)
				snprintf(want, len, "0");
			memset(got, 'X', sizeof(got));
			rs_bits_text(bits[b], names, RS_N(names), got, len);
			CHECK_STR(got, want);
		}
	}
	CHECK_STR(rs_bits_text(14, names, RS_N(names), got, sizeof(got)),
		  "remote_write|remote_read|remote_atomic");
}

TEST(run, call_args_only_when_wanted)
{
	struct rs_call c;

	rs_call_want_args(false);
	CHECK(!rs_call_args_wanted());
	rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_mr");
	rs_call_arg(&c, "length", "%u", 4096u);
	CHECK_UINT(c.len, 0);
	CHECK_STR(c.args, "");
	rs_call_want_args(true);
	CHECK(rs_call_args_wanted());
	rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_mr");
	rs_call_arg(&c, "length", "%u", 4096u);
	CHECK_STR(c.args, "length=4096");
}

/* rs_run_facts_read(): a real run describes its objects (and reads back
 * a connection's two QPs) only for a reader: -q alone has none. */
TEST(run, facts_read_only_for_a_reader)
{
	struct rs_scenario *s = fixture_load("facts", yaml);
	struct rs_scenario *sn = fixture_load("facts_nodes", yaml_nodes);
	struct run_opts o = { .text.quiet = true };
	bool verbose = rs_verbose;

	rs_verbose = false;
	CHECK(!rs_run_facts_read(&o, s, false));
	/* The text report prints each object's facts as it is made. */
	o.text.quiet = false;
	CHECK(rs_run_facts_read(&o, s, false));
	o.text.quiet = true;
	/* --json or --junit. */
	CHECK(rs_run_facts_read(&o, s, true));
	o.graph_out = "g.dot";
	CHECK(rs_run_facts_read(&o, s, false));
	o.graph_out = NULL;
	/* --jobs: each cell's record comes from a process of its own. */
	o.jobs = 2;
	CHECK(rs_run_facts_read(&o, s, false));
	o.jobs = 1;
	CHECK(!rs_run_facts_read(&o, s, false));
	/* The nodes send their records to the launcher. */
	CHECK(rs_run_facts_read(&o, sn, false));
	rs_verbose = true;
	CHECK(rs_run_facts_read(&o, s, false));
	rs_verbose = verbose;
	rs_scenario_free(s);
	rs_scenario_free(sn);
}
