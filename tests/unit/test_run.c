// SPDX-License-Identifier: MIT
/*
 * The engine's run (run/run_scenario.h) called as the CLI calls it, with
 * a reporter of the test's own: a dry run, reporters that could not be
 * made, a matrix cell that did not load.  And rs_role_pick(), which says
 * why it refuses into the caller's buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
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
