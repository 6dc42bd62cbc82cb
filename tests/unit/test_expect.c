// SPDX-License-Identifier: MIT
/*
 * expect: {create: fail, errno: E} without a device: what the loader
 * reads of it (errno by name or number, none: any), and the hand-over
 * in rs_call_done(): a failed create of such an object is no error
 * there (the create path judges it), its errno kept on the object; any
 * other object's failed create is an error as before.
 */
#include <errno.h>

#include "check.h"
#include "list.h"
#include "live.h"
#include "run_fixture.h"

static const char yaml[] =
	"scenario: expect\n"
	"contexts: [{id: ctx, device: any}]\n"
	"pds: [{id: pd, context: ctx}]\n"
	"cqs:\n"
	"  - {id: by_name, context: ctx, cqe: 16,"
	" expect: {create: fail, errno: EINVAL}}\n"
	"  - {id: by_number, context: ctx, cqe: 16,"
	" expect: {create: fail, errno: 12}}\n"
	"  - {id: any, context: ctx, cqe: 16, expect: {create: fail}}\n"
	"  - {id: plain, context: ctx, cqe: 16}\n";

static int failed_create(struct rs_run *run, struct rs_live *l, int err)
{
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_create_cq");
	c.ok = false;
	c.err = err;
	return rs_call_done(run, l, &c);
}

TEST(expect, read_and_handed_over)
{
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct rs_live *l;

	fixture_run_open("expect", yaml, &s, &run, &rec);
	l = rs_live_find(&run, "by_name");
	CHECK(rs_obj_expect_fail(l->obj));
	CHECK_INT(rs_obj_expect_errno(l->obj), EINVAL);
	l = rs_live_find(&run, "by_number");
	CHECK(rs_obj_expect_fail(l->obj));
	CHECK_INT(rs_obj_expect_errno(l->obj), ENOMEM);
	l = rs_live_find(&run, "any");
	CHECK(rs_obj_expect_fail(l->obj));
	CHECK_INT(rs_obj_expect_errno(l->obj), 0);
	CHECK(!rs_obj_expect_fail(rs_live_find(&run, "plain")->obj));

	/* Expected to fail: no error, the errno kept for the judging. */
	run.dry_run = false;
	l = rs_live_find(&run, "by_name");
	CHECK_INT(failed_create(&run, l, ENOMEM), -ENOMEM);
	CHECK_UINT(run.diag.errors, 0);
	CHECK_INT(l->create_errno, ENOMEM);
	/* A second failed create call of it is an error as usual. */
	CHECK_INT(failed_create(&run, l, EINVAL), -EINVAL);
	CHECK_UINT(run.diag.errors, 1);
	/* Not expected to fail: an error, as before. */
	l = rs_live_find(&run, "plain");
	CHECK_INT(failed_create(&run, l, EINVAL), -EINVAL);
	CHECK_UINT(run.diag.errors, 2);
	CHECK_INT(l->create_errno, 0);
	run.dry_run = true;
	fixture_run_close(s, &run, &rec);
}
